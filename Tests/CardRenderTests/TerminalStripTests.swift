import CardLayout
import Testing

@testable import CardRender

@Suite struct TerminalStripTests {
    let frame = RenderFixtures.frame

    /// Which item owns each column, worked out independently: the drawn cards in the
    /// fixture's known drawing order, each covering the columns whose centres lie within
    /// its projected extent, later cards overwriting earlier ones.
    func expectedOwners(_ frame: Frame, order: [Int], columns: Int, vertical: Bool = false) -> [Int?] {
        let extent = vertical ? frame.viewportSize.height : frame.viewportSize.width
        var owners = [Int?](repeating: nil, count: columns)
        for item in order {
            let a = frame.items.first { $0.indexPath.item == item }!
            let quad = a.projectedQuad(contentOffset: frame.contentOffset)!
            let values = quad.corners.map { vertical ? $0.y : $0.x }
            for c in 0..<columns {
                let centre = (Double(c) + 0.5) * extent / Double(columns)
                if centre >= values.min()! && centre <= values.max()! { owners[c] = item }
            }
        }
        return owners
    }

    /// The background colour of every visible cell of an ANSI line (nil: default).
    func backgrounds(_ line: String) -> [(Character, Palette.Color?)] {
        var cells: [(Character, Palette.Color?)] = []
        var background: Palette.Color?
        var i = line.startIndex
        while i < line.endIndex {
            if line[i] == "\u{1B}" {
                let end = line[i...].firstIndex(of: "m")!
                let codes = line[line.index(i, offsetBy: 2)..<end].split(separator: ";").map { Int($0)! }
                var j = 0
                while j < codes.count {
                    switch codes[j] {
                    case 0: background = nil; j += 1
                    case 48: background = Palette.Color(red: UInt8(codes[j + 2]), green: UInt8(codes[j + 3]),
                                                        blue: UInt8(codes[j + 4])); j += 5
                    case 38: j += 5
                    default: j += 1
                    }
                }
                i = line.index(after: end)
            } else {
                cells.append((line[i], background))
                i = line.index(after: i)
            }
        }
        return cells
    }

    func colour(of item: Int, in frame: Frame) -> Palette.Color {
        let a = frame.items.first { $0.indexPath.item == item }!
        return Palette.fill(for: a.indexPath).blended(over: Palette.background, alpha: a.alpha)
    }

    @Test func coloredBlocksFollowProjectedExtents() {
        let line = TerminalStrip.line(frame: frame, columns: 40, color: true)
        let cells = backgrounds(line)
        #expect(cells.count == 40)
        let owners = expectedOwners(frame, order: RenderFixtures.drawnOrder, columns: 40)
        // The turned card (item 0) spans about 29…161 px, partly under the centre card
        // (and under the small item 5 at 10…50).
        #expect(owners[3] == 5 && owners[6] == 0 && owners[11] == 0 && owners[12] == 1 && owners[15] == 1)
        #expect(owners.contains(5) && owners.contains(2) && !owners.contains(3) && !owners.contains(4))
        for (c, (cell, owner)) in zip(cells, owners).enumerated() {
            #expect(cell.1 == owner.map { colour(of: $0, in: frame) }, "column \(c)")
        }
        #expect(line.hasSuffix(Palette.ansiReset))
    }

    @Test func plainLineHasBracketsLabelsAndNoTrailingSpaces() {
        let line = TerminalStrip.line(frame: frame, columns: 40, color: false)
        let chars = Array(line)
        let owners = expectedOwners(frame, order: RenderFixtures.drawnOrder, columns: 40)
        #expect(line.last != " ")
        for c in 0..<40 {
            let ch: Character = c < chars.count ? chars[c] : " "
            #expect((ch == " ") == (owners[c] == nil), "column \(c): \(ch)")
        }
        // The centre card, on top: columns 12…27 (centres 125…275 within 120…280).
        #expect(chars[12] == "[" && chars[27] == "]" && chars[19] == "1")
        #expect(chars[13] == "█")
        // The translucent card (alpha 0.6) shades lighter.
        #expect(chars.contains("▓"))
    }

