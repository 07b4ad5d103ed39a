// Scrolling to an item and autoplay: what the script's `scrollToItem` and `autoplay`
// scenario steps do, for the app. A script whose scenarios use neither gets none of it.
//
// - `scrollToItem` steps: an extension on the layout with `contentOffset(forCenteringItemAt:)`
//   and `scrollToItem(at:animated:)`, landing where the engine's step lands
//   (SimulatedScrollView.scrollTarget: the item's untransformed centre in the middle of the
//   visible rect on the scroll axis, clamped to the content; no targetContentOffset).
// - `autoplay` steps: `<Class>Autoplay`, a timer driver the app starts and stops, whose
//   `advance()` reproduces Autoplay.swift's advance (the next item one pitch further on,
//   after the last back to the first, clamped; targetContentOffset with velocity 0; clamped
//   again; from the aimed item when the content could not move), and the layout's
//   fileprivate helpers it needs.

import LuaSyntax

extension Translator {
    /// The motion steps the script's `scenarios` table names.
    struct ScenarioMotion {
        var scrollsToItems = false
        var autoplays = false
        /// The first `autoplay = S` step's interval written as a number (the driver's default).
        var autoplayInterval: Double?

        var isEmpty: Bool { !scrollsToItems && !autoplays }
    }

    /// The names the motion members take (a member of the script must not).
    static let motionMemberNames: Set<String> = [
        "contentOffset", "scrollToItem", "motionClamped", "motionOffset", "motionCentre", "motionItemNearestCentre",
        "motionItemAfter", "motionAdvance",
    ]

    /// The interval the autoplay driver gets when no `autoplay` step writes one as a number.
    static let defaultAutoplayInterval = 3.0

    /// The `scrollToItem` and `autoplay` steps of the top-level `scenarios = { … }` table:
    /// every table constructor inside it with such a key.
    var scenarioMotion: ScenarioMotion {
        var motion = ScenarioMotion()
        guard target == .uikit else { return motion }  // SwiftUI: the app scrolls with scrollPosition
        func scan(_ e: LuaExpression) {
            switch e.kind {
            case let .table(fields):
                for field in fields {
                    switch field.kind {
                    case let .named(name, value):
                        if name == "scrollToItem" { motion.scrollsToItems = true }
                        if name == "autoplay" {
                            motion.autoplays = true
                            if motion.autoplayInterval == nil, case let .number(n) = value.kind, n.value > 0,
                               n.value.isFinite {
                                motion.autoplayInterval = n.value
                            }
                        }
                        scan(value)
                    case let .positional(value):
                        scan(value)
                    case let .keyed(key, value):
                        scan(key)
                        scan(value)
                    }
                }
            case let .parenthesized(inner):
                scan(inner)
            default:
                break
            }
        }
        for statement in chunk.body.statements {
            guard case let .assignment(targets, values) = statement.kind, targets.count == 1,
                  case .name("scenarios") = targets[0].kind else { continue }
            values.forEach(scan)
        }
        return motion
    }

    /// The autoplay driver's class name.
    var autoplayClassName: String { className + "Autoplay" }

    /// The extension on the layout and the autoplay driver, for the steps the scenarios use
    /// (nothing when they use neither).
    func motionMembers() -> [String] {
        let motion = scenarioMotion
        guard !motion.isEmpty else { return [] }
        var lines = [
            "",
            "// MARK: - Scrolling to an item\(motion.autoplays ? " and autoplay" : ""), as the script's scenarios do",
            "",
            "extension \(className) {",
        ]
        if motion.scrollsToItems { lines += scrollToItemMembers() }
        lines += sharedMotionMembers()
        if motion.autoplays { lines += autoplayLayoutMembers() }
        lines.append("}")
        if motion.autoplays {
            lines += autoplayClass(interval: motion.autoplayInterval ?? Self.defaultAutoplayInterval)
        }
        return lines
    }

    private func scrollToItemMembers() -> [String] {
        [
            "    /// Where the script's `scrollToItem` steps land: the item's centre (its attributes before",
            "    /// the script's transform) in the middle of the visible rect on the scroll axis, clamped",
            "    /// to the content (0 to the content's extent less the bounds'); the other coordinate is",
            "    /// the collection view's. Nil for an item the collection view does not have.",
            "    func contentOffset(forCenteringItemAt indexPath: IndexPath) -> CGPoint? {",
            "        guard let collectionView, let centre = motionCentre(ofItemAt: indexPath) else { return nil }",
            "        let extent = scrollDirection == .horizontal ? collectionView.bounds.width : collectionView.bounds.height",
            "        return motionOffset(motionClamped(centre - extent / 2))",
            "    }",
            "",
            "    /// `scrollToItem` as the scenario step does it: the collection view's content offset set",
            "    /// to `contentOffset(forCenteringItemAt:)`, with UIKit's animation when `animated`.",
            "    func scrollToItem(at indexPath: IndexPath, animated: Bool) {",
            "        guard let collectionView, let offset = contentOffset(forCenteringItemAt: indexPath) else { return }",
            "        collectionView.setContentOffset(offset, animated: animated)",
            "    }",
        ]
    }

