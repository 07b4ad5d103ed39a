-- MARK: Check (`cardlua check`) ------------------------------------------------------

local next = next

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

-- The keys noted so far, as records { key = …, item = … } (read by records.c).
function I.attributeNotes()
  local out = {}
  for i, k in ipairs(attributeOrder) do out[i] = { key = k, item = attributeNotes[k] } end
  return out
end

local LAYOUT_KEYS = {
  scrollDirection = true, itemSize = true, sectionInset = true, minimumLineSpacing = true,
  minimumInteritemSpacing = true, headerReferenceSize = true, footerReferenceSize = true,
  decelerationRate = true, isPagingEnabled = true, time = true,
  collectionView = true, collectionViewContentSize = true,
  wraps = true, flipsHorizontallyInOppositeLayoutDirection = true,
}
local COLLECTION_VIEW_KEYS = {
  bounds = true, frame = true, contentOffset = true, contentSize = true, isTracking = true,
  isDragging = true, isDecelerating = true, decelerationRate = true, isPagingEnabled = true,
  effectiveUserInterfaceLayoutDirection = true, bounces = true, alwaysBounceHorizontal = true,
  alwaysBounceVertical = true,
}

-- The keys on the layout (and its collectionView) the contract does not know, a sorted
-- list as written: "layout.itemsize", "layout.collectionView.pagingEnabled".
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
  return out
end

return I
