import CardLayout
import Foundation
import Testing

@testable import CardRender

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Contract v2 in the pictures and the JSON: facing (`isDoubleSided`), `appearance`,
/// headers and footers. Expected text is written by hand from the fixture's numbers.
enum AppearanceFixtures {
    static let viewport = Size(width: 400, height: 300)

    static func card(_ item: Int, x: Double, y: Double, w: Double, h: Double, _ t: Transform3D = .identity,
                     doubleSided: Bool = true, appearance: CardAppearance? = nil) -> LayoutAttributes {
        var a = LayoutAttributes(indexPath: CardIndexPath(item: item, section: 0),
                                 frame: Rect(x: x, y: y, width: w, height: h), transform3D: t)
        a.isDoubleSided = doubleSided
        a.appearance = appearance
        return a
    }

    /// `t = identity; t.m34 = −1/500; CATransform3DRotate(t, θ, 0, 1, 0)`.
    static func turned(_ degrees: Double) -> Transform3D {
        var t = Transform3D.identity
        t.m34 = -1.0 / 500
        return t.rotated(by: degrees * .pi / 180, x: 0, y: 1, z: 0)
    }

    /// At content offset (0, 0) in 400×300, a header (0, 0, 400, 20) and:
    /// - item 0: 200×100 at (20, 40), corner radius 20, shadow 0.5 / radius 4 / UIKit's
    ///   offset (0, −3), background #ff8800;
    /// - item 1: 100×100 centred at (300, 90), turned 150° about y, not double-sided;
    /// - item 2: the same at (300, 220), double-sided (drawn, mirrored);
    /// - item 3: 100×60 at (20, 200), blur 2.5, nothing else set.
    static var frame: Frame {
        Frame(time: 0, contentOffset: Point(x: 0, y: 0), phase: .idle, viewportSize: viewport, items: [
            card(0, x: 20, y: 40, w: 200, h: 100, appearance: CardAppearance(
                cornerRadius: 20, shadowOpacity: 0.5, shadowRadius: 4, backgroundColor: CardColor(rgb: 0xff8800))),
            card(1, x: 250, y: 40, w: 100, h: 100, turned(150), doubleSided: false),
            card(2, x: 250, y: 170, w: 100, h: 100, turned(150)),
            card(3, x: 20, y: 200, w: 100, h: 60, appearance: CardAppearance(blurRadius: 2.5)),
        ], supplementary: [SupplementaryAttributes(kind: .header, section: 0, frame: Rect(x: 0, y: 0, width: 400, height: 20))])
    }

    static func timeline(_ frames: [Frame]) -> Timeline {
        var configuration = FlowLayoutConfiguration()
        configuration.scrollDirection = .vertical
        return Timeline(scriptName: "look.lua", viewportSize: viewport, configuration: configuration,
                        contentSize: Size(width: 400, height: 600), framesPerSecond: 60, frames: frames)
    }
}

@Suite struct AppearanceRenderTests {
    let frame = AppearanceFixtures.frame
    var timeline: Timeline { AppearanceFixtures.timeline([frame]) }

