import Foundation

/// Runs an ``Effect`` through a ``Scenario``: the simulated `UICollectionView` +
/// `UIScrollView` around a flow layout (docs/physics.md describes the scroll physics).
///
/// On start the effect's `prepare` adjusts a default ``FlowLayoutConfiguration`` for the
/// scenario's viewport and a ``FlowLayout`` is built. Then every frame costs one rect
/// query (`layoutAttributesForElements(in: bounds)`) and one `transform` call; every
/// release (a `drag`'s end or a `fling`) records a ``SnapEvent`` and, unless paging is
/// on, asks the effect's `targetContentOffset` once (UIKit never asks a paging scroll
/// view: the page is the target). Content that fits the viewport on the scroll axis does
/// not move unless `bounces` and the axis's `alwaysBounce…` are set; then a drag holds it
/// still and no release happens. The last frame of every motion is `idle`.
///
/// Frames are sampled at the scenario's frame rate: frame `i` is at exactly
/// `i / framesPerSecond` seconds, with no accumulated drift. Errors the effect throws
/// propagate unchanged; problems with the scenario itself are ``ScenarioError``s. The
/// same effect behaviour and scenario always give an identical ``Timeline``.
///
/// ``run(_:into:)`` hands each frame to a ``TimelineSink`` as it is made and keeps none,
/// so a run of any length takes bounded memory; ``run(_:)`` collects them all.
public struct ScenarioRunner {
    /// The safety cap on a timeline's length unless told otherwise: 100 000 frames,
    /// about 28 minutes at 60 fps.
    public static let defaultMaxFrames = 100_000

    /// The effect being run; it is called on the caller's thread, in order.
    public let effect: any Effect
    /// Recorded in the timeline (the script's file name, or the effect's name).
    public let scriptName: String
    /// A run that would produce more frames stops with ``ScenarioError/tooManyFrames(scenario:stepIndex:kind:limit:)``.
    public let maxFrames: Int

    /// A runner for `effect`, recording `scriptName` in its timelines, stopping any run
    /// longer than `maxFrames` frames.
    public init(effect: any Effect, scriptName: String, maxFrames: Int = ScenarioRunner.defaultMaxFrames) {
        self.effect = effect
        self.scriptName = scriptName
        self.maxFrames = maxFrames
    }

    /// Runs `scenario` from offset 0 at rest and returns every frame and snap.
    public func run(_ scenario: Scenario) throws -> Timeline {
        let collector = TimelineCollector()
        try run(scenario, into: collector)
        return collector.timeline!
    }

    /// Runs `scenario`, handing each frame and snap to `sink` as it is made (nothing is
    /// kept here but the snaps): memory stays bounded whatever the run's length.
    public func run(_ scenario: Scenario, into sink: some TimelineSink) throws {
        try scenario.validate()
        let prepared = try prepare(scenario)
        try run(scenario, prepared: prepared, into: sink)
    }

    /// Runs the built-in demo (``Scenario/demo(viewportSize:numberOfItems:framesPerSecond:layout:)``),
    /// measured on the layout the effect prepares for this viewport. `prepare` runs once,
    /// as in ``run(_:)``.
    public func runDemo(viewportSize: Size = Scenario.defaultViewportSize,
                        numberOfItems: [Int] = Scenario.defaultNumberOfItems,
                        framesPerSecond: Double = Scenario.defaultFramesPerSecond) throws -> Timeline {
        let collector = TimelineCollector()
        try runDemo(viewportSize: viewportSize, numberOfItems: numberOfItems, framesPerSecond: framesPerSecond,
                    into: collector)
        return collector.timeline!
    }

    /// The demo, streamed to `sink` (see ``run(_:into:)``).
    public func runDemo(viewportSize: Size = Scenario.defaultViewportSize,
                        numberOfItems: [Int] = Scenario.defaultNumberOfItems,
                        framesPerSecond: Double = Scenario.defaultFramesPerSecond,
                        into sink: some TimelineSink) throws {
        let bare = Scenario(name: "demo", viewportSize: viewportSize, numberOfItems: numberOfItems,
                            framesPerSecond: framesPerSecond, steps: [])
        try bare.validate()
        let prepared = try prepare(bare)
        let demo = Scenario.demo(viewportSize: viewportSize, numberOfItems: numberOfItems,
                                 framesPerSecond: framesPerSecond, layout: prepared.layout)
        try demo.validate()
        try run(demo, prepared: prepared, into: sink)
    }

