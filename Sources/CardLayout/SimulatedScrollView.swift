import Foundation

/// The simulated `UICollectionView` + `UIScrollView` around one ``Effect``: the prepared
/// flow layout, the viewport, and every decision the scroll view makes — what a frame
/// shows, what a release does, where `scrollToItem` goes, what a resize keeps.
///
/// It holds no clock and no content offset of its own: the two drivers supply both.
/// ``ScenarioRunner`` plays scenario steps on a frame-by-frame clock;
/// ``InteractiveScrollView`` follows input events in real time. Sharing this one type is
/// what makes a live session and the recorded scenario replaying it agree.
struct SimulatedScrollView {
    /// What the scroll view reports during a frame (`isTracking`, `isDragging`,
    /// `isDecelerating`).
    struct Activity: Hashable, Sendable {
        var isTracking = false
        var isDragging = false
        var isDecelerating = false
        static let idle = Activity()
        /// A finger is down but has not moved the content (yet).
        static let tracking = Activity(isTracking: true)
        static let dragging = Activity(isTracking: true, isDragging: true)
        /// After a release, through the bounce as well (UIKit keeps `isDecelerating` true
        /// until the content rests).
        static let decelerating = Activity(isDecelerating: true)
    }

    /// What a release decided: its snap event and the motion to rest.
    struct Release {
        var snap: SnapEvent
        /// Played one after another; empty when nothing moves.
        var motions: [ScrollMotion]
        /// Without `bounces` every offset shown is clamped to the range.
        var clamp: ClosedRange<Double>?
    }

    var effect: any Effect
    var configuration: FlowLayoutConfiguration
    var layout: FlowLayout
    var viewportSize: Size
    var contentSize: Size
    let numberOfItems: [Int]
    /// Named in errors (the scenario's name, or the live session's).
    let scenarioName: String

    init(effect: any Effect, scenarioName: String, configuration: FlowLayoutConfiguration, layout: FlowLayout,
         numberOfItems: [Int]) {
        self.effect = effect
        self.scenarioName = scenarioName
        self.configuration = configuration
        self.layout = layout
        self.viewportSize = layout.viewportSize
        self.contentSize = layout.collectionViewContentSize
        self.numberOfItems = numberOfItems
    }

    /// `prepare` on `configuration` (a fresh default one at the start, with the layout
    /// direction the scenario asks for), the deceleration rate checked, the effect's
    /// per-item and per-section metrics, then the layout.
    static func prepare(effect: any Effect, configuration: FlowLayoutConfiguration = FlowLayoutConfiguration(),
                        viewportSize: Size, numberOfItems: [Int],
                        scenarioName: String) throws -> (configuration: FlowLayoutConfiguration, layout: FlowLayout) {
        var configuration = configuration
        try effect.prepare(&configuration, viewportSize: viewportSize, numberOfItemsInSections: numberOfItems)
        try checkRate(configuration, scenarioName: scenarioName)
        let metrics = try effect.flowLayoutMetrics(configuration: configuration, viewportSize: viewportSize,
                                                   numberOfItems: numberOfItems)
        let layout = FlowLayout(configuration: configuration, viewportSize: viewportSize,
                                numberOfItemsInSections: numberOfItems, metrics: metrics)
        return (configuration, layout)
    }

    static func checkRate(_ configuration: FlowLayoutConfiguration, scenarioName: String) throws {
        let rate = configuration.decelerationRate.rawValue
        guard rate > 0, rate < 1 else {
            throw ScenarioError.invalidDecelerationRate(scenario: scenarioName, rate: rate)
        }
    }

    // MARK: Geometry

    var axis: ScrollPhysics.Axis { ScrollPhysics.Axis(configuration.scrollDirection) }
    /// `[0, maximumContentOffset]` on the scroll axis; unbounded (−∞…+∞) for a layout that
    /// wraps: no edges, so no clamp, rubber band or bounce anywhere.
    var range: ClosedRange<Double> {
        layout.wraps ? -Double.infinity...Double.infinity : 0...max(0, axis.value(of: layout.maximumContentOffset))
    }
    /// Where the content rests before anything moves it: 0, or right to left in a
    /// mirrored horizontal flow the largest offset (item 0 is at the right edge; a
    /// wrapping one: the offset of an unwrapped layout's largest, where item 0 sits right).
    var startOffset: Double {
        guard layout.mirrorWidth != nil && axis.direction == .horizontal else { return 0 }
        return max(0, axis.value(of: layout.maximumContentOffset))
    }
    /// The viewport's extent on the scroll axis.
    var extent: Double { axis.extent(of: viewportSize) }
    /// Whether a finger or a fling may move the content (UIKit's pan gesture does not
    /// scroll content that fits, unless `alwaysBounce…` for the axis, with `bounces`).
    var canScroll: Bool {
        let alwaysBounce = axis.direction == .horizontal
            ? configuration.alwaysBounceHorizontal : configuration.alwaysBounceVertical
        return ScrollPhysics.allowsScrolling(range: range, bounces: configuration.bounces,
                                             alwaysBounce: alwaysBounce)
    }

