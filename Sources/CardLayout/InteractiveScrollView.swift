import Foundation

/// A live `UICollectionView` + `UIScrollView` around an ``Effect``, driven by input events
/// as they happen — what a playground page needs — with the physics and effect calls of
/// ``ScenarioRunner`` (both drive the same simulated scroll view).
///
/// Time is seconds since the session began, on one monotonic clock shared by the input
/// methods and ``frames(until:)``. An event stamped earlier than the latest one counts as
/// happening at the latest one. Frames are sampled at exactly `i / framesPerSecond`; a
/// frame at an event's time shows the state after the event. Between events a motion in
/// progress carries on (deceleration, bounce, `scrollToItem`'s ease), the dragged content
/// stays where the finger last put it, and content at rest gives `idle` frames.
///
/// Frames are made only when fetched: input methods only change the state (the effect's
/// `transform` runs in ``frames(until:)``), so an input's round trip costs the frames due
/// since the last fetch. The only effect calls an input makes are `prepare` (``init(effect:viewportSize:numberOfItems:framesPerSecond:)``,
/// ``resize(to:at:)``, ``reload(effect:at:)``) and `targetContentOffset`
/// (``release(velocity:at:)``).
///
/// Signs follow the input, not the content: ``drag(to:at:)`` takes the finger's
/// translation and ``release(velocity:at:)`` the finger's velocity, in view coordinates
/// (as `UIPanGestureRecognizer.translation(in:)` and `velocity(in:)` report them, the
/// velocity in points per millisecond): a finger moving left (negative x) increases the
/// horizontal content offset. ``scroll(byWheel:at:)`` takes a wheel's delta as a browser
/// reports it (`WheelEvent.deltaX`/`deltaY`), which already points the way the content
/// offset goes. Only the scroll axis's component of each counts.
///
/// The session records what happened as scenario steps; ``recordedScenario(named:)``
/// returns them as a ``Scenario`` whose run through ``ScenarioRunner`` makes the same
/// releases (same proposals, velocities and targets) and rests on the same offsets.
/// Frame times differ: a scenario advances in whole frames.
///
/// The states between the last frame made and the latest event are kept until frames
/// are fetched: a caller fetches them (``frames(until:)``) or skips them
/// (``skipFrames(until:)``) as time goes on.
///
/// Thread safety: not `Sendable`. A session is used from one thread at a time; the
/// effect is called on that thread, in order.
public final class InteractiveScrollView {
    /// What the scroll view is doing at one moment, for a page's panel.
    public struct State: Hashable, Sendable {
        /// Seconds since the session began.
        public var time: Double
        /// `collectionView.contentOffset`.
        public var contentOffset: Point
        /// The phase a frame at this moment shows.
        public var phase: CardScrollPhase
        /// A finger is on the content (`isTracking`).
        public var isTracking: Bool
        /// A finger has moved the content (`isDragging`).
        public var isDragging: Bool
        /// The content moves on its own after a release (`isDecelerating`).
        public var isDecelerating: Bool
        /// The latest release: velocity, proposal and the effect's target.
        public var lastSnap: SnapEvent?
        /// The item whose centre is nearest the visible rect's centre on the scroll axis.
        public var centredItem: CardIndexPath?
        /// The collection view's size.
        public var viewportSize: Size
        /// `collectionViewContentSize`.
        public var contentSize: Size
        /// The scrollable range on the scroll axis, `0...maximumContentOffset`; unbounded
        /// (−∞…+∞) for a layout that wraps.
        public var contentOffsetRange: ClosedRange<Double>
    }

    /// An input the session cannot take. The effect's own errors (and a deceleration rate
    /// or target it answers that cannot be used, ``ScenarioError``) propagate unchanged.
    public enum InputError: Error, Hashable, Sendable, CustomStringConvertible {
        /// A time, translation, velocity, delta or duration is NaN or infinite.
        case nonFiniteValue(field: String, value: Double)
        /// A duration is negative.
        case negativeDuration(Double)
        /// A viewport that is not positive and finite.
        case invalidViewportSize(Size)
        /// `scrollToItem` names an item that does not exist.
        case itemOutOfRange(CardIndexPath)
        /// Frames per second that are not a positive finite number.
        case invalidFramesPerSecond(Double)
        /// A section with a negative number of items.
        case negativeItemCount(section: Int, count: Int)

