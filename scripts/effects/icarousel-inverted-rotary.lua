-- icarousel-inverted-rotary: a ring seen from inside: the neighbours swing out toward you
-- Source: iCarousel, 1.8.3 (c9e043e), iCarousel/iCarousel.m, iCarouselTypeInvertedRotary
--
-- InvertedRotary: a ring of `count` slots, radius r = max(200·spacing/2, 200·spacing/2 /
-- tan(arc/2/count)) (373.2 at 12 slots), angle θ = offset/count · arc (arc 2π); inverted: r = −r
-- and θ = −θ (the ring curves toward the viewer); translate(r·sin θ, 0, r·cos θ − r): every card
-- stays flat to the screen.
--
-- The carousel is iCarousel's, in a flow layout: 200 × 200 cards (the views of iCarousel's own
-- example projects; itemWidth = the view's width), horizontal, minimumLineSpacing 0 and side
-- insets (W − 200)/2, so one item of scroll is one item width (iCarousel's scrollOffset =
-- contentOffset.x / itemWidth) and item i is centred at content offset i·200. The layout's own
-- element query returns exactly the cards iCarousel shows, each centred on the visible rect's
-- centre (iCarousel centres every view in its bounds) with transform3D =
-- transformForItemViewWithOffset: m34 = perspective (−1/500), a translation by −viewpointOffset
-- (0, 0), then this type's motion (CATransform3DTranslate(t, …) applies the translation first, as
-- in Core Animation).
--   scrollOffset  contentOffset.x / 200, taken modulo n (clampedOffset).
--   which cards   loadUnloadViews: current = round(scrollOffset) (C's round: halves away from 0),
--                 then numberOfVisibleItems cards from current − visible/2 (wrapped to the items),
--                 keeping those whose alpha is not 0; visible = ceil(count / 2) (iCarousel's own
--                 "TODO: improve this": 6, so only cards −3 … +2 around the current one), then at
--                 most MAX_VISIBLE_ITEMS 30 (iOS), the VisibleItems option if set, at most n.
--   offset        item − scrollOffset, moved by n when beyond ±n/2 (the nearest repetition): an
--                 item never appears twice.
--   count         circularCarouselItemCount = min(30, max(12, ceil(W/(spacing·200))·π)), stored in
--                 an NSInteger: the truncation is kept (the ring has a whole number of slots,
--                 which is what the code means; 12 at 414 pt); then at most n; the Count option
--                 replaces it (params.count 0 = iCarousel's default).
--   alpha         alphaForItemWithOffset: f = offset − fadeMax above fadeMax, fadeMin − offset
--                 below fadeMin, else 0; alpha = 1 − min(f, fadeRange)/fadeRange·(1 −
--                 fadeMinAlpha); here fadeMin −infinity, fadeMax +infinity, fadeRange 1,
--                 fadeMinAlpha 0 (±100 in params stands for iCarousel's ±infinity: no card shown
--                 is 31 items out).
--   drawing order compareViewDepth, then bringSubviewToFront in that order: ascending z = m13 +
--                 m23 + m33 + m43, ties by |x − x(current item)| descending, with x = m11 + m21 +
--                 m31 + m41 (0 when the current item is not shown: Objective-C's nil). zIndex =
--                 the rank in that order; cards the comparator cannot tell apart share a zIndex
--                 (UIKit then draws them by index path).
--   backfaces     iCarousel's rule as it states it: hidden when showBackfaces is 0 and the
--                 transform's m33 ≤ 0 (not the facing of the card's plane; isDoubleSided stays
--                 true); showBackfaces is 1 for this type (every type but InvertedCylinder).
--   wrap          on by default for this type (layout.wraps, period n items), as for iCarousel's
--                 rotary, cylinder and wheel families.
--   snapping      the pan's release (didPan, startDecelerating): v = velocity·1000/200 items/s (×
--                 1 − min(|o − clamp(o)|, 1) past an end when not wrapping); if |v| > 2 and the
--                 deceleration distance d = v²/(2·30·(1 − decelerationRate)·|v|) (v/3 at
--                 iCarousel's 0.95) exceeds 0.1, rest on ceil(o + d) forwards, floor(o + d)
--                 backwards (stopAtItemBoundary; pagingEnabled: ceil(o) / floor(o)); else on the
--                 current item, or the next one in v's direction when |v| > 2 and the offset is
--                 more than 0.1 from it (scrollToItemBoundary). Without wrap the target is the
--                 item iCarousel finally rests on (it may overshoot by bounceDistance 1, then
--                 scrolls back to the nearest item). How the content gets there is cardlua's
--                 UIScrollView deceleration and rubber band, not iCarousel's 60 Hz timer (its
--                 eased 0.4 s scrolls and 30× deceleration multiplier).
--   not ported    vertical (iCarousel's default is horizontal), placeholders, autoscroll, and
--                 offsetMultiplier (1 for this type): it scales how far a drag moves the carousel,
--                 and cardlua's drags move the content 1:1 with the finger. The Angle option (one
--                 angle for every card) is not a param: it stacks all cards.

params = {
  spacing = { value = 1, min = 0.1, max = 3, step = 0.05 },
  arc = { value = 6.283185307179586, min = 0.1, max = 6.283185307179586, step = 0.01 },  -- 2π
  radius = { value = 0, min = 0, max = 2000, step = 5 },            -- 0: iCarousel's default
  count = { value = 0, min = 0, max = 30, step = 1 },                -- 0: iCarousel's count
  perspective = { value = -0.002, min = -0.01, max = 0, step = 0.0001 },   -- m34, −1/500
  -- viewpointOffset.width and .height
  viewpointOffsetX = { value = 0, min = -300, max = 300, step = 5, label = "Viewpoint offset x" },
  viewpointOffsetY = { value = 0, min = -300, max = 300, step = 5, label = "Viewpoint offset y" },
  wrap = { value = true, label = "Wrap" },                                  -- iCarouselOptionWrap
  showBackfaces = { value = true, label = "Show backfaces" },               -- iCarouselOptionShowBackfaces
  visibleItems = { value = 0, min = 0, max = 30, step = 1 },               -- 0: iCarousel's rule
  fadeMin = { value = -100, min = -100, max = 100, step = 0.1 },            -- −100: −infinity
  fadeMax = { value = 100, min = -100, max = 100, step = 0.1 },             -- 100: +infinity
  fadeRange = { value = 1, min = 0.01, max = 10, step = 0.05 },
  fadeMinAlpha = { value = 0, min = 0, max = 1, step = 0.05 },
  decelerationRate = { value = 0.95, min = 0, max = 0.999, step = 0.005 },  -- iCarousel's, per second
  pagingEnabled = { value = false, label = "Paging enabled" },
}

local ITEM_WIDTH, ITEM_HEIGHT = 200, 200   -- the views of iCarousel's example projects
local MAX_VISIBLE_ITEMS = 30               -- iOS (50 on macOS)
local BOUNCE_DISTANCE = 1                  -- bounceDistance, items
local SCROLL_SPEED_THRESHOLD = 2.0         -- items per second
local DECELERATE_THRESHOLD = 0.1           -- items
local SCROLL_DISTANCE_THRESHOLD = 0.1      -- items
local DECELERATION_MULTIPLIER = 30.0

-- C's round(): halves away from zero (iCarousel's currentItemIndex).
local function round(x)
  if x >= 0 then return math.floor(x + 0.5) end
  return -math.floor(0.5 - x)
