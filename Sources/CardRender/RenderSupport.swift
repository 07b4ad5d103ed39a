import CardLayout
import Foundation

/// Helpers shared by the SVG, HTML and terminal renderers: number formatting, escaping,
/// labels and the drawing order.
enum RenderSupport {
    /// `template` with each `{{name}}` replaced by `values[name]` (the page's style sheet
    /// takes the palette's colours this way).
    static func filling(_ template: String, with values: [String: String]) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}"),
              let value = values[String(rest[open.upperBound..<close.lowerBound])] {
            out += rest[..<open.lowerBound] + value
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    // MARK: Numbers

    /// A number with at most `decimals` decimals, trailing zeros dropped, never `-0`,
    /// never an exponent (for SVG coordinates and captions). Deterministic: the value
    /// is rounded half away from zero on its decimal scale.
    static func compact(_ x: Double, decimals: Int = 3) -> String {
        guard x.isFinite else { return "0" }
        var scale: Int64 = 1
        for _ in 0..<max(0, min(decimals, 9)) { scale *= 10 }
        let scaled = (abs(x) * Double(scale)).rounded()
        if scaled == 0 { return "0" }
        guard scaled < 9.0e15 else { return exact(x) }
        let n = Int64(scaled)
        var s = x < 0 ? "-" : ""
        s += String(n / scale)
        var fraction = n % scale
        if fraction != 0 {
            var width = String(scale).count - 1
            while fraction % 10 == 0 { fraction /= 10; width -= 1 }
            let digits = String(fraction)
            s += "." + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return s
    }

    /// The shortest text that reads back as exactly `x` (Swift's round-trip form), with
    /// no `.0` suffix and no `-0`; valid in JSON, JavaScript and CSS. Non-finite values,
    /// which a checked timeline never holds, print as `0`.
    static func exact(_ x: Double) -> String {
        guard x.isFinite else { return "0" }
        if x == 0 { return "0" }
        var s = "\(x)"
        if s.hasSuffix(".0") { s.removeLast(2) }
        return s
    }

    /// `x` with exactly `digits` decimals (like JavaScript's `toFixed`), never `-0.000`.
    static func fixed(_ x: Double, _ digits: Int) -> String {
        let s = RenderSupport.compact(x, decimals: digits)
        // Too large for decimals to mean anything: the round-trip form as it is (`1e+300`),
        // never with decimals pasted on (`1e+300.00`).
        if s.contains("e") { return s }
        let parts = s.split(separator: ".", maxSplits: 1)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        return String(parts[0]) + "." + fraction + String(repeating: "0", count: max(0, digits - fraction.count))
    }

    // MARK: Escaping

    /// Text escaped for XML and HTML content and attribute values.
    static func escapeXML(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // XML 1.0 forbids most control characters even as references.
                if ch.value < 0x20 && ch != "\n" && ch != "\t" && ch != "\r" {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(ch)
                }
            }
        }
        return out
    }

    /// A JSON string literal (quotes included) that is also safe inside an HTML
    /// `<script>` element: `<`, `>`, `&` and the JavaScript line separators are escaped.
    /// A tweakable's value in JSON: a number (``exact(_:)``), `true` / `false`, or a string.
    static func json(_ setting: ParamSetting) -> String {
        switch setting {
        case let .number(x): exact(x)
        case let .boolean(b): b ? "true" : "false"
        case let .option(text): jsonString(text)
        }
    }

    static func jsonString(_ text: String) -> String {
        var out = "\""
        for ch in text.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                out += unicodeEscape(ch.value)
            default:
                if ch.value < 0x20 { out += unicodeEscape(ch.value) } else { out.unicodeScalars.append(ch) }
            }
        }
        return out + "\""
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    // MARK: Cards

    /// The label drawn on an item's card: the item index, prefixed by the section when
    /// it is not the first.
    static func label(for indexPath: CardIndexPath) -> String {
        indexPath.section == 0 ? "\(indexPath.item)" : "\(indexPath.section):\(indexPath.item)"
    }

    /// The label's font size on the untransformed card: a fifth of its shorter side,
    /// kept between 9 and 72 points.
    static func labelFontSize(for size: Size) -> Double {
        let side = min(abs(size.width), abs(size.height))
        return min(max(side * 0.2, 9), 72)
    }

    /// The stroke width of card outlines, in points on the untransformed card.
    static let cardStrokeWidth = 2.0

    /// `items` in drawing order: `zIndex` ascending, ties by index path, as UIKit draws them.
    static func drawingOrder(_ items: [LayoutAttributes]) -> [LayoutAttributes] {
        items.sorted { a, b in (a.zIndex, a.indexPath) < (b.zIndex, b.indexPath) }
    }
}

