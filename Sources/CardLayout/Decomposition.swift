import Foundation

/// Scale and rotation read off a transform's upper 3×3 (perspective and translation
/// ignored): row lengths are the scales, and the normalised rows a rotation read as
/// angles about x, y and z. Exact for a rotation about one axis, which is what card
/// effects use; an approximation for compound turns.
public struct Decomposition: Sendable {
    public var scaleX: Double
    public var scaleY: Double
    public var scaleZ: Double
    public var rotationX: Double
    public var rotationY: Double
    public var rotationZ: Double

    public init(_ t: Transform3D) {
        func length(_ a: Double, _ b: Double, _ c: Double) -> Double { (a * a + b * b + c * c).squareRoot() }
        scaleX = length(t.m11, t.m12, t.m13)
        scaleY = length(t.m21, t.m22, t.m23)
        scaleZ = length(t.m31, t.m32, t.m33)
        let sx = scaleX == 0 ? 1 : scaleX, sy = scaleY == 0 ? 1 : scaleY, sz = scaleZ == 0 ? 1 : scaleZ
        let r11 = t.m11 / sx, r12 = t.m12 / sx, r13 = t.m13 / sx
        let r23 = t.m23 / sy, r33 = t.m33 / sz
        // Row vectors: a turn θ about y has m13 = −sin θ, about x m23 = sin θ, about z m12 = sin θ.
        rotationY = asin(max(-1, min(1, -r13)))
        rotationX = atan2(r23, r33)
        rotationZ = atan2(r12, r11)
    }
}
