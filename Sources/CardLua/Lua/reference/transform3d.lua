-- The Lua reference of the script API's C functions (Sources/CLuaShims/transform_math.c,
-- geometry_native.c): the same values (the same operations in the same order, so the
-- same bits and integer or float subtypes) and the same argument messages, written
-- plainly. cardlua never loads it: TransformMathTests compares the C functions with it,
-- and `cardlua bench --stock` runs it in the stock interpreter, which has no C. The files
-- of this folder are one chunk (embed.list, referenceSource) that returns the two
-- installers, taking and giving what the C ones do: transformMath(Point, argError,
-- globalsIndex), geometryMakers(Point, Size, Rect, Insets, argError), elementMakers(…)
-- and elementNewindex. Each result lists the API's rows ({ name, params, kinds }) in its
-- array part, as C's lists them. The chunk's argument gives the host's query(x, y, w, h)
-- and item(section, item) (the stock interpreter's stand-ins).
local host = ...
local type, setmetatable, tostring, pairs, error, rawset = type, setmetatable, tostring, pairs, error, rawset
local sqrt, cos, sin, abs, huge, floor, tointeger = math.sqrt, math.cos, math.sin, math.abs, math.huge, math.floor, math.tointeger
local concat = table.concat

local argError, Point  -- the prelude's, given to the installers
local transforms = {}  -- what transformMath returns: the functions by name, the rows in order

-- A function of the API (a row, and its value by name) or of the prelude ("T3:rotate": a
-- method; "t3": a constructor).
local function api(name, params, kinds, f)
  transforms[#transforms + 1] = { name = name, params = params, kinds = kinds }
  transforms[name] = f
end

-- MARK: CATransform3D -----------------------------------------------------------

local T3 = { __name = "CATransform3D" }
local T3methods = {}
T3.__index = T3methods
local K3 = { "m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24", "m31", "m32", "m33", "m34", "m41", "m42", "m43", "m44" }

local function t3(a11, a12, a13, a14, a21, a22, a23, a24, a31, a32, a33, a34, a41, a42, a43, a44)
  return setmetatable({
    m11 = a11, m12 = a12, m13 = a13, m14 = a14, m21 = a21, m22 = a22, m23 = a23, m24 = a24,
    m31 = a31, m32 = a32, m33 = a33, m34 = a34, m41 = a41, m42 = a42, m43 = a43, m44 = a44,
  }, T3)
end
local function identity3D() return t3(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1) end

-- a · b (points are row vectors: a applies first).
local function concat3D(a, b)
  local m = {}
  for i = 0, 3 do
    for j = 1, 4 do
      m[i * 4 + j] = a[K3[i * 4 + 1]] * b[K3[j]] + a[K3[i * 4 + 2]] * b[K3[4 + j]]
        + a[K3[i * 4 + 3]] * b[K3[8 + j]] + a[K3[i * 4 + 4]] * b[K3[12 + j]]
    end
  end
  return t3(m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11], m[12], m[13], m[14], m[15], m[16])
end

-- The rotation's upper 3×3 (Rodrigues, transposed for row vectors), row by row; nil for a
-- zero or infinite axis, which Core Animation treats as no rotation.
local function rotation3x3(angle, x, y, z)
  local len = sqrt(x * x + y * y + z * z)
  if not (len > 0) or len == huge then return nil end
  x, y, z = x / len, y / len, z / len
  local c, s = cos(angle), sin(angle)
  local k = 1 - c
  return { c + x * x * k, x * y * k + z * s, x * z * k - y * s,
           x * y * k - z * s, c + y * y * k, y * z * k + x * s,
           x * z * k + y * s, y * z * k - x * s, c + z * z * k }
end

-- About a principal axis, rows i and j of the plane turn into each other and row k stays
-- (times c + (1 − c)): the product with the rotation's zero terms left out, so that a
-- field of t that is infinite or NaN spoils no other (0 · ∞). The planes of y, z and x.
local PLANES = { y = { 3, 1, 2 }, z = { 1, 2, 3 }, x = { 2, 3, 1 } }
local function principalAxis(x, y, z)
  if x == 0 and y == 1 and z == 0 then return PLANES.y end
  if x == 0 and y == 0 and z == 1 then return PLANES.z end
  if x == 1 and y == 0 and z == 0 then return PLANES.x end
  return nil
end

-- rotation · t. One function per name (CATransform3DRotate, t:rotate), so that messages say which.
local function rotator(fn, params)
  return function(t, angle, x, y, z, extra)
    if type(t) ~= "table" or t.m11 == nil or type(angle) ~= "number" or extra ~= nil then
      argError(fn, params, "Tnnnn", t, angle, x, y, z, extra)
    end
    local a = {}
    for k = 1, 12 do a[k] = t[K3[k]] end  -- rows 1–3 first; m41…m44 after the arithmetic
    if type(x) ~= "number" or type(y) ~= "number" or type(z) ~= "number" then
      argError(fn, params, "Tnnnn", t, angle, x, y, z, extra)
    end
    local m, plane = {}, principalAxis(x, y, z)
    if plane then
      local i, j, k = (plane[1] - 1) * 4, (plane[2] - 1) * 4, (plane[3] - 1) * 4
      local c, s = cos(angle), sin(angle)
      local r = c + (1 - c)
      for col = 1, 4 do
        m[i + col] = c * a[i + col] + s * a[j + col]
        m[j + col] = c * a[j + col] - s * a[i + col]
        m[k + col] = r * a[k + col]
      end
    else
      local r = rotation3x3(angle, x, y, z)
      if r == nil then m = a  -- no rotation: a copy
      else
        for row = 0, 2 do
          for col = 1, 4 do
            m[row * 4 + col] = r[row * 3 + 1] * a[col] + r[row * 3 + 2] * a[4 + col] + r[row * 3 + 3] * a[8 + col]
          end
        end
      end
    end
    return t3(m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11], m[12], t.m41, t.m42, t.m43, t.m44)
  end
