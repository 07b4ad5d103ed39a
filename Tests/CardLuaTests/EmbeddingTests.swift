import CardLayout
import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// The call sequence of docs/embedding.md's `UICollectionViewFlowLayout` subclass, driven
/// on Linux: prepare → elements in rect per frame → targetContentOffset → reload.
@Suite struct EmbeddingTests {
    /// Stands in for the app's layout subclass: `super` is a FlowLayout built in
    /// `prepare()`, and it answers the script's base-layout query (BaseLayoutProviding):
    /// it hands itself to each call as the base layout.
    final class HostLayout: BaseLayoutProviding {
        var effect: LuaEffect
        let viewport: Size
        let items: Int
        var flow: FlowLayout?
        var queries = 0

        init(effect: LuaEffect, viewport: Size, items: Int) {
            self.effect = effect
            self.viewport = viewport
            self.items = items
        }

        func baseLayoutAttributes(in rect: Rect, limit: Int) -> [LayoutAttributes] {
            queries += 1
            return flow?.layoutAttributesForElements(in: rect, limit: limit) ?? []
        }

        /// `prepare()`: the script sets the flow properties, `super` lays out.
        func prepare() throws {
            var configuration = FlowLayoutConfiguration()
            try effect.prepare(&configuration, viewportSize: viewport)
            flow = FlowLayout(configuration: configuration, viewportSize: viewport,
                              numberOfItemsInSections: [items])
        }

        func context(_ offset: Double) -> ScrollContext {
            ScrollContext(bounds: Rect(x: offset, y: 0, width: viewport.width, height: viewport.height),
                          contentSize: flow!.collectionViewContentSize)
        }

        /// `layoutAttributesForElements(in:)`: `super`'s attributes, transformed.
        func elements(atOffset offset: Double) throws -> [LayoutAttributes] {
            let context = context(offset)
            var attributes = flow!.layoutAttributesForElements(in: context.bounds)
            try effect.transform(&attributes, layout: self, context: context)
            return attributes
        }

        func targetContentOffset(proposed: Point, velocity: Point, currentOffset: Double) throws -> Point {
            try effect.targetContentOffset(proposed: proposed, velocity: velocity, layout: self,
                                           context: context(currentOffset))
        }

        /// A hot reload: the new script replaces the old only if it loads.
        func reload(path: String) throws {
            effect = try LuaEffect(path: path, limits: .interactive)
            try prepare()
        }
    }

    static let viewport = Size(width: 414, height: 736)

    /// scripts/lol.lua at 414 × 736: items 300 wide after a 50-point inset, so item i's
    /// centre is at x = 50 + 300 i + 150.
    static func centreX(_ item: Int) -> Double { 200 + 300 * Double(item) }

    /// The seed's angle: 35° · d / activeDistance, clamped to ±35°, d = mid-x of the
    /// bounds minus the card's centre; m11 of the rotation about y is cos θ.
    static func expectedM11(offset: Double, item: Int, activeDistance: Double) -> Double {
        let d = offset + viewport.width / 2 - centreX(item)
        let fraction = max(-1, min(1, d / activeDistance))
        return cos(35 * Double.pi / 180 * fraction)
    }

    static func checkFrames(_ host: HostLayout, activeDistance: Double) throws {
        for offset in [0.0, 37.5, 150, 293, 610] {
            let attributes = try host.elements(atOffset: offset)
            #expect(!attributes.isEmpty)
            for a in attributes {
                #expect(a.center.x == centreX(a.indexPath.item))
                let expected = expectedM11(offset: offset, item: a.indexPath.item, activeDistance: activeDistance)
                #expect(abs(a.transform3D.m11 - expected) < 1e-12, "offset \(offset) item \(a.indexPath.item)")
                #expect(a.zIndex == 1)
            }
        }
    }

