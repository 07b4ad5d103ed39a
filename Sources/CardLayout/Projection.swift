/// A card's on-screen quadrilateral after its transform (about its centre, row vectors, perspective divide by w).
public struct ProjectedQuad: Hashable, Sendable {
    /// The corners in viewport coordinates, in the order top-left, top-right,
    /// bottom-right, bottom-left of the untransformed card.
    public var corners: [Point]
}

extension LayoutAttributes {
    /// Projects the four corners through `transform3D` about the centre (anchor 0.5, 0.5),
    /// divides by w, and places them relative to `contentOffset`: a corner `(u, v)` of a
    /// w×h card lands at `(x, y, z, w) = (u − w/2, v − h/2, 0, 1) · M`, on screen at
    /// `(x/w, y/w) + center − contentOffset`.
    ///
    /// Returns nil when any corner lies at or behind the eye (w ≤ 0): such a card
    /// cannot be drawn as a quadrilateral.
    public func projectedQuad(contentOffset: Point) -> ProjectedQuad? {
        let hw = size.width / 2, hh = size.height / 2
        let local = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)]
        var corners: [Point] = []
        corners.reserveCapacity(4)
        for (x, y) in local {
            guard let p = projectedPoint(x: x, y: y, contentOffset: contentOffset) else { return nil }
            corners.append(p)
        }
        return ProjectedQuad(corners: corners)
    }

    /// A point of the card's plane, given in untransformed card coordinates relative to
    /// the centre (`(−w/2, −h/2)` is the top-left corner), on screen as
    /// ``projectedQuad(contentOffset:)`` places the corners; nil at or behind the eye
    /// (w ≤ 0).
    public func projectedPoint(x: Double, y: Double, contentOffset: Point) -> Point? {
        let p = transform3D.apply(x: x, y: y, z: 0)
        guard p.w > 1e-9, p.w.isFinite else { return nil }
        return Point(x: p.x / p.w + center.x - contentOffset.x,
                     y: p.y / p.w + center.y - contentOffset.y)
    }

    /// Whether the card's back is toward the eye (``Transform3D/facesAway``): its corners
    /// wind the other way on screen than the untransformed card's.
    public var isFacingAway: Bool { transform3D.facesAway }

    /// Whether the card is left out because its back is toward the eye and it is not
    /// double-sided (`CALayer.isDoubleSided = false`). Every renderer skips such a card,
    /// as it skips hidden cards.
    public var isBackFaceHidden: Bool { !isDoubleSided && transform3D.facesAway }
}

extension Transform3D {
    /// How the plane z = 0 lands on screen: the determinant
    ///
    ///     D = | m11 m12 m14 |
    ///         | m21 m22 m24 |
    ///         | m41 m42 m44 |
    ///
    /// of the map `(x, y, 1) ↦ (X, Y, W)` that takes a point of the untransformed card
    /// (z = 0, relative to its centre) to homogeneous screen coordinates (row vectors,
    /// `p' = p · M`; z and the third column play no part on screen). The projection
    /// `(X/W, Y/W)` has Jacobian determinant `D / W³`, so every part of the card in front
    /// of the eye (W > 0) keeps the untransformed card's winding when D > 0 (its front is
    /// toward the eye) and reverses it when D < 0 (its back is: turned past 90° about x or
    /// y, mirrored, or seen from behind its plane through the perspective). D = 0: seen
    /// edge-on.
    ///
    /// For `CATransform3DRotate(t, θ, 0, 1, 0)` with `t.m34 = p` (either sign, any p)
    /// D = cos θ; for a turn θ about y then a translation `tx` along x, then `m34 = −1/d`,
    /// D = cos θ − sin θ · tx / d: the eye at (0, 0, d) sees the plane's normal
    /// (sin θ, 0, cos θ) from the side it points to.
    public var planeOrientation: Double {
        m11 * (m22 * m44 - m24 * m42) - m12 * (m21 * m44 - m24 * m41) + m14 * (m21 * m42 - m22 * m41)
    }

    /// Whether a card transformed by this matrix shows its back: ``planeOrientation`` < 0.
    /// A card also counts as facing away only while some of it is in front of the eye;
    /// renderers leave out a card with a corner at or behind the eye anyway.
    public var facesAway: Bool { planeOrientation < 0 }
}
