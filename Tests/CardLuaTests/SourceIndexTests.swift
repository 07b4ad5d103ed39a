@testable import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// The static warnings read off the syntax tree: each case is one a scan of the text
/// alone gets wrong (a call spread over lines, a name in a string or a comment, a local
/// that shadows a global), with the lines counted by hand.
@Suite struct SourceIndexTests {
    private func dropped(_ source: String) -> [String] {
        SourceIndex(source: source).droppedResults.map { d in
            "\(d.line): " + (d.function ?? "\(d.receiver ?? "?"):\(d.method ?? "?")")
        }
    }

    @Test func aCallStatementWhoseValueIsDroppedIsFoundWhereItStarts() {
        let source = """
            local t = CATransform3DIdentity
            t:rotate(0.1, 0, 1, 0)
            CATransform3DScale(t,
              1, 1, 1)
            if t then self.t:translate(1, 0, 0) end
            do CGAffineTransformMakeScale(2, 2) end
            for i = 1, 2 do t:concat(t); t:invert() end
            """
        #expect(dropped(source) == ["2: t:rotate", "3: CATransform3DScale", "5: self.t:translate",
                                    "6: CGAffineTransformMakeScale", "7: t:concat", "7: t:invert"])
    }

    @Test func aValueThatIsUsedIsNotDropped() {
        let source = """
            local t = CATransform3DIdentity
            t = t:rotate(0.1, 0, 1, 0)
            t = t
              :scale(2, 2, 1)
            local u = CATransform3DMakeScale(1, 1, 1) *
              CATransform3DScale(t, 1, 1, 1)
            local s = "t:rotate(1)" -- t:rotate(2)
            --[[ CATransform3DScale(t, 1, 1, 1) ]]
            f():rotate(1)
            CATransform3D(1)
            t:rotated(1)
            return t:scale(1, 1, 1)
            """
        #expect(dropped(source).isEmpty)
    }

    @Test func globalsAreWhatNoLocalShadows() {
        let source = """
            local prepare
            prepare = function() end
            function tranform(attributes) end
            Scenarios = { spin = {} }
            local function layoutAttributesForElement() end
            function M.sizeForItem() end
            function obj:targetContentOffset() end
            local function helper()
              Prepare = function() end
              local transform = 1
              transform = 2
            end
            count = 3
            function tranform() end
            """
        let globals = SourceIndex(source: source).globals.map { "\($0.line) \($0.name) \($0.kind.rawValue)" }
        #expect(globals == ["3 tranform function", "4 Scenarios table", "9 Prepare function", "13 count other"])
        let warnings = ScriptChecker.misspelledGlobals(SourceIndex(source: source)).map(\.description)
        #expect(warnings == [
            "script:3: warning: function 'tranform' is never called by cardlua — did you mean transform?",
            "script:4: warning: global 'Scenarios' is never read by cardlua — did you mean scenarios?",
            "script:9: warning: function 'Prepare' is never called by cardlua — did you mean prepare?",
        ])
    }

    @Test func linesOfFieldsTableEntriesAndDefinitions() {
        let source = """
            params = {
              rotate = { value = 35, min = 0, max = 90 },
              ["fade"] = { value = 1 },
            }
            scenarios = {
              spin = { steps = {} },
            }
            scenarios.late = { steps = {} }
            function transform(attributes, layout)
              if attributes.alpha == 1 then end
              attributes["alpha"] = 0.5
              attributes.zIndex = 1
            end
            """
        let index = SourceIndex(source: source)
        #expect(index.parsed)
        #expect(index.assignment(to: "alpha") == 11)
        #expect(index.assignment(to: "zIndex") == 12)
        #expect(index.assignment(to: "transform3D") == nil)
        #expect(index.definition(of: "transform") == 9)
        #expect(index.definition(of: "prepare") == nil)
        #expect(index.scenario(named: "spin") == 6)
        #expect(index.scenario(named: "late") == 8)
        #expect(index.scenario(named: "missing") == 5)
        #expect(index.paramLine(forMessage: "params.rotate: min must be below max") == 2)
        #expect(index.paramLine(forMessage: "params.fade: value out of range") == 3)
        #expect(index.paramLine(forMessage: "params.other: unknown") == 1)
        #expect(index.paramLine(forMessage: "something else") == 1)
    }

    @Test func aSourceTheParserRefusesGivesAnEmptyIndex() {
        let index = SourceIndex(source: "function transform(\n  t:rotate(1)\n")
        #expect(!index.parsed)
        #expect(index.droppedResults.isEmpty && index.globals.isEmpty)
        #expect(index.definition(of: "transform") == nil)
        #expect(index.paramLine(forMessage: "params.x: y") == 1)
    }

    /// The warnings of every shipped script come from a tree: each one parses.
    @Test func everyShippedScriptParses() throws {
        let root = TestSupport.packageRoot
        var names: [String] = []
        for folder in ["scripts", "scripts/effects"] {
            let directory = root.appendingPathComponent(folder)
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
            for file in files.sorted() where file.hasSuffix(".lua") {
                let source = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                #expect(SourceIndex(source: source).parsed, "\(folder)/\(file)")
                names.append(file)
            }
        }
        #expect(names.count >= 57)
    }
}
