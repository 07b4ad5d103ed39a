-- Card layout (seed 002, "UICollectionView 04 - 卡片布局", CardLayout in Swift).
-- Cards 0.7 of the width and 0.75 of the height; each scales by
-- |cos(distance / width · π/4)| with its distance from the centre. No snapping: the
-- seed leaves targetContentOffset to super.

function prepare(layout)
  local width = layout.collectionView.frame.width          -- collectionViewWidth
  local height = layout.collectionView.frame.height        -- collectionViewHeight
  local cellWidth = width * 0.7
  local cellMargin = (width - cellWidth) / 7
  local margin = (width - cellWidth) / 2
  layout.scrollDirection = "horizontal"
  layout.sectionInset = UIEdgeInsetsMake(0, margin, 0, margin)
  layout.minimumLineSpacing = cellMargin
  layout.itemSize = CGSizeMake(cellWidth, height * 0.75)
end

function transform(attribute, layout)
  local collectionView = layout.collectionView
  local centerX = collectionView.contentOffset.x + collectionView.bounds.size.width / 2
  local distance = math.abs(attribute.center.x - centerX)
  local aprtScale = distance / collectionView.bounds.size.width
  local scale = math.abs(math.cos(aprtScale * (math.pi / 4)))
  attribute.transform = CGAffineTransformMakeScale(scale, scale)
end
