import CardExport
import CardLayout
import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// `cardlua export --swiftui`'s proof (docs/export-swiftui.md): every exportable shipped
/// script's view is compiled with `swiftc -swift-version 6` against the test-only SwiftUI
/// module and driven through the script's demo (the seeds also through random jumps and
/// flings): at each frame's offset every card the Lua run shows must be drawn as UIKit
/// draws the Lua run's attributes — the composed projection of its transform about its
/// centre, moved to its center, within 1e-9 — with its alpha, zIndex and size, and every
/// release's target through `updateTarget` must be the script's targetContentOffset.
@Suite struct SwiftUIExportProofTests {
    static let seeds: Set<String> = ExportProofTests.seeds

    /// Each shipped script's SwiftUI export or refusal.
    static let exports: [(script: String, viewName: String, result: Result<String, ExportError>)] =
        ExportProofTests.shippedScripts.map { script in
            let source = (try? String(contentsOf: TestSupport.packageRoot.appendingPathComponent(script), encoding: .utf8)) ?? ""
            return (script, Exporter.viewName(forFileName: script), Result { () throws(ExportError) -> String in
                try Exporter.export(source: source, fileName: script, className: nil, params: [:], target: .swiftui)
            })
        }

    static func source(_ script: String) -> String {
        (try? String(contentsOf: TestSupport.packageRoot.appendingPathComponent(script), encoding: .utf8)) ?? ""
    }

    @Test func atLeastThirtyScriptsExportTheSeedsAmongThem() throws {
        let exported = try Self.exports.filter { try (try? $0.result.get()) != nil && !Self.fitsSeveralALine($0.script) }
            .map(\.script)
        #expect(exported.count >= 30, "\(exported.count) export: \(exported)")
        #expect(Self.seeds.isSubset(of: Set(exported)))
    }

    @Test func everyExportPassesSwiftFormatLintStrict() throws {
        let files = Self.exports.compactMap { e in (try? e.result.get()).map { (name: e.viewName + ".swift", swift: $0) } }
        let findings = try ExportFormatTests.lint(files)
        #expect(findings.isEmpty, "\(findings.prefix(2000))")
    }

    /// The refusals, each at its line with the reason SwiftUI cannot do it.
    @Test func refusalsSayWhy() {
        let expected: [String: String] = [
            "scripts/wrap-carousel.lua": "no SwiftUI primitive scrolls endlessly",
            "scripts/effects/icarousel-rotary.lua": "--param wrap=false",
            "scripts/effects/animated-parallax.lua": "a card size that changes with the offset",
            "scripts/effects/carlens.lua": "a card size that changes with the offset",
            "scripts/paging-layout.lua": "gives cards frames of their own",
            "scripts/effects/paging-stack-vortex.lua": "gives cards frames of their own",
        ]
        for (script, reason) in expected {
            guard let export = Self.exports.first(where: { $0.script == script }) else {
                Issue.record("\(script) is not shipped"); continue
            }
            switch export.result {
            case .success: Issue.record("\(script) exported; expected a refusal (\(reason))")
            case .failure(let error):
                #expect(error.description.hasPrefix("\(script):\(error.line): export --swiftui: "))
                #expect(error.description.contains(reason), "\(error.description)")
            }
        }
    }

