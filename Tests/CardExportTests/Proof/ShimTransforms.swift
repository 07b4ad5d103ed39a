import UIKit

/// TransformShimTests's chains computed with the UIKit module's functions.
enum ShimTransforms {
    /// The chain through the UIKit module: the sixteen fields, m11 … m44.
    static func fields(of c: TransformShimTests.Chain) -> [Double] {
        let n = c.n.map { CGFloat($0) }
        let (ax, ay, az) = c.axisVector(0), (bx, by, bz) = c.axisVector(1)
        var t = CATransform3DMakeRotation(n[0], CGFloat(ax), CGFloat(ay), CGFloat(az))
        t.m34 = n[1] / 600
        t = CATransform3DRotate(t, n[2], CGFloat(bx), CGFloat(by), CGFloat(bz))
        t = CATransform3DScale(t, n[3], n[4], n[5])
        t = CATransform3DTranslate(t, n[6], n[7], n[8])
        t = CATransform3DConcat(t, CATransform3DMakeScale(n[9], n[10], n[11]))
        t = CATransform3DConcat(CATransform3DMakeTranslation(n[12], n[13], n[14]), t)
        var a = CGAffineTransform(rotationAngle: n[16])
        a = a.scaledBy(x: n[17], y: n[18])
        a = a.translatedBy(x: n[19], y: n[20])
        a = a.rotated(by: n[21])
        a = a.concatenating(CGAffineTransform(translationX: n[22], y: n[23]))
        a = a.inverted()
        t = CATransform3DConcat(t, CATransform3DMakeAffineTransform(a))
        if c.invert { t = CATransform3DInvert(t) }
        return [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44].map { Double($0) }
    }

}
