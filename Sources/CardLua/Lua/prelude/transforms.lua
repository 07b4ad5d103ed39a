-- MARK: The transforms: C's ------------------------------------------------------

-- The CATransform3D and CGAffineTransform math is C's (Sources/CLuaShims/transform_math.c):
-- its values are userdata, not tables (16 or 6 numbers with their subtypes), whose
-- metatable, made in C, gives the fields, the methods, `=` of a number to a field, ==,
-- tostring and pairs. Its table names each function of the API with its parameters,
-- their kinds, its result and its doc, and defineAll defines them in that order; t3,
-- affine and identity3D, which the rest of the prelude builds its transforms with, are
-- its constructors. The stock interpreter of `cardlua bench --stock` is given the Lua
-- reference instead (Sources/CardLua/Lua/reference/).

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

-- The fresh values read as globals: `t = CATransform3DIdentity; t.m34 = …` must never
-- change the identity (docs/script-api.md). Only absent globals reach _G's __index: C's
-- makes the two identities and hands any other name here.
local function freshGlobal(_, k)
  if k == "CGRectZero" then return rect(0, 0, 0, 0)
  elseif k == "CGPointZero" then return point(0, 0)
  elseif k == "CGSizeZero" then return size(0, 0)
  end
end
local transforms = native.transformMath(Point, argError, freshGlobal)
defineAll(transforms)
local t3, affine, identity3D = transforms.t3, transforms.affine, transforms.identity3D
setmetatable(G, { __index = transforms.globalsIndex })
api[#api + 1] = { name = "CGRectZero", signature = "CGRect", doc = "A fresh zero rect." }
api[#api + 1] = { name = "CGPointZero", signature = "CGPoint", doc = "A fresh zero point." }
api[#api + 1] = { name = "CGSizeZero", signature = "CGSize", doc = "A fresh zero size." }
