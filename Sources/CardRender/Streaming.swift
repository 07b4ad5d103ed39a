import CardLayout

/// Where a streaming renderer writes its text, piece by piece.
///
/// Implemented by ``StringOutput`` (collects in memory) and by the command line's
/// buffered file writer; a write may throw (a full disk), which ends the run.
public protocol TextOutput: AnyObject {
    func write(_ text: String) throws
}

/// A ``TextOutput`` that collects everything into ``text``.
public final class StringOutput: TextOutput {
    public private(set) var text = ""
    public init() {}
    public func write(_ text: String) throws { self.text += text }
}

/// A sink that keeps a bounded, evenly thinned sample of the frames, for the renderers
/// that need the whole timeline at once (the animated SVG, the HTML page).
///
/// A run of at most ``maximumFrames`` frames is kept whole. A longer one keeps every
/// `2^k`-th frame (frame 0, 2^k, 2·2^k, …) for the smallest `k` that fits, plus the
/// last frame, so at most `maximumFrames` frames are held at any time whatever the run's
/// length: memory is bounded by `maximumFrames` × visible items. Snaps are all kept.
public final class TimelineThinner: TimelineSink {
    /// The default bound: 2 000 frames (over 33 s at 60 fps are kept whole).
    public static let defaultMaximumFrames = 2_000

    /// The most frames ever held.
    public let maximumFrames: Int
    /// The header, then (after ``end(_:)``) the thinned timeline.
    public private(set) var timeline: Timeline?
    /// Frames received so far (kept or not).
    public private(set) var receivedFrames = 0

    private var sampled: [(index: Int, frame: Frame)] = []
    private var latest: Frame?
    private var stride = 1

    public init(maximumFrames: Int = TimelineThinner.defaultMaximumFrames) {
        self.maximumFrames = max(2, maximumFrames)
    }

    public func begin(_ header: Timeline) throws { timeline = header }

    public func frame(_ frame: Frame) throws {
        // The previous frame is no longer the last: keep it if it is on the stride.
        if let latest, (receivedFrames - 1) % stride == 0 {
            sampled.append((receivedFrames - 1, latest))
            if sampled.count > maximumFrames - 1 {
                stride *= 2
                sampled.removeAll { $0.index % stride != 0 }
            }
        }
        latest = frame
        receivedFrames += 1
    }

    public func snap(_ snap: SnapEvent) throws { timeline?.snaps.append(snap) }

    public func end(_ summary: Timeline) throws {
        var result = summary
        result.frames = sampled.map(\.frame) + (latest.map { [$0] } ?? [])
        timeline = result
        sampled = []
        latest = nil
    }
}