    @Test func drivesLoLThroughTheAppSequence() throws {
        let folder = try TestSupport.temporaryDirectory(prefix: "cardlua-embed")
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try String(contentsOfFile: TestSupport.script("lol.lua"), encoding: .utf8)
        let script = folder.appendingPathComponent("lol.lua")
        try original.write(to: script, atomically: true, encoding: .utf8)

        let host = HostLayout(effect: try LuaEffect(path: script.path, limits: .interactive),
                              viewport: Self.viewport, items: 20)
        try host.prepare()
        try Self.checkFrames(host, activeDistance: 200)

        // Proposed 400: the rect [400, 814] meets items 1 (centre 500) and 2 (800); the
        // bounds' centre 607 is nearest 500, so the card comes to rest at 500 − 207.
        let target = try host.targetContentOffset(proposed: Point(x: 400, y: 0), velocity: Point(x: 1, y: 0),
                                                  currentOffset: 300)
        #expect(target == Point(x: 293, y: 0))
        #expect(host.queries > 0)   // the script asked the host's layout, not its own

        // The file changes: the reloaded script's values take over.
        let edited = original.replacingOccurrences(of: "local ACTIVE_DISTANCE = 200", with: "local ACTIVE_DISTANCE = 100")
        #expect(edited != original)
        try edited.write(to: script, atomically: true, encoding: .utf8)
        try host.reload(path: script.path)
        try Self.checkFrames(host, activeDistance: 100)

        // A broken save keeps the running effect, and says where.
        try (edited + "\nfunction transform(\n").write(to: script, atomically: true, encoding: .utf8)
        let running = host.effect
        #expect(throws: ScriptError.self) { try host.reload(path: script.path) }
        #expect(host.effect === running)
        try Self.checkFrames(host, activeDistance: 100)
    }

    /// Collects log lines (the sink runs on the test's thread, synchronously).
    final class Lines: @unchecked Sendable { var all: [String] = [] }

    @Test func printAndWarnGoToTheLogSink() throws {
        let effect = try LuaEffect(source: """
            function transform(attributes, layout)
              if attributes.indexPath.item == 0 then
                print("frame", 1, "a\\027b")
                warn("careful: ", "two pieces")
              end
            end
            """, chunkName: "app.lua")
        let lines = try Self.logOfOneFrame(effect, items: 3)
        #expect(lines.all == ["app.lua: frame\t1\ta\\27b", "app.lua: warning: careful: two pieces"])
    }

    /// What `effect` logs through its sink during one frame of `items` 100×100 cards.
    static func logOfOneFrame(_ effect: LuaEffect, items: Int) throws -> Lines {
        let lines = Lines()
        effect.logSink = { lines.all.append($0) }
        defer { effect.logSink = nil }
        var configuration = FlowLayoutConfiguration()
        configuration.itemSize = Size(width: 100, height: 100)
        let layout = FlowLayout(configuration: configuration, viewportSize: Size(width: 300, height: 300),
                                numberOfItemsInSections: [items])
        let bounds = Rect(x: 0, y: 0, width: 300, height: 300)
        var attributes = layout.layoutAttributesForElements(in: bounds)
        try effect.transform(&attributes, layout: layout,
                             context: ScrollContext(bounds: bounds, contentSize: layout.collectionViewContentSize))
        return lines
    }

    /// The sink gets the cap standard error has: 1 MiB of lines, then one notice.
    @Test func logSinkOutputIsCapped() throws {
        let effect = try LuaEffect(source: """
            function transform(attributes, layout)
              if attributes.indexPath.item == 0 then
                local line = string.rep("x", 1000)
                for _ = 1, 2000 do print(line) end
              end
            end
            """, chunkName: "big.lua")
        let lines = try Self.logOfOneFrame(effect, items: 1)
        // Each line is "big.lua: " + 1000 x's + a newline = 1010 bytes: 1038 fit in 1 MiB.
        #expect(lines.all.count == 1038 + 1)
        #expect(lines.all.last == "big.lua: print: output past 1 MiB per run is dropped")
    }

    @Test func interactiveLimitsAreTighterThanTheDefaults() {
        let interactive = ScriptLimits.interactive, defaults = ScriptLimits()
        #expect(interactive.maxTime > 0 && interactive.maxTime < defaults.maxTime)
        #expect(interactive.maxTime <= 1.0 / 60)
        #expect(interactive.maxSteps < defaults.maxSteps)
    }
}
