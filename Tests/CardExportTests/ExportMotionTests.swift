import CardExport
import CardLuaTestSupport
import Foundation
import Testing

/// The export's `scrollToItem` helpers and autoplay driver (Translator+Motion.swift): a
/// script whose scenarios scroll to items or autoplay gets them, and the compiled export
/// lands and rests exactly where the engine's steps do (Proof/MotionProof.swift).
@Suite struct ExportMotionTests {
    static func source(_ script: String) -> String {
        (try? String(contentsOf: TestSupport.packageRoot.appendingPathComponent(script), encoding: .utf8)) ?? ""
    }

    /// The corpus and the shipped scripts with such steps: (name, file name, class, source).
    static let scripts: [(name: String, fileName: String, className: String, source: String)] =
        MotionCorpus.cases + MotionCorpus.shippedScripts.map { script in
            (script, (script as NSString).lastPathComponent, Exporter.className(forFileName: script), source(script))
        }

    /// A deliberate off-by-one in the export's advance: it skips an item.
    static let mutation = (find: "IndexPath(item: indexPath.item + 1, section: indexPath.section)",
                           replace: "IndexPath(item: indexPath.item + 2, section: indexPath.section)")

    static let shared = OffPoolValue { () throws -> MotionProof.Report in
        var cases: [MotionProof.Case] = []
        for script in scripts {
            let swift = try Exporter.export(source: script.source, fileName: script.fileName,
                                            className: script.className, params: [:])
            let records = try MotionProof.records(source: script.source, fileName: script.fileName)
            cases.append(MotionProof.Case(name: script.name, className: script.className, swift: swift, records: records))
        }
        let snapping = cases[0]
        let mutated = snapping.swift.replacingOccurrences(of: mutation.find, with: mutation.replace)
            .replacingOccurrences(of: snapping.className, with: "OffByOne" + snapping.className)
        cases.append(MotionProof.Case(name: snapping.name + " (an advance off by one)",
                                      className: "OffByOne" + snapping.className, swift: mutated,
                                      records: snapping.records))
        return try MotionProof.prove(cases)
    }

    static func report() async throws -> MotionProof.Report {
        let report = try await shared.result.get()
        if let failure = report.buildFailure { Issue.record("the motion driver did not build:\n\(failure.prefix(4000))") }
        return report
    }

    /// For every `scrollToItem` step of the script's scenarios, `contentOffset(forCenteringItemAt:)`
    /// answers, and `scrollToItem(at:animated:)` sets, the offset the engine rests at; for
    /// every `autoplay` step, a new `<Class>Autoplay`'s successive `advance()`s rest where
    /// the engine's advances rest. The file compiles without a warning in Swift 6 mode.
    @Test(arguments: ExportMotionTests.scripts.map(\.className))
    func helpersLandWhereTheScenarioStepsRest(_ className: String) async throws {
        let report = try await Self.report()
        let problems = report.problems(of: className)
        #expect(problems.isEmpty, "\(problems.prefix(12).joined(separator: "\n"))")
        let compared = report.compared[className]
        #expect((compared?.scrolls ?? 0) > 0, "no scrollToItem step compared")
        if MotionCorpus.cases.contains(where: { $0.className == className }) {
            #expect((compared?.advances ?? 0) >= 10, "\(compared?.advances ?? 0) autoplay advances compared")
        }
    }

    /// The proof notices an autoplay that skips an item.
    @Test func anAdvanceOffByOneIsReported() async throws {
        let report = try await Self.report()
        let name = "OffByOne" + MotionCorpus.cases[0].className
        #expect((report.diagnostics[name] ?? []).isEmpty)
        #expect(!(report.mismatches[name] ?? []).isEmpty)
        #expect((report.mismatches[name] ?? []).allSatisfy { $0.contains("advance") }, "\(report.mismatches[name] ?? [])")
    }

    /// The helpers come only with the steps: none for a script whose scenarios neither
    /// scroll to an item nor autoplay, the scrollToItem helpers alone for one that only
    /// scrolls, the autoplay driver alone for one that only autoplays.
    @Test func onlyTheStepsTheScenariosUseAreExported() throws {
        let lol = try Exporter.export(source: Self.source("scripts/lol.lua"), fileName: "lol.lua", className: nil, params: [:])
        #expect(!lol.contains("forCenteringItemAt") && !lol.contains("Autoplay") && !lol.contains("motion"))
        let paging = try Exporter.export(source: Self.source("scripts/paging-layout.lua"), fileName: "paging-layout.lua",
                                         className: nil, params: [:])
        #expect(paging.contains("func contentOffset(forCenteringItemAt indexPath: IndexPath) -> CGPoint?"))
        #expect(paging.contains("func scrollToItem(at indexPath: IndexPath, animated: Bool)"))
        #expect(!paging.contains("Autoplay") && !paging.contains("motionAdvance"))
        let script = """
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          layout.itemSize = CGSizeMake(200, 300)
        end
        scenarios = { loop = { steps = { { autoplay = 2.5, duration = 10 } } } }
        """
        let autoplay = try Exporter.export(source: script, fileName: "loop.lua", className: nil, params: [:])
        #expect(autoplay.contains("@MainActor final class LoopLayoutAutoplay {"))
        #expect(autoplay.contains("init(collectionView: UICollectionView, interval: TimeInterval = 2.5)"))
        #expect(!autoplay.contains("forCenteringItemAt"))
        #expect(autoplay.contains("// scenarios: cardlua's demo steps, left out; what their scrollToItem and autoplay steps do"))
    }

    /// A script's function named like a helper is renamed, not redeclared.
    @Test func aScriptFunctionNamedLikeAHelperIsRenamed() throws {
        let script = """
        local function scrollToItem(x) return x * 2 end
        local function motionAdvance(x) return x + 1 end
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          layout.itemSize = CGSizeMake(scrollToItem(100), motionAdvance(299))
        end
        scenarios = { go = { steps = { { scrollToItem = 2 }, { autoplay = 1 } } } }
        """
        let swift = try Exporter.export(source: script, fileName: "named.lua", className: nil, params: [:])
        #expect(swift.contains("private func scrollToItemScript("))
        #expect(swift.contains("private func motionAdvanceScript("))
        #expect(swift.contains("func scrollToItem(at indexPath: IndexPath, animated: Bool)"))
    }
}
