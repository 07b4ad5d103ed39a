import CardLayout

/// The colours every picture of a timeline shares: the SVG, the HTML preview and the
/// terminal strip give an item the same fill, so a card can be followed from one
/// output to another.
///
/// Fills are deterministic: they depend only on the item's index path, never on the
/// frame, the order of drawing or the platform.
public enum Palette {
    /// A colour with 8-bit red, green and blue channels.
    public struct Color: Hashable, Sendable {
        /// The red channel, 0…255.
        public var red: UInt8
        /// The green channel, 0…255.
        public var green: UInt8
        /// The blue channel, 0…255.
        public var blue: UInt8

        /// A colour from its three channels.
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red; self.green = green; self.blue = blue
        }

        /// A card's `backgroundColor` (``CardColor``, 0xRRGGBB).
        public init(_ color: CardColor) {
            self.init(red: UInt8((color.rgb >> 16) & 0xFF), green: UInt8((color.rgb >> 8) & 0xFF),
                      blue: UInt8(color.rgb & 0xFF))
        }

        /// `#rrggbb`, lower-case: the form SVG, CSS and the embedded JSON use.
        public var hex: String {
            let digits = Array("0123456789abcdef")
            var s = "#"
            for channel in [red, green, blue] {
                s.append(digits[Int(channel >> 4)])
                s.append(digits[Int(channel & 15)])
            }
            return s
        }

        /// This colour painted with opacity `alpha` (clamped to 0…1) over `background`,
        /// as a browser composites it.
        public func blended(over background: Color, alpha: Double) -> Color {
            let a = alpha.isFinite ? min(max(alpha, 0), 1) : 1
            func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
                UInt8((Double(top) * a + Double(bottom) * (1 - a)).rounded())
            }
            return Color(red: mix(red, background.red), green: mix(green, background.green),
                         blue: mix(blue, background.blue))
        }

        /// The same hue, darker by `factor` (0 keeps the colour, 1 gives black).
        public func darkened(by factor: Double) -> Color {
            blended(over: Color(red: 0, green: 0, blue: 0), alpha: 1 - factor)
        }
    }

    /// The inside of the viewport (the SVG canvas, the HTML viewport box).
    public static let background = Color(red: 0x1e, green: 0x22, blue: 0x2b)
    /// The HTML page around the viewport and the caption strip of the animated SVG.
    public static let page = Color(red: 0x13, green: 0x16, blue: 0x1c)
    /// The viewport's outline.
    public static let viewportOutline = Color(red: 0x5c, green: 0x66, blue: 0x7a)
    /// Card labels (drawn with a dark halo so they read on any fill).
    public static let label = Color(red: 0xff, green: 0xff, blue: 0xff)
    /// Secondary text: captions, the time and the phase.
    public static let caption = Color(red: 0xc8, green: 0xcf, blue: 0xdb)

    /// The fill of an item's card. Consecutive items step the hue by the golden ratio,
    /// so neighbours always differ clearly; later sections shift hue and lightness.
    public static func fill(for indexPath: CardIndexPath) -> Color {
        let goldenStep = 0.618_033_988_749_895
        let raw = 0.57 + Double(indexPath.item) * goldenStep + Double(indexPath.section) * 0.137
        let hue = raw - raw.rounded(.down)
        let lightness = [0.50, 0.42, 0.58][((indexPath.section % 3) + 3) % 3]
        return hsl(hue: hue, saturation: 0.62, lightness: lightness)
    }

    /// The outline of an item's card: its fill, darker.
    public static func stroke(for indexPath: CardIndexPath) -> Color {
        fill(for: indexPath).darkened(by: 0.45)
    }

    /// The ANSI escape that sets a 24-bit background colour.
    public static func ansiBackground(_ color: Color) -> String {
        "\u{1B}[48;2;\(color.red);\(color.green);\(color.blue)m"
    }

    /// The ANSI escape that sets a 24-bit foreground colour.
    public static func ansiForeground(_ color: Color) -> String {
        "\u{1B}[38;2;\(color.red);\(color.green);\(color.blue)m"
    }

    /// The ANSI escape that resets all attributes.
    public static let ansiReset = "\u{1B}[0m"

    /// HSL (each 0…1) to 8-bit RGB; plain arithmetic, so the same on every platform.
    static func hsl(hue: Double, saturation: Double, lightness: Double) -> Color {
        let q = lightness < 0.5
            ? lightness * (1 + saturation)
            : lightness + saturation - lightness * saturation
        let p = 2 * lightness - q
        func channel(_ t0: Double) -> UInt8 {
            var t = t0
            if t < 0 { t += 1 }
            if t > 1 { t -= 1 }
            let v: Double
            if t < 1.0 / 6 { v = p + (q - p) * 6 * t }
            else if t < 0.5 { v = q }
            else if t < 2.0 / 3 { v = p + (q - p) * (2.0 / 3 - t) * 6 }
            else { v = p }
            return UInt8(min(max((v * 255).rounded(), 0), 255))
        }
        return Color(red: channel(hue + 1.0 / 3), green: channel(hue), blue: channel(hue - 1.0 / 3))
    }
}
