import CardLayout
import Testing

@testable import CardRender

/// What the gallery keeps of a demo: only the cards that can be seen, no repeated
/// frames, and the box its cards use.
@Suite struct GalleryRendererTests {
    static let viewport = Size(width: 400, height: 600)

    /// A frame at `offset` with 200 × 100 cards in one row at y 250…350, 10 apart, and
    /// item 1 transparent.
    static func frame(_ time: Double, offset: Double, count: Int = 8) -> Frame {
        let items = (0..<count).map { i in
            LayoutAttributes(indexPath: CardIndexPath(item: i, section: 0),
                             frame: Rect(x: 100 + 210 * Double(i), y: 250, width: 200, height: 100),
                             alpha: i == 1 ? 0 : 1)
        }
        return Frame(time: time, contentOffset: Point(x: offset, y: 0), phase: .idle, viewportSize: viewport, items: items)
    }

    @Test func keepsOnlyCardsThatShowAndFramesThatDiffer() {
        let frames = [Self.frame(0, offset: 0), Self.frame(0.05, offset: 0), Self.frame(0.1, offset: 0), Self.frame(0.15, offset: 300)]
        let timeline = RenderFixtures.timeline(frames, name: "row.lua")
        let (kept, box) = GalleryRenderer.shown(timeline)
        // The two repeats of the first frame are left out; the last frame stays.
        #expect(kept.frames.map(\.time) == [0, 0.15])
        // At 0 the viewport (0…400) meets items 0 (100…300) and 1 (310…510, transparent):
        // only item 0 shows. At 300 (300…700): items 1 (transparent), 2 (520…720).
        #expect(kept.frames[0].items.map(\.indexPath.item) == [0])
        #expect(kept.frames[1].items.map(\.indexPath.item) == [2])
        // The box: x from 100 (item 0) to the viewport's 400, y 250…350, 4 % margins
        // (16 and 24 points), within the viewport.
        #expect(box == Rect(x: 84, y: 226, width: 316, height: 148))
    }

    @Test func aDemoWithNothingOnScreenShowsTheWholeViewport() {
        let empty = Frame(time: 0, contentOffset: .zero, phase: .idle, viewportSize: Self.viewport, items: [])
        let (_, box) = GalleryRenderer.shown(RenderFixtures.timeline([empty], name: "none.lua"))
        #expect(box == Rect(x: 0, y: 0, width: 400, height: 600))
    }

    @Test func numbersAreShort() {
        #expect(GalleryRenderer.short(0.156434) == "0.1564")
        #expect(GalleryRenderer.short(-231.607) == "-231.6")
        #expect(GalleryRenderer.short(3807.043) == "3807.04")
        #expect(GalleryRenderer.short(-0.0) == "0")
        #expect(GalleryRenderer.short(1) == "1")
    }
}