    /// The layout the effect prepares for a viewport: `prepare` on a default
    /// configuration, then a ``FlowLayout`` (for callers that measure before building a
    /// scenario).
    public func preparedLayout(viewportSize: Size, numberOfItems: [Int]) throws -> FlowLayout {
        let bare = Scenario(name: "prepare", viewportSize: viewportSize, numberOfItems: numberOfItems, steps: [])
        try bare.validate()
        return try prepare(bare).layout
    }

    private func prepare(_ scenario: Scenario) throws -> (configuration: FlowLayoutConfiguration, layout: FlowLayout) {
        var configuration = FlowLayoutConfiguration()
        try effect.prepare(&configuration, viewportSize: scenario.viewportSize)
        try Session.checkRate(configuration, scenario: scenario)
        let layout = FlowLayout(configuration: configuration, viewportSize: scenario.viewportSize,
                                numberOfItemsInSections: scenario.numberOfItems)
        return (configuration, layout)
    }

    private func run(_ scenario: Scenario,
                     prepared: (configuration: FlowLayoutConfiguration, layout: FlowLayout),
                     into sink: some TimelineSink) throws {
        let header = Timeline(scriptName: scriptName, viewportSize: scenario.viewportSize,
                              configuration: prepared.configuration,
                              contentSize: prepared.layout.collectionViewContentSize,
                              framesPerSecond: scenario.framesPerSecond, scenario: scenario)
        try sink.begin(header)
        var session = Session(effect: effect, scenario: scenario, maxFrames: maxFrames,
                              configuration: prepared.configuration, layout: prepared.layout, sink: sink)
        for (index, step) in scenario.steps.enumerated() {
            session.stepIndex = index
            try session.perform(step)
        }
        // A scenario without steps still shows its starting state.
        try session.beginIfNeeded()
        var summary = header
        summary.snaps = session.snaps
        try sink.end(summary)
    }
}

// MARK: - Session

/// The mutable state of one run: the collection view and what has been recorded.
private struct Session {
    /// What the scroll view reports during a frame (`isTracking`, `isDragging`,
    /// `isDecelerating`).
    struct Activity {
        var isTracking = false
        var isDragging = false
        var isDecelerating = false
        static let idle = Activity()
        static let dragging = Activity(isTracking: true, isDragging: true)
        /// After a release, through the bounce as well (UIKit keeps `isDecelerating` true
        /// until the content rests).
        static let decelerating = Activity(isDecelerating: true)
    }

    let effect: any Effect
    let scenario: Scenario
    let maxFrames: Int
    var configuration: FlowLayoutConfiguration
    var layout: FlowLayout
    var viewportSize: Size
    var contentSize: Size
    /// The content offset on the scroll axis.
    var offset = 0.0
    /// Where frames go as they are made (none are kept here).
    let sink: any TimelineSink
    /// Frames handed to `sink` so far.
    var emittedFrames = 0
    var snaps: [SnapEvent] = []
    var stepIndex = 0

    init(effect: any Effect, scenario: Scenario, maxFrames: Int,
         configuration: FlowLayoutConfiguration, layout: FlowLayout, sink: any TimelineSink) {
        self.sink = sink
        self.effect = effect
        self.scenario = scenario
        self.maxFrames = maxFrames
        self.configuration = configuration
        self.layout = layout
        self.viewportSize = scenario.viewportSize
        self.contentSize = layout.collectionViewContentSize
    }

    var axis: ScrollPhysics.Axis { ScrollPhysics.Axis(configuration.scrollDirection) }
    /// `[0, maximumContentOffset]` on the scroll axis.
    var range: ClosedRange<Double> { 0...max(0, axis.value(of: layout.maximumContentOffset)) }
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
    var fps: Double { scenario.framesPerSecond }
    var kind: String { scenario.steps.indices.contains(stepIndex) ? scenario.steps[stepIndex].kind : "start" }

    static func checkRate(_ configuration: FlowLayoutConfiguration, scenario: Scenario) throws {
        let rate = configuration.decelerationRate.rawValue
        guard rate > 0, rate < 1 else {
            throw ScenarioError.invalidDecelerationRate(scenario: scenario.name, rate: rate)
        }
    }

    // MARK: Steps

