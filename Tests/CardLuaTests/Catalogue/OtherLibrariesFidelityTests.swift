import CardLayout
import Foundation
import Testing

/// The catalogue's ports of single-effect libraries and samples, against their sources'
/// formulas written out here.
@Suite struct OtherLibrariesFidelityTests {
    /// Apple's LineLayout: 200-pt squares 50 apart after a left inset of 0, centred in the
    /// 336-pt band between the 200-pt top and bottom insets; within 200 pt of the visible
    /// midX a card zooms by 1 + 0.3·(1 − |d|/200) and comes to the front (zIndex 1).
    @Test func lineLayout() throws {
        try CatalogueHarness.expectFaithful("line-layout", offsets: [0, 75, 150, 333.25, 600, 1234.5, 2500]) { frame in
            let midX = frame.offset + frame.viewport.width / 2
            var back: [ExpectedCard] = [], front: [ExpectedCard] = []
            for item in 0..<frame.numberOfItems {
                let centerX = 100 + Double(item) * 250
                guard centerX + 100 > frame.offset, centerX - 100 < frame.offset + frame.viewport.width else { continue }
                let d = midX - centerX
                var card = ExpectedCard(item: item, center: Point(x: centerX, y: 200 + (frame.viewport.height - 400) / 2),
                                        size: Size(width: 200, height: 200))
                if abs(d) < 200 {
                    let zoom = 1 + 0.3 * (1 - abs(d) / 200)
                    card.transform = Transform3D.scale(x: zoom, y: zoom, z: 1)
                    front.append(card)
                } else {
                    back.append(card)
                }
            }
            return back + front
        }
    }
}