    // MARK: Frames

    /// One frame at `offset`: the effect's own element query (or the base attributes in
    /// the visible rect), then the effect's `transform`, and the headers and footers
    /// meeting the visible rect.
    func frame(offset: Double, time: Double, phase: CardScrollPhase, activity: Activity) throws -> Frame {
        let bounds = Rect(origin: axis.point(offset), size: viewportSize)
        let context = ScrollContext(bounds: bounds, contentSize: contentSize, time: time,
                                    isTracking: activity.isTracking, isDragging: activity.isDragging,
                                    isDecelerating: activity.isDecelerating)
        var items: [LayoutAttributes]
        if let elements = try effect.layoutAttributesForElements(in: bounds, layout: layout, context: context) {
            items = try Self.ordered(elements, scenarioName: scenarioName, time: time, offset: offset)
        } else {
            // Capped before the frame is built (tiny items in a big viewport).
            guard let base = layout.layoutAttributesForElements(in: bounds, limit: Scenario.maxItemsPerFrame) else {
                throw ScenarioError.tooManyItemsInFrame(scenario: scenarioName, time: time,
                                                        offset: offset, limit: Scenario.maxItemsPerFrame)
            }
            items = base
        }
        try effect.transform(&items, layout: layout, context: context)
        return Frame(time: time, contentOffset: bounds.origin, phase: phase, viewportSize: viewportSize,
                     items: items, supplementary: layout.supplementaryAttributes(in: bounds))
    }

    // MARK: Gestures

    /// A finger going down at the shown offset `start` and moving the content by
    /// `distance` over `seconds` (the rubber band past an edge, or the clamp without
    /// `bounces`).
    func drag(from start: Double, by distance: Double, seconds: Double) -> CardDragGesture {
        CardDragGesture(from: start, by: distance, duration: seconds * 1000,
                    range: range, dimension: extent, bounces: configuration.bounces)
    }

    /// The finger lifts at `start` with `velocity`: the proposal (where the scroll would
    /// stop on its own, clamped), the effect's `targetContentOffset`, a snap event, and
    /// the motion to rest. `anchor` is where the gesture began (paging turns at most one
    /// page from it); `time` is what the effect sees as `layout.time`.
    ///
    /// With `isPagingEnabled` the page is both proposal and target and the effect is not
    /// asked: UIKit never consults `targetContentOffset` for a paging scroll view ("Stop
    /// offset can not be modified for paging scroll views").
    func release(from start: Double, velocity: Double, anchor: Double, time: Double,
                 stepIndex: Int, kind: String) throws -> Release {
        let rate = configuration.decelerationRate.rawValue
        let proposed: Double, target: Double
        if configuration.isPagingEnabled {
            proposed = ScrollPhysics.pagedOffset(releaseOffset: start, velocity: velocity, anchorOffset: anchor,
                                                 pageLength: extent, range: range)
            target = proposed
        } else {
            proposed = ScrollPhysics.proposedOffset(from: start, velocity: velocity, rate: rate, range: range)
            let bounds = Rect(origin: axis.point(start), size: viewportSize)
            // During `targetContentOffset` UIKit still reports the drag (`isDragging`), the
            // finger already up (`isTracking` false).
            let context = ScrollContext(bounds: bounds, contentSize: contentSize, time: time,
                                        isTracking: false, isDragging: true, isDecelerating: false)
            let answer = try effect.targetContentOffset(proposed: axis.point(proposed),
                                                        velocity: axis.point(velocity),
                                                        layout: layout, context: context)
            target = axis.value(of: answer)
            guard target.isFinite else {
                throw ScenarioError.invalidTargetContentOffset(scenario: scenarioName, stepIndex: stepIndex,
                                                               kind: kind, offset: answer)
            }
        }
        let snap = SnapEvent(time: time, proposedContentOffset: axis.point(proposed),
                             velocity: axis.point(velocity), targetContentOffset: axis.point(target))
        let motions = ScrollPhysics.releaseMotions(from: start, velocity: velocity, target: target,
                                                   rate: rate, range: range, bounces: configuration.bounces)
        // Without bounces UIKit clamps every offset it sets: a spring onto a target near an
        // edge never shows past it.
        return Release(snap: snap, motions: motions, clamp: configuration.bounces ? nil : range)
    }

