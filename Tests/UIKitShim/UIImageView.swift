// UIImageView (UIKit/UIImageView.h as Swift imports it: `@MainActor open class UIImageView :
// UIView`, `public init(image: UIImage?)`, `public init(image: UIImage?, highlightedImage:
// UIImage?)`, `public override init(frame: CGRect)`, `public required init?(coder: NSCoder)`,
// `open var image: UIImage?`, `open var highlightedImage: UIImage?`). It overrides every
// designated initializer of UIView, so `UIImageView()` is inherited.

/// `UIImageView`.
@MainActor open class UIImageView: UIView {
    open var image: UIImage?
    open var highlightedImage: UIImage?

    public init(image: UIImage?) {
        self.image = image
        super.init(frame: .zero)
    }

    public init(image: UIImage?, highlightedImage: UIImage?) {
        self.image = image
        self.highlightedImage = highlightedImage
        super.init(frame: .zero)
    }

    public override init(frame: CGRect) { super.init(frame: frame) }

    public required init?(coder: NSCoder) { nil }
}
