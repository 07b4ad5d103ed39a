-- animated-cube: full pages fold round their shared edge like the faces of a turning cube
-- Source: AnimatedCollectionViewLayout, 1.1.0 (f6d163d), Sources/…/Animators/CubeAttributesAnimator.swift
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
-- CubeAttributesAnimator (defaults perspective −1/500, totalAngle π/2) acts on the cell's
-- contentView layer: while |p| < 1 it moves the layer's anchorPoint to the edge facing the
-- centre ((0, 0.5) when p > 0, (1, 0.5) otherwise) and sets
--   transform = CATransform3DMakeTranslation(e, 0, 0), m34 = perspective,
--               then CATransform3DRotate(…, totalAngle·p, 0, 1, 0)
-- with e = ∓w/2 (the shift that puts the moved anchor back); at |p| ≥ 1 the identity and
-- anchor (0.5, 0.5). So the content turns about the cell's inner edge, with the
-- perspective's eye in front of the cell's centre.
-- The content view fills the cell, so the port turns the card itself: about its centre
-- that is translation(−e) · rotation(totalAngle·p about y) · translation(e) · perspective,
-- the same points as UIKit's anchor-point form. The demo's cell clips to its bounds; the
-- turned face stays inside them (it only recedes), so the clip changes nothing.

params = {
  perspective = { value = -1 / 500, min = -1 / 200, max = -1 / 2000, step = 0.0001 },
  totalAngle = { value = M_PI / 2, min = 0, max = M_PI, step = 0.01 },  -- radians
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
    attributes.transform3D = CATransform3DIdentity
    return
  end
  local rotateAngle = params.totalAngle * position
  local anchorPointOffsetValue = attributes.size.width / 2
  local anchorPointOffset = position > 0 and -anchorPointOffsetValue or anchorPointOffsetValue
  local t = CATransform3DMakeTranslation(anchorPointOffset, 0, 0)
  t.m34 = params.perspective
  t = CATransform3DRotate(t, rotateAngle, 0, 1, 0)
  -- The anchor point moved to the inner edge: turn about that edge, not the centre.
  attributes.transform3D = CATransform3DTranslate(t, -anchorPointOffset, 0, 0)
end
