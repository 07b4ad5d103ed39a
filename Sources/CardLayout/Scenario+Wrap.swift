extension Scenario {
    /// The demo's steps on a layout that wraps (nil for one that does not, or without
    /// items), measured on `layout`:
    ///
    /// 1. the first item centred, held for 0.2 s;
    /// 2. a one-second drag that moves the centre from the first item to the third,
    ///    released at the finger's speed;
    /// 3. after 0.3 s, a medium fling whose natural travel is 1.6 item pitches;
    /// 4. after 0.3 s, a fling backwards whose natural travel is a period and half a
    ///    viewport: it crosses the seam to negative offsets, showing the last items again;
    /// 5. after 0.3 s, a fling forwards travelling two periods: back across the seam and
    ///    past the next one;
    /// 6. 0.3 s at rest.
    static func wrappedDemoSteps(layout: FlowLayout) -> [ScenarioStep]? {
        guard let period = layout.wrapPeriod else { return nil }
        let axis = ScrollPhysics.Axis(layout.configuration.scrollDirection)
        let extent = axis.extent(of: layout.viewportSize)
        var rate = layout.configuration.decelerationRate.rawValue
        if !(rate > 0 && rate < 1) { rate = DecelerationRate.normal.rawValue }   // the runner reports it
        // The inverse of the travel (v − 0.01·sgn v)·d/(1 − d), either way.
        func velocity(travelling distance: Double) -> Double {
            distance * (1 - rate) / rate + (distance < 0 ? -ScrollPhysics.stopVelocity : ScrollPhysics.stopVelocity)
        }
        guard let section = (0..<layout.numberOfSections).first(where: { layout.numberOfItems(inSection: $0) > 0 })
        else { return nil }
        func centre(_ item: Int) -> Double? {
            layout.layoutAttributesForItem(at: CardIndexPath(item: item, section: section))
                .map { axis.value(of: $0.center) }
        }
        guard let first = centre(0) else { return nil }
        let count = layout.numberOfItems(inSection: section)
        let third = centre(min(2, count - 1)) ?? first
        var pitch = (count > 1 ? centre(1) ?? first : first) - first
        if !(pitch > 0) { pitch = extent / 2 }
        let start = first - extent / 2
        return [
            .jump(offset: start),
            .wait(duration: 0.2),
            .drag(by: third - first, duration: 1),
            .wait(duration: 0.3),
            .fling(velocity: velocity(travelling: 1.6 * pitch)),
            .wait(duration: 0.3),
            .fling(velocity: velocity(travelling: -(period + extent / 2))),
            .wait(duration: 0.3),
            .fling(velocity: velocity(travelling: 2 * period)),
            .wait(duration: 0.3),
        ]
    }
}
