// UIColor (UIKit/UIColor.h: `open class UIColor : NSObject, NSSecureCoding, NSCopying,
// @unchecked Sendable`, not main-actor isolated; `public init(red: CGFloat, green: CGFloat,
// blue: CGFloat, alpha: CGFloat)`, `public init(hue: CGFloat, saturation: CGFloat, brightness:
// CGFloat, alpha: CGFloat)`, `open var cgColor: CGColor { get }`, `open class var black:
// UIColor { get }`, `white`, `clear`, and iOS 13's `systemBackground` (white here: the light
// appearance)).

/// `UIColor`: an sRGB colour.
open class UIColor: NSObject, @unchecked Sendable {
    private let rgba: (CGFloat, CGFloat, CGFloat, CGFloat)

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        rgba = (red, green, blue, alpha)
        super.init()
    }

    /// HSB as UIKit converts it (each of hue, saturation and brightness from 0 to 1).
    public init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        let h = (hue - hue.rounded(.down)) * 6, sector = Int(h) % 6, f = h - h.rounded(.down)
        let v = brightness, p = v * (1 - saturation), q = v * (1 - saturation * f), t = v * (1 - saturation * (1 - f))
        let rgb = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][sector]
        rgba = (rgb.0, rgb.1, rgb.2, alpha)
        super.init()
    }

    open class var black: UIColor { UIColor(red: 0, green: 0, blue: 0, alpha: 1) }
    open class var white: UIColor { UIColor(red: 1, green: 1, blue: 1, alpha: 1) }
    open class var clear: UIColor { UIColor(red: 0, green: 0, blue: 0, alpha: 0) }
    open class var systemBackground: UIColor { white }

    open var cgColor: CGColor { CGColor(red: rgba.0, green: rgba.1, blue: rgba.2, alpha: rgba.3) }
}
