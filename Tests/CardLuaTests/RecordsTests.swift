import CardLayout
@testable import CardLua
import Testing

/// What crosses between the prelude and Swift as typed records (records.c), and the base
/// layout handed to each call rather than kept by the effect.
@Suite struct RecordsTests {
    static let viewport = Size(width: 300, height: 300)

    /// One frame of `items` 100×100 cards at offset 0, through `layout` (nil: the flow
    /// layout itself).
    static func frame(_ effect: LuaEffect, items: Int = 4,
                      through layout: (any BaseLayoutProviding)? = nil) throws -> [LayoutAttributes] {
        var configuration = FlowLayoutConfiguration()
        configuration.itemSize = Size(width: 100, height: 100)
        let flow = FlowLayout(configuration: configuration, viewportSize: viewport, numberOfItemsInSections: [items])
        let bounds = Rect(origin: .zero, size: viewport)
        var attributes = flow.layoutAttributesForElements(in: bounds)
        let context = ScrollContext(bounds: bounds, contentSize: flow.collectionViewContentSize)
        if let layout {
            try effect.transform(&attributes, layout: layout, context: context)
        } else {
            try effect.transform(&attributes, layout: flow, context: context)
        }
        return attributes
    }

    /// A key with a tab in it comes back whole, with the item it was first written for
    /// (item 2: the only one that writes it). As text split on tabs it came back as the
    /// key "tab" written for item "here\t2".
    @Test func unknownKeysComeBackAsWritten() throws {
        let effect = try LuaEffect(source: """
            function transform(attributes, layout)
              if attributes.indexPath.item == 2 then attributes["tab\\there"] = 1 end
              attributes.zindex = 1
            end
            """, chunkName: "keys.lua")
        effect.setCheckMode(true)
        _ = try Self.frame(effect)
        let notes = try effect.attributeKeyNotes()
        // zindex is first written for item 0, the key with the tab for item 2, in that order.
        #expect(notes == [AttributeKeyNote(key: "zindex", item: 0), AttributeKeyNote(key: "tab\there", item: 2)])
    }

    /// The layout's unknown keys and the scenario names come back as lists, sorted.
    @Test func listsComeBackSorted() throws {
        let effect = try LuaEffect(source: """
            function prepare(layout)
              layout.zzz = 1
              layout.itemsize = CGSizeMake(10, 10)
              layout.collectionView.pagingEnabled = true
            end
            scenarios = { b = { steps = {} }, a = { steps = {} }, ["with space"] = { steps = {} } }
            """, chunkName: "lists.lua")
        var configuration = FlowLayoutConfiguration()
        try effect.prepare(&configuration, viewportSize: Self.viewport)
        // Byte order: "layout.c…" < "layout.i…" < "layout.z…"; "a" < "b" < "with space".
        #expect(try effect.layoutKeyNotes() == ["layout.collectionView.pagingEnabled", "layout.itemsize", "layout.zzz"])
        #expect(try effect.scenarioNames() == ["a", "b", "with space"])
    }

    /// An override that is a whole number reaches the script as an integer (as Lua reads
    /// the text `--param rotate=50`), and one with a fraction as a float.
    @Test func wholeOverridesStayIntegers() throws {
        let effect = try LuaEffect(source: """
            params = { rotate = { value = 35, min = 0, max = 90 } }
            function transform(attributes, layout)
              attributes.alpha = math.type(params.rotate) == "integer" and 0.5 or 0.25
            end
            """, chunkName: "types.lua")
        try effect.setParams([("rotate", 50)])
        #expect(try Self.frame(effect).allSatisfy { $0.alpha == 0.5 })
        try effect.setParams([("rotate", 0.5)])
        #expect(try Self.frame(effect).allSatisfy { $0.alpha == 0.25 })
    }

    /// Options, labels and steps come back in their fields (in the order declared).
    @Test func paramDeclarationsComeBackInTheirFields() throws {
        let effect = try LuaEffect(source: """
            params = {
              style = { value = "flat", options = { "cover", "flat", "stack" }, label = "Style" },
              wrap = { value = false },
              tilt = { value = 0.25, min = -1, max = 1, step = 0.125 },
            }
            """, chunkName: "decl.lua")
        #expect(effect.params == [
            ScriptParam(name: "style", value: .option("flat"), defaultValue: .option("flat"),
                        kind: .options(["cover", "flat", "stack"]), label: "Style"),
            ScriptParam(name: "wrap", value: false, defaultValue: false, kind: .boolean),
            ScriptParam(name: "tilt", value: 0.25, defaultValue: 0.25, minimum: -1, maximum: 1, step: 0.125),
        ])
    }

    /// A host layout that owns its effect and hands itself to each call.
    final class OwningHost: BaseLayoutProviding {
        let effect: LuaEffect
        let flow: FlowLayout
        var queries = 0

        init(effect: LuaEffect) {
            self.effect = effect
            var configuration = FlowLayoutConfiguration()
            configuration.itemSize = Size(width: 100, height: 100)
            flow = FlowLayout(configuration: configuration, viewportSize: RecordsTests.viewport,
                              numberOfItemsInSections: [4])
        }

        func baseLayoutAttributes(in rect: Rect, limit: Int) -> [LayoutAttributes] {
            queries += 1
            return flow.baseLayoutAttributes(in: rect, limit: limit)
        }
    }

    /// The effect asks the layout it was handed, and keeps no reference to it after the
    /// call: a host that owns its effect is freed with its last reference (no cycle).
    @Test func theBaseLayoutIsNotKeptAfterTheCall() throws {
        weak var released: OwningHost?
        do {
            let effect = try LuaEffect(source: """
                function transform(attributes, layout)
                  attributes.zIndex = #layout:layoutAttributesForElements(CGRectMake(0, 0, 300, 300))
                end
                """, chunkName: "owned.lua")
            let host = OwningHost(effect: effect)
            released = host
            let items = try Self.frame(host.effect, through: host)
            // 300 × 300 holds 3 × 3 cards of 100: 4 items, all on screen.
            #expect(items.map(\.zIndex) == [4, 4, 4, 4])
            #expect(host.queries > 0)
        }
        #expect(released == nil)
    }
}
