/// The axis a collection view scrolls along (`UICollectionView.ScrollDirection`).
public enum ScrollDirection: String, Hashable, Sendable {
    case vertical
    case horizontal
}

/// How fast a released scroll view slows down (`UIScrollView.DecelerationRate`):
/// the factor velocity keeps per millisecond.
public struct DecelerationRate: Hashable, Sendable {
    public var rawValue: Double
    public init(rawValue: Double) { self.rawValue = rawValue }
    /// `UIScrollView.DecelerationRate.normal`: 0.998 per ms.
    public static let normal = DecelerationRate(rawValue: 0.998)
    /// `UIScrollView.DecelerationRate.fast`: 0.99 per ms.
    public static let fast = DecelerationRate(rawValue: 0.99)
}

/// `UIUserInterfaceLayoutDirection`: which way a horizontal flow runs.
public enum UserInterfaceLayoutDirection: String, Hashable, Sendable {
    case leftToRight
    case rightToLeft
}

/// The properties of a `UICollectionViewFlowLayout` (plus the scroll view settings a
/// script may set in `prepare`). Defaults are UIKit's.
public struct FlowLayoutConfiguration: Hashable, Sendable {
    public var scrollDirection: ScrollDirection = .vertical
    public var itemSize = Size(width: 50, height: 50)
    public var sectionInset = CardEdgeInsets.zero
    public var minimumLineSpacing: Double = 10
    public var minimumInteritemSpacing: Double = 10
    /// Header size per section: the extent along the scroll axis counts (`height` when
    /// vertical, `width` when horizontal); zero means no header.
    public var headerReferenceSize = Size.zero
    /// Footer size per section, like `headerReferenceSize`.
    public var footerReferenceSize = Size.zero
    /// `UIScrollView.decelerationRate`.
    public var decelerationRate = DecelerationRate.normal
    /// `UIScrollView.isPagingEnabled`.
    public var isPagingEnabled = false
    /// `UIScrollView.bounces`: drags rubber-band past the edges and flings bounce off
    /// them (UIKit's default); false stops the content at the edges.
    public var bounces = true
    /// `UIScrollView.alwaysBounceHorizontal`: with ``bounces``, horizontally scrolling
    /// content that fits the viewport still drags and bounces; false (UIKit's default)
    /// keeps it still.
    public var alwaysBounceHorizontal = false
    /// `UIScrollView.alwaysBounceVertical`: the same for vertically scrolling content.
    public var alwaysBounceVertical = false
    /// The items repeat endlessly along the scroll axis (iCarousel's `wrap`, an infinite
    /// pager): no edges, no rubber band, content offsets unbounded in both directions. An
    /// item keeps its index path in every repetition.
    public var wraps = false
    /// `UICollectionView.effectiveUserInterfaceLayoutDirection`: set by the host (the
    /// `--rtl` flag, a scenario's `rtl = true`) before `prepare`, read by the effect.
    public var layoutDirection = UserInterfaceLayoutDirection.leftToRight
    /// `UICollectionViewLayout.flipsHorizontallyInOppositeLayoutDirection` (true for a
    /// flow layout, as UIKit): in a right-to-left layout the horizontal flow mirrors.
    public var flipsHorizontallyInOppositeLayoutDirection = true

    public init() {}
}
