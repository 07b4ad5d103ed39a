import CardLayout
import CardLua
import Foundation
import Testing

/// The limits of Sources/CLuaShims/README.md through LuaEffect: the budget of steps
/// (checkpoints and the count hook, plus the C work library functions charge to it), the
/// memory cap, the time limit, and Lua's stack and C-call limits. Each ends the call with
/// one clear line and leaves the host alive; a limit discards the state.
@Suite struct LimitTests {
    // MARK: The budget of steps

    /// An infinite loop wherever a script runs: at load time and in each callback.
    @Test(arguments: [
        ("load", "while true do end\n", 1),
        ("prepare", "function prepare(layout)\n  while true do end\nend\n", 2),
        ("transform", "function transform(attributes)\n  while true do end\nend\n", 2),
        ("targetContentOffset", "function targetContentOffset(p, v)\n  while true do end\nend\n", 2),
    ])
    func infiniteLoopEndsInEachCallback(callback: String, source: String, line: Int) {
        let outcome = Safety.run(source)
        let error = outcome.failure
        #expect(error.kind == .limit)
        let context = callback == "load" ? "" : callback == "transform" ? "transform: item 0: " : "\(callback): "
        #expect(error.message == "hostile.lua:\(line): \(context)exceeded the budget of 10000000 steps (possible infinite loop)")
    }

    /// The budget is per call: per item for transform.
    @Test func budgetIsPerItemCall() {
        let source = """
        function transform(attributes)
          local x = 0
          for i = 1, 20000 do x = x + i end
          attributes.alpha = x > 0 and 1 or 0
        end
        """
        let outcome = Safety.run(source, limits: ScriptLimits(maxSteps: 100_000, maxTime: 30))
        #expect(outcome.error == nil)
        #expect(outcome.items.count == 5)
    }

    /// Catching the budget error with pcall (or xpcall, or in a coroutine) does not let a
    /// script carry on: from then on every instruction raises again.
    @Test(arguments: [
        "while true do pcall(function() while true do end end) end",
        "local ok = pcall(function() while true do end end)\n  attributes.alpha = 0.5",
        "while true do xpcall(function() while true do end end, function(m) return m end) end",
        "local function again() while true do end end\n  while true do pcall(pcall, pcall, again) end",
        "while true do local co = coroutine.create(function() while true do end end); pcall(coroutine.resume, co) end",
        "local co = coroutine.wrap(function() while true do pcall(function() while true do end end); coroutine.yield() end end)\n  while true do pcall(co) end",
        "while true do local ok, e = pcall(error, 'x'); local t = {} end",
    ])
    func pcallCannotEscapeTheBudget(body: String) {
        // A smaller budget and a generous clock: under AddressSanitizer every longjmp
        // (each caught error) is slow, and the budget is what this test is about.
        let limits = ScriptLimits(maxSteps: 1_000_000, maxTime: 30)
        let outcome = Safety.run("function transform(attributes)\n  \(body)\nend\n", limits: limits)
        #expect(outcome.failure.kind == .limit)
        #expect(outcome.failure.message.contains("transform: item 0: exceeded the budget of"))
    }

    /// A coroutine made at load time (with the hook it inherited then) is still counted
    /// when a later call resumes it.
    @Test func coroutineFromLoadTimeIsCounted() {
        let source = """
        local spin = coroutine.wrap(function() while true do end end)
        function transform(attributes) spin() end
        """
        let outcome = Safety.run(source)
        #expect(outcome.failure.kind == .limit)
        // Reported where transform resumed it (line 2), as Lua places coroutine errors.
        #expect(outcome.failure.message.hasPrefix("hostile.lua:2: transform: item 0: exceeded the budget of"))
    }

    /// Yielding across the boundary: from the callback itself, and through a C function.
    @Test func yieldsAcrossTheBoundaryAreErrors() {
        let top = Safety.run("function transform(attributes) coroutine.yield(1) end")
        #expect(top.failure.kind == .failed)
        #expect(top.failure.message == "hostile.lua:1: transform: item 0: attempt to yield from outside a coroutine")
        let throughC = Safety.run("""
        function transform(attributes)
          local co = coroutine.wrap(function() return ("ab"):gsub(".", coroutine.yield) end)
          co()
        end
        """)
        #expect(throughC.failure.kind == .failed)
        #expect(throughC.failure.message.contains("attempt to yield across a C-call boundary"))
    }

    // MARK: C work charged to the budget (the hook cannot see it)

