import CardLayout
import CardRender
import Foundation
import Testing

/// Runs streamed through sinks: bounded memory, the same bytes, the text summary.
@Suite struct StreamingTests {
    static let size = Size(width: 200, height: 100)

    static func frame(_ index: Int, offset: Double, phase: CardScrollPhase = .idle, items: [LayoutAttributes] = [])
        -> Frame {
        Frame(time: Double(index) / 10, contentOffset: Point(x: offset, y: 0), phase: phase,
              viewportSize: size, items: items)
    }

    /// An effect that counts its `transform` calls (nothing else).
    final class CountingEffect: Effect {
        var transforms = 0
        func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws {
            configuration.scrollDirection = .horizontal
            configuration.itemSize = Size(width: 100, height: 100)
        }
        func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding, context: ScrollContext) throws {
            transforms += 1
        }
        func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                                 context: ScrollContext) throws -> Point { proposed }
    }

    struct Stop: Error {}

    /// A sink that records what it got and stops the run at its `stopAt`-th frame.
    final class RecordingSink: TimelineSink {
        var events: [String] = []
        let stopAt: Int?
        init(stopAt: Int? = nil) { self.stopAt = stopAt }
        func begin(_ header: Timeline) throws { events.append("begin \(header.frames.count)") }
        func frame(_ frame: Frame) throws {
            events.append("frame")
            if let stopAt, events.count - 1 == stopAt { throw Stop() }
        }
        func snap(_ snap: SnapEvent) throws { events.append("snap") }
        func end(_ summary: Timeline) throws { events.append("end \(summary.frames.count) \(summary.snaps.count)") }
    }

    /// Frames reach the sink while the run goes: a sink that stops at the 3rd frame of a
    /// 601-frame scenario means the effect ran for 3 frames only, not 601 first.
    @Test func framesReachTheSinkAsTheyAreMade() throws {
        let effect = CountingEffect()
        let runner = ScenarioRunner(effect: effect, scriptName: "count")
        let scenario = Scenario(name: "long", viewportSize: Self.size, numberOfItems: [50], framesPerSecond: 60,
                                steps: [.wait(duration: 10)])
        #expect(throws: Stop.self) { try runner.run(scenario, into: RecordingSink(stopAt: 3)) }
        #expect(effect.transforms == 3)

        // A whole run: begin, each frame, the snap right after the frame it was made in, end.
        let sink = RecordingSink()
        try runner.run(Scenario(name: "f", viewportSize: Self.size, numberOfItems: [50], framesPerSecond: 60,
                                steps: [.wait(duration: 0.05), .fling(velocity: 1)]), into: sink)
        // wait 0.05 s at 60 fps: frame 0 then ⌈3⌉ = 3 frames; the snap comes after frame 4.
        #expect(Array(sink.events.prefix(6)) == ["begin 0", "frame", "frame", "frame", "frame", "snap"])
        #expect(sink.events.last == "end 0 1")
        #expect(sink.events.filter { $0 == "frame" }.count == effect.transforms - 3)
    }

    /// The streamed JSON, byte for byte: written here by hand from the format (keys in a
    /// fixed order, shortest round-trip numbers, one item per line).
    @Test func streamedJSONMatchesTheFormatByteForByte() throws {
        let item = LayoutAttributes(indexPath: CardIndexPath(item: 2, section: 0),
                                    frame: Rect(x: 10, y: 20, width: 30, height: 40), alpha: 0.5, zIndex: 3)
        let output = StringOutput()
        let writer = JSONTimelineWriter(output: output)
        let header = Timeline(scriptName: "a\"b.lua", viewportSize: Self.size, configuration: FlowLayoutConfiguration(),
                              contentSize: Size(width: 200, height: 1000), framesPerSecond: 10)
        try writer.begin(header)
        try writer.frame(Self.frame(0, offset: 0, items: [item]))
        let afterFirst = output.text
        try writer.frame(Self.frame(1, offset: 2.5, phase: .decelerating))
        var summary = header
        summary.snaps = [SnapEvent(time: 0, proposedContentOffset: Point(x: 0, y: 7), velocity: Point(x: 0, y: -1),
                                   targetContentOffset: Point(x: 0, y: 6))]
        try writer.end(summary)
        let expected = """
        {
          "cardlua": 1,
          "script": "a\\"b.lua",
          "viewport": { "width": 200, "height": 100 },
          "layout": { "scrollDirection": "vertical", "itemSize": { "width": 50, "height": 50 }, \
        "sectionInset": { "top": 0, "left": 0, "bottom": 0, "right": 0 }, "minimumLineSpacing": 10, \
        "minimumInteritemSpacing": 10, "headerReferenceSize": { "width": 0, "height": 0 }, \
        "footerReferenceSize": { "width": 0, "height": 0 }, "decelerationRate": 0.998, "isPagingEnabled": false },
          "contentSize": { "width": 200, "height": 1000 },
          "fps": 10,
          "frames": [
            { "time": 0, "contentOffset": { "x": 0, "y": 0 }, "phase": "idle", "items": [
                { "section": 0, "item": 2, "frame": { "x": 10, "y": 20, "width": 30, "height": 40 }, \
        "center": { "x": 25, "y": 40 }, "transform3D": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], \
        "alpha": 0.5, "zIndex": 3, "hidden": false } ] },
            { "time": 0.1, "contentOffset": { "x": 2.5, "y": 0 }, "phase": "decelerating", "items": [] }
          ],
          "snaps": [
            { "time": 0, "proposedContentOffset": { "x": 0, "y": 7 }, "velocity": { "x": 0, "y": -1 }, \
        "targetContentOffset": { "x": 0, "y": 6 } }
          ]
        }

        """
        #expect(output.text == expected)
        // Written as it went: the first frame was out before the second came.
        #expect(afterFirst.hasSuffix("\"hidden\": false } ] }"))
        // The whole-timeline renderer gives the same bytes.
        var whole = summary
        whole.frames = [Self.frame(0, offset: 0, items: [item]), Self.frame(1, offset: 2.5, phase: .decelerating)]
        #expect(JSONRenderer.render(whole) == expected)
    }

    /// The thinner keeps a run of up to its bound whole, and beyond it every 2^k-th frame
    /// plus the last, never holding more than the bound.
    @Test func thinnerBoundsTheFramesItHolds() throws {
        let header = Timeline(scriptName: "t", viewportSize: Self.size, configuration: FlowLayoutConfiguration(),
                              contentSize: Self.size, framesPerSecond: 10)
        func thinned(_ count: Int, bound: Int) throws -> [Int] {
            let thinner = TimelineThinner(maximumFrames: bound)
            try thinner.begin(header)
            for i in 0..<count { try thinner.frame(Self.frame(i, offset: Double(i))) }
            try thinner.end(header)
            return thinner.timeline!.frames.map { Int($0.contentOffset.x) }
        }
        #expect(try thinned(10, bound: 10) == Array(0..<10))
        // 11 frames in 10: frames 0, 2, …, 8 (5 frames; stride 2), then the last (10).
        #expect(try thinned(11, bound: 10) == [0, 2, 4, 6, 8, 10])
        // 1000 frames in 10: stride 128 → 0, 128, …, 896 (8 frames) and 999.
        #expect(try thinned(1000, bound: 10) == [0, 128, 256, 384, 512, 640, 768, 896, 999])
        #expect(try thinned(0, bound: 10).isEmpty)
    }

    /// The summary: steps, each release as velocity → proposed → target under its
    /// phase, the last frame drawn once; no per-frame listing.
    @Test func summaryReadsInOneScreen() {
        let item = LayoutAttributes(indexPath: CardIndexPath(item: 0, section: 0),
                                    frame: Rect(x: 0, y: 0, width: 100, height: 100))
        var config = FlowLayoutConfiguration()
        config.scrollDirection = .horizontal
        var frames = (0..<40).map { Self.frame($0, offset: 0, items: [item]) }
        frames += (40..<200).map { Self.frame($0, offset: Double($0 - 39), phase: .decelerating, items: [item]) }
        let snap = SnapEvent(time: 3.9, proposedContentOffset: Point(x: 150, y: 0), velocity: Point(x: 0.5, y: 0),
                             targetContentOffset: Point(x: 160, y: 0))
        let timeline = Timeline(scriptName: "s.lua", viewportSize: Self.size, configuration: config,
                                contentSize: Size(width: 2000, height: 100), framesPerSecond: 10, frames: frames,
                                snaps: [snap],
                                scenario: Scenario(name: "mine", viewportSize: Self.size, numberOfItems: [20],
                                                   framesPerSecond: 10,
                                                   steps: [.wait(duration: 3.9), .fling(velocity: 0.5)]))
        let text = TextRenderer.summary(timeline)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count < 25, "\(text)")
        #expect(text.contains("scenario mine: 200 frames at 10 fps, t=0…19.900s"))
        #expect(text.contains("  1. wait 3.9 s\n  2. fling at 0.5 pt/ms\n"))
        #expect(text.contains("  t=0.000–3.900s   idle          at 0.00\n"
            + "    release: velocity 0.500 pt/ms → proposed 150.00 → target 160.00\n"
            + "  t=4.000–19.900s  decelerating  1.00 → 160.00\n"), "\(text)")
        // The last frame is on the target: it is at rest, drawn once.
        #expect(text.contains("at rest, t=19.900s  offset (160.00, 0.00)  decelerating"))
        #expect(text.components(separatedBy: "▼").count - 1 == 1)
        #expect(!text.contains("t=0.100s"))

        // Without a snap rule it says where the physics put it, never "target".
        var free = timeline
        free.hasSnapRule = false
        let freeText = TextRenderer.summary(free)
        #expect(freeText.contains("release: velocity 0.500 pt/ms → proposed 150.00 → rests at 160.00 (no snap rule)"))
        #expect(!freeText.contains("target"))
    }

    /// Scrolling there and back in one phase is two entries; a crowded last frame shows
    /// the 12 items nearest the centre and counts the rest.
    @Test func summaryEntriesFollowTheDirectionAndTheTableIsCapped() {
        // 30 items in a column of 10-pt rows; the viewport (200×100) centred at y = 50.
        let items = (0..<30).map { LayoutAttributes(indexPath: CardIndexPath(item: $0, section: 0),
                                                    frame: Rect(x: 0, y: Double($0) * 10, width: 10, height: 10)) }
        let offsets: [Double] = [0, 5, 10, 5, 0, 0]
        let frames = offsets.enumerated().map { Frame(time: Double($0.offset) / 10, contentOffset: Point(x: 0, y: $0.element),
                                                      phase: .settling, viewportSize: Self.size, items: items) }
        let timeline = Timeline(scriptName: "b.lua", viewportSize: Self.size, configuration: FlowLayoutConfiguration(),
                                contentSize: Size(width: 200, height: 300), framesPerSecond: 10, frames: frames)
        let text = TextRenderer.summary(timeline)
        #expect(text.contains("  t=0.000–0.200s  settling  0.00 → 10.00\n  t=0.200–0.500s  settling  10.00 → 0.00\n"),
                "\(text)")
        // Nearest y = 50 (the last frame's centre): centres 5, 15, …: items 0–9 are 45…5 and
        // 0…40 away; the 12 nearest are items 0…11 (item 11's centre 115 is 65 away, item 12's 75).
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.dropFirst(2).first?.isNumber == true }
        #expect(rows.map { String($0.split(separator: " ")[0]) } == (0..<12).map(String.init))
        #expect(text.contains("  … and 18 more items (all of them: --frames)\n"))
    }

    /// Every-frame text streamed without a known frame count ends with the count, and
    /// otherwise matches the whole-timeline text.
    @Test func everyFrameTextStreamsTheSameFrames() throws {
        let item = LayoutAttributes(indexPath: CardIndexPath(item: 0, section: 0),
                                    frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let frames = (0..<6).map { Self.frame($0, offset: Double($0 / 3), items: [item]) }
        let snap = SnapEvent(time: 0.2, proposedContentOffset: Point(x: 0, y: 1), velocity: Point(x: 0, y: 0),
                             targetContentOffset: Point(x: 0, y: 1))
        let timeline = Timeline(scriptName: "e.lua", viewportSize: Self.size, configuration: FlowLayoutConfiguration(),
                                contentSize: Self.size, framesPerSecond: 10, frames: frames, snaps: [snap])
        let output = StringOutput()
        let writer = TextTimelineWriter(output: output, mode: .everyFrame)
        var header = timeline
        header.frames = []
        header.snaps = []
        try writer.begin(header)
        for (i, frame) in frames.enumerated() {
            try writer.frame(frame)
            if i == 2 { try writer.snap(snap) }
        }
        try writer.end(header)
        let whole = TextRenderer.render(timeline)
        // Frames 0–2 at offset 0 (the release at frame 2 keeps it from folding), 3–5 at 1.
        #expect(whole.hasPrefix("e.lua: 200x100 viewport, vertical, item 50x50, content 200x100, 6 frames\n"))
        #expect(whole.contains("… the same for 1 more frame, until t=0.100s"))
        #expect(whole.contains("t=0.200s  offset (0.00, 0.00)  idle\n  release: velocity 0.000 pt/ms, proposed 1.00, target 1.00\n"))
        #expect(whole.contains("… the same for 2 more frames, until t=0.500s"))
        let body = whole.drop(while: { $0 != "\n" })
        #expect(output.text == "e.lua: 200x100 viewport, vertical, item 50x50, content 200x100" + body + "\n6 frames\n")
    }
}