        public var description: String {
            switch self {
            case let .nonFiniteValue(field, value): "\(field) must be a finite number (got \(value))"
            case let .negativeDuration(value): "duration must not be negative (got \(value))"
            case let .invalidViewportSize(size):
                "viewport must have a positive width and height (got \(size.width)x\(size.height))"
            case let .itemOutOfRange(indexPath): "no item \(indexPath.item) in section \(indexPath.section)"
            case let .invalidFramesPerSecond(value): "frames per second must be a positive number (got \(value))"
            case let .negativeItemCount(section, count): "section \(section) has a negative number of items (\(count))"
            }
        }
    }

    /// The name errors and the recorded scenario use unless told otherwise.
    public static let sessionName = "live"

    /// Frames per second of ``frames(until:)``.
    public let framesPerSecond: Double
    /// Items per section.
    public let numberOfItems: [Int]
    /// `--rtl`: set on the configuration before every `prepare` (a reload too).
    public let layoutDirection: UserInterfaceLayoutDirection
    /// The latest release.
    public private(set) var lastSnap: SnapEvent?

    private typealias Activity = SimulatedScrollView.Activity

    /// The scroll view as it is after the latest event.
    private var view: SimulatedScrollView
    /// What the content does from the latest event on.
    private var mode: Mode = .rest(offset: 0)
    /// The states frames have not been made for yet, oldest first; each holds from its
    /// start until the next one's. The last is the current one (`view`, `mode`).
    private var spans: [Span]
    /// The index of the next frame ``frames(until:)`` makes.
    private var nextFrame = 0
    /// The latest event's time.
    private var now = 0.0
    private var recording: Recording

    /// A session at rest at offset 0, time 0: runs the effect's `prepare` on a default
    /// configuration for `viewportSize` (as ``ScenarioRunner`` does) and builds the layout.
    public init(effect: any Effect, viewportSize: Size = Scenario.defaultViewportSize,
                numberOfItems: [Int] = Scenario.defaultNumberOfItems,
                framesPerSecond: Double = Scenario.defaultFramesPerSecond,
                layoutDirection: UserInterfaceLayoutDirection = .leftToRight) throws {
        guard framesPerSecond.isFinite, framesPerSecond > 0 else {
            throw InputError.invalidFramesPerSecond(framesPerSecond)
        }
        guard Scenario.isValidViewport(viewportSize) else { throw InputError.invalidViewportSize(viewportSize) }
        for (section, count) in numberOfItems.enumerated() where count < 0 {
            throw InputError.negativeItemCount(section: section, count: count)
        }
        self.framesPerSecond = framesPerSecond
        self.numberOfItems = numberOfItems
        self.layoutDirection = layoutDirection
        var configuration = FlowLayoutConfiguration()
        configuration.layoutDirection = layoutDirection
        let prepared = try SimulatedScrollView.prepare(effect: effect, configuration: configuration,
                                                       viewportSize: viewportSize,
                                                       numberOfItems: numberOfItems, scenarioName: Self.sessionName)
        view = SimulatedScrollView(effect: effect, scenarioName: Self.sessionName,
                                   configuration: prepared.configuration, layout: prepared.layout,
                                   numberOfItems: numberOfItems)
        // Right to left a horizontal flow starts at its largest offset (item 0), as a
        // scenario does.
        mode = .rest(offset: view.startOffset)
        spans = [Span(start: 0, view: view, mode: mode)]
        recording = Recording(viewportSize: viewportSize, start: 0)
    }

    /// The flow configuration the effect's `prepare` made (after the latest resize or reload).
    public var configuration: FlowLayoutConfiguration { view.configuration }
    /// The layout after the latest resize or reload.
    public var layout: FlowLayout { view.layout }

    // MARK: Input

    /// A finger goes down. A motion in progress stops where it is (UIKit: a touch during
    /// deceleration, a bounce or an animated scroll stops it). A second touch while a
    /// finger is down is ignored (one finger scrolls). Until the finger moves, frames show
    /// phase `idle` with `isTracking` set.
    public func touchDown(at time: Double) throws {
        let t = try advance(to: time)
        if case .touch = mode { return }
        beginTouch(at: t)
    }

