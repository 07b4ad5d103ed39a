import CardLayout
import CardLuaTestSupport
import Foundation
import Testing

/// The proof that an exported layout moves exactly as its script (issue item 6): each
/// layout is compiled with `swiftc -swift-version 6` against the test-only UIKit module
/// and driven through the script's Lua runs; every frame's items (frame, center,
/// transform3D, alpha, zIndex, hidden) and every release's target must agree within 1e-9.
@Suite struct ExportProofTests {
    /// scripts/lol.lua, the seeds' first.
    static let lolSource = (try? String(contentsOfFile: TestSupport.script("lol.lua"), encoding: .utf8)) ?? ""

    /// The Lua runs of a script: its demo, and for the seeds random jumps and flings.
    static func runs(source: String, fileName: String, random: Bool) throws -> [(name: String, record: LuaRecord)] {
        var runs = [(name: "demo", record: try LuaRecorder.demo(source: source, fileName: fileName))]
        if random {
            runs.append((name: "random", record: try LuaRecorder.randomWalk(source: source, fileName: fileName, seed: 0xC0FFEE)))
        }
        return runs
    }

    /// Every case compiled once (one swiftc invocation) and replayed; shared by the tests.
    static let shared: Result<(cases: [ExportProof.Case], report: ExportProof.Report), any Error> = Result {
        let lolRuns = try runs(source: lolSource, fileName: "lol.lua", random: true)
        var cases = [ExportProof.Case(script: "scripts/lol.lua (by hand)", className: "HandWrittenLolLayout",
                                      swift: HandWrittenLayouts.lol, runs: lolRuns)]
        // A deliberate translation bug: the turn's sign flipped inside the active distance.
        let flipped = HandWrittenLayouts.lol
            .replacingOccurrences(of: "HandWrittenLolLayout", with: "FlippedHandWrittenLolLayout")
            .replacingOccurrences(of: "CATransform3DRotate(t, -zoom", with: "CATransform3DRotate(t, zoom")
        cases.append(ExportProof.Case(script: "scripts/lol.lua (by hand, sign flipped)",
                                      className: "FlippedHandWrittenLolLayout", swift: flipped, runs: lolRuns))
        return (cases, try ExportProof.prove(cases))
    }

    static func report() throws -> ExportProof.Report {
        let report = try shared.get().report
        if let failure = report.buildFailure { Issue.record("the driver did not build:\n\(failure.prefix(4000))") }
        return report
    }

    /// The harness itself: lol.lua ported by hand compiles cleanly and matches the Lua run
    /// frame by frame (the demo, random offsets and flings).
    @Test func aHandWrittenPortMatchesItsScript() throws {
        let report = try Self.report()
        let problems = report.problems(of: "HandWrittenLolLayout")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(report.passed.contains("HandWrittenLolLayout"))
    }

    /// A translation bug fails the comparison: the same port with one sign flipped is
    /// reported, naming a transform field.
    @Test func aFlippedSignIsReported() throws {
        let report = try Self.report()
        let problems = report.mismatches["FlippedHandWrittenLolLayout"] ?? []
        #expect(!report.passed.contains("FlippedHandWrittenLolLayout"))
        #expect(problems.contains { $0.contains("m13") || $0.contains("m31") }, "\(problems)")
    }
}
