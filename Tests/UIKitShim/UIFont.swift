// UIFont (UIKit/UIFont.h as Swift imports it: `open class UIFont : NSObject, NSCopying,
// NSSecureCoding, @unchecked Sendable`, not main-actor isolated; `open class func
// systemFont(ofSize fontSize: CGFloat) -> UIFont`, `open class func boldSystemFont(ofSize
// fontSize: CGFloat) -> UIFont`, `open var pointSize: CGFloat { get }`).

/// `UIFont`: the system font at a size.
open class UIFont: NSObject, @unchecked Sendable {
    /// The size in points.
    open var pointSize: CGFloat { size }
    private let size: CGFloat
    /// Whether it is the bold system font.
    let isBold: Bool

    private init(size: CGFloat, isBold: Bool) {
        self.size = size
        self.isBold = isBold
        super.init()
    }

    open class func systemFont(ofSize fontSize: CGFloat) -> UIFont { UIFont(size: fontSize, isBold: false) }

    open class func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont { UIFont(size: fontSize, isBold: true) }
}
