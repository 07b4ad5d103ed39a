import CLua
import CLuaShims
@testable import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// The checkpoints checked against Lua itself: a corpus of texts is instrumented
/// (`cardlua_instrument`), and the stock compiler's listing of each instrumented chunk
/// (`luac5.4 -l -l -p`) must show that no code can run on and on without meeting one.
///
/// The check, on the listing of every function of every instrumented text:
/// - **Markers.** A checkpoint starts with `__cardlua_steps = __cardlua_steps - N`. In a
///   text's main chunk `__cardlua_steps` is local 0 (register 0), so the decrement is an
///   `ADDI`/`ADDK`/`SUBK` whose target and operand are both register 0; in any other
///   function it is an upvalue, so the decrement is the `SETUPVAL` of the upvalue
///   `__cardlua_steps` that stores the result of the subtraction (the instruction before
///   it is the subtraction's `MMBINI`/`MMBINK`; the store after the budget function's
///   `CALL`, taken only when the counter ran out, does not count). Nothing else can write
///   that variable: a text that names it is left alone.
/// - **Every backward jump is guarded.** A `JMP` whose target (luac's `to N`) is at or
///   before it, a `FORLOOP` and a `TFORLOOP`: the instructions from the target to the
///   jump, the code each round runs again, hold a marker. (Loops and backward `goto`s are
///   the only backward jumps Lua emits.)
/// - **Every function entry is guarded.** In each function other than a main chunk, the
///   first marker is the fourth instruction (the fifth after a `VARARGPREP`): only the
///   checkpoint's own `GETUPVAL`, subtraction and `MMBIN*` come before it, so a call runs
///   the checkpoint before anything of its body.
/// - **Nothing goes into a string.** No string constant of an instrumented chunk holds
///   `__cardlua_steps` (a checkpoint inserted where Lua reads a string or a comment).
/// - **Lines are the text's.** The instrumented text without its prefix and checkpoints
///   is the text, byte for byte, and a checkpoint holds no line-end byte.
///
/// The corpus: the shipped scripts, the prelude, hostile fixtures of the tests (with the
/// comment and string forms the scanner once misread), and a few thousand scripts
/// generated from a fixed seed that mix every kind of comment, string, long bracket and
/// numeral with all four line ends (LF, CR, CR LF, LF CR) around loops, functions and
/// `goto`s. Without `luac5.4` (Debian's `lua5.4`, which `scripts/bootstrap --test`
/// installs) the suite is skipped, and under `CI=true` it fails instead.
@Suite(.enabled(if: LuacTool.path != nil || Binutils.underCI, "needs luac5.4 (Debian's lua5.4); not installed"))
struct CheckpointOracleTests {
    /// One text of the corpus: where it comes from, and its bytes.
    struct Text {
        var name: String
        var bytes: [UInt8]
    }

    // MARK: The corpus

    /// Hostile texts: the forms of comments and strings around loops that the scanner
    /// once misread, and the loop forms of the limit tests.
    static let hostile: [String] = [
        "-- x\rwhile true do end\n",
        "-- x\n\rwhile true do end\n",
        "-- x\r\nwhile true do end\n",
        "--[ x\rwhile true do end\n",
        "--[== x\rwhile true do end\n",
        "--[==[ ]] ]=] \r ]==]while true do end\n",
        "local s = \"a\\z\n  \" while true do end\n",
        "local s = \"a\\z \r\n\t\r \" while true do end\n",
        "local s = \"a\\\r\n\" while true do end\n",
        "local s = \"a\\\n\r\" while true do end\n",
        "local s = \"a\\\r\" while true do end\n",
        "local s = 'a\\\n' while true do end\n",
        "local s = \"\\x41\\u{7FF}\\065\\\"\\\\\" while true do end\n",
        "local s = [=[\r]] while true do end]=] while true do end\n",
        "local s = [===[\r\n]==]]===] repeat until false\n",
        "local x = 0xe-1 while x do end\n",
        "local x = 0x.8p-1 + 1e+3 + .5 + 3. for i = 1, x do end\n",
        "local t = { [ [[while]] ] = function() while true do end end }\n",
        "function a.b:c(x, ...) return (function() for k in pairs(x) do end end)() end\n",
        "for i = (function() while false do end return 1 end)(), 2 do end\n",
        "while (function() do end return true end)() do end\n",
        "do ::top:: goto top end\n",
        "::a:: do goto a end\n",
        "function transform(attributes)\n  while true do end\nend\n",
        "function transform(attributes)\n  local i = 0\n  ::top:: i = i + 1\n  goto top\nend\n",
        "local function f(n) if n == 0 then return end f(n - 1) f(n - 1) end\nfunction transform(attributes)\n  f(60)\nend\n",
        "function transform(attributes)\n  repeat until false\nend\n",
        "while true do pcall(function() while true do end end) end",
        "local co = coroutine.wrap(function() while true do pcall(function() while true do end end); coroutine.yield() end end)\n  while true do pcall(co) end",
    ]

