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
-- One function per name (CGAffineTransformScale, t:scale), so that messages say which.
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
local function affineInverter(fn)
  return function(t, extra)
    if type(t) ~= "table" or t.a == nil or extra ~= nil then argError(fn, "t", "A", t, extra) end
    local det = t.a * t.d - t.b * t.c
    if det == 0 then return affine(t.a, t.b, t.c, t.d, t.tx, t.ty) end
    return affine(t.d / det, -t.b / det, -t.c / det, t.a / det,
                  (t.c * t.ty - t.d * t.tx) / det, (t.b * t.tx - t.a * t.ty) / det)
  end
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
AffineMethods.invert = affineInverter("t:invert")
AffineMethods.isIdentity = function(t) return equalAffine(t, affine(1, 0, 0, 1, 0, 0)) end

api("CGAffineTransformIdentity", nil, nil, nil)  -- a value: globalsIndex below
api("CGAffineTransformMake", "a, b, c, d, tx, ty", "nnnnnn", function(a, b, c, d, tx, ty, extra)
  if type(a) ~= "number" or type(b) ~= "number" or type(c) ~= "number" or type(d) ~= "number"
    or type(tx) ~= "number" or type(ty) ~= "number" or extra ~= nil then
    argError("CGAffineTransformMake", "a, b, c, d, tx, ty", "nnnnnn", a, b, c, d, tx, ty, extra)
  end
  return affine(a, b, c, d, tx, ty)
end)
api("CGAffineTransformMakeScale", "sx, sy", "nn", function(sx, sy, extra)
  if type(sx) ~= "number" or type(sy) ~= "number" or extra ~= nil then
    argError("CGAffineTransformMakeScale", "sx, sy", "nn", sx, sy, extra)
  end
  return affine(sx, 0, 0, sy, 0, 0)
end)
api("CGAffineTransformMakeRotation", "angle", "n", function(angle, extra)
  if type(angle) ~= "number" or extra ~= nil then argError("CGAffineTransformMakeRotation", "angle", "n", angle, extra) end
  return rotationAffine(angle)
end)
api("CGAffineTransformMakeTranslation", "tx, ty", "nn", function(tx, ty, extra)
  if type(tx) ~= "number" or type(ty) ~= "number" or extra ~= nil then
    argError("CGAffineTransformMakeTranslation", "tx, ty", "nn", tx, ty, extra)
  end
  return affine(1, 0, 0, 1, tx, ty)
end)
api("CGAffineTransformScale", "t, sx, sy", "Ann", affineScaler("CGAffineTransformScale", "t, sx, sy"))
api("CGAffineTransformRotate", "t, angle", "An", affineRotator("CGAffineTransformRotate", "t, angle"))
api("CGAffineTransformTranslate", "t, tx, ty", "Ann", affineTranslator("CGAffineTransformTranslate", "t, tx, ty"))
api("CGAffineTransformConcat", "t1, t2", "AA", affineConcatenator("CGAffineTransformConcat", "t1, t2"))
api("CGAffineTransformInvert", "t", "A", affineInverter("CGAffineTransformInvert"))
api("CGAffineTransformIsIdentity", "t", "A", function(t, extra)
  if type(t) ~= "table" or t.a == nil or extra ~= nil then argError("CGAffineTransformIsIdentity", "t", "A", t, extra) end
  return equalAffine(t, affine(1, 0, 0, 1, 0, 0))
end)
api("CGAffineTransformEqualToTransform", "a, b", "AA", function(a, b, extra)
  if type(a) ~= "table" or type(b) ~= "table" or a.a == nil or b.a == nil or extra ~= nil then
    argError("CGAffineTransformEqualToTransform", "a, b", "AA", a, b, extra)
  end
  return equalAffine(a, b)
end)
api("CGPointApplyAffineTransform", "p, t", "PA", function(p, t, extra)
  if type(p) ~= "table" or type(t) ~= "table" or p.x == nil or t.a == nil or extra ~= nil then
    argError("CGPointApplyAffineTransform", "p, t", "PA", p, t, extra)
  end
  return setmetatable({ x = t.a * p.x + t.c * p.y + t.tx, y = t.b * p.x + t.d * p.y + t.ty }, Point)
end)
api("CATransform3DMakeAffineTransform", "t", "A", function(t, extra)
  if type(t) ~= "table" or t.a == nil or extra ~= nil then argError("CATransform3DMakeAffineTransform", "t", "A", t, extra) end
  return t3(t.a, t.b, 0, 0, t.c, t.d, 0, 0, 0, 0, 1, 0, t.tx, t.ty, 0, 1)
end)
api("CATransform3DGetAffineTransform", "t", "T", function(t, extra)
  if type(t) ~= "table" or t.m11 == nil or extra ~= nil then argError("CATransform3DGetAffineTransform", "t", "T", t, extra) end
  return affine(t.m11, t.m12, t.m21, t.m22, t.m41, t.m42)
end)
api("CATransform3DIsAffine", "t", "T", function(t, extra)
  if type(t) ~= "table" or t.m11 == nil or extra ~= nil then argError("CATransform3DIsAffine", "t", "T", t, extra) end
  return t.m13 == 0 and t.m14 == 0 and t.m23 == 0 and t.m24 == 0 and t.m31 == 0 and t.m32 == 0
    and t.m33 == 1 and t.m34 == 0 and t.m43 == 0 and t.m44 == 1
end)

-- The prelude's: the methods (as the C table has them), its constructors, and _G's
-- __index with the identities, fresh each time they are read.
for name, f in pairs(T3methods) do transforms["T3:" .. name] = f end
for name, f in pairs(AffineMethods) do transforms["A:" .. name] = f end
transforms["T3:__eq"], transforms["A:__eq"] = equal3D, equalAffine
transforms.t3, transforms.affine, transforms.identity3D = t3, affine, identity3D

local function transformMath(point, errorFunction, globalsIndex)
  Point, argError = point, errorFunction
  transforms.globalsIndex = function(g, k)
    if k == "CATransform3DIdentity" then return identity3D()
    elseif k == "CGAffineTransformIdentity" then return affine(1, 0, 0, 1, 0, 0) end
    return globalsIndex(g, k)
  end
  return transforms
end
