-- gemini-cube: full-screen pages fold round a cube's edge, the turning faces darken
-- Source: Gemini, 2484f5c (2020), Gemini/GeminiAnimationModel.swift, cubeAnimation (CubeViewController)
-- Generated from scripts/families/gemini/: edit there, then run scripts/generate-families.
--
-- Gemini is not a layout: GeminiCollectionView.animateVisibleCells(), called from
-- scrollViewDidScroll, sets each visible cell's layer transform from
--   ratio = (cell.midX - collectionView.midX) / (W/2 + w/2), clamped to -1...1,
-- eased by GeminiEasing (default linear; EasingFunction.swift's 22 curves, below in the
-- enum's order, as the `easing` param 0...21). Every transform starts from Gemini's
-- transform3DIdentity, m34 = +1/1000: POSITIVE, as the source has it (kept), so a face
-- turning its far edge towards +z recedes, and the two faces meet in an outside edge.
-- cube: rotY(ratio * -cubeDegree) (cubeDegree default 90, clamped to 0...90) with the
-- layer's anchorPoint on the edge facing the centre: (0, 0.5) for a cell right of the
-- centre, (1, 0.5) left of it, (0.5, 0.5) exactly on it. Core Animation turns a layer
-- about its anchor point, perspective included; cardlua's transform is about the centre,
-- so the anchor is expressed as translate(-a) . T . translate(a), a = anchor - centre.
--
-- The example's configuration: item size = the collection view (W x H), sectionInset 0,
-- minimumLineSpacing 0, isPagingEnabled, shadowEffect(.fadeIn). The example's cell has a
-- black shadowView over its content whose alpha is the shadow effect's value
-- (fadeIn: minShadowAlpha + |ratio| * maxShadowAlpha); cardlua draws that as the card's
-- palette colour darkened by that alpha (backgroundColor), only while it is above 0.
-- UIAppearanceAnimatable: alpha (default unset = 1: (alpha - 1)|ratio| + 1) and
-- cornerRadius (default unset, here 0 = unset: the cell keeps its own; else radius * |ratio|).
-- backgroundColor(startColor:endColor:) is not a number, so it is not a param.
--
-- Where the port differs, and why: the source measures convert(cell.frame, ...), the
-- frame of a cell that already carries last frame's transform (UIKit leaves that frame
-- undefined); the port uses the untransformed layout frame, the intent. The source moves
-- layer.position when it moves the anchor (adjustAnchorPoint) using only the affine part
-- of the current transform; the port keeps the untransformed frame exactly in place.
-- The transform's ratio is clamped and the appearance's is not: the same for every
-- visible cell (|ratio| < 1 whenever the frame meets the viewport). Horizontal only (the
-- example also has a vertical cube: rotX and anchors (0.5, 0|1)). No wrap, no zIndex.

params = {
  cubeDegree = { value = 90, min = 0, max = 90, step = 1 },          -- cubeDegree (default 90)
  easing = { value = 0, min = 0, max = 21, step = 1 },               -- GeminiEasing index, 0 linear
  alpha = { value = 1, min = 0, max = 1, step = 0.05 },              -- alpha(_:) (unset = 1)
  cornerRadius = { value = 0, min = 0, max = 200, step = 1 },        -- cornerRadius(_:) (0 = unset)
  -- shadowEffect: 0 none, 1 fadeIn, 2 nextFadeIn, 3 previousFadeIn, 4 fadeOut (default none)
  shadowEffect = { value = 1, min = 0, max = 4, step = 1 },
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

-- t applied about the anchor point at (ax, ay) from the card's centre.
local function aboutAnchor(t, ax, ay)
  return CATransform3DMakeTranslation(-ax, -ay, 0):concat(t):concat(CATransform3DMakeTranslation(ax, ay, 0))
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

function prepare(layout)
  local size = layout.collectionView.bounds.size
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.itemSize = CGSizeMake(size.width, size.height)   -- sizeForItemAt: the collection view's size
  layout.sectionInset = UIEdgeInsetsMake(0, 0, 0, 0)
  layout.minimumLineSpacing = 0
  layout.minimumInteritemSpacing = 0
  layout.isPagingEnabled = true
end

function transform(attributes, layout)
  local e = eased(distanceRatio(attributes, layout))
  local toDegree = clamp(params.cubeDegree, 0, 90)
  local degree = e * -toDegree
  local t = CATransform3DRotate(geminiIdentity(), degree * M_PI / 180, 0, 1, 0)
  local anchorX = 0                                        -- anchorPoint(withDistanceRatio:)
  if e > 0 then anchorX = -attributes.size.width / 2 elseif e < 0 then anchorX = attributes.size.width / 2 end
  attributes.transform3D = aboutAnchor(t, anchorX, 0)
  appearance(attributes, e, 0)                             -- the player cell has square corners
end
