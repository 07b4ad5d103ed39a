import Foundation

/// Runs an ``Effect`` through a ``Scenario``: the simulated `UICollectionView` +
/// `UIScrollView` around a flow layout (design.md §2, §3).
///
/// On start the effect's `prepare` adjusts a default ``FlowLayoutConfiguration`` for the
/// scenario's viewport and a ``FlowLayout`` is built. Then every frame costs one rect
/// query (`layoutAttributesForElements(in: bounds)`) and one `transform` call; every
/// release (a `drag`'s end or a `fling`) asks the effect's `targetContentOffset` once and
/// records a ``SnapEvent``.
///
/// Frames are sampled at the scenario's frame rate: frame `i` is at exactly
/// `i / framesPerSecond` seconds, with no accumulated drift. Errors the effect throws
/// propagate unchanged; problems with the scenario itself are ``ScenarioError``s. The
/// same effect behaviour and scenario always give an identical ``Timeline``.
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
        try scenario.validate()
        let prepared = try prepare(scenario)
        return try run(scenario, prepared: prepared)
    }

    /// Runs the built-in demo (``Scenario/demo(viewportSize:numberOfItems:framesPerSecond:layout:)``),
    /// measured on the layout the effect prepares for this viewport. `prepare` runs once,
    /// as in ``run(_:)``.
    public func runDemo(viewportSize: Size = Scenario.defaultViewportSize,
                        numberOfItems: [Int] = Scenario.defaultNumberOfItems,
                        framesPerSecond: Double = Scenario.defaultFramesPerSecond) throws -> Timeline {
        let bare = Scenario(name: "demo", viewportSize: viewportSize, numberOfItems: numberOfItems,
                            framesPerSecond: framesPerSecond, steps: [])
        try bare.validate()
        let prepared = try prepare(bare)
        let demo = Scenario.demo(viewportSize: viewportSize, numberOfItems: numberOfItems,
                                 framesPerSecond: framesPerSecond, layout: prepared.layout)
        try demo.validate()
        return try run(demo, prepared: prepared)
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
                     prepared: (configuration: FlowLayoutConfiguration, layout: FlowLayout)) throws -> Timeline {
        var session = Session(effect: effect, scenario: scenario, maxFrames: maxFrames,
                              configuration: prepared.configuration, layout: prepared.layout)
        for (index, step) in scenario.steps.enumerated() {
            session.stepIndex = index
            try session.perform(step)
        }
        // A scenario without steps still shows its starting state.
        try session.beginIfNeeded()
        return Timeline(scriptName: scriptName, viewportSize: scenario.viewportSize,
                        configuration: prepared.configuration,
                        contentSize: prepared.layout.collectionViewContentSize,
                        framesPerSecond: scenario.framesPerSecond,
                        frames: session.frames, snaps: session.snaps)
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
    var frames: [Frame] = []
    var snaps: [SnapEvent] = []
    var stepIndex = 0

    init(effect: any Effect, scenario: Scenario, maxFrames: Int,
         configuration: FlowLayoutConfiguration, layout: FlowLayout) {
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
            try release(velocity: velocity, anchor: offset)
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
        if frames.isEmpty { try emit(offset, .idle, .idle) }
    }

    mutating func drag(by distance: Double, seconds: Double) throws {
        let anchor = offset
        let gesture = DragGesture(from: offset, by: distance, duration: seconds * 1000,
                                  range: range, dimension: extent)
        // At least one frame: even an instantaneous drag shows where it left the content.
        let count = max(1, try frameCount(seconds: seconds))
        for k in 1...count {
            let shown = k == count ? gesture.endOffset : gesture.offset(at: Double(k) * 1000 / fps)
            try emit(shown, .dragging, .dragging)
        }
        try release(velocity: gesture.releaseVelocity, anchor: anchor)
    }

    /// The finger lifts at the current offset: proposal (paged if `isPagingEnabled`),
    /// the effect's `targetContentOffset`, a snap event, then the motion to rest.
    ///
    /// With paging the effect is asked *after* the paging rule, with the paged offset as
    /// the proposal, and its answer is final: a pass-through effect keeps paging, and an
    /// effect can still override it. (UIKit skips `targetContentOffset` for paging scroll
    /// views; asking keeps every release visible to the script.)
    mutating func release(velocity: Double, anchor: Double) throws {
        let start = offset
        let rate = configuration.decelerationRate.rawValue
        var proposed = ScrollPhysics.proposedOffset(from: start, velocity: velocity, rate: rate, range: range)
        if configuration.isPagingEnabled {
            proposed = ScrollPhysics.pagedOffset(releaseOffset: start, velocity: velocity, anchorOffset: anchor,
                                                 pageLength: extent, range: range)
        }
        let time = Double(frames.count - 1) / fps
        let bounds = Rect(origin: axis.point(start), size: viewportSize)
        // During `targetContentOffset` UIKit still reports the drag (`isDragging`), the
        // finger already up (`isTracking` false).
        let context = ScrollContext(bounds: bounds, contentSize: contentSize, time: time,
                                    isTracking: false, isDragging: true, isDecelerating: false)
        let answer = try effect.targetContentOffset(proposed: axis.point(proposed), velocity: axis.point(velocity),
                                                    layout: layout, context: context)
        let target = axis.value(of: answer)
        guard target.isFinite else {
            throw ScenarioError.invalidTargetContentOffset(scenario: scenario.name, stepIndex: stepIndex,
                                                           kind: kind, offset: answer)
        }
        snaps.append(SnapEvent(time: time, proposedContentOffset: axis.point(proposed),
                               velocity: axis.point(velocity), targetContentOffset: axis.point(target)))
        let motions = ScrollPhysics.releaseMotions(from: start, velocity: velocity, target: target,
                                                   rate: rate, range: range)
        try play(motions, .decelerating)
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
            let value = k == count ? target : ease.offset(at: Double(k) * 1000 / fps)
            try emit(value, .settling, .idle)
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
    /// frame sits exactly on the end of the last segment.
    mutating func play(_ motions: [ScrollMotion], _ activity: Activity) throws {
        guard let last = motions.last else { return }
        let total = motions.reduce(0) { $0 + $1.duration }
        var count = try frameCount(seconds: total / 1000)
        if count == 0, last.end != offset { count = 1 }
        guard count > 0 else { return }
        var segment = 0, segmentStart = 0.0
        for k in 1...count {
            if k == count {
                try emit(last.end, last.phase, activity)
                break
            }
            let t = Double(k) * 1000 / fps
            while segment < motions.count - 1, t >= segmentStart + motions[segment].duration {
                segmentStart += motions[segment].duration
                segment += 1
            }
            try emit(motions[segment].offset(at: t - segmentStart), motions[segment].phase, activity)
        }
    }

    /// Frames covering `seconds` after the current one: ⌈seconds·fps⌉, with a hair of
    /// tolerance so 0.1 s at 30 fps is 3 frames, not 4. Checked against the cap before
    /// any conversion to `Int` (a huge duration must not trap).
    func frameCount(seconds: Double) throws -> Int {
        let raw = (seconds * fps - 1e-9).rounded(.up)
        guard raw <= Double(maxFrames - frames.count) else {
            throw ScenarioError.tooManyFrames(scenario: scenario.name, stepIndex: stepIndex, kind: kind,
                                              limit: maxFrames)
        }
        return raw > 0 ? Int(raw) : 0
    }

    /// One frame: base attributes in the visible rect, the effect's `transform`, recorded.
    mutating func emit(_ offset: Double, _ phase: ScrollPhase, _ activity: Activity) throws {
        guard frames.count < maxFrames else {
            throw ScenarioError.tooManyFrames(scenario: scenario.name, stepIndex: stepIndex, kind: kind,
                                              limit: maxFrames)
        }
        let time = Double(frames.count) / fps
        let bounds = Rect(origin: axis.point(offset), size: viewportSize)
        // Capped before the frame is built (tiny items in a big viewport).
        guard var items = layout.layoutAttributesForElements(in: bounds, limit: Scenario.maxItemsPerFrame) else {
            throw ScenarioError.tooManyItemsInFrame(scenario: scenario.name, time: time,
                                                    offset: axis.value(of: bounds.origin),
                                                    limit: Scenario.maxItemsPerFrame)
        }
        let context = ScrollContext(bounds: bounds, contentSize: contentSize, time: time,
                                    isTracking: activity.isTracking, isDragging: activity.isDragging,
                                    isDecelerating: activity.isDecelerating)
        try effect.transform(&items, layout: layout, context: context)
        frames.append(Frame(time: time, contentOffset: bounds.origin, phase: phase,
                            viewportSize: viewportSize, items: items))
        self.offset = offset
    }
}