    mutating func perform(_ step: ScenarioStep) throws {
        switch step {
        case let .jump(offset):
            try emit(offset, .idle, .idle)
        case let .drag(distance, seconds):
            try beginIfNeeded()
            try drag(by: distance, seconds: seconds)
        case let .fling(velocity):
            try beginIfNeeded()
            if canScroll {
                try release(velocity: velocity, anchor: offset)
            } else {
                try settleIntoRange()
            }
        case let .wait(seconds):
            try beginIfNeeded()
            for _ in 0..<(try frameCount(seconds: seconds)) {
                try emit(offset, .idle, .idle)
            }
        case let .scrollToItem(indexPath, seconds):
            try beginIfNeeded()
            try scroll(to: indexPath, seconds: seconds)
        case let .resize(size):
            try beginIfNeeded()
            try resize(to: size)
        }
    }

    /// The first frame, at time 0, shows the content at rest before the first step
    /// (a `jump` replaces it).
    mutating func beginIfNeeded() throws {
        if emittedFrames == 0 { try emit(offset, .idle, .idle) }
    }

    mutating func drag(by distance: Double, seconds: Double) throws {
        // At least one frame: even an instantaneous drag shows where it left the content.
        let count = max(1, try frameCount(seconds: seconds))
        guard canScroll else {
            // The finger moves, the content does not: no drag, so no release either.
            for _ in 1...count { try emit(offset, .idle, .idle) }
            try settleIntoRange()
            return
        }
        let anchor = offset
        let gesture = DragGesture(from: offset, by: distance, duration: seconds * 1000,
                                  range: range, dimension: extent, bounces: configuration.bounces)
        for k in 1...count {
            let shown = k == count ? gesture.endOffset : gesture.offset(at: Double(k) * 1000 / fps)
            try emit(shown, .dragging, .dragging)
        }
        try release(velocity: gesture.releaseVelocity, anchor: anchor)
    }

