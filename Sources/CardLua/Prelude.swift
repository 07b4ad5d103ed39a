// The Lua prelude: the script API of docs/script-api.md (geometry, CATransform3D,
// CGAffineTransform, the layout object, scenario parsing, LuaCATS generation).
// Kept in a Swift string so the `cardlua` binary carries it with no resource files.
// swiftlint:disable file_length

/// The prelude's Lua source, loaded (as text) into every state before the script.
let preludeSource = #"""
-- cardlua prelude: the script API of docs/script-api.md, written in Lua so that nothing a
-- script calls is a Swift frame. Loaded once per state, before the script, as text.
-- It receives the native (C) functions it needs and returns the host's internals.
-- Every public name is registered with `define`, from which `cardlua types` writes the
-- LuaCATS definitions: the two cannot drift.
local native = ...
local G = _G
local type, rawget, rawset, setmetatable, getmetatable, error, tostring, pairs, ipairs =
  type, rawget, rawset, setmetatable, getmetatable, error, tostring, pairs, ipairs
local sqrt, cos, sin, abs, huge, floor = math.sqrt, math.cos, math.sin, math.abs, math.huge, math.floor
local concat, sort = table.concat, table.sort
local tonumber, smatch, gmatch, ssub, select = tonumber, string.match, string.gmatch, string.sub, select

local I = {}          -- internals for the host (never reachable from scripts)
local api = {}        -- the public API, in order, for `cardlua types`
local classes = {}    -- LuaCATS class definitions, in order

