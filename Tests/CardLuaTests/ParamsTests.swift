import CardLayout
import CardLua
import Foundation
import Testing

/// Tweakables (docs/script-api.md, "Tweakables"): a script's `params` declarations are
/// checked on load, read as plain numbers in callbacks, and overridden from outside.
@Suite struct ParamsTests {
    static let viewport = Size(width: 400, height: 600)

    static let script = """
    params = {
      rotate = { value = 35, min = 0, max = 90, step = 1 },
      spacing = { value = 10, min = -40, max = 40 },
    }
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(100, 100)
      layout.minimumLineSpacing = math.max(0, params.spacing)
    end
    function transform(attributes, layout)
      attributes.alpha = type(params.rotate) == "number" and 1 or 0
      return CATransform3DMakeRotation(params.rotate * M_PI / 180, 0, 0, 1)
    end

    """

    /// prepare's configuration and the first item's attributes at offset 0.
    static func frame(_ effect: LuaEffect) throws -> (FlowLayoutConfiguration, LayoutAttributes) {
        var configuration = FlowLayoutConfiguration()
        try effect.prepare(&configuration, viewportSize: viewport)
        let layout = FlowLayout(configuration: configuration, viewportSize: viewport, numberOfItemsInSections: [3])
        let bounds = Rect(x: 0, y: 0, width: viewport.width, height: viewport.height)
        var items = layout.layoutAttributesForElements(in: bounds)
        try effect.transform(&items, layout: layout,
                             context: ScrollContext(bounds: bounds, contentSize: layout.collectionViewContentSize))
        return (configuration, try #require(items.first))
    }

    /// A rotation by `degrees` about z, by hand: m11 = m22 = cos, m12 = sin, m21 = −sin.
    static func expectRotation(_ t: Transform3D, degrees: Double) {
        let c = cos(degrees * .pi / 180), s = sin(degrees * .pi / 180)
        #expect(abs(t.m11 - c) < 1e-12 && abs(t.m22 - c) < 1e-12)
        #expect(abs(t.m12 - s) < 1e-12 && abs(t.m21 + s) < 1e-12)
        #expect(t.m33 == 1 && t.m44 == 1)
    }

    @Test func declaredValuesAreNumbersInCallbacks() throws {
        let effect = try LuaEffect(source: Self.script, chunkName: "tweak.lua")
        #expect(effect.params == [
            ScriptParam(name: "rotate", value: 35, defaultValue: 35, minimum: 0, maximum: 90, step: 1),
            ScriptParam(name: "spacing", value: 10, defaultValue: 10, minimum: -40, maximum: 40),
        ])
        let (configuration, first) = try Self.frame(effect)
        #expect(configuration.minimumLineSpacing == 10)
        #expect(first.alpha == 1)  // type(params.rotate) == "number"
        Self.expectRotation(first.transform3D, degrees: 35)
    }

    @Test func overridesApplyFromTheNextCallAndResetWhenLeftOut() throws {
        let effect = try LuaEffect(source: Self.script, chunkName: "tweak.lua")
        try effect.setParams([("rotate", 50), ("spacing", 25)])
        #expect(effect.params.map(\.value) == [50, 25])
        var (configuration, first) = try Self.frame(effect)
        #expect(configuration.minimumLineSpacing == 25)
        Self.expectRotation(first.transform3D, degrees: 50)
        // A later call sets every param again: spacing goes back to its declared value.
        try effect.setParams([("rotate", 0.5)])
        (configuration, first) = try Self.frame(effect)
        #expect(configuration.minimumLineSpacing == 10)
        Self.expectRotation(first.transform3D, degrees: 0.5)
    }

    @Test func overridesTheScriptDoesNotTakeAreRefusedAndChangeNothing() throws {
        let effect = try LuaEffect(source: Self.script, chunkName: "tweak.lua")
        func refusal(_ overrides: [(name: String, value: ParamSetting)]) -> String? {
            do {
                try effect.setParams(overrides)
                return nil
            } catch {
                return error.text
            }
        }
        #expect(refusal([("rotat", 50)]) == "the script has no param 'rotat'; did you mean rotate?")
        #expect(refusal([("rot", 50)]) == "the script has no param 'rot'; did you mean rotate?")
        #expect(refusal([("zoom", 2)]) == "the script has no param 'zoom' (it declares rotate, spacing)")
        #expect(refusal([("rotate", 90.5)]) == "90.5 is outside 0…90 (params.rotate's min…max)")
        #expect(refusal([("spacing", 1), ("rotate", -1)]) == "-1 is outside 0…90 (params.rotate's min…max)")
        #expect(refusal([("rotate", .number(.nan))]) == "expected a finite number")
        #expect(effect.params.map(\.value) == [35, 10])  // nothing applied
        let plain = try LuaEffect(source: "", chunkName: "plain.lua")
        #expect(plain.params.isEmpty)
        #expect(throws: ParamOverrideError(name: "rotate", text: "the script declares no params")) {
            try plain.setParams([("rotate", 1)])
        }
        try plain.setParams([])  // nothing to do
    }

    /// Each bad declaration is one line at the entry's line (else the table's).
    @Test(arguments: [
        ("params = 3", "t.lua:1: params must be a table like { rotate = { value = 35, min = 0, max = 90 } } (got a number)"),
        ("params = {\n  a = { value = 1, min = 0, max = 2 },\n  b = { value = 5, min = 0, max = 2 },\n}",
         "t.lua:3: params.b: value 5 is outside min…max (0…2)"),
        ("params = {\n  rotate = { value = 1, min = 3, max = 2 } }", "t.lua:2: params.rotate: min (3) is above max (2)"),
        ("params = { rotate = { min = 0, max = 2 } }", "t.lua:1: params.rotate: value is missing"),
        ("params = { rotate = { value = \"1\", min = 0, max = 2 } }", "t.lua:1: params.rotate: value must be a finite number (got \"1\")"),
        ("params = { rotate = { value = 1, min = 0, max = math.huge } }", "t.lua:1: params.rotate: max must be a finite number (got inf)"),
        ("params = { rotate = { value = 1, min = 0, max = 2, step = 0 } }", "t.lua:1: params.rotate: step must be a positive number (got 0)"),
        ("params = { rotate = { value = 1, min = 0, max = 2, setp = 1 } }",
         "t.lua:1: params.rotate: unknown field \"setp\" (a tweakable has value, min, max, an optional step and an optional label)"),
        ("params = { rotate = 35 }", "t.lua:1: params.rotate: expected a table like { value = 35, min = 0, max = 90 } (got 35)"),
        ("params = { [\"a b\"] = { value = 1, min = 0, max = 2 } }",
         "t.lua:1: params[\"a b\"]: a tweakable's name must be an identifier, like rotate"),
        ("params = { { value = 1, min = 0, max = 2 } }", "t.lua:1: params[1]: a tweakable's name must be an identifier, like rotate"),
    ])
    func badDeclarationsAreOneLineAtTheirEntry(_ source: String, _ expected: String) {
        do {
            _ = try LuaEffect(source: source, chunkName: "t.lua")
            Issue.record("loaded: \(source)")
        } catch {
            #expect(error.message == expected)
            #expect(!error.message.contains("\n"))
        }
    }

    /// `params.rotate.value` (the declaration's shape) fails with a hint.
    @Test func readingValueOfANumberSaysWhatToReadInstead() {
        let source = "params = { rotate = { value = 1, min = 0, max = 2 } }\n"
            + "function transform(a) return params.rotate.value end\n"
        do {
            let effect = try LuaEffect(source: source, chunkName: "t.lua")
            _ = try Self.frame(effect)
            Issue.record("ran")
        } catch let error as ScriptError {
            #expect(error.message == "t.lua:2: transform: item 0: attempt to index a number value (field 'rotate'); "
                    + "params.rotate is the number itself (read params.rotate, not params.rotate.value)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
