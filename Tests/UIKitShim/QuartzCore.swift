// QuartzCore: CATransform3D and its functions (signatures from the iOS SDK's
// QuartzCore/CATransform3D.h as Swift imports it: `CATransform3DRotate(_ t: CATransform3D,
// _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D`, …;
// `CATransform3DIdentity` a `let`), and the CALayer properties a cell's `apply` sets.
//
// The arithmetic is that of cardlua's Lua engine (Sources/CLuaShims/transform_math.c),
// operation for operation, so that an exported layout's numbers equal its script's to the
// bit; TransformShimTests checks it against the engine. (Core Animation's own results may
// differ from both in the last bit; the comparison is between the script and its export.)
#if canImport(Darwin)
@_exported import QuartzCore
#else

/// `CATransform3D`: a 4×4 matrix, points as row vectors (`p' = p · M`).
public struct CATransform3D: Sendable {
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
    public var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat

    /// All zeros, as the C struct's `init()`.
    public init() {
        self.init(m11: 0, m12: 0, m13: 0, m14: 0, m21: 0, m22: 0, m23: 0, m24: 0,
                  m31: 0, m32: 0, m33: 0, m34: 0, m41: 0, m42: 0, m43: 0, m44: 0)
    }

    public init(m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
                m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
                m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
                m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// Row-major `m11 … m44`.
    init(_ m: [CGFloat]) {
        self.init(m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7],
                  m31: m[8], m32: m[9], m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15])
    }

    /// Row-major `m11 … m44`.
    var fields: [CGFloat] { [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44] }
}

public let CATransform3DIdentity = CATransform3D(
    m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
    m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)

public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool {
    CATransform3DEqualToTransform(t, CATransform3DIdentity)
}

public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool {
    a.m11 == b.m11 && a.m12 == b.m12 && a.m13 == b.m13 && a.m14 == b.m14
        && a.m21 == b.m21 && a.m22 == b.m22 && a.m23 == b.m23 && a.m24 == b.m24
        && a.m31 == b.m31 && a.m32 == b.m32 && a.m33 == b.m33 && a.m34 == b.m34
        && a.m41 == b.m41 && a.m42 == b.m42 && a.m43 == b.m43 && a.m44 == b.m44
}

public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m41 = tx; t.m42 = ty; t.m43 = tz
    return t
}

public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m11 = sx; t.m22 = sy; t.m33 = sz
    return t
}

// The functions below work on the matrix's fields in place, not on arrays of them: Core
// Animation's are C functions on a struct, and an array would be a heap allocation per
// call that the real framework does not make (the export benchmark measures this code).

/// A 3×3 matrix, row-major: the rotation part of a transform.
private typealias Matrix3 = (CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat, CGFloat)

/// The rotation's 3×3 part about the unit axis (x, y, z) (Rodrigues, for row vectors).
private func rotation3x3(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> Matrix3 {
    let c = cos(angle), s = sin(angle)
    let k1 = 1 - c
    return (c + x * x * k1, x * y * k1 + z * s, x * z * k1 - y * s,
            x * y * k1 - z * s, c + y * y * k1, y * z * k1 + x * s,
            x * z * k1 + y * s, y * z * k1 - x * s, c + z * z * k1)
}

/// `t` with rows 1–3 replaced column by column: `f(m1k, m2k, m3k)` gives the new
/// `(m1k, m2k, m3k)` for each column k; the translation row is kept.
@inline(__always)
private func mapRows123(_ t: CATransform3D,
                        _ f: (CGFloat, CGFloat, CGFloat) -> (CGFloat, CGFloat, CGFloat)) -> CATransform3D {
    var m = t
    (m.m11, m.m21, m.m31) = f(t.m11, t.m21, t.m31)
    (m.m12, m.m22, m.m32) = f(t.m12, t.m22, t.m32)
    (m.m13, m.m23, m.m33) = f(t.m13, t.m23, t.m33)
    (m.m14, m.m24, m.m34) = f(t.m14, t.m24, t.m34)
    return m
}

/// A zero or infinite axis gives the identity; the axis is normalised.
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    let len = (x * x + y * y + z * z).squareRoot()
    if !(len > 0) || len == .infinity { return CATransform3DIdentity }
    let r = rotation3x3(angle, x / len, y / len, z / len)
    var t = CATransform3DIdentity
    t.m11 = r.0; t.m12 = r.1; t.m13 = r.2
    t.m21 = r.3; t.m22 = r.4; t.m23 = r.5
    t.m31 = r.6; t.m32 = r.7; t.m33 = r.8
    return t
}

