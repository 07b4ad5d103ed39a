import CardLayout
@testable import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// Every Lua block in README.md and docs/ runs as written.
///
/// A block fenced as ```` ```lua ```` is a whole script: `check` finds no error in it, its
/// demo runs, and so does every scenario it defines. A block fenced as
/// ```` ```lua fragment ```` is part of a script: it is run the same way inside
/// ``fixture`` (a horizontal carousel of one row), the fragment after it, so that what
/// it defines replaces the fixture's. A block fenced otherwise (```` ```text ````) is not
/// Lua and is not run.
@Suite struct DocsExamplesTests {
    /// What a fragment completes: a plain, valid horizontal carousel.
    static let fixture = """
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(240, 340)
      layout.sectionInset = UIEdgeInsetsMake(198, 87, 198, 87)
      layout.minimumLineSpacing = 20
    end

    """

    struct Block: CustomStringConvertible, Sendable {
        var file: String
        var line: Int
        var isFragment: Bool
        var text: String
        var description: String { "\(file):\(line)\(isFragment ? " (fragment)" : "")" }
        var script: String { isFragment ? DocsExamplesTests.fixture + text : text }
    }

    /// The Lua blocks of the README and every page under docs/.
    static let blocks: [Block] = {
        let root = TestSupport.packageRoot
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        let files = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        var found: [Block] = []
        for file in files {
            guard let text = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) else { continue }
            var current: Block?
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if var block = current {
                    if trimmed == "```" {
                        found.append(block)
                        current = nil
                    } else {
                        block.text += line + "\n"
                        current = block
                    }
                } else if trimmed == "```lua" || trimmed == "```lua fragment" {
                    current = Block(file: file, line: index + 1, isFragment: trimmed.hasSuffix("fragment"), text: "")
                }
            }
        }
        return found
    }()

    @Test func theDocsHaveLuaExamples() {
        #expect(Self.blocks.count >= 5, "\(Self.blocks)")
    }

    @Test(arguments: blocks)
    func theBlockRunsAsWritten(_ block: Block) throws {
        let diagnostics = ScriptChecker.check(source: block.script, chunkName: "example.lua")
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(block): \(errors.map { $0.formatted(file: "example.lua") })")

        let effect = try LuaEffect(source: block.script, chunkName: "example.lua")
        let runner = ScenarioRunner(effect: effect, scriptName: "example.lua")
        let demo = try runner.runDemo()
        #expect(!demo.frames.isEmpty, "\(block)")
        // A horizontal carousel example lays out one row: a second row (a horizontal flow
        // fills columns while cards fit) is a copy-paste trap.
        if demo.configuration.scrollDirection == .horizontal, let first = demo.frames.first {
            let rows = Set(first.items.map(\.center.y))
            #expect(rows.count <= 1, "\(block): \(rows.count) rows")
        }
        for name in try effect.scenarioNames() {
            let defaults = Scenario(name: name, viewportSize: Scenario.defaultViewportSize,
                                    numberOfItems: Scenario.defaultNumberOfItems,
                                    framesPerSecond: Scenario.defaultFramesPerSecond, steps: [])
            let timeline = try runner.run(try effect.scenario(named: name, defaults: defaults))
            #expect(!timeline.frames.isEmpty, "\(block): scenario \(name)")
        }
    }
}