/// A card as the 2D renderers draw it: its attributes, its projected quadrilateral,
/// where and how large its label appears, and what its ``CardAppearance`` asks for on
/// screen (outline with rounded corners, fill, shadow, blur).
struct RenderCard {
    var attributes: LayoutAttributes
    /// The corners in viewport coordinates (top-left, top-right, bottom-right,
    /// bottom-left of the untransformed card).
    var quad: ProjectedQuad
    /// The projected centre of the card, in viewport coordinates.
    var labelCenter: Point
    /// The label's font size scaled like the card is on screen.
    var labelFontSize: Double
    /// How much larger the card is on screen than untransformed: the square root of the
    /// projected area over the card's area (1 for a degenerate card). Lengths given in
    /// card points (a corner radius, a blur) are drawn this much larger.
    var screenScale: Double
    /// The card's outline on screen: the quad's corners, or with a corner radius the
    /// rounded rectangle's outline, each point projected (an approximation by chords of
    /// at most about 0.15 pt sagitta on screen, so exact under perspective too).
    var outline: [Point]
    /// The fill: the appearance's `backgroundColor`, or the palette's for the item.
    var fill: Palette.Color
    /// The outline colour: the fill, darker (the palette's rule).
    var stroke: Palette.Color
    /// The drop shadow, when the appearance casts one that can be drawn (every point of
    /// it in front of the eye).
    var shadow: Shadow?
    /// The Gaussian blur of the card on screen (standard deviation in viewport points;
    /// 0: none).
    var blur: Double

    /// A drop shadow on screen.
    struct Shadow: Hashable {
        /// The card's outline moved by `shadowOffset` in card space, projected.
        var outline: [Point]
        /// `shadowOpacity`, clamped to 0…1.
        var opacity: Double
        /// The blur's standard deviation on screen: `shadowRadius` × ``RenderCard/screenScale``.
        var blur: Double
    }

    /// The cards of `frame` that are drawn, in drawing order: hidden items, cards with a
    /// corner at or behind the eye and cards whose back is toward the eye while not
    /// double-sided (``LayoutAttributes/isBackFaceHidden``) are left out.
    static func drawn(in frame: Frame) -> [RenderCard] {
        RenderSupport.drawingOrder(frame.items).compactMap { RenderCard($0, contentOffset: frame.contentOffset) }
    }

    /// The card as drawn at `contentOffset`, or nil when not drawn (see ``drawn(in:)``).
    init?(_ attributes: LayoutAttributes, contentOffset: Point) {
        guard !attributes.isHidden, !attributes.isBackFaceHidden,
              let quad = attributes.projectedQuad(contentOffset: contentOffset) else { return nil }
        self.attributes = attributes
        self.quad = quad
        // The centre (0, 0, 0, 1) maps to (m41, m42, ·, m44); its w is the mean of the
        // corners' w, so it is positive whenever the quad exists.
        let t = attributes.transform3D
        if t.m44 > 1e-9 {
            labelCenter = Point(x: t.m41 / t.m44 + attributes.center.x - contentOffset.x,
                                y: t.m42 / t.m44 + attributes.center.y - contentOffset.y)
        } else {
            let c = quad.corners
            labelCenter = Point(x: (c[0].x + c[1].x + c[2].x + c[3].x) / 4,
                                y: (c[0].y + c[1].y + c[2].y + c[3].y) / 4)
        }
        let base = RenderSupport.labelFontSize(for: attributes.size)
        let area = abs(attributes.size.width * attributes.size.height)
        let scale = area > 0 ? (RenderCard.area(of: quad) / area).squareRoot() : 1
        screenScale = scale.isFinite ? scale : 1
        labelFontSize = base * min(max(screenScale, 0.25), 4)

        let palette = attributes.appearance?.backgroundColor.map(Palette.Color.init) ?? Palette.fill(for: attributes.indexPath)
        fill = palette
        stroke = palette.darkened(by: 0.45)
        outline = quad.corners
        shadow = nil
        blur = 0
        guard let look = attributes.appearance else { return }
        let radius = RenderCard.clampedRadius(look.cornerRadius, size: attributes.size)
        if radius > 0 {
            outline = RenderCard.project(RenderCard.roundedOutline(size: attributes.size, radius: radius,
                                                                   screenRadius: radius * screenScale),
                                         attributes, dx: 0, dy: 0, contentOffset: contentOffset) ?? quad.corners
        }
        if look.shadowOpacity > 0, look.shadowOpacity.isFinite {
            let shape = radius > 0
                ? RenderCard.roundedOutline(size: attributes.size, radius: radius, screenRadius: radius * screenScale)
                : RenderCard.roundedOutline(size: attributes.size, radius: 0, screenRadius: 0)
            if let points = RenderCard.project(shape, attributes, dx: look.shadowOffset.width, dy: look.shadowOffset.height,
                                               contentOffset: contentOffset) {
                let sigma = max(look.shadowRadius, 0) * screenScale
                shadow = Shadow(outline: points, opacity: min(look.shadowOpacity, 1), blur: sigma.isFinite ? sigma : 0)
            }
        }
        let sigma = max(look.blurRadius, 0) * screenScale
        blur = sigma.isFinite ? sigma : 0
    }

