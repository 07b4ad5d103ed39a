/// Scripts whose scenarios scroll to items and autoplay (no shipped script autoplays), for
/// the proof that the export's `scrollToItem` helpers land where the engine's steps land
/// and that its autoplay driver rests where the engine's `autoplay` steps rest.
enum MotionCorpus {
    /// A horizontal carousel that snaps the nearest card to the middle: the autoplay runs
    /// past the last card (clamped, then back to the first), from off-centre offsets and
    /// from past an edge; `scrollToItem` goes to the first, a middle and the last card.
    static let snapping = """
    -- Cards that shrink away from the middle and snap to it; scenarios that scroll and autoplay.
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(250, 380)
      layout.minimumLineSpacing = 22
      layout.sectionInset = UIEdgeInsetsMake(0, 30, 0, 60)
    end

    function transform(attributes, layout)
      local bounds = layout.collectionView.bounds
      local distance = math.abs(attributes.center.x - bounds.midX) / bounds.width
      local scale = 1 - math.min(distance, 1) * 0.3
      attributes.transform = CGAffineTransformMakeScale(scale, scale)
      attributes.center = CGPointMake(attributes.center.x + distance * 40, attributes.center.y)
    end

    function targetContentOffset(proposed, velocity, layout)
      local width = layout.collectionView.bounds.width
      local best, nearest = proposed.x, 1e9
      for _, a in ipairs(layout:layoutAttributesForElements(CGRectMake(proposed.x - width, 0, 3 * width, 736))) do
        local offset = a.center.x - width / 2
        if math.abs(offset - proposed.x) < nearest then
          best, nearest = offset, math.abs(offset - proposed.x)
        end
      end
      return CGPointMake(best, proposed.y)
    end

    scenarios = {
      tour = {
        viewport = "414x736", items = 7, fps = 30,
        steps = {
          { scrollToItem = 3, duration = 0.3 },
          { scrollToItem = 0 },
          { scrollToItem = 6, duration = 0 },
          { scrollToItem = { item = 2, section = 0 }, duration = 0.5 },
          { jump = 130 },
          { autoplay = 1, duration = 9 },       -- past the last card, back to the first
          { drag = -60, duration = 0.2 },
          { autoplay = 0.5, duration = 2.5 },
          { jump = -45 },
          { autoplay = 0.4, duration = 1.2 },
          { resize = "736x414" },
          { scrollToItem = 5 },
          { autoplay = 2, duration = 6 },
        },
      },
      backwards = {
        viewport = "375x667", items = 4, rtl = true,
        steps = {
          { scrollToItem = 1 },
          { autoplay = 1, duration = 5 },
        },
      },
    }
    """

    /// A vertical flow in sections without a targetContentOffset (UIKit's default: the
    /// proposal stands): the autoplay crosses sections and skips an empty one.
    static let sections = """
    -- A vertical list of cards in sections, fading away from the middle.
    function prepare(layout)
      layout.scrollDirection = "vertical"
      layout.itemSize = CGSizeMake(300, 140)
      layout.minimumLineSpacing = 16
      layout.sectionInset = UIEdgeInsetsMake(20, 37, 30, 37)
    end

    function transform(attributes, layout)
      local bounds = layout.collectionView.bounds
      attributes.alpha = 1 - math.min(math.abs(attributes.center.y - bounds.midY) / bounds.height, 0.6)
    end

    scenarios = {
      sections = {
        viewport = "375x667", items = { 3, 0, 4, 2 },
        steps = {
          { scrollToItem = 1, section = 2 },
          { scrollToItem = { item = 1, section = 3 } },
          { scrollToItem = 0, section = 0, duration = 0 },
          { autoplay = 0.8, duration = 8 },
        },
      },
    }
    """

    static let cases: [(name: String, fileName: String, className: String, source: String)] = [
        ("motion (snapping carousel)", "motion-snapping.lua", "MotionSnappingLayout", snapping),
        ("motion (sections, vertical)", "motion-sections.lua", "MotionSectionsLayout", sections),
    ]

    /// Shipped scripts whose scenarios have `scrollToItem` or `autoplay` steps and that export
    /// (wrap-carousel.lua has them too but wraps, which the export refuses).
    static let shippedScripts = ["scripts/paging-layout.lua", "scripts/stacked-deck.lua"]
}
