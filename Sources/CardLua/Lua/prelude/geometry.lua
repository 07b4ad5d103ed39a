-- MARK: Geometry ------------------------------------------------------------------

local Point = { __name = "CGPoint" }
local Size = { __name = "CGSize" }
local Rect = { __name = "CGRect" }
local Insets = { __name = "UIEdgeInsets" }
local IndexPathMT = { __name = "IndexPath" }
Point.__tostring = function(p) return "(" .. tostring(p.x) .. ", " .. tostring(p.y) .. ")" end
Size.__tostring = function(s) return tostring(s.width) .. "x" .. tostring(s.height) end

local POINT_FIELDS, SIZE_FIELDS = { "x", "y" }, { "width", "height" }
local RECT_FIELDS = { "x", "y", "width", "height", "origin", "size", "minX", "midX", "maxX", "minY", "midY", "maxY" }
local INSET_FIELDS, INDEX_PATH_FIELDS = { "top", "left", "bottom", "right" }, { "section", "item", "row" }
Point.__index = function(_, k) return missingField("CGPoint", k, POINT_FIELDS) end
Size.__index = function(_, k) return missingField("CGSize", k, SIZE_FIELDS) end
Insets.__index = function(_, k) return missingField("UIEdgeInsets", k, INSET_FIELDS) end
IndexPathMT.__index = function(_, k) return missingField("IndexPath", k, INDEX_PATH_FIELDS) end

local function point(x, y) return setmetatable({ x = x, y = y }, Point) end
local function size(w, h) return setmetatable({ width = w, height = h }, Size) end
local function rect(x, y, w, h) return setmetatable({ x = x, y = y, width = w, height = h }, Rect) end

-- `rect.origin` and `rect.size` are views of the rect, as in Swift, where
-- `frame.origin.x = 10` changes the frame: their fields read and write the rect's own
-- x, y, width and height (a copy would swallow the write silently).
local VIEWED = {}  -- the key under which a view keeps its rect
local OriginView = { __name = "CGPoint", __tostring = Point.__tostring }
OriginView.__index = function(v, k)
  local r = rawget(v, VIEWED)
  if k == "x" then return r.x elseif k == "y" then return r.y end
  return missingField("CGPoint", k, POINT_FIELDS)
end
OriginView.__newindex = function(v, k, value)
  local r = rawget(v, VIEWED)
  if k == "x" then r.x = value elseif k == "y" then r.y = value else rawset(v, k, value) end
end
local SizeView = { __name = "CGSize", __tostring = Size.__tostring }
SizeView.__index = function(v, k)
  local r = rawget(v, VIEWED)
  if k == "width" then return r.width elseif k == "height" then return r.height end
  return missingField("CGSize", k, SIZE_FIELDS)
end
SizeView.__newindex = function(v, k, value)
  local r = rawget(v, VIEWED)
  if k == "width" then r.width = value elseif k == "height" then r.height = value else rawset(v, k, value) end
end

-- Rects store x, y, width, height; the rest is computed.
Rect.__index = function(r, k)
  local x, y, w, h = rawget(r, "x"), rawget(r, "y"), rawget(r, "width"), rawget(r, "height")
  if k == "minX" then return x
  elseif k == "midX" then return x + w / 2
  elseif k == "maxX" then return x + w
  elseif k == "minY" then return y
  elseif k == "midY" then return y + h / 2
  elseif k == "maxY" then return y + h
  elseif k == "origin" then return setmetatable({ [VIEWED] = r }, OriginView)
  elseif k == "size" then return setmetatable({ [VIEWED] = r }, SizeView)
  end
  return missingField("CGRect", k, RECT_FIELDS)
end
Rect.__tostring = function(r)
  return "(" .. tostring(r.x) .. ", " .. tostring(r.y) .. ", " .. tostring(r.width) .. ", " .. tostring(r.height) .. ")"
end

local function checkRect(r, fn)
  if type(r) ~= "table" then error(fn .. ": expected a CGRect, got " .. type(r), 3) end
  return r.x, r.y, r.width, r.height
end

class([[
---A point in points (`CGPoint`).
---@class CGPoint
---@field x number
---@field y number]])
class([[
---A size in points (`CGSize`).
---@class CGSize
---@field width number
---@field height number]])
class([[
---A rectangle (`CGRect`): x, y, width, height are stored; the rest is computed.
---`origin` and `size` are views of the rect: `frame.origin.x = 10` sets `frame.x`, as in Swift.
---@class CGRect
---@field x number
---@field y number
---@field width number
---@field height number
---@field origin CGPoint
---@field size CGSize
---@field minX number
---@field midX number
---@field maxX number
---@field minY number
---@field midY number
---@field maxY number]])
class([[
---Insets from each edge (`UIEdgeInsets`).
---@class UIEdgeInsets
---@field top number
---@field left number
---@field bottom number
---@field right number]])
class([[
---An item's position (`IndexPath`), 0-based like UIKit's.
---@class IndexPath
---@field section integer
---@field item integer
---@field row integer same as item]])

