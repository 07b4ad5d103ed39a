/// One item's layout, as `UICollectionViewLayoutAttributes` holds it.
///
/// `center` and `size` are the untransformed geometry; `frame` is derived from them
/// (setting it moves the centre and resizes). The transform applies about the centre.
public struct LayoutAttributes: Hashable, Sendable {
    public var indexPath: CardIndexPath
    public var center: Point
    public var size: Size
    /// The 3D transform; an affine transform is stored embedded (m11 = a, m12 = b, m21 = c, m22 = d, m41 = tx, m42 = ty).
    public var transform3D: Transform3D
    public var alpha: Double
    public var zIndex: Int
    public var isHidden: Bool

    public init(
        indexPath: CardIndexPath, frame: Rect, transform3D: Transform3D = .identity,
        alpha: Double = 1, zIndex: Int = 0, isHidden: Bool = false
    ) {
        self.indexPath = indexPath
        self.center = frame.center
        self.size = frame.size
        self.transform3D = transform3D
        self.alpha = alpha
        self.zIndex = zIndex
        self.isHidden = isHidden
    }

    /// The untransformed frame.
    public var frame: Rect {
        get {
            Rect(x: center.x - size.width / 2, y: center.y - size.height / 2,
                 width: size.width, height: size.height)
        }
        set {
            center = newValue.center
            size = newValue.size
        }
    }

    /// Sets the transform from a 2D affine one (`attributes.transform = …`).
    public mutating func setTransform(_ affine: CardAffineTransform) {
        transform3D = affine.transform3D
    }
}
