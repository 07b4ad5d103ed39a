import CardLayout
import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// What a library's own formula says one card looks like at one offset. The fidelity tests
/// build these from the source's math written out in Swift, independently of the Lua port.
struct ExpectedCard: CustomStringConvertible {
    var item: Int
    var section = 0
    /// The untransformed centre, in content coordinates (what the transform is about).
    var center: Point
    var size: Size
    var transform: Transform3D = .identity
    var alpha: Double = 1

    var description: String { "item \(item) at \(center)" }
}

/// One frame's circumstances, handed to an expected-cards closure.
struct CatalogueFrame {
    var viewport: Size
    var offset: Double
    var numberOfItems: Int
    /// The layout the port prepared (its flow configuration: item size, insets, spacing).
    var configuration: FlowLayoutConfiguration
    var contentOffset: Point
}

/// Runs a catalogue script (scripts/effects/NAME.lua) the way `cardlua run --offset X`
/// does, and compares what it draws with the source's formula.
enum CatalogueHarness {
    static let folder = TestSupport.packageRoot.appendingPathComponent("scripts/effects")

    static func path(_ name: String) -> String { folder.appendingPathComponent("\(name).lua").path }

    /// The port, with `params` overriding its tweakables.
    static func effect(_ name: String, params: [String: ParamSetting] = [:]) throws -> LuaEffect {
        let effect = try LuaEffect(path: path(name))
        if !params.isEmpty { try effect.setParams(params.map { (name: $0.key, value: $0.value) }) }
        return effect
    }

    /// The frame the port shows at `offset` (on its scroll axis), through the whole
    /// pipeline: prepare, its own element query if it has one, transform.
    static func frame(_ name: String, offset: Double, viewport: Size = Scenario.defaultViewportSize,
                      items: Int = 20, params: [String: ParamSetting] = [:]) throws -> (Frame, FlowLayoutConfiguration) {
        let effect = try effect(name, params: params)
        let runner = ScenarioRunner(effect: effect, scriptName: "\(name).lua")
        let timeline = try runner.run(Scenario(name: "fidelity", viewportSize: viewport, numberOfItems: [items],
                                               steps: [.jump(offset: offset)]))
        let frame = try #require(timeline.frames.last)
        return (frame, timeline.configuration)
    }

    /// The cards a renderer draws, in its order: neither hidden nor turned away while
    /// single-sided, by zIndex and then index path (UIKit's order).
    static func drawn(_ frame: Frame) -> [LayoutAttributes] {
        frame.items.filter { !$0.isHidden && !$0.isBackFaceHidden }
            .enumerated()
            .sorted { a, b in (a.element.zIndex, a.element.indexPath, a.offset) < (b.element.zIndex, b.element.indexPath, b.offset) }
            .map(\.element)
    }

    /// Compares the port with `expected` at every offset: the same cards in the same
    /// drawing order (back to front, as `expected` lists them), each card's four projected
    /// corners within `tolerance` points, and its alpha within 1e-9.
    static func expectFaithful(_ name: String, offsets: [Double], viewport: Size = Scenario.defaultViewportSize,
                               items: Int = 20, params: [String: ParamSetting] = [:], tolerance: Double = 1e-6,
                               sourceLocation: SourceLocation = #_sourceLocation,
                               _ expected: (CatalogueFrame) -> [ExpectedCard]) throws {
        #expect(offsets.count >= 5, "compare at five offsets or more", sourceLocation: sourceLocation)
        for offset in offsets {
            let (frame, configuration) = try Self.frame(name, offset: offset, viewport: viewport, items: items, params: params)
            let context = CatalogueFrame(viewport: viewport, offset: offset, numberOfItems: items,
                                         configuration: configuration, contentOffset: frame.contentOffset)
            let want = expected(context)
            let got = drawn(frame)
            let where_ = "\(name) at offset \(offset)"
            #expect(got.map { [$0.indexPath.section, $0.indexPath.item] } == want.map { [$0.section, $0.item] },
                    "\(where_): drawing order", sourceLocation: sourceLocation)
            guard got.count == want.count else { continue }
            for (card, model) in zip(got, want) {
                let origin = Point(x: model.center.x - model.size.width / 2, y: model.center.y - model.size.height / 2)
                let reference = LayoutAttributes(indexPath: CardIndexPath(item: model.item, section: model.section),
                                                 frame: Rect(origin: origin, size: model.size), transform3D: model.transform)
                let a = card.projectedQuad(contentOffset: frame.contentOffset)?.corners
                let b = reference.projectedQuad(contentOffset: frame.contentOffset)?.corners
                #expect((a == nil) == (b == nil), "\(where_), item \(model.item): behind the eye", sourceLocation: sourceLocation)
                if let a, let b {
                    let error = zip(a, b).map { max(abs($0.x - $1.x), abs($0.y - $1.y)) }.max() ?? 0
                    #expect(error <= tolerance, "\(where_), item \(model.item): corners \(a) vs \(b)",
                            sourceLocation: sourceLocation)
                }
                #expect(abs(card.alpha - model.alpha) <= 1e-9, "\(where_), item \(model.item): alpha \(card.alpha) vs \(model.alpha)",
                        sourceLocation: sourceLocation)
            }
        }
    }
}
