// NSTextAlignment (UIKit/NSText.h as Swift imports it on iOS: `public enum NSTextAlignment :
// Int, @unchecked Sendable { case left = 0, center = 1, right = 2, justified = 3, natural = 4 }`;
// on iOS center is 1 and right 2, the other way round from macOS).

/// `NSTextAlignment`.
public enum NSTextAlignment: Int, Sendable {
    case left = 0
    case center = 1
    case right = 2
    case justified = 3
    case natural = 4
}