    /// Pattern matching that backtracks polynomially: the stock matcher would run for
    /// hours on these; ours counts its steps.
    @Test(arguments: [
        "string.find(string.rep('a', 5000), '.-.-.-.-x')",
        "string.rep('a', 1000000):find('a*b')",
        "string.match(string.rep('a', 3000), string.rep('a?', 100) .. 'b')",
        "for w in string.rep('ab', 20000):gmatch('(.-)(.-)(.-)x') do end",
        "string.gsub(string.rep('x', 100000), '.-.-.-y', '')",
        "string.find(string.rep('a', 4000000), string.rep('a', 2000000) .. 'b', 1, true)",
    ])
    func patternBlowUpIsCounted(call: String) {
        let outcome = Safety.run("function transform(attributes)\n  \(call)\nend\n")
        #expect(outcome.failure.kind == .limit)
        #expect(outcome.failure.message == "hostile.lua:2: transform: item 0: exceeded the budget of 10000000 steps (a string pattern that backtracks too much, or a loop that never ends)")
    }

    /// Library functions whose C loops run without instructions: charged up front by the
    /// work they are asked for.
    @Test(arguments: [
        "table.move({}, 1, 1e15, 2)",
        "table.concat(setmetatable({}, {__len = function() return 1e15 end, __index = tostring}))",
        "table.concat({}, '', 1, 1e15)",
        "local t = {} for i = 1, 200000 do t[i] = i end\n  while true do table.sort(t) end",
        "local t = {} for i = 1, 100000 do t[i] = i end\n  while true do table.insert(t, 1, 0); table.remove(t, 1) end",
    ])
    func tableWorkIsCharged(body: String) {
        let outcome = Safety.run("function transform(attributes)\n  \(body)\nend\n")
        #expect(outcome.failure.kind == .limit)
        #expect(outcome.failure.message.contains("exceeded the budget of 10000000 steps (a table function over too many elements, or a loop that never ends)"))
    }

    /// Lengths a __len metamethod could change between our look and the stock function's
    /// are refused where the stock function asks for them itself.
    @Test(arguments: ["table.sort", "table.insert", "table.remove"])
    func lenMetamethodIsRefused(function: String) {
        let args = function == "table.insert" ? "t, 1" : "t"
        let outcome = Safety.run("""
        function transform(attributes)
          local t = setmetatable({}, {__len = function() return 1e15 end})
          \(function)(\(args))
        end
        """)
        #expect(outcome.failure.kind == .failed)
        #expect(outcome.failure.message == "hostile.lua:3: transform: item 0: \(function): a table with a __len metamethod is not supported in cardlua (its work could not be bounded)")
    }

    /// Copies and conversions of long strings: allocation and scanning are charged.
    @Test(arguments: [
        "local s = string.rep('x', 16e6)\n  while true do local u = s:upper() end",
        "local s = string.rep('1', 3e7)\n  while true do local x = tonumber(s, 36) end",
        "local s = string.rep('x', 1e5)\n  while true do local t = {s:byte(1, -1)} end",
        "local s = ('é'):rep(4e6)\n  while true do local n = utf8.len(s) end",
    ])
    func stringWorkIsCharged(body: String) {
        let outcome = Safety.run("function transform(attributes)\n  \(body)\nend\n")
        #expect(outcome.failure.kind == .limit)
        #expect(outcome.failure.message.contains("transform: item 0: exceeded the"))
    }

    // MARK: The time limit (a backstop for C work nothing charges)

    /// One VM instruction whose C work grows with a long string (`s + 0` converts it,
    /// `a == b` compares two): no charge sees it, the clock does.
    @Test(arguments: [
        "local s = string.rep(' ', 3e7) .. '1'\n  while true do local x = s + 0 end",
        "local a, b = string.rep('x', 15e6), string.rep('x', 15e6 - 1) .. 'x'\n  while a == b do end",
    ])
    func timeLimitStopsLongInstructions(body: String) {
        let limits = ScriptLimits(maxTime: 0.3)
        let outcome = Safety.run("function transform(attributes)\n  \(body)\nend\n", limits: limits)
        #expect(outcome.failure.kind == .limit)
        #expect(outcome.failure.message.hasPrefix("hostile.lua:"))
        #expect(outcome.failure.message.contains("transform: item 0: exceeded the time limit of 0.3 s per call"))
    }

    // MARK: The memory cap

