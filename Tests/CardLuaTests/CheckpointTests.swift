import CLua
import CLuaShims
import CardLayout
@testable import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// The budget's checkpoints (Sources/CLuaShims/checkpoints.c): the text they are placed
/// in, and that every way Lua code can run on and on still meets one, in the script and
/// in the prelude, so that the count hook can stay off.
@Suite struct CheckpointTests {
    /// The instrumented text of `source`, or nil when it is left as it is.
    static func instrumented(_ source: String) -> String? {
        var length = 0
        let bytes = Array(source.utf8)
        guard let out = bytes.withUnsafeBufferPointer({ buffer in
            buffer.withMemoryRebound(to: CChar.self) { cardlua_instrument($0.baseAddress, $0.count, &length) }
        }) else { return nil }
        defer { free(out) }
        return String(decoding: UnsafeRawBufferPointer(start: out, count: length), as: UTF8.self)
    }

    /// The checkpoints of an instrumented text, by their step counts, in order.
    static func steps(_ text: String) -> [Int] {
        let pattern = try! Regex(#"__cardlua_steps=__cardlua_steps-(\d+) "#, as: (Substring, Substring).self)
        return text.matches(of: pattern).map { Int($0.output.1)! }
    }

    /// The text with its prefix and its checkpoints taken out again.
    static func stripped(_ text: String) -> String {
        let prefix = "local __cardlua_steps,__cardlua_budget=0,__cardlua_checkpoint;_ENV.__cardlua_checkpoint=nil;"
        let checkpoint = try! Regex(
            #" __cardlua_steps=__cardlua_steps-\d+ if __cardlua_steps<0 then __cardlua_steps=__cardlua_budget\(__cardlua_steps\)end "#)
        #expect(text.hasPrefix(prefix))
        return String(text.dropFirst(prefix.count)).replacing(checkpoint, with: "")
    }

    // MARK: Where they go

    /// One at each function body, loop body and `goto`, none in strings or comments; each
    /// guards half the tokens of its own code (nested loops and functions have their own).
    @Test func placedAtLoopsFunctionsAndJumps() throws {
        let source = """
        -- while true do end (a comment)
        --[==[ for i = 1, 2 do end ]==]
        local s = "repeat until x" .. 'function() end' .. [[do goto x end]]
        function transform(attributes, layout)
          local x = 0
          for i = 1, 10 do x = x + i end
          while x > 0 do
            x = x - 1
          end
          repeat x = x + 1 until x > 3
          ::again::
          if x < 5 then x = x + 1 goto again end
          attributes.alpha = 1
        end
        """
        let text = try #require(Self.instrumented(source))
        // Counted by hand from the source above (a block's closing word is its own; `::`
        // counts as two): transform's own tokens, outside its loop bodies, are 44 (`local
        // x = 0` 4, `for … do` 7, `while … do` 5, `repeat` 1, `x > 3` 3, `::again::` 5,
        // the `if` line 13, `attributes.alpha = 1` 5, `end` 1); each loop body 6
        // (`x = x + i end`, `x = x - 1 end`, `x = x + 1 until`); a goto 2.
        #expect(Self.steps(text) == [22, 3, 3, 3, 1])
        #expect(Self.stripped(text) == source)
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count
                == source.split(separator: "\n", omittingEmptySubsequences: false).count)
    }

    /// A function's checkpoint goes after its parameters, whatever its name's form.
    @Test(arguments: ["function a.b:c(x, ...)", "local function f(x)", "local f = function(x)", "function f()"])
    func functionForms(header: String) throws {
        let text = try #require(Self.instrumented("\(header) return x end"))
        #expect(text.contains(") __cardlua_steps=__cardlua_steps-1 "))
        #expect(Self.steps(text).count == 1)
    }

    /// A text that names a checkpoint's variable, or whose blocks do not balance, is left
    /// alone (it then runs under the count hook, or fails to compile as it is).
    @Test(arguments: ["local __cardlua_steps = 1", "x = __cardlua_budget", "print(__cardlua_checkpoint)",
                      "function f( end", "while true do", "repeat x = 1 end", "end"])
    func leftAlone(source: String) {
        #expect(Self.instrumented(source) == nil)
    }

    // MARK: What they stop

    /// Code that runs without end in each way Lua allows: each ends at the budget, at the
    /// line of the checkpoint it kept meeting.
    @Test(arguments: [
        ("function transform(attributes)\n  while true do end\nend\n", 2),
        ("function transform(attributes)\n  local i = 0\n  ::top:: i = i + 1\n  goto top\nend\n", 4),
        // No loop at all: a call tree 2⁶⁰ calls wide.
        ("local function f(n) if n == 0 then return end f(n - 1) f(n - 1) end\nfunction transform(attributes)\n  f(60)\nend\n", 1),
        ("function transform(attributes)\n  repeat until false\nend\n", 2),
    ])
    func endlessCodeEndsAtTheBudget(source: String, line: Int) {
        let outcome = Safety.run(source, limits: ScriptLimits(maxSteps: 1_000_000, maxTime: 30))
        #expect(outcome.failure.kind == .limit)
        #expect(outcome.failure.message.hasPrefix("hostile.lua:\(line): transform: item 0: exceeded the budget of 1000000 steps"),
                "\(outcome.failure.message)")
    }

