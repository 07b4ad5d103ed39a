// CoreGraphics names Linux Foundation lacks (it has CGFloat, CGPoint, CGSize and CGRect
// with their accessors, but no CGAffineTransform and no CGColor). Signatures from the iOS
// SDK's CoreGraphics overlay: `CGAffineTransform(a:b:c:d:tx:ty:)`, `.identity`,
// `init(scaleX:y:)`, `init(rotationAngle:)`, `init(translationX:y:)`, `scaledBy(x:y:)`,
// `rotated(by:)`, `translatedBy(x:y:)`, `concatenating(_:)`, `inverted()`, `isIdentity`,
// and `CGPoint.applying(_:)` (`CGPointApplyAffineTransform`).
#if canImport(Darwin)
@_exported import CoreGraphics
#else

/// `CGVector` (CoreGraphics' `struct CGVector { var dx: CGFloat; var dy: CGFloat }`): SwiftUI's
/// `ScrollTargetBehaviorContext.velocity`.
public struct CGVector: Equatable, Sendable {
    public var dx: CGFloat, dy: CGFloat
    public init() { self.init(dx: 0, dy: 0) }
    public init(dx: CGFloat, dy: CGFloat) { self.dx = dx; self.dy = dy }
}

/// `CGAffineTransform`: `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`. The arithmetic is
/// the one cardlua's Lua engine does (Sources/CLuaShims/transform_math.c, in its order), so
/// an exported layout and its script agree to the bit.
public struct CGAffineTransform: Equatable, Sendable {
    public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat

    public init() { self.init(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0) }

    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// `CGAffineTransformMakeScale`.
    public init(scaleX sx: CGFloat, y sy: CGFloat) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }

    /// `CGAffineTransformMakeRotation`: (cos, sin, −sin, cos, 0, 0).
    public init(rotationAngle angle: CGFloat) {
        let c = cos(angle), s = sin(angle)
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// `CGAffineTransformMakeTranslation`.
    public init(translationX tx: CGFloat, y ty: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }

    public var isIdentity: Bool { self == .identity }

    /// `CGAffineTransformConcat(self, t2)`: `self` applies first.
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        let p = self, q = t2
        return CGAffineTransform(
            a: p.a * q.a + p.b * q.c, b: p.a * q.b + p.b * q.d,
            c: p.c * q.a + p.d * q.c, d: p.c * q.b + p.d * q.d,
            tx: p.tx * q.a + p.ty * q.c + q.tx, ty: p.tx * q.b + p.ty * q.d + q.ty)
    }

    /// `CGAffineTransformScale(self, sx, sy)`: the scale applies first.
    public func scaledBy(x sx: CGFloat, y sy: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: sx, y: sy).concatenating(self)
    }

    /// `CGAffineTransformRotate(self, angle)`: the rotation applies first.
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// `CGAffineTransformTranslate(self, tx, ty)`: the translation applies first.
    public func translatedBy(x tx: CGFloat, y ty: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: tx, y: ty).concatenating(self)
    }

    /// `CGAffineTransformInvert`: a singular transform comes back unchanged.
    public func inverted() -> CGAffineTransform {
        let det = a * d - b * c
        if det == 0 { return self }
        return CGAffineTransform(a: d / det, b: -b / det, c: -c / det, d: a / det,
                                 tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }
}

// Linux Foundation's CGRect.midX and midY do their arithmetic differently from Core
// Graphics's CGRectGetMidX (`minX + width / 2` for a rect of positive size), and the last
// bit differs for about one rect in five: enough to turn a `trunc` or a comparison of
// an exported layout. These shadow Foundation's (a module's own declaration wins over one
// it imports), so exported code reads Core Graphics's arithmetic, the Lua engine's too.
extension CGPoint {
    /// `CGPointApplyAffineTransform(self, t)`: `(a·x + c·y + tx, b·x + d·y + ty)`, summed in
    /// that order (as transform_math.c does).
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGRect {
    /// `CGRectGetMidX`.
    public var midX: CGFloat { minX + width / 2 }
    /// `CGRectGetMidY`.
    public var midY: CGFloat { minY + height / 2 }
}

/// `CGColor` (a Core Foundation type, Sendable in the SDK): here only its components.
public final class CGColor: @unchecked Sendable {
    /// `CGColor.components`: red, green, blue, alpha.
    public let components: [CGFloat]?
    /// `CGColor.alpha`.
    public var alpha: CGFloat { components?.last ?? 1 }

    init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.components = [red, green, blue, alpha]
    }
}
#endif