    /// The path, from the package root, of the file `name` in `folder` or in a folder of it
    /// (the CLI's tests are in folders by command).
    static func testFile(named name: String, under folder: String) -> String? {
        let root = TestSupport.packageRoot.appendingPathComponent(folder)
        guard let paths = FileManager.default.enumerator(atPath: root.path) else { return nil }
        for case let path as String in paths where (path as NSString).lastPathComponent == name {
            return folder + "/" + path
        }
        return nil
    }

    /// The `"""` blocks of a test file that hold no escape or interpolation: its inline Lua
    /// fixtures (some are not Lua at all; those that do not compile are left out).
    static func inlineFixtures(_ file: String) throws -> [String] {
        let url = TestSupport.packageRoot.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        let parts = text.components(separatedBy: "\"\"\"")
        var found: [String] = []
        for index in stride(from: 1, to: parts.count, by: 2) {
            let block = parts[index]
            guard !block.contains("\\") else { continue }
            var lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.count >= 2 else { continue }
            lines.removeFirst()  // the rest of the opening line
            let indent = lines.last!.prefix(while: { $0 == " " }).count
            lines.removeLast()   // the closing line's indentation
            found.append(lines.map { String($0.dropFirst(min(indent, $0.prefix(while: { $0 == " " }).count))) }
                .joined(separator: "\n") + "\n")
        }
        return found
    }

