import CardLayout
import Testing

@testable import CardRender

/// Cards of equal `zIndex` are drawn as UIKit draws them: by index path, the later one
/// on top, whatever order the frame lists them in. Two overlapping 200×200 cards at
/// zIndex 3 in a 400×300 viewport: item 0 at x 0…200, item 1 at x 150…350, listed item 1
/// first.
@Suite struct EqualZIndexTests {
    static func card(_ item: Int, x: Double, z: Int) -> LayoutAttributes {
        LayoutAttributes(indexPath: CardIndexPath(item: item, section: 0),
                         frame: Rect(x: x, y: 50, width: 200, height: 200), zIndex: z)
    }

    static func frame(_ items: [LayoutAttributes]) -> Frame {
        Frame(time: 0, contentOffset: .zero, phase: .idle, viewportSize: Size(width: 400, height: 300), items: items)
    }

    static let tied = frame([card(1, x: 150, z: 3), card(0, x: 0, z: 3)])

    /// The terminal strip: 40 columns of 10 pt; columns 15…19 (x 150…200) are under both
    /// cards and show item 1, as when item 1 is one zIndex higher.
    @Test func theStripShowsTheLaterIndexPathOnTop() {
        let strip = TerminalStrip.line(frame: Self.tied, columns: 40, color: false)
        let above = TerminalStrip.line(frame: Self.frame([Self.card(0, x: 0, z: 3), Self.card(1, x: 150, z: 4)]),
                                       columns: 40, color: false)
        let below = TerminalStrip.line(frame: Self.frame([Self.card(0, x: 0, z: 4), Self.card(1, x: 150, z: 3)]),
                                       columns: 40, color: false)
        #expect(above != below)
        #expect(strip == above, "\(strip)\n\(above)")
    }

    /// The SVG: item 0's group before item 1's (the later drawn over the earlier).
    @Test func theSVGDrawsTheLaterIndexPathLast() throws {
        let svg = SVGRenderer.render(frame: Self.tied, timeline: RenderFixtures.timeline([Self.tied]))
        let first = try #require(svg.range(of: "data-index=\"0.0\""))
        let second = try #require(svg.range(of: "data-index=\"0.1\""))
        #expect(first.lowerBound < second.lowerBound)
    }

    /// The HTML page: equal z-index, so document order decides: item 0's element first.
    @Test func theHTMLPutsTheLaterIndexPathLater() throws {
        let html = HTMLRenderer.render(timeline: RenderFixtures.timeline([Self.tied]), frameIndex: 0)
        let first = try #require(html.range(of: "data-index=\"0.0\""))
        let second = try #require(html.range(of: "data-index=\"0.1\""))
        #expect(first.lowerBound < second.lowerBound)
        #expect(html.components(separatedBy: "z-index:3;").count - 1 == 2)
    }
}