    /// The finger lifts at the current offset: the proposal (where the scroll would stop
    /// on its own, clamped), the effect's `targetContentOffset`, a snap event, then the
    /// motion to rest.
    ///
    /// With `isPagingEnabled` the page is both proposal and target and the effect is not
    /// asked: UIKit never consults `targetContentOffset` for a paging scroll view ("Stop
    /// offset can not be modified for paging scroll views").
    mutating func release(velocity: Double, anchor: Double) throws {
        let start = offset
        let rate = configuration.decelerationRate.rawValue
        let time = Double(emittedFrames - 1) / fps
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
                throw ScenarioError.invalidTargetContentOffset(scenario: scenario.name, stepIndex: stepIndex,
                                                               kind: kind, offset: answer)
            }
        }
        let snap = SnapEvent(time: time, proposedContentOffset: axis.point(proposed),
                             velocity: axis.point(velocity), targetContentOffset: axis.point(target))
        snaps.append(snap)
        try sink.snap(snap)
        let motions = ScrollPhysics.releaseMotions(from: start, velocity: velocity, target: target,
                                                   rate: rate, range: range, bounces: configuration.bounces)
        // Without bounces UIKit clamps every offset it sets: a spring onto a target near an
        // edge never shows past it.
        try play(motions, .decelerating, clampedTo: configuration.bounces ? nil : range)
    }

    /// Content that cannot scroll but was left outside its range (by a `jump`) springs
    /// back into it, as after a release with no velocity; inside, nothing happens.
    mutating func settleIntoRange() throws {
        guard ScrollPhysics.side(of: offset, in: range) != .inside else { return }
        let edge = ScrollPhysics.clamp(offset, to: range)
        try play([.spring(from: offset, velocity: 0, to: edge, phase: .settling)], .decelerating)
    }

    mutating func scroll(to indexPath: IndexPath, seconds: Double) throws {
        guard let attributes = layout.layoutAttributesForItem(at: indexPath) else {
            throw ScenarioError.itemOutOfRange(scenario: scenario.name, stepIndex: stepIndex, indexPath: indexPath,
                                               itemsInSection: indexPath.section >= 0
                                                   && indexPath.section < layout.numberOfSections
                                                   ? layout.numberOfItems(inSection: indexPath.section) : nil)
        }
        let target = ScrollPhysics.clamp(axis.value(of: attributes.center) - extent / 2, to: range)
        guard seconds > 0 else {
            try emit(target, .idle, .idle)
            return
        }
        // Always the requested length, even for no distance: scripted timing stays predictable.
        let ease = ScrollMotion.easeInOut(from: offset, to: target, duration: seconds * 1000)
        let count = max(1, try frameCount(seconds: seconds))
        for k in 1...count {
            // The last frame is at rest.
            if k == count {
                try emit(target, .idle, .idle)
            } else {
                try emit(ease.offset(at: Double(k) * 1000 / fps), .settling, .idle)
            }
        }
    }

    /// A new viewport: `prepare` again (on the current configuration, as UIKit's layout
    /// object keeps its properties), a new layout, the centred item kept centred.
    mutating func resize(to size: Size) throws {
        let centred = itemNearestCentre()
        var configuration = self.configuration
        try effect.prepare(&configuration, viewportSize: size)
        try Session.checkRate(configuration, scenario: scenario)
        self.configuration = configuration
        self.viewportSize = size
        self.layout = FlowLayout(configuration: configuration, viewportSize: size,
                                 numberOfItemsInSections: scenario.numberOfItems)
        self.contentSize = layout.collectionViewContentSize
        var target = ScrollPhysics.clamp(offset, to: range)
        if let centred, let attributes = layout.layoutAttributesForItem(at: centred) {
            target = ScrollPhysics.clamp(axis.value(of: attributes.center) - extent / 2, to: range)
        }
        try emit(target, .idle, .idle)
    }

    /// The item whose centre is nearest the visible rect's centre on the scroll axis (the
    /// first by index path on a tie). Looks in the visible rect, then in rects twice as
    /// long around the same centre until one holds an item or the content is covered.
    func itemNearestCentre() -> IndexPath? {
        let axis = self.axis
        let bounds = Rect(origin: axis.point(offset), size: viewportSize)
        let centre = axis.value(of: bounds.center)
        let contentExtent = axis.extent(of: contentSize)
        var half = max(extent / 2, 1)
        while true {
            let rect = axis.direction == .horizontal
                ? Rect(x: centre - half, y: 0, width: 2 * half, height: viewportSize.height)
                : Rect(x: 0, y: centre - half, width: viewportSize.width, height: 2 * half)
            var best: (indexPath: IndexPath, distance: Double)?
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

    // MARK: Frames

    /// Samples motion segments (played one after another) at the frame rate; the last
    /// frame sits exactly on the end of the last segment and is at rest (phase `idle`,
    /// `isDecelerating` false: UIKit's deceleration has ended when the content stops).
    mutating func play(_ motions: [ScrollMotion], _ activity: Activity,
                       clampedTo limits: ClosedRange<Double>? = nil) throws {
        guard let last = motions.last else { return }
        let total = motions.reduce(0) { $0 + $1.duration }
        var count = try frameCount(seconds: total / 1000)
        if count == 0, last.end != offset { count = 1 }
        guard count > 0 else { return }
        var segment = 0, segmentStart = 0.0
        for k in 1...count {
            if k == count {
                try emit(last.end, .idle, .idle)
                break
            }
            let t = Double(k) * 1000 / fps
            while segment < motions.count - 1, t >= segmentStart + motions[segment].duration {
                segmentStart += motions[segment].duration
                segment += 1
            }
            var value = motions[segment].offset(at: t - segmentStart)
            if let limits { value = ScrollPhysics.clamp(value, to: limits) }
            try emit(value, motions[segment].phase, activity)
        }
    }

    /// Frames covering `seconds` after the current one: ⌈seconds·fps⌉, with a hair of
    /// tolerance so 0.1 s at 30 fps is 3 frames, not 4. Checked against the cap before
    /// any conversion to `Int` (a huge duration must not trap).
    func frameCount(seconds: Double) throws -> Int {
        let raw = (seconds * fps - 1e-9).rounded(.up)
        guard raw <= Double(maxFrames - emittedFrames) else {
            throw ScenarioError.tooManyFrames(scenario: scenario.name, stepIndex: stepIndex, kind: kind,
                                              limit: maxFrames)
        }
        return raw > 0 ? Int(raw) : 0
    }

    /// One frame: base attributes in the visible rect, the effect's `transform`, handed to the sink.
    mutating func emit(_ offset: Double, _ phase: ScrollPhase, _ activity: Activity) throws {
        guard emittedFrames < maxFrames else {
            throw ScenarioError.tooManyFrames(scenario: scenario.name, stepIndex: stepIndex, kind: kind,
                                              limit: maxFrames)
        }
        let time = Double(emittedFrames) / fps
        let bounds = Rect(origin: axis.point(offset), size: viewportSize)
        var items = layout.layoutAttributesForElements(in: bounds)
        let context = ScrollContext(bounds: bounds, contentSize: contentSize, time: time,
                                    isTracking: activity.isTracking, isDragging: activity.isDragging,
                                    isDecelerating: activity.isDecelerating)
        try effect.transform(&items, layout: layout, context: context)
        try sink.frame(Frame(time: time, contentOffset: bounds.origin, phase: phase,
                             viewportSize: viewportSize, items: items))
        emittedFrames += 1
        self.offset = offset
    }
}
