-- MARK: The transform math in C ------------------------------------------------------

-- transform3d.lua and affine.lua define the CATransform3D and CGAffineTransform math in
-- Lua; in a cardlua state the same names are then served by C functions
-- (Sources/CLuaShims/transform_math.c) that compute the same values with the same
-- operations in the same order and report bad arguments through argError: only faster
-- (BENCHMARKS.md). Their values are userdata, not tables: 16 (or 6) numbers with their
-- subtypes, whose metatable (made in C) gives the fields, the methods, `=` of a number
-- to a field, ==, tostring and pairs. t3, affine and identity3D, which the rest of the
-- prelude builds its transforms with, become the C constructors too, so that no
-- transform is a table. The Lua definitions stay the reference, and what the stock
-- interpreter runs in `cardlua bench` (it has no native.transformMath).
if native.transformMath then
  local C = native.transformMath(Point, argError, getmetatable(G).__index)
  for _, name in ipairs({
    "CATransform3DMakeTranslation", "CATransform3DMakeScale", "CATransform3DMakeRotation",
    "CATransform3DRotate", "CATransform3DScale", "CATransform3DTranslate", "CATransform3DConcat",
    "CATransform3DInvert", "CATransform3DIsIdentity", "CATransform3DEqualToTransform",
    "CATransform3DMakeAffineTransform", "CATransform3DGetAffineTransform", "CATransform3DIsAffine",
    "CGAffineTransformMake", "CGAffineTransformMakeScale", "CGAffineTransformMakeRotation",
    "CGAffineTransformMakeTranslation", "CGAffineTransformScale", "CGAffineTransformRotate",
    "CGAffineTransformTranslate", "CGAffineTransformConcat", "CGAffineTransformInvert",
    "CGAffineTransformIsIdentity", "CGAffineTransformEqualToTransform", "CGPointApplyAffineTransform",
  }) do
    G[name] = C[name]
  end
  t3, affine = C.t3, C.affine  -- the elements' transforms, I.matrix, I.affineTo3D …
  identity3D = C.identity3D    -- attributes.transform3D's fresh identity (I.identity3D)
  getmetatable(G).__index = C.globalsIndex  -- CATransform3DIdentity and the other fresh values
end

-- The geometry constructors likewise (Sources/CLuaShims/geometry_native.c): the same
-- tables with the same metatables and the same argError messages, without the Lua call
-- frame (a `sizeForItem` builds one CGSize per item).
if native.geometryMakers then
  local C = native.geometryMakers(Point, Size, Rect, Insets, argError)
  for _, name in ipairs({ "CGPointMake", "CGSizeMake", "CGRectMake", "UIEdgeInsetsMake" }) do
    G[name] = C[name]
  end
end
