// UICollectionViewLayoutAttributes. Signatures from the iOS 17 SDK
// (UIKit/UICollectionViewLayout.h as Swift imports it, and Apple's documentation page
// "UICollectionViewLayoutAttributes", whose declaration reads `@MainActor class
// UICollectionViewLayoutAttributes : NSObject`): `open var frame: CGRect`, `center: CGPoint`,
// `size: CGSize`, `transform3D: CATransform3D`, `bounds: CGRect`, `transform: CGAffineTransform`,
// `alpha: CGFloat`, `zIndex: Int`, `isHidden: Bool`, `indexPath: IndexPath`,
// `representedElementCategory: UICollectionView.ElementCategory { get }`,
// `representedElementKind: String? { get }`, `convenience init(forCellWith indexPath: IndexPath)`,
// and NSCopying's `copy(with zone: NSZone? = nil) -> Any` as a main-actor member (the
// Objective-C conformance is imported without isolation checks: here `@preconcurrency`).
// `isEqual(_:)` is NSObject's, nonisolated: an override in a subclass is nonisolated too,
// as in an app.

/// `UICollectionViewLayoutAttributes`: one element's geometry and look.
///
/// `@exclusivity(unchecked)`: UIKit's properties are Objective-C's, read and written
/// without Swift's run-time exclusivity tracking; a Swift class's stored property pays a
/// `swift_beginAccess` (a thread-local access set) on every dynamic access, which the
/// export benchmark would otherwise count as the exported code's cost.
@MainActor open class UICollectionViewLayoutAttributes: NSObject {
    /// The untransformed centre and size (setting `frame` sets both).
    @exclusivity(unchecked) open var center: CGPoint = .zero
    @exclusivity(unchecked) open var size: CGSize = .zero
    @exclusivity(unchecked) open var transform3D: CATransform3D = CATransform3DIdentity
    @exclusivity(unchecked) open var alpha: CGFloat = 1
    @exclusivity(unchecked) open var zIndex: Int = 0
    @exclusivity(unchecked) open var isHidden = false
    @exclusivity(unchecked) open var indexPath = IndexPath(item: 0, section: 0)
    @exclusivity(unchecked) open private(set) var representedElementCategory = UICollectionView.ElementCategory.cell
    @exclusivity(unchecked) open private(set) var representedElementKind: String?

    /// Deviation from the SDK: `required` (UIKit makes instances of a layout's
    /// `layoutAttributesClass` through the Objective-C runtime; Swift needs a required
    /// initializer to do it from a metatype). Only stricter: a subclass with its own
    /// designated initializer must also write this one.
    public required override init() { super.init() }

    /// Attributes for a cell.
    public convenience init(forCellWith indexPath: IndexPath) {
        self.init()
        self.indexPath = indexPath
    }

    open var frame: CGRect {
        get { CGRect(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height) }
        set {
            center = CGPoint(x: newValue.midX, y: newValue.midY)
            size = newValue.size
        }
    }

    open var bounds: CGRect {
        get { CGRect(origin: .zero, size: size) }
        set { size = newValue.size }
    }

    open var transform: CGAffineTransform {
        get { CATransform3DGetAffineTransform(transform3D) }
        set { transform3D = CATransform3DMakeAffineTransform(newValue) }
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = type(of: self).init()
        copy.center = center
        copy.size = size
        copy.transform3D = transform3D
        copy.alpha = alpha
        copy.zIndex = zIndex
        copy.isHidden = isHidden
        copy.indexPath = indexPath
        copy.representedElementCategory = representedElementCategory
        copy.representedElementKind = representedElementKind
        return copy
    }

    nonisolated open override func isEqual(_ object: Any?) -> Bool {
        // Attributes live on the main actor; UIKit compares them there.
        guard let other = object as? UICollectionViewLayoutAttributes else { return false }
        return MainActor.assumeIsolated {
            return other.center == center && other.size == size
                && CATransform3DEqualToTransform(other.transform3D, transform3D) && other.alpha == alpha
                && other.zIndex == zIndex && other.isHidden == isHidden && other.indexPath == indexPath
                && other.representedElementCategory == representedElementCategory
                && other.representedElementKind == representedElementKind
        }
    }

    /// A header or footer's attributes (UIKit's `init(forSupplementaryViewOfKind:with:)`,
    /// kept internal: the emitter does not use it).
    static func supplementary(_ cls: UICollectionViewLayoutAttributes.Type, kind: String,
                              indexPath: IndexPath) -> UICollectionViewLayoutAttributes {
        let attributes = cls.init()
        attributes.indexPath = indexPath
        attributes.representedElementCategory = .supplementaryView
        attributes.representedElementKind = kind
        return attributes
    }
}

extension UICollectionViewLayoutAttributes: @preconcurrency NSCopying {}
