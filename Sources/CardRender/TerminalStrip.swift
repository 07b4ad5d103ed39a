import CardLayout

/// A one-line picture of a frame for the terminal: the viewport's extent along the
/// scroll axis mapped onto a number of character columns, each drawn card a block.
///
/// Column `c` of `n` covers `[c·L/n, (c+1)·L/n)` of the viewport extent `L`. A card
/// covers the columns whose centres lie within its projected quad's extent on the axis
/// (min…max x when scrolling horizontally, y when vertically); a card narrower than a
/// column still gets the column holding its midpoint, if that is in view. A column shows
/// the front-most card covering it (drawing order: `zIndex`, then index path); each card
/// that shows in any column keeps its label, placed in the longest run of its columns
/// that no card in front covers. Hidden cards, cards behind the eye and fully
/// transparent cards are left out.
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
        // Back to front: each column belongs to the front-most card covering it.
        var placed: [(card: RenderCard, span: ClosedRange<Int>)] = []
        var owners = [Int?](repeating: nil, count: columns)
        for card in RenderCard.drawn(in: frame) where card.attributes.alpha > 0 {
            let e = card.extent
            let (low, high) = direction == .horizontal ? (e.minX, e.maxX) : (e.minY, e.maxY)
            guard let span = columnSpan(low: low, high: high, extent: extent, columns: columns) else { continue }
            for c in span { owners[c] = placed.count }
            placed.append((card, span))
        }
        for (index, entry) in placed.enumerated() {
            let visible = entry.span.filter { owners[$0] == index }
            guard !visible.isEmpty else { continue }   // wholly behind others: not seen
            paint(entry.card, span: entry.span, visible: visible, into: &cells)
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

    /// Paints the columns of `card` that no card in front of it covers (`visible`, within
    /// its `span`): its edges as brackets where they show, and its label in the longest
    /// run of visible columns, so that every card that can be seen keeps its number
    /// however the cards overlap (a card partly hidden by its neighbour shows its label
    /// in the part that is not).
    static func paint(_ card: RenderCard, span: ClosedRange<Int>, visible: [Int], into cells: inout [Cell]) {
        let a = card.attributes
        let label = Array(RenderSupport.label(for: a.indexPath))
        let fill = Palette.fill(for: a.indexPath).blended(over: Palette.background, alpha: a.alpha)
        let stroke = Palette.stroke(for: a.indexPath)
        var chars: [Int: Character] = [:]
        for c in visible { chars[c] = shade(a.alpha) }
        // The longest run of consecutive visible columns (the first of equal ones).
        var best = visible[0]...visible[0], start = visible[0]
        for (previous, c) in zip(visible, visible.dropFirst()) where c != previous + 1 {
            if previous - start > best.count - 1 { best = start...previous }
            start = c
        }
        if visible[visible.count - 1] - start > best.count - 1 { best = start...visible[visible.count - 1] }
        // Brackets on the card's own edges, where they show; the label inside them in its
        // run, or over them when the run is too short for both.
        if span.count >= label.count + 2 && span.count >= 3 {
            if chars[span.lowerBound] != nil { chars[span.lowerBound] = "[" }
            if chars[span.upperBound] != nil { chars[span.upperBound] = "]" }
        }
        var inner = best
        if chars[inner.lowerBound] == "[", inner.count > 1 { inner = (inner.lowerBound + 1)...inner.upperBound }
        if chars[inner.upperBound] == "]", inner.count > 1 { inner = inner.lowerBound...(inner.upperBound - 1) }
        if inner.count < label.count { inner = best }
        let shown = Array(label.prefix(inner.count))
        let first = inner.lowerBound + (inner.count - shown.count) / 2
        var labelCells = Set<Int>()
        for (j, ch) in shown.enumerated() { chars[first + j] = ch; labelCells.insert(first + j) }
        for c in visible {
            var cell = Cell(character: chars[c] ?? shade(a.alpha), indexPath: a.indexPath, background: fill)
            cell.isLabel = labelCells.contains(c)
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
