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

