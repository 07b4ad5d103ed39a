@testable import CardLuaCLI
import Foundation
import Testing

/// Every `cardlua …` command of README.md's and docs/*.md's fenced `sh` blocks, and every
/// example of the `--help` texts (each command's declaration), runs as written.
///
/// How: each document's commands run in order in a fresh temporary directory (a later
/// command may use what an earlier one made, as a reader would), with the package's
/// `scripts` and `examples` folders linked into it, so `scripts/lol.lua` and `-o FILE`
/// resolve there; `swift run cardlua` and `cardlua` become the built binary; a glob
/// (`scripts/*.lua`) is expanded as a shell would; `# …` comments and the other programs
/// of a line (`scripts/bootstrap &&`, `swift build`, `cp`) are left out. Each must exit
/// 0, except where the text says otherwise (``expectedStatus``). `play` and `watch` never
/// end by themselves: each is started (play on `--port 0`, not the documented 8417 a
/// parallel run would fight over), waited for until it is serving (its URL printed) or
/// has reported its first run, then stopped with Ctrl-C, which must end it with 0.
/// `bench` runs with `--smoke` added (the same options and table, tiny counts).
@Suite(.serialized) struct DocsCommandsTests {
    struct Command: CustomStringConvertible, Sendable {
        var source: String
        var words: [String]
        var description: String { "\(source): cardlua \(words.joined(separator: " "))" }
    }

    /// Commands whose documented outcome is not 0.
    static func expectedStatus(_ words: [String]) -> Int32 {
        // "exit status 0 when all are exportable": the catalogue has a few that are not.
        if words.starts(with: ["export", "--check"]) { return 1 }
        return 0
    }

    /// The `cardlua` commands of a fenced `sh` block's text.
    static func commands(inShell text: String, source: String) -> [Command] {
        var found: [Command] = []
        for rawLine in text.split(separator: "\n") {
            var line = String(rawLine)
            if let hash = line.range(of: " #") { line = String(line[..<hash.lowerBound]) }
            for part in line.components(separatedBy: "&&") {
                var words = part.split(separator: " ").map(String.init)
                if words.starts(with: ["swift", "run", "cardlua"]) { words.removeFirst(3) }
                else if words.first == "cardlua" { words.removeFirst() }
                else { continue }
                found.append(Command(source: source, words: words))
            }
        }
        return found
    }

