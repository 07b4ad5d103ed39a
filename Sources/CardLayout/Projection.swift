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
            let p = transform3D.apply(x: x, y: y, z: 0)
            guard p.w > 1e-9, p.w.isFinite else { return nil }
            corners.append(Point(x: p.x / p.w + center.x - contentOffset.x,
                                 y: p.y / p.w + center.y - contentOffset.y))
        }
        return ProjectedQuad(corners: corners)
    }
}