/// What the animated SVG and the HTML page say about a release.
@Suite struct SnapCaptionTests {
    static func timeline(hasSnapRule: Bool) -> Timeline {
        let frames = (0..<4).map { StreamingTests.frame($0, offset: Double($0) * 10, phase: $0 == 0 ? .idle : .decelerating) }
        var timeline = Timeline(scriptName: "c.lua", viewportSize: StreamingTests.size,
                                configuration: FlowLayoutConfiguration(), contentSize: Size(width: 200, height: 900),
                                framesPerSecond: 10, frames: frames,
                                snaps: [SnapEvent(time: 0, proposedContentOffset: Point(x: 0, y: 30),
                                                  velocity: Point(x: 0, y: 1), targetContentOffset: Point(x: 0, y: 30))])
        timeline.hasSnapRule = hasSnapRule
        return timeline
    }

    /// With no `targetContentOffset` the caption says where the content rests, never
    /// "snap"; with one it names the snap target.
    @Test func captionSaysWhatReallyHappened() {
        let free = SVGRenderer.renderAnimated(timeline: Self.timeline(hasSnapRule: false))
        #expect(free.contains("decelerating · rests at (0, 30) (no snap rule)"))
        #expect(!free.contains("snap →"))
        let snapping = SVGRenderer.renderAnimated(timeline: Self.timeline(hasSnapRule: true))
        #expect(snapping.contains("decelerating · snap → (0, 30)"))
        #expect(!snapping.contains("rests at"))
        // The page's data says so too (only when there is no rule: other pages are unchanged).
        #expect(HTMLRenderer.render(timeline: Self.timeline(hasSnapRule: false)).contains("\"snapRule\":false"))
        #expect(!HTMLRenderer.render(timeline: Self.timeline(hasSnapRule: true)).contains("\"snapRule\""))
    }
}