    static func corpus() throws -> [Text] {
        var texts: [Text] = []
        let root = TestSupport.packageRoot
        for folder in ["scripts", "scripts/effects", "examples"] {
            let directory = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".lua") {
                let data = try Data(contentsOf: directory.appendingPathComponent(name))
                texts.append(Text(name: "\(folder)/\(name)", bytes: Array(data)))
            }
        }
        #expect(texts.count >= 20, "the shipped scripts were not found")
        texts.append(Text(name: "prelude", bytes: Array(CardLua.preludeSource.utf8)))
        for (index, source) in hostile.enumerated() {
            texts.append(Text(name: "hostile-\(index)", bytes: Array(source.utf8)))
        }
        for file in ["CheckpointTests", "LimitTests", "HardeningTests", "FuzzTests"] {
            for (index, source) in try inlineFixtures("Tests/CardLuaTests/\(file).swift").enumerated() {
                texts.append(Text(name: "\(file)-\(index)", bytes: Array(source.utf8)))
            }
        }
        let hostile = try #require(testFile(named: "HostileScriptTests.swift", under: "Tests/CardLuaCLITests"))
        for (index, source) in try inlineFixtures(hostile).enumerated() {
            texts.append(Text(name: "HostileScriptTests-\(index)", bytes: Array(source.utf8)))
        }
        var generator = ScriptGenerator(seed: 0x5CA7_7E55)
        for index in 0..<3000 {
            texts.append(Text(name: "generated-\(index)", bytes: Array(generator.script().utf8)))
        }
        return texts
    }

    // MARK: The check

    /// What the listing says of one function.
    struct Function {
        var source: String
        var isMain: Bool
        /// Its instructions: the pc, the opcode, the first two operands (of the opcodes
        /// the check reads) and a jump's target (luac's `to N`).
        var code: [(pc: Int, op: String, a: Int, b: Int, target: Int?)] = []
        var stepsInAString = false
        var upvalues: [Int: String] = [:]
    }

    /// The whole number at the start of `bytes` (a sign allowed), or nil.
    static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0, negative = false, digits = 0
        for (offset, byte) in bytes.enumerated() {
            if offset == 0 && byte == UInt8(ascii: "-") { negative = true; continue }
            guard byte >= 0x30 && byte <= 0x39 else { break }
            value = value * 10 + Int(byte - 0x30)
            digits += 1
        }
        return digits > 0 ? (negative ? -value : value) : nil
    }

    /// The functions of a `luac -l -l` listing, in order (read as bytes: it is long).
    static func functions(in listing: String) -> [Function] {
        var result: [Function] = []
        enum Section { case code, constants, other, upvalues }
        var section = Section.other
        let tab = UInt8(ascii: "\t"), space = UInt8(ascii: " ")
        for line in Array(listing.utf8).split(separator: UInt8(ascii: "\n")) {
            if line.starts(with: "main <".utf8) || line.starts(with: "function <".utf8) {
                let open = line.firstIndex(of: UInt8(ascii: "<"))! + 1
                let close = line[open...].firstIndex(of: UInt8(ascii: ">")) ?? line.endIndex
                let colon = line[open..<close].lastIndex(of: UInt8(ascii: ":")) ?? close
                result.append(Function(source: String(decoding: line[open..<colon], as: UTF8.self),
                                       isMain: line.first == UInt8(ascii: "m")))
                section = .code
                continue
            }
            if line.starts(with: "constants (".utf8) { section = .constants; continue }
            if line.starts(with: "locals (".utf8) { section = .other; continue }
            if line.starts(with: "upvalues (".utf8) { section = .upvalues; continue }
            guard !result.isEmpty, line.first == tab else { continue }
            let fields = line.split(separator: tab)
            switch section {
            case .code where fields.count >= 3:
                // "\t1\t[2]\tADDI     \t0 0 -3", then "\t; to 19" for a jump
                let op = String(decoding: fields[2].prefix { $0 != space }, as: UTF8.self)
                var a = -1, b = -1
                var target: Int?
                if fields.count > 3, ["ADDI", "ADDK", "SUBK", "SETUPVAL"].contains(op) {
                    let operands = fields[3].split(separator: space)
                    a = operands.count > 0 ? number(operands[0]) ?? -1 : -1
                    b = operands.count > 1 ? number(operands[1]) ?? -1 : -1
                }
                if fields.count > 4, ["JMP", "FORLOOP", "TFORLOOP"].contains(op), fields[4].starts(with: "; to ".utf8) {
                    target = number(fields[4].dropFirst(5))
                }
                result[result.count - 1].code.append((number(fields[0]) ?? 0, op, a, b, target))
            case .constants:
                if String(decoding: line, as: UTF8.self).contains(steps) { result[result.count - 1].stepsInAString = true }
            case .upvalues where fields.count >= 2:
                if let index = number(fields[0]) { result[result.count - 1].upvalues[index] = String(decoding: fields[1], as: UTF8.self) }
            default:
                break
            }
        }
        return result
    }

    static let steps = "__cardlua_steps"

    /// The positions (pc) of the function's checkpoint markers (see the suite's comment).
    static func markers(_ f: Function) -> [Int] {
        var found: [Int] = []
        if f.isMain {
            for ins in f.code where ["ADDI", "ADDK", "SUBK"].contains(ins.op) && ins.a == 0 && ins.b == 0 {
                found.append(ins.pc)
            }
        } else if let upvalue = f.upvalues.first(where: { $0.value == steps })?.key {
            let mmbin = Set(f.code.filter { $0.op.hasPrefix("MMBIN") }.map(\.pc))
            for ins in f.code where ins.op == "SETUPVAL" && ins.b == upvalue && mmbin.contains(ins.pc - 1) {
                found.append(ins.pc)
            }
        }
        return found
    }

    /// What is wrong with the listing of one text's functions (empty: nothing).
    static func problems(_ functions: [Function]) -> [String] {
        var problems: [String] = []
        for f in functions {
            let marks = markers(f)
            for ins in f.code {
                guard let target = ins.target, target <= ins.pc else { continue }
                if !marks.contains(where: { $0 >= target && $0 <= ins.pc }) {
                    problems.append("\(f.source): \(ins.op) at \(ins.pc) back to \(target) meets no checkpoint")
                }
            }
            if !f.isMain {
                // GETUPVAL, the subtraction, its MMBIN*, SETUPVAL: the fourth instruction,
                // the fifth after a VARARGPREP.
                let entry = (f.code.first?.op == "VARARGPREP" && f.code.first?.pc == 1 ? 5 : 4)
                if marks.first != entry {
                    problems.append("\(f.source): a function whose first checkpoint is not at its entry (\(marks.first.map(String.init) ?? "none"))")
                }
            }
            if f.stepsInAString { problems.append("\(f.source): a checkpoint inside a string") }
        }
        return problems
    }

    /// Why `bytes` does not compile (the stock parser, in a bare state `L`), or nil.
    static func compileError(_ bytes: [UInt8], in L: OpaquePointer) -> String? {
        defer { lua_settop(L, 0) }
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { luaL_loadbufferx(L, $0.baseAddress, $0.count, "=t", "t") }
        }
        return status == LUA_OK ? nil : lua_tolstring(L, -1, nil).map { String(cString: $0) } ?? "?"
    }

    /// The instrumented bytes of `bytes`, or nil when the text is left alone.
    static func instrument(_ bytes: [UInt8]) -> [UInt8]? {
        var length = 0
        guard let out = bytes.withUnsafeBufferPointer({ buffer in
            buffer.withMemoryRebound(to: CChar.self) { cardlua_instrument($0.baseAddress, $0.count, &length) }
        }) else { return nil }
        defer { free(out) }
        return Array(UnsafeRawBufferPointer(start: out, count: length))
    }

    /// The text again from its instrumented form: the prefix and every checkpoint out,
    /// nothing else; nil when a checkpoint holds a line-end byte or the prefix is missing.
    static func stripped(_ bytes: [UInt8]) -> [UInt8]? {
        let prefix = Array("local __cardlua_steps,__cardlua_budget=0,__cardlua_checkpoint;_ENV.__cardlua_checkpoint=nil;".utf8)
        let head = Array(" __cardlua_steps=__cardlua_steps-".utf8)
        let tail = Array(" if __cardlua_steps<0 then __cardlua_steps=__cardlua_budget(__cardlua_steps)end ".utf8)
        return bytes.withUnsafeBufferPointer { b -> [UInt8]? in
            func at(_ i: Int, _ word: [UInt8]) -> Bool {
                i + word.count <= b.count && memcmp(b.baseAddress! + i, word, word.count) == 0
            }
            guard at(0, prefix) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(b.count)
            var i = prefix.count
            while i < b.count {
                // The next checkpoint (found from the underscores, which are rare), the bytes
                // before it copied as they are.
                var next = b.count, from = i + 1
                while from < b.count, let found = memchr(b.baseAddress! + from, Int32(UInt8(ascii: "_")), b.count - from) {
                    let underscore = b.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if at(underscore - 1, head) { next = underscore - 1; break }
                    from = underscore + 1
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<next]))
                guard next < b.count else { break }
                var j = next + head.count
                while j < b.count, b[j] >= 0x30, b[j] <= 0x39 { j += 1 }
                guard at(j, tail) else { return nil }
                i = j + tail.count
            }
            return out
        }
    }

    /// The lines of luac's listing the check reads (the rest of it is tens of megabytes):
    /// function headers, the section headers, the instructions it looks at, the upvalues
    /// and locals named `__cardlua_steps`, and string constants holding that name. (`\t`
    /// is a tab in this Swift string: grep -E has no escape for one.)
    static let wanted = "^(main|function) <|^(constants|locals|upvalues) \\(|^\t[0-9]+\t\\[[-0-9]+\\]\t"
        + "(ADDI|ADDK|SUBK|SETUPVAL|MMBIN[IK]?|JMP|FORLOOP|TFORLOOP|VARARGPREP)[ \t]|^\t[0-9]+\t__cardlua_steps\t"
        + "|^\t[0-9]+\tS\t.*__cardlua_steps"

    /// A shell command listing `paths` with luac, filtered by `grep -E wanted`: all in one
    /// luac run when stdbuf can line-buffer its output (luac 5.4.4 lists several files, then
    /// may abort as it combines them), else one run per file.
    static func listCommand(_ luac: String, _ paths: [String]) -> String {
        func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let filter = "grep -E \(quoted(wanted))"
        if let stdbuf = LuacTool.stdbuf {
            return "\(quoted(stdbuf)) -oL \(quoted(luac)) -l -l -p \(paths.map(quoted).joined(separator: " ")) 2>/dev/null | \(filter)"
        }
        return "for f in \(paths.map(quoted).joined(separator: " ")); do \(quoted(luac)) -l -l -p \"$f\"; done | \(filter)"
    }

    /// The corpus through the scanner and luac, in batches (many files per luac run: luac
    /// 5.4.4 lists them all, then may abort as it combines them, so its output is line
    /// buffered with `stdbuf -oL` where that exists, and each file's listing is checked to
    /// be there).
    @Test func everyBackwardJumpAndFunctionMeetsACheckpoint() throws {
        let luac = try #require(LuacTool.path, "luac5.4 is not installed; under CI=true every check must run")
        let texts = try Self.corpus()
        let directory = try TestSupport.temporaryDirectory(prefix: "cardlua-oracle")
        defer { try? FileManager.default.removeItem(at: directory) }

        let L = try #require(luaL_newstate())
        defer { lua_close(L) }
        var files: [(name: String, path: String)] = []
        var instrumentedGenerated = 0, generated = 0
        for (index, text) in texts.enumerated() {
            let isGenerated = text.name.hasPrefix("generated-")
            if isGenerated {
                generated += 1
                // The generator makes valid Lua only.
                let error = Self.compileError(text.bytes, in: L)
                #expect(error == nil, "\(text.name): \(error ?? "") in \(String(decoding: text.bytes, as: UTF8.self).debugDescription)")
            }
            guard let instrumented = Self.instrument(text.bytes) else {
                #expect(!isGenerated, "\(text.name) was left alone")
                continue
            }
            #expect(Self.stripped(instrumented) == text.bytes, "\(text.name): the instrumented text is not the text plus checkpoints")
            guard Self.compileError(instrumented, in: L) == nil else {
                // Loaded as it is then, which is safe; but a text that compiles must still
                // compile with its checkpoints.
                #expect(Self.compileError(text.bytes, in: L) != nil, "\(text.name) compiles, but not with its checkpoints")
                continue
            }
            if isGenerated { instrumentedGenerated += 1 }
            let path = directory.appendingPathComponent("t\(index).lua").path
            try Data(instrumented).write(to: URL(fileURLWithPath: path))
            files.append((text.name, path))
        }
        #expect(generated >= 3000 && instrumentedGenerated == generated)
        #expect(files.count > 3000)

        let batch = 250
        var failures: [String] = []
        for start in stride(from: 0, to: files.count, by: batch) {
            let slice = Array(files[start..<min(start + batch, files.count)])
            let result = try TestSupport.run(URL(fileURLWithPath: "/bin/sh"), ["-c", Self.listCommand(luac, slice.map(\.path))])
            let functions = Self.functions(in: result.stdout)
            let bySource = Dictionary(grouping: functions, by: \.source)
            for file in slice {
                guard let listed = bySource[file.path], listed.contains(where: \.isMain) else {
                    failures.append("\(file.name): no listing (luac: \(result.stderr.prefix(200)))")
                    continue
                }
                failures += Self.problems(listed).map { "\(file.name): \($0)" }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) problems, first: \(failures.prefix(5).joined(separator: "\n"))")
    }

    /// The check itself finds what it should: a function, a `while` and a `for` without
    /// checkpoints, and the name in a string (the text as it is, listed by luac), fail it.
    @Test func theCheckFindsAnUnguardedLoop() throws {
        let luac = try #require(LuacTool.path, "luac5.4 is not installed; under CI=true every check must run")
        let directory = try TestSupport.temporaryDirectory(prefix: "cardlua-oracle")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try TestSupport.write("local function f() end\nwhile true do end\nfor i = 1, 2 do end\nlocal s = ' __cardlua_steps'\n",
                                         named: "plain.lua", in: directory)
        let result = try TestSupport.run(URL(fileURLWithPath: "/bin/sh"), ["-c", Self.listCommand(luac, [path])])
        let problems = Self.problems(Self.functions(in: result.stdout))
        #expect(problems.count == 4, "\(problems)")
    }
}