    /// The finger has moved by `fingerTranslation` since it went down (view coordinates):
    /// the content follows it 1:1 inside the scrollable range and rubber-bands past an
    /// edge, `(1 − 1/(x·0.55/L + 1))·L` (clamped without `bounces`), exactly as a
    /// scenario's `drag` step. Content that fits the viewport does not move. Without a
    /// preceding ``touchDown(at:)`` the finger goes down at `time` first.
    public func drag(to fingerTranslation: Point, at time: Double) throws {
        try checkFinite(fingerTranslation.x, "translation.x")
        try checkFinite(fingerTranslation.y, "translation.y")
        let t = try advance(to: time)
        if case .touch = mode {} else { beginTouch(at: t) }
        guard case var .touch(touch) = mode else { return }
        // The content goes the other way from the finger.
        touch.distance = -view.axis.value(of: fingerTranslation)
        touch.moved = true
        if touch.scrolls {
            touch.shown = view.drag(from: touch.startOffset, by: touch.distance, seconds: 0).endOffset
        }
        setMode(.touch(touch), at: t)
    }

    /// The finger lifts with `velocity` (the finger's, view coordinates, points per
    /// millisecond: what `UIPanGestureRecognizer.velocity(in:)` measures over the last
    /// ~100 ms, divided by 1000). After a drag this is a scenario release: the proposal,
    /// the effect's `targetContentOffset` (not when paging), a ``SnapEvent`` (``lastSnap``),
    /// then the deceleration or bounce to rest. After a touch that did not drag there is
    /// no release (UIKit asks nothing); content stopped past an edge springs back.
    /// Without a preceding touch the finger goes down and lifts at `time`.
    public func release(velocity: Point, at time: Double) throws {
        try checkFinite(velocity.x, "velocity.x")
        try checkFinite(velocity.y, "velocity.y")
        let t = try advance(to: time)
        if case .touch = mode {} else { beginTouch(at: t) }
        guard case let .touch(touch) = mode else { return }
        guard touch.moved else {
            // A tap: no release. A bounce it stopped resumes from rest.
            if let spring = view.settleMotion(from: touch.shown) {
                recording.append(.jump(offset: spring.end), at: t)
                startMotion([spring], .decelerating, clamp: nil, at: t, from: touch.shown)
            } else {
                // Still at rest: the time the finger was down counts as waiting.
                setMode(.rest(offset: touch.shown), at: t)
            }
            return
        }
        let contentVelocity = -view.axis.value(of: velocity)
        recording.append(.drag(by: touch.distance, duration: t - touch.began, velocity: contentVelocity), at: t)
        guard touch.scrolls else {
            let motions = view.settleMotion(from: touch.shown).map { [$0] } ?? []
            startMotion(motions, .decelerating, clamp: nil, at: t, from: touch.shown)
            return
        }
        let release: SimulatedScrollView.Release
        do {
            release = try view.release(from: touch.shown, velocity: contentVelocity, anchor: touch.startOffset,
                                       time: t, stepIndex: recording.steps.count - 1, kind: "drag")
        } catch {
            setMode(.rest(offset: touch.shown), at: t)
            throw error
        }
        lastSnap = release.snap
        startMotion(release.motions, .decelerating, clamp: release.clamp, at: t, from: touch.shown)
    }

    /// A mouse wheel or trackpad scroll: the content offset moves by `delta`'s scroll-axis
    /// component at once, clamped to the scrollable range. No rubber band: a trackpad
    /// scroll in a browser stops at the edge, and a scenario `jump` reproduces it exactly
    /// (a rubber band would need a release the wheel never makes). A motion in progress
    /// stops first; while a finger is down the wheel is ignored; content that fits the
    /// viewport does not move.
    public func scroll(byWheel delta: Point, at time: Double) throws {
        try checkFinite(delta.x, "delta.x")
        try checkFinite(delta.y, "delta.y")
        let t = try advance(to: time)
        if case .touch = mode { return }
        let offset = stop(at: t)
        let moved = view.canScroll ? offset + view.axis.value(of: delta) : offset
        let target = ScrollPhysics.clamp(moved, to: view.range)
        if target != offset { recording.wheel(to: target, at: t) }
        setMode(.rest(offset: target), at: t)
    }