end

local function wraps()
  return params.wrap
end

function prepare(layout)
  local size = layout.collectionView.bounds.size
  local side = math.max(0, (size.width - ITEM_WIDTH) / 2)     -- item i centred at offset i·200
  local top = math.max(0, (size.height - ITEM_HEIGHT) / 2)
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.itemSize = CGSizeMake(ITEM_WIDTH, ITEM_HEIGHT)
  layout.sectionInset = UIEdgeInsetsMake(top, side, top, side)
  layout.minimumLineSpacing = 0                                -- one item of scroll = one item width
  layout.wraps = wraps()
end

local function numberOfItems(layout)
  local cv = layout.collectionView
  if cv.numberOfSections == 0 then return 0 end
  return cv:numberOfItems(0)
end

-- clampedIndex
local function clampedIndex(index, n, wrap)
  if wrap then return index - (index // n) * n end
  return math.min(math.max(0, index), math.max(0, n - 1))
end

-- offsetForItemAtIndex: the nearest repetition when wrapping
local function offsetForItem(index, scrollOffset, n, wrap)
  local offset = index - scrollOffset
  if wrap then
    if offset > n / 2 then
      offset = offset - n
    elseif offset < -n / 2 then
      offset = offset + n
    end
  end
  return offset
end

-- alphaForItemWithOffset
local function alphaForItemWithOffset(offset)
  local factor = 0
  if offset > params.fadeMax then
    factor = offset - params.fadeMax
  elseif offset < params.fadeMin then
    factor = params.fadeMin - offset
  end
  return 1 - math.min(factor, params.fadeRange) / params.fadeRange * (1 - params.fadeMinAlpha)
end

-- transformForItemViewWithOffset's base: perspective, then the viewpoint offset
local function baseTransform()
  local t = CATransform3DIdentity
  t.m34 = params.perspective
  return CATransform3DTranslate(t, -params.viewpointOffsetX, -params.viewpointOffsetY, 0)
end

-- circularCarouselItemCount (the Count option returns as it is set, not capped at n)
local function circularCarouselItemCount(n, bounds)
  if params.count > 0 then return math.floor(params.count) end
  local count = math.min(MAX_VISIBLE_ITEMS,
    math.max(12, math.ceil(bounds.width / (params.spacing * ITEM_WIDTH)) * M_PI))
  return math.min(n, math.floor(count))   -- stored in an NSInteger: the fraction is dropped
end

-- The ring's count and radius, once per frame.
local function carouselGeometry(n, bounds)
  local count = circularCarouselItemCount(n, bounds)
  local half = ITEM_WIDTH * params.spacing / 2
  local radius = params.radius
  if radius == 0 then radius = math.max(half, half / math.tan(params.arc / 2 / count)) end
  return { count = count, radius = radius }
end

local function numberOfVisibleItems(ring)
  return math.ceil(ring.count / 2)
end

local function transformForItemViewWithOffset(offset, base, ring)
  local radius, angle = ring.radius, offset / ring.count * params.arc
  radius, angle = -radius, -angle
  return CATransform3DTranslate(base, radius * math.sin(angle), 0, radius * math.cos(angle) - radius)
end

-- loadUnloadViews + transformItemView + depthSortViews, once per frame.
function layoutAttributesForElements(rect, layout)
  local elements = {}
  local n = numberOfItems(layout)
  if n == 0 then return elements end
  local wrap = wraps()
  local bounds = layout.collectionView.bounds
  local scrollOffset = bounds.x / ITEM_WIDTH
  if wrap then   -- didScroll: clampedOffset
    scrollOffset = scrollOffset - math.floor(scrollOffset / n) * n
  else
    scrollOffset = math.max(-BOUNCE_DISTANCE, math.min(math.max(n - 1, 0) + BOUNCE_DISTANCE, scrollOffset))
  end
  local current = clampedIndex(round(scrollOffset), n, wrap)
  local geometry = carouselGeometry(n, bounds)
  local visible = math.min(MAX_VISIBLE_ITEMS, numberOfVisibleItems(geometry, bounds))
  if params.visibleItems > 0 then visible = params.visibleItems end
  visible = math.floor(math.max(0, math.min(visible, n)))
  local first = current - visible // 2
  if not wrap then first = math.max(0, math.min(n - visible, first)) end
  local base = baseTransform()
  local center = CGPointMake(bounds.midX, bounds.midY)     -- every card at the bounds' centre
  local cards, currentX = {}, 0
  for i = 0, visible - 1 do
    local index = clampedIndex(first + i, n, wrap)
    local offset = offsetForItem(index, scrollOffset, n, wrap)
    local alpha = alphaForItemWithOffset(offset)
    if alpha ~= 0 then
      local t = transformForItemViewWithOffset(offset, base, geometry)
      local attributes = {                                 -- the item's own size, moved to the centre
        indexPath = IndexPath(index, 0), center = center, transform3D = t, alpha = alpha,
        hidden = not params.showBackfaces and t.m33 <= 0,  -- transformItemView's backface rule
      }
      local x = t.m11 + t.m21 + t.m31 + t.m41
      if index == current then currentX = x end
      elements[#elements + 1] = attributes
      cards[#cards + 1] = { attributes = attributes, z = t.m13 + t.m23 + t.m33 + t.m43, x = x }
    end
  end
  for _, card in ipairs(cards) do card.distance = math.abs(card.x - currentX) end
  table.sort(cards, function(a, b)     -- compareViewDepth: farther first
    if a.z ~= b.z then return a.z < b.z end
    return a.distance > b.distance
  end)
  local rank = 0
  for k, card in ipairs(cards) do
    local previous = cards[k - 1]
    if previous and (card.z ~= previous.z or card.distance ~= previous.distance) then rank = rank + 1 end
    card.attributes.zIndex = rank
  end
  return elements
end

-- The release: startDecelerating with stopAtItemBoundary, or didPan's scroll to an item.
function targetContentOffset(proposed, velocity, layout)
  local n = numberOfItems(layout)
  if n == 0 then return proposed end
  local wrap = wraps()
  local o = layout.collectionView.contentOffset.x / ITEM_WIDTH   -- where the finger let go
  local factor = 1
  if not wrap then
    o = math.max(-BOUNCE_DISTANCE, math.min(math.max(n - 1, 0) + BOUNCE_DISTANCE, o))
    local inside = math.min(math.max(0, o), math.max(0, n - 1))
    factor = 1 - math.min(math.abs(o - inside), BOUNCE_DISTANCE) / BOUNCE_DISTANCE
  end
  local v = velocity.x * 1000 / ITEM_WIDTH * factor              -- items per second
  local current = round(o)
  if not wrap then current = clampedIndex(current, n, false) end
  local distance = 0
  if v ~= 0 then
    local acceleration = -v * DECELERATION_MULTIPLIER * (1 - params.decelerationRate)
    distance = -(v * v) / (2 * acceleration)
  end
  local target = current
  if math.abs(v) > SCROLL_SPEED_THRESHOLD and math.abs(distance) > DECELERATE_THRESHOLD then
    local finish = o + distance
    if params.pagingEnabled then finish = o end
    finish = distance > 0 and math.ceil(finish) or math.floor(finish)
    target = round(finish)                                     -- then scrollToItemBoundary
  elseif math.abs(v) > SCROLL_SPEED_THRESHOLD and math.abs(o - current) > SCROLL_DISTANCE_THRESHOLD then
    target = current + (v > 0 and 1 or -1)
  end
  if not wrap then target = clampedIndex(target, n, false) end
  return target * ITEM_WIDTH
end
