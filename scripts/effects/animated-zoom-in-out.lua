-- animated-zoom-in-out: full pages; the one leaving shrinks as the next slides over it
-- Source: AnimatedCollectionViewLayout, 1.1.0 (f6d163d), Sources/…/Animators/ZoomInOutAttributesAnimator.swift
--
-- Files: Sources/AnimatedCollectionViewLayout/{AnimatedCollectionViewLayout.swift, Animators/…}.
-- The layout (AnimatedCollectionViewLayout.swift): a horizontal UICollectionViewFlowLayout;
-- each visible item gets its progress, in collection-view widths W,
--   p = middleOffset = (center.x − contentOffset.x) / W − 0.5   (0 when centred)
-- The demo (iOS Example, ImageCollectionViewController.swift) makes every cell the size
-- of the collection view (this animator's row: 1 × 1), no insets, minimumLineSpacing 0,
-- minimumInteritemSpacing 0, and turns on isPagingEnabled: that is the only snapping.
-- No wrap (the demo fakes it with Int16.max items). The demo colours each cell by row
-- from its palette of ten; the port does the same.
-- ZoomInOutAttributesAnimator (default scaleRate 0.2): while −1 < p ≤ 0 the cell scales by
-- s = scaleRate·p + 1 (down to 1 − scaleRate as it leaves); every other cell keeps the
-- identity. No zIndex: the next page, later in index order, draws over the shrinking one.

params = {
  scaleRate = { value = 0.2, min = 0, max = 1, step = 0.05 },
}

local COLORS = { "#f44336", "#9c27b0", "#3f51b5", "#03a9f4", "#009688",
                 "#8bc34a", "#ffeb3b", "#ff9800", "#795548", "#607d8b" }

function prepare(layout)
  local size = layout.collectionView.bounds.size
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.itemSize = CGSizeMake(size.width, size.height)
  layout.sectionInset = UIEdgeInsetsMake(0, 0, 0, 0)
  layout.minimumLineSpacing = 0
  layout.minimumInteritemSpacing = 0
  layout.isPagingEnabled = true
end

-- middleOffset: the distance of the centre from the viewport's, in collection-view widths.
local function middleOffset(attributes, collectionView)
  return (attributes.center.x - collectionView.contentOffset.x) / collectionView.frame.width - 0.5
end

function transform(attributes, layout)
  local position = middleOffset(attributes, layout.collectionView)
  attributes.backgroundColor = COLORS[attributes.indexPath.item % #COLORS + 1]
  if position <= 0 and position > -1 then
    local scaleFactor = params.scaleRate * position + 1.0
    attributes.transform = CGAffineTransformMakeScale(scaleFactor, scaleFactor)
  else
    attributes.transform = CGAffineTransformIdentity
  end
end
