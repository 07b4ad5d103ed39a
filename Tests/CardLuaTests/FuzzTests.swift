import CardLayout
import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// No crash on any input (Sources/CLuaShims/README.md): random hostile scripts from a fixed seed, and
/// the counted pattern matcher against the stock `lua5.4` on random patterns.
///
/// Sized for CI (a few seconds). A longer run: `CARDLUA_FUZZ_SCRIPTS=20000
/// CARDLUA_FUZZ_SEED=<n> swift test --filter FuzzTests` (README.md, "Fuzzing").
@Suite struct FuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seed = UInt64(environment["CARDLUA_FUZZ_SEED"] ?? "") ?? 0x00CA_4D1A
    static let scriptCount = Int(environment["CARDLUA_FUZZ_SCRIPTS"] ?? "") ?? 1000
    static let patternCases = Int(environment["CARDLUA_FUZZ_PATTERNS"] ?? "") ?? 3000

    /// Every script ends (in time), every failure is one located line, a limit is
    /// reported as one, and the state never holds more than its cap.
    @Test func randomHostileScriptsNeverCrashTheHost() throws {
        var generator = HostileScriptGenerator(seed: Self.seed)
        let limits = ScriptLimits(maxSteps: 200_000, maxMemory: 16 << 20, maxTime: 0.5)
        var failures = 0, limited = 0
        for index in 0..<Self.scriptCount {
            let source = generator.script()
            var outcome = Safety.Outcome()
            do {
                let effect = try LuaEffect(source: source, chunkName: "fuzz.lua", limits: limits)
                defer { #expect(effect.memoryInUse <= limits.maxMemory) }
                try Safety.exercise(effect, items: 1 + index % 7, offset: Double(index % 5) * 37, into: &outcome)
                // A second frame on the same state: whatever the first left behind.
                try Safety.exercise(effect, items: 3, offset: 11, into: &outcome)
            } catch let error as ScriptError {
                outcome.error = error
            }
            let context: Comment = "script \(index) (seed \(Self.seed)):\n\(source)"
            if let error = outcome.error {
                failures += 1
                #expect(Safety.isLocated(error.message, name: "fuzz.lua"), "\(error.message)\n\(context)")
                if error.kind == .limit {
                    limited += 1
                    #expect(error.message.contains("exceeded the"), "\(error.message)\n\(context)")
                }
            } else {
                for item in outcome.items {
                    #expect(item.center.x.isFinite && item.center.y.isFinite, context)
                    #expect(item.alpha.isFinite, context)
                }
            }
        }
        print("fuzz: \(Self.scriptCount) scripts (seed \(Self.seed)): \(failures) failed, \(limited) of them at a limit")
        // The generator is hostile enough to hit both kinds, and not only those.
        #expect(failures > Self.scriptCount / 4)
        #expect(limited > 0)
        #expect(failures < Self.scriptCount)
    }

    /// string.find / match / gmatch / gsub (counted, our own) give exactly what the stock
    /// Lua 5.4 library gives, errors included, on random patterns and subjects. Needs the
    /// `lua5.4` interpreter (scripts/bootstrap installs it); skipped without it.
    @Test(.enabled(if: FuzzTests.stockLua != nil, "needs the lua5.4 interpreter"))
    func patternFunctionsAgreeWithStockLua() throws {
        let program = PatternDifferential.program(seed: Self.seed % 1_000_000, cases: Self.patternCases)
        // Ours: the digest comes back as the zIndex of every item.
        let script = program + "\nlocal digest, lines = run()\nfunction transform(a) a.zIndex = digest; a.alpha = lines % 1000 / 1000 end\n"
        let outcome = Safety.run(script, name: "patterns.lua",
                                 limits: ScriptLimits(maxSteps: 2_000_000_000, maxMemory: 256 << 20, maxTime: 60))
        #expect(outcome.error == nil, "\(outcome.error?.message ?? "")")
        let ours = outcome.items.first.map { ($0.zIndex, Int(($0.alpha * 1000).rounded())) }
        // Stock Lua: the same program, printing the digest.
        let stock = try Self.runStockLua(program + "\nlocal digest, lines = run()\nprint(digest, lines % 1000)\n")
        let parts = stock.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        #expect(parts.count == 2, "stock lua5.4 printed: \(stock)")
        if let ours, parts.count == 2 {
            #expect(ours.0 == parts[0] && ours.1 == parts[1],
                    "the pattern functions differ from stock Lua 5.4 (seed \(Self.seed % 1_000_000)); compare the two outputs of PatternDifferential.program with print")
        }
    }

    static let stockLua: String? = ["/usr/bin/lua5.4", "/usr/local/bin/lua5.4", "/opt/homebrew/bin/lua5.4",
                                    "/usr/local/bin/lua", "/opt/homebrew/bin/lua"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static func runStockLua(_ program: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: stockLua ?? "/usr/bin/lua5.4")
        process.arguments = ["-"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(program.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// SplitMix64: small, fast, and the same on every platform.
typealias FuzzRandom = SplitMix64

/// Random scripts built from hostile fragments: loops, deep and cyclic tables, huge
/// strings, coroutines and yields, metatables whose metamethods error or loop, odd error
/// objects, odd return values, damage to the environment, pattern and table functions
/// with odd arguments. Placed at load time and in random callbacks.
struct HostileScriptGenerator {
    var random: FuzzRandom
    init(seed: UInt64) { random = FuzzRandom(seed: seed) }

    mutating func number() -> String {
        random.pick(["0", "1", "-1", "0.5", "-0.0", "1e300", "-1e300", "1e15", "1e16", "2^53 + 1", "2^63",
                     "math.maxinteger", "math.mininteger", "0/0", "1/0", "-1/0", "1e-320", "3", "200", "1e9",
                     "\(random.below(1000))", "#tostring({})"])
    }

    mutating func value() -> String {
        switch random.below(14) {
        case 0: return number()
        case 1: return "nil"
        case 2: return random.pick(["true", "false"])
        case 3: return random.pick(["'x'", "''", "string.rep('ab', \(random.pick(["10", "1e5", "1e7", "1e9", "1e12"])))"])
        case 4: return random.pick(["print", "function() end", "function() while true do end end", "error", "coroutine.yield"])
        case 5: return "coroutine.create(function() end)"
        case 6: return "coroutine.running()"
        case 7: return "{}"
        case 8: return "cyclic"
        case 9: return random.pick(["CATransform3DIdentity", "CGAffineTransformIdentity", "CATransform3DMakeScale(\(number()), 1, 1)"])
        case 10: return "attributes or {}"
        case 11: return "setmetatable({}, \(metatable()))"
        case 12: return random.pick(["{ x = \(number()), y = \(number()) }", "CGRectMake(\(number()), 0, \(number()), 10)",
                                     "{ m11 = \(number()) }", "{ a = 1, b = 0, c = 0, d = 1, tx = \(number()), ty = 0 }"])
        default: return "deep"
        }
    }

    mutating func metamethodBody() -> String {
        random.pick(["error('mm')", "while true do end", "return", "return 1", "error(setmetatable({}, {}))",
                     "error()", "return ...", "local t = {} while true do t[#t + 1] = {} end", "coroutine.yield()",
                     "return (...)[math.random(3)]", "return tostring(...)"])
    }

    mutating func metatable() -> String {
        let names = ["__index", "__newindex", "__tostring", "__eq", "__lt", "__le", "__len", "__concat", "__call",
                     "__add", "__unm", "__close", "__name", "__metatable", "__mode", "__gc"]
        var fields: [String] = []
        for _ in 0..<(1 + random.below(3)) {
            let name = random.pick(names)
            switch name {
            case "__name": fields.append("__name = \(random.pick(["'x'", "1", "{}"]))")
            case "__metatable": fields.append("__metatable = \(value())")
            case "__mode": fields.append("__mode = 'kv'")
            case "__index", "__newindex":
                fields.append(random.chance(30) ? "\(name) = cyclic" : "\(name) = function(...) \(metamethodBody()) end")
            default: fields.append("\(name) = function(...) \(metamethodBody()) end")
            }
        }
        return "{ " + fields.joined(separator: ", ") + " }"
    }

    mutating func pattern() -> String {
        let tokens = [".", "-", "*", "+", "?", "%a", "%d", "(", ")", "()", "%b()", "%f[%w]", "[a-", "%", "%1", "a", "^", "$", ".-", "[^x]"]
        return (0..<(1 + random.below(8))).map { _ in random.pick(tokens) }.joined()
    }

    mutating func statement() -> String {
        switch random.below(32) {
        case 0: return "while true do end"
        case 1: return "for i = 1, \(random.pick(["1e3", "1e5", "1e7", "1e9"])) do end"
        case 2: return "local t = {} local c = t for i = 1, \(random.pick(["100", "1e4", "1e6"])) do c.n = {} c = c.n end"
        case 3: return "cyclic.self = cyclic cyclic[cyclic] = cyclic"
        case 4: return "local s = string.rep('x', \(random.pick(["1e3", "1e6", "1e8", "1e9", "1e12"]))) local u = s:upper()"
        case 5: return "local co = coroutine.wrap(function(...) \(simpleStatement()) coroutine.yield(1) end) co() co()"
        case 6: return "coroutine.yield(\(value()))"
        case 7: return "local ok, e = pcall(function() \(simpleStatement()) end)"
        case 8: return "error(\(value()))"
        case 9: return "local m = setmetatable({}, \(metatable())) local _ = m.x, tostring(m), m == m, #m"
        case 10: return "local m = setmetatable({}, \(metatable())) m.y = 1 local _ = m .. 'x', m < m, m()"
        case 11: return "attributes.\(random.pick(["alpha", "zIndex", "hidden", "center", "frame", "size", "transform3D", "transform", "isHidden", "bounds", "indexPath"])) = \(value())"
        case 12: return "local _ = string.\(random.pick(["find", "match", "gsub", "gmatch"]))(\(random.pick(["string.rep('ab(c)d', 50)", "string.rep('a', 3000)", "'x'", "''"])), '\(pattern())', \(random.pick(["'%0'", "print", "{}", "1", "nil", "true"])))"
        case 13: return "local _ = table.\(random.pick(["concat", "unpack", "insert", "remove", "sort", "move"]))(\(random.pick(["deep", "cyclic", "{1, 2, 3}", "setmetatable({}, \(metatable()))", "{}"])), \(number()), \(number()))"
        case 14: return "local function f(n) return 1 + f(n + 1) end f(1)"
        case 15: return "local s = ('ab'):rep(10) local function r() return (s:gsub('.', r)) end r()"
        case 16: return "local f = pcall for i = 1, \(random.pick(["10", "300"])) do local g = f f = function() return pcall(g) end end f()"
        case 17: return "setmetatable(_G, \(metatable()))"
        case 18: return random.pick(["string = nil", "setmetatable = nil", "CATransform3DIdentity = 5", "rawset = error",
                                     "table = nil", "tostring = error", "_G.transform = nil", "CATransform3DRotate = print"])
        case 19: return "local t = CATransform3DIdentity t.m34 = \(number()) attributes.transform3D = t"
        case 20: return "attributes.transform3D = CATransform3DRotate(CATransform3DIdentity, \(number()), 0, 1, 0)"
        case 21: return "local x = \(value()) .. \(value())"
        case 22: return "local x = \(value()) + \(value())"
        case 23: return "local t = {} for i = 1, \(random.pick(["10", "1e5", "1e7"])) do t[i] = {i, tostring(i)} end"
        case 24: return "local r = layout:layoutAttributesForElements(\(random.pick(["layout.collectionView.bounds", "CGRectMake(0, 0, 1e300, 1e300)", "CGRectMake(0/0, 0, 1, 1)", "nil", "{}"])))"
        case 25: return "xpcall(function() \(simpleStatement()) end, function(m) \(metamethodBody()) end)"
        case 26: return "local ok = pcall(string.rep, 'x', 1e9)"
        case 27: return "for k, v in pairs(\(random.pick(["_G", "attributes", "layout", "cyclic", "deep"]))) do local _ = tostring(v) end"
        case 28: return "local x <close> = setmetatable({}, { __close = function() \(metamethodBody()) end })"
        case 29: return "math.randomseed(\(number()))"
        case 30: return "local _ = utf8.char(\(number())), tonumber(\(value())), select('#', table.unpack(\(random.pick(["{}", "deep", "{1, 2}"]))))"
        default: return "print = nil"
        }
    }

    /// A statement that cannot itself contain a nested fragment (no unbounded recursion
    /// in the generator).
    mutating func simpleStatement() -> String {
        random.pick(["while true do end", "error(\(number()))", "coroutine.yield(1)", "local t = {} while true do t[#t + 1] = 1 end",
                     "return", "string.find(string.rep('a', 5000), '.-.-.-.-x')", "local x = nil + 1", "error(setmetatable({}, {}))"])
    }

    mutating func body(_ count: Int) -> String {
        (0..<count).map { _ in "  " + statement() }.joined(separator: "\n")
    }

    mutating func script() -> String {
        var lines = [
            "print = function() end",  // keep the test log quiet
            "local cyclic = {} cyclic.center = cyclic cyclic.x = cyclic",
            "local deep = {} do local c = deep for i = 1, 50 do c[1] = {} c = c[1] end end",
            "local attributes, layout",
        ]
        if random.chance(25) { lines.append(body(1 + random.below(2))) }
        if random.chance(40) { lines.append("function prepare(l)\n  layout = l\n\(body(1 + random.below(2)))\nend") }
        if random.chance(85) {
            lines.append("function transform(a, l)\n  attributes, layout = a, l\n\(body(1 + random.below(3)))\n  return \(random.chance(50) ? value() : "nil")\nend")
        }
        if random.chance(40) {
            lines.append("function targetContentOffset(p, v, l)\n  layout = l\n\(body(random.below(2)))\n  return \(random.chance(50) ? value() : "p")\nend")
        }
        if random.chance(5) {  // not even Lua
            lines.append(random.pick(["function (", "end end", "local = 1", "x = = 2", "\u{1B}Lua", "goto nowhere", "return return"]))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A Lua program that runs string.find/match/gmatch/gsub on random subjects and
/// patterns (its own generator, seeded) and returns a digest of every result and error
/// message, and the number of results. The same program runs in the sandbox and in the
/// stock interpreter.
enum PatternDifferential {
    static func program(seed: UInt64, cases: Int) -> String {
        #"""
        local state = \#(seed) + 1
        local function rnd(n) state = (state * 1103515245 + 12345) % 2147483648; return state % n + 1 end
        local ptoks = { "a", "b", "c", "1", " ", ".", "%a", "%d", "%s", "%w", "%p", "%A", "%S", "%l", "%u", "%x", "%c", "%g",
          "[ab]", "[^a]", "[a-c]", "[%d]", "[%a_]", "[]]", "[^]]", "[a-]", "[-a]", "(", ")", "()", "%1", "%2", "%0", "%b()",
          "%bab", "%f[%w]", "%f[%W]", "%f[a]", "%.", "%%", "%(", "*", "+", "-", "?", "$", "^", "%", "[", "]", "%z", "\0",
          "x", "%b", "%f" }
        local stoks = { "a", "b", "c", "1", "2", " ", "(", ")", "x", ".", "%", "A", "Z", "\0", "\n", "_", "-", "]" }
        local function pattern()
          local t = {}
          if rnd(4) == 1 then t[#t + 1] = "^" end
          for _ = 1, rnd(7) - 1 do t[#t + 1] = ptoks[rnd(#ptoks)] end
          if rnd(5) == 1 then t[#t + 1] = "$" end
          return table.concat(t)
        end
        local function subject()
          local t = {}
          for _ = 1, rnd(14) - 1 do t[#t + 1] = stoks[rnd(#stoks)] end
          return table.concat(t)
        end
        local function show(...)
          local t = {}
          for i = 1, select("#", ...) do
            local v = select(i, ...)
            t[i] = type(v) == "string" and string.format("%q", v) or tostring(v)
          end
          return table.concat(t, ",")
        end
        local function try(f, ...)
          local r = table.pack(pcall(f, ...))
          if not r[1] then return "ERR " .. tostring(r[2]):gsub("^[^:]*:%d+: ", "") end
          return show(table.unpack(r, 2, r.n))
        end
        local repls = { "<%0>", "%1", "%2", "x", "%%", "%", "%x", 7 }
        function run()
          local digest, lines = 0, 0
          local function add(line)
            lines = lines + 1
            for i = 1, #line do digest = (digest * 31 + line:byte(i)) % 2147483647 end
          end
          for i = 1, \#(cases) do
            local s, p = subject(), pattern()
            local init = ({ nil, 1, 2, -1, -3, 0, 20 })[rnd(7)]
            add(i .. " find " .. try(string.find, s, p, init))
            add(i .. " plain " .. try(string.find, s, p, init, true))
            add(i .. " match " .. try(string.match, s, p, init))
            add(i .. " gmatch " .. try(function()
              local acc, k = {}, 0
              for a, b in string.gmatch(s, p, init) do k = k + 1; acc[#acc + 1] = show(a, b); if k > 50 then break end end
              return table.concat(acc, ";")
            end))
            add(i .. " gsub " .. try(string.gsub, s, p, repls[rnd(#repls)], ({ nil, 1, 2, 0 })[rnd(4)]))
            add(i .. " gsubf " .. try(string.gsub, s, p, function(a, b) return b and tostring(b) or (a == "a" and false or "[" .. tostring(a) .. "]") end))
            add(i .. " gsubt " .. try(string.gsub, s, p, { a = "A", b = false, ["1"] = 9 }))
          end
          return digest, lines
        end
        """#
    }
}
