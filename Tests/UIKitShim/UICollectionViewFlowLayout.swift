// UICollectionViewFlowLayout. Signatures from the iOS 17 SDK
// (UIKit/UICollectionViewFlowLayout.h as Swift imports it): `@MainActor open class
// UICollectionViewFlowLayout : UICollectionViewLayout`, `open var minimumLineSpacing: CGFloat`,
// `minimumInteritemSpacing: CGFloat`, `itemSize: CGSize`, `estimatedItemSize: CGSize`,
// `scrollDirection: UICollectionView.ScrollDirection`, `headerReferenceSize: CGSize`,
// `footerReferenceSize: CGSize`, `sectionInset: UIEdgeInsets`; the overrides of the base
// class's methods are inherited declarations. Defaults are UIKit's (50×50 items, spacings 10).
//
// The frames come from CardLayout's FlowLayout, the engine the Lua run uses, built from
// these properties and what the collection view's data source and delegate answer; it is
// built when first asked after a change (as UIKit's flow layout recomputes lazily), so a
// subclass's `prepare()` may set properties after `super.prepare()`.
internal import CardLayout

/// `UICollectionViewFlowLayout`.
@MainActor open class UICollectionViewFlowLayout: UICollectionViewLayout {
    open var minimumLineSpacing: CGFloat = 10 { didSet { base = nil } }
    open var minimumInteritemSpacing: CGFloat = 10 { didSet { base = nil } }
    open var itemSize = CGSize(width: 50, height: 50) { didSet { base = nil } }
    /// Self-sizing is not modelled: a non-zero estimate is laid out as `itemSize`.
    open var estimatedItemSize: CGSize = .zero { didSet { base = nil } }
    open var scrollDirection = UICollectionView.ScrollDirection.vertical { didSet { base = nil } }
    open var headerReferenceSize: CGSize = .zero { didSet { base = nil } }
    open var footerReferenceSize: CGSize = .zero { didSet { base = nil } }
    open var sectionInset = UIEdgeInsets.zero { didSet { base = nil } }

    /// The base frames, and the viewport size they were made for.
    private var base: (layout: FlowLayout, viewport: CGSize)?

    public override init() { super.init() }

    public required init?(coder: NSCoder) { nil }

    open override func invalidateLayout() {
        super.invalidateLayout()
        base = nil
    }

    open override func prepare() {
        super.prepare()
        base = nil
    }

    open override var flipsHorizontallyInOppositeLayoutDirection: Bool { true }

    open override var collectionViewContentSize: CGSize {
        guard let layout = flowLayout() else { return .zero }
        return CGSize(width: layout.collectionViewContentSize.width, height: layout.collectionViewContentSize.height)
    }

