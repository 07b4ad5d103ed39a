-- gemini-circle-rotation: cards ride the rim of a big wheel, tilting as they pass
-- Source: Gemini, 2484f5c (2020), Gemini/GeminiAnimationModel.swift, circleRotation (CircleRotationViewController)
-- Generated from scripts/families/gemini/: edit there, then run scripts/generate-families.
--
-- Gemini is not a layout: GeminiCollectionView.animateVisibleCells(), called from
-- scrollViewDidScroll, sets each visible cell's layer transform. Every transform starts
-- from Gemini's transform3DIdentity, m34 = +1/1000 (POSITIVE, as the source has it; kept,
-- though nothing here leaves the screen plane, so it changes no picture).
-- circleRotation: distance = cell.midX - collectionView.midX; radius R = max(W/2 + w/2,
-- circleRadius); theta = asin(distance / R); clockwise: rotZ(-theta) and translate
-- y = -R(1 - cos theta), anchorPoint (0.5, 0) (the top edge's middle rides a wheel whose
-- centre is R above it); anticlockwise: rotZ(+theta), y = +R(1 - cos theta), anchor
-- (0.5, 1). The item rotation is optional (itemRotationEnabled, default true). Then
-- Concat(circle, scale): scale = 1 - (1 - scale)|e| (scaleUp) or scale + (1 - scale)|e|
-- (scaleDown), e = the clamped ratio (cell.midX - collectionView.midX) / (W/2 + w/2)
-- eased by GeminiEasing (default linear; the 22 curves below, `easing` 0...21).
-- Core Animation turns a layer about its anchor point; cardlua's transform is about the
-- centre, so the anchor is expressed as translate(-a) . T . translate(a), a = anchor - centre.
-- The source skips cells with |distance| >= W/2 + w/2 (asin's domain); none is visible.
--
-- The example's configuration (kept): radius(450) (the library's default is 100, which
-- max() raises to W/2 + w/2), clockwise, itemRotationEnabled(true), scale unset (1);
-- item 200 x 350, minimumLineSpacing 10, sectionInset left/right 50, no paging, normal
-- deceleration, no targetContentOffset. Its image cell has cornerRadius 5. The example's
-- top/bottom insets are 50 + (H - 350)/2, 100 points more than the height leaves (UIKit
-- warns and places the item as it can); the port centres the item vertically, the intent.
-- UIAppearanceAnimatable: alpha (unset = 1: (alpha - 1)|e| + 1), cornerRadius (0 = unset:
-- the cell keeps its 5; else radius * |e|), shadowEffect over the cell's black shadowView
-- (drawn as the palette colour darkened by its alpha; default none).
--
-- Where the port differs, and why: the source measures convert(cell.frame, ...), the
-- frame of a cell that already carries last frame's transform (UIKit leaves that frame
-- undefined); the port uses the untransformed layout frame, the intent. Horizontal only
-- (the example also has vertical wheels: rotZ with translate x and anchors (1|0, 0.5)).
-- No wrap, no zIndex: cards draw in index order.

params = {
  circleRadius = { value = 450, min = 0, max = 2000, step = 10 },    -- radius(_:) (library default 100)
  rotateDirection = { value = 0, min = 0, max = 1, step = 1 },       -- 0 clockwise (default), 1 anticlockwise
  itemRotationEnabled = { value = true, label = "Rotate each item" },  -- itemRotationEnabled(_:) (default true)
  scale = { value = 1, min = 0, max = 1, step = 0.05 },              -- scale(_:) (default 1)
  scaleEffect = { value = 0, min = 0, max = 1, step = 1 },           -- 0 scaleUp (default), 1 scaleDown
  easing = { value = 0, min = 0, max = 21, step = 1 },               -- GeminiEasing index, 0 linear
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


-- calculatedScale(withRatio:).
local function calculatedScale(e)
  local scale = clamp(params.scale, 0, 1)
  if math.floor(params.scaleEffect + 0.5) == 1 then return scale + (1 - scale) * math.abs(e) end
  return 1 - (1 - scale) * math.abs(e)
end

local ITEM = CGSizeMake(200, 350)

function prepare(layout)
  local size = layout.collectionView.bounds.size
  local verticalMargin = (size.height - ITEM.height) / 2
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.itemSize = ITEM
  layout.sectionInset = UIEdgeInsetsMake(verticalMargin, 50, verticalMargin, 50)
  layout.minimumLineSpacing = 10
  layout.minimumInteritemSpacing = 0
end

function transform(attributes, layout)
  local width = layout.collectionView.bounds.width
  local distance = attributes.center.x - layout.collectionView.bounds.midX
  local maxCircleRadius = width / 2 + attributes.size.width / 2   -- parentFrame.midX + w/2
  if math.abs(distance) >= maxCircleRadius then return end         -- needsCheckDistance
  local e = eased(distanceRatio(attributes, layout))
  local clockwise = math.floor(params.rotateDirection + 0.5) == 0
  local radius = math.max(maxCircleRadius, params.circleRadius)
  local theta = math.asin(distance / radius)
  local radian = clockwise and -theta or theta
  local lift = radius * (1 - math.cos(theta))
  local rotateTransform = CATransform3DRotate(geminiIdentity(), radian, 0, 0, 1)
  local translateTransform = CATransform3DTranslate(geminiIdentity(), 0, clockwise and -lift or lift, 0)
  local scale = calculatedScale(e)
  local scaleTransform = CATransform3DScale(geminiIdentity(), scale, scale, 1)
  local circleTransform = translateTransform
  if params.itemRotationEnabled then
    circleTransform = CATransform3DConcat(rotateTransform, translateTransform)
  end
  local anchorY = clockwise and -attributes.size.height / 2 or attributes.size.height / 2
  attributes.transform3D = aboutAnchor(CATransform3DConcat(circleTransform, scaleTransform), 0, anchorY)
  appearance(attributes, e, 5)
end
