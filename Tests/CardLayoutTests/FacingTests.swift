import Foundation
import Testing
@testable import CardLayout

/// `CALayer.isDoubleSided = false`: a card whose back is toward the eye is not drawn.
/// Expected values are closed forms worked out by hand (see each comment), not the code.
@Suite struct FacingTests {
    /// `t = identity; t.m34 = p; t = CATransform3DRotate(t, θ, 0, 1, 0)` = rotation · t.
    static func turned(degrees: Double, perspective p: Double) -> Transform3D {
        var t = Transform3D.identity
        t.m34 = p
        return t.rotated(by: degrees * .pi / 180, x: 0, y: 1, z: 0)
    }

    /// About y, rotation · perspective has rows (c, 0, −s, −s·p), (0, 1, 0, 0),
    /// (s, 0, c, c·p), (0, 0, 0, 1): the determinant of rows/columns {1, 2, 4} is
    /// c · 1 · 1 = cos θ whatever p is. So 0° and 60° face the eye, 120° and 180° do not,
    /// with no perspective, an eye at +500 (m34 = −1/500) or the first seed's +1/600.
    @Test(arguments: [0.0, -1.0 / 500, 1.0 / 600])
    func turnsAboutY(perspective: Double) {
        let angles = [0.0, 60, 120, 180]
        let expected = [1.0, 0.5, -0.5, -1]
        for (angle, d) in zip(angles, expected) {
            let t = Self.turned(degrees: angle, perspective: perspective)
            #expect(abs(t.planeOrientation - d) < 1e-12, "\(angle)° m34 \(perspective): \(t.planeOrientation)")
            #expect(t.facesAway == (d < 0), "\(angle)°")
        }
    }

    /// The 300×500 card turned 120° with m34 = −1/500: m11 = cos 120° = −1/2,
    /// m14 = −sin 120° · (−1/500) = (√3/2)/500. The top-left corner (−150, −250) has
    /// w = 1 − 150·(√3/2)/500 and x = −150 · (−1/2) = 75; the top-right (150, −250) has
    /// w = 1 + 150·(√3/2)/500 and x = −75. So on screen the top-left corner lies right of
    /// the top-right one: the winding is reversed, and only a double-sided card is drawn.
    @Test func aTurnPastNinetyDegreesReversesTheWinding() throws {
        let t = Self.turned(degrees: 120, perspective: -1.0 / 500)
        var card = LayoutAttributes(indexPath: CardIndexPath(item: 0, section: 0),
                                    frame: Rect(x: 0, y: 0, width: 300, height: 500), transform3D: t)
        let quad = try #require(card.projectedQuad(contentOffset: Point(x: 150, y: 250)))
        let half = 3.0.squareRoot() / 2
        #expect(abs(quad.corners[0].x - 75 / (1 - 150 * half / 500)) < 1e-9)
        #expect(abs(quad.corners[1].x - -75 / (1 + 150 * half / 500)) < 1e-9)
        #expect(quad.corners[0].x > quad.corners[1].x)
        #expect(card.isFacingAway)
        #expect(!card.isBackFaceHidden, "double-sided by default, as CALayer")
        card.isDoubleSided = false
        #expect(card.isBackFaceHidden)
        card.transform3D = Self.turned(degrees: 60, perspective: -1.0 / 500)
        #expect(!card.isBackFaceHidden)
    }

    /// Perspective matters once the card is off the eye's axis: turned 80° about y, moved
    /// 200 pt along x, then seen with m34 = −1/500 (eye at (0, 0, 500)). The rows are
    /// (c, 0, −s, −s·p), (0, 1, 0, 0), (s, 0, c, c·p), (200, 0, 0, 1), so the determinant
    /// is c + s·p·200 = cos 80° − sin 80° · 200/500 = 0.1736… − 0.3939… < 0: the normal
    /// (sin 80°, 0, cos 80°) at (200, 0, 0) points away from the eye ((−200, 0, 500) · n =
    /// −110.2 < 0). Moved to −200 instead, the front shows (0.5676…).
    @Test func perspectiveOffTheAxis() {
        var p = Transform3D.identity
        p.m34 = -1.0 / 500
        let angle = 80 * Double.pi / 180
        for (tx, expected) in [(200.0, cos(angle) - sin(angle) * 200 / 500), (-200, cos(angle) + sin(angle) * 200 / 500)] {
            let t = Transform3D.rotation(angle: angle, x: 0, y: 1, z: 0)
                .concatenating(.translation(x: tx, y: 0, z: 0)).concatenating(p)
            #expect(abs(t.planeOrientation - expected) < 1e-12, "tx \(tx)")
            #expect(t.facesAway == (tx > 0))
        }
        #expect(cos(angle) - sin(angle) * 200 / 500 < -0.22 && cos(angle) + sin(angle) * 200 / 500 > 0.56)
    }

