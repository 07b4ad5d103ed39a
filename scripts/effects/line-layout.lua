-- line-layout: cards zoom up to 1.3× as they pass the centre, the nearest one snaps there
-- Source: Apple's LineLayout sample, WWDC 2012 "Advanced Collection Views", LineLayout.m
-- (also in Twitter TUIKit as ExampleCollectionViewLineLayout.m).
--
-- Constants kept: ITEM_SIZE 200, ACTIVE_DISTANCE 200, ZOOM_FACTOR 0.3, a horizontal line
-- with sectionInset (200, 0, 200, 0) and minimumLineSpacing 50. Inside ACTIVE_DISTANCE of
-- the visible rect's midX a card scales by 1 + ZOOM_FACTOR · (1 − |d| / ACTIVE_DISTANCE)
-- and is lifted to zIndex 1; farther cards keep their base attributes. A fling rests
-- with the card nearest the centre of the *proposed* rect centred. No wrap, no paging,
-- every card double-sided: the sample sets none of them.

params = {
  itemSize = { value = 200, min = 40, max = 400, step = 10 },        -- ITEM_SIZE
  activeDistance = { value = 200, min = 10, max = 600, step = 10 },  -- ACTIVE_DISTANCE
  zoomFactor = { value = 0.3, min = 0, max = 1, step = 0.05 },       -- ZOOM_FACTOR
}

function prepare(layout)
  layout.itemSize = CGSizeMake(params.itemSize, params.itemSize)
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.sectionInset = UIEdgeInsetsMake(200, 0.0, 200, 0.0)
  layout.minimumLineSpacing = 50.0
end

function transform(attributes, layout)
  local visibleRect = layout.collectionView.bounds
  local distance = CGRectGetMidX(visibleRect) - attributes.center.x
  local normalizedDistance = distance / params.activeDistance
  if ABS(distance) < params.activeDistance then
    local zoom = 1 + params.zoomFactor * (1 - ABS(normalizedDistance))
    attributes.transform3D = CATransform3DMakeScale(zoom, zoom, 1.0)
    attributes.zIndex = 1
  end
end

function targetContentOffset(proposedContentOffset, velocity, layout)
  local offsetAdjustment = MAXFLOAT
  local bounds = layout.collectionView.bounds
  local horizontalCenter = proposedContentOffset.x + CGRectGetWidth(bounds) / 2.0
  local targetRect = CGRectMake(proposedContentOffset.x, 0.0, bounds.width, bounds.height)
  for _, layoutAttributes in ipairs(layout:layoutAttributesForElements(targetRect)) do
    local itemHorizontalCenter = layoutAttributes.center.x
    if ABS(itemHorizontalCenter - horizontalCenter) < ABS(offsetAdjustment) then
      offsetAdjustment = itemHorizontalCenter - horizontalCenter
    end
  end
  return CGPointMake(proposedContentOffset.x + offsetAdjustment, proposedContentOffset.y)
end
