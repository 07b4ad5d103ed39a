// UIColor (UIKit/UIColor.h: `open class UIColor : NSObject, NSSecureCoding, NSCopying,
// @unchecked Sendable`, not main-actor isolated; `public init(red: CGFloat, green: CGFloat,
// blue: CGFloat, alpha: CGFloat)`, `open var cgColor: CGColor { get }`).

/// `UIColor`: an sRGB colour.
open class UIColor: NSObject, @unchecked Sendable {
    private let rgba: (CGFloat, CGFloat, CGFloat, CGFloat)

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        rgba = (red, green, blue, alpha)
        super.init()
    }

    open var cgColor: CGColor { CGColor(red: rgba.0, green: rgba.1, blue: rgba.2, alpha: rgba.3) }
}