    @Test(arguments: [
        "local t = {} while true do t[#t + 1] = {} end",
        "local s = 'x' while true do s = s .. s end",
        "local t = {} local i = 0 while true do i = i + 1; t[i] = string.rep('x', 1000) .. i end",
        "local s = string.rep('x', 1e9)",
        "for i = 1, 1e9 do pcall(string.rep, 'x', 1e9) end",
        "while true do pcall(function() local t = {} while true do t[#t + 1] = ('x'):rep(100) .. #t end end) end",
        "local ok = pcall(string.rep, 'x', 1e9)\n  attributes.alpha = 0.5",
    ])
    func memoryBombEnds(body: String) {
        let limits = ScriptLimits(maxMemory: 16 << 20, maxTime: 30)
        let outcome = Safety.run("function transform(attributes)\n  \(body)\nend\n", limits: limits)
        #expect(outcome.failure.kind == .limit)
        #expect(outcome.failure.message.hasPrefix("hostile.lua:"))
        #expect(outcome.failure.message.hasSuffix("transform: item 0: exceeded the memory limit (16 MiB)"))
    }

    /// string.rep of 10¹² is refused by Lua itself (the result could not be a string).
    @Test func repOfATrillionIsAnError() {
        let outcome = Safety.run("local s = string.rep('x', 1e12)")
        #expect(outcome.failure.message == "hostile.lua:1: resulting string too large")
    }

    // MARK: Lua's stack and C-call limits

    @Test(arguments: [
        ("local function f(n) return 1 + f(n + 1) end\n  f(1)", "stack overflow (calls nested too deeply: runaway recursion?)"),
        ("local s = ('ab'):rep(10)\n  local function r() return (s:gsub('.', r)) end\n  r()", "C stack overflow"),
        ("local t = setmetatable({}, {__index = function(t, k) return t[k] end})\n  local x = t.x", "C stack overflow"),
        ("local f = pcall\n  for i = 1, 300 do local g = f; f = function() return assert(pcall(g)) end end\n  f()", "C stack overflow"),
        ("local t = setmetatable({}, {}) getmetatable(t).__index = t\n  local x = t.x", "'__index' chain too long; possible loop"),
        ("local t = {} setmetatable(t, {__tostring = function(x) return tostring(x) end})\n  local s = tostring(t)", "stack overflow"),
        ("local t = setmetatable({}, {__eq = function(a, b) return a == b end})\n  local e = t == setmetatable({}, getmetatable(t))", "stack overflow"),
    ])
    func stackLimitsAreErrors(body: String, expected: String) {
        // Lua's own stack limits stop these, whatever the time; the time limit is only a
        // hang guard, far above what a deep recursion takes under the sanitizers on a
        // loaded machine (40 s seen), so that it never decides the outcome.
        let outcome = Safety.run("function transform(attributes)\n  \(body)\nend\n",
                                 limits: ScriptLimits(maxTime: 600))
        #expect(outcome.error != nil)
        #expect(outcome.failure.message.contains(expected))
        #expect(Safety.isLocated(outcome.failure.message))
    }

    /// A chain of a million tables, each the __index of the one before: Lua stops after
    /// 2000 links.
    @Test func millionTableIndexChainIsAnError() {
        let source = """
        local first = {}
        local current = first
        for i = 1, 1000000 do
          local nextTable = {}
          setmetatable(current, {__index = nextTable})
          current = nextTable
        end
        function transform(attributes) return first.missing end
        """
        let limits = ScriptLimits(maxSteps: 100_000_000, maxMemory: 1 << 30, maxTime: 60)
        let outcome = Safety.run(source, limits: limits)
        #expect(outcome.failure.message == "hostile.lua:8: transform: item 0: '__index' chain too long; possible loop")
    }

    /// Lua shortens long chunk names in its messages ("...tail"); the message handler
    /// still finds the script's own location and frames, and shows the full name once.
    @Test func longChunkNamesKeepOneLocation() {
        let name = "/tmp/" + String(repeating: "a-long-directory/", count: 6) + "hostile.lua"
        let outcome = Safety.run("local function down(n) return 1 + down(n + 1) end\nfunction transform(attributes)\n  down(1)\nend\n",
                                 name: name)
        #expect(outcome.failure.message == "\(name):1: transform: item 0: stack overflow (calls nested too deeply: runaway recursion?)")
        #expect(outcome.failure.details.hasPrefix("script traceback:\n\t..."))
        let syntax = Safety.run("x = = 1\n", name: name)
        #expect(syntax.failure.message == "\(name):1: unexpected symbol near '='")
    }

    // MARK: Error objects and handlers

