import CLuaShims
import CardLayout
import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// What the budget counts: steps charged at the checkpoints, against the VM instructions
/// stock Lua runs for the same work. Each effect of the catalogue runs its demo twice
/// with exact accounting (cardlua_measure_budget): with the build's prelude and the
/// script's checkpoints (the steps), and with the prelude compiled without checkpoints,
/// which leaves the script without them too, under a count hook of period 1 (every VM
/// instruction the stock Lua 5.4 VM runs). docs/architecture.md#bounds and BENCHMARKS.md
/// quote the ratio; `CARDLUA_STEP_RATIOS=1` prints the table.
@Suite struct CheckpointStepTests {
    /// The prelude as the build compiles it, but without checkpoints.
    static let plainPrelude: [UInt8] = (try? CheckpointTests.compiledPrelude(checkpoints: false)) ?? []

    /// No time limit (exact counting is slow, the more so under a sanitizer) and a budget
    /// no demo comes near.
    static let limits = ScriptLimits(maxSteps: 1 << 50, maxTime: 0)

    /// The shipped scripts: scripts/*.lua and scripts/effects/*.lua.
    static let catalogue: [String] = {
        var paths: [String] = []
        for folder in ["scripts", "scripts/effects"] {
            let url = TestSupport.packageRoot.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            paths += names.filter { $0.hasSuffix(".lua") }.sorted().map { folder + "/" + $0 }
        }
        return paths
    }()

    /// The budget used by the demo of `source`: with checkpoints, or under the hook.
    static func demo(_ source: String, name: String, checkpoints: Bool) throws -> (steps: Int, instructions: Int, hostWork: Int) {
        let effect = try LuaEffect(source: source, chunkName: name, limits: limits,
                                   prelude: checkpoints ? nil : plainPrelude, measuring: true)
        _ = try ScenarioRunner(effect: effect, scriptName: name).runDemo()
        return effect.budgetUsed
    }

    /// Exact accounting charges each checkpoint its own steps: a loop of 1000 passes
    /// costs 1000 times its body's checkpoint, and a run is charged the same twice.
    @Test func exactAccountingChargesEachCheckpoint() throws {
        let source = "local n = 0\nfor i = 1, 1000 do n = n + i * 2 end\n"
        let text = try #require(CheckpointTests.instrumented(source))
        let perPass = try #require(CheckpointTests.steps(text).first)
        func used() throws -> (steps: Int, instructions: Int, hostWork: Int) {
            try LuaEffect(source: source, chunkName: "loop.lua", limits: Self.limits, prelude: nil, measuring: true).budgetUsed
        }
        let first = try used()
        #expect(first.steps == 1000 * perPass)
        #expect(first.instructions == 0)
        let second = try used()
        #expect(second.steps == first.steps && second.instructions == first.instructions && second.hostWork == first.hostWork)
    }

    /// Without checkpoints the hook counts every VM instruction: the same loop is about
    /// 4 instructions a pass (ADD, MUL … FORLOOP), counted exactly, every run the same.
    @Test func withoutCheckpointsEveryInstructionIsCounted() throws {
        let source = "local n = 0\nfor i = 1, 1000 do n = n + i * 2 end\n"
        func used() throws -> (steps: Int, instructions: Int, hostWork: Int) {
            try LuaEffect(source: source, chunkName: "loop.lua", limits: Self.limits, prelude: Self.plainPrelude,
                          measuring: true).budgetUsed
        }
        let first = try used()
        #expect(first.steps == 0)
        #expect(first.instructions >= 3000 && first.instructions < 6000, "\(first)")
        let second = try used()
        #expect(second.steps == first.steps && second.instructions == first.instructions && second.hostWork == first.hostWork)
    }

    /// Over the catalogue's demos the checkpoints charge more steps than stock Lua runs
    /// VM instructions (they charge a function's or a loop body's every token, taken
    /// branch or not), never fewer, and less than three times as many: a budget of N
    /// steps lets no effect run more than N instructions. BENCHMARKS.md quotes the
    /// figures (CARDLUA_STEP_RATIOS=1 prints them): 1.27 to 2.50, median 1.77.
    @Test func aStepIsAboutOneInstruction() throws {
        #expect(!Self.plainPrelude.isEmpty)
        #expect(Self.catalogue.count > 20)
        var rows: [(name: String, steps: Int, instructions: Int, ratio: Double)] = []
        for path in Self.catalogue {
            let source = try String(contentsOfFile: TestSupport.packageRoot.appendingPathComponent(path).path, encoding: .utf8)
            let on = try Self.demo(source, name: path, checkpoints: true)
            let off = try Self.demo(source, name: path, checkpoints: false)
            #expect(on.instructions == 0, "\(path): the hook counted on checkpoints")
            #expect(off.steps == 0 && off.instructions > 0, "\(path)")
            let ratio = Double(on.steps) / Double(max(off.instructions, 1))
            #expect(ratio >= 1 && ratio < 3, "\(path): \(on.steps) steps for \(off.instructions) instructions")
            rows.append((path, on.steps, off.instructions, ratio))
        }
        if ProcessInfo.processInfo.environment["CARDLUA_STEP_RATIOS"] != nil {
            for row in rows {
                print("| \(row.name) | \(row.steps) | \(row.instructions) | \(String(format: "%.3f", row.ratio)) |")
            }
            let sorted = rows.map(\.ratio).sorted()
            let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2]
                : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            let total = Double(rows.map(\.steps).reduce(0, +)) / Double(rows.map(\.instructions).reduce(0, +))
            print(String(format: "steps/instructions over %d scripts: min %.3f, median %.3f, max %.3f, all together %.3f",
                         rows.count, sorted.first ?? 0, median, sorted.last ?? 0, total))
        }
    }
}
