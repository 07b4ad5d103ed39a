/// What an effect sees of the collection view at one moment.
public struct ScrollContext: Hashable, Sendable {
    /// The visible rect: origin = content offset, size = the viewport.
    public var bounds: Rect
    /// `collectionViewContentSize` of the base layout.
    public var contentSize: Size
    /// Seconds since the scenario began.
    public var time: Double
    /// The finger is on the content (`UIScrollView.isTracking`).
    public var isTracking: Bool
    /// The finger has moved the content (`UIScrollView.isDragging`).
    public var isDragging: Bool
    /// The content moves on its own after a release (`UIScrollView.isDecelerating`).
    public var isDecelerating: Bool

    public init(bounds: Rect, contentSize: Size, time: Double = 0,
                isTracking: Bool = false, isDragging: Bool = false, isDecelerating: Bool = false) {
        self.bounds = bounds
        self.contentSize = contentSize
        self.time = time
        self.isTracking = isTracking
        self.isDragging = isDragging
        self.isDecelerating = isDecelerating
    }

    /// `collectionView.contentOffset`.
    public var contentOffset: Point { bounds.origin }
}

/// A card effect: what a `UICollectionViewFlowLayout` subclass overrides.
///
/// Implemented by `LuaEffect` (a script) and by the native Swift twins of the seeds.
/// Effects may hold state (a Lua state), so they are reference types.
///
/// Each callback is handed the base layout it reads (`layout`: what `super` answers in the
/// subclass, ``FlowLayout`` in the simulator, a host's own layout in an app) for the length
/// of the call: an effect keeps no reference to it.
public protocol Effect: AnyObject {
    /// `prepare()`: adjusts the flow configuration for a viewport of `viewportSize`.
    /// Called on first layout and whenever the viewport size changes.
    func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws

    /// `prepare()` with the collection view's item counts known (what
    /// `collectionView.numberOfItems(inSection:)` answers during `prepare`). Has a default
    /// (below) that forgets the counts and calls ``prepare(_:viewportSize:)``.
    func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size,
                 numberOfItemsInSections: [Int]) throws

    /// `UICollectionViewDelegateFlowLayout`: per-item sizes, per-section insets and
    /// header/footer reference sizes for the layout built right after `prepare`. The
    /// default answers nil: the configuration's values for every item and section.
    func flowLayoutMetrics(configuration: FlowLayoutConfiguration, viewportSize: Size,
                           numberOfItems: [Int]) throws -> FlowLayoutMetrics?

    /// Adjusts the base attributes of every item in the visible rect, in place
    /// (`layoutAttributesForElements(in:)` after `super`, which `layout` is). `attributes` is ordered by
    /// index path (when the layout wraps, by repetition first: an index path may come twice).
    func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding,
                   context: ScrollContext) throws

    /// The layout's own element query (an override of `layoutAttributesForElements(in:)`
    /// that decides which elements a frame shows, and where): the elements for the visible
    /// rect `rect`, each starting attributes that ``transform(_:layout:context:)`` then
    /// adjusts; nil (the default, in EffectElements.swift) when the effect does not
    /// override it, and the frame shows the base attributes meeting the rect.
    func layoutAttributesForElements(in rect: Rect, layout: some BaseLayoutProviding,
                                     context: ScrollContext) throws -> [LayoutAttributes]?

    /// `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)`;
    /// velocity in points per millisecond.
    func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                             context: ScrollContext) throws -> Point
}

extension Effect {
    /// `prepare()` told the item counts first (`collectionView.numberOfItems(inSection:)`
    /// during `prepare`). The default ignores the counts and calls
    /// ``prepare(_:viewportSize:)``.
    public func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size,
                        numberOfItemsInSections: [Int]) throws {
        try prepare(&configuration, viewportSize: viewportSize)
    }

    /// `UICollectionViewDelegateFlowLayout`'s per-item sizes and per-section insets and
    /// header/footer sizes for the layout about to be built after `prepare`; nil (the
    /// default): the configuration's single values for every item and section (the fast
    /// uniform path).
    public func flowLayoutMetrics(configuration: FlowLayoutConfiguration, viewportSize: Size,
                                  numberOfItems: [Int]) throws -> FlowLayoutMetrics? {
        nil
    }
}