/// luac5.4 and stdbuf on PATH.
enum LuacTool {
    static let path = TestSupport.which("luac5.4")
    static let stdbuf = TestSupport.which("stdbuf")
}

/// Valid Lua scripts from a seed: loops, functions and `goto`s with every kind of comment,
/// string, long bracket and numeral between their tokens, and all four line ends.
struct ScriptGenerator {
    var random: SplitMix64
    var labels = 0
    var functions = 0

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    static let lineEnds = ["\n", "\r", "\r\n", "\n\r"]
    /// Text Lua ignores in comments and strings, which a misreading scanner would not.
    static let decoys = ["while true do end", "function() end", "goto x", "repeat until x", "]]", "]=]", "[[", "[==[",
                         "\"", "'", "\\", "--", "do", "end", "\\z", "0x", "::l::"]

    mutating func lineEnd() -> String { random.pick(Self.lineEnds) }

    /// Bytes for a comment or a long bracket: decoys, words and line ends (no closer of
    /// `level`, which the caller checks).
    mutating func filler(lineEnds: Bool) -> String {
        var text = ""
        for _ in 0..<random.below(4) {
            switch random.below(4) {
            case 0: text += random.pick(Self.decoys)
            case 1: text += lineEnds ? lineEnd() : " "
            case 2: text += random.pick([" ", "\t", "x", "=", "]", "["])
            default: text += "w\(random.below(100))"
            }
        }
        return text
    }

