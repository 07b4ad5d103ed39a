-- upcarousel: the centred card is full size and opaque, side cards shrink to 0.6 and fade
-- Source: UPCarouselFlowLayout, b1a3631 (2018), UPCarouselFlowLayout/UPCarouselFlowLayout.swift
--
-- A UICollectionViewFlowLayout subclass. prepare() (updateLayout): sectionInset centres
-- the first and last items, ((H - h)/2, (W - w)/2, (H - h)/2, (W - w)/2);
-- scaledItemOffset = (w - w * sideItemScale)/2; spacingMode .fixed(spacing) (default 40):
-- minimumLineSpacing = spacing - scaledItemOffset (the gap between a shrunk side item and
-- the centred one is `spacing`); .overlap(visibleOffset): minimumLineSpacing =
-- xInset - (visibleOffset + scaledItemOffset) (`visibleOffset` points of each side item
-- show at the screen's edges). It forces decelerationRate .fast.
-- Per item: maxDistance = w + minimumLineSpacing, distance = min(|W/2 - (center.x -
-- contentOffset.x)|, maxDistance), ratio = (maxDistance - distance)/maxDistance;
-- alpha = ratio(1 - sideItemAlpha) + sideItemAlpha, scale = ratio(1 - sideItemScale) +
-- sideItemScale (CATransform3DScale(identity, scale, scale, 1)), zIndex = Int(alpha * 10)
-- (truncated), center.y += (1 - ratio) * sideItemShift. Library defaults kept:
-- sideItemScale 0.6, sideItemAlpha 0.6, sideItemShift 0, spacingMode .fixed(40)
-- (spacingMode param 0; 1 is .overlap(visibleOffset)).
-- The demo's item size is kept: 200 x 200, and its cell is a circle (cornerRadius =
-- max(w, h)/2; the demo's 10-point purple border is not drawn). The demo itself sets
-- sideItemAlpha 0.4 and .overlap(visibleOffset: 30): `--param sideItemAlpha=0.4 --param
-- spacingMode=1` shows it (visibleOffset's value is the demo's 30).
--
-- Snapping (targetContentOffset): the item whose centre is nearest proposed.x + W/2, at
-- floor(center.x - W/2), among the candidates of layoutAttributesForElements(in:
-- collectionView.bounds) — the CURRENT bounds, as the source has it: a fling lands at most
-- on a card that was on screen at the release (from 0 at 8 pt/ms it rests at 200, not
-- 800). snapInProposedRect = 1 takes the candidates from the proposed rect instead (where
-- the fling would stop: likely the source's intent; off by default, the port is
-- faithful). No paging (the source returns the proposal when isPagingEnabled), no wrap.

params = {
  sideItemScale = { value = 0.6, min = 0, max = 1, step = 0.05 },    -- sideItemScale (default 0.6)
  sideItemAlpha = { value = 0.6, min = 0, max = 1, step = 0.05 },    -- sideItemAlpha (default 0.6; demo 0.4)
  sideItemShift = { value = 0, min = -300, max = 300, step = 1 },    -- sideItemShift (default 0)
  spacingMode = { value = 0, min = 0, max = 1, step = 1 },           -- 0 .fixed (default), 1 .overlap
  spacing = { value = 40, min = -100, max = 200, step = 1 },         -- .fixed(spacing:) (default 40)
  visibleOffset = { value = 30, min = -100, max = 200, step = 1 },   -- .overlap(visibleOffset:) (demo 30)
  itemWidth = { value = 200, min = 20, max = 400, step = 10 },       -- the demo's itemSize
  itemHeight = { value = 200, min = 20, max = 700, step = 10 },
  snapInProposedRect = { value = 0, min = 0, max = 1, step = 1 },     -- 0 the source's snap; 1 cardlua's fix
}

function prepare(layout)
  local collectionSize = layout.collectionView.bounds.size
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.itemSize = CGSizeMake(params.itemWidth, params.itemHeight)
  layout.decelerationRate = UIScrollViewDecelerationRateFast         -- setupCollectionView
  local yInset = (collectionSize.height - params.itemHeight) / 2
  local xInset = (collectionSize.width - params.itemWidth) / 2
  layout.sectionInset = UIEdgeInsetsMake(yInset, xInset, yInset, xInset)
  local side = params.itemWidth
  local scaledItemOffset = (side - side * params.sideItemScale) / 2
  if params.spacingMode < 0.5 then
    layout.minimumLineSpacing = params.spacing - scaledItemOffset
  else
    local fullSizeSideItemOverlap = params.visibleOffset + scaledItemOffset
    layout.minimumLineSpacing = xInset - fullSizeSideItemOverlap
  end
end

function transform(attributes, layout)
  local collectionView = layout.collectionView
  local collectionCenter = collectionView.frame.size.width / 2
  local offset = collectionView.contentOffset.x
  local normalizedCenter = attributes.center.x - offset
  local maxDistance = layout.itemSize.width + layout.minimumLineSpacing
  local ratio = 1
  if maxDistance > 0 then    -- an overlap wider than the item: every card at full size
    local distance = math.min(math.abs(collectionCenter - normalizedCenter), maxDistance)
    ratio = (maxDistance - distance) / maxDistance
  end
  local alpha = ratio * (1 - params.sideItemAlpha) + params.sideItemAlpha
  local scale = ratio * (1 - params.sideItemScale) + params.sideItemScale
  local shift = (1 - ratio) * params.sideItemShift
  attributes.alpha = alpha
  attributes.transform3D = CATransform3DScale(CATransform3DIdentity, scale, scale, 1)
  attributes.zIndex = math.floor(alpha * 10)
  attributes.center.y = attributes.center.y + shift
  attributes.cornerRadius = math.max(attributes.size.width, attributes.size.height) / 2   -- the demo's round cell
end

function targetContentOffset(proposedContentOffset, velocity, layout)
  local bounds = layout.collectionView.bounds
  local midSide = bounds.width / 2
  local proposedContentOffsetCenterOrigin = proposedContentOffset.x + midSide
  local candidatesRect = bounds                                       -- the source: on screen now
  if params.snapInProposedRect ~= 0 then
    candidatesRect = CGRectMake(proposedContentOffset.x, proposedContentOffset.y, bounds.width, bounds.height)
  end
  local closest
  for _, attributes in ipairs(layout:layoutAttributesForElements(candidatesRect)) do
    if closest == nil or math.abs(attributes.center.x - proposedContentOffsetCenterOrigin)
        < math.abs(closest.center.x - proposedContentOffsetCenterOrigin) then
      closest = attributes
    end
  end
  if closest == nil then return proposedContentOffset end
  return CGPointMake(math.floor(closest.center.x - midSide), proposedContentOffset.y)
end