    /// `scrollToItem(at:at: .centeredHorizontally/.centeredVertically, animated:)`: the
    /// item centred on the scroll axis (clamped), with an ease over `duration` seconds
    /// (phase `settling`; 0 moves at once), from wherever the content is (a motion in
    /// progress stops first). Ignored while a finger is down.
    public func scrollToItem(_ indexPath: CardIndexPath,
                             animated duration: Double = ScrollPhysics.defaultScrollAnimationDuration,
                             at time: Double) throws {
        try checkFinite(duration, "duration")
        guard duration >= 0 else { throw InputError.negativeDuration(duration) }
        let t = try advance(to: time)
        guard view.layout.layoutAttributesForItem(at: indexPath) != nil else {
            throw InputError.itemOutOfRange(indexPath)
        }
        if case .touch = mode { return }
        let offset = stop(at: t)
        let target = try view.scrollTarget(for: indexPath, from: offset, stepIndex: recording.steps.count,
                                          kind: "scrollToItem")
        recording.append(.scrollToItem(indexPath, duration: duration), at: t)
        if duration > 0 {
            // Always the requested length, even for no distance (as the scenario step).
            startMotion([.easeInOut(from: offset, to: target, duration: duration * 1000)], .idle,
                        clamp: nil, at: t, from: offset)
        } else {
            setMode(.rest(offset: target), at: t)
        }
    }

    /// The collection view changes size (a rotation, a resized window), as the scenario
    /// step: `prepare` runs again on the current configuration, the layout is rebuilt, and
    /// the item nearest the centre stays centred (clamped). A motion stops first; a finger
    /// that is down is cancelled (the content stays where it showed, no release).
    public func resize(to size: Size, at time: Double) throws {
        guard Scenario.isValidViewport(size) else { throw InputError.invalidViewportSize(size) }
        let t = try advance(to: time)
        let offset = stopOrCancel(at: t)
        var resized = view
        let target = try resized.resize(to: size, from: offset)
        view = resized
        recording.append(.resize(size), at: t)
        setMode(.rest(offset: target), at: t)
    }

    /// The effect is replaced (its script was saved): `prepare` runs on a fresh default
    /// configuration for the current viewport, the layout is rebuilt, and the content
    /// offset is kept, clamped to the new range. A motion stops first; a finger that is
    /// down is cancelled.
    ///
    /// Frames due before `time` that were not fetched are dropped (the old effect is not
    /// called again), and so is the recording so far: it starts again here, with the
    /// current viewport and a `jump` to the kept offset, since a scenario runs one effect
    /// and the earlier releases were the old effect's. If the new `prepare` throws,
    /// nothing changes but the stopped motion.
    public func reload(effect: any Effect, at time: Double) throws {
        let t = try advance(to: time)
        let offset = stopOrCancel(at: t)
        setMode(.rest(offset: offset), at: t)
        var configuration = FlowLayoutConfiguration()
        configuration.layoutDirection = layoutDirection
        let prepared = try SimulatedScrollView.prepare(effect: effect, configuration: configuration,
                                                       viewportSize: view.viewportSize,
                                                       numberOfItems: numberOfItems, scenarioName: Self.sessionName)
        view = SimulatedScrollView(effect: effect, scenarioName: Self.sessionName,
                                   configuration: prepared.configuration, layout: prepared.layout,
                                   numberOfItems: numberOfItems)
        let kept = ScrollPhysics.clamp(offset, to: view.range)
        nextFrame = max(nextFrame, firstFrame(atOrAfter: t))
        spans = []
        setMode(.rest(offset: kept), at: t)
        recording = Recording(viewportSize: view.viewportSize, start: t)
        recording.append(.jump(offset: kept), at: t)
    }

    // MARK: Output

    /// The frames due up to and including `time` that have not been fetched yet, at
    /// exactly `i / framesPerSecond`, each with the effect's `transform`.
    ///
    /// If the effect throws, the error propagates: the frames made before it in this call
    /// come with the next call, and the failing frame is tried again then (a
    /// ``reload(effect:at:)`` moves past it).
    public func frames(until time: Double) throws -> [Frame] {
        try checkFinite(time, "time")
        var frames = pending
        pending = []
        while true {
            let frameTime = Double(nextFrame) / framesPerSecond
            guard frameTime <= time else { break }
            dropSpans(before: frameTime)
            let span = spans[0]
            let sample = sample(span.mode, at: frameTime)
            do {
                frames.append(try span.view.frame(offset: sample.offset, time: frameTime, phase: sample.phase,
                                                  activity: sample.activity))
            } catch {
                pending = frames
                throw error
            }
            nextFrame += 1
        }
        return frames
    }

