-- fspager-coverflow: cover flow: side cards turn up to 67.5° and sink back, overlapping
-- Source: FSPagerView, 0.8.3 (f90ab7d), Sources/FSPageViewTransformer.swift, coverFlow
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
-- Item size: the example's, 220 × 170 points (params itemWidth, itemHeight).
-- coverFlow: q = clamp(−p, −1, 1), rotation = sin(q·π/2)·π/4·1.5 about y,
-- translationZ = −pitch·0.5·|q|; transform = identity with m34 −0.002, then
-- CATransform3DRotate(rotation, 0, 1, 0), then CATransform3DTranslate(0, 0, translationZ)
-- (so the push back applies first, then the turn, then the perspective); zIndex =
-- 100 − Int(|q|); alpha untouched (1). Proposed interitemSpacing −w·sin(π/4·1/4·3).

params = {
  itemWidth = { value = 220, min = 40, max = 400, step = 5 },    -- itemSize, points
  itemHeight = { value = 170, min = 40, max = 700, step = 5 },
  decelerationDistance = { value = 0, min = 0, max = 5, step = 1 },  -- 0: automaticDistance
}

local function trunc(x)   -- Swift's Int(x): toward zero
  return x >= 0 and math.floor(x) or math.ceil(x)
end

local function round(x)   -- Swift's round: halves away from zero
  return x >= 0 and math.floor(x + 0.5) or -math.floor(-x + 0.5)
end

function prepare(layout)
  local size = layout.collectionView.bounds.size   -- the pager's frame
  local itemSize = CGSizeMake(params.itemWidth, params.itemHeight)
  local vertical = math.max(0, (size.height - itemSize.height) * 0.5)
  local leading = math.max(0, (size.width - itemSize.width) * 0.5)   -- ≥ 0 for sectionInset
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.itemSize = itemSize
  layout.sectionInset = UIEdgeInsetsMake(vertical, leading, vertical, leading)
  layout.minimumLineSpacing = -itemSize.width * math.sin(M_PI * 0.25 * 0.25 * 3.0)  -- proposedInteritemSpacing()
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
  position = math.min(math.max(-position, -1), 1)
  local rotation = math.sin(position * M_PI * 0.5) * M_PI * 0.25 * 1.5
  local translationZ = -itemSpacing * 0.5 * ABS(position)
  local t = CATransform3DIdentity
  t.m34 = -0.002
  t = CATransform3DRotate(t, rotation, 0, 1, 0)
  t = CATransform3DTranslate(t, 0, 0, translationZ)
  attributes.zIndex = 100 - trunc(ABS(position))
  attributes.transform3D = t
end
