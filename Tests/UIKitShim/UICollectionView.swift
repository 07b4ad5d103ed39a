// UICollectionView and its data source and delegate protocols. Signatures from the iOS 17
// SDK (UIKit/UICollectionView.h as Swift imports it): `@MainActor open class UICollectionView
// : UIScrollView`, `public init(frame: CGRect, collectionViewLayout layout: UICollectionViewLayout)`,
// `open var collectionViewLayout: UICollectionViewLayout`, `weak open var delegate: (any
// UICollectionViewDelegate)?`, `weak open var dataSource: (any UICollectionViewDataSource)?`,
// `open var numberOfSections: Int { get }`, `open func numberOfItems(inSection section: Int) -> Int`,
// `enum ScrollDirection: Int { case vertical, horizontal }`,
// `enum ElementCategory: UInt { case cell, supplementaryView, decorationView }`,
// `open func register(_ cellClass: AnyClass?, forCellWithReuseIdentifier identifier: String)`,
// `open func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath)
// -> UICollectionViewCell`.
// Protocols: `@MainActor public protocol UICollectionViewDataSource : NSObjectProtocol`
// (required `collectionView(_:numberOfItemsInSection:)` and `collectionView(_:cellForItemAt:)`;
// optional `numberOfSections(in:)`), `UIScrollViewDelegate : NSObjectProtocol`, `UICollectionViewDelegate :
// UIScrollViewDelegate`, `UICollectionViewDelegateFlowLayout : UICollectionViewDelegate`
// (all their methods optional).
//
// Optional methods: Linux Swift has no `@objc optional`. A default implementation in a
// protocol extension would be a declaration UIKit lacks (and would answer where UIKit asks
// `respondsToSelector:` and falls back to the layout's property). Instead each optional
// method the layout asks about has an `@_spi(UIKitShimDriver)` protocol with that one
// requirement; the layout asks `delegate as? any UICollectionViewDelegateFlowLayoutSizeForItem`,
// which is what `respondsToSelector:` answers. A delegate written for iOS conforms to the
// public protocol and implements the method; the test driver also declares the SPI
// conformance (the method it already has satisfies it).

/// `UICollectionView`.
@MainActor open class UICollectionView: UIScrollView {
    /// `UICollectionView.ScrollDirection`.
    public enum ScrollDirection: Int, Sendable {
        case vertical = 0
        case horizontal = 1
    }

    /// `UICollectionView.ElementCategory`.
    public enum ElementCategory: UInt, Sendable {
        case cell = 0
        case supplementaryView = 1
        case decorationView = 2
    }

    open var collectionViewLayout: UICollectionViewLayout {
        didSet {
            oldValue.collectionView = nil
            collectionViewLayout.collectionView = self
            collectionViewLayout.invalidateLayout()
        }
    }

    weak open var delegate: (any UICollectionViewDelegate)?
    weak open var dataSource: (any UICollectionViewDataSource)?

    public init(frame: CGRect, collectionViewLayout layout: UICollectionViewLayout) {
        collectionViewLayout = layout
        super.init(frame: frame)
        layout.collectionView = self
    }

    public required init?(coder: NSCoder) { nil }

    open var numberOfSections: Int {
        guard let dataSource else { return 0 }
        if let counting = dataSource as? any UICollectionViewDataSourceNumberOfSections {
            return counting.numberOfSections(in: self)
        }
        return 1
    }

    open func numberOfItems(inSection section: Int) -> Int {
        guard let dataSource, section >= 0, section < numberOfSections else { return 0 }
        return dataSource.collectionView(self, numberOfItemsInSection: section)
    }

    /// UICollectionView asks its layout on every bounds change (a scroll or a resize),
    /// before the change: the layout still sees the old bounds.
    override func boundsWillChange(to newValue: CGRect) {
        if newValue != bounds, collectionViewLayout.shouldInvalidateLayout(forBoundsChange: newValue) {
            collectionViewLayout.invalidateLayout()
        }
    }

