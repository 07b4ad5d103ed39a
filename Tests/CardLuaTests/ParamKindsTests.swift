import CardLayout
import CardLua
import Foundation
import Testing

/// On/off and one-of tweakables, labels and the declaration order (docs/script-api.md,
/// "Tweakables"): `value = true` is a Lua boolean in callbacks, `options = { … }` a string
/// among them, `label` what `play` shows, and `params` lists them as the script wrote them.
@Suite struct ParamKindsTests {
    static let script = """
    params = {
      zoom = { value = 2, min = 0, max = 5, label = "Viewpoint offset of the zoomed card" },
      wrap = { value = true },
      style = { value = "cover", options = { "cover", "flat", "stack" } },
      ["alpha"] = { value = 1, min = 0, max = 1 },  -- a key written as a string
    }
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(100, 100)
    end
    function transform(attributes, layout)
      -- alpha encodes what the callback read: 0.5 when wrap is the boolean true, plus 0.1
      -- for "flat" and 0.2 for "stack"
      local a = (params.wrap == true and 0.5 or 0) + (params.style == "flat" and 0.1 or 0)
        + (params.style == "stack" and 0.2 or 0)
      attributes.alpha = a
    end

    """

    static func firstAlpha(_ effect: LuaEffect) throws -> Double {
        var configuration = FlowLayoutConfiguration()
        let viewport = Size(width: 400, height: 600)
        try effect.prepare(&configuration, viewportSize: viewport)
        let layout = FlowLayout(configuration: configuration, viewportSize: viewport, numberOfItemsInSections: [2])
        let bounds = Rect(x: 0, y: 0, width: viewport.width, height: viewport.height)
        var items = layout.layoutAttributesForElements(in: bounds)
        try effect.transform(&items, layout: layout,
                             context: ScrollContext(bounds: bounds, contentSize: layout.collectionViewContentSize))
        return try #require(items.first).alpha
    }

