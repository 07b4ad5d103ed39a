-- paging-stack-vortex: pages behind grow and fade like a vortex; the top one spins away
-- Source: CollectionViewPagingLayout, 5b40724, Lib/Stack/StackTransformViewOptions+Layout.swift, .vortex
-- Generated from scripts/families/paging-stack/: edit there, then run scripts/generate-families.
--
-- The library's model (Lib/CollectionViewPagingLayout.swift): every cell's frame is the visible
-- rect, and each cell transforms its own card view from its progress
-- p = index − contentOffset.x / W (in pages); the scroll view pages (isPagingEnabled, as the
-- example app sets). The window: numberOfVisibleItems cells around round(offset) (the
-- library's default, nil, shows every cell: params.numberOfVisibleItems = 0). zIndex is
-- StackTransformView's zPosition, −round(p), ties drawn in index order.
-- The card is the example app's shapes cell (Samples/…/BaseShapeCollectionViewCell.swift):
-- the page inset by 18% of its width left and right and 6% of its height top and bottom
-- (cardMarginX, cardMarginY), centred; the transform is about its centre, and w, h below
-- are its size.
--
-- StackTransformViewOptions.layout(.vortex) (Lib/Stack/StackTransformViewOptions+Layout.swift),
-- with the init's defaults for what it leaves out (Lib/Stack/StackTransformViewOptions.swift),
-- each a param below; maxSpacing is nil (no cap on the spacing), and so is maxScale (no upper clamp).
-- The math (Lib/Stack/StackTransformView.swift), with N = maxStackSize:
--   scale = clamp(1 − p·scaleFactor, minScale, maxScale)
--   persp = easeOut(clamp(p/N, 0, 1))·perspectiveRatio, easeOut(x) = 1 − log10(10 − 9x)
--   tx = w·spacingFactor·max(p, 0)·stackPosition.x, ty likewise with h and .y
--   xAdj = −stackPosition.x·((scale − 1)·w/2 + persp·w), yAdj likewise; the popping card
--     (p < 0) moves by −(w, h)·popOffsetRatio·p more
--   alpha: p ≥ N − 1 fades out over bottomStackAlphaSpeedFactor pages, p < 0 fades in over
--     topStackAlphaSpeedFactor from p = −1; then, if still visible and p ≥ 0, − p·alphaFactor;
--     clamped to 0…1 as UIKit draws it
--   angle: p ≤ 0: −min(|p|, 1)·|popAngle|, negated if popAngle < 0; p > 0: the zig-zag
--     S − 2·frac(p)·S (S = stackRotateAngel), negated when trunc(p) is even, + (1 − p)·|S|
--     while p < 1
--   the view's affine transform: rotate by angle, scale, then translate (tx + xAdj, ty + yAdj)
--   no shadow: the preset sets shadowEnabled = false.
-- Scrolling: horizontal (the library's default scrollDirection); one section or several,
-- counted as one run of pages as the library does. No wrap (the example app has none).

params = {
  scaleFactor = { value = -0.15, min = -1, max = 1, step = 0.01 },
  minScale = { value = 0.2, min = 0, max = 2, step = 0.05 },
  maxStackSize = { value = 4, min = 1, max = 12, step = 1 },  -- N, a whole number of cards
  spacingFactor = { value = 0, min = -0.5, max = 0.5, step = 0.01 },
  alphaFactor = { value = 0.4, min = -1, max = 1, step = 0.05 },
  bottomStackAlphaSpeedFactor = { value = 0.9, min = 0.05, max = 20, step = 0.05 },  -- pages
  topStackAlphaSpeedFactor = { value = 1, min = 0.05, max = 5, step = 0.05 },  -- pages
  perspectiveRatio = { value = -0.3, min = -1, max = 1, step = 0.01 },
  stackRotateAngel = { value = 0, min = -90, max = 90, step = 0.25 },  -- degrees: 0 (the source's spelling)
  popAngle = { value = 180, min = -360, max = 360, step = 1 },  -- degrees: .pi
  popOffsetRatioWidth = { value = 0, min = -3, max = 3, step = 0.05 },  -- popOffsetRatio
  popOffsetRatioHeight = { value = 0, min = -3, max = 3, step = 0.05 },
  stackPositionX = { value = 0, min = -1, max = 1, step = 0.1 },  -- stackPosition
  stackPositionY = { value = 1, min = -1, max = 1, step = 0.1 },
  numberOfVisibleItems = { value = 0, min = 0, max = 50, step = 1 },  -- 0: nil, every cell (the default)
  cardMarginX = { value = 0.18, min = 0, max = 0.45, step = 0.01 },  -- the example app's card: 18% of W each side
  cardMarginY = { value = 0.06, min = 0, max = 0.45, step = 0.01 },  -- 6% of H top and bottom
}

local REVERSE <const> = false   -- the preset's reverse flag (constant: Lua compiles its tests away)

function prepare(layout)
  local bounds = layout.collectionView.bounds
  layout.scrollDirection = "horizontal"
  layout.itemSize = CGSizeMake(bounds.width, bounds.height)   -- one page per item: n pages of content
  layout.sectionInset = UIEdgeInsetsMake(0, 0, 0, 0)
  layout.minimumLineSpacing = 0
  layout.isPagingEnabled = true
end

local RADIANS = M_PI / 180

local function round(x)   -- Swift's round: halves away from zero
  if x < 0 then return -math.floor(-x + 0.5) end
  return math.floor(x + 0.5)
end

-- CGFloat.interpolate(in:out:): x held inside the input range (its lower end winning), then
-- mapped onto the output range's length; the output defaults to 0…1.
local function interpolate(x, inLower, inUpper, outLower, outUpper)
  outLower, outUpper = outLower or 0, outUpper or 1
  x = math.max(math.min(x, inUpper), inLower)
  return outLower + math.abs(x - inLower) / math.abs(inUpper - inLower) * math.abs(outUpper - outLower)
end

local function easeOut(x) return 1 - math.log(1 + (9 - x * 9), 10) end   -- TransformCurve.easeOut

-- StackTransformView.applyStackTransform(progress:) on the card's attributes (w × h). N, S and
-- |popAngle| (the angles in radians) come from the element query, read once for all its cards.
local function applyStackTransform(attributes, progress, w, h, stackSize, stackAngle, absPopAngle)
  local o = params
  if REVERSE then progress = -progress end
  -- applyScale
  local scale = math.max(o.minScale, 1 - progress * o.scaleFactor)
  local stackProgress = interpolate(progress, 0, stackSize)
  local perspectiveProgress = easeOut(stackProgress) * o.perspectiveRatio
  local positiveProgress = math.max(progress, 0)
  local translateX = w * o.spacingFactor * positiveProgress * o.stackPositionX
  local translateY = h * o.spacingFactor * positiveProgress * o.stackPositionY
  local yAdjustment = ((scale - 1) * h / 2 + perspectiveProgress * h) * -o.stackPositionY
  local xAdjustment = ((scale - 1) * w / 2 + perspectiveProgress * w) * -o.stackPositionX
  if progress < 0 then   -- the top card pops off
    xAdjustment = xAdjustment - w * o.popOffsetRatioWidth * progress
    yAdjustment = yAdjustment - h * o.popOffsetRatioHeight * progress
  end
  -- applyAlpha
  local alpha = 1
  local targetCard = stackSize - 1
  if progress >= targetCard then
    alpha = 1 - interpolate(progress, targetCard, targetCard + o.bottomStackAlphaSpeedFactor)
  elseif progress < 0 then
    alpha = interpolate(progress, -1, -1 + o.topStackAlphaSpeedFactor)
  end
  if alpha > 0 and progress >= 0 then alpha = alpha - progress * o.alphaFactor end
  attributes.alpha = math.max(0, math.min(1, alpha))
  -- applyRotation
  local angle
  if progress <= 0 then
    angle = -interpolate(math.abs(progress), 0, 1, 0, absPopAngle)
    if o.popAngle < 0 then angle = -angle end
  else
    local whole = math.floor(progress)   -- Int(progress), progress > 0
    angle = -(progress - whole) * stackAngle * 2 + stackAngle
    if whole % 2 == 0 then angle = -angle end
    if progress < 1 then angle = angle + interpolate(1 - progress, 0, 1, 0, math.abs(stackAngle)) end
  end
  -- translatedBy(x + xAdj, y + yAdj).scaledBy(scale).rotated(by: angle): rotate, scale, then move
  local t = CATransform3DMakeTranslation(translateX + xAdjustment, translateY + yAdjustment, 0)
  attributes.transform3D = CATransform3DRotate(CATransform3DScale(t, scale, scale, 1), angle, 0, 0, 1)
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
  -- the options as the math reads them, once for all the cards (params do not change in a call)
  local stackSize = math.floor(params.maxStackSize)   -- N, a whole number (the source's Int)
  local stackAngle, absPopAngle = params.stackRotateAngel * RADIANS, math.abs(params.popAngle * RADIANS)
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
    applyStackTransform(attributes, progress, w, h, stackSize, stackAngle, absPopAngle)
    local zPosition = -round(progress)
    if REVERSE then zPosition = -zPosition end
    attributes.zIndex = zPosition
    elements[#elements + 1] = attributes
  end
  return elements
end
