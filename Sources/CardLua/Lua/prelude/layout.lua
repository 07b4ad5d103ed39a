-- MARK: The layout a script sees ---------------------------------------------------

local LayoutMT = { __name = "UICollectionViewFlowLayout" }
local LayoutMethods = {}
LayoutMT.__index = LayoutMethods

local BaseAttributes = { __name = "UICollectionViewLayoutAttributes" }
local direction = "vertical"

-- The tables the layout hands out are C's (elements.c: the same keys, values and
-- metatables, no Lua call frame; an element query makes several per card; center, size
-- and frame made when first read, through baseGeometry), and IndexPath (elements.lua).
-- baseElements: the base attributes of the items that meet a rect.
local elementMakers = native.elementMakers(IndexPathMT, BaseAttributes, Point, Size, Rect, argError)
local baseElements = elementMakers.queryAttributes

-- layout:layoutAttributesForElements(rect): the base, untransformed attributes that
-- meet rect (what `super` returns in the seeds), ordered by section then item.
function LayoutMethods.layoutAttributesForElements(_, r)
  local x, y, w, h = checkRect(r, "layoutAttributesForElements")
  if not (isnumber(x) and isnumber(y) and isnumber(w) and isnumber(h)) then
    error("layoutAttributesForElements: the rect needs finite x, y, width and height", 2)
  end
  return baseElements(x, y, w, h)
end
LayoutMethods.layoutAttributesForElementsInRect = LayoutMethods.layoutAttributesForElements

-- layout:targetContentOffset(proposed, velocity): super's answer, the proposal itself.
function LayoutMethods.targetContentOffset(_, proposed)
  if type(proposed) ~= "table" then error("targetContentOffset: expected a CGPoint", 2) end
  return point(proposed.x, proposed.y)
end
LayoutMethods.targetContentOffsetForProposedContentOffset = LayoutMethods.targetContentOffset
function LayoutMethods.invalidateLayout() end

-- Reads of a misspelt layout property or method (`layout.collectionview`) raise with the
-- right name; every other absent key reads nil, as before.
local LAYOUT_FIELDS = { "scrollDirection", "itemSize", "sectionInset", "minimumLineSpacing",
  "minimumInteritemSpacing", "headerReferenceSize", "footerReferenceSize", "decelerationRate",
  "isPagingEnabled", "time", "collectionView", "collectionViewContentSize", "wraps",
  "flipsHorizontallyInOppositeLayoutDirection", "layoutAttributesForElements", "layoutAttributesForItem",
  "targetContentOffset", "invalidateLayout" }
setmetatable(LayoutMethods, { __index = function(_, k) return missingField("layout", k, LAYOUT_FIELDS) end })

-- The collection view's rects and points are the same tables every frame, updated in
-- place (like `attributes`). Every field exists from the start and the host reads none
-- of them back, so nothing a script does to their metatables runs in setState.
local function fullRect(origin, extent)
  return setmetatable({ x = 0, y = 0, width = 0, height = 0, minX = 0, midX = 0, maxX = 0,
                        minY = 0, midY = 0, maxY = 0, origin = origin, size = extent }, Rect)
end
local boundsOrigin, boundsSize = point(0, 0), size(0, 0)
local frameOrigin, frameSize = point(0, 0), size(0, 0)
local bounds = fullRect(boundsOrigin, boundsSize)
local frame = fullRect(frameOrigin, frameSize)
local frameWidth, frameHeight  -- the viewport `frame` was last filled for
local contentOffset = point(0, 0)
local contentSize = size(0, 0)
local collectionView = {}
local layout = setmetatable({
  scrollDirection = "vertical",
  itemSize = size(50, 50),
  sectionInset = setmetatable({ top = 0, left = 0, bottom = 0, right = 0 }, Insets),
  minimumLineSpacing = 10,
  minimumInteritemSpacing = 10,
  headerReferenceSize = size(0, 0),
  footerReferenceSize = size(0, 0),
  decelerationRate = "normal",
  isPagingEnabled = false,
  time = 0,
}, LayoutMT)

local function fillRect(r, o, s, x, y, w, h)
  r.x = x; r.y = y; r.width = w; r.height = h
  r.minX = x; r.midX = x + w / 2; r.maxX = x + w
  r.minY = y; r.midY = y + h / 2; r.maxY = y + h
  o.x = x; o.y = y; s.width = w; s.height = h
  r.origin = o; r.size = s
