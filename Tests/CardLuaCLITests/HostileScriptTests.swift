import Foundation
import Testing

/// Safe to run anyone's effect script, end to end: each hostile script makes
/// `cardlua run` exit with status 1 in under 2 seconds, with one clear line on standard
/// error, and the process never dies of a signal.
@Suite(.serialized) struct HostileScriptTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var source: String
        /// Expected in the first line of standard error, after "PATH:LINE: ".
        var message: String
        var arguments: [String] = ["--offset", "0"]
        var testDescription: String { name }
    }

    static let budget = "exceeded the instruction budget of 10000000 instructions"

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
             message: "exceeded the memory limit (64 MiB)"),
        Case(name: "memory bomb caught by pcall",
             source: "function transform(attributes)\n  for i = 1, 1e9 do pcall(string.rep, 'x', 1e9) end\nend\n",
             message: "transform: item 0: exceeded the memory limit (64 MiB)"),
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
             message: "transform: item 0: exceeded the instruction budget of 10000000 instructions (a string pattern that backtracks too much"),
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

    @Test(arguments: cases)
    func hostileScriptEndsCleanly(_ hostile: Case) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write(hostile.source, named: "hostile.lua", in: directory)
        let start = Date()
        let result = try CLI.run(["run", path] + hostile.arguments, timeout: 20)
        let seconds = Date().timeIntervalSince(start)
        #expect(!result.signalled, "died of a signal: \(result.stderr)")
        #expect(result.status == 1)
        #expect(seconds < 2, "took \(seconds) s")
        let first = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        #expect(first.hasPrefix(path + ":"), "first line: \(first)")
        #expect(first.contains(": " + hostile.message), "first line: \(first)")
        #expect(result.stdout.isEmpty)
    }

    /// The limits come from the command line.
    @Test(arguments: [
        (["--max-instructions", "5000"], "function transform(attributes) for i = 1, 1e6 do end end\n",
         "transform: item 0: exceeded the instruction budget of 5000 instructions"),
        (["--max-memory", "4M"], "local t = {} for i = 1, 1e7 do t[i] = i end\n", "exceeded the memory limit (4 MiB)"),
        (["--max-time", "0.2"], "local s = string.rep(' ', 3e7) .. '1'\nfunction transform(attributes) while true do local x = s + 0 end end\n",
         "transform: item 0: exceeded the time limit of 0.2 s per call"),
    ])
    func limitsFromTheCommandLine(options: [String], source: String, message: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write(source, named: "limits.lua", in: directory)
        let result = try CLI.run(["run", path, "--offset", "0"] + options, timeout: 20)
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
        let start = Date()
        let result = try CLI.run(["run", path, "--offset", "0", "--items", "1"], timeout: 20)
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(!result.signalled)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count < 11_000)
        #expect(lines.contains { $0.hasPrefix(path + ":2: transform: item 0: exceeded the instruction budget") })
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
        let result = try CLI.run(["run", CLI.script(script), "--format", "json", "-o", output,
                                  "--max-instructions", "100000", "--max-memory", "8M", "--max-time", "0.5"])
        #expect(result.status == 0, "\(result.stderr)")
    }
}
