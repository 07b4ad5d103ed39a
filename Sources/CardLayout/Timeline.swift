/// What the scroll view is doing during a frame.
public enum CardScrollPhase: String, Hashable, Sendable {
    /// At rest.
    case idle
    /// A finger moves the content.
    case dragging
    /// Released, slowing down towards the target.
    case decelerating
    /// Springing back onto the target or an edge (bounce, scrollToItem, resize).
    case settling
}

/// One rendered moment: where the content is and every visible item's attributes.
public struct Frame: Hashable, Sendable {
    /// Seconds since the scenario began.
    public var time: Double
    public var contentOffset: Point
    public var phase: CardScrollPhase
    /// The viewport size during this frame (changes only on a resize step).
    public var viewportSize: Size
    /// Every item whose untransformed frame meets the visible rect, by index path (a
    /// layout that wraps: by repetition along the scroll axis, then index path, so an
    /// index path may come more than once).
    public var items: [LayoutAttributes]
    /// The section headers and footers meeting the visible rect, by section then kind
    /// (header first).
    public var supplementary: [SupplementaryAttributes]

    public init(time: Double, contentOffset: Point, phase: CardScrollPhase, viewportSize: Size,
                items: [LayoutAttributes], supplementary: [SupplementaryAttributes] = []) {
        self.time = time
        self.contentOffset = contentOffset
        self.phase = phase
        self.viewportSize = viewportSize
        self.items = items
        self.supplementary = supplementary
    }

    /// The visible rect.
    public var bounds: Rect { Rect(origin: contentOffset, size: viewportSize) }
}

/// A section header or footer in a frame (`UICollectionView.elementKindSectionHeader`,
/// `…Footer`): untransformed, drawn faintly behind the cards.
public struct SupplementaryAttributes: Hashable, Sendable {
    public var kind: SupplementaryKind
    public var section: Int
    public var frame: Rect

    public init(kind: SupplementaryKind, section: Int, frame: Rect) {
        self.kind = kind
        self.section = section
        self.frame = frame
    }
}

/// A release and where the effect decided it comes to rest.
public struct SnapEvent: Hashable, Sendable {
    public var time: Double
    public var proposedContentOffset: Point
    public var velocity: Point
    public var targetContentOffset: Point

    public init(time: Double, proposedContentOffset: Point, velocity: Point,
                targetContentOffset: Point) {
        self.time = time
        self.proposedContentOffset = proposedContentOffset
        self.velocity = velocity
        self.targetContentOffset = targetContentOffset
    }
}

/// The result of running an effect through a scenario: what every renderer draws.
public struct Timeline: Hashable, Sendable {
    /// The script's file name (or the effect's name), as shown in output.
    public var scriptName: String
    /// The viewport at the start.
    public var viewportSize: Size
    /// The flow configuration after the first `prepare`.
    public var configuration: FlowLayoutConfiguration
    /// `collectionViewContentSize` at the start.
    public var contentSize: Size
    /// Frames per second the timeline was sampled at.
    public var framesPerSecond: Double
    public var frames: [Frame]
    public var snaps: [SnapEvent]
    /// The scenario that was run (its name and steps), when known.
    public var scenario: Scenario?
    /// Whether the effect has its own snapping rule (`targetContentOffset`); when false
    /// every release rests where the scroll view's physics put it, and output says so
    /// instead of calling it a snap.
    public var hasSnapRule: Bool
    /// The script's tweakables (its `params`) and the values the run used, by name;
    /// empty when it declares none.
    public var params: [ParamValue] = []

    public init(scriptName: String, viewportSize: Size, configuration: FlowLayoutConfiguration,
                contentSize: Size, framesPerSecond: Double, frames: [Frame] = [],
                snaps: [SnapEvent] = [], scenario: Scenario? = nil, hasSnapRule: Bool = true) {
        self.scriptName = scriptName
        self.viewportSize = viewportSize
        self.configuration = configuration
        self.contentSize = contentSize
        self.framesPerSecond = framesPerSecond
        self.frames = frames
        self.snaps = snaps
        self.scenario = scenario
        self.hasSnapRule = hasSnapRule
    }
}

/// A tweakable's value in a run (the JSON's `params`).
public struct ParamValue: Hashable, Sendable {
    public var name: String
    public var value: ParamSetting

    public init(name: String, value: ParamSetting) {
        self.name = name
        self.value = value
    }
}

/// Receives a run as it happens, so a caller need not hold every frame (a 60-second
/// scenario at 120 fps is thousands of frames of dozens of items).
///
/// Calls come in order: ``begin(_:)`` once with the run's header (a ``Timeline`` with no
/// frames and no snaps), then ``frame(_:)`` for each frame and ``snap(_:)`` for each
/// release, interleaved as they happen (a release comes after the frame it was made in,
/// before the frames of its motion), then ``end(_:)`` once with the header and every snap
/// (still no frames) when the run succeeded. A run that throws never calls `end`.
public protocol TimelineSink: AnyObject {
    /// The run starts: script name, viewport, configuration, content size, fps, scenario.
    func begin(_ header: Timeline) throws
    /// One more frame.
    func frame(_ frame: Frame) throws
    /// A release and its target, after the frame it happened in.
    func snap(_ snap: SnapEvent) throws
    /// The run ended well; `summary.frames` is empty, `summary.snaps` holds every release.
    func end(_ summary: Timeline) throws
}

extension TimelineSink {
    public func snap(_ snap: SnapEvent) throws {}
    public func end(_ summary: Timeline) throws {}
}

/// A sink that keeps everything: the whole ``Timeline`` (what ``ScenarioRunner/run(_:)``
/// returns). Memory grows with frames × items.
public final class TimelineCollector: TimelineSink {
    /// What has been received so far.
    public private(set) var timeline: Timeline?

    public init() {}

    public func begin(_ header: Timeline) throws { timeline = header }
    public func frame(_ frame: Frame) throws { timeline?.frames.append(frame) }
    public func snap(_ snap: SnapEvent) throws { timeline?.snaps.append(snap) }
}
