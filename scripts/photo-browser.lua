-- Photo browser (seed 004): cards shrink linearly with distance from the centre,
-- scale = 1 − distance / (W/2) · 0.3, and a fling rests with the nearest card centred
-- (clamped at 0, as the seed does against "-0" offsets).
--
-- The seed sets no item size (its flow layout is configured elsewhere); we choose
-- square photos 60% of the viewport width in one horizontal row: the first and last
-- photo can reach the centre (left/right insets of (W − side)/2), the top and bottom
-- insets leave room for one photo per column (a flow layout would otherwise stack two
-- when they fit), and 20 points between photos.

function prepare(layout)
  local bounds = layout.collectionView.bounds
  local side = bounds.width * 0.6
  local inset = (bounds.width - side) / 2
  local vertical = math.max(0, (bounds.height - side) / 2)
  layout.scrollDirection = "horizontal"
  layout.itemSize = CGSizeMake(side, side)
  layout.sectionInset = UIEdgeInsetsMake(vertical, inset, vertical, inset)
  layout.minimumLineSpacing = 20
end

function transform(cellAttr, layout)
  local collectionView = layout.collectionView
  -- the distance of the cell's centre from the screen's centre (absolute)
  local cellOffset = math.abs(cellAttr.center.x - collectionView.contentOffset.x - collectionView.frame.width * 0.5)
  local perCent = 1 - cellOffset / (collectionView.frame.width * 0.5) * 0.3
  cellAttr.transform = CGAffineTransformMakeScale(perCent, perCent)
end

function targetContentOffset(proposedContentOffset, velocity, layout)
  local targetP = layout:targetContentOffset(proposedContentOffset, velocity)   -- super
  local collectionW = layout.collectionView.frame.width
  local collectionH = layout.collectionView.frame.height
  local frame = CGRectMake(targetP.x, 0, collectionW, collectionH)
  local attrs = layout:layoutAttributesForElements(frame)
  local minOffSetX = MAXFLOAT
  for _, attr in ipairs(attrs) do
    -- subtract the final offset's x!
    local cellOffset = attr.center.x - targetP.x - collectionW * 0.5
    if math.abs(cellOffset) < math.abs(minOffSetX) then
      minOffSetX = cellOffset
    end
  end
  targetP.x = targetP.x + minOffSetX
  -- dragging can stutter on a "-0" offset: clamp at 0
  if targetP.x < 0 then
    targetP.x = 0
  end
  return targetP
end
