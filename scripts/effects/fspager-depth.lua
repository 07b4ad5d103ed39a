-- fspager-depth: the left page slides away; the right one waits behind, small and faded
-- Source: FSPagerView, 0.8.3 (f90ab7d), Sources/FSPageViewTransformer.swift, depth
--
-- Files: Sources/FSPageViewLayout.swift (the layout), Sources/FSPageViewTransformer.swift
-- (the transformers), FSPageViewExample-Swift/…/TransformerExampleViewController.swift
-- (the example's item size and deceleration distance per transformer).
-- The layout (FSPagerViewLayout, a UICollectionViewLayout) lays the items on one
-- horizontal line, centred across the pager: leading spacing L = (W − w)/2 on both ends,
-- item i at x = L + i·pitch, pitch = w + interitemSpacing, y = (H − h)/2 (W × H: the
-- collection view, which is the pager here; w × h: the item). The port gets those frames
-- from a flow layout: sectionInset (top, L, bottom, L) with top = bottom = (H − h)/2,
-- minimumLineSpacing = interitemSpacing (negative ones overlap, as here). A transformer
-- proposes its own interitemSpacing, which replaces the pager's. (An item wider than the
-- pager would need a negative L, which sectionInset cannot take: the port uses 0 then.)
-- Each item's progress, in pitches: position p = (center.x − bounds.midX) / pitch; the
-- layout gives every item zIndex = numberOfItems − Int(p) (Int truncates toward zero)
-- before the transformer runs, and the transformer may replace it.
-- Its element query (layoutAttributesForElements, ported as the script's own): the rect
-- is cut to the content, and the items from max(Int((minX − L)/pitch), 0) up to the last
-- whose x ≤ min(maxX, contentWidth − w − L) are returned (with negative spacing an item
-- further left can still overlap the rect; FSPagerView leaves it out, so does the port).
-- Scrolling: decelerationRate .fast, no isPagingEnabled; targetContentOffset rounds to a
-- pitch: decelerationDistance 0 (FSPagerView.automaticDistance): |v| ≥ 0.3 pt/ms →
-- round(proposed/pitch + 0.35·sign v), else round(proposed/pitch); N ≥ 1: v ≥ 0.3 →
-- ceil(offset/pitch + N − 1), v ≤ −0.3 → floor(offset/pitch − (N − 1)), else
-- round(proposed/pitch); then clamped to 0 … contentWidth − pitch. The library's default
-- is 1; the example's value for this transformer is kept (the param decelerationDistance).
-- isInfinite is off (the library's default; the example turns it on): no wrap.
-- The pager here is the whole viewport (414 × 736 by default, portrait); the example's
-- pager is a 375 × 193 band (Main.storyboard): `--viewport 375x193` shows its shape.
-- Item size: FSPagerView.automaticSize (the pager's size: full pages), as the example
-- sets for this transformer (params itemWidthRatio, itemHeightRatio = 1). The pager's own
-- interitemSpacing (default 0) is used: this transformer does not propose one.
-- depth (minimumScale 0.5 for this type): p < −1: alpha 0, zIndex 0; −1 ≤ p ≤ 0: the
-- normal slide, alpha 1, zIndex 1; 0 < p < 1: alpha 1 − p, tx = −pitch·p (held at the
-- centre), scale s = minimumScale + (1 − minimumScale)·(1 − |p|), transform a = d = s with
-- that tx, zIndex 0; p ≥ 1: alpha 0, zIndex 0.

params = {
  itemWidthRatio = { value = 1, min = 0.1, max = 1, step = 0.05 },   -- itemSize.width / pager width
  itemHeightRatio = { value = 1, min = 0.1, max = 1, step = 0.05 },  -- itemSize.height / pager height
  interitemSpacing = { value = 0, min = -100, max = 100, step = 1 },   -- the pager's, points
  minimumScale = { value = 0.5, min = 0, max = 1, step = 0.05 },
  decelerationDistance = { value = 1, min = 0, max = 5, step = 1 },  -- 0: automaticDistance
}

local function trunc(x)   -- Swift's Int(x): toward zero
  return x >= 0 and math.floor(x) or math.ceil(x)
end

local function round(x)   -- Swift's round: halves away from zero
  return x >= 0 and math.floor(x + 0.5) or -math.floor(-x + 0.5)
end

function prepare(layout)
  local size = layout.collectionView.bounds.size   -- the pager's frame
  local itemSize = CGSizeMake(size.width * params.itemWidthRatio, size.height * params.itemHeightRatio)
  local vertical = math.max(0, (size.height - itemSize.height) * 0.5)
  local leading = math.max(0, (size.width - itemSize.width) * 0.5)   -- ≥ 0 for sectionInset
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.itemSize = itemSize
  layout.sectionInset = UIEdgeInsetsMake(vertical, leading, vertical, leading)
  layout.minimumLineSpacing = params.interitemSpacing  -- proposedInteritemSpacing()
  layout.decelerationRate = UIScrollViewDecelerationRateFast
  -- A plain UICollectionViewLayout: it does not mirror right to left (UIKit's default
  -- for that class, unlike the flow layout's).
  layout.flipsHorizontallyInOppositeLayoutDirection = false
end

-- FSPagerViewLayout.layoutAttributesForElements(in:), with its base zIndex.
function layoutAttributesForElements(rect, layout)
  local result = {}
  local leading = layout.sectionInset.left
  local itemWidth = layout.itemSize.width
  local pitch = itemWidth + layout.minimumLineSpacing
  local contentWidth = layout.collectionViewContentSize.width
  local minX, maxX = math.max(rect.minX, 0), math.min(rect.maxX, contentWidth)
  if pitch <= 0 or maxX <= minX then return result end
  local count = layout.collectionView:numberOfItems(0)
  local item = math.max(trunc((minX - leading) / pitch), 0)
  local origin = leading + item * pitch
  local maxPosition = math.min(maxX, contentWidth - itemWidth - leading)
  local midX = layout.collectionView.bounds.midX
  while item < count and origin - maxPosition <= math.max(100 * 2.220446049250313e-16 * ABS(origin + maxPosition),
                                                          4.9406564584124654e-324) do
    local attributes = layout:layoutAttributesForItem(IndexPath(item, 0))
    attributes.zIndex = count - trunc((attributes.center.x - midX) / pitch)
    result[#result + 1] = attributes
    item = item + 1
    origin = origin + pitch
  end
  return result
end

-- FSPagerViewLayout.targetContentOffset(forProposedContentOffset:withScrollingVelocity:).
function targetContentOffset(proposedContentOffset, velocity, layout)
  local pitch = layout.itemSize.width + layout.minimumLineSpacing
  local proposed = proposedContentOffset.x
  local distance = math.floor(params.decelerationDistance)   -- a UInt in the source
  local target
  if distance == 0 then
    if ABS(velocity.x) >= 0.3 then
      local vector = velocity.x >= 0 and 1.0 or -1.0
      target = round(proposed / pitch + 0.35 * vector) * pitch
    else
      target = round(proposed / pitch) * pitch
    end
  else
    local extraDistance = math.max(distance - 1, 0)
    local current = layout.collectionView.contentOffset.x
    if velocity.x >= 0.3 then
      target = math.ceil(current / pitch + extraDistance) * pitch
    elseif velocity.x <= -0.3 then
      target = math.floor(current / pitch - extraDistance) * pitch
    else
      target = round(proposed / pitch) * pitch
    end
  end
  target = math.max(0, target)
  target = math.min(layout.collectionView.contentSize.width - pitch, target)
  return CGPointMake(target, proposedContentOffset.y)
end

function transform(attributes, layout)
  local itemSpacing = attributes.bounds.width + layout.minimumLineSpacing
  local position = (attributes.center.x - layout.collectionView.bounds.midX) / itemSpacing
  local t = CGAffineTransformIdentity
  local zIndex, alpha = 0, 0
  if position >= -1 and position <= 0 then
    alpha = 1
    zIndex = 1
  elseif position > 0 and position < 1 then
    alpha = 1.0 - position
    t.tx = itemSpacing * -position          -- counteract the slide
    local scaleFactor = params.minimumScale + (1.0 - params.minimumScale) * (1.0 - ABS(position))
    t.a = scaleFactor
    t.d = scaleFactor
    zIndex = 0
  end
  attributes.alpha = alpha
  attributes.transform = t
  attributes.zIndex = zIndex
end
