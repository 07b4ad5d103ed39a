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
///
/// Thread safety: not `Sendable` (it holds the effect, a class). A run calls the effect
/// on the caller's thread; use a runner and its effect from one thread at a time.
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
                        framesPerSecond: Double = Scenario.defaultFramesPerSecond,
                        layoutDirection: UserInterfaceLayoutDirection = .leftToRight) throws -> Timeline {
        let collector = TimelineCollector()
        try runDemo(viewportSize: viewportSize, numberOfItems: numberOfItems, framesPerSecond: framesPerSecond,
                    layoutDirection: layoutDirection, into: collector)
        return collector.timeline!
    }

    /// The demo, streamed to `sink` (see ``run(_:into:)``).
    public func runDemo(viewportSize: Size = Scenario.defaultViewportSize,
                        numberOfItems: [Int] = Scenario.defaultNumberOfItems,
                        framesPerSecond: Double = Scenario.defaultFramesPerSecond,
                        into sink: some TimelineSink) throws {
        try runDemo(viewportSize: viewportSize, numberOfItems: numberOfItems, framesPerSecond: framesPerSecond,
                    layoutDirection: .leftToRight, into: sink)
    }

    /// The demo in a layout direction (right to left it starts at item 0, on the right,
    /// and flings towards the left), streamed to `sink`.
    public func runDemo(viewportSize: Size, numberOfItems: [Int], framesPerSecond: Double,
                        layoutDirection: UserInterfaceLayoutDirection, into sink: some TimelineSink) throws {
        var bare = Scenario(name: "demo", viewportSize: viewportSize, numberOfItems: numberOfItems,
                            framesPerSecond: framesPerSecond, steps: [])
        bare.layoutDirection = layoutDirection
        try bare.validate()
        let prepared = try prepare(bare)
        var demo = Scenario.demo(viewportSize: viewportSize, numberOfItems: numberOfItems,
                                 framesPerSecond: framesPerSecond, layout: prepared.layout)
        demo.layoutDirection = layoutDirection
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
        configuration.layoutDirection = scenario.layoutDirection
        return try SimulatedScrollView.prepare(effect: effect, configuration: configuration,
                                               viewportSize: scenario.viewportSize,
                                               numberOfItems: scenario.numberOfItems, scenarioName: scenario.name)
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

/// One run: the scenario's steps played on a ``SimulatedScrollView`` with a
/// frame-by-frame clock (frame `i` at `i / fps`), each frame handed to the sink.
private struct Session {
    typealias Activity = SimulatedScrollView.Activity

    let scenario: Scenario
    let maxFrames: Int
    var view: SimulatedScrollView
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
        self.scenario = scenario
        self.maxFrames = maxFrames
        self.view = SimulatedScrollView(effect: effect, scenarioName: scenario.name, configuration: configuration,
                                        layout: layout, numberOfItems: scenario.numberOfItems)
        // UIKit's offsets count from the content's left edge: a mirrored horizontal flow
        // starts where item 0 is, at the largest offset.
        self.offset = view.startOffset
    }

    var fps: Double { scenario.framesPerSecond }
    var kind: String { scenario.steps.indices.contains(stepIndex) ? scenario.steps[stepIndex].kind : "start" }

    // MARK: Steps

    mutating func perform(_ step: ScenarioStep) throws {
        switch step {
        case let .jump(offset):
            try emit(offset, .idle, .idle)
        case let .drag(distance, seconds, velocity):
            try beginIfNeeded()
            try drag(by: distance, seconds: seconds, releaseVelocity: velocity)
        case let .fling(velocity):
            try beginIfNeeded()
            if view.canScroll {
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
            let target = try view.resize(to: size, from: offset)
            try emit(target, .idle, .idle)
        case let .autoplay(interval, seconds):
            try beginIfNeeded()
            try autoplay(interval: interval, seconds: seconds)
        }
    }

    /// Every `interval` seconds for `seconds`, an advance (``SimulatedScrollView/autoplayAdvance(from:current:time:stepIndex:kind:)``)
    /// eased like `scrollToItem`. Advance k fires at the frame of time k·interval after
    /// the step's start (that frame still at rest), then moves over the animation length
    /// (cut to the interval), the last frame at rest on the target; idle frames between.
    /// Each advance goes on from the item nearest the centre where the previous one
    /// rested, or — when the content could not move (an edge) — from the item it aimed
    /// at, so an autoplay never sticks at an edge: it reaches the last item and goes back
    /// to the first.
    mutating func autoplay(interval: Double, seconds: Double) throws {
        let animation = min(ScrollPhysics.defaultScrollAnimationDuration, interval)
        // The whole step's frames, checked before anything runs; validate() keeps the
        // interval at least a frame long, so the advances are bounded by the frames too.
        _ = try frameCount(seconds: seconds + animation)
        let endFrame = try frameCount(seconds: seconds)
        let advances = Int((seconds / interval + 1e-9).rounded(.down))
        func fireFrame(_ k: Int) -> Int { Int((Double(k) * interval * fps - 1e-9).rounded(.up)) }
        var emitted = 0
        var current = view.itemNearestCentre(offset: offset)
        var k = 1
        while k <= advances, let from = current {
            let at = fireFrame(k)
            while emitted < at {
                try emit(offset, .idle, .idle)
                emitted += 1
            }
            let time = Double(emittedFrames - 1) / fps
            guard let advance = try view.autoplayAdvance(from: offset, current: from, time: time,
                                                         stepIndex: stepIndex, kind: kind) else { break }
            snaps.append(advance.snap)
            try sink.snap(advance.snap)
            let start = offset, target = advance.target
            if target != start {
                let gap = k < advances ? fireFrame(k + 1) - at : Int.max
                let length = min(animation, Double(gap) / fps)
                let count = min(gap, max(1, try frameCount(seconds: length)))
                let ease = ScrollMotion.easeInOut(from: start, to: target, duration: length * 1000)
                for m in 1...count {
                    if m == count {
                        try emit(target, .idle, .idle)
                    } else {
                        try emit(ease.offset(at: Double(m) * 1000 / fps), .settling, .idle)
                    }
                }
                emitted += count
                current = view.itemNearestCentre(offset: target) ?? advance.next
            } else {
                current = advance.next
            }
            k += 1
        }
        while emitted < endFrame {
            try emit(offset, .idle, .idle)
            emitted += 1
        }
    }

    /// The first frame, at time 0, shows the content at rest before the first step
    /// (a `jump` replaces it).
    mutating func beginIfNeeded() throws {
        if emittedFrames == 0 { try emit(offset, .idle, .idle) }
    }

    /// A drag at constant speed, then the release with the finger's velocity
    /// (`distance/duration`) or, when the step gives one, `releaseVelocity`.
    mutating func drag(by distance: Double, seconds: Double, releaseVelocity: Double?) throws {
        // At least one frame: even an instantaneous drag shows where it left the content.
        let count = max(1, try frameCount(seconds: seconds))
        guard view.canScroll else {
            // The finger moves, the content does not: no drag, so no release either.
            for _ in 1...count { try emit(offset, .idle, .idle) }
            try settleIntoRange()
            return
        }
        let anchor = offset
        let gesture = view.drag(from: offset, by: distance, seconds: seconds)
        for k in 1...count {
            let shown = k == count ? gesture.endOffset : gesture.offset(at: Double(k) * 1000 / fps)
            try emit(shown, .dragging, .dragging)
        }
        try release(velocity: releaseVelocity ?? gesture.releaseVelocity, anchor: anchor)
    }

    /// The finger lifts at the current offset (see ``SimulatedScrollView/release(from:velocity:anchor:time:stepIndex:kind:)``),
    /// then the motion to rest.
    mutating func release(velocity: Double, anchor: Double) throws {
        let time = Double(emittedFrames - 1) / fps
        let release = try view.release(from: offset, velocity: velocity, anchor: anchor, time: time,
                                       stepIndex: stepIndex, kind: kind)
        snaps.append(release.snap)
        try sink.snap(release.snap)
        try play(release.motions, .decelerating, clampedTo: release.clamp)
    }

    /// Content that cannot scroll but was left outside its range (by a `jump`) springs
    /// back into it, as after a release with no velocity; inside, nothing happens.
    mutating func settleIntoRange() throws {
        guard let spring = view.settleMotion(from: offset) else { return }
        try play([spring], .decelerating)
    }

    mutating func scroll(to indexPath: CardIndexPath, seconds: Double) throws {
        let target = try view.scrollTarget(for: indexPath, from: offset, stepIndex: stepIndex, kind: kind)
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

    // MARK: Frames

    /// Samples motion segments (played one after another) at the frame rate; the last
    /// frame sits exactly on the end of the last segment and is at rest (phase `idle`,
    /// `isDecelerating` false: UIKit's deceleration has ended when the content stops).
    mutating func play(_ motions: [ScrollMotion], _ activity: Activity,
                       clampedTo limits: ClosedRange<Double>? = nil) throws {
        guard let last = motions.last else { return }
        let total = ScrollMotion.totalDuration(of: motions)
        var count = try frameCount(seconds: total / 1000)
        if count == 0, last.end != offset { count = 1 }
        guard count > 0 else { return }
        for k in 1...count {
            if k == count {
                try emit(last.end, .idle, .idle)
                break
            }
            let sample = ScrollMotion.sample(motions, at: Double(k) * 1000 / fps)
            var value = sample.offset
            if let limits { value = ScrollPhysics.clamp(value, to: limits) }
            try emit(value, sample.phase, activity)
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
    mutating func emit(_ offset: Double, _ phase: CardScrollPhase, _ activity: Activity) throws {
        guard emittedFrames < maxFrames else {
            throw ScenarioError.tooManyFrames(scenario: scenario.name, stepIndex: stepIndex, kind: kind,
                                              limit: maxFrames)
        }
        // An endless carousel's motion can carry the offset anywhere: past the bound a
        // double no longer places the frame (1e20 shows no cards at all).
        guard abs(offset) <= Scenario.maximumMagnitude else {
            throw ScenarioError.valueTooLarge(scenario: scenario.name, stepIndex: stepIndex, kind: kind,
                                              field: "offset", value: offset)
        }
        let frame = try view.frame(offset: offset, time: Double(emittedFrames) / fps, phase: phase,
                                   activity: activity)
        try sink.frame(frame)
        emittedFrames += 1
        self.offset = offset
    }
}
