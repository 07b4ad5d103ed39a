-- A starting point: a horizontal carousel of one row, the centred card full size and the
-- others smaller, and a fling that comes to rest with a card centred. Change anything.

-- Tweakables: numbers to try out without editing, with `cardlua run FILE --param
-- sideScale=0.6` or the sliders of `cardlua play FILE`. Inside the callbacks
-- `params.sideScale` is the number in use (read it there, not at the top of the file).
params = {
  sideScale = { value = 0.8, min = 0.3, max = 1, step = 0.05 },   -- a card one place from the centre
}

function prepare(layout)
  -- The viewport in points: layout.collectionView.bounds.width and .height.
  local bounds = layout.collectionView.bounds
  local width, height = bounds.width * 0.7, bounds.height * 0.5
  layout.scrollDirection = "horizontal"                -- or "vertical"
  layout.itemSize = CGSizeMake(width, height)          -- width, height of every card
  -- Side insets centre the first and the last card. Top and bottom insets of a quarter
  -- of the free height leave room for one row only (a horizontal flow fills columns from
  -- the top while cards fit) and keep the card clear of them: UIKit wants a card less
  -- tall than the view minus these insets (and an app's safe area, docs/export.md).
  local side, top = (bounds.width - width) / 2, (bounds.height - height) / 4
  layout.sectionInset = UIEdgeInsetsMake(top, side, top, side)   -- top, left, bottom, right
  layout.minimumLineSpacing = 16                       -- between cards along the scroll
  layout.decelerationRate = "fast"                     -- "normal" (UIKit's default), "fast", a number
  -- layout.wraps = true        -- endless: the cards repeat along the scroll axis, no edges
end

function transform(attributes, layout)
  -- Where the card is: attributes.center, attributes.frame, attributes.indexPath.item.
  -- Where the view is: layout.collectionView.bounds (midX, midY: the screen's centre).
  local pitch = layout.itemSize.width + layout.minimumLineSpacing
  local distance = math.abs(attributes.center.x - layout.collectionView.bounds.midX) / pitch
  local scale = 1 - (1 - params.sideScale) * math.min(distance, 1)
  attributes.transform3D = CATransform3DMakeScale(scale, scale, 1)
  -- The nearest card on top: distance rounded to the nearest whole place (0 for the
  -- centred card, -1 for its neighbours), so a card 0.99999 places away is a neighbour.
  attributes.zIndex = -math.floor(distance + 0.5)
  -- What else you may change, for example:
  --   attributes.transform3D = CATransform3DRotate(t, angle, 0, 1, 0)   -- turn about y
  --   attributes.alpha = 0.5      -- 0 (invisible) to 1
  --   attributes.isDoubleSided = false        -- not drawn while turned away
  --   attributes.cornerRadius = 12            -- and shadowOpacity, shadowRadius,
  --   attributes.shadowOpacity = 0.3          -- shadowOffset = CGSizeMake(0, 4),
  --   attributes.backgroundColor = "#ff8800"  -- blurRadius
  -- or `return 0.9` to scale the card evenly. Returning nothing keeps what you set.
end

function targetContentOffset(proposedContentOffset, velocity, layout)
  -- proposedContentOffset is where the fling would come to rest by itself; velocity.x
  -- and velocity.y are in points per millisecond. Return where it should rest instead:
  -- here, with the card nearest the centre of that resting place centred.
  local bounds = layout.collectionView.bounds
  local centre = proposedContentOffset.x + bounds.width / 2
  local rect = CGRectMake(proposedContentOffset.x, 0, bounds.width, bounds.height)
  local nearest
  for _, card in ipairs(layout:layoutAttributesForElements(rect)) do
    if nearest == nil or math.abs(card.center.x - centre) < math.abs(nearest.center.x - centre) then
      nearest = card
    end
  end
  if nearest == nil then return proposedContentOffset end
  return CGPointMake(nearest.center.x - bounds.width / 2, proposedContentOffset.y)
end

-- The layout's own element query (UIKit's layoutAttributesForElements(in:) override):
-- which cards a frame shows, even those whose frame is off screen. Defined, it runs
-- once per frame before transform; each returned card starts from what you set here.
-- function layoutAttributesForElements(rect, layout)
--   local all = layout:layoutAttributesForElements(rect)            -- the cards in rect
--   if #all == 0 or all[1].indexPath.item > 0 then                  -- each card at most once
--     all[#all + 1] = layout:layoutAttributesForItem(IndexPath(0, 0)) -- any card (item, section)
--   end
--   return all
-- end

-- Optional, as UICollectionViewDelegateFlowLayout (uncomment to use): a size per card,
-- insets and header/footer sizes per section. Sections come from `--items 5,8,3`;
-- layout.collectionView.numberOfSections and layout.collectionView:numberOfItems(section)
-- say how many. The indexPath table is reused from card to card: don't keep it.
-- A size may also be returned as its two numbers (`return w, h`): no CGSize is built,
-- 3-4x faster for a very long list; insets likewise as four numbers.
-- function sizeForItem(indexPath, layout)
--   return CGSizeMake(100 + 20 * (indexPath.item % 3), 150)   -- or: return 100 + ..., 150
-- end
-- function insetForSection(section, layout)
--   return UIEdgeInsetsMake(10, 20, 10, 20)         -- top, left, bottom, right
-- end
-- function referenceSizeForHeader(section, layout)
--   return CGSizeMake(0, 40)                         -- the height counts when vertical
-- end
-- function referenceSizeForFooter(section, layout)
--   return CGSizeMake(0, 0)                          -- 0: no footer
-- end

-- Right to left (`--rtl`, or `rtl = true` in a scenario): a horizontal flow mirrors and
-- starts at its largest offset; layout.collectionView.effectiveUserInterfaceLayoutDirection
-- says which. In prepare, `layout.flipsHorizontallyInOppositeLayoutDirection = false`
-- keeps it left to right. Bounce flags, in prepare:
--   layout.collectionView.bounces = false                 -- stop dead at the edges
--   layout.collectionView.alwaysBounceHorizontal = true   -- drag even when it all fits

-- Named scenarios, run with `cardlua run FILE --scenario fling`:
-- scenarios = {
--   fling = { viewport = "414x736", items = 10, steps = { { jump = 200 }, { wait = 0.2 }, { fling = 2 } } },
--   sections = { items = { 5, 8, 3 }, rtl = true, steps = { { scrollToItem = { item = 2, section = 1 } } } },
-- }
