-- League of Legends skin picker (seed 000, WZXLOLCardLayout by WzxJiang).
-- Cards turn about the y axis with distance from the centre, up to 35° at 200 points,
-- and a fling comes to rest with the card nearest the centre centred.
-- Note the seed's m34 = +1/600: a reversed perspective, kept as the article has it.
-- The sizes are the article's too: a 500-pt card between 200-pt section insets top and
-- bottom needs 900 pt of a 736-pt view, which a real UICollectionViewFlowLayout logs
-- ("the item height must be less than the height of the UICollectionView minus the
-- section insets top and bottom values, minus the content insets top and bottom
-- values"; check and run warn the same). A real app centres the card instead: top and
-- bottom insets of (bounds.height - itemSize.height) / 2 or less, less the safe area
-- (docs/export.md, "Wiring the layout into an app").

local ACTIVE_DISTANCE = 200              -- the original project's value (see seeds/README)
local ROTATE = 35.0 * M_PI / 180.0       -- #define rotate 35.0*M_PI/180.0

-- prepareLayout: the card size scales with the screen (GiveMeWidth/GiveMeHeight).
function prepare(layout)
  local size = layout.collectionView.bounds.size
  layout.itemSize = CGSizeMake(300 * size.width / 414, 500 * size.height / 736)
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.sectionInset = UIEdgeInsetsMake(200, 50.0, 200, 50.0)
  layout.minimumLineSpacing = 0.0
end

-- layoutAttributesForElementsInRect: each card's turn from its distance to the centre.
function transform(attributes, layout)
  local visibleRect = layout.collectionView.bounds
  local distance = CGRectGetMidX(visibleRect) - attributes.center.x
  local t = CATransform3DIdentity
  t.m34 = 1.0 / 600
  if ABS(distance) < ACTIVE_DISTANCE then
    local normalizedDistance = distance / ACTIVE_DISTANCE
    local zoom = ROTATE * normalizedDistance
    t = CATransform3DRotate(t, -zoom, 0.0, 1.0, 0.0)
  elseif distance > 0 then
    t = CATransform3DRotate(t, -ROTATE, 0.0, 1.0, 0.0)   -- swiped right
  else
    t = CATransform3DRotate(t, ROTATE, 0.0, 1.0, 0.0)    -- swiped left
  end
  attributes.transform3D = t
  attributes.zIndex = 1
end

-- targetContentOffsetForProposedContentOffset: the card whose centre is nearest the
-- centre of the proposed rect comes to rest centred.
function targetContentOffset(proposedContentOffset, velocity, layout)
  local offsetAdjustment = MAXFLOAT
  local bounds = layout.collectionView.bounds
  local horizontalCenter = proposedContentOffset.x + CGRectGetWidth(bounds) / 2.0
  local targetRect = CGRectMake(proposedContentOffset.x, 0, bounds.width, bounds.height)
  for _, layoutAttributes in ipairs(layout:layoutAttributesForElements(targetRect)) do
    local itemHorizontalCenter = layoutAttributes.center.x
    if ABS(itemHorizontalCenter - horizontalCenter) < ABS(offsetAdjustment) then
      offsetAdjustment = itemHorizontalCenter - horizontalCenter
    end
  end
  return CGPointMake(proposedContentOffset.x + offsetAdjustment, proposedContentOffset.y)
end
