-- animated-parallax: full pages; inside each, the content lags at half the scroll speed
-- Source: AnimatedCollectionViewLayout, 1.1.0 (f6d163d), Sources/…/Animators/ParallaxAttributesAnimator.swift
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
-- ParallaxAttributesAnimator (default speed 0.5): while |p| < 1 the cell's contentView
-- moves by tx = −W·speed·p (iOS 14+: its transform; before: its frame); at |p| ≥ 1 it is
-- put back. The cell itself stays where the flow layout puts it, and the demo's cells
-- clip their content (clipsToBounds true for this row), so what shows of a page is its
-- content view moved by tx and cut to the cell's frame.
-- cardlua draws one card per item, so the port makes the card that visible part: its
-- frame is the cell's frame ∩ the moved content (the side the content left is cut off).
-- The coloured areas are exactly UIKit's; the pages meet where the cells meet; the card's
-- label (drawn at the card's centre) lags behind the scroll as the content does. Moving
-- the whole, unclipped card instead would make a card jump half a page onto the screen
-- the moment its p drops below 1.

params = {
  speed = { value = 0.5, min = 0, max = 1, step = 0.05 },
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
  attributes.backgroundColor = COLORS[attributes.indexPath.item % #COLORS + 1]
  if ABS(position) >= 1 then return end               -- the content view is put back
  local transitionX = -(collectionView.frame.width * params.speed * position)
  local frame = attributes.frame
  local minX = frame.x + math.max(transitionX, 0)                -- the moved content, clipped
  local maxX = frame.x + frame.width + math.min(transitionX, 0)
  attributes.frame = CGRectMake(minX, frame.y, math.max(maxX - minX, 0), frame.height)
end
