-- The Gemini example's animations (scripts/families/gemini/template.lua.in): what each sets.
-- name, summary (the first line), animation and controller (the Source line); rotation: a
-- pitch/roll/yaw rotation (axis, up and down: the signs of its Up and Down effects, rot and
-- axisVector: the axis), anchor: aboutAnchor, scaled: calculatedScale, pagingSnap: the
-- example's UICollectionViewPagingFlowLayout snapping; blocks (multi-line, [[...]]): model,
-- example, appearanceDoc and differs (header text, else the shared one), params (the
-- effect's own params, before the appearance ones), prepare, transform.
-- Run scripts/generate-families after an edit.
return {
  defaults = {
    shadowEffect = "0", scaled = true,
    -- the example's own geometry, which pitch and roll keep (the others set theirs)
    geometry = [[
item (W - 60) x (H - 100), sectionInset
-- (50, 30, 50, 30), minimumLineSpacing 30. Its image cell has cornerRadius 5.]],
    prepare = [[
function prepare(layout)
  local size = layout.collectionView.bounds.size
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.itemSize = CGSizeMake(size.width - 60, size.height - 100)
  layout.sectionInset = UIEdgeInsetsMake(50, 30, 50, 30)
  layout.minimumLineSpacing = 30
  layout.minimumInteritemSpacing = 30
  layout.decelerationRate = UIScrollViewDecelerationRateFast
end
]],
  },
  { name = "gemini-pitch", summary = "cards tip about the horizontal axis, shrinking away from the centre",
    animation = "pitchRotation", controller = "PitchRotationViewController",
    rotation = true, axis = "pitch", up = "-", down = "", rot = "rotX", axisVector = "1, 0, 0", pagingSnap = true,
    params = [[
  pitchDegree = { value = 90, min = 0, max = 90, step = 1 },         -- degree(_:) (default 90)
  -- pitchEffect: 0 pitchUp (default), 1 pitchDown, 2 sineWave, 3 reverseSineWave
  pitchEffect = { value = 0, min = 0, max = 3, step = 1 },
  scale = { value = 0.7, min = 0, max = 1, step = 0.05 },            -- scale(_:) (library default 1)
  scaleEffect = { value = 0, min = 0, max = 1, step = 1 },           -- 0 scaleUp (default), 1 scaleDown
  easing = { value = 0, min = 0, max = 21, step = 1 },              -- GeminiEasing: 0 linear
]],
  },
  { name = "gemini-roll", summary = "cards turn about the vertical axis, shrinking away from the centre",
    animation = "rollRotation", controller = "RollRotationViewController",
    rotation = true, axis = "roll", up = "", down = "-", rot = "rotY", axisVector = "0, 1, 0", pagingSnap = true,
    params = [[
  rollDegree = { value = 90, min = 0, max = 90, step = 1 },          -- degree(_:) (default 90)
  -- rollEffect: 0 rollUp (default), 1 rollDown, 2 sineWave, 3 reverseSineWave
  rollEffect = { value = 0, min = 0, max = 3, step = 1 },
  scale = { value = 0.7, min = 0, max = 1, step = 0.05 },            -- scale(_:) (library default 1)
  scaleEffect = { value = 0, min = 0, max = 1, step = 1 },           -- 0 scaleUp (default), 1 scaleDown
  easing = { value = 0, min = 0, max = 21, step = 1 },              -- GeminiEasing: 0 linear
]],
  },
  { name = "gemini-yaw", summary = "cards spin in the screen's plane, shrinking away from the centre",
    animation = "yawRotation", controller = "YawRotationViewController",
    rotation = true, axis = "yaw", up = "", down = "-", rot = "rotZ", axisVector = "0, 0, 1", pagingSnap = true,
    geometry = [[
item (W - 50) x (W - 50), sectionInset
-- ((H - (W - 50))/2, 25, same, 25), minimumLineSpacing 80. Its image cell has cornerRadius 5.]],
    rotationNotes = [[
-- Source bug, fixed: the source's yawRotation reads pitchDegree (a copy-paste slip), so
-- degree(_:) on a yaw animation changes nothing there; the port uses yawDegree, the
-- intent (both default to 90, so the default picture is the source's).
]],
    params = [[
  yawDegree = { value = 90, min = 0, max = 90, step = 1 },           -- degree(_:) (default 90)
  -- yawEffect: 0 yawUp (default), 1 yawDown, 2 sineWave, 3 reverseSineWave
  yawEffect = { value = 0, min = 0, max = 3, step = 1 },
  scale = { value = 0.7, min = 0, max = 1, step = 0.05 },            -- scale(_:) (library default 1)
  scaleEffect = { value = 0, min = 0, max = 1, step = 1 },           -- 0 scaleUp (default), 1 scaleDown
  easing = { value = 0, min = 0, max = 21, step = 1 },              -- GeminiEasing: 0 linear
]],
    prepare = [[
function prepare(layout)
  local size = layout.collectionView.bounds.size
  local side = size.width - 50
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.itemSize = CGSizeMake(side, side)
  layout.sectionInset = UIEdgeInsetsMake((size.height - side) / 2, 25, (size.height - side) / 2, 25)
  layout.minimumLineSpacing = 80
  layout.minimumInteritemSpacing = 80
  layout.decelerationRate = UIScrollViewDecelerationRateFast
end
]],
  },
  { name = "gemini-scale", summary = "the centred card is full size, its neighbours shrink to 3/4 (ease-out)",
    animation = "scaleAnimation", controller = "ScaleAnimationViewController",
    pagingSnap = true,
    model = [[
-- scrollViewDidScroll, sets each visible cell's layer transform from
--   e = ease(ratio), ratio = (cell.midX - collectionView.midX) / (W/2 + w/2) clamped to -1...1,
-- GeminiEasing (the 22 curves below, `easing` 0...21; library default linear). Every
-- transform starts from Gemini's transform3DIdentity, m34 = +1/1000 (POSITIVE, as the
-- source has it; kept, though a flat scale never leaves the screen plane).
-- scale: CATransform3DScale(identity, s, s, 1), s = 1 - (1 - scale)|e| (scaleUp) or
-- scale + (1 - scale)|e| (scaleDown), scale clamped to 0...1; anchorPoint the centre.
]],
    example = [[
-- The example's configuration (kept): scale(0.75) (the library's default 1 does not
-- scale), scaleEffect per menu row (scaleUp here), ease(.easeOutQuart) (easing 8; the
-- library's default is linear, 0); item (W - 80) x (H - 400), sectionInset
-- (200, 40, 200, 40), minimumLineSpacing 40. Its image cell has cornerRadius 5.
]],
    params = [[
  scale = { value = 0.75, min = 0, max = 1, step = 0.05 },            -- scale(_:) (library default 1)
  scaleEffect = { value = 0, min = 0, max = 1, step = 1 },           -- 0 scaleUp (default), 1 scaleDown
  easing = { value = 8, min = 0, max = 21, step = 1 },              -- GeminiEasing: 8 easeOutQuart (default 0 linear)
]],
    prepare = [[
function prepare(layout)
  local size = layout.collectionView.bounds.size
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.itemSize = CGSizeMake(size.width - 80, size.height - 400)
  layout.sectionInset = UIEdgeInsetsMake(200, 40, 200, 40)
  layout.minimumLineSpacing = 40
  layout.minimumInteritemSpacing = 40
  layout.decelerationRate = UIScrollViewDecelerationRateFast
end
]],
    transform = [[
function transform(attributes, layout)
  local e = eased(distanceRatio(attributes, layout))
  local scale = calculatedScale(e)
  attributes.transform3D = CATransform3DScale(geminiIdentity(), scale, scale, 1)
  appearance(attributes, e, 5)
end
]],
  },
  { name = "gemini-cube", summary = "full-screen pages fold round a cube's edge, the turning faces darken",
    animation = "cubeAnimation", controller = "CubeViewController",
    anchor = true, scaled = false, shadowEffect = "1",
    model = [[
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
]],
    example = [[
-- The example's configuration: item size = the collection view (W x H), sectionInset 0,
-- minimumLineSpacing 0, isPagingEnabled, shadowEffect(.fadeIn). The example's cell has a
-- black shadowView over its content whose alpha is the shadow effect's value
-- (fadeIn: minShadowAlpha + |ratio| * maxShadowAlpha); cardlua draws that as the card's
-- palette colour darkened by that alpha (backgroundColor), only while it is above 0.
]],
    appearanceDoc = [[
-- UIAppearanceAnimatable: alpha (default unset = 1: (alpha - 1)|ratio| + 1) and
-- cornerRadius (default unset, here 0 = unset: the cell keeps its own; else radius * |ratio|).
-- backgroundColor(startColor:endColor:) is not a number, so it is not a param.
]],
    differs = [[
-- undefined); the port uses the untransformed layout frame, the intent. The source moves
-- layer.position when it moves the anchor (adjustAnchorPoint) using only the affine part
-- of the current transform; the port keeps the untransformed frame exactly in place.
-- The transform's ratio is clamped and the appearance's is not: the same for every
-- visible cell (|ratio| < 1 whenever the frame meets the viewport). Horizontal only (the
-- example also has a vertical cube: rotX and anchors (0.5, 0|1)). No wrap, no zIndex.
]],
    params = [[
  cubeDegree = { value = 90, min = 0, max = 90, step = 1 },          -- cubeDegree (default 90)
  easing = { value = 0, min = 0, max = 21, step = 1 },               -- GeminiEasing index, 0 linear
]],
    prepare = [[
function prepare(layout)
  local size = layout.collectionView.bounds.size
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.itemSize = CGSizeMake(size.width, size.height)   -- sizeForItemAt: the collection view's size
  layout.sectionInset = UIEdgeInsetsMake(0, 0, 0, 0)
  layout.minimumLineSpacing = 0
  layout.minimumInteritemSpacing = 0
  layout.isPagingEnabled = true
end
]],
    transform = [[
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
]],
  },
  { name = "gemini-circle-rotation", summary = "cards ride the rim of a big wheel, tilting as they pass",
    animation = "circleRotation", controller = "CircleRotationViewController",
    anchor = true,
    model = [[
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
]],
    example = [[
-- The example's configuration (kept): radius(450) (the library's default is 100, which
-- max() raises to W/2 + w/2), clockwise, itemRotationEnabled(true), scale unset (1);
-- item 200 x 350, minimumLineSpacing 10, sectionInset left/right 50, no paging, normal
-- deceleration, no targetContentOffset. Its image cell has cornerRadius 5. The example's
-- top/bottom insets are 50 + (H - 350)/2, 100 points more than the height leaves (UIKit
-- warns and places the item as it can); the port centres the item vertically, the intent.
]],
    appearanceDoc = [[
-- UIAppearanceAnimatable: alpha (unset = 1: (alpha - 1)|e| + 1), cornerRadius (0 = unset:
-- the cell keeps its 5; else radius * |e|), shadowEffect over the cell's black shadowView
-- (drawn as the palette colour darkened by its alpha; default none).
]],
    differs = [[
-- undefined); the port uses the untransformed layout frame, the intent. Horizontal only
-- (the example also has vertical wheels: rotZ with translate x and anchors (1|0, 0.5)).
-- No wrap, no zIndex: cards draw in index order.
]],
    params = [[
  circleRadius = { value = 450, min = 0, max = 2000, step = 10 },    -- radius(_:) (library default 100)
  rotateDirection = { value = 0, min = 0, max = 1, step = 1 },       -- 0 clockwise (default), 1 anticlockwise
  itemRotationEnabled = { value = true, label = "Rotate each item" },  -- itemRotationEnabled(_:) (default true)
  scale = { value = 1, min = 0, max = 1, step = 0.05 },              -- scale(_:) (default 1)
  scaleEffect = { value = 0, min = 0, max = 1, step = 1 },           -- 0 scaleUp (default), 1 scaleDown
  easing = { value = 0, min = 0, max = 21, step = 1 },               -- GeminiEasing index, 0 linear
]],
    prepare = [[
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
]],
    transform = [[
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
]],
  },
}
