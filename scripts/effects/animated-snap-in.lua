-- animated-snap-in: a grid of tiles; the column coming in from the right grows, fading in
-- Source: AnimatedCollectionViewLayout, 1.1.0 (f6d163d), Sources/…/Animators/SnapInAttributesAnimator.swift
--
-- Files: Sources/AnimatedCollectionViewLayout/{AnimatedCollectionViewLayout.swift, Animators/…}.
-- The layout (AnimatedCollectionViewLayout.swift): a horizontal UICollectionViewFlowLayout;
-- besides middleOffset it gives each item, in its own widths w,
--   endOffset e = (frame.minX − contentOffset.x − W) / w   (0 when its left edge is at
--                 the viewport's right edge, −1 when it is one cell further in)
-- The demo (iOS Example): this animator's row is the only one that is not full page: its
-- cells are W/2 × H/4 (row 2, column 4 of AnimatorTableViewController), no insets,
-- minimumLineSpacing 0, minimumInteritemSpacing 0, so the horizontal flow makes a grid of
-- four rows and two columns per screen; isPagingEnabled is the only snapping. No wrap
-- (the demo fakes it with Int16.max items). The demo colours each cell by row from its
-- palette of ten; the port does the same.
-- SnapInAttributesAnimator (no options): while −1 < e < 0 (the column in the viewport's
-- last w points)
--   tx = (1 − |e|³)·w/4,  s = 0.8 − 0.2·e,  transform = translation(tx) then scale(s),
--   alpha = |e|
-- (so a column arriving from the right starts small, shifted right and transparent, and
-- snaps into place as it reaches its spot); every other cell: identity, alpha 1.

local COLORS = { "#f44336", "#9c27b0", "#3f51b5", "#03a9f4", "#009688",
                 "#8bc34a", "#ffeb3b", "#ff9800", "#795548", "#607d8b" }

function prepare(layout)
  local size = layout.collectionView.bounds.size
  layout.scrollDirection = UICollectionViewScrollDirectionHorizontal
  layout.itemSize = CGSizeMake(size.width / 2, size.height / 4)
  layout.sectionInset = UIEdgeInsetsMake(0, 0, 0, 0)
  layout.minimumLineSpacing = 0
  layout.minimumInteritemSpacing = 0
  layout.isPagingEnabled = true
end

function transform(attributes, layout)
  local collectionView = layout.collectionView
  local frame = attributes.frame
  local position = (frame.x - collectionView.contentOffset.x - collectionView.frame.width) / frame.width
  attributes.backgroundColor = COLORS[attributes.indexPath.item % #COLORS + 1]
  if position < 0 and position > -1 then
    local translationX = (1 - ABS(position) ^ 3) * frame.width / 4
    local scaleFactor = 0.8 - position * 0.2
    attributes.transform = CGAffineTransformConcat(CGAffineTransformMakeTranslation(translationX, 0),
                                                   CGAffineTransformMakeScale(scaleFactor, scaleFactor))
    attributes.alpha = 1.0 * ABS(position)
  else
    attributes.alpha = 1.0
    attributes.transform = CGAffineTransformIdentity
  end
end
