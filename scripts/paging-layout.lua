-- Paging layout: CollectionViewPagingLayout's model (contract v2: the layout's own element
-- query). Every cell's frame is the visible rect; each cell moves and scales itself from
-- its progress, progress = index − contentOffset.x / W (in pages), and the scroll view
-- pages (isPagingEnabled: a release rests on a page, turning at most one).
--
-- The transform is the library's ScaleTransformView with its default options
-- (minScale 0.75, maxScale 1, scaleRatio 0.25, translationRatio (0.93, 0.36),
-- translations clamped to ±5 item sizes, linear curves, shadow opacity 0.6, radius from
-- 13 down to 2, offset from (0, 6) down to (0, 2)); zIndex is its default zPosition,
-- −|round(progress)|. It shows numberOfVisibleItems = 3 cells around the current page:
--   scale = clamp(1 − |p|·0.25, 0.75, 1)
--   tx = w·0.93·|p|·sign(p) − (1 − scale)·w/2·(p > 0 and −1 or 1)
--   ty = h·0.36·|p| − (1 − scale)·h/2
--   transform = the scale, then the translation (tx, ty)

local VISIBLE = 3
local MIN_SCALE, MAX_SCALE, SCALE_RATIO = 0.75, 1, 0.25
local TRANSLATION_X, TRANSLATION_Y, MAX_TRANSLATION = 0.93, 0.36, 5

function prepare(layout)
  local bounds = layout.collectionView.bounds
  layout.scrollDirection = "horizontal"
  layout.itemSize = CGSizeMake(bounds.width, bounds.height)   -- one page per item
  layout.sectionInset = UIEdgeInsetsMake(0, 0, 0, 0)
  layout.minimumLineSpacing = 0
  layout.isPagingEnabled = true
end

local function clamp(x, lo, hi) return math.max(lo, math.min(hi, x)) end

function layoutAttributesForElements(rect, layout)
  local collectionView = layout.collectionView
  local w, h = collectionView.bounds.width, collectionView.bounds.height
  local pages = math.floor(collectionView.contentSize.width / w + 0.5)
  local page = collectionView.contentOffset.x / w
  local current = math.floor(page + 0.5)
  local elements = {}
  for index = math.max(0, current - VISIBLE // 2), math.min(pages - 1, current + VISIBLE // 2) do
    local attributes = layout:layoutAttributesForItem(IndexPath(index, 0))
    attributes.frame = CGRectMake(rect.x, rect.y, rect.width, rect.height)   -- every cell: the visible rect
    local p = index - page
    local scale = clamp(1 - math.abs(p) * SCALE_RATIO, MIN_SCALE, MAX_SCALE)
    local tx = w * TRANSLATION_X * math.abs(p) * (p > 0 and 1 or p < 0 and -1 or 0)
      - (1 - scale) * w / 2 * (p > 0 and -1 or 1)
    local ty = h * TRANSLATION_Y * math.abs(p) - (1 - scale) * h / 2
    tx = clamp(tx, -MAX_TRANSLATION * w, MAX_TRANSLATION * w)
    ty = clamp(ty, -MAX_TRANSLATION * h, MAX_TRANSLATION * h)
    attributes.transform3D = CATransform3DScale(CATransform3DMakeTranslation(tx, ty, 0), scale, scale, 1)
    attributes.zIndex = -math.floor(math.abs(p) + 0.5)   -- −|round(p)|, halves away from zero as in Swift
    local near = 1 - math.min(1, math.abs(p))
    attributes.shadowOpacity = 0.6
    attributes.shadowRadius = math.max(2, near * 13)
    attributes.shadowOffset = CGSizeMake(0, 2 + 4 * near)
    elements[#elements + 1] = attributes
  end
  return elements
end

scenarios = {
  swipe = {
    viewport = "414x736", items = 6, fps = 30,
    steps = {
      { jump = 0 },
      { drag = 100, duration = 0.8 },   -- short and slow (0.125 pt/ms): back to page 0
      { wait = 0.2 },
      { drag = 120, duration = 0.1 },   -- a quick swipe: the next page
      { wait = 0.2 },
      { scrollToItem = 4, duration = 0.6 },
    },
  },
}
