import CardExport
import CardLua
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

    /// The Lua runs of a script: its demo, and for the seeds random jumps and flings and the
    /// demo right to left.
    static func runs(source: String, fileName: String, random: Bool) throws -> [(name: String, record: LuaRecord)] {
        var runs = [(name: "demo", record: try LuaRecorder.demo(source: source, fileName: fileName))]
        if random {
            runs.append((name: "random", record: try LuaRecorder.randomWalk(source: source, fileName: fileName, seed: 0xC0FFEE)))
            runs.append((name: "right to left", record: try LuaRecorder.demo(source: source, fileName: fileName, rightToLeft: true)))
        }
        return runs
    }

    /// The seeds, also driven through random offsets and flings.
    static let seeds: Set<String> = ["scripts/lol.lua", "scripts/card-scale.lua", "scripts/photo-browser.lua"]

    /// At least this many shipped scripts export (the issue asks for 45 of 57); raised as
    /// the exporter grows, so that a regression fails.
    static let minimumExported = 50

    /// Every shipped script (scripts/*.lua, scripts/effects/*.lua), as `scripts/NAME.lua`.
    static let shippedScripts: [String] = ["scripts", "scripts/effects"].flatMap { folder in
        let directory = TestSupport.packageRoot.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".lua") }.sorted().map { "\(folder)/\($0)" }
    }

    /// Each shipped script's export (Swift) or refusal (the exporter's one line).
    static let exports: [(script: String, className: String, result: Result<String, ExportError>)] =
        shippedScripts.map { script in
            let source = (try? String(contentsOf: TestSupport.packageRoot.appendingPathComponent(script), encoding: .utf8)) ?? ""
            let className = Exporter.className(forFileName: script)
            return (script, className, Result { () throws(ExportError) -> String in
                try Exporter.export(source: source, fileName: script, className: nil, params: [:])
            })
        }

    /// The class names of the scripts that export (the per-script test's arguments).
    static let exportedClassNames: [String] = exports.compactMap { (try? $0.result.get()) == nil ? nil : $0.className }

    /// Deliberate translation bugs for lol.lua's export: the first whose text occurs is made.
    static let mutations: [(find: String, replace: String)] = [
        ("CATransform3DRotate(t, -zoom", "CATransform3DRotate(t, zoom"),
        ("CATransform3DRotate(t, -", "CATransform3DRotate(t, "),
        ("- attributes.center.x", "+ attributes.center.x"),
        ("1.0 / 600", "-1.0 / 600"),
    ]

    /// lol.lua's export with the first applicable mutation, renamed MutatedLolLayout.
    static func mutatedLol(_ swift: String) -> (swift: String, mutation: String)? {
        guard let m = mutations.first(where: { swift.contains($0.find) }),
              let range = swift.range(of: m.find) else { return nil }
        let mutated = swift.replacingCharacters(in: range, with: m.replace)
            .replacingOccurrences(of: "LolLayout", with: "MutatedLolLayout")
        return (mutated, "\(m.find) → \(m.replace)")
    }

    /// Scripts exported with `--param` values: fspager-linear.lua as a user tuned it in
    /// `cardlua play` (a narrower card, a gentler scale, a snap two pages on), and the
    /// iCarousel types that wrap by default with `wrap=false` (the README's catalogue marks
    /// them exportable so).
    static let tunedCases: [(script: String, className: String, params: [String: Double], switches: [String: Bool])] =
        [("scripts/effects/fspager-linear.lua", "TunedFspagerLinearLayout",
          ["itemWidthRatio": 0.45, "minimumScale": 0.8, "decelerationDistance": 2], [:])]
        + ["cylinder", "inverted-cylinder", "inverted-rotary", "inverted-wheel", "rotary", "wheel"].map { name in
            ("scripts/effects/icarousel-\(name).lua",
             "Unwrapped" + Exporter.className(forFileName: "icarousel-\(name).lua"), [:], ["wrap": false])
        }

    /// A param's value moved off its default: a number halfway from the default towards the
    /// end of its range further away (on its step's grid, one step at least), an on/off
    /// param switched.
    static func moved(_ param: ScriptParam) -> ParamSetting? {
        switch (param.kind, param.defaultValue) {
        case (.boolean, .boolean(let on)): return .boolean(!on)
        case (.number, .number(let d)):
            let far = param.maximum - d >= d - param.minimum ? param.maximum : param.minimum
            var v = d + (far - d) / 2
            if let step = param.step, step > 0 {
                v = d + ((v - d) / step).rounded() * step
                if v == d { v = d + (far > d ? step : -step) }
            }
            return .number(min(max(v, param.minimum), param.maximum))
        default: return nil
        }
    }

    /// Every shipped script that exports and has params, with every param moved off its
    /// default (``moved(_:)``), as `Moved<Class>`. Scripts whose moved values turn on what
    /// the export refuses (an endless wrap) are listed in ``movedRefusals`` instead.
    static let movedCases: [(script: String, className: String, params: [(name: String, value: ParamSetting)])] =
        exports.compactMap { export in
            guard (try? export.result.get()) != nil,
                  let source = try? String(contentsOf: TestSupport.packageRoot.appendingPathComponent(export.script), encoding: .utf8),
                  let effect = try? LuaEffect(source: source, chunkName: (export.script as NSString).lastPathComponent),
                  !effect.params.isEmpty else { return nil }
            let params = effect.params.compactMap { p in moved(p).map { (name: p.name, value: $0) } }
            return (export.script, "Moved" + export.className, params)
        }

    /// A moved case's export: the numbers and the switches baked in.
    static func movedExport(_ c: (script: String, className: String, params: [(name: String, value: ParamSetting)]))
        -> Result<String, ExportError> {
        var numbers: [String: Double] = [:], switches: [String: Bool] = [:]
        for p in c.params {
            switch p.value {
            case .number(let v): numbers[p.name] = v
            case .boolean(let b): switches[p.name] = b
            case .option: break
            }
        }
        let source = (try? String(contentsOf: TestSupport.packageRoot.appendingPathComponent(c.script), encoding: .utf8)) ?? ""
        return Result { () throws(ExportError) -> String in
            try Exporter.export(source: source, fileName: c.script, className: c.className, params: numbers, switches: switches)
        }
    }

    /// Every case compiled once (one swiftc invocation) and replayed; shared by the tests,
    /// which await it: while swiftc works, the test pool runs other suites.
    static let shared = OffPoolValue { () throws -> (cases: [ExportProof.Case], report: ExportProof.Report) in
        let lolRuns = try runs(source: lolSource, fileName: "lol.lua", random: true)
        var cases: [ExportProof.Case] = []
        for export in exports {
            guard let swift = try? export.result.get() else { continue }
            let source = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent(export.script), encoding: .utf8)
            let fileName = (export.script as NSString).lastPathComponent
            let scriptRuns = export.script == "scripts/lol.lua"
                ? lolRuns : try runs(source: source, fileName: fileName, random: seeds.contains(export.script))
            cases.append(ExportProof.Case(script: export.script, className: export.className, swift: swift, runs: scriptRuns))
            if export.script == "scripts/lol.lua", let mutated = mutatedLol(swift) {
                cases.append(ExportProof.Case(script: "scripts/lol.lua (mutated: \(mutated.mutation))",
                                              className: "MutatedLolLayout", swift: mutated.swift, runs: lolRuns))
            }
        }
        // Tuned values baked in (`cardlua export --param k=v`), against `cardlua run --param k=v`.
        for tuned in tunedCases {
            let source = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent(tuned.script), encoding: .utf8)
            guard let swift = try? Exporter.export(source: source, fileName: tuned.script, className: tuned.className,
                                                   params: tuned.params, switches: tuned.switches) else { continue }
            let params = (tuned.params.map { (name: $0.key, value: ParamSetting.number($0.value)) }
                + tuned.switches.map { (name: $0.key, value: ParamSetting.boolean($0.value)) }).sorted { $0.name < $1.name }
            let record = try LuaRecorder.demo(source: source, fileName: (tuned.script as NSString).lastPathComponent,
                                              params: params)
            cases.append(ExportProof.Case(script: "\(tuned.script) (\(params.map { "\($0.name)=\($0.value)" }.joined(separator: " ")))",
                                          className: tuned.className, swift: swift, runs: [(name: "demo", record: record)]))
        }
        // The delegate's sizes and insets, left to right and right to left.
        for sized in SizesCorpus.cases {
            let swift = try Exporter.export(source: sized.source, fileName: sized.fileName, className: sized.className, params: [:])
            let runs = try [false, true].map { rtl in
                (name: rtl ? "right to left" : "demo",
                 record: try LuaRecorder.demo(source: sized.source, fileName: sized.fileName, rightToLeft: rtl,
                                              numberOfItems: sized.items))
            }
            cases.append(ExportProof.Case(script: sized.name, className: sized.className, swift: swift, runs: runs))
        }
        // Every param moved off its default.
        for moved in movedCases {
            guard let swift = try? movedExport(moved).get() else { continue }
            let source = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent(moved.script), encoding: .utf8)
            let record = try LuaRecorder.demo(source: source, fileName: (moved.script as NSString).lastPathComponent,
                                              params: moved.params)
            cases.append(ExportProof.Case(script: "\(moved.script) (every param moved)", className: moved.className,
                                          swift: swift, runs: [(name: "demo", record: record)]))
        }
        // An appearance bug: the deck's corner radius one point off.
        if let deck = try? exports.first(where: { $0.className == "StackedDeckLayout" })?.result.get(),
           deck.contains("attributes.cornerRadius = 12") {
            let source = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("scripts/stacked-deck.lua"), encoding: .utf8)
            let mutated = deck.replacingOccurrences(of: "attributes.cornerRadius = 12", with: "attributes.cornerRadius = 11")
                .replacingOccurrences(of: "StackedDeckLayout", with: "CornerMutatedStackedDeckLayout")
            cases.append(ExportProof.Case(script: "scripts/stacked-deck.lua (corner radius 11)",
                                          className: "CornerMutatedStackedDeckLayout", swift: mutated,
                                          runs: [(name: "demo", record: try LuaRecorder.demo(source: source, fileName: "stacked-deck.lua"))]))
        }
        // The hostile-names corpus and the integer edges, run under their (hostile) file names.
        // … and scripts with headers and footers, which keep super's attributes.
        for hostile in HostileCorpus.cases + SectionsCorpus.cases {
            let swift = try Exporter.export(source: hostile.source, fileName: hostile.fileName,
                                            className: hostile.className, params: [:])
            let record = try LuaRecorder.demo(source: hostile.source, fileName: hostile.fileName)
            cases.append(ExportProof.Case(script: hostile.name, className: hostile.className, swift: swift,
                                          runs: [(name: "demo", record: record)]))
        }
        cases += [ExportProof.Case(script: "scripts/lol.lua (by hand)", className: "HandWrittenLolLayout",
                                      swift: HandWrittenLayouts.lol, runs: lolRuns)]
        // A deliberate translation bug: the turn's sign flipped inside the active distance.
        let flipped = HandWrittenLayouts.lol
            .replacingOccurrences(of: "HandWrittenLolLayout", with: "FlippedHandWrittenLolLayout")
            .replacingOccurrences(of: "CATransform3DRotate(t, -zoom", with: "CATransform3DRotate(t, zoom")
        cases.append(ExportProof.Case(script: "scripts/lol.lua (by hand, sign flipped)",
                                      className: "FlippedHandWrittenLolLayout", swift: flipped, runs: lolRuns))
        // A file that compiles with a warning (an unused value): it must not pass.
        let warned = HandWrittenLayouts.lol
            .replacingOccurrences(of: "HandWrittenLolLayout", with: "WarnedHandWrittenLolLayout")
            .replacingOccurrences(of: "        super.prepare()\n", with: "        super.prepare()\n        let unusedByTheProof = 1\n")
        cases.append(ExportProof.Case(script: "scripts/lol.lua (by hand, with a warning)",
                                      className: "WarnedHandWrittenLolLayout", swift: warned, runs: lolRuns))
        return (cases, try ExportProof.prove(cases))
    }

    static func report() async throws -> ExportProof.Report {
        let report = try await shared.result.get().report
        if let failure = report.buildFailure { Issue.record("the driver did not build:\n\(failure.prefix(4000))") }
        return report
    }

    /// Every shipped script exports or is refused with one `file:line: export: …` line;
    /// at least ``minimumExported`` export.
    @Test func shippedScriptsExportOrAreRefusedClearly() {
        let refused = Self.exports.compactMap { export -> String? in
            guard case let .failure(error) = export.result else { return nil }
            return error.description
        }
        for line in refused {
            #expect(line.contains(": export: ") && !line.contains("\n"), "\(line)")
        }
        #expect(Self.exportedClassNames.count >= Self.minimumExported,
                "\(Self.exportedClassNames.count) of \(Self.shippedScripts.count) export; refused:\n\(refused.joined(separator: "\n"))")
        #expect(Self.shippedScripts.count >= 57)
    }

    /// Each exported script compiles without a warning in Swift 6 mode and its compiled
    /// layout equals the Lua run (the demo; the seeds also random offsets and flings).
    @Test(arguments: ExportProofTests.exportedClassNames)
    func exportedLayoutMovesAsItsScript(_ className: String) async throws {
        let report = try await Self.report()
        let problems = report.problems(of: className)
        #expect(problems.isEmpty, "\(problems.prefix(12).joined(separator: "\n"))")
        #expect(report.passed.contains(className))
    }

    /// A translation bug in an export fails the comparison: lol.lua's export with one
    /// sign flipped (see ``mutations``) compiles and is reported as a mismatch.
    @Test func aMutatedExportIsReported() async throws {
        guard Self.exportedClassNames.contains("LolLayout") else {
            Issue.record("scripts/lol.lua does not export")
            return
        }
        let report = try await Self.report()
        guard let swift = try? Self.exports.first(where: { $0.className == "LolLayout" })?.result.get(),
              Self.mutatedLol(swift) != nil else {
            Issue.record("none of the mutations applies to lol.lua's export")
            return
        }
        #expect((report.diagnostics["MutatedLolLayout"] ?? []).allSatisfy { !$0.contains("error:") })
        #expect(!(report.mismatches["MutatedLolLayout"] ?? []).isEmpty)
        #expect(!report.passed.contains("MutatedLolLayout"))
    }

    /// Every param of every shipped script moved off its default at once: the export bakes
    /// each in and moves as `cardlua run --param …` with the same values does.
    @Test(arguments: ExportProofTests.movedCases.map(\.className))
    func everyParamMovedOffItsDefault(_ className: String) async throws {
        let moved = try #require(Self.movedCases.first { $0.className == className })
        if case .failure(let error) = Self.movedExport(moved) {
            // Only an endless wrap may be refused: UIKit's flow layout has none.
            #expect(error.message.hasPrefix("layout.wraps = true is not supported"), "\(error)")
            return
        }
        let report = try await Self.report()
        #expect(report.passed.contains(className), "\(report.problems(of: className).prefix(12).joined(separator: "\n"))")
    }

    /// Per-item sizes, per-section insets and header sizes come from the delegate, which
    /// forwards to the exported methods: every item lands where the engine puts it, both ways.
    @Test(arguments: SizesCorpus.cases.map(\.className))
    func delegateSizesAndInsetsMoveAsTheScript(_ className: String) async throws {
        let report = try await Self.report()
        #expect(report.passed.contains(className), "\(report.problems(of: className).prefix(12).joined(separator: "\n"))")
    }

    /// The appearance (CALayer's fields on the attributes subclass) is part of the proof:
    /// a corner radius one point off is reported, by name.
    @Test func anAppearanceBugIsReported() async throws {
        let report = try await Self.report()
        let problems = report.mismatches["CornerMutatedStackedDeckLayout"] ?? []
        #expect(problems.contains { $0.contains("cornerRadius is 11.0, the script's 12.0") }, "\(problems)")
        #expect(!report.passed.contains("CornerMutatedStackedDeckLayout"))
    }

    /// `--param` values are baked into the export: each of ``tunedCases`` exports with
    /// its values and moves as `cardlua run --param …` does.
    @Test(arguments: ExportProofTests.tunedCases.map(\.className))
    func tunedParamsAreBakedIn(_ className: String) async throws {
        let report = try await Self.report()
        let problems = report.problems(of: className)
        #expect(report.passed.contains(className), "\(problems.prefix(12).joined(separator: "\n"))")
    }

    /// The hostile-names corpus (names that clash with Swift, UIKit and the file's own
    /// names; comments and file names holding line breaks and control characters) and the
    /// integer edges Lua wraps compile without a warning and move as their Lua runs.
    @Test(arguments: HostileCorpus.cases.map(\.className))
    func hostileScriptsMoveAsTheirScript(_ className: String) async throws {
        let report = try await Self.report()
        let problems = report.problems(of: className)
        #expect(problems.isEmpty, "\(problems.prefix(12).joined(separator: "\n"))")
        #expect(report.passed.contains(className))
    }

    /// A warning in a compiled file fails its proof (the issue: "compiles without warnings
    /// in Swift 6 language mode"), though it builds and matches.
    /// Headers and footers keep super's attributes while the cells beside them turn and
    /// fade: the engine turns cells only (on both of the export's query paths).
    @Test(arguments: SectionsCorpus.cases.map(\.className))
    func headersAndFootersKeepSupersAttributes(_ className: String) async throws {
        let report = try await Self.report()
        let problems = report.problems(of: className)
        #expect(problems.isEmpty, "\(problems.prefix(12).joined(separator: "\n"))")
        #expect(report.passed.contains(className))
    }

    @Test func aWarningFailsTheProof() async throws {
        let report = try await Self.report()
        let diagnostics = report.diagnostics["WarnedHandWrittenLolLayout"] ?? []
        #expect(diagnostics.contains { $0.contains("warning:") && $0.contains("unusedByTheProof") }, "\(diagnostics)")
        #expect((report.mismatches["WarnedHandWrittenLolLayout"] ?? ["not run"]).isEmpty)
        #expect(!report.passed.contains("WarnedHandWrittenLolLayout"))
    }

    /// The harness itself: lol.lua ported by hand compiles cleanly and matches the Lua run
    /// frame by frame (the demo, random offsets and flings).
    @Test func aHandWrittenPortMatchesItsScript() async throws {
        let report = try await Self.report()
        let problems = report.problems(of: "HandWrittenLolLayout")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(report.passed.contains("HandWrittenLolLayout"))
    }

    /// The proof's port of lol.lua is the benchmark's (scripts/bench-export.d), not a
    /// second copy, and the proof's deliberate mistakes really change it.
    @Test func theHandWrittenPortIsTheBenchmarks() async throws {
        let benchmarks = try String(contentsOf: TestSupport.packageRoot
            .appendingPathComponent("scripts/bench-export.d/HandWrittenLol.swift"), encoding: .utf8)
        #expect(HandWrittenLayouts.lol == benchmarks)
        #expect(benchmarks.contains("final class HandWrittenLolLayout: UICollectionViewFlowLayout"))
        let cases = try await Self.shared.result.get().cases
        for name in ["FlippedHandWrittenLolLayout", "WarnedHandWrittenLolLayout"] {
            let mutated = try #require(cases.first { $0.className == name }).swift
            #expect(mutated.replacingOccurrences(of: name, with: "HandWrittenLolLayout") != benchmarks, "\(name)")
        }
    }

    /// A translation bug fails the comparison: the same port with one sign flipped is
    /// reported, naming a transform field.
    @Test func aFlippedSignIsReported() async throws {
        let report = try await Self.report()
        let problems = report.mismatches["FlippedHandWrittenLolLayout"] ?? []
        #expect(!report.passed.contains("FlippedHandWrittenLolLayout"))
        #expect(problems.contains { $0.contains("m13") || $0.contains("m31") }, "\(problems)")
    }
}