    /// The frame at the latest event's time, showing the state after it (what a page
    /// draws at once in answer to an input, a reload or a first look), made exactly as
    /// every frame of ``frames(until:)`` and of a scenario is: the effect's own element
    /// query (or the base attributes in the visible rect, capped), its `transform`, and
    /// the headers and footers. It does not move ``frames(until:)`` on.
    public func frameAtLatestEvent() throws -> Frame {
        let sample = sample(mode, at: now)
        return try view.frame(offset: sample.offset, time: now, phase: sample.phase, activity: sample.activity)
    }

    /// Moves past the frames due up to and including `time` without making them (a page
    /// that was hidden wants the present, not the backlog); ``frames(until:)`` then
    /// starts after `time`.
    public func skipFrames(until time: Double) throws {
        try checkFinite(time, "time")
        pending = []
        nextFrame = max(nextFrame, firstFrame(atOrAfter: time))
        if Double(nextFrame) / framesPerSecond <= time { nextFrame += 1 }
        dropSpans(before: Double(nextFrame) / framesPerSecond)
    }

    /// Where the content is and what the scroll view is doing at `time` (not before the
    /// latest event): the motion in progress evaluated there, or the content at rest.
    public func state(at time: Double) -> State {
        let t = time.isFinite ? max(time, now) : now
        let sample = sample(mode, at: t)
        return State(time: t, contentOffset: view.axis.point(sample.offset), phase: sample.phase,
                     isTracking: sample.activity.isTracking, isDragging: sample.activity.isDragging,
                     isDecelerating: sample.activity.isDecelerating, lastSnap: lastSnap,
                     centredItem: view.itemNearestCentre(offset: sample.offset), viewportSize: view.viewportSize,
                     contentSize: view.contentSize, contentOffsetRange: view.range)
    }

    /// The item whose centre is nearest the visible rect's centre on the scroll axis at
    /// `contentOffset` in the current layout: ``State/centredItem`` for a frame's offset —
    /// from the flow layout's own item positions, not from the frame's items (an effect's
    /// element query may place every card at the bounds' centre).
    public func centredItem(at contentOffset: Point) -> CardIndexPath? {
        view.itemNearestCentre(offset: view.axis.value(of: contentOffset))
    }

    /// Forgets the latest release (``lastSnap``): another effect is played, and the last
    /// release was the old one's.
    public func forgetLastRelease() {
        lastSnap = nil
    }

    /// Starts the recording afresh at `time` (a Record button pressed): from now on
    /// ``recordedScenario(named:)`` holds only what happens from here, beginning with the
    /// current viewport and a `jump` to where the content is — during a motion, where it
    /// comes to rest (the motion is not recorded); with a finger down, where the touch
    /// began (its drag is recorded on release).
    public func startRecording(at time: Double) throws {
        let t = try advance(to: time)
        var fresh = Recording(viewportSize: view.viewportSize, start: t)
        switch mode {
        case let .rest(offset):
            fresh.append(.jump(offset: offset), at: t)
        case let .touch(touch):
            fresh.append(.jump(offset: touch.startOffset), at: t)
        case let .motion(motion):
            let end = motion.motions[motion.motions.count - 1].end
            fresh.append(.jump(offset: motion.clamp.map { ScrollPhysics.clamp(end, to: $0) } ?? end), at: t)
            fresh.restingSince = max(t, motion.began + motion.total / 1000)
        }
        recording = fresh
    }

    /// ``state(at:)`` at the latest event's time.
    public var state: State { state(at: now) }

