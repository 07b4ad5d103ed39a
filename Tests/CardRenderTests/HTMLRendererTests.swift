import CardLayout
import Foundation
import Testing

@testable import CardRender

/// The pieces of the preview page the tests read back.
struct HTMLPage {
    var text: String

    /// Every card `<div>`: its `data-index` and its inline style as a dictionary.
    var cards: [(index: String, style: [String: String])] {
        var out: [(String, [String: String])] = []
        var rest = text[...]
        while let start = rest.range(of: "<div class=\"card\"") {
            let tag = rest[start.lowerBound...].prefix { $0 != ">" }
            rest = rest[start.upperBound...]
            guard let index = attribute("data-index", in: tag), let style = attribute("style", in: tag) else { continue }
            var properties: [String: String] = [:]
            for declaration in style.split(separator: ";") {
                guard let colon = declaration.firstIndex(of: ":") else { continue }
                properties[String(declaration[..<colon])] = String(declaration[declaration.index(after: colon)...])
            }
            out.append((index, properties))
        }
        return out
    }

    func card(_ index: String) -> [String: String]? { cards.first { $0.index == index }?.style }

    /// The embedded timeline data's text.
    func json() throws -> Data {
        let open = "<script type=\"application/json\" id=\"timeline\">"
        let start = try #require(text.range(of: open))
        let end = try #require(text.range(of: "</script>", range: start.upperBound..<text.endIndex))
        return Data(text[start.upperBound..<end.lowerBound].utf8)
    }

    /// The embedded timeline data, loosely typed.
    func data() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: json()) as? [String: Any])
    }

    /// The numbers of the embedded data, decoded exactly (`JSONDecoder` reads a double
    /// back bit for bit, unlike `JSONSerialization` on Linux).
    struct Numbers: Decodable {
        struct Frame: Decodable {
            var t: Double
            var o: [Double]
            var p: String
            var c: [[Double]]
        }
        var fps: Double
        var frames: [Frame]
        var snaps: [[Double]]
    }

    func numbers() throws -> Numbers { try JSONDecoder().decode(Numbers.self, from: json()) }

    private func attribute(_ name: String, in tag: Substring) -> String? {
        guard let r = tag.range(of: " \(name)=\"") else { return nil }
        return String(tag[r.upperBound...].prefix { $0 != "\"" })
    }

    /// The sixteen numbers of a `matrix3d(…)` value.
    static func matrix(_ value: String) -> [Double]? {
        guard value.hasPrefix("matrix3d("), value.hasSuffix(")") else { return nil }
        let numbers = value.dropFirst(9).dropLast().split(separator: ",").compactMap { Double($0) }
        return numbers.count == 16 ? numbers : nil
    }
}

func doubles(_ value: Any?) -> [Double] {
    (value as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } ?? []
}

@Suite struct HTMLRendererTests {
    let frame = RenderFixtures.frame

    @Test func matrix3dValuesAreTheTransformFields() throws {
        let page = HTMLPage(text: HTMLRenderer.render(timeline: RenderFixtures.timeline([frame])))
        var checked = 0
        for a in frame.items where !a.isHidden && a.projectedQuad(contentOffset: frame.contentOffset) != nil {
            let style = try #require(page.card("0.\(a.indexPath.item)"))
            let transform = try #require(style["transform"])
            let m = try #require(HTMLPage.matrix(transform))
            #expect(m == a.transform3D.fields, "item \(a.indexPath.item)")
            #expect(Transform3D(m) == a.transform3D)
            // Untransformed frame minus the content offset.
            #expect(style["left"] == "\(RenderSupport.exact(a.frame.minX - frame.contentOffset.x))px")
            #expect(style["top"] == "\(RenderSupport.exact(a.frame.minY - frame.contentOffset.y))px")
            #expect(style["width"] == "\(RenderSupport.exact(a.size.width))px")
            #expect(style["height"] == "\(RenderSupport.exact(a.size.height))px")
            #expect(style["z-index"] == "\(a.zIndex)")
            #expect(style["background"] == Palette.fill(for: a.indexPath).hex)
            checked += 1
        }
        #expect(checked == 4)
        #expect(page.card("0.2")?["opacity"] == "0.6")
        // The turned card's perspective is in the matrix itself.
        #expect(page.card("0.0")?["transform"]?.contains(RenderSupport.exact(RenderFixtures.perspective * cos(RenderFixtures.angle))) == true)
    }

    @Test func cssMatchesCoreAnimationConventions() {
        let text = HTMLRenderer.render(timeline: RenderFixtures.timeline([frame]))
        #expect(text.contains("transform-origin:50% 50%"))
        #expect(text.contains("overflow:hidden"))
        #expect(!text.contains("perspective:") && !text.contains("perspective("))
        #expect(!text.contains("preserve-3d"))
        // Cards appear in index-path order, so equal z-indices stack like the SVG.
        let page = HTMLPage(text: text)
        #expect(page.cards.map(\.index) == ["0.0", "0.1", "0.2", "0.3", "0.4", "0.5"])
    }