    private func sharedMotionMembers() -> [String] {
        [
            "",
            "    /// An offset on the scroll axis clamped to the content: 0 to the content's extent less the bounds'.",
            "    fileprivate func motionClamped(_ offset: CGFloat) -> CGFloat {",
            "        guard let collectionView else { return offset }",
            "        let horizontal = scrollDirection == .horizontal",
            "        let content = horizontal ? collectionViewContentSize.width : collectionViewContentSize.height",
            "        let extent = horizontal ? collectionView.bounds.width : collectionView.bounds.height",
            "        return min(max(offset, 0), max(0, content - extent))",
            "    }",
            "",
            "    /// An offset on the scroll axis as a content offset (the other coordinate is the collection view's).",
            "    fileprivate func motionOffset(_ offset: CGFloat) -> CGPoint {",
            "        let current = collectionView?.contentOffset ?? .zero",
            "        return scrollDirection == .horizontal ? CGPoint(x: offset, y: current.y) : CGPoint(x: current.x, y: offset)",
            "    }",
            "",
            "    /// An item's centre on the scroll axis, before the script's transform (super's attributes);",
            "    /// nil for an item the collection view does not have.",
            "    fileprivate func motionCentre(ofItemAt indexPath: IndexPath) -> CGFloat? {",
            "        guard let collectionView, indexPath.count == 2, indexPath.section >= 0,",
            "            indexPath.section < collectionView.numberOfSections, indexPath.item >= 0,",
            "            indexPath.item < collectionView.numberOfItems(inSection: indexPath.section),",
            "            let attributes = super.layoutAttributesForItem(at: indexPath)",
            "        else { return nil }",
            "        return scrollDirection == .horizontal ? attributes.center.x : attributes.center.y",
            "    }",
        ]
    }

    private func autoplayLayoutMembers() -> [String] {
        [
            "",
            "    /// The item whose centre (before the script's transform) is nearest the middle of the",
            "    /// visible rect on the scroll axis, the first by index path on a tie. It looks in the",
            "    /// visible rect, then in rects twice as long about the same middle until one holds an",
            "    /// item or the content is covered.",
            "    fileprivate func motionItemNearestCentre() -> IndexPath? {",
            "        guard let collectionView else { return nil }",
            "        let horizontal = scrollDirection == .horizontal",
            "        let bounds = collectionView.bounds",
            "        let extent = horizontal ? bounds.width : bounds.height",
            "        let centre = (horizontal ? bounds.origin.x : bounds.origin.y) + extent / 2",
            "        let content = horizontal ? collectionViewContentSize.width : collectionViewContentSize.height",
            "        var half = max(extent / 2, 1)",
            "        while true {",
            "            let rect = horizontal",
            "                ? CGRect(x: centre - half, y: 0, width: 2 * half, height: bounds.height)",
            "                : CGRect(x: 0, y: centre - half, width: bounds.width, height: 2 * half)",
            "            var best: (indexPath: IndexPath, distance: CGFloat)?",
            "            for attributes in super.layoutAttributesForElements(in: rect) ?? []",
            "            where attributes.representedElementCategory == .cell {",
            "                let distance = abs((horizontal ? attributes.center.x : attributes.center.y) - centre)",
            "                if let nearest = best, distance > nearest.distance",
            "                    || (distance == nearest.distance && attributes.indexPath > nearest.indexPath) { continue }",
            "                best = (attributes.indexPath, distance)",
            "            }",
            "            if let best { return best.indexPath }",
            "            if centre - half <= 0, centre + half >= content { return nil }",
            "            half *= 2",
            "        }",
            "    }",
            "",
            "    /// The item after `indexPath`: the next in its section, else the first of the next section",
            "    /// with items, else (after the very last) the first of all.",
            "    fileprivate func motionItemAfter(_ indexPath: IndexPath) -> IndexPath? {",
            "        guard let collectionView, indexPath.section >= 0, indexPath.section < collectionView.numberOfSections else {",
            "            return nil",
            "        }",
            "        if indexPath.item + 1 < collectionView.numberOfItems(inSection: indexPath.section) {",
            "            return IndexPath(item: indexPath.item + 1, section: indexPath.section)",
            "        }",
            "        for section in (indexPath.section + 1)..<max(indexPath.section + 1, collectionView.numberOfSections)",
            "        where collectionView.numberOfItems(inSection: section) > 0 {",
            "            return IndexPath(item: 0, section: section)",
            "        }",
            "        for section in 0..<collectionView.numberOfSections where collectionView.numberOfItems(inSection: section) > 0 {",
            "            return IndexPath(item: 0, section: section)",
            "        }",
            "        return nil",
            "    }",
            "",
            "    /// One autoplay advance from `indexPath` at the current offset: the proposal is the offset",
            "    /// that brings the item after it to where it is (one item pitch further on; after the last",
            "    /// item, back to the first), clamped to the content; the layout's",
            "    /// `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)` is asked with",
            "    /// velocity 0 and may move it; its answer, clamped, is the target. Nil when there is no",
            "    /// item to go to or the answer is not a finite offset.",
            "    fileprivate func motionAdvance(from indexPath: IndexPath) -> (next: IndexPath, target: CGPoint)? {",
            "        guard let collectionView, let here = motionCentre(ofItemAt: indexPath), let after = motionItemAfter(indexPath),",
            "              let there = motionCentre(ofItemAt: after) else { return nil }",
            "        let horizontal = scrollDirection == .horizontal",
            "        let offset = horizontal ? collectionView.contentOffset.x : collectionView.contentOffset.y",
            "        let proposed = motionOffset(motionClamped(offset + (there - here)))",
            "        let answer = targetContentOffset(forProposedContentOffset: proposed, withScrollingVelocity: .zero)",
            "        let value = horizontal ? answer.x : answer.y",
            "        guard value.isFinite else { return nil }",
            "        return (after, motionOffset(motionClamped(value)))",
            "    }",
        ]
    }

