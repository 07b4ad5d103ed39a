import CardLayout
import Foundation
import Testing

@testable import CardRender

/// The player (Page/player.js) draws facing, appearance and headers as the static markup
/// and the SVG do, in a real browser. Skipped without chromium and python3.
@Suite(.serialized, .enabled(if: Browser.isAvailable, "needs chromium and python3 on PATH"))
struct AppearanceBrowserTests {
    /// Frame 0: plain cards, item 1 turned 30°, no header. Frame 1: item 0 rounded (30)
    /// and orange, item 1 turned 150° and not double-sided, item 2 turned 150° and
    /// double-sided, a header (0, 0, 400, 20).
    static var timeline: Timeline {
        typealias F = AppearanceFixtures
        let plain = Frame(time: 0, contentOffset: Point(x: 0, y: 0), phase: .idle, viewportSize: F.viewport, items: [
            F.card(0, x: 20, y: 40, w: 200, h: 120),
            F.card(1, x: 250, y: 40, w: 100, h: 100, F.turned(30), doubleSided: false),
            F.card(2, x: 250, y: 170, w: 100, h: 100, F.turned(150)),
        ])
        var styled = plain
        styled.time = 1.0 / 60
        styled.items[0].appearance = CardAppearance(cornerRadius: 30, backgroundColor: CardColor(rgb: 0xff8800))
        styled.items[1].transform3D = F.turned(150)
        styled.supplementary = [SupplementaryAttributes(kind: .header, section: 0, frame: Rect(x: 0, y: 0, width: 400, height: 20))]
        return AppearanceFixtures.timeline([plain, styled])
    }

    @Test func playerAppliesFacingAppearanceAndHeaders() throws {
        let directory = try Browser.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("look.html")
        // The static markup shows frame 0; only the script can show frame 1.
        try HTMLRenderer.render(timeline: Self.timeline, frameIndex: 0).write(to: file, atomically: true, encoding: .utf8)
        let (dom, log) = try Browser.dumpDOM(URL(string: file.absoluteString + "#frame=1")!, budgetMs: 200, in: directory)
        #expect(dom.contains("<span id=\"count\">2 / 2</span>"), "\(log.suffix(2000))")
        let c0 = try #require(tag(in: dom, containing: "data-index=\"0.0\""))
        #expect(c0.contains("border-radius: 30px") && c0.contains("rgb(255, 136, 0)"), "\(c0)")
        let c1 = try #require(tag(in: dom, containing: "data-index=\"0.1\""))
        #expect(c1.contains("display: none"), "\(c1)")
        let c2 = try #require(tag(in: dom, containing: "data-index=\"0.2\""))
        #expect(!c2.contains("display: none"))
        #expect(dom.contains(">header 0</div>"))
        #expect(!log.contains("Uncaught"), "\(log)")
    }

    @Test func svgAndHTMLAgreeOnAppearance() throws {
        let directory = try Browser.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let timeline = Self.timeline
        let svgFile = directory.appendingPathComponent("look.svg"), htmlFile = directory.appendingPathComponent("look.html")
        try SVGRenderer.render(frame: timeline.frames[1], timeline: timeline).write(to: svgFile, atomically: true, encoding: .utf8)
        try HTMLRenderer.render(timeline: timeline, frameIndex: 1).write(to: htmlFile, atomically: true, encoding: .utf8)
        let svg = try Browser.screenshot(svgFile, width: 400, height: 300, in: directory)
        let html = try Browser.screenshot(htmlFile, width: 400, height: 300, in: directory)
        let orange = Palette.Color(red: 255, green: 136, blue: 0)
        let tint = Palette.viewportOutline.blended(over: Palette.background, alpha: 0.14)
        for (name, image) in [("svg", svg), ("html", html)] {
            #expect(colorsClose(image.pixel(120, 130), orange, tolerance: 2), "\(name) fill \(image.pixel(120, 130))")
            // (23, 43) is 38 pt from the top-left arc's centre (50, 70): outside radius 30.
            #expect(colorsClose(image.pixel(23, 43), Palette.background, tolerance: 3), "\(name) corner \(image.pixel(23, 43))")
            #expect(colorsClose(image.pixel(300, 100), Palette.background, tolerance: 3), "\(name) back face \(image.pixel(300, 100))")
            let mirrored = Palette.fill(for: CardIndexPath(item: 2, section: 0))
            #expect(colorsClose(image.pixel(300, 245), mirrored, tolerance: 3), "\(name) double-sided \(image.pixel(300, 245))")
            #expect(colorsClose(image.pixel(200, 10), tint, tolerance: 3), "\(name) header \(image.pixel(200, 10))")
        }
    }

    /// The start tag of the element whose attributes contain `marker`.
    private func tag(in dom: String, containing marker: String) -> String? {
        guard let r = dom.range(of: marker), let open = dom[..<r.lowerBound].lastIndex(of: "<"),
              let close = dom[r.upperBound...].firstIndex(of: ">") else { return nil }
        return String(dom[open...close])
    }
}