    open override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        guard let layout = flowLayout() else { return nil }
        let query = Rect(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height)
        let cls = type(of: self).layoutAttributesClass as! UICollectionViewLayoutAttributes.Type
        var result = layout.layoutAttributesForElements(in: query).map { make(cls, $0) }
        for supplementary in layout.supplementaryFrames(in: query) {
            let kind = supplementary.kind == .header
                ? UICollectionView.elementKindSectionHeader : UICollectionView.elementKindSectionFooter
            let attributes = UICollectionViewLayoutAttributes.supplementary(
                cls, kind: kind, indexPath: IndexPath(item: 0, section: supplementary.section))
            let f = supplementary.frame
            attributes.frame = CGRect(x: f.origin.x, y: f.origin.y, width: f.size.width, height: f.size.height)
            result.append(attributes)
        }
        return result
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        guard indexPath.count == 2, let layout = flowLayout(),
              let item = layout.layoutAttributesForItem(at: CardIndexPath(item: indexPath.item, section: indexPath.section))
        else { return nil }
        return make(type(of: self).layoutAttributesClass as! UICollectionViewLayoutAttributes.Type, item)
    }

    /// UIKit's flow layout invalidates itself when the viewport's size changes.
    open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        guard let collectionView else { return false }
        return newBounds.size != collectionView.bounds.size
    }

    private func make(_ cls: UICollectionViewLayoutAttributes.Type, _ item: LayoutAttributes) -> UICollectionViewLayoutAttributes {
        let attributes = cls.init()
        attributes.indexPath = IndexPath(item: item.indexPath.item, section: item.indexPath.section)
        attributes.center = CGPoint(x: item.center.x, y: item.center.y)
        attributes.size = CGSize(width: item.size.width, height: item.size.height)
        return attributes
    }

    /// The base frames for the collection view's current size, counts and delegate answers.
    private func flowLayout() -> FlowLayout? {
        guard let collectionView else { return nil }
        let viewport = collectionView.bounds.size
        if let base, base.viewport == viewport { return base.layout }
        var configuration = FlowLayoutConfiguration()
        configuration.scrollDirection = scrollDirection == .horizontal ? .horizontal : .vertical
        configuration.itemSize = Size(width: itemSize.width, height: itemSize.height)
        configuration.sectionInset = CardEdgeInsets(top: sectionInset.top, left: sectionInset.left,
                                                    bottom: sectionInset.bottom, right: sectionInset.right)
        configuration.minimumLineSpacing = minimumLineSpacing
        configuration.minimumInteritemSpacing = minimumInteritemSpacing
        configuration.headerReferenceSize = Size(width: headerReferenceSize.width, height: headerReferenceSize.height)
        configuration.footerReferenceSize = Size(width: footerReferenceSize.width, height: footerReferenceSize.height)
        configuration.layoutDirection = collectionView.effectiveUserInterfaceLayoutDirection == .rightToLeft
            ? .rightToLeft : .leftToRight
        configuration.flipsHorizontallyInOppositeLayoutDirection = flipsHorizontallyInOppositeLayoutDirection
        let counts = (0..<max(0, collectionView.numberOfSections)).map { collectionView.numberOfItems(inSection: $0) }
        let metrics = delegateMetrics(collectionView, counts: counts)
        let layout = FlowLayout(configuration: configuration, viewportSize: Size(width: viewport.width, height: viewport.height),
                                numberOfItemsInSections: counts, metrics: metrics)
        base = (layout, viewport)
        return layout
    }

    /// What the delegate implements of UICollectionViewDelegateFlowLayout (nil: none of it).
    private func delegateMetrics(_ collectionView: UICollectionView, counts: [Int]) -> FlowLayoutMetrics? {
        guard let delegate = collectionView.delegate else { return nil }
        var metrics = FlowLayoutMetrics()
        let sections = counts.indices
        if let sizing = delegate as? any UICollectionViewDelegateFlowLayoutSizeForItem {
            metrics.itemSizes = sections.flatMap { s in
                (0..<max(0, counts[s])).map { i in
                    let size = sizing.collectionView(collectionView, layout: self, sizeForItemAt: IndexPath(item: i, section: s))
                    return Size(width: size.width, height: size.height)
                }
            }
        }
        if let insets = delegate as? any UICollectionViewDelegateFlowLayoutInsetForSection {
            metrics.sectionInsets = sections.map { s in
                let i = insets.collectionView(collectionView, layout: self, insetForSectionAt: s)
                return CardEdgeInsets(top: i.top, left: i.left, bottom: i.bottom, right: i.right)
            }
        }
        if let headers = delegate as? any UICollectionViewDelegateFlowLayoutHeaderSize {
            metrics.headerReferenceSizes = sections.map { s in
                let size = headers.collectionView(collectionView, layout: self, referenceSizeForHeaderInSection: s)
                return Size(width: size.width, height: size.height)
            }
        }
        if let footers = delegate as? any UICollectionViewDelegateFlowLayoutFooterSize {
            metrics.footerReferenceSizes = sections.map { s in
                let size = footers.collectionView(collectionView, layout: self, referenceSizeForFooterInSection: s)
                return Size(width: size.width, height: size.height)
            }
        }
        let none = FlowLayoutMetrics()
        return metrics == none ? nil : metrics
    }
}
