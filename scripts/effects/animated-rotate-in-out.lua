-- animated-rotate-in-out: full pages swing in and out about their centres, fading
-- Source: AnimatedCollectionViewLayout, 1.1.0 (f6d163d), Sources/…/Animators/RotateInOutAttributesAnimator.swift
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
-- RotateInOutAttributesAnimator (defaults minAlpha 0, maxRotate π/4): while |p| < 1 the
-- cell turns about its centre by maxRotate·p (clockwise on screen coming in from the
-- right), alpha = 1 − |p| + minAlpha, zIndex = its row (later pages on top); at |p| ≥ 1
-- the identity and alpha 1 (zIndex left at 0). With minAlpha > 0 the source's alpha goes
-- above 1 near the centre; UIKit clamps a view's alpha to 1 when it draws it, and so
-- does the port.

params = {
  minAlpha = { value = 0, min = 0, max = 1, step = 0.05 },
  maxRotate = { value = M_PI / 4, min = 0, max = 2 * M_PI, step = 0.01 },  -- radians
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
  if ABS(position) >= 1 then
    attributes.transform = CGAffineTransformIdentity
    attributes.alpha = 1.0
  else
    local rotateFactor = params.maxRotate * position
    attributes.zIndex = attributes.indexPath.item
    attributes.alpha = math.max(0, math.min(1, 1.0 - ABS(position) + params.minAlpha))
    attributes.transform = CGAffineTransformMakeRotation(rotateFactor)
  end
end
