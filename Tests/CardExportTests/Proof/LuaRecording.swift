import CardLayout
import CardLua
import CardLuaTestSupport
import Foundation

/// What the compiled layout is asked, in the order the Lua run was: a frame (the visible
/// rect) or a release (the visible rect at the release, the proposal, the velocity).
enum ProofEvent: Equatable {
    case frame(bounds: Rect)
    case release(bounds: Rect, proposed: Point, velocity: Point)
}

/// What the Lua run answered to one event.
enum ProofAnswer: Equatable {
    /// The frame's items (after `transform`), in the run's order, and its headers and
    /// footers (which the engine never transforms: each keeps its frame, the identity
    /// transform and alpha 1, as super's attributes do in UIKit).
    case frame([LayoutAttributes], supplementary: [SupplementaryAttributes])
    /// The script's `targetContentOffset`.
    case release(Point)
}

/// A script's Lua run: the events the driver replays and the answers to compare with.
struct LuaRecord {
    var numberOfItems: [Int]
    /// Run right to left (`cardlua run --rtl`).
    var rightToLeft = false
    var events: [ProofEvent] = []
    var answers: [ProofAnswer] = []
}

/// An ``Effect`` that forwards to a script's ``LuaEffect`` and notes every frame (each
/// `transform` call is one) and every release (`targetContentOffset`), with the visible
/// rect the collection view had then. The frames' items are the ones the timeline holds.
final class RecordingEffect: Effect {
    let inner: LuaEffect
    private(set) var record: LuaRecord

    init(_ inner: LuaEffect, numberOfItems: [Int]) {
        self.inner = inner
        self.record = LuaRecord(numberOfItems: numberOfItems)
    }

    func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws {
        try inner.prepare(&configuration, viewportSize: viewportSize)
    }

    func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size,
                 numberOfItemsInSections: [Int]) throws {
        try inner.prepare(&configuration, viewportSize: viewportSize, numberOfItemsInSections: numberOfItemsInSections)
    }

    func flowLayoutMetrics(configuration: FlowLayoutConfiguration, viewportSize: Size,
                           numberOfItems: [Int]) throws -> FlowLayoutMetrics? {
        try inner.flowLayoutMetrics(configuration: configuration, viewportSize: viewportSize, numberOfItems: numberOfItems)
    }

    func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding, context: ScrollContext) throws {
        try inner.transform(&attributes, layout: layout, context: context)
        record.events.append(.frame(bounds: context.bounds))
        let supplementary = (layout as? FlowLayout)?.supplementaryAttributes(in: context.bounds) ?? []
        record.answers.append(.frame(attributes, supplementary: supplementary))
    }

    func layoutAttributesForElements(in rect: Rect, layout: some BaseLayoutProviding,
                                     context: ScrollContext) throws -> [LayoutAttributes]? {
        try inner.layoutAttributesForElements(in: rect, layout: layout, context: context)
    }

    func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                             context: ScrollContext) throws -> Point {
        let target = try inner.targetContentOffset(proposed: proposed, velocity: velocity, layout: layout, context: context)
        record.events.append(.release(bounds: context.bounds, proposed: proposed, velocity: velocity))
        record.answers.append(.release(target))
        return target
    }
}

/// Runs scripts through the Lua engine as `cardlua run` does (the demo at 414×736 with
/// 20 items, or a scenario) and records what the export must reproduce.
enum LuaRecorder {
    static let viewport = Scenario.defaultViewportSize
    static let items = Scenario.defaultNumberOfItems

    /// The script's demo (`cardlua run SCRIPT [--param k=v …]`).
    static func demo(source: String, fileName: String, params: [(name: String, value: ParamSetting)] = [],
                     rightToLeft: Bool = false, numberOfItems: [Int] = items) throws -> LuaRecord {
        let effect = try LuaEffect(source: source, chunkName: fileName)
        try effect.setParams(params)
        let recording = RecordingEffect(effect, numberOfItems: numberOfItems)
        _ = try ScenarioRunner(effect: recording, scriptName: fileName)
            .runDemo(viewportSize: viewport, numberOfItems: numberOfItems, framesPerSecond: Scenario.defaultFramesPerSecond,
                     layoutDirection: rightToLeft ? .rightToLeft : .leftToRight)
        var record = recording.record
        record.rightToLeft = rightToLeft
        return record
    }

    /// Random jumps and flings over the script's scrollable range (a fixed seed).
    static func randomWalk(source: String, fileName: String, seed: UInt64) throws -> LuaRecord {
        let effect = try LuaEffect(source: source, chunkName: fileName)
        let layout = try ScenarioRunner(effect: effect, scriptName: fileName).preparedLayout(viewportSize: viewport, numberOfItems: items)
        let horizontal = layout.configuration.scrollDirection == .horizontal
        let end = horizontal ? layout.maximumContentOffset.x : layout.maximumContentOffset.y
        var random = SplitMix64(seed: seed)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        var steps: [ScenarioStep] = []
        for round in 0..<12 {
            // Offsets a little past both edges too (the rubber band shows them).
            steps.append(.jump(offset: -40 + unit() * (end + 80)))
            if round % 3 == 2 {
                steps.append(.fling(velocity: (unit() * 2 - 1) * 4))
            }
        }
        let scenario = Scenario(name: "random", viewportSize: viewport, numberOfItems: items, steps: steps)
        let recording = RecordingEffect(effect, numberOfItems: items)
        _ = try ScenarioRunner(effect: recording, scriptName: fileName).run(scenario)
        return recording.record
    }
}
