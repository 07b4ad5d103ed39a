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
// For an app's views: `public convenience init()` (NSObject's `-init`, imported as a
// convenience initializer: the class declares designated ones), `open func addSubview(_ view:
// UIView)`, `open var subviews: [UIView] { get }`, `open var superview: UIView? { get }`,
// `open var autoresizingMask: UIView.AutoresizingMask` (an `OptionSet` of `UInt`),
// `open var clipsToBounds: Bool`, `open var contentMode: UIView.ContentMode` (an `Int` enum);
// `UIScrollView.contentInsetAdjustmentBehavior:
// UIScrollView.ContentInsetAdjustmentBehavior` (an `Int` enum: automatic, scrollableAxes,
// never, always; UIKit's default `.automatic`).
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

    public override convenience init() { self.init(frame: .zero) }

    /// `UIView.AutoresizingMask`.
    public struct AutoresizingMask: OptionSet, Sendable {
        public var rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
        public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
        public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)
    }

    /// `UIView.ContentMode`.
    public enum ContentMode: Int, Sendable {
        case scaleToFill = 0, scaleAspectFit, scaleAspectFill, redraw, center, top, bottom, left, right
        case topLeft, topRight, bottomLeft, bottomRight
    }

    open var autoresizingMask: AutoresizingMask = []
    open var clipsToBounds = false
    open var contentMode = ContentMode.scaleToFill

    /// The subviews, back to front (no drawing here: only the tree).
    open var subviews: [UIView] { children }
    open var superview: UIView? { parent }
    private var children: [UIView] = []
    private weak var parent: UIView?

    /// Adds `view` in front of the others (moved from its former superview).
    open func addSubview(_ view: UIView) {
        view.parent?.children.removeAll { $0 === view }
        children.append(view)
        view.parent = self
    }

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

    /// `UIScrollView.ContentInsetAdjustmentBehavior`.
    public enum ContentInsetAdjustmentBehavior: Int, Sendable {
        case automatic = 0, scrollableAxes, never, always
    }

    /// Stored only: this scroll view has no safe area, so no content inset is added.
    open var contentInsetAdjustmentBehavior = ContentInsetAdjustmentBehavior.automatic
}
