// UICollectionReusableView and UICollectionViewCell. Signatures from the iOS 17 SDK
// (UIKit/UICollectionViewCell.h as Swift imports it): `@MainActor open class
// UICollectionReusableView : UIView` with `open var reuseIdentifier: String? { get }`,
// `open func prepareForReuse()`, `open func apply(_ layoutAttributes:
// UICollectionViewLayoutAttributes)`, `public override init(frame: CGRect)`, `public required
// init?(coder: NSCoder)`; `@MainActor open class UICollectionViewCell :
// UICollectionReusableView` with `open var contentView: UIView { get }`, `open var
// isSelected: Bool`, `open var isHighlighted: Bool`.

/// `UICollectionReusableView`.
@MainActor open class UICollectionReusableView: UIView {
    /// The identifier the collection view dequeued it with (none here: the test-only
    /// collection view makes no cells).
    open var reuseIdentifier: String? { nil }

    public override init(frame: CGRect) { super.init(frame: frame) }

    public required init?(coder: NSCoder) { nil }

    open func prepareForReuse() {}

    /// UIKit calls it with the attributes the layout handed out for the view.
    open func apply(_ layoutAttributes: UICollectionViewLayoutAttributes) {}
}

/// `UICollectionViewCell`.
@MainActor open class UICollectionViewCell: UICollectionReusableView {
    /// Where a cell's subviews go; it fills the cell.
    open var contentView: UIView { backingContentView }
    private let backingContentView: UIView

    open var isSelected = false
    open var isHighlighted = false

    public override init(frame: CGRect) {
        let content = UIView(frame: CGRect(origin: .zero, size: frame.size))
        content.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        backingContentView = content
        super.init(frame: frame)
        addSubview(content)
    }

    public required init?(coder: NSCoder) { nil }
}
