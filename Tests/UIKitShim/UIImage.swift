// UIImage (UIKit/UIImage.h as Swift imports it: `open class UIImage : NSObject,
// NSSecureCoding, @unchecked Sendable`, not main-actor isolated; `public init?(named name:
// String)`, `public init?(named name: String, in bundle: Bundle?, compatibleWith
// traitCollection: UITraitCollection?)`, `open var size: CGSize { get }`).

/// `UIImage`: here only whether the named file exists in the bundle.
open class UIImage: NSObject, @unchecked Sendable {
    /// The file the image was found at.
    private let path: String

    /// An image named so in the main bundle.
    public convenience init?(named name: String) {
        self.init(named: name, in: nil, compatibleWith: nil)
    }

    /// The file `name` (with its extension, or a PNG without) in `bundle` (the main bundle
    /// when nil); nil when there is none. No pixels are decoded here.
    public init?(named name: String, in bundle: Bundle?, compatibleWith traitCollection: UITraitCollection?) {
        let bundle = bundle ?? .main
        guard let found = bundle.path(forResource: name, ofType: nil) ?? bundle.path(forResource: name, ofType: "png")
        else { return nil }
        path = found
        super.init()
    }

    /// Zero here (the pixels are not read).
    open var size: CGSize { .zero }
}
