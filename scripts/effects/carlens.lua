-- carlens: the centred card slides down below its header, the side cards ride up
-- Source: CarLensCollectionViewLayout, e780154 (2019), CarLensCollectionViewLayout/CarLensCollectionViewLayout.swift
--
-- The layout (setup, on the first prepare): horizontal; minimumLineSpacing =
-- options.minimumSpacing (default 20); itemSize = options.itemSize, default
-- (W - 60, H); decelerationRate options.decelerationRate (default .fast); scroll indicator
-- hidden. It centres the end items with collectionView.contentInset ((H - h)/2, (W - w)/2,
-- same, same); cardlua has no contentInset, so the port puts the same amounts in
-- sectionInset: the pictures are the source's, and every content offset here is the
-- source's plus (W - w)/2 (the source starts at -30, the port at 0).
-- Per item (layoutAttributesForElements): maxDistance = w + minimumLineSpacing,
-- d = min(W/2 - (center.x - contentOffset.x), maxDistance),
-- progress = clamp((maxDistance - |d|)/maxDistance, 0, 1), handed to the cell. The layout
-- changes nothing else (no transform, alpha or zIndex).
-- The cell (CarLensCollectionViewCell.swift, configure(topView:cardView:topViewHeight:)):
-- a top view of topViewHeight (default 200) at the cell's top and the card view below it
-- to the cell's bottom; at each progress the card view's transform is
-- translate(0, -(topViewHeight - progress * topViewHeight)): the centred card rests
-- below the top view, the others ride up over it. The demo cell's card view is white with
-- cornerRadius 10, its top view a "CarLens" label (text, not drawn here). The port draws
-- the card view: the item's frame becomes the card view's frame (the cell's frame minus
-- the top view), with the cell's translation as its transform, white, cornerRadius 10.
--
-- Snapping (targetContentOffset): the item whose centre is nearest the proposal's centre,
-- at center.x - W/2. Source bugs, fixed: the source aims at proposed.x +
-- proposed.x * velocity.x + W/2, a velocity term that grows with the offset (backwards at
-- the start, where the source's offset is negative; hundreds of points late in the
-- list), and it takes its candidates from the CURRENT bounds, so a fling can only land on
-- an item already on screen. The port aims at proposed.x + W/2 (the proposal already
-- carries the release velocity through the deceleration) and takes its candidates from
-- the proposed rect: the intent, a fling comes to rest on the card nearest where it would
-- stop. No paging, no wrap.

params = {
  minimumSpacing = { value = 20, min = 0, max = 200, step = 1 },     -- options.minimumSpacing (default 20)
  topViewHeight = { value = 200, min = 0, max = 600, step = 10 },    -- configure(topViewHeight:) (default 200)
  itemWidth = { value = 0, min = 0, max = 2000, step = 10 },         -- options.itemSize: 0 = default W - 60
  itemHeight = { value = 0, min = 0, max = 2000, step = 10 },        -- options.itemSize: 0 = default H
}

function prepare(layout)
  local bounds = layout.collectionView.bounds
  local width = params.itemWidth > 0 and params.itemWidth or bounds.width - 60
  local height = params.itemHeight > 0 and params.itemHeight or bounds.height
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.minimumLineSpacing = params.minimumSpacing
  layout.itemSize = CGSizeMake(width, height)
  local sidesInset = (bounds.width - width) / 2
  local topAndBottomInset = (bounds.height - height) / 2
  -- the source's contentInset, as section insets (a negative inset would be the source's
  -- item wider than the screen: kept at 0)
  layout.sectionInset = UIEdgeInsetsMake(math.max(0, topAndBottomInset), math.max(0, sidesInset),
                                         math.max(0, topAndBottomInset), math.max(0, sidesInset))
  layout.decelerationRate = UIScrollViewDecelerationRateFast
end

function transform(attributes, layout)
  local collectionView = layout.collectionView
  local collectionCenter = collectionView.bounds.size.width / 2
  local offset = collectionView.contentOffset.x
  local normalizedCenter = attributes.center.x - offset
  local maxDistance = layout.itemSize.width + layout.minimumLineSpacing
  local distanceFromCenter = math.min(collectionCenter - normalizedCenter, maxDistance)
  local ratio = (maxDistance - math.abs(distanceFromCenter)) / maxDistance
  local progress = math.min(1, math.max(0, ratio))
  -- the cell: the card view below a top view of topViewHeight
  local frame = attributes.frame
  local topViewHeight = math.min(params.topViewHeight, frame.height - 1)
  attributes.frame = CGRectMake(frame.x, frame.y + topViewHeight, frame.width, frame.height - topViewHeight)
  local cardOffset = topViewHeight - progress * topViewHeight
  attributes.transform3D = CATransform3DMakeTranslation(0, -cardOffset, 0)
  attributes.backgroundColor = "#ffffff"
  attributes.cornerRadius = 10
end

function targetContentOffset(proposedContentOffset, velocity, layout)
  local bounds = layout.collectionView.bounds
  local centerOffset = bounds.size.width / 2
  local offsetWithCenter = proposedContentOffset.x + centerOffset
  local proposedRect = CGRectMake(proposedContentOffset.x, proposedContentOffset.y, bounds.width, bounds.height)
  local closest
  for _, attributes in ipairs(layout:layoutAttributesForElements(proposedRect)) do
    if closest == nil or math.abs(attributes.center.x - offsetWithCenter)
        < math.abs(closest.center.x - offsetWithCenter) then
      closest = attributes
    end
  end
  if closest == nil then return proposedContentOffset end
  return CGPointMake(closest.center.x - centerOffset, 0)
end
