-- MARK: The geometry constructors and getters ------------------------------------

-- geometryMakers(Point, Size, Rect, Insets, argError): the four constructors and the rect
-- getters by name and their rows in order, as geometry_native.c gives them.
local function geometryMakers(point, size, rect, insets, errorFunction)
  argError = errorFunction
  local makers = {}
  local function maker(name, params, kinds, f)
    makers[#makers + 1] = { name = name, params = params, kinds = kinds }
    makers[name] = f
  end
  maker("CGPointMake", "x, y", "nn", function(x, y, extra)
    if type(x) ~= "number" or type(y) ~= "number" or extra ~= nil then argError("CGPointMake", "x, y", "nn", x, y, extra) end
    return setmetatable({ x = x, y = y }, point)
  end)
  maker("CGSizeMake", "width, height", "nn", function(w, h, extra)
    if type(w) ~= "number" or type(h) ~= "number" or extra ~= nil then argError("CGSizeMake", "width, height", "nn", w, h, extra) end
    return setmetatable({ width = w, height = h }, size)
  end)
  maker("CGRectMake", "x, y, width, height", "nnnn", function(x, y, w, h, extra)
    if type(x) ~= "number" or type(y) ~= "number" or type(w) ~= "number" or type(h) ~= "number" or extra ~= nil then
      argError("CGRectMake", "x, y, width, height", "nnnn", x, y, w, h, extra)
    end
    return setmetatable({ x = x, y = y, width = w, height = h }, rect)
  end)
  maker("UIEdgeInsetsMake", "top, left, bottom, right", "nnnn", function(t, l, b, r, extra)
    if type(t) ~= "number" or type(l) ~= "number" or type(b) ~= "number" or type(r) ~= "number" or extra ~= nil then
      argError("UIEdgeInsetsMake", "top, left, bottom, right", "nnnn", t, l, b, r, extra)
    end
    return setmetatable({ top = t, left = l, bottom = b, right = r }, insets)
  end)
  maker("CGRectGetMinX", "r", "R", function(r, extra)
    if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetMinX", "r", "R", r, extra) end
    return r.x
  end)
  maker("CGRectGetMidX", "r", "R", function(r, extra)
    if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetMidX", "r", "R", r, extra) end
    return r.x + r.width / 2
  end)
  maker("CGRectGetMaxX", "r", "R", function(r, extra)
    if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetMaxX", "r", "R", r, extra) end
    return r.x + r.width
  end)
  maker("CGRectGetMinY", "r", "R", function(r, extra)
    if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetMinY", "r", "R", r, extra) end
    return r.y
  end)
  maker("CGRectGetMidY", "r", "R", function(r, extra)
    if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetMidY", "r", "R", r, extra) end
    return r.y + r.height / 2
  end)
  maker("CGRectGetMaxY", "r", "R", function(r, extra)
    if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetMaxY", "r", "R", r, extra) end
    return r.y + r.height
  end)
  maker("CGRectGetWidth", "r", "R", function(r, extra)
    if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetWidth", "r", "R", r, extra) end
    return r.width
  end)
  maker("CGRectGetHeight", "r", "R", function(r, extra)
    if type(r) ~= "table" or r.width == nil or extra ~= nil then argError("CGRectGetHeight", "r", "R", r, extra) end
    return r.height
  end)
  return makers
end

return { transformMath = transformMath, geometryMakers = geometryMakers, elementMakers = elementMakers,
  elementNewindex = elementNewindex }