/// rotation · t: the rotation applies first. The principal axes leave the zero terms out
/// (as the engine); a unit axis is not normalised; a zero or infinite axis returns t.
public func CATransform3DRotate(_ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat,
                                _ z: CGFloat) -> CATransform3D {
    if x == 0 && z == 0 && y == 1 {
        let c = cos(angle), s = sin(angle)
        let r = c + (1 - c)
        return mapRows123(t) { a1, a2, a3 in (c * a1 - s * a3, r * a2, s * a1 + c * a3) }
    }
    if x == 0 && y == 0 && z == 1 {
        let c = cos(angle), s = sin(angle)
        let r = c + (1 - c)
        return mapRows123(t) { a1, a2, a3 in (c * a1 + s * a2, c * a2 - s * a1, r * a3) }
    }
    if x == 1 && y == 0 && z == 0 {
        let c = cos(angle), s = sin(angle)
        let r = c + (1 - c)
        return mapRows123(t) { a1, a2, a3 in (r * a1, c * a2 + s * a3, c * a3 - s * a2) }
    }
    let len2 = x * x + y * y + z * z
    let len = len2 == 1 ? 1 : len2.squareRoot()
    if !(len > 0) || len == .infinity { return t }
    let r = rotation3x3(angle, x / len, y / len, z / len)
    return mapRows123(t) { a1, a2, a3 in
        (r.0 * a1 + r.1 * a2 + r.2 * a3, r.3 * a1 + r.4 * a2 + r.5 * a3, r.6 * a1 + r.7 * a2 + r.8 * a3)
    }
}

/// scale · t: rows 1–3 scaled, the translation row kept.
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    mapRows123(t) { a1, a2, a3 in (sx * a1, sy * a2, sz * a3) }
}

/// translation · t: the translation row moves by tx·row1 + ty·row2 + tz·row3.
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    var m = t
    m.m41 = tx * t.m11 + ty * t.m21 + tz * t.m31 + t.m41
    m.m42 = tx * t.m12 + ty * t.m22 + tz * t.m32 + t.m42
    m.m43 = tx * t.m13 + ty * t.m23 + tz * t.m33 + t.m43
    m.m44 = tx * t.m14 + ty * t.m24 + tz * t.m34 + t.m44
    return m
}

/// a · b: `a` applies first.
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D {
    /// One row of the product: the row (p1, p2, p3, p4) of `a` times `b`.
    func row(_ p1: CGFloat, _ p2: CGFloat, _ p3: CGFloat, _ p4: CGFloat) -> (CGFloat, CGFloat, CGFloat, CGFloat) {
        (p1 * b.m11 + p2 * b.m21 + p3 * b.m31 + p4 * b.m41,
         p1 * b.m12 + p2 * b.m22 + p3 * b.m32 + p4 * b.m42,
         p1 * b.m13 + p2 * b.m23 + p3 * b.m33 + p4 * b.m43,
         p1 * b.m14 + p2 * b.m24 + p3 * b.m34 + p4 * b.m44)
    }
    var m = CATransform3D()
    (m.m11, m.m12, m.m13, m.m14) = row(a.m11, a.m12, a.m13, a.m14)
    (m.m21, m.m22, m.m23, m.m24) = row(a.m21, a.m22, a.m23, a.m24)
    (m.m31, m.m32, m.m33, m.m34) = row(a.m31, a.m32, a.m33, a.m34)
    (m.m41, m.m42, m.m43, m.m44) = row(a.m41, a.m42, a.m43, a.m44)
    return m
}

/// Gauss–Jordan elimination with partial pivoting; a singular t comes back unchanged.
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D {
    let f = t.fields
    var a = (0..<4).map { r in (0..<4).map { c in f[r * 4 + c] } }
    var inv = (0..<4).map { r in (0..<4).map { c -> CGFloat in r == c ? 1 : 0 } }
    for c in 0..<4 {
        var pivot = c
        var best = abs(a[c][c])
        for r in (c + 1)..<4 where best < abs(a[r][c]) {
            pivot = r
            best = abs(a[r][c])
        }
        if best == 0 { return t }
        a.swapAt(c, pivot)
        inv.swapAt(c, pivot)
        let p = a[c][c]
        for k in 0..<4 { a[c][k] = a[c][k] / p; inv[c][k] = inv[c][k] / p }
        for r in 0..<4 where r != c {
            let fr = a[r][c]
            if fr == 0 { continue }
            for k in 0..<4 {
                a[r][k] = a[r][k] - fr * a[c][k]
                inv[r][k] = inv[r][k] - fr * inv[c][k]
            }
        }
    }
    return CATransform3D(inv.flatMap { $0 })
}

public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m11 = m.a; t.m12 = m.b; t.m21 = m.c; t.m22 = m.d; t.m41 = m.tx; t.m42 = m.ty
    return t
}

public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool {
    t.m13 == 0 && t.m14 == 0 && t.m23 == 0 && t.m24 == 0 && t.m31 == 0 && t.m32 == 0
        && t.m33 == 1 && t.m34 == 0 && t.m43 == 0 && t.m44 == 1
}

public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform {
    CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: t.m41, ty: t.m42)
}

/// `CALayer` (not main-actor isolated in the iOS 17 SDK): the properties a generated
/// `apply(to:)` sets, with Core Animation's defaults.
open class CALayer: NSObject {
    open var cornerRadius: CGFloat = 0
    open var shadowOpacity: Float = 0
    open var shadowRadius: CGFloat = 3
    open var shadowOffset = CGSize(width: 0, height: -3)
    open var isDoubleSided = true
    open var backgroundColor: CGColor?
    open var transform = CATransform3DIdentity
}
#endif