    /// A long bracket of some level around filler (for a comment or a string).
    mutating func longBracket() -> String {
        let level = random.below(4)
        let equals = String(repeating: "=", count: level)
        let close = "]\(equals)]"
        while true {
            let body = filler(lineEnds: true)
            let whole = body + close
            // The first closer must be the last one (no early end, no `]=` + `]` joining).
            if whole.range(of: close)?.lowerBound == whole.index(whole.endIndex, offsetBy: -close.count) {
                return "[\(equals)[\(body)\(close)"
            }
        }
    }

    /// What may stand between two tokens: spaces, line ends, comments.
    mutating func gap() -> String {
        switch random.below(10) {
        case 0, 1, 2: return " "
        case 3, 4: return lineEnd()
        case 5, 6:  // a short comment, to a line end of any form; perhaps `--[` or `--[==` that opens nothing
            let opener = random.pick(["--", "--", "--[", "--[==", "---"])
            var body = filler(lineEnds: false)
            if body.hasPrefix("[") || body.hasPrefix("=") { body = " " + body }  // no long bracket
            return " \(opener)\(body)\(lineEnd())"
        case 7, 8: return " --\(longBracket()) "
        default: return "\t"
        }
    }

    /// A short string with escapes of every kind, line ends continued by a backslash and
    /// skipped by `\z`.
    mutating func shortString() -> String {
        let quote = random.pick(["\"", "'"])
        var text = quote
        for _ in 0..<random.below(5) {
            switch random.below(9) {
            case 0: text += "\\z" + [" ", "\t", lineEnd(), lineEnd() + "  "].prefix(random.below(4) + 1).joined()
            case 1: text += "\\" + lineEnd()
            case 2: text += random.pick(["\\x41", "\\u{7FF}", "\\065", "\\0", "\\n", "\\\\", "\\\"", "\\'", "\\r", "\\a"])
            case 3: text += quote == "\"" ? "'" : "\""
            case 4: text += random.pick(["while true do end", "--", "[[", "]]", "function", "goto"])
            default: text += "s\(random.below(10))"
            }
        }
        return text + quote
    }

