import CardLayout
import CardRender
import Foundation
import Testing

/// The text table's numbers: scale and angles read off a matrix.
@Suite struct TextRendererTests {
    /// A turn about one axis reads back exactly; a scale reads back as row lengths.
    @Test func decompositionOfSingleAxisTurns() {
        let angle = 0.4
        let y = Decomposition(Transform3D.rotation(angle: angle, x: 0, y: 1, z: 0))
        #expect(abs(y.rotationY - angle) < 1e-12 && abs(y.rotationX) < 1e-12 && abs(y.rotationZ) < 1e-12)
        let x = Decomposition(Transform3D.rotation(angle: -angle, x: 1, y: 0, z: 0))
        #expect(abs(x.rotationX + angle) < 1e-12 && abs(x.rotationY) < 1e-12)
        let z = Decomposition(Transform3D.rotation(angle: angle, x: 0, y: 0, z: 1).scaled(x: 0.5, y: 2, z: 1))
        #expect(abs(z.rotationZ - angle) < 1e-12)
        #expect(abs(z.scaleX - 0.5) < 1e-12 && abs(z.scaleY - 2) < 1e-12 && abs(z.scaleZ - 1) < 1e-12)
        // Perspective (m34) does not disturb the reading.
        var p = Transform3D.identity
        p.m34 = 1.0 / 600
        #expect(abs(Decomposition(p.rotated(by: angle, x: 0, y: 1, z: 0)).rotationY - angle) < 1e-12)
    }

    /// Identical frames at rest fold into one line; a frame that differs is printed.
    @Test func repeatedFramesFold() {
        let item = LayoutAttributes(indexPath: CardIndexPath(item: 0, section: 0),
                                    frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let size = Size(width: 200, height: 200)
        let frames = (0..<5).map { Frame(time: Double($0) / 10, contentOffset: .zero, phase: .idle,
                                         viewportSize: size, items: [item]) }
            + [Frame(time: 0.5, contentOffset: Point(x: 10, y: 0), phase: .idle, viewportSize: size, items: [item])]
        let timeline = Timeline(scriptName: "t.lua", viewportSize: size, configuration: FlowLayoutConfiguration(),
                                contentSize: size, framesPerSecond: 10, frames: frames)
        let text = TextRenderer.render(timeline)
        #expect(text.contains("… the same for 4 more frames, until t=0.400s"))
        #expect(text.components(separatedBy: "\nt=").count - 1 == 2)
        #expect(text.contains("t=0.500s  offset (10.00, 0.00)  idle"))
    }
}
