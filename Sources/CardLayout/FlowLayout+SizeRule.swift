/// UIKit's size rule: an item must fit across the scroll axis between the section insets.
///
/// A `UICollectionViewFlowLayout` whose item is taller (scrolling horizontally) or wider
/// (scrolling vertically) than the collection view minus the section insets on that axis
/// and the content insets logs, at `prepare()`:
///
///     The behavior of the UICollectionViewFlowLayout is not defined because:
///     the item height must be less than the height of the UICollectionView minus the
///     section insets top and bottom values, minus the content insets top and bottom values.
///
/// and lays the section out as it sees fit. cardlua lays such a section out as it lays out
/// any other (one line, the item overhanging the insets), and records the breach here, per
/// section, for `check`, `run` and `play` to say so. cardlua's collection view has no
/// content insets, so the content insets count as zero; an app whose collection view has
/// some (`contentInsetAdjustmentBehavior = .automatic` makes the safe area one) has less
/// room than this.
extension FlowLayout {
    /// One section whose largest item does not fit across the scroll axis.
    public struct SizeRuleBreach: Hashable, Sendable {
        /// The section.
        public var section: Int
        /// Whether the layout scrolls horizontally: then the item's height is the one
        /// that does not fit (its width when vertical).
        public var horizontal: Bool
        /// The section's largest item extent across the scroll axis.
        public var itemExtent: Double
        /// The collection view's extent across the scroll axis.
        public var viewportExtent: Double
        /// The section insets across the scroll axis: top and bottom (horizontal), left and
        /// right (vertical).
        public var insetStart: Double
        public var insetEnd: Double

        /// What the item and the insets take together (more than `viewportExtent`).
        public var needed: Double { itemExtent + insetStart + insetEnd }
    }

    /// UIKit's message for a breach of the size rule, word for word.
    public static func sizeRuleMessage(horizontal: Bool) -> String {
        horizontal
            ? "The behavior of the UICollectionViewFlowLayout is not defined because: the item height must be less "
                + "than the height of the UICollectionView minus the section insets top and bottom values, minus the "
                + "content insets top and bottom values."
            : "The behavior of the UICollectionViewFlowLayout is not defined because: the item width must be less "
                + "than the width of the UICollectionView minus the section insets left and right values, minus the "
                + "content insets left and right values."
    }

    /// The sections (with items) that break the size rule: an item extent across the
    /// scroll axis greater than the viewport's minus both insets. An exact fit is no
    /// breach (UIKit lays a full-height page out without a word).
    static func sizeRuleBreaches(configuration: FlowLayoutConfiguration, sections: [FlowSection],
                                 perItem: PerItemStore?,
                                 axesOf: (Int) -> FlowAxes) -> [SizeRuleBreach] {
        var found: [SizeRuleBreach] = []
        for (s, section) in sections.enumerated() where section.itemCount > 0 {
            let axes = axesOf(s)
            var extent: Double
            if let perItem {
                extent = -Double.infinity
                let end = min(section.firstItem + section.itemCount, perItem.frames.count)
                for i in section.firstItem..<max(section.firstItem, end) {
                    extent = max(extent, axes.cross(perItem.frames[i].size))
                }
            } else {
                extent = axes.cross(configuration.itemSize)
            }
            let insetEnd = axes.viewportCross - axes.lineLength - axes.crossStart
            // NaN compares false: no breach is reported for what is not a number.
            guard extent > axes.lineLength + FlowAxes.fitEpsilon * max(1, abs(axes.lineLength)) else { continue }
            found.append(SizeRuleBreach(section: s, horizontal: !axes.isVertical, itemExtent: extent,
                                        viewportExtent: axes.viewportCross, insetStart: axes.crossStart, insetEnd: insetEnd))
        }
        return found
    }
}
