import CardLayout
import Foundation

/// The human-readable table `cardlua run` prints: per frame a header, a terminal strip, and a
/// row per item with its centre, scale, rotation about x, y and z in degrees (decomposed
/// from the matrix), alpha and zIndex.
public enum TextRenderer {
    /// - Parameters:
    ///   - columns: width of the terminal strip.
    ///   - color: ANSI colours in the strip (a terminal, `NO_COLOR` unset).
    public static func render(_ timeline: Timeline, columns: Int = 72, color: Bool = false) -> String {
        let c = timeline.configuration
        var out = "\(timeline.scriptName): \(size(timeline.viewportSize)) viewport, "
        out += "\(c.scrollDirection.rawValue), item \(size(c.itemSize)), "
        out += "content \(size(timeline.contentSize)), \(timeline.frames.count) frame"
        out += timeline.frames.count == 1 ? "\n" : "s\n"
        var snaps = timeline.snaps[...]
        // Frames identical to the one before but for the time (at rest, say) are folded
        // into one line, so a timeline stays readable.
        var previous: Frame?
        var repeats: (count: Int, until: Double) = (0, 0)
        func flushRepeats() {
            guard repeats.count > 0 else { return }
            out += "  … the same for \(repeats.count) more frame\(repeats.count == 1 ? "" : "s"), "
            out += "until t=\(RenderSupport.fixed(repeats.until, 3))s\n"
            repeats = (0, 0)
        }
        for frame in timeline.frames {
            let released = snaps.first.map { $0.time <= frame.time + 1e-9 } ?? false
            if let previous, !released, previous.contentOffset == frame.contentOffset,
               previous.phase == frame.phase, previous.viewportSize == frame.viewportSize,
               previous.items == frame.items {
                repeats = (repeats.count + 1, frame.time)
                continue
            }
            flushRepeats()
            previous = frame
            out += "\n"
            out += "t=\(RenderSupport.fixed(frame.time, 3))s  offset (\(RenderSupport.fixed(frame.contentOffset.x, 2)), "
            out += "\(RenderSupport.fixed(frame.contentOffset.y, 2)))  \(frame.phase.rawValue)"
            if frame.viewportSize != timeline.viewportSize { out += "  viewport \(size(frame.viewportSize))" }
            out += "\n"
            while let snap = snaps.first, snap.time <= frame.time + 1e-9 {
                out += "  release: velocity \(RenderSupport.fixed(axisValue(snap.velocity, c), 3)) pt/ms, "
                out += "proposed \(RenderSupport.fixed(axisValue(snap.proposedContentOffset, c), 2)), "
                out += "target \(RenderSupport.fixed(axisValue(snap.targetContentOffset, c), 2))\n"
                snaps = snaps.dropFirst()
            }
            out += TerminalStrip.render(frame: frame, columns: columns, color: color,
                                        direction: c.scrollDirection) + "\n"
            out += table(frame.items)
        }
        flushRepeats()
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
                label + (item.isHidden ? " (hidden)" : ""),
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

    private static func axisValue(_ p: Point, _ c: FlowLayoutConfiguration) -> Double {
        c.scrollDirection == .horizontal ? p.x : p.y
    }

    private static func size(_ s: Size) -> String {
        "\(RenderSupport.compact(s.width, decimals: 2))x\(RenderSupport.compact(s.height, decimals: 2))"
    }
}

/// Scale and rotation read off a transform's upper 3×3 (perspective and translation
/// ignored): row lengths are the scales, and the normalised rows a rotation read as
/// angles about x, y and z. Exact for a rotation about one axis, which is what card
/// effects use; an approximation for compound turns.
public struct Decomposition: Sendable {
    public var scaleX: Double
    public var scaleY: Double
    public var scaleZ: Double
    public var rotationX: Double
    public var rotationY: Double
    public var rotationZ: Double

    public init(_ t: Transform3D) {
        func length(_ a: Double, _ b: Double, _ c: Double) -> Double { (a * a + b * b + c * c).squareRoot() }
        scaleX = length(t.m11, t.m12, t.m13)
        scaleY = length(t.m21, t.m22, t.m23)
        scaleZ = length(t.m31, t.m32, t.m33)
        let sx = scaleX == 0 ? 1 : scaleX, sy = scaleY == 0 ? 1 : scaleY, sz = scaleZ == 0 ? 1 : scaleZ
        let r11 = t.m11 / sx, r12 = t.m12 / sx, r13 = t.m13 / sx
        let r23 = t.m23 / sy, r33 = t.m33 / sz
        // Row vectors: a turn θ about y has m13 = −sin θ, about x m23 = sin θ, about z m12 = sin θ.
        rotationY = asin(max(-1, min(1, -r13)))
        rotationX = atan2(r23, r33)
        rotationZ = atan2(r12, r11)
    }
}