    /// A mirror reverses the winding (determinant −1); a half turn in the plane does not
    /// (scale −1, −1: determinant +1); nor does a uniform homogeneous factor.
    @Test func mirrorsAndHalfTurns() {
        #expect(Transform3D.scale(x: -1, y: 1, z: 1).facesAway)
        #expect(Transform3D.scale(x: 1, y: -1, z: 1).facesAway)
        #expect(!Transform3D.scale(x: -1, y: -1, z: 1).facesAway)
        #expect(!Transform3D.rotation(angle: .pi, x: 0, y: 0, z: 1).facesAway)
        #expect(Transform3D.rotation(angle: .pi, x: 1, y: 0, z: 0).facesAway)
        #expect(!Transform3D.scale(x: 2, y: 2, z: 2).facesAway)
    }
}

/// Frames carry the headers and footers meeting the visible rect.
@Suite struct SupplementaryFrameTests {
    private final class Sections: Effect {
        let header: Double, footer: Double
        init(header: Double, footer: Double) { self.header = header; self.footer = footer }
        func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws {
            configuration.scrollDirection = .vertical
            configuration.itemSize = Size(width: 100, height: 100)
            configuration.sectionInset = CardEdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
            configuration.minimumLineSpacing = 0
            configuration.minimumInteritemSpacing = 0
            configuration.headerReferenceSize = Size(width: 0, height: header)
            configuration.footerReferenceSize = Size(width: 0, height: footer)
        }
        func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding, context: ScrollContext) throws {}
        func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                                 context: ScrollContext) throws -> Point { proposed }
    }

    /// 320 pt wide, 100×100 items: three to a row. Section 0 (4 items): header 0…40, rows
    /// 40…240, footer 240…270; section 1 (4 items): header 270…310, rows 310…510, footer
    /// 510…540. At offset 0 the visible y 0…480 meets header 0, footer 0, header 1; at 60
    /// (the end: 540 − 480), y 60…540 meets footer 0, header 1, footer 1.
    @Test func framesCarryTheVisibleHeadersAndFooters() throws {
        let runner = ScenarioRunner(effect: Sections(header: 40, footer: 30), scriptName: "sections")
        let viewport = Size(width: 320, height: 480)
        let top = try runner.run(.single(offset: 0, viewportSize: viewport, numberOfItems: [4, 4]))
        let end = try runner.run(.single(offset: 60, viewportSize: viewport, numberOfItems: [4, 4]))
        func row(_ kind: SupplementaryKind, _ section: Int, _ y: Double, _ h: Double) -> SupplementaryAttributes {
            SupplementaryAttributes(kind: kind, section: section, frame: Rect(x: 0, y: y, width: 320, height: h))
        }
        #expect(top.frames.last?.supplementary == [row(.header, 0, 0, 40), row(.footer, 0, 240, 30), row(.header, 1, 270, 40)])
        #expect(end.frames.last?.contentOffset == Point(x: 0, y: 60))
        #expect(end.frames.last?.supplementary == [row(.footer, 0, 240, 30), row(.header, 1, 270, 40), row(.footer, 1, 510, 30)])
        let plain = try ScenarioRunner(effect: Sections(header: 0, footer: 0), scriptName: "plain")
            .run(.single(offset: 0, viewportSize: viewport, numberOfItems: [4, 4]))
        #expect(plain.frames.allSatisfy { $0.supplementary.isEmpty })
    }
}
