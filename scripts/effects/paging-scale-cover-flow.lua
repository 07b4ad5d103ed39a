-- paging-scale-cover-flow: Cover Flow: side pages turn 60° away and sink back
-- Source: CollectionViewPagingLayout, 5b40724, Lib/Scale/ScaleTransformViewOptions+Layout.swift, .coverFlow
-- Generated from scripts/families/paging-scale/: edit there, then run scripts/generate-families.
--
-- The library's model (Lib/CollectionViewPagingLayout.swift): every cell's frame is the visible
-- rect, and each cell transforms its own card view from its progress
-- p = index − contentOffset.x / W (in pages); the scroll view pages (isPagingEnabled, as the
-- example app sets). The window: numberOfVisibleItems cells around round(offset) (the
-- library's default, nil, shows every cell: params.numberOfVisibleItems = 0); zIndex is the
-- default zPosition, −|round(p)|, ties drawn in index order. The card is the example app's
-- shapes cell (Samples/…/BaseShapeCollectionViewCell.swift): the page inset by 18% of its
-- width left and right and 6% of its height top and bottom (cardMarginX, cardMarginY),
-- centred; the transform is about its centre, and w, h below are its size, as in the source.
--
-- ScaleTransformViewOptions.layout(.coverFlow) (Lib/Scale/ScaleTransformViewOptions+Layout.swift),
-- with the init's defaults for what it leaves out (Lib/Scale/ScaleTransformViewOptions.swift),
-- each a param below. The math (Lib/Scale/ScaleTransformView.swift):
--   scale = clamp(1 − curve(|p|)·scaleRatio, minScale, maxScale)        (curve: scaleCurve)
--   tx = w·translationRatio.x·curve(|p|)·sign(p) + (p > 0 and 1 or −1)·(1 − scale)·w/2
--   ty = h·translationRatio.y·curve(|p|) − (1 − scale)·h/2              (curve: translationCurve)
--   tx, ty clamped to [minTranslationRatio, maxTranslationRatio]·(w, h) (max wins)
--   the view's affine transform: scale, then translate (tx, ty)
--   rotation3d: m34 set on that transform, then rotate first by
--     clamp(angle·p, minAngle, maxAngle) about (x, y, z); the card is single-sided
--     (Rotation3dOptions.isDoubleSided defaults to false → attributes.isDoubleSided)
--   translation3d: translate first by (rx·p·w, ry·|p|·h, rz·|p|·w), each clamped to
--     [min, max]·(w, h, w), max winning (so min > max pins it to max)
--   curves (Lib/TransformCurve.swift): 0 linear x, 1 easeIn log10(1 + 9x),
--     2 easeOut 1 − log10(10 − 9x); the curve here takes |p| unclamped, as the source does,
--     except easeOut, whose log has no value past |p| = 10/9 in the source (NaN): here it
--     stays at 1 from |p| = 1 (no preset uses easeOut).
--   shadow (shadowEnabled, black): opacity max(shadowOpacityMin, (1 − |p|)·shadowOpacityMax),
--     radius max(shadowRadiusMin, (1 − |p|)·shadowRadiusMax), offset each side
--     max(shadowOffsetMin, (1 − |p|)·shadowOffsetMax); the option shadowOpacity (0.6) is
--     not read by the source, so it is not here.
-- Scrolling: horizontal (the library's default scrollDirection); one section or several,
-- counted as one run of pages as the library does. No wrap (the example app has none).

params = {
  minScale = { value = 0.7, min = 0, max = 2, step = 0.05 },
  maxScale = { value = 0.7, min = 0, max = 2, step = 0.05 },
  scaleRatio = { value = 0, min = -1, max = 1, step = 0.01 },
  translationRatioX = { value = 0, min = -3, max = 3, step = 0.01 },  -- translationRatio.x
  translationRatioY = { value = 0, min = -3, max = 3, step = 0.01 },  -- translationRatio.y
  minTranslationRatioX = { value = 0, min = -5, max = 5, step = 0.05 },  -- minTranslationRatio.x
  minTranslationRatioY = { value = 0, min = -5, max = 5, step = 0.05 },  -- minTranslationRatio.y
  maxTranslationRatioX = { value = 0, min = -5, max = 5, step = 0.05 },  -- maxTranslationRatio.x
  maxTranslationRatioY = { value = 0, min = -5, max = 5, step = 0.05 },  -- maxTranslationRatio.y
  scaleCurve = { value = 0, min = 0, max = 2, step = 1 },  -- 0 linear, 1 easeIn, 2 easeOut: .linear
  translationCurve = { value = 0, min = 0, max = 2, step = 1 },  -- .linear
  shadowOpacityMin = { value = 0.1, min = 0, max = 1, step = 0.05 },
  shadowOpacityMax = { value = 0.1, min = 0, max = 1, step = 0.05 },
  shadowRadiusMin = { value = 2, min = 0, max = 40, step = 1 },  -- points
  shadowRadiusMax = { value = 13, min = 0, max = 40, step = 1 },
  shadowOffsetMinWidth = { value = 0, min = -20, max = 20, step = 1 },  -- shadowOffsetMin (0, 2)
  shadowOffsetMinHeight = { value = 2, min = -20, max = 20, step = 1 },
  shadowOffsetMaxWidth = { value = 0, min = -20, max = 20, step = 1 },  -- shadowOffsetMax (0, 6)
  shadowOffsetMaxHeight = { value = 6, min = -20, max = 20, step = 1 },
  angle = { value = 109.090909090909, min = -360, max = 360, step = 1 },  -- rotation3d, degrees: .pi / 1.65
  minAngle = { value = -60, min = -360, max = 360, step = 1 },  -- -.pi / 3
  maxAngle = { value = 60, min = -360, max = 360, step = 1 },  -- .pi / 3
  rotationX = { value = 0, min = -1, max = 1, step = 0.1 },  -- the axis
  rotationY = { value = -1, min = -1, max = 1, step = 0.1 },
  rotationZ = { value = 0, min = -1, max = 1, step = 0.1 },
  m34 = { value = -0.0005, min = -0.01, max = 0, step = 0.0001 },  -- -0.000_5
  translateRatioX = { value = 0.1, min = -3, max = 3, step = 0.01 },  -- translation3d.translateRatios
  translateRatioY = { value = 0, min = -3, max = 3, step = 0.01 },
  translateRatioZ = { value = -0.7, min = -3, max = 3, step = 0.01 },
  minTranslateRatioX = { value = -0.1, min = -5, max = 5, step = 0.01 },  -- minTranslateRatios
  minTranslateRatioY = { value = 0, min = -5, max = 5, step = 0.01 },
  minTranslateRatioZ = { value = -3, min = -5, max = 5, step = 0.01 },
  maxTranslateRatioX = { value = 0.1, min = -5, max = 5, step = 0.01 },  -- maxTranslateRatios
  maxTranslateRatioY = { value = 0, min = -5, max = 5, step = 0.01 },
  maxTranslateRatioZ = { value = 0, min = -5, max = 5, step = 0.01 },
  numberOfVisibleItems = { value = 0, min = 0, max = 50, step = 1 },  -- 0: nil, every cell (the default)
  cardMarginX = { value = 0.18, min = 0, max = 0.45, step = 0.01 },  -- the example app's card: 18% of W each side
  cardMarginY = { value = 0.06, min = 0, max = 0.45, step = 0.01 },  -- 6% of H top and bottom
}

function prepare(layout)
  local bounds = layout.collectionView.bounds
  layout.scrollDirection = "horizontal"
  layout.itemSize = CGSizeMake(bounds.width, bounds.height)   -- one page per item: n pages of content
  layout.sectionInset = UIEdgeInsetsMake(0, 0, 0, 0)
  layout.minimumLineSpacing = 0
  layout.isPagingEnabled = true
end

local RADIANS = M_PI / 180

-- x held within low…high (high winning).
local function clamp(x, low, high)
  return math.min(math.max(x, low), high)
end

local function round(x)   -- Swift's round: halves away from zero
  if x < 0 then return -math.floor(-x + 0.5) end
  return math.floor(x + 0.5)
end

-- TransformCurve.computeFromLinear(progress:); kind: the curve param rounded (0, 1 or 2).
local function curve(kind, x)
  if kind == 1 then return math.log(1 + 9 * x, 10) end
  if kind == 2 then return 1 - math.log(10 - 9 * math.min(x, 1), 10) end
  return x
end

-- ScaleTransformView.applyScaleTransform(progress:) on the card's attributes (w × h); the two
-- curves come rounded from the element query, which rounds them once for all its cards.
local function applyScaleTransform(attributes, progress, w, h, scaleCurve, translationCurve)
  local o = params
  local distance = math.abs(progress)
  -- applyStyle: the shadow grows towards the centre page
  local near = 1 - distance
  attributes.shadowOpacity = math.max(o.shadowOpacityMin, near * o.shadowOpacityMax)
  attributes.shadowRadius = math.max(o.shadowRadiusMin, near * o.shadowRadiusMax)
  attributes.shadowOffset = CGSizeMake(math.max(o.shadowOffsetMinWidth, near * o.shadowOffsetMaxWidth),
    math.max(o.shadowOffsetMinHeight, near * o.shadowOffsetMaxHeight))
  -- applyScaleAndTranslation (keepHorizontalSpacingEqual, keepVerticalSpacingEqual: true)
  local scale = clamp(1 - curve(scaleCurve, distance) * o.scaleRatio, o.minScale, o.maxScale)
  local xAdjustment = (1 - scale) * w / 2
  if progress > 0 then xAdjustment = -xAdjustment end
  local yAdjustment = (1 - scale) * h / 2
  local translateProgress = curve(translationCurve, distance)
  local translateX = w * o.translationRatioX * translateProgress * (progress < 0 and -1 or 1) - xAdjustment
  local translateY = h * o.translationRatioY * math.abs(translateProgress) - yAdjustment
  translateX = clamp(translateX, w * o.minTranslationRatioX, w * o.maxTranslationRatioX)
  translateY = clamp(translateY, h * o.minTranslationRatioY, h * o.maxTranslationRatioY)
  local t = CATransform3DScale(CATransform3DMakeTranslation(translateX, translateY, 0), scale, scale, 1)
  if scale == 0 then attributes.hidden = true end   -- a view scaled to nothing draws nothing (no label either)
  -- applyCATransform3D: rotation3d (m34 on the affine transform, the rotation applied first)
  t.m34 = o.m34
  local angle = clamp(o.angle * RADIANS * progress, o.minAngle * RADIANS, o.maxAngle * RADIANS)
  t = CATransform3DRotate(t, angle, o.rotationX, o.rotationY, o.rotationZ)
  attributes.isDoubleSided = false
  -- translation3d, applied before everything else
  local x = clamp(o.translateRatioX * progress * w, o.minTranslateRatioX * w, o.maxTranslateRatioX * w)
  local y = clamp(o.translateRatioY * distance * h, o.minTranslateRatioY * h, o.maxTranslateRatioY * h)
  local z = clamp(o.translateRatioZ * distance * w, o.minTranslateRatioZ * w, o.maxTranslateRatioZ * w)
  t = CATransform3DTranslate(t, x, y, z)
  attributes.transform3D = t
end

-- CollectionViewPagingLayout.layoutAttributesForElements(in:): the cells of the window around
-- round(offset), every one at the visible rect (its card centred in it), transformed by its progress.
function layoutAttributesForElements(_, layout)
  local collectionView = layout.collectionView
  local visibleRect = collectionView.bounds
  local W, H = visibleRect.width, visibleRect.height
  local currentScrollOffset = visibleRect.x / math.max(W, 1)
  local sections, numberOfItems = collectionView.numberOfSections, 0
  for section = 0, sections - 1 do numberOfItems = numberOfItems + collectionView:numberOfItems(section) end
  local count = round(params.numberOfVisibleItems)
  if count <= 0 then count = numberOfItems end
  local mid = count // 2
  local current = round(currentScrollOffset)
  local first, last = current - mid, current + mid   -- last excluded
  if count % 2 ~= 0 then
    if current < mid then first = first - 1 else last = last + 1 end
  end
  local startOut, endOut = math.max(0, -first), math.max(0, last - numberOfItems)
  first, last = math.max(0, first - endOut), math.min(numberOfItems, last + startOut)
  local w, h = W * (1 - 2 * params.cardMarginX), H * (1 - 2 * params.cardMarginY)
  local x, y = visibleRect.x + (W - w) / 2, visibleRect.y + (H - h) / 2   -- every card's origin
  -- the curves, rounded once for all the cards (params do not change in a call)
  local scaleCurve, translationCurve = round(params.scaleCurve), round(params.translationCurve)
  local elements = {}
  local section, before, inSection = 0, 0, sections > 0 and collectionView:numberOfItems(0) or 0
  for index = first, last - 1 do
    while index - before >= inSection do   -- the index runs on through the sections
      before, section = before + inSection, section + 1
      inSection = collectionView:numberOfItems(section)
    end
    local attributes = layout:layoutAttributesForItem(IndexPath(index - before, section))
    attributes.frame = CGRectMake(x, y, w, h)
    local progress = index - currentScrollOffset
    applyScaleTransform(attributes, progress, w, h, scaleCurve, translationCurve)
    attributes.zIndex = -math.abs(round(progress))
    elements[#elements + 1] = attributes
  end
  return elements
end
