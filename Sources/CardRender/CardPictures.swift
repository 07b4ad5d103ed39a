import CardLayout

/// Real card images (`--cards DIR`): the pictures cards are drawn with instead of the
/// palette, in the folder's name order, cycling over the items.
///
/// Item `n` in index-path order (the items of the sections before its own, plus its item
/// number) gets picture `n mod count`, so a folder of 6 images over 20 items shows them
/// 0…5, 0…5, … The picture covers the card's own box (CSS `background-size: cover`,
/// centred) under its `matrix3d`, rounded with the card's corner radius; the label is not
/// drawn over it. Headers and footers are never pictures.
///
/// The pages only ever see `urls`: `data:` URIs in the self-contained HTML preview and
/// gallery, `/cards/N` in `cardlua play` (which serves the folder's files itself).
public struct CardPictures: Sendable, Equatable {
    /// One URL per picture, in the folder's name order. Never empty.
    public let urls: [String]

    /// Nil when `urls` is empty (no pictures: the palette).
    public init?(urls: [String]) {
        guard !urls.isEmpty else { return nil }
        self.urls = urls
    }

    /// The item's position in index-path order: the items of the sections before its own
    /// (`numberOfItems`, per section) plus its item number; its item number alone when the
    /// section counts are unknown.
    public static func ordinal(of indexPath: CardIndexPath, numberOfItems: [Int]?) -> Int {
        guard let counts = numberOfItems, indexPath.section > 0 else { return max(indexPath.item, 0) }
        let before = counts.prefix(min(indexPath.section, counts.count)).reduce(0) { $0 + max($1, 0) }
        return before + max(indexPath.item, 0)
    }

    /// The index in `urls` of the picture drawn on `indexPath`.
    public func index(for indexPath: CardIndexPath, numberOfItems: [Int]?) -> Int {
        Self.ordinal(of: indexPath, numberOfItems: numberOfItems) % urls.count
    }

    /// The style sheet of a static page: one class per picture (`.p0`, `.p1`, …) carrying
    /// its image, so each image is in the page once however many cards show it.
    func classes() -> String {
        urls.enumerated().map { k, url in ".p\(k){background-image:url(\"\(Self.cssURL(url))\")}\n" }.joined()
    }

    /// A URL inside CSS `url("…")`: quotes, backslashes and line breaks escaped (a `data:`
    /// URI in base64 has none of them; a path might).
    static func cssURL(_ url: String) -> String {
        var out = ""
        for c in url.unicodeScalars {
            switch c {
            case "\"", "\\": out += "\\" + String(c)
            case "\n", "\r", "<", ">": out += "\\" + String(c.value, radix: 16) + " "
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// The CSS every page with pictures adds: the picture fills the card's box, under its
    /// transform, with its corners; the label is hidden on a pictured card. A pictured card
    /// has none of the palette's look (`!important`: the pages write it inline): no border
    /// (the picture covers the whole box, not the box less a 1 px frame in the stroke
    /// colour), no fill (that showed as a coloured rim at the picture's edges), no ring
    /// (`--stroke`, which the pages' rings are drawn in); an appearance's shadow stays.
    public static let css = ".pic{position:absolute;left:0;top:0;right:0;bottom:0;background-position:center;"
        + "background-size:cover;background-repeat:no-repeat;border-radius:inherit;pointer-events:none}\n"
        + ".card.photo{border-width:0!important;background:none!important;--stroke:transparent!important}\n"
        + ".card.photo>span{display:none}\n"
}
