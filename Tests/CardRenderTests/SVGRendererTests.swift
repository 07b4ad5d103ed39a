import CardLayout
import Foundation
import Testing

@testable import CardRender

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Hand-built timelines shared by the SVG, HTML, terminal and browser tests.
enum RenderFixtures {
    static let viewport = Size(width: 400, height: 300)
    static let contentOffset = Point(x: 100, y: 0)
    static let angle = 35 * Double.pi / 180
    static let perspective = -1.0 / 600

    /// `t = identity; t.m34 = p; t = CATransform3DRotate(t, θ, 0, 1, 0)`.
    static func turned(_ angle: Double, perspective: Double) -> Transform3D {
        var t = Transform3D.identity
        t.m34 = perspective
        return t.rotated(by: angle, x: 0, y: 1, z: 0)
    }

    /// A card whose every corner is behind the eye: pushed 700 pt towards an eye at
    /// 600 pt (w = 1 + 700·(−1/600) = −1/6 for every corner).
    static var behindTheEye: Transform3D {
        var p = Transform3D.identity
        p.m34 = perspective
        return Transform3D.translation(x: 0, y: 0, z: 700).concatenating(p)
    }

    /// One frame at content offset (100, 0) in a 400×300 viewport:
    /// - item 0, zIndex 0: 160×200, centre (200, 150) in content (x 100 on screen),
    ///   turned 35° about y with m34 = −1/600 — it reaches under the centre card;
    /// - item 1, zIndex 2: 160×200 in the middle of the viewport, untransformed;
    /// - item 2, zIndex 1: 160×200 centred at 360 on screen, scaled 0.8, alpha 0.6;
    /// - item 3, zIndex 3: over the centre card, but behind the eye;
    /// - item 4, zIndex 5: hidden;
    /// - item 5, zIndex 1: a small 40×30 card at (10, 10) on screen (ties item 2).
    static var frame: Frame {
        func card(_ item: Int, x: Double, y: Double, w: Double, h: Double,
                  _ t: Transform3D = .identity, alpha: Double = 1, z: Int = 0, hidden: Bool = false)
            -> LayoutAttributes
        {
            LayoutAttributes(indexPath: CardIndexPath(item: item, section: 0),
                             frame: Rect(x: x, y: y, width: w, height: h),
                             transform3D: t, alpha: alpha, zIndex: z, isHidden: hidden)
        }
        return Frame(time: 0.5, contentOffset: contentOffset, phase: .decelerating, viewportSize: viewport, items: [
            card(0, x: 120, y: 50, w: 160, h: 200, turned(angle, perspective: perspective), z: 0),
            card(1, x: 220, y: 50, w: 160, h: 200, z: 2),
            card(2, x: 380, y: 50, w: 160, h: 200, .scale(x: 0.8, y: 0.8, z: 1), alpha: 0.6, z: 1),
            card(3, x: 220, y: 50, w: 160, h: 200, behindTheEye, z: 3),
            card(4, x: 200, y: 255, w: 100, h: 30, z: 5, hidden: true),
            card(5, x: 110, y: 10, w: 40, h: 30, z: 1),
        ])
    }

    /// The index paths `frame` draws, in drawing order.
    static let drawnOrder = [0, 2, 5, 1]

    static func timeline(_ frames: [Frame], name: String = "fixture.lua", snaps: [SnapEvent] = [],
                         direction: ScrollDirection = .horizontal) -> Timeline {
        var configuration = FlowLayoutConfiguration()
        configuration.scrollDirection = direction
        return Timeline(scriptName: name, viewportSize: frames.first?.viewportSize ?? viewport,
                        configuration: configuration, contentSize: Size(width: 2000, height: 300),
                        framesPerSecond: 60, frames: frames, snaps: snaps)
    }