    @Test func hiddenAndBehindTheEyeCardsAreNotShown() throws {
        let page = HTMLPage(text: HTMLRenderer.render(timeline: RenderFixtures.timeline([frame])))
        #expect(page.card("0.3")?["display"] == "none")
        #expect(page.card("0.4")?["display"] == "none")
        #expect(page.card("0.1")?["display"] == nil)
        let data = try page.data()
        let frames = try #require(data["frames"] as? [[String: Any]])
        let rows = try #require(frames.first?["c"] as? [[Any]])
        let flags = rows.map { ($0.last as? NSNumber)?.intValue ?? -1 }
        #expect(flags == [0, 0, 0, 2, 1, 0])
    }

    @Test func embeddedDataCarriesEveryFrameExactly() throws {
        let timeline = RenderFixtures.carousel(frames: 12, cards: 5)
        let page = HTMLPage(text: HTMLRenderer.render(timeline: timeline))
        let items = try #require(try page.data()["items"] as? [[Any]])
        let data = try page.numbers()
        #expect(data.frames.count == timeline.frames.count)
        #expect(data.fps == 60)
        for (f, json) in zip(timeline.frames, data.frames) {
            #expect(json.t == f.time)
            #expect(json.o == [f.contentOffset.x, f.contentOffset.y])
            #expect(json.p == f.phase.rawValue)
            #expect(json.c.count == f.items.count)
            for (a, numbers) in zip(f.items, json.c) {
                let k = Int(numbers[0])
                #expect(doubles(items[k]).prefix(2) == [Double(a.indexPath.section), Double(a.indexPath.item)])
                #expect(Array(numbers[5..<21]) == a.transform3D.fields)
                #expect(numbers[1] == a.frame.minX - f.contentOffset.x)
                #expect(numbers[21] == a.alpha && Int(numbers[22]) == a.zIndex)
            }
        }
    }

    @Test func opensAtTheRequestedFrame() throws {
        let timeline = RenderFixtures.carousel(frames: 30, cards: 6)
        let page = HTMLRenderer.render(timeline: timeline, frameIndex: 7)
        #expect(page.contains("value=\"7\""))
        #expect(page.contains("t = 0.117 s · offset (144.83, 0) · decelerating"))
        #expect(page.contains("<span id=\"count\">8 / 30</span>"))
        #expect((try HTMLPage(text: page).data()["start"] as? NSNumber)?.intValue == 7)
        // The static markup shows frame 7's cards.
        let f = timeline.frames[7]
        for a in f.items {
            let style = try #require(HTMLPage(text: page).card("0.\(a.indexPath.item)"))
            #expect(HTMLPage.matrix(style["transform"] ?? "") == a.transform3D.fields)
        }
        #expect(HTMLRenderer.render(timeline: timeline, frameIndex: 999).contains(">30 / 30<"))
        #expect(HTMLRenderer.render(timeline: timeline, frameIndex: -4).contains(">1 / 30<"))
    }

    @Test func selfContainedAndSafe() throws {
        var timeline = RenderFixtures.timeline([frame], snaps: [
            SnapEvent(time: 0.25, proposedContentOffset: Point(x: 998, y: 0), velocity: Point(x: 2, y: 0),
                      targetContentOffset: Point(x: 893, y: 0)),
        ])
        timeline.scriptName = "</script><script>alert(1)</script>.lua"
        let text = HTMLRenderer.render(timeline: timeline)
        #expect(!text.contains("http://") && !text.contains("https://"))
        #expect(!text.contains("<link") && !text.contains("src=\"") && !text.contains("fetch("))
        #expect(text.components(separatedBy: "</script>").count - 1 == 2)
        #expect(text.components(separatedBy: "<script").count - 1 == 2)
        let data = try HTMLPage(text: text).data()
        #expect(data["script"] as? String == timeline.scriptName)
        #expect(try HTMLPage(text: text).numbers().snaps == [[0.25, 998, 0, 2, 0, 893, 0]])
        #expect(data["reload"] is NSNull)
        #expect(text == HTMLRenderer.render(timeline: timeline))
    }

    @Test func liveReloadSidecar() throws {
        let page = HTMLRenderer.render(timeline: RenderFixtures.timeline([frame]), frameIndex: nil,
                                       reloadStampFile: "preview.html.stamp.js")
        #expect(try HTMLPage(text: page).data()["reload"] as? String == "preview.html.stamp.js")
        #expect(page.contains("location.reload()"))
        #expect(HTMLRenderer.stampFileName(forHTMLFile: "out/preview.html") == "preview.html.stamp.js")
        #expect(HTMLRenderer.stampFileName(forHTMLFile: "p.html") == "p.html.stamp.js")
        #expect(HTMLRenderer.reloadStampScript(stamp: "7\"</script>")
                == "window.cardluaReloadStamp = \"7\\\"\\u003c/script\\u003e\";\n")
    }

    @Test func emptyTimeline() throws {
        let text = HTMLRenderer.render(timeline: RenderFixtures.timeline([]), frameIndex: 3)
        #expect(text.contains("no frames"))
        #expect((try HTMLPage(text: text).data()["frames"] as? [Any])?.isEmpty == true)
    }
}
