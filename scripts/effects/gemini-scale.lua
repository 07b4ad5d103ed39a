-- gemini-scale: the centred card is full size, its neighbours shrink to 3/4 (ease-out)
-- Source: Gemini, 2484f5c (2020), Gemini/GeminiAnimationModel.swift, scaleAnimation (ScaleAnimationViewController)
-- Generated from scripts/families/gemini/: edit there, then run scripts/generate-families.
--
-- Gemini is not a layout: GeminiCollectionView.animateVisibleCells(), called from
-- scrollViewDidScroll, sets each visible cell's layer transform from
--   e = ease(ratio), ratio = (cell.midX - collectionView.midX) / (W/2 + w/2) clamped to -1...1,
-- GeminiEasing (the 22 curves below, `easing` 0...21; library default linear). Every
-- transform starts from Gemini's transform3DIdentity, m34 = +1/1000 (POSITIVE, as the
-- source has it; kept, though a flat scale never leaves the screen plane).
-- scale: CATransform3DScale(identity, s, s, 1), s = 1 - (1 - scale)|e| (scaleUp) or
-- scale + (1 - scale)|e| (scaleDown), scale clamped to 0...1; anchorPoint the centre.
--
-- The example's configuration (kept): scale(0.75) (the library's default 1 does not
-- scale), scaleEffect per menu row (scaleUp here), ease(.easeOutQuart) (easing 8; the
-- library's default is linear, 0); item (W - 80) x (H - 400), sectionInset
-- (200, 40, 200, 40), minimumLineSpacing 40. Its image cell has cornerRadius 5.
-- Snapping: the example's UICollectionViewPagingFlowLayout (Example/Gemini/Views/):
-- pageSize = itemSize.width + minimumLineSpacing, currentPage = contentOffset.x / pageSize
-- at the release; |velocity| > 0.2 pt/ms: ceil (forward) or floor (back) of it, else
-- round(currentPage) (Swift's round: half away from zero); decelerationRate .fast.
-- A finger always moves the content before a flick, so on iOS currentPage is never a
-- whole number there; a scenario's `fling` can release exactly on a page, where ceil and
-- floor would not turn it: the port takes floor + 1 and ceil - 1 (the same everywhere
-- else), the intent: a flick turns one page.
-- UIAppearanceAnimatable: alpha (unset = 1: (alpha - 1)|e| + 1), cornerRadius (0 = unset:
-- the image cell keeps its 5; else radius * |e|), shadowEffect over the cell's black
-- shadowView (drawn as the palette colour darkened by its alpha; default none).
--
-- Where the port differs, and why: the source measures convert(cell.frame, ...), the
-- frame of a cell that already carries last frame's transform (UIKit leaves that frame
-- undefined); the port uses the untransformed layout frame, the intent. The transform's
-- ratio is clamped and the appearance's is not: the same for every visible cell.
-- Horizontal only (the example also has vertical variants). No wrap, no zIndex.

params = {
  scale = { value = 0.75, min = 0, max = 1, step = 0.05 },            -- scale(_:) (library default 1)
  scaleEffect = { value = 0, min = 0, max = 1, step = 1 },           -- 0 scaleUp (default), 1 scaleDown
  easing = { value = 8, min = 0, max = 21, step = 1 },              -- GeminiEasing: 8 easeOutQuart (default 0 linear)
  alpha = { value = 1, min = 0, max = 1, step = 0.05 },              -- alpha(_:) (unset = 1)
  cornerRadius = { value = 0, min = 0, max = 200, step = 1 },        -- cornerRadius(_:) (0 = unset)
  -- shadowEffect: 0 none, 1 fadeIn, 2 nextFadeIn, 3 previousFadeIn, 4 fadeOut (default none)
  shadowEffect = { value = 0, min = 0, max = 4, step = 1 },
  maxShadowAlpha = { value = 1, min = 0, max = 1, step = 0.05 },     -- maxShadowAlpha (default 1)
  minShadowAlpha = { value = 0, min = 0, max = 1, step = 0.05 },     -- minShadowAlpha (default 0)
}

-- GeminiEasing's curves in its order (EasingFunction.swift with b = 0, c = 1, d = 1).
local EASINGS = {
  function(t) return t end,                                                       -- linear
  function(t) return t * t end,                                                   -- easeInQuad
  function(t) return -t * (t - 2) end,                                            -- easeOutQuad
  function(t) t = t * 2; if t < 1 then return t * t / 2 end
    t = t - 1; return -(t * (t - 2) - 1) / 2 end,                                 -- easeInOutQuad
  function(t) return t * t * t end,                                               -- easeInCubic
  function(t) t = t - 1; return t * t * t + 1 end,                                -- easeOutCubic
  function(t) t = t * 2; if t < 1 then return t * t * t / 2 end
    t = t - 2; return (t * t * t + 2) / 2 end,                                    -- easeInOutCubic
  function(t) return t * t * t * t end,                                           -- easeInQuart
  function(t) t = t - 1; return -(t * t * t * t - 1) end,                         -- easeOutQuart
  function(t) t = t * 2; if t < 1 then return t * t * t * t / 2 end
    t = t - 2; return -(t * t * t * t - 2) / 2 end,                               -- easeInOutQuart
  function(t) return t * t * t * t * t end,                                       -- easeInQuint
  function(t) t = t - 1; return t * t * t * t * t + 1 end,                        -- easeOutQuint
  function(t) t = t * 2; if t < 1 then return t * t * t * t * t / 2 end
    t = t - 2; return (t * t * t * t * t + 2) / 2 end,                            -- easeInOutQuint
  function(t) return 1 - math.cos(t * M_PI / 2) end,                              -- easeInSine
  function(t) return math.sin(t * M_PI / 2) end,                                  -- easeOutSine
  function(t) return -(math.cos(M_PI * t) - 1) / 2 end,                           -- easeInOutSine
  function(t) return 2 ^ (10 * (t - 1)) end,                                      -- easeInExpo
  function(t) return 1 - 2 ^ (-10 * t) end,                                       -- easeOutExpo
  function(t) t = t * 2; if t < 1 then return 2 ^ (10 * (t - 1)) / 2 end
    t = t - 1; return (2 - 2 ^ (-10 * t)) / 2 end,                                -- easeInOutExpo
  function(t) return 1 - math.sqrt(1 - t * t) end,                                -- easeInCirc
  function(t) t = t - 1; return math.sqrt(1 - t * t) end,                         -- easeOutCirc
  function(t) t = t * 2; if t < 1 then return (1 - math.sqrt(1 - t * t)) / 2 end
    t = t - 2; return (math.sqrt(1 - t * t) + 1) / 2 end,                         -- easeInOutCirc
}

-- x held within low…high.
local function clamp(x, low, high)
  return math.max(low, math.min(high, x))
end

-- GeminiEasing.value(withRatio:): the curve of |ratio|, with ratio's sign.
local function eased(ratio)
  local curve = EASINGS[math.floor(params.easing + 0.5) + 1]
  if ratio < 0 then return -curve(-ratio) end
  return curve(ratio)
end

-- distanceRatio(withParentFrame:cellFrame:), clamped to -1...1.
local function distanceRatio(attributes, layout)
  local bounds = layout.collectionView.bounds
  local ratio = (attributes.center.x - bounds.midX) / (bounds.width / 2 + attributes.size.width / 2)
  return clamp(ratio, -1, 1)
end

-- Gemini's transform3DIdentity.
local function geminiIdentity()
  local t = CATransform3DIdentity
  t.m34 = 1 / 1000
  return t
end

-- shadowAlpha(withDistanceRatio:).
local function shadowAlpha(e)
  local effect, maxAlpha, minAlpha = math.floor(params.shadowEffect + 0.5), params.maxShadowAlpha, params.minShadowAlpha
  if effect == 1 then return minAlpha + math.abs(e) * maxAlpha end
  if effect == 2 then return e > 0 and e * maxAlpha or 0 end
  if effect == 3 then return e < 0 and -e * maxAlpha or 0 end
  if effect == 4 then return (1 - math.abs(e)) * maxAlpha + minAlpha end
  return 0
end

-- The renderer's palette colour of an item (hue steps by the golden ratio, the lightness by
-- section), under a black view of opacity `shade`.
local LIGHTNESS = { 0.50, 0.42, 0.58 }
local function shaded(indexPath, shade)
  local raw = 0.57 + indexPath.item * 0.618033988749895 + indexPath.section * 0.137
  local hue, l, s = raw - math.floor(raw), LIGHTNESS[indexPath.section % 3 + 1], 0.62
  local q = l < 0.5 and l * (1 + s) or l + s - l * s
  local p = 2 * l - q
  local function channel(t)
    if t < 0 then t = t + 1 end
    if t > 1 then t = t - 1 end
    local v = p
    if t < 1 / 6 then v = p + (q - p) * 6 * t
    elseif t < 0.5 then v = q
    elseif t < 2 / 3 then v = p + (q - p) * (2 / 3 - t) * 6 end
    return math.floor(math.floor(v * 255 + 0.5) * (1 - shade) + 0.5)
  end
  return string.format("#%02x%02x%02x", channel(hue + 1 / 3), channel(hue), channel(hue - 1 / 3))
