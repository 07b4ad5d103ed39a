// UICollectionViewLayout. Signatures from the iOS 17 SDK (UIKit/UICollectionViewLayout.h as
// Swift imports it): `@MainActor open class UICollectionViewLayout : NSObject, NSSecureCoding`,
// `public override init()`, `public required init?(coder: NSCoder)`,
// `open var collectionView: UICollectionView? { get }`, `open func invalidateLayout()`,
// `open class var layoutAttributesClass: AnyClass { get }`, `open func prepare()`,
// `open func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]?`,
// `open func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes?`,
// `open func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool`,
// `open func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint,
// withScrollingVelocity velocity: CGPoint) -> CGPoint`, `open var collectionViewContentSize:
// CGSize { get }`, `open var flipsHorizontallyInOppositeLayoutDirection: Bool { get }`.

/// `UICollectionViewLayout`: the abstract base (no elements, no content).
@MainActor open class UICollectionViewLayout: NSObject {
    /// Set by the collection view that shows this layout (weak, as UIKit's).
    open internal(set) weak var collectionView: UICollectionView?
    /// Set by `invalidateLayout()`; the collection view calls `prepare()` before its next query.
    var needsPrepare = true

    public override init() { super.init() }

    public required init?(coder: NSCoder) { nil }

    open class var layoutAttributesClass: AnyClass { UICollectionViewLayoutAttributes.self }

    open func invalidateLayout() { needsPrepare = true }

    open func prepare() {}

    open func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? { nil }

    open func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? { nil }

    open func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool { false }

    open func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint,
                                  withScrollingVelocity velocity: CGPoint) -> CGPoint {
        proposedContentOffset
    }

    open var collectionViewContentSize: CGSize { .zero }

    /// False for the base class (UIKit's documentation); a flow layout answers true.
    open var flipsHorizontallyInOppositeLayoutDirection: Bool { false }
}
