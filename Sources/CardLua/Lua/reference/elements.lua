-- MARK: The layout's tables ------------------------------------------------------

-- elementMakers(IndexPathMT, BaseAttributes, Point, Size, Rect, argError): IndexPath, the
-- tables the layout hands out and layout:layoutAttributesForItem, as elements.c gives
-- them, over the host's query and item look-up (the reference chunk's argument). Their
-- geometry is made at once, so baseGeometry has nothing to make.
local function elementMakers(indexPathMT, baseAttributes, point, size, rect, errorFunction)
  argError = errorFunction
  local makers = {}
  local function item(s, it, cx, cy, iw, ih)
    return setmetatable({
      indexPath = setmetatable({ section = s, item = it, row = it }, indexPathMT),
      center = setmetatable({ x = cx, y = cy }, point), size = setmetatable({ width = iw, height = ih }, size),
      frame = setmetatable({ x = cx - iw / 2, y = cy - ih / 2, width = iw, height = ih }, rect),
      alpha = 1, zIndex = 0, hidden = false,   -- transform3D: the identity, made when first read
    }, baseAttributes)
  end
  makers[1] = { name = "IndexPath", params = "item, section", kinds = "nn" }
  makers.IndexPath = function(it, section, extra)
    if type(it) ~= "number" or (section ~= nil and type(section) ~= "number") or extra ~= nil then
      argError("IndexPath", "item, section", "nn", it, section == nil and 0 or section, extra)
    end
    local i, s = tointeger(it), tointeger(section or 0)
    if i == nil or s == nil then
      error("IndexPath: expected whole numbers (item " .. tostring(it) .. ", section " .. tostring(section or 0) .. ")", 2)
    end
    return setmetatable({ section = s, item = i, row = i }, indexPathMT)
  end
  -- The base attributes of the items that meet a rect.
  makers.queryAttributes = function(x, y, w, h)
    local flat = host.query(x, y, w, h)
    local out = {}
    for i = 0, #flat // 6 - 1 do
      local b = i * 6
      out[i + 1] = item(floor(flat[b + 1]), floor(flat[b + 2]), flat[b + 3], flat[b + 4], flat[b + 5], flat[b + 6])
    end
    return out
  end
  -- An item's base attributes, or nil, the number of sections, the items in the section
  -- (-1: no such section), or nil, -1 when the host cannot look items up.
  makers.itemAttributes = function(s, it)
    local cx, cy, iw, ih = host.item(s, it)
    if cx == nil then return nil, cy, iw end
    return item(s, it, cx, cy, iw, ih)
  end
  makers.layoutAttributesForItem = function(_, indexPath, extra)
    if type(indexPath) ~= "table" or extra ~= nil then
      error("layoutAttributesForItem: expected an IndexPath (IndexPath(item, section)), got " ..
        (extra ~= nil and "more arguments" or indexPath == nil and "nothing" or "a " .. type(indexPath)), 2)
    end
    local s, it = indexPath.section, indexPath.item
    if s == nil then s = 0 end
    if it == nil then it = indexPath.row end
    local si = type(s) == "number" and tointeger(s) or nil
    local ii = type(it) == "number" and tointeger(it) or nil
    if si == nil or ii == nil then
      error("layoutAttributesForItem: the index path needs whole numbers (section " .. tostring(s) ..
        ", item " .. tostring(it) .. ")", 2)
    end
    local found, sections, items = makers.itemAttributes(si, ii)
    if found == nil then
      if sections < 0 then error("layoutAttributesForItem: the host layout cannot look up single items", 2) end
      if items < 0 then
        error("layoutAttributesForItem: no item " .. ii .. " in section " .. si .. ": the layout has " ..
          sections .. (sections == 1 and " section" or " sections"), 2)
      end
      error("layoutAttributesForItem: no item " .. ii .. " in section " .. si .. " (it has " .. items ..
        (items == 1 and " item)" or " items)"), 2)
    end
    return found
  end
  makers.baseGeometry = function() return nil end
  return makers
end

-- native.elementNewindex: the __newindex of the layout's tables. `transform` and
-- `transform3D` replace each other, `isHidden` is `hidden`.
local function elementNewindex(a, k, v)
  if k == "transform" then rawset(a, "transform3D", nil)
  elseif k == "transform3D" then rawset(a, "transform", nil)
  elseif k == "isHidden" then k = "hidden" end
  rawset(a, k, v)
end
