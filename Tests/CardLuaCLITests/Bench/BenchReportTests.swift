import CardLuaTestSupport
import Foundation
import Testing

/// `cardlua bench SCRIPT` leads with what its author asked — the cost per card and at the
/// demo's busiest frame, also as a share of a 120 Hz frame — and judges nothing: the
/// engine's own targets are the project's (`--targets`, which scripts/bench passes).
@Suite struct BenchReportTests {
    @Test func aUsersBenchLeadsWithTheCostAndJudgesNothing() throws {
        let result = try CLI.run(["bench", CLI.script("lol.lua"), "--smoke"], timeout: 300)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let first = try #require(lines.firstIndex { $0.hasPrefix("--") })
        #expect(lines[first].hasSuffix("lol.lua: what it costs"), "\(lines[first])")
        #expect(lines[first + 1].hasPrefix("lol: per card (transform)") && lines[first + 1].contains("µs/card"))
        // Then its native twin, and the demo's busiest frame: 3 cards, 300-pt cards in a
        // 414-pt viewport.
        #expect(lines[first + 2].hasPrefix("lol: per card, native Swift"), "\(lines[first + 2])")
        #expect(lines[first + 3].hasPrefix("lol: the demo's busiest frame (3 cards)"), "\(lines[first + 3])")
        #expect(lines[first + 3].contains("% of a 120 Hz frame (8.33 ms)"))
        #expect(!result.stdout.contains("target"), "no verdicts in a user's run")
        #expect(!result.stdout.contains("MISSED"))
    }

    /// A newcomer's table: one per-card figure for the script (its twin's beside it, not a
    /// second figure of its own), rows only for the script benchmarked and the floors it
    /// is compared with, and no `× lua5.4` column unless `--stock` asks for the stock
    /// interpreter.
    @Test func aUsersBenchHasOneFigurePerCardAndOnlyItsOwnRows() throws {
        let result = try CLI.run(["bench", CLI.script("lol.lua"), "--smoke"], timeout: 300)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("what ") }, "\(result.stdout)")
        #expect(!header.contains("lua5.4"), "\(header)")
        let start = try #require(lines.firstIndex(of: header))
        let rows = lines[(start + 1)...].filter { !$0.hasPrefix("--") }
        let ownPerCard = rows.filter { $0.hasPrefix("lol:") && ($0.contains("per card") || $0.contains("per item"))
            && !$0.contains("native") && !$0.contains("stock") }
        #expect(ownPerCard.count == 1, "\(ownPerCard)")
        let floors = ["bare lua_pcall", "empty transform"]
        let strangers = rows.filter { row in !row.hasPrefix("lol:") && !floors.contains { row.hasPrefix($0) } }
        #expect(strangers.isEmpty, "rows not about lol.lua: \(strangers)")
    }

    @Test func theProjectsBenchShowsItsTargets() throws {
        let result = try CLI.run(["bench", CLI.script("lol.lua"), "--smoke", "--targets"], timeout: 300)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("target ≤ 12× Swift"), "\(result.stdout)")
    }
}

extension BenchReportTests {
    /// Every shipped script benches, the stock interpreter's step included (which once
    /// failed on every script reading `params.x` inside a callback): one process for all.
    @Test(.enabled(if: TestSupport.which("lua5.4") != nil, "needs the lua5.4 interpreter"))
    func everyShippedScriptBenches() throws {
        let root = CLI.packageRoot.appendingPathComponent("scripts")
        let effects = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("effects").path)
            .filter { $0.hasSuffix(".lua") }.sorted().map { "scripts/effects/\($0)" }
        let seeds = try FileManager.default.contentsOfDirectory(atPath: root.path)
            .filter { $0.hasSuffix(".lua") }.sorted().map { "scripts/\($0)" }
        let scripts = seeds + effects
        #expect(scripts.count >= 57)
        let result = try CLI.run(["bench"] + scripts + ["--smoke", "--stock", "--lua", BenchSandboxTests.lua],
                                 timeout: 900, directory: CLI.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        // With --stock, and only then, the column of ratios to the stock interpreter.
        #expect(result.stdout.split(separator: "\n").contains { $0.hasPrefix("what ") && $0.contains("× lua5.4") })
        for script in scripts {
            #expect(result.stdout.contains("-- \(script): what it costs"), "\(script)")
            // The stock interpreter ran it too (smoke counts: its figure may round to 0).
            let name = ((script as NSString).lastPathComponent as NSString).deletingPathExtension
            #expect(result.stdout.contains("\(name): per card, stock lua5.4"), "\(script)")
        }
    }
}
