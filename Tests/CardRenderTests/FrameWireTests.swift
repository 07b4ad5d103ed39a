import CardLayout
@testable import CardRender
import Testing

/// The one frame form the static page, the gallery and `cardlua play` send: each card's
/// numbers written out by hand from its frame, the CSS clamps included (play once sent
/// z-indices CSS cannot hold).
@Suite struct FrameWireTests {
    /// Two cards 100 × 200 at x 10 and 130 (y 5), the content scrolled to (20, 0): a
    /// z-index beyond CSS's range, an alpha above 1, and the second item shown twice.
    static let frame = Frame(time: 0.5, contentOffset: Point(x: 20, y: 0), phase: .dragging,
                             viewportSize: Size(width: 300, height: 400), items: [
        LayoutAttributes(indexPath: CardIndexPath(item: 0, section: 0), frame: Rect(x: 10, y: 5, width: 100, height: 200),
                         alpha: 2, zIndex: Int.max),
        LayoutAttributes(indexPath: CardIndexPath(item: 1, section: 0), frame: Rect(x: 130, y: 5, width: 100, height: 200),
                         alpha: 0.25, zIndex: -3, isHidden: true),
        LayoutAttributes(indexPath: CardIndexPath(item: 1, section: 0), frame: Rect(x: 250, y: 5, width: 100, height: 200)),
    ])
    static let identity = "1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1"

    @Test func playNamesCardsByIndexPath() {
        #expect(FrameWire.frame(Self.frame, identity: .indexPath) == "{\"t\":0.5,\"o\":[20,0],\"p\":\"dragging\",\"v\":[300,400],\"c\":["
            + "[0,0,-10,5,100,200,\(Self.identity),1,2000000000,0],"
            + "[0,1,110,5,100,200,\(Self.identity),0.25,-3,1],"
            + "[0,1,230,5,100,200,\(Self.identity),1,0,0]]}")
    }

    @Test func thePageNamesCardsBySlotAndCountsCopies() {
        let slots = [CardIndexPath(item: 0, section: 0): 0, CardIndexPath(item: 1, section: 0): 1]
        #expect(FrameWire.frame(Self.frame, identity: .slot(slots)) == "{\"t\":0.5,\"o\":[20,0],\"p\":\"dragging\",\"v\":[300,400],\"c\":["
            + "[0,-10,5,100,200,\(Self.identity),1,2000000000,0],"
            + "[1,110,5,100,200,\(Self.identity),0.25,-3,1],"
            + "[2,230,5,100,200,\(Self.identity),1,0,0]]}")
    }
}