    @Test func singleCardExactLine() {
        let single = Frame(time: 0, contentOffset: .zero, phase: .idle, viewportSize: Size(width: 400, height: 300),
                           items: [LayoutAttributes(indexPath: CardIndexPath(item: 12, section: 0),
                                                    frame: Rect(x: 120, y: 50, width: 160, height: 200))])
        #expect(TerminalStrip.line(frame: single, columns: 40, color: false)
                == String(repeating: " ", count: 12) + "[██████12██████]")
        #expect(TerminalStrip.render(frame: single, columns: 40, color: false)
                == String(repeating: " ", count: 20) + "▼\n" + String(repeating: " ", count: 12) + "[██████12██████]")
    }

    /// Overlapping cards each keep their number: item 2 is half under item 1 (drawn on
    /// top by its zIndex), and its label moves into the half that shows.
    @Test func overlappedCardsKeepTheirNumbers() {
        func card(_ item: Int, x: Double, z: Int) -> LayoutAttributes {
            var a = LayoutAttributes(indexPath: CardIndexPath(item: item, section: 0),
                                     frame: Rect(x: x, y: 50, width: 160, height: 200))
            a.zIndex = z
            return a
        }
        let frame = Frame(time: 0, contentOffset: .zero, phase: .idle, viewportSize: Size(width: 400, height: 300),
                          items: [card(0, x: 40, z: 0), card(1, x: 120, z: 1), card(2, x: 200, z: 0)])
        // 10 pt a column: item 0 covers columns 4…19, item 1 12…27 (on top), item 2 20…35.
        // Shown: item 0 in 4…11, item 1 in 12…27, item 2 in 28…35; each label centred in
        // its shown part, inside the brackets of the edges that show.
        #expect(TerminalStrip.line(frame: frame, columns: 40, color: false)
                == "    [███0███[██████1███████]███2███]")
    }

    @Test func verticalScrollingUsesY() {
        let line = TerminalStrip.line(frame: frame, columns: 30, color: true, direction: .vertical)
        let cells = backgrounds(line)
        let owners = expectedOwners(frame, order: RenderFixtures.drawnOrder, columns: 30, vertical: true)
        #expect(cells.count == 30)
        for (cell, owner) in zip(cells, owners) {
            #expect(cell.1 == owner.map { colour(of: $0, in: frame) })
        }
    }

    @Test func columnSpans() {
        #expect(TerminalStrip.columnSpan(low: 120, high: 280, extent: 400, columns: 40) == 12...27)
        #expect(TerminalStrip.columnSpan(low: 101, high: 103, extent: 400, columns: 40) == 10...10)
        #expect(TerminalStrip.columnSpan(low: -50, high: 14, extent: 400, columns: 40) == 0...0)
        #expect(TerminalStrip.columnSpan(low: 390, high: 900, extent: 400, columns: 40) == 39...39)
        #expect(TerminalStrip.columnSpan(low: 401, high: 500, extent: 400, columns: 40) == nil)
        #expect(TerminalStrip.columnSpan(low: -20, high: -1, extent: 400, columns: 40) == nil)
    }

    @Test func timelineHasAMarkerAndOneLinePerFrame() {
        let timeline = RenderFixtures.carousel(frames: 5, cards: 6)
        let text = TerminalStrip.render(timeline: timeline, columns: 50, color: false)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5 + 2)
        #expect(lines.last == "")
        #expect(lines[0] == Substring(String(repeating: " ", count: 25) + "▼"))
        for line in lines where !line.isEmpty { #expect(line.last != " ") }
        #expect(lines[1].hasSuffix(" 0.000s decelerating"))
        #expect(lines[5].hasSuffix(" 0.067s idle"))
        #expect(lines[1].count == 50 + " 0.000s decelerating".count)
    }

    @Test func degenerateInputs() {
        #expect(TerminalStrip.line(frame: frame, columns: 0, color: false) == "")
        #expect(TerminalStrip.markerLine(columns: -1) == "")
        let empty = Frame(time: 0, contentOffset: .zero, phase: .idle, viewportSize: Size(width: 400, height: 300), items: [])
        #expect(TerminalStrip.line(frame: empty, columns: 10, color: false) == "")
    }
}
