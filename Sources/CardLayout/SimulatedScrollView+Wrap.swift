// The scroll view's decisions for a layout that wraps (`FlowLayoutConfiguration.wraps`):
// its range is unbounded (see `SimulatedScrollView.range`), so flings, drags and paging
// need nothing more; `scrollToItem`, a resize and the centred item pick a repetition.

extension SimulatedScrollView {
    /// `value + k·period` for the k that puts it nearest `offset`: the shortest way round
    /// from `offset`; on a tie (exactly half a period either way) the forward one.
    static func nearestRepetition(of value: Double, to offset: Double, period: Double) -> Double {
        let k = ((offset - value) / period).rounded(.down)
        guard k.isFinite else { return value }
        let behind = value + k * period, ahead = behind + period
        return offset - behind < ahead - offset ? behind : ahead
    }

    /// The item whose centre is nearest the visible rect's centre on the scroll axis at
    /// `offset` in a layout that wraps, and its centre there (in whichever repetition):
    /// the first by position on a tie. Looks in the visible rect, then in rects twice as
    /// long around the same centre until one holds an item or covers a whole repetition.
    func repeatedItemNearestCentre(offset: Double) -> (indexPath: CardIndexPath, centre: Double)? {
        guard let period = layout.wrapPeriod else { return nil }
        let axis = self.axis
        let centre = offset + extent / 2
        var half = max(extent / 2, 1)
        while true {
            let rect = axis.direction == .horizontal
                ? Rect(x: centre - half, y: 0, width: 2 * half, height: viewportSize.height)
                : Rect(x: 0, y: centre - half, width: viewportSize.width, height: 2 * half)
            var best: (indexPath: CardIndexPath, centre: Double, distance: Double)?
            layout.forEachItem(in: rect) { attributes in
                let c = axis.value(of: attributes.center)
                let distance = abs(c - centre)
                if best.map({ distance < $0.distance }) ?? true {
                    best = (attributes.indexPath, c, distance)
                }
            }
            if let best { return (best.indexPath, best.centre) }
            // Two periods hold a whole repetition whatever the phase: nothing meets the viewport.
            if half > period { return nil }
            half *= 2
        }
    }

    /// ``resize(to:from:)`` of a layout that wraps: the item nearest the centre stays
    /// centred, in the same repetition (its k, counted in the old period, is kept in the
    /// new one), so the offset goes on from where it was. If the new layout no longer
    /// wraps, the item is centred in it, clamped.
    mutating func resizeWrapped(to size: Size, from offset: Double) throws -> Double {
        let old = repeatedItemNearestCentre(offset: offset)
        var repetition = 0.0
        if let old, let period = layout.wrapPeriod,
           let base = layout.layoutAttributesForItem(at: old.indexPath) {
            repetition = ((old.centre - axis.value(of: base.center)) / period).rounded()
        }
        try prepareAgain(for: size)
        guard let old, let attributes = layout.layoutAttributesForItem(at: old.indexPath) else {
            return ScrollPhysics.clamp(offset, to: range)
        }
        let centred = axis.value(of: attributes.center) - extent / 2
        guard let period = layout.wrapPeriod else { return ScrollPhysics.clamp(centred, to: range) }
        return centred + repetition * period
    }
}
