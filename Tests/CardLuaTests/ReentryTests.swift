import CardLayout
import CardLua
import Foundation
import Testing

/// Entry points do not nest: a callback of the host's (a log sink, a base layout) that
/// calls back into the same effect during a call is refused with a clear error, and the
/// call under way finishes as if nothing had happened (Sources/CLuaShims/README.md,
/// *The entry points*).
@Suite struct ReentryTests {
    static let viewport = Size(width: 400, height: 600)

    /// One frame of `effect` over `items` items (``Safety/frame(_:items:)``).
    static func frame(_ effect: LuaEffect, items: Int = 5) throws -> [LayoutAttributes] {
        try Safety.frame(effect, items: items)
    }

    static let refusal = "re-entered the effect during a call"

    /// The log sink calls the effect again while its transform prints: every kind of call
    /// (one guarded in Swift, and ones that reach the C entry points directly) is refused,
    /// and the frame under way comes out as a frame without the sink.
    @Test func logSinkCallingBackIsRefused() throws {
        let source = """
        function transform(attributes)
          print(string.format("item %d", attributes.indexPath.item))
          attributes.alpha = 0.25 + attributes.indexPath.item / 10
          attributes.zIndex = 7
        end
        """
        let effect = try LuaEffect(source: source, chunkName: "echo.lua")
        var inner: [String] = []
        var lines: [String] = []
        effect.logSink = { [unowned effect] line in
            lines.append(line)
            var other = [LayoutAttributes(indexPath: CardIndexPath(item: 0, section: 0),
                                          frame: Rect(x: 0, y: 0, width: 10, height: 10))]
            let layout = FlowLayout(configuration: FlowLayoutConfiguration(), viewportSize: Self.viewport,
                                    numberOfItemsInSections: [1])
            do {
                try effect.transform(&other, layout: layout, context: ScrollContext(bounds: Rect.zero, contentSize: Size.zero))
                inner.append("transform ran")
            } catch let error as ScriptError { inner.append(error.text) } catch { inner.append("\(error)") }
            // These reach the C entry points without a Swift guard.
            do {
                try effect.setItemCounts([3])
                inner.append("setItemCounts ran")
            } catch { inner.append((error as? ScriptError)?.text ?? "\(error)") }
            do {
                _ = try effect.scenarioNames()
                inner.append("scenarioNames ran")
            } catch { inner.append((error as? ScriptError)?.text ?? "\(error)") }
            inner.append(effect.definesFunction("transform") ? "definesFunction answered" : "refused")
        }
        let items = try Self.frame(effect)
        effect.logSink = nil
        #expect(lines == (0..<items.count).map { "echo.lua: item \($0)" })
        #expect(inner.count == 4 * items.count)
        for (k, answer) in inner.enumerated() where k % 4 != 3 {
            #expect(answer.hasPrefix(Self.refusal), "\(answer)")
        }
        #expect(inner.filter { $0 == "refused" }.count == items.count)
        // The outer frame, item by item, as the script set it.
        #expect(items.count == 5)
        for item in items {
            #expect(item.alpha == 0.25 + Double(item.indexPath.item) / 10)
            #expect(item.zIndex == 7)
        }
        // The effect is still good: the next frame runs.
        #expect(try Self.frame(effect).count == 5)
    }

    /// A base layout that asks the effect for its own elements while the script queries
    /// it: refused; the query under way still gets its answer.
    final class Reentrant: BaseLayoutProviding {
        unowned let effect: LuaEffect
        let layout: FlowLayout
        var answers: [String] = []

        init(effect: LuaEffect, layout: FlowLayout) {
            self.effect = effect
            self.layout = layout
        }

        func baseLayoutAttributes(in rect: Rect, limit: Int) -> [LayoutAttributes] {
            do {
                _ = try effect.targetContentOffset(proposed: .zero, velocity: .zero, layout: layout,
                                                   context: ScrollContext(bounds: rect, contentSize: rect.size))
                answers.append("targetContentOffset ran")
            } catch let error as ScriptError { answers.append(error.text) } catch { answers.append("\(error)") }
            return layout.baseLayoutAttributes(in: rect, limit: limit)
        }
    }

    @Test func baseLayoutCallingBackIsRefused() throws {
        let source = """
        function transform(attributes, layout)
          local all = layout:layoutAttributesForElements(CGRectMake(0, 0, 400, 600))
          attributes.zIndex = #all
        end
        """
        let effect = try LuaEffect(source: source, chunkName: "query.lua")
        var configuration = FlowLayoutConfiguration()
        try effect.prepare(&configuration, viewportSize: Self.viewport)
        let layout = FlowLayout(configuration: configuration, viewportSize: Self.viewport, numberOfItemsInSections: [3])
        let provider = Reentrant(effect: effect, layout: layout)
        let bounds = Rect(x: 0, y: 0, width: Self.viewport.width, height: Self.viewport.height)
        var attributes = layout.layoutAttributesForElements(in: bounds)
        try effect.transform(&attributes, layout: provider,
                             context: ScrollContext(bounds: bounds, contentSize: layout.collectionViewContentSize))
        #expect(attributes.map(\.zIndex) == [3, 3, 3])
        #expect(provider.answers.count >= 3)  // once per query, or twice (a buffer grows)
        #expect(provider.answers.allSatisfy { $0.hasPrefix(Self.refusal) }, "\(provider.answers)")
    }
}