    @Test(arguments: [
        ("error(setmetatable({}, {__tostring = function() while true do end end}))", "(error object is a table value)"),
        ("error(setmetatable({}, {__tostring = function() error('again') end}))", "(error object is a table value)"),
        ("error(nil)", "(error object is a nil value)"),
        ("error(print)", "(error object is a function value)"),
        ("error(coroutine.create(print))", "(error object is a thread value)"),
        ("error(true)", "(error object is a boolean value)"),
        ("error(42)", "42"),
        ("error('plain', 0)", "plain"),
    ])
    func errorObjectsOfAnyKind(call: String, expected: String) {
        let outcome = Safety.run("function transform(attributes)\n  \(call)\nend\n")
        #expect(outcome.failure.kind == .failed)
        #expect(outcome.failure.message == "hostile.lua:2: transform: item 0: \(expected)")
    }

    /// Handlers that fail, loop or recurse end like anything else.
    @Test(arguments: [
        "xpcall(error, xpcall)",
        "xpcall(error, function(m) error(m) end)",
        "xpcall(error, function(m) while true do end end)",
        "local function h(m) return select(2, xpcall(error, h)) end\n  xpcall(error, h)",
    ])
    func failingHandlersEnd(call: String) {
        let outcome = Safety.run("function transform(attributes)\n  \(call)\n  error('after')\nend\n")
        #expect(outcome.error != nil)
        #expect(Safety.isLocated(outcome.failure.message))
    }

    /// to-be-closed variables whose __close loops, normally and while an error unwinds.
    @Test(arguments: [
        "do local x <close> = setmetatable({}, {__close = function() while true do end end}) end",
        "local x <close> = setmetatable({}, {__close = function() while true do end end})\n  while true do end",
        "local x <close> = setmetatable({}, {__close = function() while true do end end})\n  error('unwinding')",
    ])
    func loopingCloseEnds(body: String) {
        let outcome = Safety.run("function transform(attributes)\n  \(body)\nend\n")
        #expect(outcome.error != nil)
        #expect(Safety.isLocated(outcome.failure.message))
    }

    // MARK: After a limit

    /// A limit discards the state at once (its memory is freed); later calls report the
    /// same limit. The next run (watch) makes a fresh effect.
    @Test func limitDiscardsTheState() throws {
        let source = """
        local keep = {}
        for i = 1, 20000 do keep[i] = { i } end
        local calls = 0
        function transform(attributes)
          calls = calls + 1
          if calls > 5 then while true do end end
        end
        """
        let effect = try LuaEffect(source: source, chunkName: "hostile.lua", limits: Safety.limits)
        var outcome = Safety.Outcome()
        try Safety.exercise(effect, into: &outcome)
        #expect(effect.memoryInUse > 1 << 20)
        #expect(throws: ScriptError.self) { try Safety.exercise(effect, into: &outcome) }
        #expect(effect.memoryInUse == 0)
        do {
            try Safety.exercise(effect, into: &outcome)
            Issue.record("a discarded state ran again")
        } catch let error as ScriptError {
            #expect(error.kind == .limit)
            #expect(error.message == "hostile.lua:6: transform: item 0: exceeded the budget of 10000000 steps (possible infinite loop)")
        }
        #expect(!effect.definesFunction("transform"))
        // A fresh effect from the same source starts clean.
        let fresh = try LuaEffect(source: source, chunkName: "hostile.lua", limits: Safety.limits)
        var again = Safety.Outcome()
        try Safety.exercise(fresh, into: &again)
        #expect(again.items.count == 5)
    }

    /// An ordinary error leaves the state usable.
    @Test func errorKeepsTheState() throws {
        let effect = try LuaEffect(source: """
        local calls = 0
        function transform(attributes)
          calls = calls + 1
          if calls == 1 then error("first call fails") end
        end
        """, chunkName: "hostile.lua")
        var outcome = Safety.Outcome()
        #expect(throws: ScriptError.self) { try Safety.exercise(effect, into: &outcome) }
        try Safety.exercise(effect, into: &outcome)
        #expect(outcome.items.count == 5)
    }

    /// The limits come from ScriptLimits: a small budget stops what the default allows.
    @Test func limitsAreConfigurable() {
        let source = "function transform(attributes) for i = 1, 100000 do end end"
        #expect(Safety.run(source).error == nil)
        let small = Safety.run(source, limits: ScriptLimits(maxSteps: 10_000, maxTime: 30))
        #expect(small.failure.message.contains("exceeded the budget of 10000 steps"))
        let tiny = Safety.run("local t = {} for i = 1, 1e6 do t[i] = i end", limits: ScriptLimits(maxMemory: 2 << 20, maxTime: 30))
        #expect(tiny.failure.message == "hostile.lua:1: exceeded the memory limit (2 MiB)")
    }
}
