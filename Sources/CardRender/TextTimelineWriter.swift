import CardLayout

/// ``TextRenderer``'s text, written as a run goes.
///
/// Every-frame mode holds one frame back (a release made in a frame is printed under it,
/// and it arrives after the frame) and the frame before it, to fold repeats. Summary mode
/// holds the last frame, the releases and, per stretch of frames in one phase moving one
/// way, its first and last time and offset (no items).
public final class TextTimelineWriter: TimelineSink {
    /// What is written.
    public enum Mode: Sendable {
        /// Every frame, identical frames folded into one line.
        case everyFrame
        /// One screen: steps, motion phase by phase with releases, the last frame.
        case summary
    }

    let output: any TextOutput
    let mode: Mode
    let columns: Int
    let color: Bool
    /// When the frame count is known before the run (a whole timeline), every-frame mode
    /// puts it in the first line, as it always did; otherwise it closes the text.
    let knownFrameCount: Int?

    private var header: Timeline?
    private var frames = 0
    // Every-frame mode.
    private var pending: Frame?
    private var pendingSnaps: [SnapEvent] = []
    private var previous: Frame?
    private var repeats: (count: Int, until: Double) = (0, 0)
    // Summary mode.
    /// A frame without its items: all a phase entry needs.
    private struct Moment {
        var time: Double
        var contentOffset: Point
        var viewportSize: Size
        init(_ frame: Frame) {
            time = frame.time
            contentOffset = frame.contentOffset
            viewportSize = frame.viewportSize
        }
    }
    private struct PhaseRun {
        var phase: CardScrollPhase
        var start: Moment
        var end: Moment
        var snaps: [SnapEvent] = []
        /// −1 or +1 once the offset has moved along the scroll axis, else 0.
        var direction = 0
    }
    private var runs: [PhaseRun] = []
    private var lastFrame: Frame?
    private var earlySnaps: [SnapEvent] = []

    /// - Parameters:
    ///   - columns: width of the terminal strip.
    ///   - color: ANSI colours in the strip.
    public init(output: any TextOutput, mode: Mode, columns: Int = 72, color: Bool = false,
                knownFrameCount: Int? = nil) {
        self.output = output
        self.mode = mode
        self.columns = columns
        self.color = color
        self.knownFrameCount = knownFrameCount
    }

    public func begin(_ header: Timeline) throws {
        self.header = header
        guard mode == .everyFrame else { return }
        var line = TextRenderer.runHeader(header)
        if let count = knownFrameCount { line += ", \(count) frame" + (count == 1 ? "" : "s") }
        try output.write(line + "\n")
    }

    public func frame(_ frame: Frame) throws {
        frames += 1
        switch mode {
        case .everyFrame:
            if let pending { try write(pending) }
            pending = frame
        case .summary:
            // One entry per stretch in one phase, moving one way (a run of scrolls back
            // and forth is several entries, a stay at rest one).
            let configuration = header?.configuration ?? FlowLayoutConfiguration()
            let axis = { (p: Point) in TextRenderer.axisValue(p, configuration) }
            lastFrame = frame
            if var last = runs.last, last.phase == frame.phase, last.end.viewportSize == frame.viewportSize {
                let delta = axis(frame.contentOffset) - axis(last.end.contentOffset)
                let direction = delta > 0 ? 1 : delta < 0 ? -1 : 0
                if direction == 0 || last.direction == 0 || direction == last.direction {
                    if last.direction == 0 { last.direction = direction }
                    last.end = Moment(frame)
                    runs[runs.count - 1] = last
                    return
                }
                // Turned back: the new stretch starts where the last one ended.
                runs.append(PhaseRun(phase: frame.phase, start: last.end, end: Moment(frame), direction: direction))
            } else {
                runs.append(PhaseRun(phase: frame.phase, start: Moment(frame), end: Moment(frame)))
            }
        }
    }

    public func snap(_ snap: SnapEvent) throws {
        switch mode {
        case .everyFrame:
            pendingSnaps.append(snap)
        case .summary:
            if runs.isEmpty { earlySnaps.append(snap) } else { runs[runs.count - 1].snaps.append(snap) }
        }
    }

    public func end(_ summary: Timeline) throws {
        switch mode {
        case .everyFrame:
            if let pending { try write(pending) }
            pending = nil
            flushRepeats()
            if knownFrameCount == nil { buffer += "\n\(frames) frame\(frames == 1 ? "" : "s")\n" }
            try output.write(buffer)
            buffer = ""
        case .summary:
            try output.write(summaryText(summary))
        }
    }

    // MARK: Every frame

    private var buffer = ""

    private func flushRepeats() {
        guard repeats.count > 0 else { return }
        buffer += "  … the same for \(repeats.count) more frame\(repeats.count == 1 ? "" : "s"), "
        buffer += "until t=\(RenderSupport.fixed(repeats.until, 3))s\n"
        repeats = (0, 0)
    }

