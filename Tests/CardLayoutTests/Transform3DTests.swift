import CardLayout
import Foundation
import Testing

/// Core Animation's conventions (row vectors, `op · t`, docs/script-api.md), checked against matrices written out by
/// hand from the definitions.
@Suite struct Transform3DTests {
    static func close(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-12) -> Bool {
        zip(a.fields, b.fields).allSatisfy { abs($0 - $1) <= tolerance }
    }

    /// About z, a positive angle maps (1, 0) to (cos, sin): clockwise on a y-down screen.
    @Test func rotationAboutEachAxis() {
        let a = 0.3, c = cos(a), s = sin(a)
        #expect(Self.close(.rotation(angle: a, x: 0, y: 0, z: 1),
                           Transform3D([c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])))
        #expect(Self.close(.rotation(angle: a, x: 0, y: 1, z: 0),
                           Transform3D([c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1])))
        #expect(Self.close(.rotation(angle: a, x: 1, y: 0, z: 0),
                           Transform3D([1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1])))
        // The axis is normalised; a zero axis is no rotation.
        #expect(Self.close(.rotation(angle: a, x: 0, y: 5, z: 0), .rotation(angle: a, x: 0, y: 1, z: 0)))
        #expect(Transform3D.rotation(angle: a, x: 0, y: 0, z: 0) == .identity)
    }

    /// `CATransform3DTranslate(t, …)` is `translation · t`: the translation applies first,
    /// so it is scaled by an earlier scale.
    @Test func operationsApplyFirst() {
        let t = Transform3D.scale(x: 2, y: 3, z: 1).translated(x: 10, y: 10, z: 0)
        let p = t.apply(x: 1, y: 1, z: 0)
        #expect(p.x == 22 && p.y == 33 && p.w == 1)
        let rotatedThenScaled = Transform3D.scale(x: 2, y: 2, z: 2).rotated(by: .pi / 2, x: 0, y: 0, z: 1)
        let q = rotatedThenScaled.apply(x: 1, y: 0, z: 0)
        #expect(abs(q.x) < 1e-12 && abs(q.y - 2) < 1e-12)
    }

    @Test func concatIsRowVectorProduct() {
        let a = Transform3D.translation(x: 1, y: 0, z: 0), b = Transform3D.scale(x: 3, y: 3, z: 3)
        // p·(a·b): translate first, then scale: (0 + 1)·3 = 3.
        #expect(a.concatenating(b).apply(x: 0, y: 0, z: 0).x == 3)
        #expect(b.concatenating(a).apply(x: 0, y: 0, z: 0).x == 1)
    }

    @Test func inverseUndoes() {
        var t = Transform3D.rotation(angle: 0.4, x: 1, y: 2, z: 3).scaled(x: 2, y: 0.5, z: 1.5)
            .translated(x: 4, y: -2, z: 7)
        t.m34 = -1.0 / 500
        #expect(Self.close(t.concatenating(t.inverted()), .identity, 1e-12))
        // A singular matrix comes back unchanged, as CATransform3DInvert does.
        let singular = Transform3D.scale(x: 0, y: 1, z: 1)
        #expect(singular.inverted() == singular)
    }

    /// CGAffineTransform(a, b, c, d, tx, ty) embeds as m11=a m12=b m21=c m22=d m41=tx m42=ty.
    @Test func affineEmbedding() {
        let t = CardAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6).transform3D
        #expect(t.fields == [1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 1, 0, 5, 6, 0, 1])
        let r = CardAffineTransform.rotation(0.7).concatenating(.translation(x: 3, y: 4))
        #expect(Self.close(r.transform3D,
                           Transform3D.rotation(angle: 0.7, x: 0, y: 0, z: 1).concatenating(.translation(x: 3, y: 4, z: 0))))
    }

    /// Perspective: m34 = −1/d puts the eye at d; a point at z = d/2 towards the eye
    /// appears twice as far from the centre.
    @Test func perspectiveDivide() {
        var t = Transform3D.identity
        t.m34 = -1.0 / 600
        let p = t.apply(x: 100, y: 0, z: 300)
        #expect(abs(p.x / p.w - 200) < 1e-12)
    }

    /// A w×h card turned 35° about y with m34 = −1/600, corners about its centre: the
    /// closed form x' = u·c/(1 − u·s/600·(−1)…) written out from p' = p·M.
    @Test func projectedCorners() {
        let theta = 35 * Double.pi / 180
        var m = Transform3D.identity
        m.m34 = -1.0 / 600
        m = m.rotated(by: theta, x: 0, y: 1, z: 0)
        let item = LayoutAttributes(indexPath: CardIndexPath(item: 0, section: 0),
                                    frame: Rect(x: 100, y: 50, width: 200, height: 300), transform3D: m)
        let quad = try! #require(item.projectedQuad(contentOffset: Point(x: 20, y: 0)))
        let c = cos(theta), s = sin(theta)
        // Row vector (u, v, 0, 1)·(R·P): x = u·c, y = v, w = 1 + u·s/600 (m14 = −s·(−1/600)).
        for (corner, (u, v)) in zip(quad.corners, [(-100.0, -150.0), (100, -150), (100, 150), (-100, 150)]) {
            let w = 1 + u * s / 600
            #expect(abs(corner.x - (u * c / w + 200 - 20)) < 1e-9)
            #expect(abs(corner.y - (v / w + 200)) < 1e-9)
        }
        // Behind the eye: no quad.
        // (Moved 700 towards an eye at 600, then seen in perspective: w = 1 − 700/600 < 0.)
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 600
        let behind = Transform3D.translation(x: 0, y: 0, z: 700).concatenating(perspective)
        let hidden = LayoutAttributes(indexPath: CardIndexPath(item: 1, section: 0),
                                      frame: Rect(x: 0, y: 0, width: 10, height: 10), transform3D: behind)
        #expect(hidden.projectedQuad(contentOffset: .zero) == nil)
    }
}
