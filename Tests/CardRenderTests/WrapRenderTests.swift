import CardLayout
import Foundation
import Testing

@testable import CardRender

/// Frames of a layout that wraps may show the same index path twice (a viewport longer
/// than a period): the animated renderers draw every copy.
@Suite struct WrapRenderTests {
    /// Item 0 at x 0 and again at x 300 (period 300), item 1 at x 150, in a 400-wide
    /// viewport; the second frame has moved 100 to the right.
    static func timeline() -> Timeline {
        func item(_ i: Int, _ x: Double) -> LayoutAttributes {
            LayoutAttributes(indexPath: CardIndexPath(item: i, section: 0), frame: Rect(x: x, y: 0, width: 100, height: 100))
        }
        var configuration = FlowLayoutConfiguration()
        configuration.wraps = true
        let viewport = Size(width: 400, height: 100)
        let frames = [
            Frame(time: 0, contentOffset: .zero, phase: .idle, viewportSize: viewport,
                  items: [item(0, 0), item(1, 150), item(0, 300)]),
            Frame(time: 0.5, contentOffset: Point(x: 100, y: 0), phase: .idle, viewportSize: viewport,
                  items: [item(1, 150), item(0, 300), item(1, 450)]),
        ]
        return Timeline(scriptName: "wrap", viewportSize: viewport, configuration: configuration,
                        contentSize: Size(width: 250, height: 100), framesPerSecond: 2, frames: frames)
    }

    @Test func theAnimatedSVGDrawsEveryCopy() {
        let svg = SVGRenderer.renderAnimated(timeline: Self.timeline())
        // Both copies of item 0 (left edges 0 and 300 in frame 0) and of item 1 (150 and, in
        // frame 1, 450 − 100 = 350) have a polygon.
        #expect(svg.components(separatedBy: "data-index=\"0.0\"").count - 1 == 2)
        #expect(svg.components(separatedBy: "data-index=\"0.1\"").count - 1 == 2)
        #expect(svg.contains("points=\"0,0 100,0 100,100 0,100\""))
        #expect(svg.contains("points=\"300,0 400,0 400,100 300,100\""))
    }

    @Test func theHTMLPageHasACardPerCopy() {
        let page = HTMLPage(text: HTMLRenderer.render(timeline: Self.timeline()))
        let cards = page.cards
        #expect(cards.map(\.index) == ["0.0", "0.0", "0.1", "0.1"])
        // The opening frame: item 0 at 0 and 300, item 1 at 150, its second card hidden.
        #expect(cards.map { $0.style["left"] } == ["0px", "300px", "150px", nil])
        #expect(cards[3].style["display"] == "none")
        // Frame 1 drives card 2 (item 1) at 150 − 100 and card 3 (its second copy) at 350.
        #expect(page.text.contains("\"c\":[[2,50,"))
        #expect(page.text.contains("],[3,350,"))
    }
}
