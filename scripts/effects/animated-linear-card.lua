-- animated-linear-card: full-page cells shrink to 0.7× cards that slide in close, faded
-- Source: AnimatedCollectionViewLayout, 1.1.0 (f6d163d), Sources/…/Animators/LinearCardAttributesAnimator.swift
--
-- Files: Sources/AnimatedCollectionViewLayout/{AnimatedCollectionViewLayout.swift, Animators/…}.
-- The layout (AnimatedCollectionViewLayout.swift): a horizontal UICollectionViewFlowLayout;
-- each visible item gets its progress, in collection-view widths W,
--   p = middleOffset = (center.x − contentOffset.x) / W − 0.5   (0 when centred)
-- The demo (iOS Example, ImageCollectionViewController.swift) makes every cell the size
-- of the collection view (this animator's row: 1 × 1), no insets, minimumLineSpacing 0,
-- minimumInteritemSpacing 0, and turns on isPagingEnabled: that is the only snapping.
-- LinearCardAttributesAnimator (defaults minAlpha 0.5, itemSpacing 0.4, scaleRate 0.7):
--   s = scaleRate − 0.1·|p|,  tx = −W·itemSpacing·p
--   transform = translation(tx) then scale(s)  (translationTransform.concatenating(scale))
--   alpha = 1 − |p| + minAlpha
-- The source sets alpha above 1 near the centre (1.5 at p = 0); UIKit clamps a view's
-- alpha to 1 when it draws it, so the port clamps to 0…1 (what is seen). No zIndex: later
-- items draw on top. No wrap (the demo fakes it with Int16.max items). The demo colours
-- each cell by row from its palette of ten; the port does the same.
-- Only the items whose untransformed frame meets the visible rect are shown (the flow
-- layout's query): at rest that is the centred card alone.

params = {
  minAlpha = { value = 0.5, min = 0, max = 1, step = 0.05 },
  itemSpacing = { value = 0.4, min = 0, max = 1, step = 0.05 },
  scaleRate = { value = 0.7, min = 0.1, max = 1.5, step = 0.05 },
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

function transform(attributes, layout)
  local collectionView = layout.collectionView
  local width = collectionView.frame.width
  local position = (attributes.center.x - collectionView.contentOffset.x) / width - 0.5
  local scaleFactor = params.scaleRate - 0.1 * ABS(position)
  local translationX = -(width * params.itemSpacing * position)
  attributes.transform = CGAffineTransformConcat(CGAffineTransformMakeTranslation(translationX, 0),
                                                 CGAffineTransformMakeScale(scaleFactor, scaleFactor))
  attributes.alpha = math.max(0, math.min(1, 1.0 - ABS(position) + params.minAlpha))
  attributes.backgroundColor = COLORS[attributes.indexPath.item % #COLORS + 1]
end