end

-- Once per frame: what the collection view is doing now (the frame rect changes only
-- with the viewport). Plain assignments, no reads: this runs every frame.
function I.setState(ox, oy, vw, vh, cw, ch, time, tracking, dragging, decelerating, rtl)
  local b, o, s = bounds, boundsOrigin, boundsSize  -- fillRect(bounds, …), written out
  b.x = ox; b.y = oy; b.width = vw; b.height = vh
  b.minX = ox; b.midX = ox + vw / 2; b.maxX = ox + vw
  b.minY = oy; b.midY = oy + vh / 2; b.maxY = oy + vh
  o.x = ox; o.y = oy; s.width = vw; s.height = vh
  b.origin = o; b.size = s
  if vw ~= frameWidth or vh ~= frameHeight then
    fillRect(frame, frameOrigin, frameSize, 0, 0, vw, vh)
    frameWidth, frameHeight = vw, vh
  end
  contentOffset.x = ox; contentOffset.y = oy
  contentSize.width = cw; contentSize.height = ch
  collectionView.bounds = bounds
  collectionView.frame = frame
  collectionView.contentOffset = contentOffset
  collectionView.contentSize = contentSize
  collectionView.isTracking = tracking  -- booleans from the host
  collectionView.isDragging = dragging
  collectionView.isDecelerating = decelerating
  collectionView.effectiveUserInterfaceLayoutDirection = rtl and "rightToLeft" or "leftToRight"
  layout.collectionView = collectionView
  layout.collectionViewContentSize = contentSize
  layout.time = time
end

local function fail(message) error(message, 0) end

local function sizeOf(v, name, allowZero)
  if type(v) ~= "table" then fail(name .. " is " .. (v == nil and "missing" or "a " .. type(v)) .. ", expected a size { width = …, height = … }") end
  local w, h = v.width, v.height
  for _, pair in ipairs({ { "width", w }, { "height", h } }) do
    local key, value = pair[1], pair[2]
    if not isnumber(value) then
      fail(name .. "." .. key .. " must be a finite number (got " .. tostring(value) .. ")")
    end
    if value < 0 or (not allowZero and value == 0) then
      fail(name .. "." .. key .. " must be " .. (allowZero and "zero or more" or "positive") .. " (got " .. tostring(value) .. ")")
    end
  end
  return w, h
end

local function nonNegative(v, name)
  if not isnumber(v) then fail(name .. " must be a finite number (got " .. tostring(v) .. ")") end
  if v < 0 then fail(name .. " must be zero or more (got " .. tostring(v) .. ")") end
  return v
end

-- After prepare: the flow properties, validated, as numbers for the host.
-- The configuration array's order: CARDLUA_CFG_* in CLuaShims.h (cardlua_config_key;
-- ConstantsTests fails if this list drifts from it).
local LAYOUT_CONFIG_ORDER = { "direction", "itemWidth", "itemHeight", "insetTop", "insetLeft", "insetBottom", "insetRight", "lineSpacing", "interitemSpacing", "headerWidth", "headerHeight", "footerWidth", "footerHeight", "deceleration", "paging", "wraps", "flipsHorizontally", "bounces", "alwaysBounceHorizontal", "alwaysBounceVertical" }

-- A boolean layout or collection view property: `name` on the collection view (where
-- UIKit has it) wins over the same name on the layout.
local function flag(l, cv, name, owner, default)
  local v
  if type(cv) == "table" then v = rawget(cv, name) end
  if v == nil then v = rawget(l, name) end
  if v == nil then v = default end
  if type(v) ~= "boolean" then fail(owner .. "." .. name .. " must be true or false (got " .. tostring(v) .. ")") end
  return v and 1 or 0
end