    /// A custom deceleration rate: SwiftUI has no public API for one.
    @Test func aCustomDecelerationRateIsRefused() {
        let script = "function prepare(layout)\n  layout.decelerationRate = 0.99\nend\n"
        #expect(throws: ExportError.self) {
            try Exporter.export(source: script, fileName: "rate.lua", className: nil, params: [:], target: .swiftui)
        }
        do {
            _ = try Exporter.export(source: script, fileName: "rate.lua", className: nil, params: [:], target: .swiftui)
        } catch {
            #expect(error.description.hasPrefix("rate.lua:2: export --swiftui: a custom layout.decelerationRate"))
        }
    }

    /// Whether the engine's demo layout of the script puts two cards on one line (a grid),
    /// which `cardlua export --swiftui` refuses (the translator cannot know the sizes).
    static func fitsSeveralALine(_ script: String) throws -> Bool {
        let effect = try LuaEffect(source: source(script), chunkName: script)
        let layout = try ScenarioRunner(effect: effect, scriptName: script)
            .preparedLayout(viewportSize: Scenario.defaultViewportSize, numberOfItems: [20])
        guard let a = layout.layoutAttributesForItem(at: CardIndexPath(item: 0, section: 0)),
              let b = layout.layoutAttributesForItem(at: CardIndexPath(item: 1, section: 0)) else { return false }
        return layout.configuration.scrollDirection == .horizontal ? a.frame.origin.x == b.frame.origin.x
            : a.frame.origin.y == b.frame.origin.y
    }

    /// Where SwiftUI's frame, not an offset, is what the view gets: the offset recovered from
    /// a card's frame in the scroll view can differ from the Lua run's in the last bit, and a
    /// script whose look jumps at an exact position (fspager-cubic: alpha 0 from p = 1 on)
    /// then shows the other side of the jump at that one frame. At most this many events.
    static let boundaryEvents: [String: Int] = ["scripts/effects/fspager-cubic.lua": 1]

    @Test func everyExportDrawsAndSnapsAsItsLuaRun() throws {
        var cases: [SwiftUIProof.Case] = []
        for export in Self.exports {
            guard let swift = try? export.result.get(), try !Self.fitsSeveralALine(export.script) else { continue }
            let source = Self.source(export.script)
            var runs = [(name: "demo", record: try LuaRecorder.demo(source: source, fileName: export.script))]
            if Self.seeds.contains(export.script) {
                runs.append((name: "random", record: try LuaRecorder.randomWalk(source: source, fileName: export.script, seed: 0xC0FFEE)))
            }
            cases.append(SwiftUIProof.Case(script: export.script, viewName: export.viewName, swift: swift, runs: runs))
        }
        let report = try SwiftUIProof.prove(cases)
        #expect(report.buildFailure == nil, "\(report.buildFailure ?? "")")
        #expect(cases.count >= 30)
        for c in cases {
            let problems = report.problems[c.viewName] ?? []
            if let allowed = Self.boundaryEvents[c.script] {
                let events = Set(problems.map { $0.split(separator: ",")[0] })
                #expect(events.count <= allowed && problems.allSatisfy { $0.contains(": frame ") },
                        "\(c.script): \(problems.joined(separator: "\n"))")
                continue
            }
            #expect(problems.isEmpty, "\(c.script): \(problems.joined(separator: "\n"))")
        }
    }

    /// A carousel whose rest moves with the release's velocity (100 ms of it): the velocity's
    /// units are seen in every target.
    static let velocityScript = """
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          layout.itemSize = CGSizeMake(200, 500)
          layout.sectionInset = UIEdgeInsetsMake(0, 100, 0, 100)
        end

        function transform(attributes, layout)
          attributes.alpha = 0.5
        end

        function targetContentOffset(proposed, velocity, layout)
          return CGPointMake(proposed.x + velocity.x * 100, proposed.y)
        end
        """

    /// Mapping bugs the proof must catch: the transform not moved to the card's centre
    /// (UIKit's anchorPoint), and SwiftUI's velocity passed on as UIKit's.
    @Test(arguments: [
        ("scripts/lol.lua", "CATransform3DConcat(CATransform3DConcat(toCentre, attributes.transform3D), fromCentre)",
         "CATransform3DConcat(attributes.transform3D, fromCentre)"),
        ("velocity.lua", "context.velocity.dx / 1000", "context.velocity.dx"),
    ])
    func aMappingBugFails(script: String, find: String, replace: String) throws {
        let source = script == "velocity.lua" ? Self.velocityScript : Self.source(script)
        let swift = try Exporter.export(source: source, fileName: script, className: nil, params: [:], target: .swiftui)
        let viewName = Exporter.viewName(forFileName: script)
        let record = try LuaRecorder.demo(source: source, fileName: script)
        // Unchanged, the export agrees with the Lua run; mutated, it must not.
        for (text, agrees) in [(swift, true), (swift.replacingOccurrences(of: find, with: replace), false)] {
            #expect(text.contains(agrees ? find : replace))
            let report = try SwiftUIProof.prove([SwiftUIProof.Case(script: script, viewName: viewName, swift: text,
                                                                   runs: [(name: "demo", record: record)])])
            #expect(report.buildFailure == nil, "\(report.buildFailure ?? "")")
            let problems = report.problems[viewName] ?? []
            #expect(problems.isEmpty == agrees, "\(script), \(agrees ? "as exported" : "\(find) → \(replace)"): \(problems)")
        }
    }
}