    @Test func kindsLabelsAndTheScriptsOrder() throws {
        let effect = try LuaEffect(source: Self.script, chunkName: "kinds.lua")
        // As declared (not by name: alpha, style, wrap, zoom).
        #expect(effect.params.map(\.name) == ["zoom", "wrap", "style", "alpha"])
        #expect(effect.params[0] == ScriptParam(name: "zoom", value: 2, defaultValue: 2, minimum: 0, maximum: 5,
                                                label: "Viewpoint offset of the zoomed card"))
        #expect(effect.params[1] == ScriptParam(name: "wrap", value: true, defaultValue: true, kind: .boolean))
        #expect(effect.params[2] == ScriptParam(name: "style", value: .option("cover"), defaultValue: .option("cover"),
                                                kind: .options(["cover", "flat", "stack"])))
        #expect(abs(try Self.firstAlpha(effect) - 0.5) < 1e-12)  // wrap is Lua's true, style "cover"
    }

    @Test func overridesOfEachKind() throws {
        let effect = try LuaEffect(source: Self.script, chunkName: "kinds.lua")
        try effect.setParams([("wrap", false), ("style", .option("stack"))])
        #expect(abs(try Self.firstAlpha(effect) - 0.2) < 1e-12)
        #expect(effect.params.map(\.value) == [2, false, .option("stack"), 1])
        // Text as a command line gives it, read as each kind takes it.
        let parsed = try LuaEffect.parseParams([("wrap", "true"), ("style", "flat"), ("zoom", "2.5")], against: effect.params)
        try effect.setParams(parsed)
        #expect(effect.params.map(\.value) == [2.5, true, .option("flat"), 1])
        #expect(abs(try Self.firstAlpha(effect) - 0.6) < 1e-12)
    }

    @Test(arguments: [
        ("style", "flt", "'flt' is not one of params.style's options (cover, flat, stack); did you mean flat?"),
        ("style", "Flat", "'Flat' is not one of params.style's options (cover, flat, stack); did you mean flat?"),
        ("style", "round", "'round' is not one of params.style's options (cover, flat, stack)"),
        ("wrap", "1", "params.wrap is on/off: expected true or false (got '1')"),
        ("wrap", "yes", "params.wrap is on/off: expected true or false (got 'yes')"),
        ("zoom", "true", "params.zoom is a number from 0 to 5: type one, like --param zoom=2 (got 'true')"),
        ("zoom", "6", "6 is outside 0…5 (params.zoom's min…max)"),
        ("wrap_", "true", "the script has no param 'wrap_'; did you mean wrap?"),
        ("w", "true", "the script has no param 'w' (it declares zoom, wrap, style, alpha)"),
    ])
    func overridesOfTheWrongKindAreRefused(_ name: String, _ text: String, _ expected: String) throws {
        let effect = try LuaEffect(source: Self.script, chunkName: "kinds.lua")
        #expect(throws: ParamOverrideError.self) { try LuaEffect.parseParams([(name, text)], against: effect.params) }
        do {
            _ = try LuaEffect.parseParams([(name, text)], against: effect.params)
        } catch {
            #expect(error.text == expected)
        }
        // A setting of another kind (as the page could send) is refused as well.
        #expect(throws: ParamOverrideError.self) { try effect.setParams([("style", true)]) }
        #expect(throws: ParamOverrideError.self) { try effect.setParams([("wrap", 1)]) }
    }

    /// `check`'s messages for the new fields: one line at the entry's line.
    @Test(arguments: [
        ("params = {\n  a = { value = 1, min = 0, max = 2 },\n  s = { value = \"x\", options = { \"a\", \"b\" } },\n}",
         "t.lua:3: params.s: value \"x\" is not one of the options (a, b)"),
        ("params = {\n  s = { value = \"a\", options = \"a, b\" } }",
         "t.lua:2: params.s: options must be a list of strings like { \"cover\", \"flat\" } (got \"a, b\")"),
        ("params = { s = { value = \"a\", options = { \"a\" } } }", "t.lua:1: params.s: options must list at least 2 strings"),
        ("params = { s = { value = \"a\", options = { \"a\", \"a\" } } }", "t.lua:1: params.s: options lists \"a\" twice"),
        ("params = { s = { value = \"a\", options = { \"a\", 2 } } }", "t.lua:1: params.s: options[2] must be a string (got 2)"),
        ("params = { s = { value = \"a\", options = { \"a\", \"b\", x = \"c\" } } }",
         "t.lua:1: params.s: options must be a list of strings like { \"cover\", \"flat\" } (it has the key \"x\")"),
        ("params = { s = { value = 1, options = { \"a\", \"b\" } } }", "t.lua:1: params.s: value must be one of the options (got 1)"),
        ("params = { s = { value = \"a\" } }",
         "t.lua:1: params.s: value \"a\" is a string: list the strings it may take, like options = { \"a\", … }"),
        ("params = {\n  w = { value = true,\n    label = 3 } }", "t.lua:2: params.w: label must be a string (got 3)"),
        ("params = { w = { value = true, label = \"two\\nlines\" } }",
         "t.lua:1: params.w: label must be one line, without tabs or other control characters"),
        ("params = { w = { value = false, min = 0 } }",
         "t.lua:1: params.w: unknown field \"min\" (an on/off tweakable has value = true or false and an optional label)"),
        ("params = { r = { value = 1, min = 0, max = 2, label = \"\" } }", "t.lua:1: params.r: label must not be empty"),
    ])
    func badNewFieldsAreOneLineAtTheirEntry(_ source: String, _ expected: String) {
        do {
            _ = try LuaEffect(source: source, chunkName: "t.lua")
            Issue.record("loaded: \(source)")
        } catch {
            #expect(error.message == expected)
            #expect(!error.message.contains("\n"))
        }
    }

    /// The order is read from the constructor's text at its first level: nested keys,
    /// strings and comments that look like keys do not count; a param added by code
    /// follows, by name.
    @Test func theOrderIgnoresWhatOnlyLooksLikeAKey() throws {
        let source = """
        params = {
          -- value = not a key (a comment)
          --[[ min = nor this ]]
          zeta = { value = 1, min = 0, max = 2, label = "b = c" },
          beta = { value = false },
          ["mid"] = { value = 0, min = 0, max = 1 },
          alpha = { value = "x", options = { "x", "y = z" } },
        }
        params.added = { value = 1, min = 0, max = 1 }
        params.aardvark = { value = true }

        """
        let effect = try LuaEffect(source: source, chunkName: "order.lua")
        #expect(effect.params.map(\.name) == ["zeta", "beta", "mid", "alpha", "aardvark", "added"])
        #expect(effect.params[3].kind == .options(["x", "y = z"]))
    }

    /// `params.wrap.value` on an on/off param fails with the hint for its kind.
    @Test func readingValueOfABooleanSaysWhatToReadInstead() {
        let source = "params = { wrap = { value = true } }\nfunction transform(a) return params.wrap.value end\n"
        do {
            let effect = try LuaEffect(source: source, chunkName: "t.lua")
            _ = try Self.firstAlpha(effect)
            Issue.record("ran")
        } catch let error as ScriptError {
            #expect(error.message == "t.lua:2: transform: item 0: attempt to index a boolean value (field 'wrap'); "
                    + "params.wrap is the true or false itself (read params.wrap, not params.wrap.value)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
