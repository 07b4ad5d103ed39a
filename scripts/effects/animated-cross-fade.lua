-- animated-cross-fade: every page pinned to the screen; one fades into the next
-- Source: AnimatedCollectionViewLayout, 1.1.0 (f6d163d), Sources/…/Animators/CrossFadeAttributesAnimator.swift
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
-- CrossFadeAttributesAnimator (no options): frame.origin = contentOffset (every visible
-- cell sits on the viewport) and alpha = 1 − |p|. No zIndex: the later page is drawn on
-- top. Only the cells whose own frame meets the visible rect are there, so at most two:
-- the one leaving and the one arriving, their alphas adding up to 1.

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
  attributes.frame = CGRectMake(contentOffset.x, contentOffset.y, attributes.size.width, attributes.size.height)
  attributes.alpha = math.max(0, 1 - ABS(position))
  attributes.backgroundColor = COLORS[attributes.indexPath.item % #COLORS + 1]
end