    /// A corner radius as Core Animation draws it: at most half the shorter side, never
    /// negative.
    static func clampedRadius(_ radius: Double, size: Size) -> Double {
        guard radius.isFinite, radius > 0 else { return 0 }
        return min(radius, min(abs(size.width), abs(size.height)) / 2)
    }

    /// The outline of a `size` card with corners rounded by `radius`, relative to its
    /// centre in card coordinates, clockwise on screen from the top-left corner's arc.
    /// Each quarter arc is cut into `n` chords, `n` doubling each time the radius on
    /// screen (`screenRadius`) quadruples, which keeps the chord's sagitta
    /// `R·(1 − cos(π/4n))` under about 0.15 pt; radius 0 gives the four corners.
    static func roundedOutline(size: Size, radius: Double, screenRadius: Double) -> [(x: Double, y: Double)] {
        let hw = size.width / 2, hh = size.height / 2
        guard radius > 0 else { return [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)] }
        let n = screenRadius < 2 ? 2 : screenRadius < 8 ? 4 : screenRadius < 32 ? 8 : screenRadius < 128 ? 16 : 32
        // Arc centres and start angles (y down: 90° points down), clockwise on screen.
        let corners: [(cx: Double, cy: Double, start: Double)] = [
            (-hw + radius, -hh + radius, Double.pi), (hw - radius, -hh + radius, 1.5 * Double.pi),
            (hw - radius, hh - radius, 0), (-hw + radius, hh - radius, 0.5 * Double.pi),
        ]
        var points: [(x: Double, y: Double)] = []
        points.reserveCapacity(4 * (n + 1))
        for corner in corners {
            for j in 0...n {
                let angle = corner.start + Double.pi / 2 * Double(j) / Double(n)
                points.append((corner.cx + radius * cos(angle), corner.cy + radius * sin(angle)))
            }
        }
        return points
    }

    /// Card-space points moved by `(dx, dy)` and projected; nil if any is at or behind the eye.
    static func project(_ points: [(x: Double, y: Double)], _ attributes: LayoutAttributes,
                        dx: Double, dy: Double, contentOffset: Point) -> [Point]? {
        var result: [Point] = []
        result.reserveCapacity(points.count)
        for p in points {
            guard let q = attributes.projectedPoint(x: p.x + dx, y: p.y + dy, contentOffset: contentOffset) else { return nil }
            result.append(q)
        }
        return result
    }

    /// The absolute area of a quadrilateral (shoelace formula).
    static func area(of quad: ProjectedQuad) -> Double {
        let c = quad.corners
        var sum = 0.0
        for i in 0..<c.count {
            let a = c[i], b = c[(i + 1) % c.count]
            sum += a.x * b.y - b.x * a.y
        }
        return abs(sum) / 2
    }

    /// The smallest and largest x and y over the corners.
    var extent: (minX: Double, maxX: Double, minY: Double, maxY: Double) {
        let xs = quad.corners.map(\.x), ys = quad.corners.map(\.y)
        return (xs.min() ?? 0, xs.max() ?? 0, ys.min() ?? 0, ys.max() ?? 0)
    }
}
