-- A blank effect: each callback below leaves the cards as UIKit would. Change them.

function prepare(layout)
  -- The viewport in points: layout.collectionView.bounds.width and .height.
  layout.scrollDirection = "vertical"                  -- or "horizontal"
  layout.itemSize = CGSizeMake(50, 50)                 -- width, height of every card
  layout.sectionInset = UIEdgeInsetsMake(0, 0, 0, 0)   -- top, left, bottom, right
  layout.minimumLineSpacing = 10                       -- between rows (columns when horizontal)
  layout.minimumInteritemSpacing = 10                  -- between cards in a row
  -- layout.wraps = true        -- endless: the cards repeat along the scroll axis, no edges
end

function transform(attributes, layout)
  -- Where the card is: attributes.center, attributes.frame, attributes.indexPath.item.
  -- Where the view is: layout.collectionView.bounds (midX, midY: the screen's centre).
  -- What you may change, for example:
  --   attributes.transform3D = CATransform3DMakeScale(0.9, 0.9, 1)
  --   attributes.alpha = 0.5      -- 0 (invisible) to 1
  --   attributes.zIndex = 1       -- higher draws on top
  --   attributes.isDoubleSided = false        -- not drawn while turned away
  --   attributes.cornerRadius = 12            -- and shadowOpacity, shadowRadius,
  --   attributes.shadowOpacity = 0.3          -- shadowOffset = CGSizeMake(0, 4),
  --   attributes.backgroundColor = "#ff8800"  -- blurRadius
  -- or `return 0.9` to scale the card evenly. Returning nothing changes nothing.
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

function targetContentOffset(proposedContentOffset, velocity, layout)
  -- proposedContentOffset is where the fling would come to rest by itself; velocity.x
  -- and velocity.y are in points per millisecond. Return where it should rest instead:
  -- layout:layoutAttributesForElements(rect) lists the cards in a rect, to find the
  -- one nearest the centre.
  return proposedContentOffset
end

-- Named scenarios, run with `cardlua run FILE --scenario fling`:
-- scenarios = {
--   fling = { viewport = "414x736", items = 10, steps = { { jump = 200 }, { wait = 0.2 }, { fling = 2 } } },
-- }

-- Tweakables: numbers to try out without editing, with `cardlua run FILE --param rotate=50`
-- or the sliders of `cardlua play FILE`. Inside the callbacks `params.rotate` is the number
-- in use (read it there, not at the top of the file):
-- params = {
--   rotate = { value = 35, min = 0, max = 90, step = 1 },   -- degrees
-- }
