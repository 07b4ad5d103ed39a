import CardLuaTestSupport
import Foundation
import Testing

/// The catalogue's families (docs/catalogue.md, "Families"): the paging-scale-*,
/// paging-stack-* and gemini-* scripts are written by scripts/generate-families from
/// scripts/families/. A generated script edited by hand, or a template edited without
/// regenerating, fails here. The generator is a plain Lua 5.4 program: without a stock
/// `lua5.4` these tests are skipped locally (said in the skip), and fail under CI=true.
@Suite struct FamiliesTests {
    static let stockLua: String? = TestSupport.which("lua5.4")
    static let underCI = ProcessInfo.processInfo.environment["CI"] == "true"
    static let effects = CLI.packageRoot.appendingPathComponent("scripts/effects")
    static let marker = "-- Generated from scripts/families/"

    /// Runs scripts/generate-families (the one in `root`, default the package's) into `output`.
    static func generate(into output: URL, root: URL = CLI.packageRoot) throws -> TestSupport.ProcessResult {
        let lua = try #require(stockLua)
        return try TestSupport.run(URL(fileURLWithPath: lua),
                                   [root.appendingPathComponent("scripts/generate-families").path, output.path])
    }

    /// The committed scripts that say they are generated (their third line).
    static func committedGenerated() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: effects.path).filter { name in
            guard name.hasSuffix(".lua") else { return false }
            let text = try String(contentsOf: effects.appendingPathComponent(name), encoding: .utf8)
            let lines = text.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false)
            return lines.count > 2 && lines[2].hasPrefix(marker)
        }.sorted()
    }

    @Test func underCITheGeneratorCanRun() {
        if Self.underCI {
            #expect(Self.stockLua != nil, "CI: lua5.4 is missing, so the families check would be skipped (scripts/bootstrap --test installs it)")
        }
    }

    @Test(.enabled(if: FamiliesTests.stockLua != nil || FamiliesTests.underCI,
                   "SKIPPED: lua5.4 is not installed (scripts/bootstrap --test installs it); the families are not checked"))
    func everyGeneratedScriptIsWhatItsFamilyWrites() throws {
        let output = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try Self.generate(into: output)
        #expect(result.status == 0, "\(result.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        // The families as docs/catalogue.md lists them: 8 + 6 + 6.
        #expect(written.filter { $0.hasPrefix("paging-scale-") }.count == 8)
        #expect(written.filter { $0.hasPrefix("paging-stack-") }.count == 6)
        #expect(written.filter { $0.hasPrefix("gemini-") }.count == 6)
        // No generated script left behind by a member that is gone.
        #expect(try Self.committedGenerated() == written)
        for name in written {
            let fresh = try String(contentsOf: output.appendingPathComponent(name), encoding: .utf8)
            let committed = try String(contentsOf: Self.effects.appendingPathComponent(name), encoding: .utf8)
            let same = fresh == committed   // not the two whole texts in the failure
            #expect(same,
                    "scripts/effects/\(name) differs from what scripts/families/ writes: edit the family, then run scripts/generate-families")
            #expect(!fresh.contains("{{"), "\(name) keeps a template marker")
        }
    }

    @Test(.enabled(if: FamiliesTests.stockLua != nil || FamiliesTests.underCI,
                   "SKIPPED: lua5.4 is not installed (scripts/bootstrap --test installs it)"))
    func aMistakeInATemplateWritesNothingAndSaysWhere() throws {
        // A copy of the generator and the families, with one template asking for a value
        // no member has.
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let scripts = root.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        for item in ["generate-families", "families"] {
            try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("scripts/\(item)"),
                                             to: scripts.appendingPathComponent(item))
        }
        let template = scripts.appendingPathComponent("families/gemini/template.lua.in")
        var text = try String(contentsOf: template, encoding: .utf8)
        text = text.replacingOccurrences(of: "params = {\n", with: "params = {\n  typo = {{noSuchValue}},\n")
        try text.write(to: template, atomically: true, encoding: .utf8)
        let output = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)

        let result = try Self.generate(into: output, root: root)
        #expect(result.status == 1)
        #expect(result.stderr.contains("scripts/families/gemini/template.lua.in:"), "\(result.stderr)")
        #expect(result.stderr.contains("noSuchValue"), "\(result.stderr)")
        // gemini comes last: the paging families expanded fine, yet nothing was written.
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
    }

    /// `cardlua new --from` a generated port writes the whole script, as committed (the
    /// binary embeds scripts/effects): one self-contained file, no template left in it.
    @Test(arguments: ["paging-scale-cover-flow", "paging-stack-blur", "gemini-cube"])
    func newFromAGeneratedPortWritesTheWholeScript(name: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["new", "mine.lua", "--from", name], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let written = try String(contentsOf: directory.appendingPathComponent("mine.lua"), encoding: .utf8)
        let committed = try String(contentsOf: Self.effects.appendingPathComponent("\(name).lua"), encoding: .utf8)
        // `new` puts its own header above the script and LuaLS annotations (---@) above
        // the callbacks; the rest is the committed script, whole.
        let script = written.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("---@") }.joined(separator: "\n")
        #expect(script.hasSuffix("\n" + committed), "\(written)")
        #expect(written.contains(Self.marker))
        #expect(!written.contains("{{"))
    }
}
