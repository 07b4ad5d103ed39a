import CardLayout

/// UIKit's size rule, as `check`, `run` and `play` word it: a card taller (or wider, for a
/// vertical flow) than the collection view minus the section insets makes UIKit log that
/// the flow layout's behaviour is not defined (``FlowLayout/SizeRuleBreach``).
extension ScriptChecker {
    /// One warning for `layout` (the first section that breaks the rule, and how many
    /// more do), at the line that sets the size or the insets that do not fit; empty
    /// when every item fits. `index` gives the lines (nil: no line, for `play`'s note);
    /// `insetsFromCallback` says whether the insets came from `insetForSection`.
    static func sizeRuleWarnings(_ layout: FlowLayout, index: SourceIndex?,
                                 insetsFromCallback: Bool) -> [Diagnostic] {
        guard let first = layout.sizeRuleBreaches.first else { return [] }
        let message = sizeRuleNote(first, layout: layout, more: layout.sizeRuleBreaches.count - 1,
                                   insetsFromCallback: insetsFromCallback)
        let itemAlone = first.itemExtent > first.viewportExtent
        let sizeLine = layout.usesPerItemSizes ? index?.definition(of: "sizeForItem") : index?.assignment(to: "itemSize")
        let insetLine = insetsFromCallback ? index?.definition(of: "insetForSection") : index?.assignment(to: "sectionInset")
        let line = (itemAlone ? sizeLine ?? insetLine : insetLine ?? sizeLine) ?? index?.definition(of: "prepare")
        return [Diagnostic(line: line, message: message, severity: .warning)]
    }

    /// The same without lines (`play`'s note, for the viewport on screen).
    package static func sizeRuleWarnings(_ layout: FlowLayout, insetsFromCallback: Bool) -> [Diagnostic] {
        sizeRuleWarnings(layout, index: nil, insetsFromCallback: insetsFromCallback)
    }

    /// `at 414x736 UIKit logs "The behavior of the UICollectionViewFlowLayout is not
    /// defined because: …" (itemSize.height 500 + sectionInset.top 200 + sectionInset.bottom
    /// 200 = 900 > the collection view's height 736); …` with what fits.
    static func sizeRuleNote(_ breach: FlowLayout.SizeRuleBreach, layout: FlowLayout, more: Int,
                             insetsFromCallback: Bool) -> String {
        let n = Suggest.number
        let viewport = layout.viewportSize
        let h = breach.horizontal
        let what = h ? "height" : "width"
        let (start, end) = h ? ("top", "bottom") : ("left", "right")
        let item = layout.usesPerItemSizes ? "sizeForItem's largest \(what) \(n(breach.itemExtent))"
            : "itemSize.\(what) \(n(breach.itemExtent))"
        let inset = insetsFromCallback ? "insetForSection's" : "sectionInset"
        let sum = "\(item) + \(inset).\(start) \(n(breach.insetStart)) + \(inset).\(end) \(n(breach.insetEnd)) = "
            + "\(n(breach.needed)) > the collection view's \(what) \(n(breach.viewportExtent))"
        let section = layout.numberOfSections > 1 || breach.section > 0 ? " in section \(breach.section)" : ""
        let others = more > 0 ? " (and \(more) more section\(more == 1 ? "" : "s"))" : ""
        let fix: String
        if breach.itemExtent < breach.viewportExtent {
            let room = (breach.viewportExtent - breach.itemExtent) / 2
            fix = "insets of at most \(n(room.rounded(.down))) each, \(start) and \(end), fit the card"
        } else {
            fix = "the card's \(what) must be less than \(n(breach.viewportExtent))"
        }
        return "at \(n(viewport.width))x\(n(viewport.height))\(section)\(others) UIKit logs \""
            + FlowLayout.sizeRuleMessage(horizontal: h) + "\" (\(sum)); \(fix) (less the safe area in an app: "
            + "docs/export.md)"
    }
}
