/// One item's layout, as `UICollectionViewLayoutAttributes` holds it.
///
/// `center` and `size` are the untransformed geometry; `frame` is derived from them
/// (setting it moves the centre and resizes). The transform applies about the centre.
public struct LayoutAttributes: Hashable, Sendable {
    public var indexPath: CardIndexPath
    public var center: Point
    public var size: Size
    /// The 3D transform; an affine transform is stored embedded (m11 = a, m12 = b, m21 = c, m22 = d, m41 = tx, m42 = ty).
    public var transform3D: Transform3D
    public var alpha: Double
    public var zIndex: Int
    public var isHidden: Bool
    /// `CALayer.isDoubleSided`: when false the card is not drawn while its transformed
    /// normal points away from the eye.
    public var isDoubleSided: Bool = true
    /// How the card is painted, when the effect set any of it (nil: a plain card).
    public var appearance: CardAppearance?

    public init(
        indexPath: CardIndexPath, frame: Rect, transform3D: Transform3D = .identity,
        alpha: Double = 1, zIndex: Int = 0, isHidden: Bool = false
    ) {
        self.indexPath = indexPath
        self.center = frame.center
        self.size = frame.size
        self.transform3D = transform3D
        self.alpha = alpha
        self.zIndex = zIndex
        self.isHidden = isHidden
    }

    /// The untransformed frame.
    public var frame: Rect {
        get {
            Rect(x: center.x - size.width / 2, y: center.y - size.height / 2,
                 width: size.width, height: size.height)
        }
        set {
            center = newValue.center
            size = newValue.size
        }
    }

    /// Sets the transform from a 2D affine one (`attributes.transform = …`).
    public mutating func setTransform(_ affine: CardAffineTransform) {
        transform3D = affine.transform3D
    }
}

/// What custom attribute subclasses commonly carry besides geometry: the card's corner
/// radius, shadow, background and blur (`CALayer` names). Drawn by the SVG and HTML
/// renderers; passed through in JSON as `appearance`.
public struct CardAppearance: Hashable, Sendable {
    /// `CALayer.cornerRadius`, in points.
    public var cornerRadius: Double = 0
    /// `CALayer.shadowOpacity`, 0…1.
    public var shadowOpacity: Double = 0
    /// `CALayer.shadowRadius`, in points (UIKit's default is 3).
    public var shadowRadius: Double = 3
    /// `CALayer.shadowOffset` (UIKit's default is (0, −3)).
    public var shadowOffset = Size(width: 0, height: -3)
    /// The card's fill, when set.
    public var backgroundColor: CardColor?
    /// A Gaussian blur of the card, in points (0: none).
    public var blurRadius: Double = 0

    public init(cornerRadius: Double = 0, shadowOpacity: Double = 0, shadowRadius: Double = 3,
                shadowOffset: Size = Size(width: 0, height: -3), backgroundColor: CardColor? = nil,
                blurRadius: Double = 0) {
        self.cornerRadius = cornerRadius
        self.shadowOpacity = shadowOpacity
        self.shadowRadius = shadowRadius
        self.shadowOffset = shadowOffset
        self.backgroundColor = backgroundColor
        self.blurRadius = blurRadius
    }
}

/// An opaque sRGB colour, written `"#rrggbb"`.
public struct CardColor: Hashable, Sendable {
    /// 0xRRGGBB.
    public var rgb: UInt32

    public init(rgb: UInt32) { self.rgb = rgb & 0xFF_FFFF }

    /// Parses `"#rrggbb"` (either case); nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#"),
              let value = UInt32(String(decoding: digits[1...], as: UTF8.self), radix: 16) else { return nil }
        self.rgb = value
    }

    /// `"#rrggbb"`, lower case.
    public var hex: String {
        let text = String(rgb, radix: 16)
        return "#" + String(repeating: "0", count: 6 - text.count) + text
    }
}
