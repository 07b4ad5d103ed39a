-- MARK: Contract v2: the layout's own element query; facing and appearance -----------
-- The script's global layoutAttributesForElements(rect, layout) returns the elements a
-- frame shows (elements.c reads them back with the checks `transform` gets);
-- layout:layoutAttributesForItem(indexPath) finds any item, on screen or not.

IndexPathMT.__tostring = function(p) return "[" .. tostring(p.section) .. ", " .. tostring(p.item) .. "]" end
-- Index paths compare by value, as Swift's do.
IndexPathMT.__eq = function(a, b) return a.section == b.section and a.item == b.item end

defineAll(elementMakers)  -- IndexPath

-- The tables the layout hands out (layoutAttributesForElements, layoutAttributesForItem)
-- behave like `attributes` in transform: `transform` and `transform3D` replace each other,
-- `isHidden` is `hidden`, and the keys not set read their defaults.
local ATTRIBUTE_DEFAULTS = { isDoubleSided = true, cornerRadius = 0, shadowOpacity = 0, shadowRadius = 3, blurRadius = 0 }
local GEOMETRY, GEOMETRY_KEYS = { center = true, size = true, frame = true }, { "center", "size", "frame" }
local baseGeometry = elementMakers.baseGeometry  -- their geometry on first read
BaseAttributes.__index = function(a, k)
  if GEOMETRY[k] and baseGeometry then
    return baseGeometry(a, k)
  elseif k == "isHidden" then
    return rawget(a, "hidden") == true
  elseif k == "transform" then
    local t = rawget(a, "transform3D")
    if t ~= nil then return affine(t.m11, t.m12, t.m21, t.m22, t.m41, t.m42) end  -- a copy, as in transform
    local fresh = affine(1, 0, 0, 1, 0, 0)
    rawset(a, "transform", fresh)
    return fresh
  elseif k == "transform3D" then
    local t = rawget(a, "transform")
    local m = t and t3(t.a, t.b, 0, 0, t.c, t.d, 0, 0, 0, 0, 1, 0, t.tx, t.ty, 0, 1) or identity3D()
    rawset(a, "transform", nil)
    rawset(a, "transform3D", m)
    return m
  elseif k == "shadowOffset" then
    local o = size(0, -3)  -- kept, so that `a.shadowOffset.height = 4` sticks
    rawset(a, "shadowOffset", o)
    return o
  elseif k == "bounds" then
    local f = a.frame
    if f ~= nil then return rect(0, 0, f.width, f.height) end
  end
  return ATTRIBUTE_DEFAULTS[k]
end
-- pairs lists every field, center, size and frame included (made now if not yet read).
BaseAttributes.__pairs = function(a)
  if baseGeometry then
    for i = 1, 3 do local _ = a[GEOMETRY_KEYS[i]] end
  end
  return next, a, nil
end
-- `transform` and `transform3D` replace each other, `isHidden` is `hidden`: in C
-- (elements.c), since an element query sets several absent keys per card.
BaseAttributes.__newindex = native.elementNewindex

-- layout:layoutAttributesForItem(indexPath): any item's base attributes, on screen or
-- not, C's (elements.c), without the Lua call frame: an element query asks for one item
-- per card.
LayoutMethods.layoutAttributesForItem = elementMakers.layoutAttributesForItem
LayoutMethods.layoutAttributesForItemAtIndexPath = LayoutMethods.layoutAttributesForItem

-- For the attributes proxy (attributes.c): a start's transform, a shadow offset; for the
-- element read-back (elements.c): the metatable whose __index only supplies defaults.
I.matrix = t3
I.size = size
I.baseAttributes = BaseAttributes

class([[
---Facing and appearance (contract v2; `CALayer` names), on `attributes` in transform and
---on the tables the element query returns. Reading one gives what was set, or its default.
---@class UICollectionViewLayoutAttributes
---@field isDoubleSided boolean false: not drawn while its back faces the viewer (default true)
---@field cornerRadius number points, ≥ 0 (default 0)
---@field shadowOpacity number 0…1 (default 0: no shadow)
---@field shadowRadius number points, ≥ 0 (default 3)
---@field shadowOffset CGSize points (default 0 × −3)
---@field backgroundColor string? "#rrggbb" (default none)
---@field blurRadius number points, ≥ 0 (default 0: no blur)]])
class([[
---Any item's base attributes, on screen or not (`layoutAttributesForItem(at:)`); an index
---path outside the layout is an error.
---@param indexPath IndexPath
---@return UICollectionViewLayoutAttributes
function UICollectionViewFlowLayout:layoutAttributesForItem(indexPath) end
---The same as `layoutAttributesForItem` (the Objective-C name).
---@param indexPath IndexPath
---@return UICollectionViewLayoutAttributes
function UICollectionViewFlowLayout:layoutAttributesForItemAtIndexPath(indexPath) end

---The layout's own element query (UIKit's override of `layoutAttributesForElements(in:)`),
---called once per frame with the visible rect: return the elements to show — copies from
---`layout:layoutAttributesForElements(rect)` and `layout:layoutAttributesForItem(…)`,
---changed as you like. `transform`, if defined, then runs on each of them.
---@type fun(rect: CGRect, layout: UICollectionViewFlowLayout): UICollectionViewLayoutAttributes[]
layoutAttributesForElements = nil]])