    /// A carousel in the style of the first seed: `count` frames at 60 fps scrolling
    /// from 0 to 600, `cards` cards of 160×200 side by side, each turned by its
    /// distance from the centre (m34 = −1/600), all at zIndex 1.
    static func carousel(frames count: Int, cards: Int) -> Timeline {
        var frames: [Frame] = []
        for k in 0..<count {
            let offset = 600 * Double(k) / Double(max(count - 1, 1))
            var items: [LayoutAttributes] = []
            for i in 0..<cards {
                let r = Rect(x: 120 + 170 * Double(i), y: 50, width: 160, height: 200)
                guard r.intersects(Rect(x: offset, y: 0, width: viewport.width, height: viewport.height)) else { continue }
                let distance = offset + viewport.width / 2 - r.midX
                let turn = -angle * max(-1, min(1, distance / 200))
                items.append(LayoutAttributes(indexPath: CardIndexPath(item: i, section: 0), frame: r,
                                              transform3D: turned(turn, perspective: perspective), zIndex: 1))
            }
            frames.append(Frame(time: Double(k) / 60, contentOffset: Point(x: offset, y: 0),
                                phase: k == count - 1 ? .idle : .decelerating, viewportSize: viewport, items: items))
        }
        return timeline(frames, name: "carousel.lua")
    }
}

/// A parsed SVG or HTML element tree, with a small well-formedness check where
/// FoundationXML is missing.
struct XMLNodeInfo {
    var name: String
    var attributes: [String: String]
    var text: String
    var children: [XMLNodeInfo]

    func all(_ name: String) -> [XMLNodeInfo] {
        (self.name == name ? [self] : []) + children.flatMap { $0.all(name) }
    }

    /// Parses `text` as XML; throws when it is not well formed.
    static func parse(_ text: String) throws -> XMLNodeInfo {
        #if canImport(FoundationXML) || os(macOS)
        let document = try XMLDocument(xmlString: text, options: [])
        guard let root = document.rootElement() else { throw CocoaError(.fileReadCorruptFile) }
        func convert(_ element: XMLElement) -> XMLNodeInfo {
            var attributes: [String: String] = [:]
            for a in element.attributes ?? [] { attributes[a.name ?? ""] = a.stringValue ?? "" }
            let children = (element.children ?? []).compactMap { $0 as? XMLElement }.map(convert)
            return XMLNodeInfo(name: element.name ?? "", attributes: attributes,
                               text: element.stringValue ?? "", children: children)
        }
        return convert(root)
        #else
        Issue.record("FoundationXML is not available; XML not checked")
        return XMLNodeInfo(name: "", attributes: [:], text: "", children: [])
        #endif
    }
}

func parsePoints(_ text: String) -> [Point] {
    text.split(separator: " ").map { pair in
        let xy = pair.split(separator: ",").map { Double($0)! }
        return Point(x: xy[0], y: xy[1])
    }
}

@Suite struct SVGRendererTests {
    let frame = RenderFixtures.frame
    var timeline: Timeline { RenderFixtures.timeline([frame]) }

