import CardLayout

/// How many lines a flow lays out across its scroll axis, and why (`check`, `play`).
extension ScriptChecker {
    /// How many items sit side by side across the scroll axis at the start: the rows of
    /// a horizontal flow, the columns of a vertical one.
    package static func linesAcross(_ layout: FlowLayout) -> Int {
        let horizontal = layout.configuration.scrollDirection == .horizontal
        let first = layout.layoutAttributesForElements(in: Rect(origin: .zero, size: layout.viewportSize))
            .filter { $0.indexPath.section == 0 }
        guard let leader = first.first else { return 0 }
        // The items of the first line share its position along the scroll axis.
        let along = horizontal ? leader.center.x : leader.center.y
        return first.filter { abs((horizontal ? $0.center.x : $0.center.y) - along) < 1e-6 }.count
    }

    /// Why a flow lays out several lines across its scroll axis, and what keeps one — as
    /// UIKit's flow fills a line while items fit: `horizontal flow lays out 3 rows at
    /// 820×1180 (1 at 414×736): itemSize.height 380 ≤ (1180 − insets 0)/2; raise
    /// sectionInset.top/bottom to keep one row` (the part in parentheses with `oneLineAt`).
    package static func severalLinesNote(lines: Int, viewport: Size, configuration c: FlowLayoutConfiguration,
                                         oneLineAt first: Size? = nil) -> String {
        let horizontal = c.scrollDirection == .horizontal
        let n = Suggest.number
        let (extent, item, low, high) = horizontal
            ? (viewport.height, c.itemSize.height, c.sectionInset.top, c.sectionInset.bottom)
            : (viewport.width, c.itemSize.width, c.sectionInset.left, c.sectionInset.right)
        let compared = first.map { " (1 at \(n($0.width))×\(n($0.height)))" } ?? ""
        return "\(horizontal ? "horizontal" : "vertical") flow lays out \(lines) \(horizontal ? "rows" : "columns") at "
            + "\(n(viewport.width))×\(n(viewport.height))\(compared): "
            + "itemSize.\(horizontal ? "height" : "width") \(n(item)) ≤ (\(n(extent)) − insets \(n(low + high)))/2; "
            + "raise sectionInset.\(horizontal ? "top/bottom" : "left/right") to keep one \(horizontal ? "row" : "column")"
    }
}
