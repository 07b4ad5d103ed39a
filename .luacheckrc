-- luacheck configuration for cardlua effect scripts (scripts/lint-lua, which scripts/test
-- runs, checks scripts/*.lua and the `cardlua new` templates with it). The `cardlua` std
-- is the script API (docs/script-api.md):
--   read_globals  what the prelude defines: the names `cardlua types` lists (a test in
--                 Tests/CardLuaCLITests/Types/TypesTests.swift keeps the two the same);
--   globals       the callbacks and the scenarios and params tables, which a script sets.
-- The sandbox has no io, os, debug or package, and no dofile, loadfile, load, require or
-- collectgarbage: using one is reported as an undefined variable.

-- The identities and zero values read fresh every time, so a script may change the copy
-- it got (`t = CATransform3DIdentity; t.m34 = -1 / 500`): their fields are writable, and
-- a misspelled field (`t.m35`) is reported.
local function value(writable, readable)
  local fields = {}
  for _, name in ipairs(writable) do fields[name] = { read_only = false } end
  for _, name in ipairs(readable or {}) do fields[name] = {} end
  return { fields = fields }
end
local transform3D = value({ "m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24",
                            "m31", "m32", "m33", "m34", "m41", "m42", "m43", "m44" },
                          { "rotate", "scale", "translate", "concat", "invert", "isIdentity" })
local affine = value({ "a", "b", "c", "d", "tx", "ty" },
                     { "rotate", "scale", "translate", "concat", "invert", "isIdentity" })
local point = value({ "x", "y" })
local size = value({ "width", "height" })
local rect = value({ "x", "y", "width", "height" }, { "minX", "midX", "maxX", "minY", "midY", "maxY" })
rect.fields.origin = point
rect.fields.size = size

stds.cardlua = {
  read_globals = {
    "CGPointMake", "CGSizeMake", "CGRectMake", "UIEdgeInsetsMake", "CGRectGetMinX",
    "CGRectGetMidX", "CGRectGetMaxX", "CGRectGetMinY", "CGRectGetMidY", "CGRectGetMaxY",
    "CGRectGetWidth", "CGRectGetHeight", "CGRectIntersectsRect", "CGRectContainsPoint",
    "CGRectInset", "CGRectOffset", "CGRectEqualToRect", "CGPointEqualToPoint", "M_PI", "M_PI_2",
    "M_PI_4", "MAXFLOAT", "CGFLOAT_MAX", "ABS", "fabs", "MIN", "MAX",
    "UICollectionViewScrollDirectionVertical", "UICollectionViewScrollDirectionHorizontal",
    "UIScrollViewDecelerationRateNormal", "UIScrollViewDecelerationRateFast",
    "CATransform3DMakeTranslation", "CATransform3DMakeScale", "CATransform3DMakeRotation",
    "CATransform3DRotate", "CATransform3DScale", "CATransform3DTranslate",
    "CATransform3DConcat", "CATransform3DInvert", "CATransform3DIsIdentity",
    "CATransform3DEqualToTransform", "CGAffineTransformMake", "CGAffineTransformMakeScale",
    "CGAffineTransformMakeRotation", "CGAffineTransformMakeTranslation",
    "CGAffineTransformScale", "CGAffineTransformRotate", "CGAffineTransformTranslate",
    "CGAffineTransformConcat", "CGAffineTransformInvert", "CGAffineTransformIsIdentity",
    "CGAffineTransformEqualToTransform", "CGPointApplyAffineTransform",
    "CATransform3DMakeAffineTransform", "CATransform3DGetAffineTransform",
    "CATransform3DIsAffine",
    "IndexPath",  -- contract v2
    CATransform3DIdentity = transform3D,
    CGAffineTransformIdentity = affine,
    CGRectZero = rect,
    CGPointZero = point,
    CGSizeZero = size,
  },
  globals = {
    "prepare", "transform", "targetContentOffset", "scenarios", "params",
    "layoutAttributesForElements",  -- contract v2: the layout's own element query
    "sizeForItem", "insetForSection", "referenceSizeForHeader", "referenceSizeForFooter",
  },
}

std = "lua54+cardlua"
not_globals = { "io", "os", "debug", "package", "dofile", "loadfile", "load", "require", "collectgarbage" }

-- Callbacks keep UIKit's signatures (ports keep every parameter), so unused arguments
-- are normal.
unused_args = false

-- cardlua's own Lua (the prelude and the bench harness, plain Lua 5.4 rather than effect
-- scripts) has its settings in Sources/CardLua/Lua/luacheckrc; scripts/lint-lua checks
-- both.
