import Foundation

// The `autoplay` step (FSPagerView's `automaticSlidingInterval`): what one advance does.
// The runner's session plays the advances on its frame clock (ScenarioRunner.swift).

/// One advance of an autoplay: the item it aims at, the proposal and the effect's answer.
struct AutoplayAdvance {
    /// The item brought to where the current one rested.
    var next: CardIndexPath
    /// Proposal, velocity 0 and the effect's target, as a release records them.
    var snap: SnapEvent
    /// Where the content goes (clamped to the content unless the layout wraps).
    var target: Double
}

extension SimulatedScrollView {
    /// The item after `current`: the next in its section, else the first of the next
    /// section with items, else (after the very last) the first item of all — FSPagerView
    /// goes on to `(item + 1) % count` when not infinite, back to the start.
    func itemAfter(_ current: CardIndexPath) -> (item: CardIndexPath, wrapsAround: Bool)? {
        guard current.section >= 0, current.section < layout.numberOfSections else { return nil }
        if current.item + 1 < layout.numberOfItems(inSection: current.section) {
            return (CardIndexPath(item: current.item + 1, section: current.section), false)
        }
        for section in (current.section + 1)..<max(current.section + 1, layout.numberOfSections)
        where layout.numberOfItems(inSection: section) > 0 {
            return (CardIndexPath(item: 0, section: section), false)
        }
        for section in 0..<layout.numberOfSections where layout.numberOfItems(inSection: section) > 0 {
            return (CardIndexPath(item: 0, section: section), true)
        }
        return nil
    }

    /// One advance from `offset`, going on from `current`: the proposal is the offset that
    /// brings the next item to where `current` is (one item pitch further along the
    /// scroll axis; after the last item, back to the first — or, when the layout wraps,
    /// one more pitch forward, where the wrapping layout shows the first again), clamped
    /// to the content unless the layout wraps; the effect's `targetContentOffset` is asked
    /// with velocity 0 at `time`. Nil when there is no item to go to.
    func autoplayAdvance(from offset: Double, current: CardIndexPath, time: Double,
                         stepIndex: Int, kind: String) throws -> AutoplayAdvance? {
        guard let here = layout.layoutAttributesForItem(at: current),
              let after = itemAfter(current),
              let there = layout.layoutAttributesForItem(at: after.item) else { return nil }
        let next = after.item
        var delta = axis.value(of: there.center) - axis.value(of: here.center)
        if after.wrapsAround, configuration.wraps {
            // Forward, by the pitch between the last two items (or an item and a line space).
            let previous = current.item > 0
                ? layout.layoutAttributesForItem(at: CardIndexPath(item: current.item - 1, section: current.section))
                : nil
            delta = previous.map { axis.value(of: here.center) - axis.value(of: $0.center) }
                ?? axis.extent(of: configuration.itemSize) + configuration.minimumLineSpacing
        }
        let wraps = configuration.wraps
        let proposed = wraps ? offset + delta : ScrollPhysics.clamp(offset + delta, to: range)
        let bounds = Rect(origin: axis.point(offset), size: viewportSize)
        // No finger: a timer moves the content (UIKit's setContentOffset(_:animated:)).
        let context = ScrollContext(bounds: bounds, contentSize: contentSize, time: time)
        let answer = try effect.targetContentOffset(proposed: axis.point(proposed), velocity: axis.point(0),
                                                    layout: layout, context: context)
        let value = axis.value(of: answer)
        guard value.isFinite else {
            throw ScenarioError.invalidTargetContentOffset(scenario: scenarioName, stepIndex: stepIndex,
                                                           kind: kind, offset: answer)
        }
        let target = wraps ? value : ScrollPhysics.clamp(value, to: range)
        let snap = SnapEvent(time: time, proposedContentOffset: axis.point(proposed), velocity: axis.point(0),
                             targetContentOffset: answer)
        return AutoplayAdvance(next: next, snap: snap, target: target)
    }
}
