-- MARK: Sections and sizes ----------------------------------------------------------

-- The collection view's item counts (set by the host before prepare) and the
-- UICollectionViewDelegateFlowLayout callbacks' helpers. A block: its locals stay here.
do
  local counts = {}  -- items per section, 1-based by section + 1

  -- The host hands the counts over before prepare (cardlua_set_item_counts).
  function I.setItemCounts(t) counts = t end

  -- The one IndexPath a sizeForItem call reuses for every item (cardlua_item_sizes).
  function I.newIndexPath() return setmetatable({ section = 0, item = 0, row = 0 }, IndexPathMT) end

  local CollectionViewMethods = {}

  -- collectionView:numberOfItems(section): UICollectionView.numberOfItems(inSection:).
  function CollectionViewMethods.numberOfItems(_, section)
    if not isnumber(section) or section ~= floor(section) then
      error("numberOfItems: expected a section number (got " .. tostring(section) .. ")", 2)
    end
    local n = counts[section + 1]
    if n == nil then
      error("numberOfItems: no section " .. tostring(floor(section)) .. " (the collection view has "
        .. #counts .. " section" .. (#counts == 1 and "" or "s") .. ": 0 to " .. (#counts - 1) .. ")", 2)
    end
    return n
  end
  CollectionViewMethods.numberOfItemsInSection = CollectionViewMethods.numberOfItems

  -- Read through __index: not raw fields, so check's unknown-key notes never see them.
  local COLLECTION_VIEW_FIELDS = { "bounds", "frame", "contentOffset", "contentSize", "isTracking", "isDragging",
    "isDecelerating", "effectiveUserInterfaceLayoutDirection", "numberOfSections", "numberOfItems",
    "numberOfItemsInSection", "decelerationRate", "isPagingEnabled", "bounces", "alwaysBounceHorizontal",
    "alwaysBounceVertical" }
  setmetatable(collectionView, {
    __name = "UICollectionView",
    __index = function(_, key)
      if key == "numberOfSections" then return #counts end
      local method = CollectionViewMethods[key]
      if method ~= nil then return method end
      return missingField("layout.collectionView", key, COLLECTION_VIEW_FIELDS)
    end,
  })
end

class([[
---The collection view's sections (`UICollectionView`).
---@class UICollectionView
---@field numberOfSections integer how many sections (`--items 5,8,3`: 3)
local UICollectionView = {}
---Items in `section` (0-based), as `numberOfItems(inSection:)`; a section that does not
---exist is an error.
---@param section integer
---@return integer
function UICollectionView:numberOfItems(section) end]])

class([[
---Optional (`collectionView(_:layout:sizeForItemAt:)`): each item's size; without it every
---item is `layout.itemSize`. Called for every item after prepare, in index-path order.
---The indexPath table is reused from item to item: do not keep it. The size may also be
---returned as two numbers, `return w, h` (no CGSize built: the fast form for many items).
---@type fun(indexPath: IndexPath, layout: UICollectionViewFlowLayout): CGSize|number, number?
sizeForItem = nil

---Optional (`collectionView(_:layout:insetForSectionAt:)`): a section's insets; without it
---`layout.sectionInset`. Or four numbers: `return top, left, bottom, right`.
---@type fun(section: integer, layout: UICollectionViewFlowLayout): UIEdgeInsets|number, number?, number?, number?
insetForSection = nil

---Optional (`referenceSizeForHeaderInSection`): a section's header size; without it
---`layout.headerReferenceSize`. Or two numbers: `return w, h`.
---@type fun(section: integer, layout: UICollectionViewFlowLayout): CGSize|number, number?
referenceSizeForHeader = nil

---Optional (`referenceSizeForFooterInSection`): a section's footer size; without it
---`layout.footerReferenceSize`. Or two numbers: `return w, h`.
---@type fun(section: integer, layout: UICollectionViewFlowLayout): CGSize|number, number?
referenceSizeForFooter = nil]])