    /// The comment and string forms the scanner once read differently from Lua's lexer
    /// (llex.c), each before an endless loop at load time: every one ends at the budget,
    /// at the loop's line as Lua counts lines (CR LF and LF CR are one line end each; CR
    /// alone and LF alone one each; a backslash or `\z` in a string does not hide the line
    /// ends it skips from the count). The lines are counted by hand from the texts.
    @Test(arguments: [
        ("-- x\rwhile true do end", 2),
        ("-- x\n\rwhile true do end", 2),
        ("-- x\r\nwhile true do end", 2),
        ("-- x\r\rwhile true do end", 3),
        ("--[ x\rwhile true do end", 2),
        ("--[== x\rwhile true do end", 2),
        ("--[[ a\r\n b ]]\rwhile true do end", 3),
        ("--[=[\r]]\r]=]while true do end", 3),
        ("--[==[ ]=] \n\r ]==] while true do end", 2),
        ("--[===[\r\n\r\n]===]repeat until false", 3),
        ("local s = \"a\\z\n  \" while true do end", 2),
        ("local s = 'a\\z \r\n\t \r  ' while true do end", 3),
        ("local s = \"a\\\r\n\" while true do end", 2),
        ("local s = \"a\\\n\r\" while true do end", 2),
        ("local s = \"a\\\r\" while true do end", 2),
        ("local s = \"a\\\r\\\r\" while true do end", 3),
        ("local s = [[\r]] while true do end", 2),
        ("local s = [=[\r\n]]\r]=] while true do end", 3),
        ("local s = [==[ ]=] ]==] while true do end", 1),
        ("local s = [===[\n\r]===] for i = 1, math.huge do end", 2),
        ("local x = 0xe-1 while x do end", 1),
    ])
    func loopsAfterEveryLineEndFormEndAtTheBudget(source: String, line: Int) {
        let outcome = Safety.run(source + "\n", limits: ScriptLimits(maxSteps: 1_000_000, maxTime: 30))
        #expect(outcome.failure.kind == .limit)
        #expect(outcome.failure.message.hasPrefix("hostile.lua:\(line): exceeded the budget of 1000000 steps"),
                "\(outcome.failure.message)")
    }

    /// The checkpoints go where Lua reads code, whatever the line ends: the hostile forms
    /// get a checkpoint in their loop, and none goes into a string or a comment.
    @Test(arguments: ["-- x\rwhile true do end", "local s = \"a\\z\n  \" while true do end",
                      "local s = \"a\\\r\n\" while true do end", "--[==[\r]=]\r]==]while true do end",
                      "local s = \"while true do end\\\n\r while true do end\"", "--[ \n\rwhile true do end"])
    func hostileFormsAreScannedAsLuaReadsThem(source: String) throws {
        let text = try #require(Self.instrumented(source))
        #expect(Self.steps(text).count == (source.hasPrefix("local s = \"while") ? 0 : 1))
        #expect(Self.stripped(text) == source)
    }

    /// Texts Lua's lexer refuses are left alone (they do not compile: loaded as they are,
    /// their own syntax error is reported), and so is a first line starting with `#`,
    /// which Lua's lexer refuses too: the loader skips that line before the scanner reads
    /// the text (below).
    @Test(arguments: ["local s = \"a\rwhile true do end\"", "local s = 'a", "x = [=", "x = [==[ ]=]",
                      "--[[ never closed", "x = 1_", "x = 3do", "x = \"\\q\"", "#!/usr/bin/env lua\nx = 1"])
    func lexicalErrorsAreLeftAlone(source: String) {
        #expect(Self.instrumented(source) == nil)
    }

    /// A first line starting with `#` is skipped, as the `lua` command skips it: up to the
    /// first line feed (a CR alone does not end it), every line keeping its number; the
    /// loop after it gets its checkpoint and ends at the budget on its own line.
    @Test(arguments: [
        ("#!/usr/bin/env lua\nwhile true do end", 2),
        ("#!/usr/bin/env lua\r\n\nlocal n = 0 repeat n = n + 1 until false", 3),
        ("# a comment line\rwhile true do end\nwhile true do end", 2),
    ])
    func aShebangLineIsSkippedAsLuaSkipsIt(source: String, line: Int) {
        let outcome = Safety.run(source + "\n", limits: ScriptLimits(maxSteps: 1_000_000, maxTime: 30))
        #expect(outcome.failure.kind == .limit)
        #expect(outcome.failure.message.hasPrefix("hostile.lua:\(line): exceeded the budget of 1000000 steps"),
                "\(outcome.failure.message)")
    }

    /// A loop in the prelude driven by the script's data, with no script code in it: a
    /// scenario step whose `pairs` never ends (its iterator is a library function). The
    /// prelude's own checkpoints stop it.
    @Test func preludeLoopOverScriptDataEnds() throws {
        let source = """
        local endless = setmetatable({}, {__pairs = function() return string.lower, "duration", nil end})
        scenarios = { spin = { steps = { endless } } }
        function transform(attributes) end
        """
        let effect = try LuaEffect(source: source, chunkName: "hostile.lua",
                                   limits: ScriptLimits(maxSteps: 1_000_000, maxTime: 30))
        do {
            _ = try effect.scenario(named: "spin", defaults: Scenario(name: "d", steps: []))
            Issue.record("the scenario was read")
        } catch {
            #expect(error.kind == .limit)
            #expect(error.message.contains("exceeded the budget of 1000000 steps"), "\(error.message)")
        }
    }

    /// A script the checkpoints cannot go into runs under the count hook instead, with the
    /// same limit: one that names a checkpoint's variable, and one whose main chunk has
    /// room for no more locals (Lua allows 200).
    @Test(arguments: [
        "local __cardlua_steps = 1\n",
        (1...199).map { "local v\($0) = \($0)\n" }.joined(),
    ])
    func uninstrumentedScriptsStillEnd(prefix: String) {
        let lines = prefix.split(separator: "\n").count
        let source = prefix + "function transform(attributes)\n  while true do end\nend\n"
        let outcome = Safety.run(source, limits: ScriptLimits(maxSteps: 1_000_000, maxTime: 30))
        #expect(outcome.failure.kind == .limit)
        #expect(outcome.failure.message.hasPrefix("hostile.lua:\(lines + 2): transform: item 0: exceeded the budget of"),
                "\(outcome.failure.message)")
    }

    /// The seeds run with the count hook off from their load on, through their frames;
    /// a script without checkpoints runs under it; and so does one past half the memory
    /// cap, where the hook notes lines for memory errors.
    @Test func theHookIsOffOnCheckpoints() throws {
        let lol = try LuaEffect(source: String(contentsOfFile: TestSupport.script("lol.lua"), encoding: .utf8),
                                chunkName: "lol.lua")
        #expect(cardlua_counts_on_checkpoints(lol.host) == 1)
        _ = try Safety.frame(lol, items: 20)
        #expect(cardlua_counts_on_checkpoints(lol.host) == 1)

        let named = try LuaEffect(source: "local __cardlua_steps = 1\nfunction transform(attributes) end", chunkName: "named.lua")
        #expect(cardlua_counts_on_checkpoints(named.host) == 0)

        let growing = try LuaEffect(source: """
        local keep = {}
        function transform(attributes)
          for i = 1, 60000 do keep[#keep + 1] = { i } end
        end
        """, chunkName: "growing.lua", limits: ScriptLimits(maxMemory: 8 << 20, maxTime: 30))
        #expect(cardlua_counts_on_checkpoints(growing.host) == 1)
        _ = try Safety.frame(growing, items: 1)
        #expect(growing.memoryInUse > 4 << 20)
        #expect(cardlua_counts_on_checkpoints(growing.host) == 0)
    }

    /// The prelude compiled as the build compiles it (`checkpoints`) or as `luac` would.
    static func compiledPrelude(checkpoints: Bool) throws -> [UInt8] {
        var text = Array(CardLua.preludeSource.utf8)
        if checkpoints { text = Array(try #require(Self.instrumented(CardLua.preludeSource)).utf8) }
        let L = try #require(luaL_newstate())
        defer { lua_close(L) }
        let status = text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { luaL_loadbufferx(L, $0.baseAddress, $0.count, "=cardlua prelude", "t") }
        }
        #expect(status == LUA_OK)
        var chunk: [UInt8] = []
        let writer: lua_Writer = { _, data, size, context in
            context!.assumingMemoryBound(to: [UInt8].self).pointee
                .append(contentsOf: UnsafeRawBufferPointer(start: data, count: size))
            return 0
        }
        _ = withUnsafeMutablePointer(to: &chunk) { lua_dump(L, writer, $0, 0) }
        return chunk
    }

    /// With checkpoints in the prelude, the state counts on them from its set-up on (the
    /// prelude's first checkpoint turns the hook off). An embedder's prelude compiled
    /// without them (as `luac` would) keeps the hook, and scripts are then loaded as they
    /// are. Either way an endless loop ends at the budget, and after it the hook is on.
    @Test(arguments: [true, false])
    func theStateCountsAsItsPreludeWasCompiled(checkpoints: Bool) throws {
        let chunk = try Self.compiledPrelude(checkpoints: checkpoints)
        var failure: UnsafePointer<CChar>?
        let host = try #require(chunk.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cardlua_open($0.baseAddress, $0.count, 64 << 20, 100_000, nil, &failure) }
        })
        defer { cardlua_close(host) }
        #expect(cardlua_counts_on_checkpoints(host) == (checkpoints ? 1 : 0))
        let script = "local n = 0\nwhile true do n = n + 1 end\n"
        let loaded = cardlua_load_script(host, script, script.utf8.count, "plain.lua")
        #expect(loaded != CARDLUA_OK)
        #expect(cardlua_counts_on_checkpoints(host) == 0)
        #expect(String(cString: cardlua_message(host)).contains("exceeded the budget of 100000 steps"))
    }

    /// A syntax error is reported as the text has it, not as the instrumented text would.
    @Test func syntaxErrorsAreTheTexts() {
        let outcome = Safety.run("function transform(attributes)\n  for i = 1, 2 do\nend\n")
        #expect(outcome.failure.message == "hostile.lua:4: 'end' expected (to close 'function' at line 1) near <eof>",
                "\(outcome.failure.message)")
    }
}