function I.readLayout(l)
  local cv = rawget(l, "collectionView")
  local dir = l.scrollDirection
  if dir ~= "vertical" and dir ~= "horizontal" then
    fail("layout.scrollDirection must be \"vertical\" or \"horizontal\" (got " .. tostring(dir) .. ")")
  end
  direction = dir
  local iw, ih = sizeOf(l.itemSize, "layout.itemSize", false)
  local inset = l.sectionInset
  if type(inset) ~= "table" then fail("layout.sectionInset must be { top, left, bottom, right }") end
  local top, left = nonNegative(inset.top or 0, "layout.sectionInset.top"), nonNegative(inset.left or 0, "layout.sectionInset.left")
  local bottom, right = nonNegative(inset.bottom or 0, "layout.sectionInset.bottom"), nonNegative(inset.right or 0, "layout.sectionInset.right")
  -- Any finite line spacing: a negative one overlaps the lines (covers), as UIKit allows.
  local ls = l.minimumLineSpacing
  if not isnumber(ls) then fail("layout.minimumLineSpacing must be a finite number (got " .. tostring(ls) .. ")") end
  local is = nonNegative(l.minimumInteritemSpacing, "layout.minimumInteritemSpacing")
  local hw, hh = sizeOf(l.headerReferenceSize, "layout.headerReferenceSize", true)
  local fw, fh = sizeOf(l.footerReferenceSize, "layout.footerReferenceSize", true)
  local rate = (type(cv) == "table" and rawget(cv, "decelerationRate")) or l.decelerationRate
  if rate == "normal" then rate = 0.998 elseif rate == "fast" then rate = 0.99 end
  if not isnumber(rate) or rate <= 0 or rate >= 1 then
    fail("layout.decelerationRate must be \"normal\", \"fast\" or a number between 0 and 1 (got " .. tostring(rate) .. ")")
  end
  local paging = l.isPagingEnabled
  if type(cv) == "table" and rawget(cv, "isPagingEnabled") ~= nil then paging = rawget(cv, "isPagingEnabled") end
  if type(paging) ~= "boolean" then fail("layout.isPagingEnabled must be true or false (got " .. tostring(paging) .. ")") end
  local values = {
    direction = dir == "horizontal" and 1 or 0, itemWidth = iw, itemHeight = ih,
    insetTop = top, insetLeft = left, insetBottom = bottom, insetRight = right,
    lineSpacing = ls, interitemSpacing = is, headerWidth = hw, headerHeight = hh,
    footerWidth = fw, footerHeight = fh, deceleration = rate, paging = paging and 1 or 0,
    wraps = flag(l, nil, "wraps", "layout", false),
    flipsHorizontally = flag(l, nil, "flipsHorizontallyInOppositeLayoutDirection", "layout", true),
    bounces = flag(l, cv, "bounces", "layout.collectionView", true),
    alwaysBounceHorizontal = flag(l, cv, "alwaysBounceHorizontal", "layout.collectionView", false),
    alwaysBounceVertical = flag(l, cv, "alwaysBounceVertical", "layout.collectionView", false),
  }
  local out = {}
  for i = 1, #LAYOUT_CONFIG_ORDER do out[i] = values[LAYOUT_CONFIG_ORDER[i]] end
  return out
end

function I.point(x, y) return point(x, y) end
function I.rect(x, y, w, h) return rect(x, y, w, h) end

-- targetContentOffset's answer as x, y: a point, or a number on the scroll axis.
function I.readPoint(result, proposed)
  local x, y
  if type(result) == "number" then
    if direction == "horizontal" then x, y = result, proposed.y else x, y = proposed.x, result end
  elseif type(result) == "table" then
    x, y = result.x, result.y
    if x == nil and y == nil then fail("returned a table without x and y; expected a CGPoint or a number") end
    x, y = x == nil and proposed.x or x, y == nil and proposed.y or y
  else
    fail("returned " .. (result == nil and "nothing" or "a " .. type(result)) .. "; expected a CGPoint or a number")
  end
  for _, pair in ipairs({ { "x", x }, { "y", y } }) do
    local key, v = pair[1], pair[2]
    if type(v) ~= "number" then fail("returned " .. key .. " = " .. tostring(v) .. "; expected a number") end
    if v ~= v then fail("returned " .. key .. " = NaN") end
    if v - v ~= 0 then fail("returned " .. key .. " = " .. tostring(v) .. " (not finite)") end
  end
  return x, y
end

-- The attributes a transform call sees: one reused table (absent keys read the base
-- values through the native __index). Scripts must not keep it past the call.
local attributes = setmetatable({}, {
  __name = "UICollectionViewLayoutAttributes",
  __index = native.attributesIndex,
  __newindex = native.attributesNewindex,
})
I.attributes = attributes
I.layout = layout
I.pool = {
  center = setmetatable({}, Point), size = setmetatable({}, Size),
  frame = setmetatable({}, Rect), indexPath = setmetatable({}, IndexPathMT),
}
I.identity3D = identity3D
I.identityAffine = function() return affine(1, 0, 0, 1, 0, 0) end
I.affineTo3D = function(t) return t3(t.a, t.b, 0, 0, t.c, t.d, 0, 0, 0, 0, 1, 0, t.tx, t.ty, 0, 1) end
I.affineFrom3D = function(t) return affine(t.m11, t.m12, t.m21, t.m22, t.m41, t.m42) end