local function define(name, signature, doc, value)
  api[#api + 1] = { name = name, signature = signature, doc = doc }
  G[name] = value
end

local function class(text) classes[#classes + 1] = text end

local function isnumber(v) return type(v) == "number" and v == v and v - v == 0 end

-- MARK: Argument checks -----------------------------------------------------------------

-- Every helper tests its arguments inline (a type() or nil test each: this is the hot
-- path) and, only when one is wrong, calls argError to say which, at the script's line
-- (level 3: argError, the helper, its caller). `params` names them ("t, angle, x, y, z";
-- a method's first is self and is not shown), `kinds` has one letter per parameter:
-- n number, T CATransform3D, A CGAffineTransform, R CGRect, P CGPoint, S CGSize.
-- The helper passes one more argument than it declares, so that an extra one is caught.
local KIND_NAMES = { T = "a CATransform3D", A = "a CGAffineTransform", R = "a CGRect", P = "a CGPoint", S = "a CGSize" }
local KIND_FIELD = { T = "m11", A = "a", R = "width", P = "x", S = "width" }
local function argError(fn, params, kinds, ...)
  local names = {}
  for name in gmatch(params, "[%w_]+") do names[#names + 1] = name end
  local method = smatch(fn, ":") ~= nil
  local shown = concat(names, ", ", method and 2 or 1)
  local expected = fn .. ": expected (" .. shown .. ")"
  local count = select("#", ...)
  for i = 1, #kinds do
    local kind, v = ssub(kinds, i, i), (select(i, ...))
    local ok
    if kind == "n" then ok = type(v) == "number"
    else ok = type(v) == "table" and v[KIND_FIELD[kind]] ~= nil end
    if not ok then
      local got
      if v == nil then
        local later = false
        for j = i + 1, count do if select(j, ...) ~= nil then later = true end end
        got = later and "nil" or "missing"
      elseif type(v) == "table" and kind ~= "n" then got = "a table without ." .. KIND_FIELD[kind]
      else got = "a " .. type(v) end
      if kind == "n" then
        -- "fn: expected (t, angle, x, y, z); x is missing"
        error(expected .. "; " .. names[i] .. " is " .. got .. (v == nil and "" or ", not a number"), 3)
      end
      -- "fn: expected a CGRect as r, got nothing (fn(r))"
      error(fn .. ": expected " .. KIND_NAMES[kind] .. " as " .. (method and i == 1 and "self" or names[i]) ..
        ", got " .. (got == "missing" and "nothing" or got) .. " (" .. fn .. "(" .. shown .. "))", 3)
    end
  end
  error(expected .. "; got more arguments", 3)
end

-- MARK: Geometry ------------------------------------------------------------------

local Point = { __name = "CGPoint" }
local Size = { __name = "CGSize" }
local Rect = { __name = "CGRect" }
local Insets = { __name = "UIEdgeInsets" }
local IndexPathMT = { __name = "IndexPath" }
Point.__tostring = function(p) return "(" .. tostring(p.x) .. ", " .. tostring(p.y) .. ")" end
Size.__tostring = function(s) return tostring(s.width) .. "x" .. tostring(s.height) end

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
end
OriginView.__newindex = function(v, k, value)
  local r = rawget(v, VIEWED)
  if k == "x" then r.x = value elseif k == "y" then r.y = value else rawset(v, k, value) end
end
local SizeView = { __name = "CGSize", __tostring = Size.__tostring }
SizeView.__index = function(v, k)
  local r = rawget(v, VIEWED)
  if k == "width" then return r.width elseif k == "height" then return r.height end
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

define("CGPointMake", "fun(x: number, y: number): CGPoint", "A point.", function(x, y, extra)
  if type(x) ~= "number" or type(y) ~= "number" or extra ~= nil then argError("CGPointMake", "x, y", "nn", x, y, extra) end
  return setmetatable({ x = x, y = y }, Point)
end)
define("CGSizeMake", "fun(width: number, height: number): CGSize", "A size.", function(w, h, extra)
  if type(w) ~= "number" or type(h) ~= "number" or extra ~= nil then argError("CGSizeMake", "width, height", "nn", w, h, extra) end
  return setmetatable({ width = w, height = h }, Size)
end)
define("CGRectMake", "fun(x: number, y: number, width: number, height: number): CGRect", "A rectangle.", function(x, y, w, h, extra)
  if type(x) ~= "number" or type(y) ~= "number" or type(w) ~= "number" or type(h) ~= "number" or extra ~= nil then
    argError("CGRectMake", "x, y, width, height", "nnnn", x, y, w, h, extra)
  end
  return setmetatable({ x = x, y = y, width = w, height = h }, Rect)
end)
define("UIEdgeInsetsMake", "fun(top: number, left: number, bottom: number, right: number): UIEdgeInsets",
  "Insets from each edge.", function(t, l, b, r, extra)
    if type(t) ~= "number" or type(l) ~= "number" or type(b) ~= "number" or type(r) ~= "number" or extra ~= nil then
      argError("UIEdgeInsetsMake", "top, left, bottom, right", "nnnn", t, l, b, r, extra)
    end
    return setmetatable({ top = t, left = l, bottom = b, right = r }, Insets)
  end)
define("CGRectGetMinX", "fun(r: CGRect): number", "The rect's smallest x.", function(r, extra) if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetMinX", "r", "R", r, extra) end return r.x end)
define("CGRectGetMidX", "fun(r: CGRect): number", "The rect's centre x.", function(r, extra) if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetMidX", "r", "R", r, extra) end return r.x + r.width / 2 end)
define("CGRectGetMaxX", "fun(r: CGRect): number", "The rect's largest x.", function(r, extra) if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetMaxX", "r", "R", r, extra) end return r.x + r.width end)
define("CGRectGetMinY", "fun(r: CGRect): number", "The rect's smallest y.", function(r, extra) if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetMinY", "r", "R", r, extra) end return r.y end)
define("CGRectGetMidY", "fun(r: CGRect): number", "The rect's centre y.", function(r, extra) if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetMidY", "r", "R", r, extra) end return r.y + r.height / 2 end)
define("CGRectGetMaxY", "fun(r: CGRect): number", "The rect's largest y.", function(r, extra) if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetMaxY", "r", "R", r, extra) end return r.y + r.height end)
define("CGRectGetWidth", "fun(r: CGRect): number", "The rect's width.", function(r, extra) if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetWidth", "r", "R", r, extra) end return r.width end)
define("CGRectGetHeight", "fun(r: CGRect): number", "The rect's height.", function(r, extra) if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetHeight", "r", "R", r, extra) end return r.height end)
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

-- MARK: CATransform3D -----------------------------------------------------------

local T3 = { __name = "CATransform3D" }
local T3methods = {}
T3.__index = T3methods

local function t3(a11, a12, a13, a14, a21, a22, a23, a24, a31, a32, a33, a34, a41, a42, a43, a44)
  return setmetatable({
    m11 = a11, m12 = a12, m13 = a13, m14 = a14, m21 = a21, m22 = a22, m23 = a23, m24 = a24,
    m31 = a31, m32 = a32, m33 = a33, m34 = a34, m41 = a41, m42 = a42, m43 = a43, m44 = a44,
  }, T3)
end

-- A constructor of constants: cheaper than t3(1, 0, …) (the hot path of every port of
-- `t = CATransform3DIdentity`).
local function identity3D()
  return setmetatable({ m11 = 1, m12 = 0, m13 = 0, m14 = 0, m21 = 0, m22 = 1, m23 = 0, m24 = 0,
                        m31 = 0, m32 = 0, m33 = 1, m34 = 0, m41 = 0, m42 = 0, m43 = 0, m44 = 1 }, T3)
end

-- a · b (points are row vectors: a applies first).
local function concat3D(a, b)
  local a11, a12, a13, a14, a21, a22, a23, a24 = a.m11, a.m12, a.m13, a.m14, a.m21, a.m22, a.m23, a.m24
  local a31, a32, a33, a34, a41, a42, a43, a44 = a.m31, a.m32, a.m33, a.m34, a.m41, a.m42, a.m43, a.m44
  local b11, b12, b13, b14, b21, b22, b23, b24 = b.m11, b.m12, b.m13, b.m14, b.m21, b.m22, b.m23, b.m24
  local b31, b32, b33, b34, b41, b42, b43, b44 = b.m31, b.m32, b.m33, b.m34, b.m41, b.m42, b.m43, b.m44
  return t3(
    a11 * b11 + a12 * b21 + a13 * b31 + a14 * b41, a11 * b12 + a12 * b22 + a13 * b32 + a14 * b42,
    a11 * b13 + a12 * b23 + a13 * b33 + a14 * b43, a11 * b14 + a12 * b24 + a13 * b34 + a14 * b44,
    a21 * b11 + a22 * b21 + a23 * b31 + a24 * b41, a21 * b12 + a22 * b22 + a23 * b32 + a24 * b42,
    a21 * b13 + a22 * b23 + a23 * b33 + a24 * b43, a21 * b14 + a22 * b24 + a23 * b34 + a24 * b44,
    a31 * b11 + a32 * b21 + a33 * b31 + a34 * b41, a31 * b12 + a32 * b22 + a33 * b32 + a34 * b42,
    a31 * b13 + a32 * b23 + a33 * b33 + a34 * b43, a31 * b14 + a32 * b24 + a33 * b34 + a34 * b44,
    a41 * b11 + a42 * b21 + a43 * b31 + a44 * b41, a41 * b12 + a42 * b22 + a43 * b32 + a44 * b42,
    a41 * b13 + a42 * b23 + a43 * b33 + a44 * b43, a41 * b14 + a42 * b24 + a43 * b34 + a44 * b44)
end

-- The rotation's upper 3×3 (Rodrigues, transposed for row vectors); nil for a zero axis,
-- which Core Animation treats as no rotation.
local function rotation3x3(angle, x, y, z)
  local len = sqrt(x * x + y * y + z * z)
  if not (len > 0) or len == huge then return nil end
  x, y, z = x / len, y / len, z / len
  local c, s = cos(angle), sin(angle)
  local k = 1 - c
  return c + x * x * k, x * y * k + z * s, x * z * k - y * s,
         x * y * k - z * s, c + y * y * k, y * z * k + x * s,
         x * z * k + y * s, y * z * k - x * s, c + z * z * k
end

local function makeRotation(angle, x, y, z, extra)
  if type(angle) ~= "number" or type(x) ~= "number" or type(y) ~= "number" or type(z) ~= "number" or extra ~= nil then
    argError("CATransform3DMakeRotation", "angle, x, y, z", "nnnn", angle, x, y, z, extra)
  end
  local r11, r12, r13, r21, r22, r23, r31, r32, r33 = rotation3x3(angle, x, y, z)
  if not r11 then return identity3D() end
  return t3(r11, r12, r13, 0, r21, r22, r23, 0, r31, r32, r33, 0, 0, 0, 0, 1)
end

-- rotation · t, without building the rotation matrix. rotation3x3 and t3 written out
-- (the same arithmetic, so the same bits): this is the hot path of the seeds. One
-- closure per name (CATransform3DRotate, t:rotate), so that messages say which.
local function rotator(fn, params)
return function(t, angle, x, y, z, extra)
  -- Only angle needs a type test up front: the principal-axis tests below prove x, y and
  -- z numbers, and the general path tests them.
  if type(t) ~= "table" or t.m11 == nil or type(angle) ~= "number" or extra ~= nil then
    argError(fn, params, "Tnnnn", t, angle, x, y, z, extra)
  end
  local a11, a12, a13, a14, a21, a22, a23, a24 = t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24
  local a31, a32, a33, a34 = t.m31, t.m32, t.m33, t.m34
  -- About a principal axis (carousels turn about y, flip about x, spin about z): the
  -- general products below without their terms that are zero, so the same values (up to
  -- the sign of a zero) in a third of the work.
  if x == 0 then
    if z == 0 and y == 1 then
      local c, s = cos(angle), sin(angle)
      local r = c + (1 - c)
      return setmetatable({
        m11 = c * a11 - s * a31, m12 = c * a12 - s * a32, m13 = c * a13 - s * a33, m14 = c * a14 - s * a34,
        m21 = r * a21, m22 = r * a22, m23 = r * a23, m24 = r * a24,
        m31 = s * a11 + c * a31, m32 = s * a12 + c * a32, m33 = s * a13 + c * a33, m34 = s * a14 + c * a34,
        m41 = t.m41, m42 = t.m42, m43 = t.m43, m44 = t.m44,
      }, T3)
    elseif y == 0 and z == 1 then
      local c, s = cos(angle), sin(angle)
      local r = c + (1 - c)
      return setmetatable({
        m11 = c * a11 + s * a21, m12 = c * a12 + s * a22, m13 = c * a13 + s * a23, m14 = c * a14 + s * a24,
        m21 = c * a21 - s * a11, m22 = c * a22 - s * a12, m23 = c * a23 - s * a13, m24 = c * a24 - s * a14,
        m31 = r * a31, m32 = r * a32, m33 = r * a33, m34 = r * a34,
        m41 = t.m41, m42 = t.m42, m43 = t.m43, m44 = t.m44,
      }, T3)
    end
  elseif x == 1 and y == 0 and z == 0 then
    local c, s = cos(angle), sin(angle)
    local r = c + (1 - c)
    return setmetatable({
      m11 = r * a11, m12 = r * a12, m13 = r * a13, m14 = r * a14,
      m21 = c * a21 + s * a31, m22 = c * a22 + s * a32, m23 = c * a23 + s * a33, m24 = c * a24 + s * a34,
      m31 = c * a31 - s * a21, m32 = c * a32 - s * a22, m33 = c * a33 - s * a23, m34 = c * a34 - s * a24,
      m41 = t.m41, m42 = t.m42, m43 = t.m43, m44 = t.m44,
    }, T3)
  end
  if type(x) ~= "number" or type(y) ~= "number" or type(z) ~= "number" then
    argError(fn, params, "Tnnnn", t, angle, x, y, z, extra)
  end
  local len = x * x + y * y + z * z
  if len ~= 1 then len = sqrt(len) end  -- a unit axis (the usual case) needs no root: √1 = 1
  if not (len > 0) or len == huge then return t3(a11, a12, a13, a14, a21, a22, a23, a24, a31, a32, a33, a34, t.m41, t.m42, t.m43, t.m44) end
  x, y, z = x / len, y / len, z / len
  local c, s = cos(angle), sin(angle)
  local k = 1 - c
  local r11, r12, r13 = c + x * x * k, x * y * k + z * s, x * z * k - y * s
  local r21, r22, r23 = x * y * k - z * s, c + y * y * k, y * z * k + x * s
  local r31, r32, r33 = x * z * k + y * s, y * z * k - x * s, c + z * z * k
  return setmetatable({
    m11 = r11 * a11 + r12 * a21 + r13 * a31, m12 = r11 * a12 + r12 * a22 + r13 * a32,
    m13 = r11 * a13 + r12 * a23 + r13 * a33, m14 = r11 * a14 + r12 * a24 + r13 * a34,
    m21 = r21 * a11 + r22 * a21 + r23 * a31, m22 = r21 * a12 + r22 * a22 + r23 * a32,
    m23 = r21 * a13 + r22 * a23 + r23 * a33, m24 = r21 * a14 + r22 * a24 + r23 * a34,
    m31 = r31 * a11 + r32 * a21 + r33 * a31, m32 = r31 * a12 + r32 * a22 + r33 * a32,
    m33 = r31 * a13 + r32 * a23 + r33 * a33, m34 = r31 * a14 + r32 * a24 + r33 * a34,
    m41 = t.m41, m42 = t.m42, m43 = t.m43, m44 = t.m44,
  }, T3)
end
end
local rotate3D = rotator("CATransform3DRotate", "t, angle, x, y, z")

-- scale · t
local function scaler(fn, params)
return function(t, sx, sy, sz, extra)
  if type(t) ~= "table" or t.m11 == nil or type(sx) ~= "number" or type(sy) ~= "number" or type(sz) ~= "number"
    or extra ~= nil then
    argError(fn, params, "Tnnn", t, sx, sy, sz, extra)
  end
  return t3(sx * t.m11, sx * t.m12, sx * t.m13, sx * t.m14,
            sy * t.m21, sy * t.m22, sy * t.m23, sy * t.m24,
            sz * t.m31, sz * t.m32, sz * t.m33, sz * t.m34,
            t.m41, t.m42, t.m43, t.m44)
end
end
local scale3D = scaler("CATransform3DScale", "t, sx, sy, sz")

-- translation · t
local function translator(fn, params)
return function(t, tx, ty, tz, extra)
  if type(t) ~= "table" or t.m11 == nil or type(tx) ~= "number" or type(ty) ~= "number" or type(tz) ~= "number"
    or extra ~= nil then
    argError(fn, params, "Tnnn", t, tx, ty, tz, extra)
  end
  return t3(t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34,
    tx * t.m11 + ty * t.m21 + tz * t.m31 + t.m41, tx * t.m12 + ty * t.m22 + tz * t.m32 + t.m42,
    tx * t.m13 + ty * t.m23 + tz * t.m33 + t.m43, tx * t.m14 + ty * t.m24 + tz * t.m34 + t.m44)
end
end
local translate3D = translator("CATransform3DTranslate", "t, tx, ty, tz")

-- The inverse by Gauss–Jordan elimination with partial pivoting; a singular matrix is
-- returned unchanged, as CATransform3DInvert does.
local keys3D = { "m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24", "m31", "m32", "m33", "m34", "m41", "m42", "m43", "m44" }
local function invert3D(t, extra, fn)
  if type(t) ~= "table" or t.m11 == nil or extra ~= nil then argError(fn or "CATransform3DInvert", "t", "T", t, extra) end
  local a, inv = {}, {}
  for r = 0, 3 do
    a[r] = {}; inv[r] = {}
    for c = 0, 3 do a[r][c] = t[keys3D[r * 4 + c + 1]]; inv[r][c] = (r == c) and 1 or 0 end
  end
  for c = 0, 3 do
    local pivot, best = c, abs(a[c][c])
    for r = c + 1, 3 do if abs(a[r][c]) > best then pivot, best = r, abs(a[r][c]) end end
    if best == 0 then return t3(t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44) end
    a[c], a[pivot] = a[pivot], a[c]; inv[c], inv[pivot] = inv[pivot], inv[c]
    local p = a[c][c]
    for k = 0, 3 do a[c][k] = a[c][k] / p; inv[c][k] = inv[c][k] / p end
    for r = 0, 3 do
      if r ~= c then
        local f = a[r][c]
        if f ~= 0 then for k = 0, 3 do a[r][k] = a[r][k] - f * a[c][k]; inv[r][k] = inv[r][k] - f * inv[c][k] end end
      end
    end
  end
  local m = inv
  return t3(m[0][0], m[0][1], m[0][2], m[0][3], m[1][0], m[1][1], m[1][2], m[1][3],
            m[2][0], m[2][1], m[2][2], m[2][3], m[3][0], m[3][1], m[3][2], m[3][3])
end

local function equal3D(a, b)
  for i = 1, 16 do if a[keys3D[i]] ~= b[keys3D[i]] then return false end end
  return true
end

T3.__eq = equal3D
T3.__tostring = function(t)
  local parts = {}
  for i = 1, 16 do parts[i] = tostring(t[keys3D[i]]) end
  return "CATransform3D(" .. concat(parts, ", ") .. ")"
end

class([[
---A 4×4 transform with Core Animation's conventions: points are row vectors (p' = p·M),
---translation in m41 m42 m43, perspective in m34 (−1/d puts the eye at distance d).
---Values are tables: CATransform3DIdentity is a fresh one each time you read it.
---@class CATransform3D
---@field m11 number
---@field m12 number
---@field m13 number
---@field m14 number
---@field m21 number
---@field m22 number
---@field m23 number
---@field m24 number
---@field m31 number
---@field m32 number
---@field m33 number
---@field m34 number
---@field m41 number
---@field m42 number
---@field m43 number
---@field m44 number
local CATransform3D = {}
---`CATransform3DRotate(self, angle, x, y, z)`: the rotation applies first.
---@param angle number radians
---@param x number
---@param y number
---@param z number
---@return CATransform3D
function CATransform3D:rotate(angle, x, y, z) end
---`CATransform3DScale(self, sx, sy, sz)`: the scale applies first.
---@param sx number
---@param sy number
---@param sz number
---@return CATransform3D
function CATransform3D:scale(sx, sy, sz) end
---`CATransform3DTranslate(self, tx, ty, tz)`: the translation applies first.
---@param tx number
---@param ty number
---@param tz number
---@return CATransform3D
function CATransform3D:translate(tx, ty, tz) end
---`CATransform3DConcat(self, other)`: self applies first.
---@param other CATransform3D
---@return CATransform3D
function CATransform3D:concat(other) end
---`CATransform3DInvert(self)`.
---@return CATransform3D
function CATransform3D:invert() end
---@return boolean
function CATransform3D:isIdentity() end]])

local function checkedConcat3D(fn, params)
  return function(a, b, extra)
    if type(a) ~= "table" or type(b) ~= "table" or a.m11 == nil or b.m11 == nil or extra ~= nil then
      argError(fn, params, "TT", a, b, extra)
    end
    return concat3D(a, b)
  end
end
T3methods.rotate = rotator("t:rotate", "self, angle, x, y, z")
T3methods.scale = scaler("t:scale", "self, sx, sy, sz")
T3methods.translate = translator("t:translate", "self, tx, ty, tz")
T3methods.concat = checkedConcat3D("t:concat", "self, other")
T3methods.invert = function(t, extra) return invert3D(t, extra, "t:invert") end
T3methods.isIdentity = function(t) return equal3D(t, identity3D()) end

api[#api + 1] = { name = "CATransform3DIdentity", signature = "CATransform3D",
  doc = "The identity transform: a fresh value each time it is read, so changing it changes nothing else." }
define("CATransform3DMakeTranslation", "fun(tx: number, ty: number, tz: number): CATransform3D", "A translation.",
  function(tx, ty, tz, extra)
    if type(tx) ~= "number" or type(ty) ~= "number" or type(tz) ~= "number" or extra ~= nil then
      argError("CATransform3DMakeTranslation", "tx, ty, tz", "nnn", tx, ty, tz, extra)
    end
    return t3(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, tx, ty, tz, 1)
  end)
define("CATransform3DMakeScale", "fun(sx: number, sy: number, sz: number): CATransform3D", "A scale.",
  function(sx, sy, sz, extra)
    if type(sx) ~= "number" or type(sy) ~= "number" or type(sz) ~= "number" or extra ~= nil then
      argError("CATransform3DMakeScale", "sx, sy, sz", "nnn", sx, sy, sz, extra)
    end
    return t3(sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, sz, 0, 0, 0, 0, 1)
  end)
define("CATransform3DMakeRotation", "fun(angle: number, x: number, y: number, z: number): CATransform3D",
  "A rotation by angle radians about the axis (x, y, z); a zero axis gives the identity.", makeRotation)
define("CATransform3DRotate", "fun(t: CATransform3D, angle: number, x: number, y: number, z: number): CATransform3D",
  "t with a rotation applied first (rotation · t).", rotate3D)
define("CATransform3DScale", "fun(t: CATransform3D, sx: number, sy: number, sz: number): CATransform3D",
  "t with a scale applied first (scale · t).", scale3D)
define("CATransform3DTranslate", "fun(t: CATransform3D, tx: number, ty: number, tz: number): CATransform3D",
  "t with a translation applied first (translation · t).", translate3D)
define("CATransform3DConcat", "fun(a: CATransform3D, b: CATransform3D): CATransform3D", "a · b: a applies first.",
  checkedConcat3D("CATransform3DConcat", "a, b"))
define("CATransform3DInvert", "fun(t: CATransform3D): CATransform3D", "The inverse; a singular t is returned unchanged.", invert3D)
define("CATransform3DIsIdentity", "fun(t: CATransform3D): boolean", "Whether t is the identity.",
  function(t, extra)
    if type(t) ~= "table" or t.m11 == nil or extra ~= nil then argError("CATransform3DIsIdentity", "t", "T", t, extra) end
    return equal3D(t, identity3D())
  end)
define("CATransform3DEqualToTransform", "fun(a: CATransform3D, b: CATransform3D): boolean", "Whether a and b are equal.",
  function(a, b, extra)
    if type(a) ~= "table" or type(b) ~= "table" or a.m11 == nil or b.m11 == nil or extra ~= nil then
      argError("CATransform3DEqualToTransform", "a, b", "TT", a, b, extra)
    end
    return equal3D(a, b)
  end)

-- MARK: CGAffineTransform ---------------------------------------------------------

local Affine = { __name = "CGAffineTransform" }
local AffineMethods = {}
Affine.__index = AffineMethods
local function affine(a, b, c, d, tx, ty)
  return setmetatable({ a = a, b = b, c = c, d = d, tx = tx, ty = ty }, Affine)
end
-- t1 · t2: t1 applies first.
local function concatAffine(t1, t2)
  return affine(t1.a * t2.a + t1.b * t2.c, t1.a * t2.b + t1.b * t2.d,
                t1.c * t2.a + t1.d * t2.c, t1.c * t2.b + t1.d * t2.d,
                t1.tx * t2.a + t1.ty * t2.c + t2.tx, t1.tx * t2.b + t1.ty * t2.d + t2.ty)
end
local function rotationAffine(angle) local c, s = cos(angle), sin(angle); return affine(c, s, -s, c, 0, 0) end
-- One closure per name (CGAffineTransformScale, t:scale), so that messages say which.
local function affineScaler(fn, params)
  return function(t, sx, sy, extra)
    if type(t) ~= "table" or t.a == nil or type(sx) ~= "number" or type(sy) ~= "number" or extra ~= nil then
      argError(fn, params, "Ann", t, sx, sy, extra)
    end
    return concatAffine(affine(sx, 0, 0, sy, 0, 0), t)
  end
end
local function affineRotator(fn, params)
  return function(t, angle, extra)
    if type(t) ~= "table" or t.a == nil or type(angle) ~= "number" or extra ~= nil then
      argError(fn, params, "An", t, angle, extra)
    end
    return concatAffine(rotationAffine(angle), t)
  end
end
local function affineTranslator(fn, params)
  return function(t, tx, ty, extra)
    if type(t) ~= "table" or t.a == nil or type(tx) ~= "number" or type(ty) ~= "number" or extra ~= nil then
      argError(fn, params, "Ann", t, tx, ty, extra)
    end
    return concatAffine(affine(1, 0, 0, 1, tx, ty), t)
  end
end
local function affineConcatenator(fn, params)
  return function(a, b, extra)
    if type(a) ~= "table" or type(b) ~= "table" or a.a == nil or b.a == nil or extra ~= nil then
      argError(fn, params, "AA", a, b, extra)
    end
    return concatAffine(a, b)
  end
end
local function invertAffine(t, extra, fn)
  if type(t) ~= "table" or t.a == nil or extra ~= nil then argError(fn or "CGAffineTransformInvert", "t", "A", t, extra) end
  local det = t.a * t.d - t.b * t.c
  if det == 0 then return affine(t.a, t.b, t.c, t.d, t.tx, t.ty) end
  return affine(t.d / det, -t.b / det, -t.c / det, t.a / det,
                (t.c * t.ty - t.d * t.tx) / det, (t.b * t.tx - t.a * t.ty) / det)
end
local function equalAffine(p, q)
  return p.a == q.a and p.b == q.b and p.c == q.c and p.d == q.d and p.tx == q.tx and p.ty == q.ty
end
Affine.__eq = equalAffine
Affine.__tostring = function(t)
  return "CGAffineTransform(" .. concat({ tostring(t.a), tostring(t.b), tostring(t.c), tostring(t.d), tostring(t.tx), tostring(t.ty) }, ", ") .. ")"
end
AffineMethods.scale = affineScaler("t:scale", "self, sx, sy")
AffineMethods.rotate = affineRotator("t:rotate", "self, angle")
AffineMethods.translate = affineTranslator("t:translate", "self, tx, ty")
AffineMethods.concat = affineConcatenator("t:concat", "self, other")
AffineMethods.invert = function(t, extra) return invertAffine(t, extra, "t:invert") end
AffineMethods.isIdentity = function(t) return equalAffine(t, affine(1, 0, 0, 1, 0, 0)) end

class([[
---A 2D affine transform (`CGAffineTransform(a, b, c, d, tx, ty)`): x' = a·x + c·y + tx,
---y' = b·x + d·y + ty. As a 3D transform: m11=a m12=b m21=c m22=d m41=tx m42=ty.
---@class CGAffineTransform
---@field a number
---@field b number
---@field c number
---@field d number
---@field tx number
---@field ty number
local CGAffineTransform = {}
---`CGAffineTransformScale(self, sx, sy)`: the scale applies first.
---@param sx number
---@param sy number
---@return CGAffineTransform
function CGAffineTransform:scale(sx, sy) end
---`CGAffineTransformRotate(self, angle)`: the rotation applies first.
---@param angle number radians
---@return CGAffineTransform
function CGAffineTransform:rotate(angle) end
---`CGAffineTransformTranslate(self, tx, ty)`: the translation applies first.
---@param tx number
---@param ty number
---@return CGAffineTransform
function CGAffineTransform:translate(tx, ty) end
---`CGAffineTransformConcat(self, other)`: self applies first.
---@param other CGAffineTransform
---@return CGAffineTransform
function CGAffineTransform:concat(other) end
---`CGAffineTransformInvert(self)`.
---@return CGAffineTransform
function CGAffineTransform:invert() end
---@return boolean
function CGAffineTransform:isIdentity() end]])

api[#api + 1] = { name = "CGAffineTransformIdentity", signature = "CGAffineTransform",
  doc = "The identity: a fresh value each time it is read." }
define("CGAffineTransformMake", "fun(a: number, b: number, c: number, d: number, tx: number, ty: number): CGAffineTransform",
  "An affine transform from its six numbers.", function(a, b, c, d, tx, ty, extra)
    if type(a) ~= "number" or type(b) ~= "number" or type(c) ~= "number" or type(d) ~= "number"
      or type(tx) ~= "number" or type(ty) ~= "number" or extra ~= nil then
      argError("CGAffineTransformMake", "a, b, c, d, tx, ty", "nnnnnn", a, b, c, d, tx, ty, extra)
    end
    return affine(a, b, c, d, tx, ty)
  end)
define("CGAffineTransformMakeScale", "fun(sx: number, sy: number): CGAffineTransform", "A scale.",
  function(sx, sy, extra)
    if type(sx) ~= "number" or type(sy) ~= "number" or extra ~= nil then
      argError("CGAffineTransformMakeScale", "sx, sy", "nn", sx, sy, extra)
    end
    return setmetatable({ a = sx, b = 0, c = 0, d = sy, tx = 0, ty = 0 }, Affine)
  end)
define("CGAffineTransformMakeRotation", "fun(angle: number): CGAffineTransform",
  "A rotation by angle radians (clockwise on screen for a positive angle).", function(angle, extra)
    if type(angle) ~= "number" or extra ~= nil then argError("CGAffineTransformMakeRotation", "angle", "n", angle, extra) end
    return rotationAffine(angle)
  end)
define("CGAffineTransformMakeTranslation", "fun(tx: number, ty: number): CGAffineTransform", "A translation.",
  function(tx, ty, extra)
    if type(tx) ~= "number" or type(ty) ~= "number" or extra ~= nil then
      argError("CGAffineTransformMakeTranslation", "tx, ty", "nn", tx, ty, extra)
    end
    return affine(1, 0, 0, 1, tx, ty)
  end)
define("CGAffineTransformScale", "fun(t: CGAffineTransform, sx: number, sy: number): CGAffineTransform", "t with a scale applied first.",
  affineScaler("CGAffineTransformScale", "t, sx, sy"))
define("CGAffineTransformRotate", "fun(t: CGAffineTransform, angle: number): CGAffineTransform", "t with a rotation applied first.",
  affineRotator("CGAffineTransformRotate", "t, angle"))
define("CGAffineTransformTranslate", "fun(t: CGAffineTransform, tx: number, ty: number): CGAffineTransform", "t with a translation applied first.",
  affineTranslator("CGAffineTransformTranslate", "t, tx, ty"))
define("CGAffineTransformConcat", "fun(t1: CGAffineTransform, t2: CGAffineTransform): CGAffineTransform", "t1 · t2: t1 applies first.",
  affineConcatenator("CGAffineTransformConcat", "t1, t2"))
define("CGAffineTransformInvert", "fun(t: CGAffineTransform): CGAffineTransform", "The inverse; a singular t is returned unchanged.", invertAffine)
define("CGAffineTransformIsIdentity", "fun(t: CGAffineTransform): boolean", "Whether t is the identity.",
  function(t, extra)
    if type(t) ~= "table" or t.a == nil or extra ~= nil then argError("CGAffineTransformIsIdentity", "t", "A", t, extra) end
    return equalAffine(t, affine(1, 0, 0, 1, 0, 0))
  end)
define("CGAffineTransformEqualToTransform", "fun(a: CGAffineTransform, b: CGAffineTransform): boolean", "Whether a and b are equal.",
  function(a, b, extra)
    if type(a) ~= "table" or type(b) ~= "table" or a.a == nil or b.a == nil or extra ~= nil then
      argError("CGAffineTransformEqualToTransform", "a, b", "AA", a, b, extra)
    end
    return equalAffine(a, b)
  end)
define("CGPointApplyAffineTransform", "fun(p: CGPoint, t: CGAffineTransform): CGPoint", "The point transformed.",
  function(p, t, extra)
    if type(p) ~= "table" or type(t) ~= "table" or p.x == nil or t.a == nil or extra ~= nil then
      argError("CGPointApplyAffineTransform", "p, t", "PA", p, t, extra)
    end
    return point(t.a * p.x + t.c * p.y + t.tx, t.b * p.x + t.d * p.y + t.ty)
  end)
define("CATransform3DMakeAffineTransform", "fun(t: CGAffineTransform): CATransform3D", "The affine transform as a 3D one.",
  function(t, extra)
    if type(t) ~= "table" or t.a == nil or extra ~= nil then argError("CATransform3DMakeAffineTransform", "t", "A", t, extra) end
    return t3(t.a, t.b, 0, 0, t.c, t.d, 0, 0, 0, 0, 1, 0, t.tx, t.ty, 0, 1) end)
define("CATransform3DGetAffineTransform", "fun(t: CATransform3D): CGAffineTransform", "The affine part of a 3D transform.",
  function(t, extra)
    if type(t) ~= "table" or t.m11 == nil or extra ~= nil then argError("CATransform3DGetAffineTransform", "t", "T", t, extra) end
    return affine(t.m11, t.m12, t.m21, t.m22, t.m41, t.m42) end)
define("CATransform3DIsAffine", "fun(t: CATransform3D): boolean", "Whether t has no 3D part.",
  function(t, extra)
    if type(t) ~= "table" or t.m11 == nil or extra ~= nil then argError("CATransform3DIsAffine", "t", "T", t, extra) end
    return t.m13 == 0 and t.m14 == 0 and t.m23 == 0 and t.m24 == 0 and t.m31 == 0 and t.m32 == 0
      and t.m33 == 1 and t.m34 == 0 and t.m43 == 0 and t.m44 == 1
  end)

-- The identities read fresh every time: `t = CATransform3DIdentity; t.m34 = …` must
-- never change the identity (docs/script-api.md). Only absent globals reach this.
setmetatable(G, { __index = function(_, k)
  if k == "CATransform3DIdentity" then  -- identity3D(), written out: the seeds' hot path
    return setmetatable({ m11 = 1, m12 = 0, m13 = 0, m14 = 0, m21 = 0, m22 = 1, m23 = 0, m24 = 0,
                          m31 = 0, m32 = 0, m33 = 1, m34 = 0, m41 = 0, m42 = 0, m43 = 0, m44 = 1 }, T3)
  elseif k == "CGAffineTransformIdentity" then return affine(1, 0, 0, 1, 0, 0)
  elseif k == "CGRectZero" then return rect(0, 0, 0, 0)
  elseif k == "CGPointZero" then return point(0, 0)
  elseif k == "CGSizeZero" then return size(0, 0)
  end
end })
api[#api + 1] = { name = "CGRectZero", signature = "CGRect", doc = "A fresh zero rect." }
api[#api + 1] = { name = "CGPointZero", signature = "CGPoint", doc = "A fresh zero point." }
api[#api + 1] = { name = "CGSizeZero", signature = "CGSize", doc = "A fresh zero size." }

-- MARK: The layout a script sees ---------------------------------------------------

local LayoutMT = { __name = "UICollectionViewFlowLayout" }
local LayoutMethods = {}
LayoutMT.__index = LayoutMethods

local BaseAttributes = { __name = "UICollectionViewLayoutAttributes" }
local direction = "vertical"

-- layout:layoutAttributesForElements(rect): the base, untransformed attributes that
-- meet rect (what `super` returns in the seeds), ordered by section then item.
function LayoutMethods.layoutAttributesForElements(_, r)
  local x, y, w, h = checkRect(r, "layoutAttributesForElements")
  if not (isnumber(x) and isnumber(y) and isnumber(w) and isnumber(h)) then
    error("layoutAttributesForElements: the rect needs finite x, y, width and height", 2)
  end
  local flat = native.query(x, y, w, h)
  local out = {}
  for i = 0, #flat // 6 - 1 do
    local s, it, cx, cy, iw, ih = flat[i * 6 + 1], flat[i * 6 + 2], flat[i * 6 + 3], flat[i * 6 + 4], flat[i * 6 + 5], flat[i * 6 + 6]
    s, it = floor(s), floor(it)
    out[i + 1] = setmetatable({
      indexPath = setmetatable({ section = s, item = it, row = it }, IndexPathMT),
      center = point(cx, cy), size = size(iw, ih), frame = rect(cx - iw / 2, cy - ih / 2, iw, ih),
      alpha = 1, zIndex = 0, hidden = false, transform3D = identity3D(),
    }, BaseAttributes)
  end
  return out
end
LayoutMethods.layoutAttributesForElementsInRect = LayoutMethods.layoutAttributesForElements

-- layout:targetContentOffset(proposed, velocity): super's answer, the proposal itself.
function LayoutMethods.targetContentOffset(_, proposed)
  if type(proposed) ~= "table" then error("targetContentOffset: expected a CGPoint", 2) end
  return point(proposed.x, proposed.y)
end
LayoutMethods.targetContentOffsetForProposedContentOffset = LayoutMethods.targetContentOffset
function LayoutMethods.invalidateLayout() end

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
function I.setState(ox, oy, vw, vh, cw, ch, time, tracking, dragging, decelerating)
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
  local ls = nonNegative(l.minimumLineSpacing, "layout.minimumLineSpacing")
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
  return { dir == "horizontal" and 1 or 0, iw, ih, top, left, bottom, right, ls, is, hw, hh, fw, fh, rate, paging and 1 or 0, 0 }
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
---@field isPagingEnabled? boolean may be set in prepare]])
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

-- MARK: Scenarios ------------------------------------------------------------------

local STEP_KINDS = { "jump", "drag", "fling", "wait", "scrollToItem", "resize" }
local STEP_CODE = { jump = 1, drag = 2, fling = 3, wait = 4, scrollToItem = 5, resize = 6 }
local NOT_SET = 0 / 0
-- Scenario.maxItems and Scenario.maxSteps on the Swift side: counts are checked here,
-- before the host converts them, and read by their entries (never by a __len).
local MAX_ITEMS, MAX_STEPS = 1000000, 10000

local function viewportOf(v, where)
  if v == nil then return NOT_SET, NOT_SET end
  local w, h
  if type(v) == "string" then
    local a, b = smatch(v, "^%s*(%d+%.?%d*)%s*[xX]%s*(%d+%.?%d*)%s*$")
    w, h = tonumber(a), tonumber(b)
  elseif type(v) == "table" then
    w, h = v.width or v[1], v.height or v[2]
  end
  if not isnumber(w) or not isnumber(h) or w <= 0 or h <= 0 then
    fail(where .. "viewport must be \"WxH\" or { width = …, height = … } with positive sizes (got " .. tostring(v) .. ")")
  end
  return w, h
end

local function names(t)
  local out = {}
  for k in pairs(t) do if type(k) == "string" then out[#out + 1] = k end end
  sort(out)
  return out
end

function I.scenarioNames()
  local s = rawget(G, "scenarios")
  if type(s) ~= "table" then return "" end
  return concat(names(s), "\n")
end

-- A scenario as numbers: viewport w, h, items, fps, step count, then per step a kind
-- code and three numbers. NaN means "not set here".
function I.scenario(name)
  local all = rawget(G, "scenarios")
  if type(all) ~= "table" then fail("scenario '" .. name .. "': the script defines no scenarios table") end
  local s = all[name]
  if s == nil then
    local known = names(all)
    fail("unknown scenario '" .. name .. "'" .. (#known > 0 and (" (the script defines: " .. concat(known, ", ") .. ")") or ""))
  end
  local where = "scenario '" .. name .. "': "
  if type(s) ~= "table" then fail(where .. "expected a table, got a " .. type(s)) end
  local out = {}
  out[1], out[2] = viewportOf(s.viewport, where)
  local items = s.items
  if items ~= nil and (not isnumber(items) or items < 0 or items ~= floor(items) or items > MAX_ITEMS) then
    fail(where .. "items must be a whole number from 0 to " .. MAX_ITEMS .. " (got " .. tostring(items) .. ")")
  end
  out[3] = items or NOT_SET
  local fps = s.fps
  if fps ~= nil and (not isnumber(fps) or fps <= 0) then fail(where .. "fps must be a positive number (got " .. tostring(fps) .. ")") end
  out[4] = fps or NOT_SET
  local steps = s.steps
  if type(steps) ~= "table" then fail(where .. "steps must be a list of steps") end
  local count = 0
  for i, step in ipairs(steps) do
    if i > MAX_STEPS then fail(where .. "steps: more than " .. MAX_STEPS .. " steps") end
    count = i
    local at = where .. "step " .. i .. ": "
    if type(step) ~= "table" then fail(at .. "expected a table like { fling = 2 }, got a " .. type(step)) end
    local kind
    for k in pairs(step) do
      if STEP_CODE[k] then
        if kind then fail(at .. "has both " .. kind .. " and " .. k .. "; one step does one thing") end
        kind = k
      elseif k ~= "duration" and k ~= "section" then
        fail(at .. "unknown key '" .. tostring(k) .. "' (a step is one of " .. concat(STEP_KINDS, ", ") .. ", with an optional duration)")
      end
    end
    if not kind then fail(at .. "names no step (expected one of " .. concat(STEP_KINDS, ", ") .. ")") end
    local v, duration = step[kind], step.duration
    if duration ~= nil and (not isnumber(duration) or duration < 0) then
      fail(at .. "duration must be zero or more seconds (got " .. tostring(duration) .. ")")
    end
    local a, b, c = NOT_SET, NOT_SET, duration or NOT_SET
    if kind == "resize" then
      a, b = viewportOf(v, at .. "resize: ")
    elseif kind == "scrollToItem" then
      if not isnumber(v) or v < 0 or v ~= floor(v) or v > MAX_ITEMS then fail(at .. "scrollToItem must be an item number (got " .. tostring(v) .. ")") end
      local section = step.section
      if section ~= nil and (not isnumber(section) or section < 0 or section ~= floor(section) or section > MAX_ITEMS) then
        fail(at .. "section must be a section number, 0 or more (got " .. tostring(section) .. ")")
      end
      a, b = v, section or 0
    else
      if not isnumber(v) then fail(at .. kind .. " must be a finite number (got " .. tostring(v) .. ")") end
      if kind == "wait" and v < 0 then fail(at .. "wait must be zero or more seconds (got " .. tostring(v) .. ")") end
      a = v
    end
    local base = 5 + (i - 1) * 4
    out[base + 1], out[base + 2], out[base + 3], out[base + 4] = STEP_CODE[kind], a, b, c
  end
  out[5] = count
  return out
end

-- MARK: Types (LuaCATS) ---------------------------------------------------------------

-- "fun(x: number, y: number): CGPoint" → { {name = "x", type = "number"}, … }, "CGPoint";
-- nil for a signature that is not a function type. Commas inside nested types ({…}, (…),
-- <…>) do not split parameters.
local function signatureParts(signature)
  if signature:sub(1, 4) ~= "fun(" then return nil end
  local depth, close = 0, nil
  for i = 4, #signature do
    local c = signature:sub(i, i)
    if c == "(" or c == "{" or c == "<" then depth = depth + 1
    elseif c == ")" or c == "}" or c == ">" then
      depth = depth - 1
      if depth == 0 then close = i; break end
    end
  end
  if not close then return nil end
  local body, params, start = signature:sub(5, close - 1), {}, 1
  depth = 0
  for i = 1, #body + 1 do
    local c = body:sub(i, i)
    if c == "(" or c == "{" or c == "<" then depth = depth + 1
    elseif c == ")" or c == "}" or c == ">" then depth = depth - 1
    elseif (c == "," and depth == 0) or i == #body + 1 then
      local name, t = smatch(body:sub(start, i - 1), "^%s*([%w_]+)%s*:%s*(.-)%s*$")
      if name then params[#params + 1] = { name = name, type = t } end
      start = i + 1
    end
  end
  local returns = smatch(signature:sub(close + 1), "^%s*:%s*(.-)%s*$")
  return params, returns
end

function I.types()
  local out = {
    "---@meta cardlua",
    "-- The cardlua script API (contract v1), generated by `cardlua types` from the prelude.",
    "-- Point the Lua language server here (see .luarc.json) for completion and checks.",
    "",
  }
  for _, c in ipairs(classes) do out[#out + 1] = c; out[#out + 1] = "" end
  for _, e in ipairs(api) do
    out[#out + 1] = "---" .. e.doc
    local params, returns = signatureParts(e.signature)
    if params then
      -- A function: a definition with @param/@return, as the language server expects of
      -- functions (hover and signature help show the parameter names).
      local names = {}
      for i, p in ipairs(params) do
        out[#out + 1] = "---@param " .. p.name .. " " .. p.type
        names[i] = p.name
      end
      if returns then out[#out + 1] = "---@return " .. returns end
      out[#out + 1] = "function " .. e.name .. "(" .. concat(names, ", ") .. ") end"
    else
      out[#out + 1] = "---@type " .. e.signature
      out[#out + 1] = e.name .. " = nil"
    end
    out[#out + 1] = ""
  end
  out[#out + 1] = [[
---Called on first layout and whenever the viewport size changes (`prepare()`): set the
---flow properties here.
---@type fun(layout: UICollectionViewFlowLayout)
prepare = nil

---Called once per visible item, every frame: adjust `attributes` and/or return a number
---(a uniform scale), a CATransform3D or a CGAffineTransform.
---@type fun(attributes: UICollectionViewLayoutAttributes, layout: UICollectionViewFlowLayout): (number|CATransform3D|CGAffineTransform)?
transform = nil

---Called once when a drag ends: where the content comes to rest. Velocity is in points
---per millisecond. Return a point, or a number on the scroll axis.
---@type fun(proposedContentOffset: CGPoint, velocity: CGPoint, layout: UICollectionViewFlowLayout): CGPoint|number
targetContentOffset = nil

---@class cardlua.ScenarioStep
---@field jump? number move to this content offset at once
---@field drag? number move the content by this many points with a finger
---@field fling? number release with this velocity (points per millisecond)
---@field wait? number seconds at rest
---@field scrollToItem? integer centre this item, animated
---@field section? integer the item's section (scrollToItem)
---@field resize? string|CGSize a new viewport ("320x568"); prepare runs again
---@field duration? number seconds (drag, scrollToItem)

---@class cardlua.Scenario
---@field viewport? string|CGSize like "414x736"
---@field items? integer items in section 0
---@field fps? number frames per second
---@field steps cardlua.ScenarioStep[]

---Named scenarios, run with `cardlua run SCRIPT --scenario NAME`.
---@type table<string, cardlua.Scenario>?
scenarios = nil
]]
  return concat(out, "\n")
end

-- The names a script may set as globals or fields; `cardlua check` uses these.
I.api = api

-- MARK: Check (`cardlua check`) ------------------------------------------------------

local next = next

-- Every global that exists before the script runs; the rest the script set.
local baseline = {}
for k in next, G do baseline[k] = true end

-- Keys written on `attributes` that the contract does not know (the shim reports them in
-- check mode after each item), each with the first item it was seen on, in order.
local attributeNotes, attributeOrder = {}, {}
function I.noteAttributeKey(key, item)
  key = tostring(key)
  if attributeNotes[key] == nil then
    attributeNotes[key] = item
    attributeOrder[#attributeOrder + 1] = key
  end
end

-- "key<TAB>item" lines for the keys noted so far.
function I.attributeNotes()
  local out = {}
  for i, k in ipairs(attributeOrder) do out[i] = k .. "\t" .. tostring(attributeNotes[k]) end
  return concat(out, "\n")
end

local LAYOUT_KEYS = {
  scrollDirection = true, itemSize = true, sectionInset = true, minimumLineSpacing = true,
  minimumInteritemSpacing = true, headerReferenceSize = true, footerReferenceSize = true,
  decelerationRate = true, isPagingEnabled = true, time = true,
  collectionView = true, collectionViewContentSize = true,
}
local COLLECTION_VIEW_KEYS = {
  bounds = true, frame = true, contentOffset = true, contentSize = true, isTracking = true,
  isDragging = true, isDecelerating = true, decelerationRate = true, isPagingEnabled = true,
}

-- The keys on the layout (and its collectionView) the contract does not know, one per
-- line as written: "layout.itemsize", "layout.collectionView.pagingEnabled".
function I.layoutNotes()
  local out = {}
  for k in next, layout do
    if not LAYOUT_KEYS[k] then out[#out + 1] = "layout." .. tostring(k) end
  end
  local cv = rawget(layout, "collectionView")
  if type(cv) == "table" then
    for k in next, cv do
      if not COLLECTION_VIEW_KEYS[k] then out[#out + 1] = "layout.collectionView." .. tostring(k) end
    end
  end
  sort(out)
  return concat(out, "\n")
end

-- "name<TAB>type" lines for the globals the script set (sorted).
function I.userGlobals()
  local out = {}
  for k, v in next, G do
    if not baseline[k] and type(k) == "string" then out[#out + 1] = k .. "\t" .. type(v) end
  end
  sort(out)
  return concat(out, "\n")
end

return I
"""#
