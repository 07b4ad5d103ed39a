-- Stacked deck: cards that have scrolled past stay on screen, pinned where a card rests
-- when centred and stacked to its left, each one further back scaled down and shifted
-- out by a sliver, the deepest fading out (contract v2: the layout's own element query).
--
-- A flow layout shows only the items whose untransformed frame meets the visible rect,
-- so a deck of passed cards would vanish; `layoutAttributesForElements` adds them back
-- with `layout:layoutAttributesForItem`. The stack's numbers are CollectionViewPagingLayout's
-- StackTransformView defaults (scaleFactor 0.15, maxStackSize 3, spacingFactor 0.03,
-- bottomStackAlphaSpeedFactor 0.9, zPosition −round(progress), shadow opacity 0.1 and
-- radius 10, offset 0), on a stack placed to the left (stackPosition (−1, 0)):
--   depth d = how many pitches a card has gone past the centre (0 while it has not)
--   scale   = max(0, 1 − 0.15·d)
--   x shift = −0.03·w·d + (scale − 1)·w/2   (left edges 0.03·w apart: the stack peeks out)
--   alpha   = 1 − clamp((d − 2) / 0.9, 0, 1),  zIndex = −round(d)
-- Cards 3 or more pitches deep are not returned at all.

local MAX_STACK, SCALE_FACTOR, SPACING_FACTOR, ALPHA_SPEED = 3, 0.15, 0.03, 0.9
local WIDTH, HEIGHT, SPACING = 240, 360, 20
local PITCH = WIDTH + SPACING

function prepare(layout)
  local bounds = layout.collectionView.bounds
  local side = (bounds.width - WIDTH) / 2          -- the first and last card can reach the centre
  local vertical = math.max(0, (bounds.height - HEIGHT) / 2)
  layout.scrollDirection = "horizontal"
  layout.itemSize = CGSizeMake(WIDTH, HEIGHT)
  layout.sectionInset = UIEdgeInsetsMake(vertical, side, vertical, side)
  layout.minimumLineSpacing = SPACING
end

function layoutAttributesForElements(rect, layout)
  local all = layout:layoutAttributesForElements(rect)   -- super: the cards on screen
  local offset = layout.collectionView.contentOffset.x
  -- The passed cards less than MAX_STACK pitches deep that are off screen.
  local firstShown = #all > 0 and all[1].indexPath.item or 0
  for item = math.max(0, math.floor(offset / PITCH) - MAX_STACK + 1), firstShown - 1 do
    all[#all + 1] = layout:layoutAttributesForItem(IndexPath(item, 0))
  end
  local midX = layout.collectionView.bounds.midX
  for _, attributes in ipairs(all) do
    local depth = math.max(0, (midX - attributes.center.x) / PITCH)
    attributes.cornerRadius = 12
    attributes.shadowOpacity = 0.1
    attributes.shadowRadius = 10
    attributes.shadowOffset = CGSizeMake(0, 0)
    if depth > 0 then
      local scale = math.max(0, 1 - SCALE_FACTOR * depth)
      local shift = -SPACING_FACTOR * WIDTH * depth + (scale - 1) * WIDTH / 2
      attributes.center = CGPointMake(midX, attributes.center.y)   -- pinned where it rested
      attributes.transform3D = CATransform3DScale(CATransform3DMakeTranslation(shift, 0, 0), scale, scale, 1)
      attributes.alpha = 1 - math.max(0, math.min(1, (depth - (MAX_STACK - 1)) / ALPHA_SPEED))
      attributes.zIndex = -math.floor(depth + 0.5)
    end
  end
  return all
end

-- Rest with a card centred (its deck behind it).
function targetContentOffset(proposed, velocity, layout)
  local page = math.floor(proposed.x / PITCH + 0.5)
  return CGPointMake(math.max(0, page * PITCH), proposed.y)
end

scenarios = {
  deal = {
    viewport = "414x736", items = 12, fps = 30,
    steps = {
      { jump = 0 },
      { drag = 746, duration = 1.2 },    -- towards larger offsets: passed cards pile up on the left
      { wait = 0.2 },
      { fling = 1.5 },
      { scrollToItem = 0, duration = 0.5 },
    },
  },
}