class([[
---One item's layout (`UICollectionViewLayoutAttributes`). The table is reused from item
---to item: do not keep it past the call. Setting `transform` replaces `transform3D` and
---vice versa. If both `frame` and `center` are changed, the frame's size is kept and
---`center` decides the position.
---@class UICollectionViewLayoutAttributes
---@field indexPath IndexPath read only
---@field frame CGRect untransformed
---@field center CGPoint
---@field size CGSize
---@field bounds CGRect read only: (0, 0, width, height)
---@field transform3D CATransform3D applied about the centre
---@field transform CGAffineTransform applied about the centre
---@field alpha number 0…1
---@field zIndex integer drawing order, ascending (ties by index path)
---@field hidden boolean
---@field isHidden boolean same as hidden]])
class([[
---The scroll view around the layout (`UICollectionView`), as it is this frame.
---@class UICollectionView
---@field bounds CGRect the visible rect: origin = content offset
---@field frame CGRect (0, 0, viewport width, viewport height)
---@field contentOffset CGPoint
---@field contentSize CGSize
---@field isTracking boolean a finger is on the content
---@field isDragging boolean a finger has moved the content
---@field isDecelerating boolean moving on its own after a release
---@field decelerationRate? "normal"|"fast"|number may be set in prepare
---@field isPagingEnabled? boolean may be set in prepare
---@field effectiveUserInterfaceLayoutDirection "leftToRight"|"rightToLeft" set by `--rtl` or a scenario's `rtl = true`
---@field bounces? boolean may be set in prepare: drags rubber-band past the edges (default true)
---@field alwaysBounceHorizontal? boolean may be set in prepare: content that fits still drags and bounces horizontally (default false)
---@field alwaysBounceVertical? boolean may be set in prepare: the same vertically (default false)]])
class([[
---The flow layout (`UICollectionViewFlowLayout`): set its properties in prepare.
---@class UICollectionViewFlowLayout
---@field collectionView UICollectionView
---@field collectionViewContentSize CGSize
---@field scrollDirection "vertical"|"horizontal"
---@field itemSize CGSize|{width: number, height: number}
---@field sectionInset UIEdgeInsets|{top: number, left: number, bottom: number, right: number}
---@field minimumLineSpacing number between lines (rows when vertical, columns when horizontal)
---@field minimumInteritemSpacing number between items in a line
---@field headerReferenceSize CGSize|{width: number, height: number}
---@field footerReferenceSize CGSize|{width: number, height: number}
---@field decelerationRate "normal"|"fast"|number velocity kept per millisecond (0.998, 0.99)
---@field isPagingEnabled boolean rest on multiples of the viewport
---@field time number seconds since the scenario began
---@field wraps boolean the items repeat endlessly along the scroll axis, one period = first to last item + minimumLineSpacing (no edges, no rubber band; offsets and proposals unbounded; the rect query returns every repetition, an item may come twice) (default false)
---@field flipsHorizontallyInOppositeLayoutDirection boolean mirror the horizontal flow right to left (default true)
local UICollectionViewFlowLayout = {}
---The base, untransformed attributes meeting rect (what `super` returns).
---@param rect CGRect
---@return UICollectionViewLayoutAttributes[]
function UICollectionViewFlowLayout:layoutAttributesForElements(rect) end
---Super's answer: the proposal itself.
---@param proposedContentOffset CGPoint
---@param velocity CGPoint
---@return CGPoint
function UICollectionViewFlowLayout:targetContentOffset(proposedContentOffset, velocity) end
---The same as `layoutAttributesForElements` (the Objective-C name).
---@param rect CGRect
---@return UICollectionViewLayoutAttributes[]
function UICollectionViewFlowLayout:layoutAttributesForElementsInRect(rect) end
---The same as `targetContentOffset` (the Objective-C name).
---@param proposedContentOffset CGPoint
---@param velocity CGPoint
---@return CGPoint
function UICollectionViewFlowLayout:targetContentOffsetForProposedContentOffset(proposedContentOffset, velocity) end
---Does nothing: cardlua lays out again whenever it needs to.
function UICollectionViewFlowLayout:invalidateLayout() end]])