    /// The fenced `sh` blocks of a Markdown text.
    static func shellBlocks(_ markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```sh" { current = []; continue }
            if current != nil, line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
                continue
            }
            current?.append(line)
        }
        return blocks
    }

    static var documents: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// The documents' commands, by document.
    static var documented: [String: [Command]] {
        var out: [String: [Command]] = [:]
        for document in documents {
            let text = (try? String(contentsOf: CLI.packageRoot.appendingPathComponent(document), encoding: .utf8)) ?? ""
            out[document] = shellBlocks(text).flatMap { commands(inShell: $0, source: document) }
        }
        return out
    }

    /// The `EXAMPLES:` of every command's help, and the overview's `Try:`.
    static var helpExamples: [Command] {
        var out: [Command] = []
        for declaration in CardLuaCommand.commands {
            let command = declaration.name, text = declaration.help
            guard let start = text.range(of: "EXAMPLES:\n") else { continue }
            for line in text[start.upperBound...].split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("cardlua ") else { break }
                out += commands(inShell: trimmed, source: "cardlua \(command) --help")
            }
        }
        if let tryLine = Help.overview.split(separator: "\n").first(where: { $0.hasPrefix("Try: ") }) {
            out += commands(inShell: String(tryLine.dropFirst("Try: ".count)), source: "cardlua --help")
        }
        return out
    }

    /// A directory with the package's scripts and examples linked in.
    static func workspace() throws -> URL {
        let directory = try CLI.temporaryDirectory()
        for folder in ["scripts", "examples"] {
            try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent(folder),
                                                       withDestinationURL: CLI.packageRoot.appendingPathComponent(folder))
        }
        return directory
    }

    /// `scripts/*.lua` as a shell expands it (a `*` in the last component), relative to
    /// `directory`; other words as they are.
    static func expand(_ words: [String], in directory: URL) -> [String] {
        words.flatMap { word -> [String] in
            guard word.contains("*") else { return [word] }
            let folder = (word as NSString).deletingLastPathComponent
            let pattern = (word as NSString).lastPathComponent
            let parts = pattern.components(separatedBy: "*")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)) ?? []
            let matches = names.filter { parts.count == 2 && $0.hasPrefix(parts[0]) && $0.hasSuffix(parts[1]) }.sorted()
            return matches.isEmpty ? [word] : matches.map { folder.isEmpty ? $0 : "\(folder)/\($0)" }
        }
    }

    /// Runs one command in `directory`; a problem recorded as an issue.
    static func check(_ command: Command, in directory: URL) throws {
        var words = expand(command.words, in: directory)
        switch words.first {
        case "play":
            words += ["--port", "0"]
            let play = try WatchProcess(words, directory: directory)
            defer { play.kill() }
            #expect(waitUntil { play.stdout.contains("http://") }, "\(command): \(play.stderr)")
            #expect(play.interruptAndWait() == 0, "\(command): \(play.stderr)")
        case "watch":
            let watch = try WatchProcess(words, directory: directory)
            defer { watch.kill() }
            // Its first run reported ("[time] script → output"): it is watching.
            #expect(waitUntil { (watch.stdout + watch.stderr).contains("→") }, "\(command): \(watch.stderr)")
            #expect(watch.interruptAndWait() == 0, "\(command): \(watch.stderr)")
        default:
            if words.first == "bench" { words.append("--smoke") }
            let result = try CLI.run(words, timeout: 600, directory: directory)
            #expect(result.status == expectedStatus(words), "\(command): \(result.stderr.prefix(600))")
        }
    }

    @Test func theDocumentsHaveCommands() {
        let found = Self.documented
        #expect((found["README.md"] ?? []).count >= 5)
        #expect((found["docs/cli.md"] ?? []).count >= 4)
        #expect(Self.helpExamples.count >= 10, "\(Self.helpExamples)")
    }

    @Test(arguments: documents)
    func everyDocumentedCommandRuns(_ document: String) throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        for command in Self.documented[document] ?? [] { try Self.check(command, in: directory) }
    }

    @Test func everyHelpExampleRuns() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        for command in Self.helpExamples { try Self.check(command, in: directory) }
    }

    /// `cardlua` alone is wrong usage: the overview on standard error, exit status 2.
    @Test func cardluaAlonePrintsTheUsageAndExits2() throws {
        let result = try CLI.run([])
        #expect(result.status == 2)
        #expect(result.stderr.contains("USAGE: cardlua <command> [options]"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// docs/cli.md's sample summary is today's output of `cardlua run scripts/lol.lua`:
    /// every line it shows (but the `…` that stand for lines left out) is a line of it.
    @Test func theSampleSummaryIsTodaysOutput() throws {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let start = try #require(text.range(of: "Without `-o` or `--format`, `run` prints a one-screen summary:\n\n```\n"))
        let end = try #require(text[start.upperBound...].range(of: "```"))
        let sample = text[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try CLI.run(["run", "scripts/lol.lua"], directory: directory)
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        var at = 0
        for line in sample where line.trimmingCharacters(in: .whitespaces) != "…" {
            guard let found = lines[at...].firstIndex(of: line) else {
                Issue.record("not in today's output (in order): \(line)\n\(run.stdout)")
                return
            }
            at = found + 1
        }
    }

    /// README and `play --help` say what Copy params copies: the page's paramsBlock(), a
    /// `params = { … }` table with the values on screen (not `--param` options).
    @Test func copyParamsIsExplained() throws {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("**Copy params** copies a `params = { … }` table"), "README")
        #expect(!readme.contains("Copy params gives the values as --param options"), "README")
        let play = PlayCommand.declaration.help, export = ExportCommand.declaration.help
        #expect(play.contains("Copy params copies a params = { … } table"), "\(play)")
        #expect(!play.contains("as --param options") && !export.contains("Copy params gives them"))
    }

    /// `cardlua new` and the template point to `cardlua play` first.
    @Test func newPointsToPlayFirst() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try CLI.run(["new", "fx.lua"], directory: directory)
        let next = made.stdout.components(separatedBy: "next:\n").last ?? ""
        #expect(next.split(separator: "\n").first?.trimmingCharacters(in: .whitespaces).hasPrefix("cardlua play fx.lua") == true, "\(made.stdout)")
        let script = try String(contentsOf: directory.appendingPathComponent("fx.lua"), encoding: .utf8)
        let tryIt = script.components(separatedBy: "-- Try it:\n").last ?? ""
        #expect(tryIt.hasPrefix("--   cardlua play fx.lua"), "\(tryIt.prefix(200))")
    }
}
