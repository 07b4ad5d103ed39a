// UIResponder, UIView and UIScrollView: what a layout reads of its collection view and
// what a cell's `apply` sets. Signatures from the iOS 17 SDK (UIKit/UIView.h,
// UIKit/UIScrollView.h as Swift imports them): all `@MainActor open class`;
// `UIView.layer: CALayer { get }`, `backgroundColor: UIColor?`, `bounds: CGRect`,
// `frame: CGRect`, `effectiveUserInterfaceLayoutDirection: UIUserInterfaceLayoutDirection { get }`,
// `func layoutIfNeeded()`, `func layoutSubviews()`;
// `UIScrollView.contentOffset: CGPoint`, `func setContentOffset(_ contentOffset: CGPoint,
// animated: Bool)`, `contentSize: CGSize`, `bounces`,
// `alwaysBounceVertical`, `alwaysBounceHorizontal`, `isPagingEnabled`,
// `decelerationRate: UIScrollView.DecelerationRate` (a `struct` with `rawValue: CGFloat`,
// `.normal`, `.fast`).
//
// Left out: `UIScrollView.delegate` (UICollectionView redeclares it with its own protocol,
// which Objective-C allows and Swift does not; UICollectionView.delegate is declared there).

/// `UIResponder`.
@MainActor open class UIResponder: NSObject {
    public override init() { super.init() }
}

/// `UIView`.
@MainActor open class UIView: UIResponder {
    /// The view's Core Animation layer.
    open var layer: CALayer { backingLayer }
    private let backingLayer = CALayer()

    open var backgroundColor: UIColor?

    /// `bounds`; `frame` keeps its origin (no transform here). Unchecked exclusivity, as
    /// an Objective-C property (see UICollectionViewLayoutAttributes).
    @exclusivity(unchecked) open var bounds: CGRect {
        willSet { boundsWillChange(to: newValue) }
    }

    open var frame: CGRect {
        get { CGRect(origin: frameOrigin, size: bounds.size) }
        set {
            frameOrigin = newValue.origin
            bounds.size = newValue.size
        }
    }
    @exclusivity(unchecked) private var frameOrigin: CGPoint

    open var effectiveUserInterfaceLayoutDirection: UIUserInterfaceLayoutDirection {
        shimLayoutDirection
    }
    var shimLayoutDirection = UIUserInterfaceLayoutDirection.leftToRight

    public init(frame: CGRect) {
        bounds = CGRect(origin: .zero, size: frame.size)
        frameOrigin = frame.origin
        super.init()
    }

    public required init?(coder: NSCoder) { nil }

    /// Called before `bounds` changes (UICollectionView asks its layout then).
    func boundsWillChange(to newValue: CGRect) {}

    /// Lays the view out now: here always (UIKit only when a layout is pending; a
    /// collection view's pass does nothing when its layout is valid, so it is the same).
    open func layoutIfNeeded() { layoutSubviews() }

    /// The override point `layoutIfNeeded()` calls; a plain view has nothing to lay out.
    open func layoutSubviews() {}
}

/// `UIScrollView`.
@MainActor open class UIScrollView: UIView {
    /// `UIScrollView.DecelerationRate`.
    public struct DecelerationRate: Hashable, RawRepresentable, Sendable {
        public var rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        /// 0.998 per millisecond.
        public static let normal = DecelerationRate(rawValue: 0.998)
        /// 0.99 per millisecond.
        public static let fast = DecelerationRate(rawValue: 0.99)
    }

    /// The visible rect's origin.
    open var contentOffset: CGPoint {
        get { bounds.origin }
        set { bounds.origin = newValue }
    }

    /// UIKit animates to the offset when `animated`; here it is set at once, where the
    /// animation ends (the proof compares resting offsets, not UIKit's animation curve).
    open func setContentOffset(_ contentOffset: CGPoint, animated: Bool) {
        self.contentOffset = contentOffset
    }

    open var contentSize: CGSize = .zero
    open var bounces = true
    open var alwaysBounceVertical = false
    open var alwaysBounceHorizontal = false
    open var isPagingEnabled = false
    open var decelerationRate = DecelerationRate.normal
}
