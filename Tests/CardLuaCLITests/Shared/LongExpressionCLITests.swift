import Foundation
import Testing

/// Scripts whose syntax tree would be deeper than any walk over it can go: a flat
/// expression of a million terms (which stock Lua loads and runs) and ten thousand levels
/// of each construct that nests (which stock Lua refuses, as "C stack overflow"). `run`, `check`, `export` and
/// `play` end each with a status and at most one clear line, never a signal. Each case
/// launches the real process, so a stack overflow shows as a signal, not as a dead suite.
@Suite struct LongExpressionCLITests {
    /// `local y = 1 + x + x …` with a million terms, at the top level (so it runs once).
    static let millionTerms = "local x = 0\nlocal y = 1" + String(repeating: " + x", count: 1_000_000)
        + "\nfunction transform(attributes)\n  attributes.alpha = y\nend\n"

    /// Ten thousand levels of parentheses, tables, function bodies and `if`.
    static let deepNestings: [(name: String, source: String)] = [
        ("parentheses", "local y = " + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)),
        ("tables", "local y = " + String(repeating: "{", count: 10_000) + String(repeating: "}", count: 10_000)),
        ("function bodies", "local y = " + String(repeating: "function() return ", count: 10_000) + "1"
            + String(repeating: " end", count: 10_000)),
        ("if", "local x = 1\n" + String(repeating: "if x then\n", count: 10_000) + String(repeating: "end\n", count: 10_000)),
    ]

    @Test func aMillionTermsRunAndCheckAsStockLuaLoadsThem() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write(Self.millionTerms, named: "long.lua", in: directory)
        let run = try CLI.run(["run", path, "--offset", "0", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr.prefix(300))")
        #expect(run.stdout.contains("\"alpha\": 1,"))
        let check = try CLI.run(["check", path])
        #expect(check.status == 0, "\(check.stderr.prefix(300))")
    }

    @Test func aMillionTermsAreOneExportErrorAtTheirLine() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write(Self.millionTerms, named: "long.lua", in: directory)
        let export = try CLI.run(["export", path, "-o", directory.appendingPathComponent("Long.swift").path])
        #expect(export.status == 1)
        let lines = export.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("\(path):2: export: the expression is too long to analyse") == true,
                "\(export.stderr.prefix(300))")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("Long.swift").path))
    }

    @Test func aMillionTermsPlay() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write(Self.millionTerms, named: "long.lua", in: directory)
        let play = try PlayServer([path], directory: directory)
        defer { play.process.kill() }
        let first = try #require(try PlayServer.frames(play.get("/state")).first)
        #expect(!(first["c"] as? [[Any]] ?? []).isEmpty, "no cards in the first frame")
        #expect(play.post("/input", #"{"type":"down","t":1}"#).hasPrefix("HTTP/1.1 200"))
        #expect(play.process.interruptAndWait(timeout: 20) == 0)
    }

    @Test(arguments: deepNestings.map(\.name))
    func tenThousandLevelsAreOneClearError(_ name: String) throws {
        let source = try #require(Self.deepNestings.first { $0.name == name }).source
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write(source, named: "deep.lua", in: directory)
        for command in [["run", path, "--offset", "0"], ["check", path], ["export", path]] {
            let result = try CLI.run(command)
            #expect(result.status == 1, "\(command[0]) \(name): \(result.stderr.prefix(300))")
            // check lists its problems on standard output; the others say it on standard error.
            let said = command[0] == "check" ? result.stdout : result.stderr
            let lines = said.split(separator: "\n").filter {
                $0.hasPrefix(path + ":") && $0.dropFirst(path.count + 1).first?.isNumber == true
            }
            #expect(lines.count == 1, "\(command[0]) \(name): \(said.prefix(300))")
            // Lua's parser ran out of levels: said as nesting, not as runaway recursion.
            #expect(lines.first?.contains("nests too deeply for Lua's parser (more than 200 levels") == true,
                    "\(command[0]) \(name): \(said.prefix(300))")
        }
    }
}
