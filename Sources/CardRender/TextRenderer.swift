import CardLayout
import Foundation

/// The human-readable text `cardlua run` prints, in two forms:
///
/// - **every frame** (``render(_:columns:color:)``, `cardlua run --frames`): per frame a
///   header, a terminal strip, and a row per item with its centre, scale, rotation about
///   x, y and z in degrees (decomposed from the matrix), alpha and zIndex;
/// - **a summary** (``summary(_:columns:color:)``, `cardlua run`'s default): one screen
///   with the scenario's steps, the motion phase by phase with each release (velocity →
///   proposed → target), and the last frame drawn as the strip and the table.
///
/// Both are also written frame by frame by ``TextTimelineWriter``.
public enum TextRenderer {
    /// Every frame of `timeline`.
    /// - Parameters:
    ///   - columns: width of the terminal strip.
    ///   - color: ANSI colours in the strip (a terminal, `NO_COLOR` unset).
    public static func render(_ timeline: Timeline, columns: Int = 72, color: Bool = false) -> String {
        replay(timeline, TextTimelineWriter(output: StringOutput(), mode: .everyFrame, columns: columns, color: color,
                                            knownFrameCount: timeline.frames.count))
    }

    /// The one-screen summary of `timeline`.
    public static func summary(_ timeline: Timeline, columns: Int = 72, color: Bool = false) -> String {
        replay(timeline, TextTimelineWriter(output: StringOutput(), mode: .summary, columns: columns, color: color))
    }

    /// Feeds a whole timeline to a writer in run order (each snap after the frame it
    /// happened in).
    private static func replay(_ timeline: Timeline, _ writer: TextTimelineWriter) -> String {
        let output = writer.output as! StringOutput
        var snaps = timeline.snaps[...]
        try? writer.begin(timeline)
        for frame in timeline.frames {
            try? writer.frame(frame)
            while let snap = snaps.first, snap.time <= frame.time + 1e-9 {
                try? writer.snap(snap)
                snaps = snaps.dropFirst()
            }
        }
        for snap in snaps { try? writer.snap(snap) }
        var summary = timeline
        summary.frames = []
        try? writer.end(summary)
        return output.text
    }

    /// A scenario step in words.
    static func describe(_ step: ScenarioStep) -> String {
        let n = { (x: Double) in RenderSupport.compact(x, decimals: 3) }
        switch step {
        case let .jump(offset): return "jump to \(n(offset))"
        case let .drag(distance, seconds, velocity):
            let release = velocity.map { ", released at \(n($0)) pt/ms" } ?? ""
            return "drag \(n(distance)) pt over \(n(seconds)) s\(release)"
        case let .fling(velocity): return "fling at \(n(velocity)) pt/ms"
        case let .wait(seconds): return "wait \(n(seconds)) s"
        case let .scrollToItem(indexPath, seconds):
            let label = indexPath.section == 0 ? "\(indexPath.item)" : "\(indexPath.section).\(indexPath.item)"
            return "scroll to item \(label) over \(n(seconds)) s"
        case let .resize(size): return "resize to \(self.size(size))"
        case let .autoplay(interval, seconds): return "autoplay every \(n(interval)) s for \(n(seconds)) s"
        }
    }

    /// A release in an every-frame listing: velocity, proposal, target (marked when the
    /// effect has no snap rule, so the target is the physics' own resting place).
    static func release(_ snap: SnapEvent, _ c: FlowLayoutConfiguration, hasSnapRule: Bool) -> String {
        var out = "release: velocity \(RenderSupport.fixed(axisValue(snap.velocity, c), 3)) pt/ms, "
        out += "proposed \(RenderSupport.fixed(axisValue(snap.proposedContentOffset, c), 2)), "
        out += "target \(RenderSupport.fixed(axisValue(snap.targetContentOffset, c), 2))"
        return hasSnapRule ? out : out + " (no snap rule)"
    }

    /// A release in the summary: velocity → proposed → target, or where it rests when
    /// the effect has no snap rule.
    static func releaseArrow(_ snap: SnapEvent, _ c: FlowLayoutConfiguration, hasSnapRule: Bool) -> String {
        var out = "release: velocity \(RenderSupport.fixed(axisValue(snap.velocity, c), 3)) pt/ms"
        out += " → proposed \(RenderSupport.fixed(axisValue(snap.proposedContentOffset, c), 2))"
        let target = RenderSupport.fixed(axisValue(snap.targetContentOffset, c), 2)
        out += hasSnapRule ? " → target \(target)" : " → rests at \(target) (no snap rule)"
        return out
    }

    static func frameHeader(_ frame: Frame, viewportSize: Size) -> String {
        var out = "t=\(RenderSupport.fixed(frame.time, 3))s  offset (\(RenderSupport.fixed(frame.contentOffset.x, 2)), "
        out += "\(RenderSupport.fixed(frame.contentOffset.y, 2)))  \(frame.phase.rawValue)"
        if frame.viewportSize != viewportSize { out += "  viewport \(size(frame.viewportSize))" }
        return out
    }

    static func runHeader(_ timeline: Timeline) -> String {
        let c = timeline.configuration
        var out = "\(timeline.scriptName): \(size(timeline.viewportSize)) viewport, "
        out += "\(c.scrollDirection.rawValue), item \(size(c.itemSize)), "
        out += "content \(size(timeline.contentSize))"
        if !timeline.params.isEmpty {
            out += ", params " + timeline.params.map { "\($0.name)=\($0.value.number.map { RenderSupport.compact($0, decimals: 3) } ?? $0.value.description)" }
                .joined(separator: " ")
        }
        return out
    }

    static func table(_ items: [LayoutAttributes]) -> String {
        var rows = [["item", "center", "scale", "rotX°", "rotY°", "rotZ°", "alpha", "z"]]
        for item in items {
            let d = Decomposition(item.transform3D)
            let label = item.indexPath.section == 0 ? "\(item.indexPath.item)"
                : "\(item.indexPath.section).\(item.indexPath.item)"
            let scale = abs(d.scaleX - d.scaleY) < 5e-4 ? RenderSupport.fixed(d.scaleX, 3)
                : RenderSupport.fixed(d.scaleX, 3) + "×" + RenderSupport.fixed(d.scaleY, 3)
            rows.append([
                label + (item.isHidden ? " (hidden)" : "") + (item.isBackFaceHidden ? " (facing away)" : ""),
                "(\(RenderSupport.fixed(item.center.x, 1)), \(RenderSupport.fixed(item.center.y, 1)))",
                scale,
                RenderSupport.fixed(d.rotationX * 180 / .pi, 2),
                RenderSupport.fixed(d.rotationY * 180 / .pi, 2),
                RenderSupport.fixed(d.rotationZ * 180 / .pi, 2),
                RenderSupport.fixed(item.alpha, 2),
                "\(item.zIndex)",
            ])
        }
        var widths = [Int](repeating: 0, count: rows[0].count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        var out = ""
        for row in rows {
            var line = "  "
            for (i, cell) in row.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                // Numbers right-aligned, the label left-aligned.
                line += i == 0 ? cell + pad : pad + cell
                if i < row.count - 1 { line += "  " }
            }
            out += line + "\n"
        }
        return out
    }

    static func axisValue(_ p: Point, _ c: FlowLayoutConfiguration) -> Double {
        c.scrollDirection == .horizontal ? p.x : p.y
    }

    static func size(_ s: Size) -> String {
        "\(RenderSupport.compact(s.width, decimals: 2))x\(RenderSupport.compact(s.height, decimals: 2))"
    }
}
