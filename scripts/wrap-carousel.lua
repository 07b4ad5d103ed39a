-- An endless horizontal carousel: `layout.wraps = true` repeats the cards along the
-- scroll axis with no edges, so a fling either way never stops at an end. Cards shrink
-- and fade with their distance from the centre (in card pitches), the centre card on
-- top; a release comes to rest with the card nearest the proposal's centre centred.
-- The snap asks super's query for the cards around the proposal, which returns the
-- repetitions too, so it works for any proposal (−3000 or +90000 alike).

local CARD_WIDTH = 240       -- points
local CARD_HEIGHT = 340
local SPACING = 20           -- minimumLineSpacing: the gap between cards, also at the seam
local MIN_SCALE = 0.75       -- a card one pitch or more from the centre
local MIN_ALPHA = 0.45

function prepare(layout)
  local size = layout.collectionView.bounds.size
  layout.scrollDirection = "horizontal"
  layout.itemSize = CGSizeMake(CARD_WIDTH, CARD_HEIGHT)
  layout.minimumLineSpacing = SPACING
  -- The leading inset only places the first repetition: card 0 is centred at offset 0.
  -- (Insets before the first card and after the last are not part of the period.)
  -- The top and bottom insets leave room for one card per column.
  local side = (size.width - CARD_WIDTH) / 2
  local top = math.max(0, (size.height - CARD_HEIGHT) / 2)
  layout.sectionInset = UIEdgeInsetsMake(top, side, top, side)
  layout.decelerationRate = "fast"
  layout.wraps = true
end

function transform(attributes, layout)
  local bounds = layout.collectionView.bounds
  local pitch = CARD_WIDTH + SPACING
  local d = math.abs(attributes.center.x - CGRectGetMidX(bounds)) / pitch
  local t = math.min(d, 1)
  local scale = 1 - (1 - MIN_SCALE) * t
  attributes.alpha = 1 - (1 - MIN_ALPHA) * t
  attributes.zIndex = -math.floor(d * 10)    -- the centre card draws on top
  return scale
end

-- Nearest centre to the proposal's centre, among the cards (every repetition) within a
-- viewport around it. Nothing is clamped: the offsets have no range.
function targetContentOffset(proposed, velocity, layout)
  local bounds = layout.collectionView.bounds
  local centre = proposed.x + bounds.width / 2
  local rect = CGRectMake(proposed.x - bounds.width / 2, 0, 2 * bounds.width, bounds.height)
  local best = nil
  for _, a in ipairs(layout:layoutAttributesForElements(rect)) do
    local delta = a.center.x - centre
    if best == nil or math.abs(delta) < math.abs(best) then best = delta end
  end
  return proposed.x + (best or 0)
end

scenarios = {
  -- From card 0, a fling backwards across the seam: cards 7, 6, … at negative offsets.
  ["seam-backward"] = {
    items = 8,
    steps = {
      { jump = 0 },
      { wait = 0.2 },
      { fling = -6 },
      { wait = 0.3 },
    },
  },
  -- To the last card the short way (backwards by one pitch from card 0), then a drag
  -- forwards across the seam to card 0 of the next repetition and beyond.
  ["seam-forward"] = {
    items = 8,
    steps = {
      { jump = 0 },
      { scrollToItem = 7, duration = 0.3 },
      { wait = 0.2 },
      { drag = 520, duration = 0.5 },
      { wait = 0.3 },
      { scrollToItem = 0, duration = 0.3 },
      { wait = 0.2 },
    },
  },
  -- Long flings both ways: several periods each, still snapping onto a card.
  ["spin"] = {
    items = 8,
    steps = {
      { jump = 0 },
      { fling = 40 },
      { wait = 0.3 },
      { fling = -40 },
      { wait = 0.3 },
    },
  },
  -- A rotation keeps the centred card centred, in the same repetition.
  rotate = {
    items = 8,
    steps = {
      { jump = 0 },
      { fling = -3 },
      { resize = "736x414" },
      { fling = 3 },
      { wait = 0.3 },
    },
  },
}
