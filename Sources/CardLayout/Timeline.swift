/// What the scroll view is doing during a frame.
public enum ScrollPhase: String, Hashable, Sendable {
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
    public var phase: ScrollPhase
    /// The viewport size during this frame (changes only on a resize step).
    public var viewportSize: Size
    /// Every item whose untransformed frame meets the visible rect, by index path.
    public var items: [LayoutAttributes]

    public init(time: Double, contentOffset: Point, phase: ScrollPhase, viewportSize: Size,
                items: [LayoutAttributes]) {
        self.time = time
        self.contentOffset = contentOffset
        self.phase = phase
        self.viewportSize = viewportSize
        self.items = items
    }

    /// The visible rect.
    public var bounds: Rect { Rect(origin: contentOffset, size: viewportSize) }
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

    public init(scriptName: String, viewportSize: Size, configuration: FlowLayoutConfiguration,
                contentSize: Size, framesPerSecond: Double, frames: [Frame] = [],
                snaps: [SnapEvent] = []) {
        self.scriptName = scriptName
        self.viewportSize = viewportSize
        self.configuration = configuration
        self.contentSize = contentSize
        self.framesPerSecond = framesPerSecond
        self.frames = frames
        self.snaps = snaps
    }
}