    /// What has happened since the session began (or since the latest
    /// ``reload(effect:at:)``) as a scenario: the viewport then, the items, the frame rate,
    /// and the steps. Running it through ``ScenarioRunner`` makes the same releases and
    /// rests on the same offsets:
    ///
    /// - a drag and its release is `drag` with the finger's distance, the touch's length
    ///   and the release velocity (``ScenarioStep/drag(by:duration:velocity:)``);
    /// - time at rest between inputs is `wait`;
    /// - a motion stopped by a touch, a wheel, a resize or a reload is a `jump` to where it
    ///   stopped; consecutive wheel scrolls are one `jump` to where the last left the content;
    /// - a tap that stopped a bounce is a `jump` to the edge it springs back to;
    /// - `scrollToItem` and `resize` are themselves.
    ///
    /// A finger still down is not in it (its release is not known yet).
    public func recordedScenario(named name: String = "recorded") -> Scenario {
        var scenario = Scenario(name: name, viewportSize: recording.viewportSize, numberOfItems: numberOfItems,
                                framesPerSecond: framesPerSecond, steps: recording.steps)
        scenario.layoutDirection = layoutDirection
        return scenario
    }

    // MARK: - State

    private enum Mode {
        case rest(offset: Double)
        case touch(Touch)
        case motion(Motion)
    }

    /// A finger on the content.
    private struct Touch {
        /// When it went down.
        var began: Double
        /// The shown offset then (a drag starts from the finger position that shows it).
        var startOffset: Double
        /// The content-offset distance the finger has moved (the opposite of its translation).
        var distance = 0.0
        /// The offset shown now.
        var shown: Double
        /// Whether the finger has moved (then lifting it is a release).
        var moved = false
        /// Whether the content can scroll at all (it does not move otherwise).
        var scrolls: Bool
    }

    /// Motion segments played one after another from `began`.
    private struct Motion {
        var began: Double
        var motions: [ScrollMotion]
        /// Milliseconds.
        var total: Double
        var activity: SimulatedScrollView.Activity
        var clamp: ClosedRange<Double>?
    }

    private struct Span {
        var start: Double
        var view: SimulatedScrollView
        var mode: Mode
    }

    private struct Sample {
        var offset: Double
        var phase: CardScrollPhase
        var activity: SimulatedScrollView.Activity
        /// A motion has ended (or there was none).
        var atRest: Bool
    }

    /// Frames made before an effect error, handed out by the next ``frames(until:)``.
    private var pending: [Frame] = []

    /// The content under `mode` at `time`. A motion's last frame is the first at or after
    /// its end, with the scenario's tolerance (⌈duration·fps − 10⁻⁹⌉ frames): at rest,
    /// exactly on its end, phase `idle`.
    private func sample(_ mode: Mode, at time: Double) -> Sample {
        switch mode {
        case let .rest(offset):
            return Sample(offset: offset, phase: .idle, activity: .idle, atRest: true)
        case let .touch(touch):
            let dragging = touch.moved && touch.scrolls
            return Sample(offset: touch.shown, phase: dragging ? .dragging : .idle,
                          activity: dragging ? .dragging : .tracking, atRest: false)
        case let .motion(motion):
            let elapsed = (time - motion.began) * 1000
            let end = motion.motions[motion.motions.count - 1].end
            if elapsed * framesPerSecond >= motion.total * framesPerSecond - 1e-6 {
                return Sample(offset: end, phase: .idle, activity: .idle, atRest: true)
            }
            let sampled = ScrollMotion.sample(motion.motions, at: elapsed)
            let offset = motion.clamp.map { ScrollPhysics.clamp(sampled.offset, to: $0) } ?? sampled.offset
            return Sample(offset: offset, phase: sampled.phase, activity: motion.activity, atRest: false)
        }
    }

    private func checkFinite(_ value: Double, _ field: String) throws {
        guard value.isFinite else { throw InputError.nonFiniteValue(field: field, value: value) }
    }

    /// The event's time, checked and kept monotonic.
    private func advance(to time: Double) throws -> Double {
        try checkFinite(time, "time")
        now = max(now, time)
        return now
    }

    /// The current state from `time` on.
    private func setMode(_ mode: Mode, at time: Double) {
        self.mode = mode
        let span = Span(start: time, view: view, mode: mode)
        if let last = spans.last, last.start >= time {
            spans[spans.count - 1] = span
        } else {
            spans.append(span)
        }
        // States no frame will show any more (frames before `nextFrame` are made).
        dropSpans(before: Double(nextFrame) / framesPerSecond)
    }

    /// Forgets the spans that end at or before `time`.
    private func dropSpans(before time: Double) {
        var drop = 0
        while drop + 1 < spans.count, spans[drop + 1].start <= time { drop += 1 }
        if drop > 0 { spans.removeFirst(drop) }
    }