end

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

local function concatenator(fn, params)
  return function(a, b, extra)
    if type(a) ~= "table" or type(b) ~= "table" or a.m11 == nil or b.m11 == nil or extra ~= nil then
      argError(fn, params, "TT", a, b, extra)
    end
    return concat3D(a, b)
  end
end

-- The inverse by Gauss–Jordan elimination with partial pivoting; a singular matrix is
-- returned unchanged, as CATransform3DInvert does.
local function inverter(fn)
  return function(t, extra)
    if type(t) ~= "table" or t.m11 == nil or extra ~= nil then argError(fn, "t", "T", t, extra) end
    local a, inv = {}, {}
    for r = 0, 3 do
      a[r] = {}; inv[r] = {}
      for c = 0, 3 do a[r][c] = t[K3[r * 4 + c + 1]]; inv[r][c] = (r == c) and 1 or 0 end
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
end

local function equal3D(a, b)
  for i = 1, 16 do if a[K3[i]] ~= b[K3[i]] then return false end end
  return true
end

T3.__eq = equal3D
T3.__tostring = function(t)
  local parts = {}
  for i = 1, 16 do parts[i] = tostring(t[K3[i]]) end
  return "CATransform3D(" .. concat(parts, ", ") .. ")"
end
T3methods.rotate = rotator("t:rotate", "self, angle, x, y, z")
T3methods.scale = scaler("t:scale", "self, sx, sy, sz")
T3methods.translate = translator("t:translate", "self, tx, ty, tz")
T3methods.concat = concatenator("t:concat", "self, other")
T3methods.invert = inverter("t:invert")
T3methods.isIdentity = function(t) return equal3D(t, identity3D()) end

api("CATransform3DIdentity", nil, nil, nil)  -- a value: globalsIndex below
api("CATransform3DMakeTranslation", "tx, ty, tz", "nnn", function(tx, ty, tz, extra)
  if type(tx) ~= "number" or type(ty) ~= "number" or type(tz) ~= "number" or extra ~= nil then
    argError("CATransform3DMakeTranslation", "tx, ty, tz", "nnn", tx, ty, tz, extra)
  end
  return t3(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, tx, ty, tz, 1)
end)
api("CATransform3DMakeScale", "sx, sy, sz", "nnn", function(sx, sy, sz, extra)
  if type(sx) ~= "number" or type(sy) ~= "number" or type(sz) ~= "number" or extra ~= nil then
    argError("CATransform3DMakeScale", "sx, sy, sz", "nnn", sx, sy, sz, extra)
  end
  return t3(sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, sz, 0, 0, 0, 0, 1)
end)
api("CATransform3DMakeRotation", "angle, x, y, z", "nnnn", function(angle, x, y, z, extra)
  if type(angle) ~= "number" or type(x) ~= "number" or type(y) ~= "number" or type(z) ~= "number" or extra ~= nil then
    argError("CATransform3DMakeRotation", "angle, x, y, z", "nnnn", angle, x, y, z, extra)
  end
  local r = rotation3x3(angle, x, y, z)
  if not r then return identity3D() end
  return t3(r[1], r[2], r[3], 0, r[4], r[5], r[6], 0, r[7], r[8], r[9], 0, 0, 0, 0, 1)
end)
api("CATransform3DRotate", "t, angle, x, y, z", "Tnnnn", rotator("CATransform3DRotate", "t, angle, x, y, z"))
api("CATransform3DScale", "t, sx, sy, sz", "Tnnn", scaler("CATransform3DScale", "t, sx, sy, sz"))
api("CATransform3DTranslate", "t, tx, ty, tz", "Tnnn", translator("CATransform3DTranslate", "t, tx, ty, tz"))
api("CATransform3DConcat", "a, b", "TT", concatenator("CATransform3DConcat", "a, b"))
api("CATransform3DInvert", "t", "T", inverter("CATransform3DInvert"))
api("CATransform3DIsIdentity", "t", "T", function(t, extra)
  if type(t) ~= "table" or t.m11 == nil or extra ~= nil then argError("CATransform3DIsIdentity", "t", "T", t, extra) end
  return equal3D(t, identity3D())
end)
api("CATransform3DEqualToTransform", "a, b", "TT", function(a, b, extra)
  if type(a) ~= "table" or type(b) ~= "table" or a.m11 == nil or b.m11 == nil or extra ~= nil then
    argError("CATransform3DEqualToTransform", "a, b", "TT", a, b, extra)
  end
  return equal3D(a, b)
end)