    mutating func numeral() -> String {
        random.pick(["3", "0x1p4", "0x.8p-1", "1e+3", "3.", ".5", "0xA", "0xep-1", "1E-2", "0X1P+2", "0xe-1", "7", "0x10"])
    }

    mutating func expression(_ depth: Int) -> String {
        switch random.below(depth > 0 ? 9 : 5) {
        case 0: return numeral()
        case 1: return shortString()
        case 2: return longBracket()
        case 3: return "x"
        case 4: return "t[\(gap())\(random.chance(50) ? longBracket() : shortString())\(gap())]"
        case 5: return "\(expression(depth - 1))\(gap())..\(gap())\(expression(depth - 1))"
        case 6: return "{\(gap())[\(gap())\(longBracket())\(gap())]\(gap())=\(gap())\(expression(depth - 1))\(gap())}"
        default:
            // A function inside an expression (a loop header, a condition, an argument).
            return "(function(\(gap())a\(gap()),\(gap())...)\(block(depth - 1))\(gap())return a end)(\(expression(depth - 1)))"
        }
    }

    /// Statements separated by gaps.
    mutating func block(_ depth: Int) -> String {
        var text = ""
        for _ in 0..<random.below(depth > 0 ? 4 : 2) { text += gap() + statement(depth) }
        return text + gap()
    }