    private func autoplayClass(interval: Double) -> [String] {
        let name = autoplayClassName
        return [
            "",
            "/// Autoplay for a collection view laid out by `\(className)` (FSPagerView's",
            "/// `automaticSlidingInterval`), as the script's `autoplay` steps play it: every `interval`",
            "/// seconds the content moves on by one item — the item after the one nearest the middle is",
            "/// brought to where that one is (after the last item, back to the first), the layout's",
            "/// `targetContentOffset` (velocity 0) may move the offset, and it is clamped to the",
            "/// content — with UIKit's `setContentOffset(_:animated:)`. When the content could not move",
            "/// (at an edge) the next advance goes on from the item aimed at, so it never sticks.",
            "/// Opt-in: the app calls `start()`, and `stop()` while a finger drags (and `start()` again",
            "/// when it lifts, as FSPagerView does). Keep `interval` longer than UIKit's animation (about",
            "/// 0.3 s), so that each advance starts from rest.",
            "@MainActor final class \(name) {",
            "    /// The collection view; its layout must be a `\(className)`.",
            "    weak var collectionView: UICollectionView?",
            "    /// Seconds between two advances (the script's scenario: \(SwiftText.double(interval))); a change applies from the next `start()`.",
            "    var interval: TimeInterval",
            "    private var timer: Timer?",
            "    /// The item the last advance aimed at when the content could not move, and the offset then.",
            "    private var aimedAt: (item: IndexPath, offset: CGPoint)?",
            "",
            "    init(collectionView: UICollectionView, interval: TimeInterval = \(SwiftText.double(interval))) {",
            "        self.collectionView = collectionView",
            "        self.interval = interval",
            "    }",
            "",
            "    /// Whether the timer runs.",
            "    var isRunning: Bool { timer != nil }",
            "",
            "    /// Starts advancing every `interval` seconds (from the item nearest the middle then).",
            "    func start() {",
            "        stop()",
            "        let timer = Timer(timeInterval: interval, repeats: true) { [weak self] timer in",
            "            guard let self else {",
            "                timer.invalidate()",
            "                return",
            "            }",
            "            Task { @MainActor in",
            "                if self.isRunning { self.advance() }",
            "            }",
            "        }",
            "        // The common modes: the timer also fires while another scroll view tracks a finger.",
            "        RunLoop.main.add(timer, forMode: .common)",
            "        self.timer = timer",
            "    }",
            "",
            "    /// Stops the timer.",
            "    func stop() {",
            "        timer?.invalidate()",
            "        timer = nil",
            "        aimedAt = nil",
            "    }",
            "",
            "    /// One advance, as the timer makes it: the content offset it sets (animated unless told",
            "    /// otherwise), or nil when there is nothing to advance to.",
            "    @discardableResult",
            "    func advance(animated: Bool = true) -> CGPoint? {",
            "        guard let collectionView, let layout = collectionView.collectionViewLayout as? \(className) else { return nil }",
            "        let offset = collectionView.contentOffset",
            "        let from: IndexPath",
            "        if let aimedAt, aimedAt.offset == offset {",
            "            from = aimedAt.item",
            "        } else if let nearest = layout.motionItemNearestCentre() {",
            "            from = nearest",
            "        } else {",
            "            return nil",
            "        }",
            "        guard let step = layout.motionAdvance(from: from) else { return nil }",
            "        aimedAt = step.target == offset ? (step.next, offset) : nil",
            "        collectionView.setContentOffset(step.target, animated: animated)",
            "        return step.target",
            "    }",
            "}",
        ]
    }
}