-- The constructors and the getters (CGRectGetMinX … CGRectGetHeight) are C's
-- (Sources/CLuaShims/geometry_native.c): the same tables with these metatables, without
-- the Lua call frame (a `sizeForItem` builds one CGSize per item; LoL reads a midX per item).
local geometryMakers = native.geometryMakers(Point, Size, Rect, Insets, argError)
defineAll(geometryMakers)
define("CGRectIntersectsRect", "fun(a: CGRect, b: CGRect): boolean", "Whether the two rects overlap.",
  function(a, b, extra)
    if type(a) ~= "table" or type(b) ~= "table" or a.width == nil or b.width == nil or extra ~= nil then
      argError("CGRectIntersectsRect", "a, b", "RR", a, b, extra)
    end
    local ax, ay, aw, ah = a.x, a.y, a.width, a.height
    local bx, by, bw, bh = b.x, b.y, b.width, b.height
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah
  end)
define("CGRectContainsPoint", "fun(r: CGRect, p: CGPoint): boolean", "Whether the point lies in the rect.",
  function(r, p, extra)
    if type(r) ~= "table" or type(p) ~= "table" or r.width == nil or p.x == nil or extra ~= nil then
      argError("CGRectContainsPoint", "r, p", "RP", r, p, extra)
    end
    local x, y, w, h = r.x, r.y, r.width, r.height
    return p.x >= x and p.x < x + w and p.y >= y and p.y < y + h
  end)
define("CGRectInset", "fun(r: CGRect, dx: number, dy: number): CGRect", "The rect shrunk by dx, dy on each side.",
  function(r, dx, dy, extra)
    if type(r) ~= "table" or r.width == nil or type(dx) ~= "number" or type(dy) ~= "number" or extra ~= nil then
      argError("CGRectInset", "r, dx, dy", "Rnn", r, dx, dy, extra)
    end
    return rect(r.x + dx, r.y + dy, r.width - 2 * dx, r.height - 2 * dy)
  end)
define("CGRectOffset", "fun(r: CGRect, dx: number, dy: number): CGRect", "The rect moved by dx, dy.",
  function(r, dx, dy, extra)
    if type(r) ~= "table" or r.width == nil or type(dx) ~= "number" or type(dy) ~= "number" or extra ~= nil then
      argError("CGRectOffset", "r, dx, dy", "Rnn", r, dx, dy, extra)
    end
    return rect(r.x + dx, r.y + dy, r.width, r.height)
  end)
define("CGRectEqualToRect", "fun(a: CGRect, b: CGRect): boolean", "Whether two rects are equal.",
  function(a, b, extra)
    if type(a) ~= "table" or type(b) ~= "table" or a.width == nil or b.width == nil or extra ~= nil then
      argError("CGRectEqualToRect", "a, b", "RR", a, b, extra)
    end
    return a.x == b.x and a.y == b.y and a.width == b.width and a.height == b.height
  end)
define("CGPointEqualToPoint", "fun(a: CGPoint, b: CGPoint): boolean", "Whether two points are equal.",
  function(a, b, extra)
    if type(a) ~= "table" or type(b) ~= "table" or a.x == nil or b.x == nil or extra ~= nil then
      argError("CGPointEqualToPoint", "a, b", "PP", a, b, extra)
    end
    return a.x == b.x and a.y == b.y
  end)

-- Names Objective-C and Swift ports use.
define("M_PI", "number", "π.", math.pi)
define("M_PI_2", "number", "π/2.", math.pi / 2)
define("M_PI_4", "number", "π/4.", math.pi / 4)
define("MAXFLOAT", "number", "The largest float (`MAXFLOAT`, used as 'no distance yet').", 3.40282346638528859811704183484516925440e+38)
define("CGFLOAT_MAX", "number", "The largest CGFloat.", 1.7976931348623157e308)
define("ABS", "fun(x: number): number", "Absolute value.", abs)
define("fabs", "fun(x: number): number", "Absolute value.", abs)
define("MIN", "fun(a: number, b: number): number", "The smaller.", math.min)
define("MAX", "fun(a: number, b: number): number", "The larger.", math.max)
define("UICollectionViewScrollDirectionVertical", "\"vertical\"", "Vertical scrolling.", "vertical")
define("UICollectionViewScrollDirectionHorizontal", "\"horizontal\"", "Horizontal scrolling.", "horizontal")
define("UIScrollViewDecelerationRateNormal", "\"normal\"", "0.998 per millisecond.", "normal")
define("UIScrollViewDecelerationRateFast", "\"fast\"", "0.99 per millisecond.", "fast")

