// UITraitCollection (UIKit/UITraitCollection.h: `open class UITraitCollection : NSObject,
// NSCopying, NSSecureCoding, @unchecked Sendable`, not main-actor isolated). Here only the
// type, for `UIImage(named:in:compatibleWith:)`.

/// `UITraitCollection`.
open class UITraitCollection: NSObject, @unchecked Sendable {
    public override init() { super.init() }
}
