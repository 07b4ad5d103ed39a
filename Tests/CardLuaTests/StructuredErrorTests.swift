import CardLayout
import CardLua
import Testing

/// A host error carries its parts as typed fields (Sources/CLuaShims/README.md,
/// "Messages and output"), and `message` is exactly those parts formatted.
@Suite struct StructuredErrorTests {
    @Test func aRefusedValueCarriesCallbackItemFieldAndLine() throws {
        let source = LuaEffectTests.horizontal + "function transform(a)\n  if a.indexPath.item == 1 then a.alpha = 0/0 end\nend"
        let error = try #require(LuaEffectTests.failure(source))
        #expect(error.kind == .failed)
        #expect(error.file == "test.lua")
        #expect(error.line == 7)  // the assignment: line 6 is `function transform`
        #expect(error.callback == "transform")
        #expect(error.item == 1)
        #expect(error.field == "alpha")
        #expect(error.limit == nil)
        #expect(error.text == "attributes.alpha is NaN")
        #expect(error.message == "test.lua:7: transform: item 1: attributes.alpha is NaN")
        #expect(error.unlocated == "transform: item 1: attributes.alpha is NaN")
    }

    /// A bad value *returned* by transform is reported at its `return` (the one taken,
    /// among several), not at `function transform`: lines 11 and 8 below, never 6.
    @Test func aBadReturnNamesTheReturnLine() throws {
        let nan = LuaEffectTests.horizontal + """
        function transform(a)
          local x = a.indexPath.item
          if x > 1000 then
            return 2
          end
          return 0/0
        end
        """
        let error = try #require(LuaEffectTests.failure(nan))
        #expect(error.line == 11)
        #expect(error.message == "test.lua:11: transform: item 0: returned NaN as the scale")
        let string = LuaEffectTests.horizontal + """
        function transform(a)
          if a.indexPath.item >= 0 then
            return "big"
          end
        end
        """
        let other = try #require(LuaEffectTests.failure(string))
        #expect(other.line == 8)
        #expect(other.text.hasPrefix("returned a string"))
    }

    @Test func formattingIsTheOnlyPlaceAMessageIsMade() {
        let error = ScriptError(kind: .failed, file: "a.lua", line: nil, callback: "prepare", text: "boom")
        #expect(error.message == "a.lua:1: prepare: boom")  // no line: shown as 1
        #expect(error.at(line: 9).message == "a.lua:9: prepare: boom")
        #expect(error.at(line: 9).line == 9)
    }

    /// The memory error names the line that allocated (4), not the callback's first line (1).
    @Test func aMemoryLimitNamesTheAllocatingLine() {
        let source = """
        function transform(attributes)
          local t = {}
          attributes.alpha = 1
          while true do t[#t + 1] = string.rep('x', 1000) .. #t end
        end
        """
        let outcome = Safety.run(source, limits: ScriptLimits(maxMemory: 8 << 20, maxTime: 30))
        #expect(outcome.failure.kind == .limit)
        #expect(outcome.failure.limit == .memory)
        #expect(outcome.failure.line == 4)
        #expect(outcome.failure.message == "hostile.lua:4: transform: item 0: exceeded the memory limit (8 MiB)")
    }

    @Test func theBudgetIsNamedAsTheLimit() {
        let outcome = Safety.run("function transform(a)\n  while true do end\nend",
                                 limits: ScriptLimits(maxSteps: 100_000, maxTime: 30))
        #expect(outcome.failure.kind == .limit)
        #expect(outcome.failure.limit == .instructions)
        #expect(outcome.failure.line == 2)
    }
}