    private func write(_ frame: Frame) throws {
        guard let header else { return }
        let c = header.configuration
        let released = pendingSnaps.first.map { $0.time <= frame.time + 1e-9 } ?? false
        // Frames identical to the one before but for the time (at rest, say) are folded
        // into one line, so a timeline stays readable.
        if let previous, !released, previous.contentOffset == frame.contentOffset,
           previous.phase == frame.phase, previous.viewportSize == frame.viewportSize,
           previous.items == frame.items {
            repeats = (repeats.count + 1, frame.time)
            return
        }
        flushRepeats()
        previous = frame
        buffer += "\n" + TextRenderer.frameHeader(frame, viewportSize: header.viewportSize) + "\n"
        while let snap = pendingSnaps.first, snap.time <= frame.time + 1e-9 {
            buffer += "  " + TextRenderer.release(snap, c, hasSnapRule: header.hasSnapRule) + "\n"
            pendingSnaps.removeFirst()
        }
        buffer += TerminalStrip.render(frame: frame, columns: columns, color: color,
                                       direction: c.scrollDirection) + "\n"
        buffer += TextRenderer.table(frame.items)
        try output.write(buffer)
        buffer = ""
    }

    // MARK: Summary

    /// At most this many rows in the summary's table: the items nearest the centre.
    static let summaryRows = 12

    /// The `count` items whose centres are nearest the visible rect's centre, in index
    /// path order.
    private func nearestCentre(_ frame: Frame, count: Int) -> [LayoutAttributes] {
        guard frame.items.count > count else { return frame.items }
        let centre = frame.bounds.center
        func distance(_ a: LayoutAttributes) -> Double {
            let dx = a.center.x - centre.x, dy = a.center.y - centre.y
            return dx * dx + dy * dy
        }
        let nearest = frame.items.indices.sorted { (distance(frame.items[$0]), $0) < (distance(frame.items[$1]), $1) }
        return nearest.prefix(count).sorted().map { frame.items[$0] }
    }

    private func summaryText(_ summary: Timeline) -> String {
        let c = summary.configuration
        let axis = { (p: Point) in RenderSupport.fixed(TextRenderer.axisValue(p, c), 2) }
        var out = TextRenderer.runHeader(summary) + "\n"
        let fps = RenderSupport.compact(summary.framesPerSecond, decimals: 3)
        let seconds = runs.last.map { RenderSupport.fixed($0.end.time, 3) } ?? "0.000"
        let name = summary.scenario.map { "scenario \($0.name)" } ?? "run"
        out += frames == 1 ? "\(name): 1 frame\n" : "\(name): \(frames) frames at \(fps) fps, t=0…\(seconds)s\n"
        if let steps = summary.scenario?.steps, !steps.isEmpty {
            let width = String(steps.count).count
            for (index, step) in steps.enumerated() {
                let number = String(index + 1)
                out += "  " + String(repeating: " ", count: width - number.count) + number + ". "
                out += TextRenderer.describe(step) + "\n"
            }
        }
        if runs.count > 1 || !earlySnaps.isEmpty || summary.snaps.count > 0 {
            out += "\nmotion (offset on the \(c.scrollDirection == .horizontal ? "x" : "y") axis):\n"
            for snap in earlySnaps { out += "  " + TextRenderer.releaseArrow(snap, c, hasSnapRule: summary.hasSnapRule) + "\n" }
            let times = runs.map { run -> String in
                let a = RenderSupport.fixed(run.start.time, 3), b = RenderSupport.fixed(run.end.time, 3)
                return a == b ? "t=\(a)s" : "t=\(a)–\(b)s"
            }
            let timeWidth = times.map(\.count).max() ?? 0
            let phaseWidth = runs.map(\.phase.rawValue.count).max() ?? 0
            for (index, run) in runs.enumerated() {
                var line = "  " + times[index] + String(repeating: " ", count: timeWidth - times[index].count)
                line += "  " + run.phase.rawValue + String(repeating: " ", count: phaseWidth - run.phase.rawValue.count)
                let from = axis(run.start.contentOffset), to = axis(run.end.contentOffset)
                line += from == to ? "  at \(from)" : "  \(from) → \(to)"
                if run.start.viewportSize != summary.viewportSize {
                    line += "  viewport \(TextRenderer.size(run.start.viewportSize))"
                }
                out += line + "\n"
                for snap in run.snaps {
                    out += "    " + TextRenderer.releaseArrow(snap, c, hasSnapRule: summary.hasSnapRule) + "\n"
                }
            }
        }
        if let last = lastFrame {
            // The last frame of a release's motion sits exactly on its target.
            let onTarget = summary.snaps.last.map {
                TextRenderer.axisValue($0.targetContentOffset, c) == TextRenderer.axisValue(last.contentOffset, c)
            } ?? false
            out += "\n" + (last.phase == .idle || onTarget ? "at rest, " : "last frame, ")
            out += TextRenderer.frameHeader(last, viewportSize: summary.viewportSize) + "\n"
            out += TerminalStrip.render(frame: last, columns: columns, color: color,
                                        direction: c.scrollDirection) + "\n"
            out += TextRenderer.table(nearestCentre(last, count: Self.summaryRows))
            if last.items.count > Self.summaryRows {
                out += "  … and \(last.items.count - Self.summaryRows) more items (all of them: --frames)\n"
            }
        }
        if frames > 1 { out += "\n(every frame: --frames)\n" }
        return out
    }
}