    /// The smallest frame index whose time is at or after `time`.
    private func firstFrame(atOrAfter time: Double) -> Int {
        guard time > 0 else { return 0 }
        var index = Int(min((time * framesPerSecond).rounded(.down), Double(Int.max / 2)))
        while index > 0, Double(index - 1) / framesPerSecond >= time { index -= 1 }
        while Double(index) / framesPerSecond < time { index += 1 }
        return index
    }

    /// Ends what the content is doing at `time` so an input can take over, and returns
    /// where it is: a motion stops there (recorded as a `jump`); time at rest is recorded
    /// as a wait. Not for a finger that is down.
    private func stop(at time: Double) -> Double {
        let sample = sample(mode, at: time)
        if sample.atRest {
            recording.wait(until: time)
        } else {
            recording.append(.jump(offset: sample.offset), at: time)
        }
        setMode(.rest(offset: sample.offset), at: time)
        return sample.offset
    }

    /// ``stop(at:)``, or for a finger that is down, the touch cancelled where it shows the
    /// content (a `jump` there if it moved it).
    private func stopOrCancel(at time: Double) -> Double {
        guard case let .touch(touch) = mode else { return stop(at: time) }
        if touch.shown != touch.startOffset { recording.append(.jump(offset: touch.shown), at: time) }
        recording.restingSince = time
        setMode(.rest(offset: touch.shown), at: time)
        return touch.shown
    }

    private func beginTouch(at time: Double) {
        let offset = stop(at: time)
        setMode(.touch(Touch(began: time, startOffset: offset, shown: offset, scrolls: view.canScroll)), at: time)
    }

    /// Plays `motions` from `time` (at rest on `offset` when there are none).
    private func startMotion(_ motions: [ScrollMotion], _ activity: Activity, clamp: ClosedRange<Double>?,
                             at time: Double, from offset: Double) {
        guard !motions.isEmpty else {
            recording.restingSince = time
            setMode(.rest(offset: offset), at: time)
            return
        }
        let total = ScrollMotion.totalDuration(of: motions)
        recording.restingSince = time + total / 1000
        setMode(.motion(Motion(began: time, motions: motions, total: total, activity: activity, clamp: clamp)),
                at: time)
    }
}

// MARK: - Recording

extension InteractiveScrollView {
    /// The steps so far and the bookkeeping that turns time at rest into waits.
    private struct Recording {
        /// The viewport when the recording began.
        var viewportSize: Size
        var steps: [ScenarioStep] = []
        /// When the content came (or will come) to rest after the last step: the next
        /// input's wait is measured from here.
        var restingSince: Double
        /// The index of a wheel's `jump` followed by nothing but waits: the next wheel
        /// scroll replaces it.
        var wheelJump: Int?

        init(viewportSize: Size, start: Double) {
            self.viewportSize = viewportSize
            self.restingSince = start
        }

        /// The time at rest up to `time`, as a wait (merged into a wait just before).
        mutating func wait(until time: Double) {
            let gap = time - restingSince
            guard gap > 0 else { return }
            if case let .wait(seconds)? = steps.last {
                steps[steps.count - 1] = .wait(duration: seconds + gap)
            } else {
                steps.append(.wait(duration: gap))
            }
            restingSince = time
        }

        /// A step made at `time`; the content rests after it from `time` (a motion moves
        /// ``restingSince`` on). A `jump` right after a `jump` replaces it.
        mutating func append(_ step: ScenarioStep, at time: Double) {
            if case .jump = step, case .jump? = steps.last {
                steps[steps.count - 1] = step
            } else {
                steps.append(step)
            }
            restingSince = time
            wheelJump = nil
        }

        /// A wheel scroll to `offset` at `time`: one `jump`, replacing the previous wheel's.
        mutating func wheel(to offset: Double, at time: Double) {
            if let index = wheelJump, index < steps.count {
                steps.remove(at: index)
                // The waits on either side become one.
                if index > 0, index < steps.count, case let .wait(before) = steps[index - 1],
                   case let .wait(after) = steps[index] {
                    steps[index - 1] = .wait(duration: before + after)
                    steps.remove(at: index)
                }
            }
            append(.jump(offset: offset), at: time)
            wheelJump = steps.count - 1
        }
    }
}