    /// Content left outside its range where no release happens (a jump, a tap that
    /// stopped a bounce, content that cannot scroll) springs back into it, as after a
    /// release with no velocity; nil inside the range.
    func settleMotion(from offset: Double) -> ScrollMotion? {
        guard ScrollPhysics.side(of: offset, in: range) != .inside else { return nil }
        let edge = ScrollPhysics.clamp(offset, to: range)
        return .spring(from: offset, velocity: 0, to: edge, phase: .settling)
    }

    /// `scrollToItem(at:at: .centeredHorizontally/.centeredVertically, …)`'s destination
    /// from `offset`: the item centred on the scroll axis, clamped to the range (a layout
    /// that wraps: its repetition nearest `offset`, the shortest way round).
    func scrollTarget(for indexPath: CardIndexPath, from offset: Double, stepIndex: Int,
                      kind: String) throws -> Double {
        guard let attributes = layout.layoutAttributesForItem(at: indexPath) else {
            throw ScenarioError.itemOutOfRange(scenario: scenarioName, stepIndex: stepIndex, indexPath: indexPath,
                                               itemsInSection: indexPath.section >= 0
                                                   && indexPath.section < layout.numberOfSections
                                                   ? layout.numberOfItems(inSection: indexPath.section) : nil)
        }
        let centred = axis.value(of: attributes.center) - extent / 2
        if let period = layout.wrapPeriod { return Self.nearestRepetition(of: centred, to: offset, period: period) }
        return ScrollPhysics.clamp(centred, to: range)
    }

    /// `prepare` at the viewport `size` (on the current configuration, as UIKit's layout
    /// object keeps its properties) and the layout it gives, adopted.
    mutating func prepareAgain(for size: Size) throws {
        let prepared = try Self.prepare(effect: effect, configuration: configuration, viewportSize: size,
                                        numberOfItems: numberOfItems, scenarioName: scenarioName)
        self.configuration = prepared.configuration
        self.viewportSize = size
        self.layout = prepared.layout
        self.contentSize = layout.collectionViewContentSize
    }

    /// A new viewport: ``prepareAgain(for:)``. Returns the offset that keeps the item
    /// centred at `offset` centred (clamped).
    mutating func resize(to size: Size, from offset: Double) throws -> Double {
        if layout.wraps { return try resizeWrapped(to: size, from: offset) }
        let centred = itemNearestCentre(offset: offset)
        try prepareAgain(for: size)
        var target = ScrollPhysics.clamp(offset, to: range)
        if let centred, let attributes = layout.layoutAttributesForItem(at: centred) {
            target = ScrollPhysics.clamp(axis.value(of: attributes.center) - extent / 2, to: range)
        }
        return target
    }

    /// The item whose centre is nearest the visible rect's centre on the scroll axis at
    /// `offset` (the first by index path on a tie). Looks in the visible rect, then in
    /// rects twice as long around the same centre until one holds an item or the content
    /// is covered.
    func itemNearestCentre(offset: Double) -> CardIndexPath? {
        if layout.wraps { return repeatedItemNearestCentre(offset: offset)?.indexPath }
        let axis = self.axis
        let bounds = Rect(origin: axis.point(offset), size: viewportSize)
        let centre = axis.value(of: bounds.center)
        let contentExtent = axis.extent(of: contentSize)
        var half = max(extent / 2, 1)
        while true {
            let rect = axis.direction == .horizontal
                ? Rect(x: centre - half, y: 0, width: 2 * half, height: viewportSize.height)
                : Rect(x: 0, y: centre - half, width: viewportSize.width, height: 2 * half)
            var best: (indexPath: CardIndexPath, distance: Double)?
            layout.forEachItem(in: rect) { attributes in
                let distance = abs(axis.value(of: attributes.center) - centre)
                if best.map({ distance < $0.distance }) ?? true {
                    best = (attributes.indexPath, distance)
                }
            }
            if let best { return best.indexPath }
            if centre - half <= 0, centre + half >= contentExtent { return nil }
            half *= 2
        }
    }
}

// MARK: - Sampling motions

extension ScrollMotion {
    /// The total length of consecutive segments, milliseconds.
    static func totalDuration(of motions: [ScrollMotion]) -> Double {
        motions.reduce(0) { $0 + $1.duration }
    }

    /// Consecutive segments sampled `time` ms after the first began: the offset and the
    /// phase of the segment playing then (the last one from its end on).
    static func sample(_ motions: [ScrollMotion], at time: Double) -> (offset: Double, phase: CardScrollPhase) {
        var segment = 0, segmentStart = 0.0
        while segment < motions.count - 1, time >= segmentStart + motions[segment].duration {
            segmentStart += motions[segment].duration
            segment += 1
        }
        return (motions[segment].offset(at: time - segmentStart), motions[segment].phase)
    }
}
