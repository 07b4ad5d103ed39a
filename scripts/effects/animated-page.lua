-- animated-page: the next page slides over the current one, which stays put and shrinks
-- Source: AnimatedCollectionViewLayout, 1.1.0 (f6d163d), Sources/…/Animators/PageAttributesAnimator.swift
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
-- PageAttributesAnimator (default scaleRate 0.2):
--   s  = scaleRate·min(p, 0) + 1     (only the page leaving to the left shrinks)
--   tx = contentOffset.x − frame.origin.x when p < 0, else 0  (the leaving page stays on
--        the viewport)
--   transform = scale(s) then translation(tx),  zIndex = its row (later pages on top)

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
  local collectionView = layout.collectionView
  local position = middleOffset(attributes, collectionView)
  local contentOffset = collectionView.contentOffset
  local itemOrigin = attributes.frame.origin
  local scaleFactor = params.scaleRate * math.min(position, 0) + 1.0
  local t = CGAffineTransformMakeScale(scaleFactor, scaleFactor)
  local translationX = position < 0 and contentOffset.x - itemOrigin.x or 0
  attributes.transform = CGAffineTransformConcat(t, CGAffineTransformMakeTranslation(translationX, 0))
  attributes.zIndex = attributes.indexPath.item
  attributes.backgroundColor = COLORS[attributes.indexPath.item % #COLORS + 1]
end
