import CardLayout

/// One frame as the players read it — the static page (``HTMLRenderer``), the gallery and
/// `cardlua play` all send their frames in this one form:
///
/// `{"t", "o": [x, y], "p", "v": [w, h], "c": [card, …], "s"?: [[kind, section, left, top,
/// width, height], …]}`, where a card is `[id…, left, top, width, height, m11 … m44,
/// opacity, zIndex, flags, appearance?]`: left/top relative to the viewport; opacity and
/// z-index as CSS takes them (``HTMLRenderer/cssOpacity(_:)``,
/// ``HTMLRenderer/cssZIndex(_:)``); flags 1 hidden, 2 a corner at or behind the eye, 4 the
/// back toward the eye while not double-sided; the appearance only when set
/// (``HTMLRenderer/appearanceJSON(_:size:)``); the headers and footers only when there
/// are any (kind 1 for a footer).
public enum FrameWire {
    /// How a card names itself.
    public enum CardIdentity {
        /// One number: the card's slot in the page's item list, plus one for each earlier
        /// copy of the same item in the frame (a wrapping layout shows an item twice).
        case slot([CardIndexPath: Int])
        /// Two numbers: section and item (`cardlua play`, whose items change live).
        case indexPath
    }

    /// A number as the players read it: the shortest text that reads back the same
    /// `Double`, whole numbers without `.0`; NaN and infinities (which JSON lacks) as 0.
    public static func number(_ x: Double) -> String { RenderSupport.exact(x) }

    /// `frame` in the players' form, its numbers written by `n`.
    public static func frame(_ frame: Frame, identity: CardIdentity,
                             number n: (Double) -> String = number) -> String {
        let origin = frame.contentOffset
        var s = "{\"t\":\(n(frame.time)),\"o\":[\(n(origin.x)),\(n(origin.y))]"
        s += ",\"p\":\"\(frame.phase.rawValue)\",\"v\":[\(n(frame.viewportSize.width)),\(n(frame.viewportSize.height))],\"c\":["
        var copies: [CardIndexPath: Int] = [:]
        for (k, a) in frame.items.enumerated() {
            if k > 0 { s += "," }
            switch identity {
            case .slot(let slots):
                let copy = copies[a.indexPath, default: 0]
                copies[a.indexPath] = copy + 1
                s += "[\((slots[a.indexPath] ?? 0) + copy)"
            case .indexPath:
                s += "[\(a.indexPath.section),\(a.indexPath.item)"
            }
            let r = a.frame
            s += ",\(n(r.minX - origin.x)),\(n(r.minY - origin.y)),\(n(r.width)),\(n(r.height))"
            for field in a.transform3D.fields { s += "," + n(field) }
            var flags = a.isHidden ? 1 : 0
            if a.projectedQuad(contentOffset: origin) == nil { flags |= 2 }
            if a.isBackFaceHidden { flags |= 4 }
            s += ",\(n(HTMLRenderer.cssOpacity(a.alpha))),\(HTMLRenderer.cssZIndex(a.zIndex)),\(flags)"
            if let look = a.appearance { s += "," + HTMLRenderer.appearanceJSON(look, size: a.size) }
            s += "]"
        }
        s += "]"
        if !frame.supplementary.isEmpty {
            s += ",\"s\":[" + frame.supplementary.map { x in
                "[\(x.kind == .footer ? 1 : 0),\(x.section),\(n(x.frame.minX - origin.x)),"
                    + "\(n(x.frame.minY - origin.y)),\(n(x.frame.width)),\(n(x.frame.height))]"
            }.joined(separator: ",") + "]"
        }
        return s + "}"
    }
}
