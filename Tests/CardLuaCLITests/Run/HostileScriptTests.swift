import Foundation
import Testing

/// Safe to run anyone's effect script: each hostile script makes `cardlua run` exit with
/// status 1, with one clear line on standard error, and the process never dies of a
/// signal or hangs.
///
/// Most cases run the command in this process (``CLI/runInProcess(_:)``: the same entry
/// main.swift calls, the same status and lines), which costs a fraction of launching
/// `cardlua` once per script; a few of each kind still launch it (``endToEnd``), so the
/// path through a real process (its exit status, no signal, the hang guard) stays covered.
/// What Lua's `print` and `warn` write comes from C straight to the process's standard
/// error: those tests launch it too.
///
/// Limits in these tests are far apart, so that the one a test is about is the one that
/// ends it even on a loaded machine under AddressSanitizer: every test not about time
/// runs with a generous clock (`--max-time 30`), bombs with a small memory cap (8 MiB:
/// half a million budget units of allocation, far below the budget), and no assertion
/// is about wall-clock time: the harness kills a launched process after 60 s, and the
/// expected message says which limit stopped the script. So the cases need not wait for
/// one another: each has its own Lua state, temporary folder and (in process) its own
/// captured output, and they run in parallel like the rest of the suite.
@Suite struct HostileScriptTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var source: String
        /// Expected in the first line of standard error, after "PATH:LINE: ".
        var message: String
        var arguments: [String] = ["--offset", "0"]
        var testDescription: String { name }
    }

    /// A clock no test about another limit can reach.
    static let generousClock = ["--max-time", "30"]

    static let budget = "exceeded the budget of 10000000 steps"

    static let cases: [Case] = [
        // Infinite loops, at load time and in each callback.
        Case(name: "loop at load time", source: "while true do end\n", message: budget),
        Case(name: "loop in prepare", source: "function prepare(layout)\n  while true do end\nend\n",
             message: "prepare: " + budget),
        Case(name: "loop in transform", source: "function transform(attributes)\n  while true do end\nend\n",
             message: "transform: item 0: " + budget),
        Case(name: "loop in targetContentOffset",
             source: "function targetContentOffset(proposed, velocity)\n  while true do end\nend\n",
             message: "targetContentOffset: " + budget, arguments: ["--fling", "2", "--items", "200"]),
        // Catching the limit does not escape it.
        Case(name: "pcall catches the budget and loops again",
             source: "function transform(attributes)\n  while true do pcall(function() while true do end end) end\nend\n",
             message: "transform: item 0: " + budget),
        Case(name: "xpcall handler that loops",
             source: "function transform(attributes)\n  xpcall(function() while true do end end, function() while true do end end)\nend\n",
             message: "transform: item 0: " + budget),
        Case(name: "coroutine whose __close loops",
             source: """
             function transform(attributes)
               local co = coroutine.wrap(function()
                 local x <close> = setmetatable({}, { __close = function() while true do end end })
                 while true do end
               end)
               co()
             end
             """,
             message: "transform: item 0: " + budget),
        // Memory.
        Case(name: "memory bomb",
             source: "local t = {}\nwhile true do t[#t + 1] = string.rep('x', 1000) .. #t end\n",
             message: "exceeded the memory limit (8 MiB)", arguments: ["--offset", "0", "--max-memory", "8M"]),
        Case(name: "memory bomb caught by pcall",
             source: "function transform(attributes)\n  for i = 1, 1e9 do pcall(string.rep, 'x', 1e9) end\nend\n",
             message: "transform: item 0: exceeded the memory limit (8 MiB)", arguments: ["--offset", "0", "--max-memory", "8M"]),
        Case(name: "string.rep of 10^12", source: "local s = string.rep('x', 1e12)\n",
             message: "resulting string too large"),
        // Lua's own limits.
        Case(name: "deep recursion",
             source: "local function down(n) return 1 + down(n + 1) end\nfunction transform(attributes) down(1) end\n",
             message: "stack overflow (calls nested too deeply: runaway recursion?)"),
        Case(name: "recursion through gsub",
             source: "local s = ('ab'):rep(10)\nlocal function r() return (s:gsub('.', r)) end\nfunction transform(attributes) r() end\n",
             message: "C stack overflow"),
        // C work the hook cannot see.
        Case(name: "backtracking pattern",
             source: "local s = string.rep('a', 5000)\nfunction transform(attributes) string.find(s, '.-.-.-.-x') end\n",
             message: "transform: item 0: exceeded the budget of 10000000 steps (a string pattern that backtracks too much"),
        // The sandbox.
        Case(name: "io", source: "io.open('/etc/passwd')\n", message: "attempt to index a nil value (global 'io')"),
        Case(name: "os", source: "os.execute('true')\n", message: "attempt to index a nil value (global 'os')"),
        Case(name: "os.getenv", source: "local home = os.getenv('HOME')\n", message: "attempt to index a nil value (global 'os')"),
        Case(name: "load of bytecode", source: "local f = load(string.dump(function() end))\n",
             message: "attempt to call a nil value (field 'dump')"),
        Case(name: "load of text", source: "local f = load('return 1')\n", message: "attempt to call a nil value (global 'load')"),
        Case(name: "require", source: "local m = require('os')\n", message: "attempt to call a nil value (global 'require')"),
        Case(name: "dofile", source: "dofile('/etc/passwd')\n", message: "attempt to call a nil value (global 'dofile')"),
        Case(name: "bytecode script", source: "\u{1B}LuaT\u{0}\u{19}\u{93}\r\n\u{1A}\n",
             message: "attempt to load a binary chunk (mode is 't')"),
        Case(name: "__gc that loops",
             source: "setmetatable({}, { __gc = function() while true do end end })\n",
             message: "setmetatable: __gc metamethods are not allowed in cardlua scripts"),
        Case(name: "__gc that allocates",
             source: "local t = setmetatable({}, { __gc = function() local a = {} while true do a[#a + 1] = {} end end })\n",
             message: "setmetatable: __gc metamethods are not allowed in cardlua scripts"),
        // Values that are not values.
        Case(name: "transform returns a thread",
             source: "function transform(attributes)\n  return coroutine.running()\nend\n",
             message: "transform: item 0: returned a thread; expected nothing, a number (a scale), a CATransform3D or a CGAffineTransform"),
        Case(name: "transform returns a function",
             source: "function transform(attributes)\n  return print\nend\n",
             message: "transform: item 0: returned a function; expected nothing"),
        Case(name: "transform reaches for a userdata (there is none to reach)",
             source: "function transform(attributes)\n  return io.stdout\nend\n",
             message: "transform: item 0: attempt to index a nil value (global 'io')"),
        Case(name: "a field set to a thread",
             source: "function transform(attributes)\n  attributes.transform3D = coroutine.create(print)\nend\n",
             message: "transform: item 0: attributes.transform3D is a thread, expected a CATransform3D"),
        Case(name: "targetContentOffset returns a function",
             source: "function targetContentOffset(proposed, velocity)\n  return print\nend\n",
             message: "targetContentOffset: returned a function; expected a CGPoint or a number",
             arguments: ["--fling", "2", "--items", "200"]),
        Case(name: "targetContentOffset returns a thread",
             source: "function targetContentOffset(proposed, velocity)\n  return coroutine.running()\nend\n",
             message: "targetContentOffset: returned a thread; expected a CGPoint or a number",
             arguments: ["--fling", "2", "--items", "200"]),
        Case(name: "a huge target",
             source: "function targetContentOffset(proposed, velocity)\n  return 1e300\nend\n",
             message: "targetContentOffset: returned y = 1e+300, beyond the largest magnitude allowed (1e15)",
             arguments: ["--fling", "2", "--items", "200"]),
        Case(name: "error object with a __tostring that loops",
             source: "function transform(attributes)\n  error(setmetatable({}, { __tostring = function() while true do end end }))\nend\n",
             message: "transform: item 0: (error object is a table value)"),
    ]

    /// Launched as a process as well as in process: a loop (the budget of steps), a
    /// memory bomb (the capped allocator), the sandbox, a bad value, an error object; and
    /// the C-stack case only here, since how deep C may recurse depends on the thread (a
    /// test runs on a worker thread, `cardlua` on its main thread).
    static let endToEnd: Set<String> = [
        "loop in transform", "memory bomb", "io", "bytecode script", "transform returns a thread",
        "error object with a __tostring that loops", "recursion through gsub",
    ]
    static let processOnly: Set<String> = ["recursion through gsub"]

    @Test(arguments: cases.filter { !processOnly.contains($0.name) })
    func hostileScriptEndsCleanly(_ hostile: Case) throws {
        try expectCleanEnd(hostile) { CLI.runInProcess($0) }
    }

    @Test(arguments: cases.filter { endToEnd.contains($0.name) })
    func hostileScriptEndsCleanlyInItsOwnProcess(_ hostile: Case) throws {
        try expectCleanEnd(hostile) { try CLI.run($0, timeout: 60) }
    }

    /// Runs `hostile` with `run` (in process or launched): status 1, no signal, no hang,
    /// the one line first on standard error, nothing on standard output.
    private func expectCleanEnd(_ hostile: Case, _ run: ([String]) throws -> CLI.Result) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write(hostile.source, named: "hostile.lua", in: directory)
        let result = try run(["run", path] + hostile.arguments + Self.generousClock)
        #expect(!result.signalled, "died of a signal: \(result.stderr)")
        #expect(result.status == 1)
        let first = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        #expect(first.hasPrefix(path + ":"), "first line: \(first)")
        #expect(first.contains(": " + hostile.message), "first line: \(first)")
        #expect(result.stdout.isEmpty)
    }

    /// The limits come from the command line.
    @Test(arguments: [
        (["--max-steps", "5000"] + generousClock, "function transform(attributes) for i = 1, 1e6 do end end\n",
         "transform: item 0: exceeded the budget of 5000 steps"),
        // The option's old name is still accepted.
        (["--max-instructions", "4000"] + generousClock, "function transform(attributes) for i = 1, 1e6 do end end\n",
         "transform: item 0: exceeded the budget of 4000 steps"),
        (["--max-memory", "4M"] + generousClock, "local t = {} for i = 1, 1e7 do t[i] = i end\n", "exceeded the memory limit (4 MiB)"),
        // The long string is made inside the call: the watchdog holds the load to the clock
        // too, and making it there could take longer than 0.2 s on a loaded machine.
        (["--max-time", "0.2"], "function transform(attributes)\n  local s = string.rep(' ', 3e7) .. '1'\n  while true do local x = s + 0 end\nend\n",
         "transform: item 0: exceeded the time limit of 0.2 s per call"),
    ])
    func limitsFromTheCommandLine(options: [String], source: String, message: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write(source, named: "limits.lua", in: directory)
        let result = CLI.runInProcess(["run", path, "--offset", "0"] + options)
        #expect(!result.signalled)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix(path + ":"))
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// print and warn in a loop: each write is charged, so a call ends after some ten
    /// thousand lines instead of flooding standard error until the time limit.
    @Test(arguments: ["print('flood')", "warn('flood')"])
    func outputFloodEnds(call: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write("function transform(attributes)\n  while true do \(call) end\nend\n",
                                 named: "flood.lua", in: directory)
        let result = try CLI.run(["run", path, "--offset", "0", "--items", "1"] + Self.generousClock, timeout: 60)
        #expect(!result.signalled)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count < 11_000)
        #expect(lines.contains { $0.hasPrefix(path + ":2: transform: item 0: exceeded the budget of") })
    }

    @Test func badTimeLimitIsAUsageError() throws {
        let result = try CLI.run(["run", CLI.script("lol.lua"), "--max-time", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--max-time"))
    }

    /// The seeds are honest effects: far inside every limit, even much tighter ones.
    @Test(arguments: ["lol.lua", "card-scale.lua", "photo-browser.lua"])
    func seedsRunWellInsideTheLimits(script: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.json").path
        let result = CLI.runInProcess(["run", CLI.script(script), "--format", "json", "-o", output,
                                       "--max-steps", "100000", "--max-memory", "8M", "--max-time", "0.5"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    // MARK: Any input: exit 1 (or 2) with one clean line

    /// Numbers a scenario hands the host that Swift could not convert: `run` and `check`
    /// end with one line, never a signal.
    @Test(arguments: [
        "items = 1e300, steps = {}",
        "items = 2^63, steps = {}",
        "items = 5, steps = { { scrollToItem = 1e300 } }",
        "items = 5, steps = { { scrollToItem = 1, section = 1e300 } }",
        "items = 5, steps = { { scrollToItem = 1, section = math.huge } }",
        "items = 5, steps = { { scrollToItem = 1, section = 'x' } }",
        "steps = setmetatable({}, { __len = function() return 1e300 end }), items = 1e9",
    ])
    func hostileScenarioValues(fields: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write("scenarios = { s = { \(fields) } }\n", named: "scenario.lua", in: directory)
        let output = directory.appendingPathComponent("out.json").path
        for arguments in [["run", path, "--scenario", "s", "-o", output], ["check", path]] {
            let result = CLI.runInProcess(arguments + Self.generousClock.filter { _ in arguments[0] == "run" })
            #expect(!result.signalled, "\(arguments[0]) died of a signal: \(result.stderr)")
            #expect(result.status == 1, "\(arguments[0]): \(result.stderr)")
            // run reports on standard error, check on standard output.
            #expect((result.stderr + result.stdout).contains(path + ":"), "\(arguments[0]): \(result.stderr)")
        }
    }

    @Test func subnormalViewportIsAUsageError() throws {
        let result = try CLI.run(["run", CLI.script("lol.lua"), "--viewport", "414x1e-322", "--offset", "0"])
        #expect(!result.signalled)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--viewport"))
    }

    /// An error text cannot forge lines or steer the terminal; a huge one is cut.
    @Test func errorTextIsOneCleanBoundedLine() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write("""
        function transform(attributes)
          error('\\27[2J\\27]0;title\\7\\27]52;c;aGk=\\7\\ncardlua: 0 problems, exit 0' .. string.rep('x', 1e7))
        end
        """, named: "forge.lua", in: directory)
        for command in ["run", "check"] {
            let result = try CLI.run([command, path] + (command == "run" ? ["--offset", "0"] + Self.generousClock : []), timeout: 60)
            #expect(result.status == 1)
            let shown = result.stderr + result.stdout
            #expect(shown.contains("more bytes"), "\(command)")
            #expect(!shown.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 }, "\(command)")
            #expect(!shown.split(separator: "\n").contains { $0.hasPrefix("cardlua: 0 problems") }, "\(command)")
            #expect(shown.utf8.count < 20_000, "\(command): \(shown.utf8.count) bytes")
        }
    }

    /// print escapes control characters and stops after 1 MiB per run.
    @Test func printIsEscapedAndCapped() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write("""
        print('a\\nforged line\\27[2J')
        local big = string.rep('y', 100000)
        function transform(attributes) for i = 1, 60 do print(big) end end
        """, named: "loud.lua", in: directory)
        let result = try CLI.run(["run", path, "--offset", "0", "--items", "20"] + Self.generousClock, timeout: 60)
        #expect(result.status == 0, "\(result.stderr.prefix(300))")
        #expect(!result.stderr.split(separator: "\n").contains { $0.hasPrefix("forged line") })
        #expect(!result.stderr.unicodeScalars.contains { $0.value == 0x1b })
        #expect(result.stderr.utf8.count < 2 << 20, "\(result.stderr.utf8.count) bytes")
        #expect(result.stderr.contains("dropped"))
    }

    /// A NUL byte does not hide the rest of the script from `check`.
    @Test func nulByteIsNotTheEnd() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write("function transform(a) end\n\u{0}not lua\n", named: "nul.lua", in: directory)
        let result = try CLI.run(["check", path])
        #expect(result.status == 1, "\(result.stderr)")
    }

    /// Every frame within its limits, the run as a whole past --max-run-time: exit 1 with
    /// one line naming the frame.
    @Test func aRunHasATimeLimit() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write("""
        function transform(attributes)
          local x = 0
          for i = 1, 300000 do x = x + i end
        end
        """, named: "slow.lua", in: directory)
        let output = directory.appendingPathComponent("out.json").path
        let result = try CLI.run(["run", path, "-o", output, "--max-run-time", "0.5"] + Self.generousClock, timeout: 60)
        #expect(!result.signalled)
        #expect(result.status == 1, "\(result.stderr)")
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix(path + ":"), "\(first)")
        #expect(first.contains("exceeded the time limit of 0.5 s per run (at the frame at t="), "\(first)")
    }

    @Test func badRunTimeLimitIsAUsageError() throws {
        let result = try CLI.run(["run", CLI.script("lol.lua"), "--max-run-time", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--max-run-time"))
    }
}