    mutating func statement(_ depth: Int) -> String {
        guard depth > 0 else { return random.chance(50) ? "x\(gap())=\(gap())\(expression(0))" : "print(\(expression(0)))" }
        switch random.below(11) {
        case 0: return "x\(gap())=\(gap())\(expression(depth - 1))"
        case 1: return "while\(gap())\(expression(depth - 1))\(gap())do\(block(depth - 1))end"
        case 2: return "for\(gap())i\(gap())=\(gap())\(expression(depth - 1)),\(gap())\(numeral())\(gap())do\(block(depth - 1))end"
        case 3: return "for\(gap())k,\(gap())v\(gap())in\(gap())pairs(\(expression(depth - 1)))\(gap())do\(block(depth - 1))end"
        case 4: return "repeat\(block(depth - 1))until\(gap())\(expression(depth - 1))"
        case 5:
            functions += 1
            return "local\(gap())function\(gap())f\(functions)(\(gap())a\(gap()),\(gap())...)\(block(depth - 1))end"
        case 6:
            functions += 1
            return "function\(gap())t.a:b\(functions)(\(gap())x\(gap()))\(block(depth - 1))end"
        case 7:
            labels += 1
            let label = labels  // the block may add labels of its own
            return "do\(gap())::l\(label)::\(block(depth - 1))goto\(gap())l\(label)\(gap())end"
        case 8:
            return "if\(gap())\(expression(depth - 1))\(gap())then\(block(depth - 1))elseif\(gap())x\(gap())then\(block(depth - 1))else\(block(depth - 1))end"
        case 9: return "local\(gap())f\(gap())=\(gap())function(\(gap()))\(block(depth - 1))end"
        default: return "do\(block(depth - 1))end"
        }
    }

    /// One script: a few statements, three levels deep at most.
    mutating func script() -> String {
        labels = 0
        functions = 0
        var text = "local t, x = {a = {}}, 1" + lineEnd()
        for _ in 0..<(1 + random.below(5)) { text += statement(3) + gap() }
        return text
    }
}