    @Test func turnedCardProjectsToTheClosedForm() throws {
        // M = R·P with P the identity plus m34 = p and R the rotation by θ about y:
        // m11 = cosθ, m13 = −sinθ, m14 = −sinθ·p, m31 = sinθ, m33 = cosθ, m34 = cosθ·p.
        // (u, v, 0, 1)·M = (u·cosθ, v, −u·sinθ, 1 − u·sinθ·p), so on screen
        // x' = u·cosθ / (1 − u·sinθ·p) + cx − ox and y' = v / (1 − u·sinθ·p) + cy − oy.
        let a = frame.items[0]
        let t = a.transform3D
        let (c, s, p) = (cos(RenderFixtures.angle), sin(RenderFixtures.angle), RenderFixtures.perspective)
        #expect(abs(t.m11 - c) < 1e-12 && abs(t.m13 + s) < 1e-12 && abs(t.m14 + s * p) < 1e-12)
        #expect(abs(t.m31 - s) < 1e-12 && abs(t.m33 - c) < 1e-12 && abs(t.m34 - c * p) < 1e-12)
        let quad = try #require(a.projectedQuad(contentOffset: frame.contentOffset))
        let corners = [(-80.0, -100.0), (80, -100), (80, 100), (-80, 100)]
        for (corner, (u, v)) in zip(quad.corners, corners) {
            let w = 1 - u * s * p
            #expect(abs(corner.x - (u * c / w + 200 - 100)) < 1e-9)
            #expect(abs(corner.y - (v / w + 150)) < 1e-9)
        }
        // The near edge (u = −80: w = 1 − 80·sin35°/600 < 1) grows, the far edge shrinks.
        #expect(quad.corners[3].y - quad.corners[0].y > 200)
        #expect(quad.corners[2].y - quad.corners[1].y < 200)

        // The SVG polygon carries the same corners to three decimals.
        let svg = try XMLNodeInfo.parse(SVGRenderer.render(frame: frame, timeline: timeline))
        let group = try #require(svg.all("g").first { $0.attributes["data-index"] == "0.0" })
        let points = parsePoints(try #require(group.all("polygon").first?.attributes["points"]))
        for (drawn, exact) in zip(points, quad.corners) {
            #expect(abs(drawn.x - exact.x) <= 0.0005 + 1e-12 && abs(drawn.y - exact.y) <= 0.0005 + 1e-12)
        }
    }

    @Test func scaledAndBehindTheEyeCards() throws {
        let scaled = try #require(frame.items[2].projectedQuad(contentOffset: frame.contentOffset))
        // Centre (460, 150) − offset (100, 0) = (360, 150); half size 0.8·(80, 100).
        #expect(scaled.corners == [Point(x: 296, y: 70), Point(x: 424, y: 70),
                                   Point(x: 424, y: 230), Point(x: 296, y: 230)])
        #expect(frame.items[3].projectedQuad(contentOffset: frame.contentOffset) == nil)
    }

    @Test func frameIsWellFormedWithOnePolygonPerDrawnCardInOrder() throws {
        let text = SVGRenderer.render(frame: frame, timeline: timeline)
        let svg = try XMLNodeInfo.parse(text)
        #expect(svg.name == "svg")
        #expect(svg.attributes["width"] == "400" && svg.attributes["height"] == "300")
        #expect(svg.attributes["viewBox"] == "0 0 400 300")
        let cards = svg.all("g").filter { $0.attributes["class"] == "card" }
        #expect(cards.map { $0.attributes["data-index"] ?? "" } == RenderFixtures.drawnOrder.map { "0.\($0)" })
        #expect(svg.all("polygon").count == 4)
        for card in cards {
            #expect(card.all("polygon").count == 1)
            let item = Int(card.attributes["data-index"]!.split(separator: ".")[1])!
            #expect(card.all("text").first?.text == "\(item)")
            let fill = Palette.fill(for: CardIndexPath(item: item, section: 0)).hex
            #expect(card.all("polygon").first?.attributes["fill"] == fill)
        }
        #expect(cards.first { $0.attributes["data-index"] == "0.2" }?.attributes["opacity"] == "0.6")
        #expect(cards.first { $0.attributes["data-index"] == "0.1" }?.attributes["opacity"] == nil)
        // The background fills the viewport exactly.
        let background = try #require(svg.all("rect").first)
        #expect(background.attributes["fill"] == Palette.background.hex)
        #expect(background.attributes["width"] == "400" && background.attributes["height"] == "300")
    }

    @Test func labelSitsAtTheProjectedCentre() throws {
        let svg = try XMLNodeInfo.parse(SVGRenderer.render(frame: frame, timeline: timeline))
        let label = try #require(svg.all("g").first { $0.attributes["data-index"] == "0.0" }?.all("text").first)
        // The centre (0, 0) maps to (0, 0, 0, 1): it stays at centre − offset.
        #expect(label.attributes["x"] == "100" && label.attributes["y"] == "150")
        let centre = try #require(svg.all("g").first { $0.attributes["data-index"] == "0.1" }?.all("text").first)
        #expect(centre.attributes["x"] == "200" && centre.attributes["y"] == "150")
    }

    @Test func outputIsDeterministicAndCompact() throws {
        let a = SVGRenderer.render(frame: frame, timeline: timeline)
        #expect(a == SVGRenderer.render(frame: frame, timeline: timeline))
        // Every coordinate is plain decimal with at most three decimals, never "-0".
        let svg = try XMLNodeInfo.parse(a)
        var numbers: [Substring] = []
        for polygon in svg.all("polygon") {
            numbers += polygon.attributes["points"]!.split(whereSeparator: { $0 == " " || $0 == "," })
        }
        for text in svg.all("text") {
            numbers += [text.attributes["x"]!, text.attributes["y"]!].map { Substring($0) }
        }
        #expect(numbers.count == 4 * 8 + 4 * 2)
        for number in numbers {
            let parts = number.split(separator: ".", omittingEmptySubsequences: false)
            let integer = parts[0].hasPrefix("-") ? parts[0].dropFirst() : parts[0]
            #expect(!integer.isEmpty && integer.allSatisfy(\.isASCII) && integer.allSatisfy(\.isNumber), "\(number)")
            #expect(parts.count == 1 || (1...3).contains(parts[1].count) && parts[1].last != "0", "\(number)")
            #expect(number != "-0" && Double(number) != nil, "\(number)")
        }
    }

    @Test func numberFormatting() {
        #expect(RenderSupport.compact(2) == "2")
        #expect(RenderSupport.compact(-1.5) == "-1.5")
        #expect(RenderSupport.compact(1.23456) == "1.235")
        #expect(RenderSupport.compact(-0.0004) == "0")
        #expect(RenderSupport.compact(-0.0) == "0")
        #expect(RenderSupport.compact(0.0005) == "0.001")
        #expect(RenderSupport.compact(0.05) == "0.05")
        #expect(RenderSupport.compact(123456.0001) == "123456")
        #expect(RenderSupport.compact(.nan) == "0")
        #expect(RenderSupport.exact(-0.0) == "0" && RenderSupport.exact(3) == "3")
        #expect(Double(RenderSupport.exact(-1.0 / 600)) == -1.0 / 600)
        #expect(Double(RenderSupport.exact(1e-20)) == 1e-20)
    }

    @Test func escapesScriptNames() throws {
        var t = timeline
        t.scriptName = "a<b>&\"c\".lua"
        let svg = try XMLNodeInfo.parse(SVGRenderer.render(frame: frame, timeline: t))
        #expect(svg.all("title").first?.text.hasPrefix("a<b>&\"c\".lua") == true)
        _ = try XMLNodeInfo.parse(SVGRenderer.renderAnimated(timeline: t))
    }

    // MARK: Animated

    @Test func animatedCarouselIsOneSegmentWithExactTiming() throws {
        let timeline = RenderFixtures.carousel(frames: 30, cards: 6)
        let text = SVGRenderer.renderAnimated(timeline: timeline)
        let svg = try XMLNodeInfo.parse(text)
        #expect(!text.contains("<script") && !text.contains("href"))
        #expect(svg.all("g").filter { $0.attributes["class"] == "segment" }.isEmpty)
        // One polygon per item that is ever drawn, in index-path order (all zIndex 1).
        let drawn = Set(timeline.frames.flatMap { RenderCard.drawn(in: $0).map(\.attributes.indexPath.item) })
        let cards = svg.all("g").filter { $0.attributes["class"] == "card" }
        #expect(cards.map { $0.attributes["data-index"]! } == drawn.sorted().map { "0.\($0)" })
        // Duration = last frame time + 1/fps = 29/60 + 1/60 = 0.5 s.
        let animations = svg.all("animate")
        #expect(!animations.isEmpty)
        for animate in animations where animate.attributes["attributeName"] != "width" {
            #expect(animate.attributes["dur"] == "0.5s")
            #expect(animate.attributes["calcMode"] == "discrete")
            #expect(animate.attributes["repeatCount"] == "indefinite")
            let keyTimes = animate.attributes["keyTimes"]!.split(separator: ";").map { Double($0)! }
            let values = animate.attributes["values"]!.split(separator: ";")
            #expect(keyTimes.count == values.count)
            #expect(keyTimes.first == 0)
            #expect(zip(keyTimes, keyTimes.dropFirst()).allSatisfy { $0 < $1 } && keyTimes.last! < 1)
        }
        // Item 0's polygon shows frame k from key time k/30 on, with frame k's corners.
        let card0 = try #require(cards.first)
        let pointsAnimation = try #require(card0.all("animate").first { $0.attributes["attributeName"] == "points" })
        let keyTimes = pointsAnimation.attributes["keyTimes"]!.split(separator: ";").map { Double($0)! }
        let values = pointsAnimation.attributes["values"]!.split(separator: ";").map { parsePoints(String($0)) }
        for (k, f) in timeline.frames.enumerated() {
            guard let quad = f.items.first(where: { $0.indexPath.item == 0 })?.projectedQuad(contentOffset: f.contentOffset),
                  // Key times carry five decimals.
                  let j = keyTimes.lastIndex(where: { $0 <= Double(k) / 30 + 6e-6 }) else { continue }
            for (drawnPoint, exact) in zip(values[j], quad.corners) {
                #expect(abs(drawnPoint.x - exact.x) <= 0.005 + 1e-9 && abs(drawnPoint.y - exact.y) <= 0.005 + 1e-9,
                        "frame \(k) key \(j) \(drawnPoint) \(exact)")
            }
        }
    }

    @Test func zOrderFlipSplitsIntoSegments() throws {
        func frame(_ time: Double, zOfItem0: Int) -> Frame {
            Frame(time: time, contentOffset: .zero, phase: .dragging, viewportSize: RenderFixtures.viewport, items: [
                LayoutAttributes(indexPath: CardIndexPath(item: 0, section: 0), frame: Rect(x: 50, y: 50, width: 200, height: 150),
                                 zIndex: zOfItem0),
                LayoutAttributes(indexPath: CardIndexPath(item: 1, section: 0), frame: Rect(x: 150, y: 100, width: 200, height: 150),
                                 zIndex: 1),
            ])
        }
        let frames = [frame(0, zOfItem0: 0), frame(1.0 / 60, zOfItem0: 0), frame(2.0 / 60, zOfItem0: 2),
                      frame(3.0 / 60, zOfItem0: 2)]
        let segments = SVGRenderer.zOrderSegments(frames.map { RenderCard.drawn(in: $0) })
        let p0 = CardIndexPath(item: 0, section: 0), p1 = CardIndexPath(item: 1, section: 0)
        #expect(segments == [SVGRenderer.Segment(frames: 0..<2, order: [p0, p1]),
                             SVGRenderer.Segment(frames: 2..<4, order: [p1, p0])])

        let svg = try XMLNodeInfo.parse(SVGRenderer.renderAnimated(timeline: RenderFixtures.timeline(frames)))
        let groups = svg.all("g").filter { $0.attributes["class"] == "segment" }
        #expect(groups.count == 2)
        #expect(groups.map { $0.attributes["visibility"] } == ["visible", "hidden"])
        #expect(groups[0].all("g").filter { $0.attributes["class"] == "card" }.map { $0.attributes["data-index"]! } == ["0.0", "0.1"])
        #expect(groups[1].all("g").filter { $0.attributes["class"] == "card" }.map { $0.attributes["data-index"]! } == ["0.1", "0.0"])
        let second = try #require(groups[1].all("animate").first { $0.attributes["attributeName"] == "visibility" })
        #expect(second.attributes["values"] == "hidden;visible")
        #expect(second.attributes["keyTimes"] == "0;0.5")
    }

    @Test func absentAndHiddenFramesHaveZeroOpacity() throws {
        let first = RenderFixtures.carousel(frames: 1, cards: 1).frames[0]
        var frames = [first, first, first]
        for k in 0..<3 { frames[k].time = Double(k) / 60 }
        frames[1].items[0].isHidden = true
        frames[2].items[0].transform3D = RenderFixtures.behindTheEye
        let svg = try XMLNodeInfo.parse(SVGRenderer.renderAnimated(timeline: RenderFixtures.timeline(frames)))
        let opacity = try #require(svg.all("animate").first { $0.attributes["attributeName"] == "opacity" })
        #expect(opacity.attributes["values"] == "1;0")
        #expect(opacity.attributes["keyTimes"] == "0;0.33333")
    }

    @Test func animatedSizeStaysReasonable() {
        let timeline = RenderFixtures.carousel(frames: 200, cards: 8)
        let text = SVGRenderer.renderAnimated(timeline: timeline)
        #expect(text.utf8.count < 250_000, "\(text.utf8.count) bytes")
        #expect(text == SVGRenderer.renderAnimated(timeline: timeline))
    }

    @Test func emptyTimelineStillRenders() throws {
        let empty = RenderFixtures.timeline([])
        let svg = try XMLNodeInfo.parse(SVGRenderer.renderAnimated(timeline: empty))
        #expect(svg.all("polygon").isEmpty)
    }
}
