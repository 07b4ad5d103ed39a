import CardLayout

/// A one-line picture of a frame for the terminal: the viewport's extent along the
/// scroll axis mapped onto a number of character columns, each drawn card a block.
///
/// Column `c` of `n` covers `[c·L/n, (c+1)·L/n)` of the viewport extent `L`. A card
/// covers the columns whose centres lie within its projected quad's extent on the axis
/// (min…max x when scrolling horizontally, y when vertically); a card narrower than a
/// column still gets the column holding its midpoint, if that is in view. Cards are
/// drawn in drawing order (`zIndex`, then index path), later ones overwriting earlier
/// ones; hidden cards, cards behind the eye and fully transparent cards are left out.
///
/// Without colour a block is `[`, shade characters (`█ ▓ ▒ ░` by alpha) with the
/// item's label in the middle, and `]` (narrow blocks drop the brackets, then the
/// shading), and lines carry no trailing spaces. With colour, a block is the item's
/// `Palette` fill (blended with the viewport background by alpha) as a 24-bit ANSI
/// background, with the label in white and the edges as `▏`/`▕` in the card's stroke
/// colour; every line ends with a reset.
public enum TerminalStrip {
    /// A frame as two lines (joined by `\n`, no final newline): the centre marker line
    /// (`markerLine`) and the strip (`line`).
    public static func render(frame: Frame, columns: Int, color: Bool,
                              direction: ScrollDirection = .horizontal) -> String {
        markerLine(columns: columns) + "\n" + line(frame: frame, columns: columns, color: color, direction: direction)
    }

    /// A whole timeline: the marker line, then one strip per frame followed by the
    /// frame's time and phase; every line ends with `\n`. The axis is the timeline's
    /// scroll direction.
    public static func render(timeline: Timeline, columns: Int, color: Bool) -> String {
        var out = markerLine(columns: columns) + "\n"
        let direction = timeline.configuration.scrollDirection
        for frame in timeline.frames {
            var strip = line(frame: frame, columns: columns, color: color, direction: direction)
            // Pad the plain strip so the captions line up (spaces inside the line only).
            let visible = color ? columns : strip.count
            strip += String(repeating: " ", count: max(0, columns - visible))
            out += strip + " " + RenderSupport.fixed(frame.time, 3) + "s " + frame.phase.rawValue + "\n"
        }
        return out
    }

    /// A line marking the viewport's centre with `▼` over the column holding it
    /// (column `columns / 2`); empty when `columns` is not positive.
    public static func markerLine(columns: Int) -> String {
        guard columns > 0 else { return "" }
        return String(repeating: " ", count: columns / 2) + "▼"
    }

    /// The strip of one frame: exactly `columns` cells (trailing empty cells dropped
    /// when `color` is false). Empty when `columns` is not positive.
    /// - Parameters:
    ///   - direction: the scroll axis; the strip follows x when horizontal, y when
    ///     vertical.
    public static func line(frame: Frame, columns: Int, color: Bool,
                            direction: ScrollDirection = .horizontal) -> String {
        guard columns > 0 else { return "" }
        var cells = [Cell](repeating: Cell(), count: columns)
        let extent = direction == .horizontal ? frame.viewportSize.width : frame.viewportSize.height
        for card in RenderCard.drawn(in: frame) where card.attributes.alpha > 0 {
            let e = card.extent
            let (low, high) = direction == .horizontal ? (e.minX, e.maxX) : (e.minY, e.maxY)
            guard let span = columnSpan(low: low, high: high, extent: extent, columns: columns) else { continue }
            paint(card, span: span, into: &cells)
        }
        return color ? colored(cells) : plain(cells)
    }

    /// The columns a card covering `low…high` of a viewport extent `extent` occupies:
    /// those whose centres lie in `low…high`, or the column of the midpoint for a card
    /// narrower than a column; nil when out of view.
    public static func columnSpan(low: Double, high: Double, extent: Double, columns: Int) -> ClosedRange<Int>? {
        guard columns > 0, extent > 0, low.isFinite, high.isFinite, high >= low else { return nil }
        let cell = extent / Double(columns)
        // Centres (c + 0.5)·cell within [low, high]  ⇔  low/cell − 0.5 ≤ c ≤ high/cell − 0.5.
        let first = max(Int((low / cell - 0.5).rounded(.up).clamped(-1e9, 1e9)), 0)
        let last = min(Int((high / cell - 0.5).rounded(.down).clamped(-1e9, 1e9)), columns - 1)
        if first <= last { return first...last }
        let mid = (low + high) / 2
        guard mid >= 0, mid < extent else { return nil }
        let c = min(Int(mid / cell), columns - 1)
        return c...c
    }

    // MARK: Cells

    struct Cell {
        var character: Character = " "
        /// The card whose block this is (nil for empty cells).
        var indexPath: CardIndexPath?
        var background: Palette.Color?
        var foreground: Palette.Color?
        var isLabel = false
    }

    static func shade(_ alpha: Double) -> Character {
        alpha >= 0.75 ? "█" : alpha >= 0.5 ? "▓" : alpha >= 0.25 ? "▒" : "░"
    }

    static func paint(_ card: RenderCard, span: ClosedRange<Int>, into cells: inout [Cell]) {
        let a = card.attributes
        let label = Array(RenderSupport.label(for: a.indexPath))
        let width = span.count
        let fill = Palette.fill(for: a.indexPath).blended(over: Palette.background, alpha: a.alpha)
        let stroke = Palette.stroke(for: a.indexPath)
        // The characters of the block, left to right.
        var chars = [Character](repeating: shade(a.alpha), count: width)
        var labelCells = Set<Int>()
        let bracketed = width >= label.count + 2 && width >= 3
        if bracketed { chars[0] = "["; chars[width - 1] = "]" }
        let inner = bracketed ? 1..<(width - 1) : 0..<width
        let shown = Array(label.prefix(inner.count))
        let offset = inner.lowerBound + (inner.count - shown.count) / 2
        for (j, ch) in shown.enumerated() { chars[offset + j] = ch; labelCells.insert(offset + j) }
        for (j, c) in span.enumerated() {
            var cell = Cell(character: chars[j], indexPath: a.indexPath, background: fill)
            cell.isLabel = labelCells.contains(j)
            cell.foreground = cell.isLabel ? Palette.label : stroke
            cells[c] = cell
        }
    }

    static func plain(_ cells: [Cell]) -> String {
        var s = String(cells.map(\.character))
        while s.last == " " { s.removeLast() }
        return s
    }

    static func colored(_ cells: [Cell]) -> String {
        var out = ""
        var style = ""
        for cell in cells {
            var next = ""
            var character = cell.character
            if let bg = cell.background {
                next = Palette.ansiBackground(bg) + Palette.ansiForeground(cell.foreground ?? Palette.label)
                if cell.isLabel { next = "\u{1B}[1m" + next }
                if !cell.isLabel {
                    // Colour carries the shading: brackets become thin edges, shades spaces.
                    character = character == "[" ? "▏" : character == "]" ? "▕" : " "
                }
            }
            if next != style {
                out += Palette.ansiReset + next
                style = next
            }
            out.append(character)
        }
        return out + Palette.ansiReset
    }
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double { min(max(self, low), high) }
}
