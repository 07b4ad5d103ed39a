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
    a.fields == b.fields
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

/// The rotation's 3×3 part about the unit axis (x, y, z) (Rodrigues, for row vectors).
private func rotation3x3(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> [CGFloat] {
    let c = cos(angle), s = sin(angle)
    let k1 = 1 - c
    return [c + x * x * k1, x * y * k1 + z * s, x * z * k1 - y * s,
            x * y * k1 - z * s, c + y * y * k1, y * z * k1 + x * s,
            x * z * k1 + y * s, y * z * k1 - x * s, c + z * z * k1]
}

/// A zero or infinite axis gives the identity; the axis is normalised.
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    let len = (x * x + y * y + z * z).squareRoot()
    if !(len > 0) || len == .infinity { return CATransform3DIdentity }
    let r = rotation3x3(angle, x / len, y / len, z / len)
    var t = CATransform3DIdentity
    t.m11 = r[0]; t.m12 = r[1]; t.m13 = r[2]
    t.m21 = r[3]; t.m22 = r[4]; t.m23 = r[5]
    t.m31 = r[6]; t.m32 = r[7]; t.m33 = r[8]
    return t
}

/// rotation · t: the rotation applies first. The principal axes leave the zero terms out
/// (as the engine); a unit axis is not normalised; a zero or infinite axis returns t.
public func CATransform3DRotate(_ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat,
                                _ z: CGFloat) -> CATransform3D {
    let src = t.fields
    var m = src
    var axis = 0
    if x == 0 {
        if z == 0 && y == 1 { axis = 2 } else if y == 0 && z == 1 { axis = 3 }
    } else if x == 1 && y == 0 && z == 0 {
        axis = 1
    }
    if axis != 0 {
        let c = cos(angle), s = sin(angle)
        let r = c + (1 - c)
        for k in 0..<4 {
            let a1 = src[k], a2 = src[4 + k], a3 = src[8 + k]
            switch axis {
            case 2:
                m[k] = c * a1 - s * a3; m[4 + k] = r * a2; m[8 + k] = s * a1 + c * a3
            case 3:
                m[k] = c * a1 + s * a2; m[4 + k] = c * a2 - s * a1; m[8 + k] = r * a3
            default:
                m[k] = r * a1; m[4 + k] = c * a2 + s * a3; m[8 + k] = c * a3 - s * a2
            }
        }
        return CATransform3D(m)
    }
    let len2 = x * x + y * y + z * z
    let len = len2 == 1 ? 1 : len2.squareRoot()
    if !(len > 0) || len == .infinity { return t }
    let r = rotation3x3(angle, x / len, y / len, z / len)
    for i in 0..<3 {
        for j in 0..<4 {
            m[i * 4 + j] = r[i * 3] * src[j] + r[i * 3 + 1] * src[4 + j] + r[i * 3 + 2] * src[8 + j]
        }
    }
    return CATransform3D(m)
}

/// scale · t: rows 1–3 scaled, the translation row kept.
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    var m = t.fields
    let f = [sx, sy, sz]
    for k in 0..<12 { m[k] = f[k / 4] * m[k] }
    return CATransform3D(m)
}

/// translation · t: the translation row moves by tx·row1 + ty·row2 + tz·row3.
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    let a = t.fields
    var m = a
    for j in 0..<4 {
        m[12 + j] = tx * a[j] + ty * a[4 + j] + tz * a[8 + j] + a[12 + j]
    }
    return CATransform3D(m)
}

/// a · b: `a` applies first.
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D {
    let p = a.fields, q = b.fields
    var m = [CGFloat](repeating: 0, count: 16)
    for i in 0..<4 {
        for j in 0..<4 {
            m[i * 4 + j] = p[i * 4] * q[j] + p[i * 4 + 1] * q[4 + j] + p[i * 4 + 2] * q[8 + j] + p[i * 4 + 3] * q[12 + j]
        }
    }
    return CATransform3D(m)
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