    /// What UIKit's layout pass does before it asks for the visible elements: `prepare()`
    /// if the layout was invalidated, then the content size from the layout. (UIKit then
    /// asks the data source for the visible cells; nothing here shows cells, so it does not.)
    open override func layoutSubviews() {
        if collectionViewLayout.needsPrepare {
            collectionViewLayout.needsPrepare = false
            collectionViewLayout.prepare()
        }
        contentSize = collectionViewLayout.collectionViewContentSize
    }

    /// The cell classes registered, by reuse identifier.
    private var registeredCells: [String: AnyClass] = [:]

    open func register(_ cellClass: AnyClass?, forCellWithReuseIdentifier identifier: String) {
        registeredCells[identifier] = cellClass
    }

    /// A cell for a registered identifier (an unregistered one traps, as UIKit raises).
    /// Always a plain `UICollectionViewCell` at the item's frame, not an instance of the
    /// registered class: Swift makes an instance from a metatype only through a `required`
    /// initializer, which `init(frame:)` is not, and nothing here reads a cell's class.
    open func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath)
        -> UICollectionViewCell {
        guard registeredCells[identifier] != nil else {
            preconditionFailure("could not dequeue a cell with identifier \(identifier): register a class for it first")
        }
        let frame = collectionViewLayout.layoutAttributesForItem(at: indexPath)?.frame ?? .zero
        return UICollectionViewCell(frame: frame)
    }

    /// The layout direction (set by the app's `semanticContentAttribute` on iOS).
    @_spi(UIKitShimDriver) public func setEffectiveUserInterfaceLayoutDirection(_ direction: UIUserInterfaceLayoutDirection) {
        shimLayoutDirection = direction
        collectionViewLayout.invalidateLayout()
    }
}

/// `UICollectionViewDataSource`.
@MainActor public protocol UICollectionViewDataSource: NSObjectProtocol {
    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int
    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell
}

/// `UIScrollViewDelegate` (every method optional; none is asked here).
@MainActor public protocol UIScrollViewDelegate: NSObjectProtocol {}

/// `UICollectionViewDelegate` (every method optional; none is asked here).
@MainActor public protocol UICollectionViewDelegate: UIScrollViewDelegate {}

/// `UICollectionViewDelegateFlowLayout` (every method optional: see the SPI protocols below).
@MainActor public protocol UICollectionViewDelegateFlowLayout: UICollectionViewDelegate {}

/// The optional `numberOfSections(in:)` of `UICollectionViewDataSource`.
@_spi(UIKitShimDriver) @MainActor public protocol UICollectionViewDataSourceNumberOfSections {
    func numberOfSections(in collectionView: UICollectionView) -> Int
}

/// The optional `collectionView(_:layout:sizeForItemAt:)` of UICollectionViewDelegateFlowLayout.
@_spi(UIKitShimDriver) @MainActor public protocol UICollectionViewDelegateFlowLayoutSizeForItem {
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        sizeForItemAt indexPath: IndexPath) -> CGSize
}

/// The optional `collectionView(_:layout:insetForSectionAt:)`.
@_spi(UIKitShimDriver) @MainActor public protocol UICollectionViewDelegateFlowLayoutInsetForSection {
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        insetForSectionAt section: Int) -> UIEdgeInsets
}

/// The optional `collectionView(_:layout:referenceSizeForHeaderInSection:)`.
@_spi(UIKitShimDriver) @MainActor public protocol UICollectionViewDelegateFlowLayoutHeaderSize {
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        referenceSizeForHeaderInSection section: Int) -> CGSize
}

/// The optional `collectionView(_:layout:referenceSizeForFooterInSection:)`.
@_spi(UIKitShimDriver) @MainActor public protocol UICollectionViewDelegateFlowLayoutFooterSize {
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        referenceSizeForFooterInSection section: Int) -> CGSize
}

extension UICollectionView {
    /// `UICollectionView.elementKindSectionHeader` (`UICollectionElementKindSectionHeader`,
    /// UIKit/UICollectionViewLayout.h, which Swift imports as a class property of the
    /// main-actor class: read on the main actor, as the SDK requires).
    public static let elementKindSectionHeader = "UICollectionElementKindSectionHeader"
    /// `UICollectionView.elementKindSectionFooter` (`UICollectionElementKindSectionFooter`).
    public static let elementKindSectionFooter = "UICollectionElementKindSectionFooter"
}
