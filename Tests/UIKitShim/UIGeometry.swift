// UIEdgeInsets and UIUserInterfaceLayoutDirection (UIKit/UIGeometry.h, UIKit/UIApplication.h
// as Swift imports them: `UIEdgeInsets(top:left:bottom:right:)`, `.zero`;
// `enum UIUserInterfaceLayoutDirection: Int { case leftToRight, rightToLeft }`).

/// `UIEdgeInsets`.
public struct UIEdgeInsets: Equatable, Sendable {
    public var top: CGFloat
    public var left: CGFloat
    public var bottom: CGFloat
    public var right: CGFloat

    public init() { self.init(top: 0, left: 0, bottom: 0, right: 0) }

    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }

    public static let zero = UIEdgeInsets()
}

/// `UIUserInterfaceLayoutDirection`.
public enum UIUserInterfaceLayoutDirection: Int, Sendable {
    case leftToRight = 0
    case rightToLeft = 1
}