end

-- animateCell's appearance: alpha, cornerRadius and the shadowView.
local function appearance(attributes, e, cellCornerRadius)
  attributes.alpha = (params.alpha - 1) * math.abs(e) + 1
  if params.cornerRadius > 0 then
    attributes.cornerRadius = params.cornerRadius * math.abs(e)
  elseif cellCornerRadius > 0 then
    attributes.cornerRadius = cellCornerRadius
  end
  local shade = clamp(shadowAlpha(e), 0, 1)
  if shade > 0 then attributes.backgroundColor = shaded(attributes.indexPath, shade) end
end


-- calculatedScale(withRatio:).
local function calculatedScale(e)
  local scale = clamp(params.scale, 0, 1)
  if math.floor(params.scaleEffect + 0.5) == 1 then return scale + (1 - scale) * math.abs(e) end
  return 1 - (1 - scale) * math.abs(e)
end

function prepare(layout)
  local size = layout.collectionView.bounds.size
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.itemSize = CGSizeMake(size.width - 80, size.height - 400)
  layout.sectionInset = UIEdgeInsetsMake(200, 40, 200, 40)
  layout.minimumLineSpacing = 40
  layout.minimumInteritemSpacing = 40
  layout.decelerationRate = UIScrollViewDecelerationRateFast
end

function transform(attributes, layout)
  local e = eased(distanceRatio(attributes, layout))
  local scale = calculatedScale(e)
  attributes.transform3D = CATransform3DScale(geminiIdentity(), scale, scale, 1)
  appearance(attributes, e, 5)
end

-- UICollectionViewPagingFlowLayout.targetContentOffset (the example's own layout).
function targetContentOffset(proposedContentOffset, velocity, layout)
  local pageSize = layout.itemSize.width + layout.minimumLineSpacing
  local currentPage = layout.collectionView.contentOffset.x / pageSize
  local nextPage
  if math.abs(velocity.x) > 0.2 then
    -- ceil/floor, except that a release exactly on a page still turns it (see the header)
    nextPage = velocity.x > 0 and math.floor(currentPage) + 1 or math.ceil(currentPage) - 1
  elseif currentPage < 0 then
    nextPage = -math.floor(-currentPage + 0.5)
  else
    nextPage = math.floor(currentPage + 0.5)
  end
  return CGPointMake(nextPage * pageSize, proposedContentOffset.y)
end
