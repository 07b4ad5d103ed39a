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
---Values (userdata in cardlua): CATransform3DIdentity is a fresh one each time you read it.
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

