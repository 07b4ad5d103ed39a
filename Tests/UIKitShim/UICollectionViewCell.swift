// UICollectionReusableView and UICollectionViewCell: what a data source returns. Signatures
// from the iOS 17 SDK (UIKit/UICollectionViewCell.h as Swift imports them): `@MainActor open
// class UICollectionReusableView : UIView`, `@MainActor open class UICollectionViewCell :
// UICollectionReusableView`, each with `public override init(frame: CGRect)` and `public
// required init?(coder: NSCoder)`. Nothing here draws them: a cell is only what
// `dequeueReusableCell(withReuseIdentifier:for:)` hands out.

/// `UICollectionReusableView`.
@MainActor open class UICollectionReusableView: UIView {
    public override init(frame: CGRect) { super.init(frame: frame) }

    public required init?(coder: NSCoder) { nil }
}

/// `UICollectionViewCell`.
@MainActor open class UICollectionViewCell: UICollectionReusableView {
    public override init(frame: CGRect) { super.init(frame: frame) }

    public required init?(coder: NSCoder) { nil }
}