    @Test func jsonWritesTheNewFieldsOnlyWhenSet() {
        let json = JSONRenderer.render(timeline)
        #expect(json.contains("\"hidden\": false, \"appearance\": { \"cornerRadius\": 20, \"shadowOpacity\": 0.5, "
            + "\"shadowRadius\": 4, \"shadowOffset\": { \"width\": 0, \"height\": -3 }, \"backgroundColor\": \"#ff8800\", "
            + "\"blurRadius\": 0 } }"))
        #expect(json.contains("\"item\": 1, ") && json.contains("\"hidden\": false, \"isDoubleSided\": false }"))
        #expect(json.components(separatedBy: "isDoubleSided").count == 2, "only item 1 says it")
        #expect(json.contains("\"hidden\": false }"), "item 2: a v1 card")
        #expect(json.contains("\"appearance\": { \"cornerRadius\": 0, \"shadowOpacity\": 0, \"shadowRadius\": 3, "
            + "\"shadowOffset\": { \"width\": 0, \"height\": -3 }, \"blurRadius\": 2.5 } }"), "no backgroundColor unless set")
        #expect(json.contains(" ], \"supplementary\": [\n        { \"kind\": \"header\", \"section\": 0, "
            + "\"frame\": { \"x\": 0, \"y\": 0, \"width\": 400, \"height\": 20 } } ] }"))
        #expect(json.contains("\"cardlua\": 1,"))

        var plain = frame
        plain.supplementary = []
        plain.items = [AppearanceFixtures.card(0, x: 0, y: 0, w: 10, h: 10)]
        let v1 = JSONRenderer.render(AppearanceFixtures.timeline([plain]))
        #expect(!v1.contains("supplementary") && !v1.contains("appearance") && !v1.contains("isDoubleSided"))
        #expect(v1.contains("\"hidden\": false } ] }"))
    }

    /// The shared drawing list leaves out the card whose back is toward the eye and is
    /// not double-sided, and nothing else; every renderer draws from it.
    @Test func drawnCardsLeaveOutTheFacingAwayCard() {
        #expect(RenderCard.drawn(in: frame).map(\.attributes.indexPath.item) == [0, 2, 3])
        var frontOnly = frame
        frontOnly.items = [frame.items[1]]
        #expect(TerminalStrip.line(frame: frontOnly, columns: 40, color: false).isEmpty)
        frontOnly.items[0].isDoubleSided = true
        #expect(!TerminalStrip.line(frame: frontOnly, columns: 40, color: false).isEmpty)
    }

    /// The text summary's table says why a listed card is not in the strip.
    @Test func textTableMarksTheFacingAwayCard() {
        let table = TextRenderer.table(frame.items)
        #expect(table.contains("  1 (facing away)  "))
        #expect(table.components(separatedBy: "facing away").count == 2, "item 2 is double-sided")
    }

    @Test func svgDrawsAppearanceHeadersAndFacing() throws {
        let svg = SVGRenderer.render(frame: frame, timeline: timeline)
        #expect(!svg.contains("data-index=\"0.1\""), "facing away, not double-sided")
        #expect(svg.contains("data-index=\"0.2\""), "facing away, double-sided")
        #expect(svg.contains("data-index=\"0.0\"") && svg.contains("data-index=\"0.3\""))

        // Rounded corners: radius 20 on screen → 8 chords a quarter, 36 points, starting
        // at the top-left arc's start (−100, −30) + centre (120, 90) = (20, 60); its middle
        // is (−80 − 20/√2, −30 − 20/√2) + (120, 90) = (25.858, 45.858).
        let card = try #require(svg.range(of: "<g class=\"card\" data-index=\"0.0\"").map { svg[$0.lowerBound...] })
        let polygons = card.components(separatedBy: "<polygon ").dropFirst().prefix(2)
        let shadow = try #require(polygons.first), body = try #require(polygons.last)
        #expect(body.hasPrefix("points=\"20,60 "))
        #expect(body.contains(" 25.858,45.858 "))
        let points = body.split(separator: "\"")[1].split(separator: " ")
        #expect(points.count == 36)
        #expect(body.contains("fill=\"#ff8800\" stroke=\"#8c4b00\""), "#ff8800 darkened by 0.45: 0.55 × (255, 136, 0)")
        // The shadow: the same outline 3 pt up (UIKit's y-down (0, −3)), black at 0.5,
        // blurred by the shadow radius (the card is not scaled).
        #expect(shadow.hasPrefix("class=\"shadow\" points=\"20,57 "))
        #expect(shadow.contains("fill=\"#000\" fill-opacity=\"0.5\" stroke=\"none\" filter=\"url(#shadow-0-0)\""))
        #expect(svg.contains("<filter id=\"shadow-0-0\" filterUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"100%\" "
            + "height=\"100%\"><feGaussianBlur stdDeviation=\"4\"></feGaussianBlur></filter>"))
        // The blur covers the whole card; it has no radius, so its outline is its quad.
        #expect(svg.contains("<g class=\"card\" data-index=\"0.3\" filter=\"url(#blur-0-3)\"><polygon points=\"20,200 120,200 120,260 20,260\""))
        #expect(svg.contains("<feGaussianBlur stdDeviation=\"2.5\">"))
        // The header, faint and labelled, behind every card.
        let header = "<g class=\"supp\" data-kind=\"header\" data-section=\"0\"><rect x=\"0\" y=\"0\" width=\"400\" height=\"20\"/>"
            + "<text x=\"4\" y=\"3\">header 0</text></g>"
        let headerAt = try #require(svg.range(of: header)), firstCard = try #require(svg.range(of: "<g class=\"card\""))
        #expect(headerAt.lowerBound < firstCard.lowerBound)
        #expect(svg.contains(".supp rect{"))

        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
    }

    @Test func picturesWithoutTheNewFieldsAreUnchanged() {
        let svg = SVGRenderer.render(frame: RenderFixtures.frame, timeline: RenderFixtures.timeline([RenderFixtures.frame]))
        #expect(!svg.contains("<defs>") && !svg.contains("supp") && !svg.contains("filter"))
        let html = HTMLRenderer.render(timeline: RenderFixtures.timeline([RenderFixtures.frame]))
        #expect(!html.contains("class=\"supp\"") && !html.contains("data-fill") && !html.contains("\"s\":["))
    }

    @Test func animatedSVGFollowsFacingAppearanceAndHeaders() throws {
        // Frame 1: item 1 turns back to 30° (drawn); the header scrolls away; item 0 loses its background.
        var second = frame
        second.time = 1.0 / 60
        second.items[1].transform3D = AppearanceFixtures.turned(30)
        second.items[0].appearance?.backgroundColor = nil
        second.supplementary = []
        let svg = SVGRenderer.renderAnimated(timeline: AppearanceFixtures.timeline([frame, second]))
        let item1 = try #require(svg.range(of: "<g class=\"card\" data-index=\"0.1\"").map { String(svg[$0.lowerBound...].prefix(400)) })
        #expect(item1.hasPrefix("<g class=\"card\" data-index=\"0.1\" opacity=\"0\"><animate attributeName=\"opacity\""))
        #expect(item1.contains("values=\"0;1\""))
        let fill = Palette.fill(for: CardIndexPath(item: 0, section: 0)).hex
        #expect(svg.contains("<animate attributeName=\"fill\" dur=\"0.033s\" repeatCount=\"indefinite\" calcMode=\"discrete\" "
            + "keyTimes=\"0;0.5\" values=\"#ff8800;\(fill)\"/>"))
        #expect(svg.contains("<g class=\"supp\" data-kind=\"header\" data-section=\"0\"><animate attributeName=\"visibility\""))
        #expect(svg.contains("<filter id=\"shadow-0-0-0\""))
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
    }

    @Test func htmlCarriesAppearanceFacingAndHeaders() throws {
        let text = HTMLRenderer.render(timeline: timeline)
        let page = HTMLPage(text: text)
        let first = try #require(page.card("0.0"))
        #expect(first["border-radius"] == "20px")
        #expect(first["box-shadow"] == "0 0 0 1px var(--stroke),0px -3px 8px rgba(0,0,0,0.5)", "CSS blur radius = 2 × shadowRadius")
        #expect(first["background"] == "#ff8800" && first["--stroke"] == "#8c4b00")
        let palette = Palette.fill(for: CardIndexPath(item: 0, section: 0)).hex
        #expect(text.contains("data-index=\"0.0\" data-fill=\"\(palette)\""))
        #expect(page.card("0.1")?["display"] == "none")
        #expect(page.card("0.2")?["display"] == nil)
        #expect(page.card("0.3")?["filter"] == "blur(2.5px)")
        #expect(text.contains("<div class=\"supp\" style=\"left:0px;top:0px;width:400px;height:20px\">header 0</div>"))

        let data = try page.data()
        let frames = try #require(data["frames"] as? [[String: Any]])
        let rows = try #require(frames.first?["c"] as? [[Any]])
        #expect((rows[1][23] as? NSNumber)?.intValue == 4, "flags: back toward the eye, not double-sided")
        #expect((rows[2][23] as? NSNumber)?.intValue == 0)
        let look = try #require(rows[0].last as? [Any])
        #expect(look.count == 8)
        #expect((look[0] as? NSNumber)?.doubleValue == 20 && (look[4] as? NSNumber)?.doubleValue == -3)
        #expect(look[5] as? String == "#ff8800" && look[6] as? String == "#8c4b00")
        #expect(rows[1].count == 24, "no appearance, nothing appended")
        let s = try #require(frames.first?["s"] as? [[NSNumber]])
        #expect(s.map { $0.map(\.doubleValue) } == [[0, 0, 0, 0, 400, 20]])
    }

    /// Corner radius larger than half the shorter side is drawn as half of it.
    @Test func roundedOutlineGeometry() {
        #expect(RenderCard.clampedRadius(80, size: Size(width: 200, height: 100)) == 50)
        #expect(RenderCard.clampedRadius(-5, size: Size(width: 200, height: 100)) == 0)
        let corners = RenderCard.roundedOutline(size: Size(width: 200, height: 100), radius: 0, screenRadius: 0)
        #expect(corners.map(\.x) == [-100, 100, 100, -100] && corners.map(\.y) == [-50, -50, 50, 50])
        // Chords per quarter: 2 below 2 pt on screen, then 4, 8, 16, 32 as it quadruples.
        for (screen, n) in [(1.0, 2), (5, 4), (20, 8), (100, 16), (400, 32)] {
            #expect(RenderCard.roundedOutline(size: Size(width: 200, height: 100), radius: 10, screenRadius: screen).count == 4 * (n + 1))
        }
        // Every point of a radius-10 outline is on the rectangle's edge or 10 from a corner centre.
        for p in RenderCard.roundedOutline(size: Size(width: 200, height: 100), radius: 10, screenRadius: 10) {
            let cx = p.x < 0 ? -90.0 : 90, cy = p.y < 0 ? -40.0 : 40
            let onArc = abs(((p.x - cx) * (p.x - cx) + (p.y - cy) * (p.y - cy)).squareRoot() - 10) < 1e-9
            #expect(onArc && abs(p.x) <= 100 + 1e-9 && abs(p.y) <= 50 + 1e-9)
        }
    }
}
