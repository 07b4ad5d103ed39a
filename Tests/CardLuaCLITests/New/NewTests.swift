import CardLuaTestSupport
import Foundation
import Testing

/// `cardlua new`, end to end.
@Suite struct NewTests {
    static let templates = ["blank", "lol", "card-scale", "photo-browser", "stacked-deck", "paging-layout",
                            "wrap-carousel"]

    /// Each template: the script runs and checks clean as written, and the editor files
    /// come with it.
    @Test(arguments: templates)
    func theStarterRunsAndChecksClean(_ template: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try CLI.run(["new", "effect.lua", "--from", template], directory: directory)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("wrote effect.lua"))

        let run = try CLI.run(["run", "effect.lua"], directory: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let check = try CLI.run(["check", "effect.lua"], directory: directory)
        #expect(check.status == 0, "\(check.stdout)")

        let script = try String(contentsOf: directory.appendingPathComponent("effect.lua"), encoding: .utf8)
        #expect(script.hasPrefix("-- effect.lua: a cardlua card-carousel effect"))
        #expect(script.contains("cardlua watch effect.lua -o preview.html"))
        #expect(script.contains("---@param layout UICollectionViewFlowLayout"))

        let definitions = try String(contentsOf: directory.appendingPathComponent("cardlua.d.lua"), encoding: .utf8)
        let types = try CLI.run(["types"])
        #expect(definitions == types.stdout)

        let luarc = try Data(contentsOf: directory.appendingPathComponent(".luarc.json"))
        let settings = try #require(try JSONSerialization.jsonObject(with: luarc) as? [String: Any])
        #expect(settings["workspace.library"] as? [String] == ["cardlua.d.lua"])
        #expect(settings["runtime.version"] as? String == "Lua 5.4")
    }

    /// `cardlua new fx.lua` starts a carousel, not a grid: horizontal, one row, the first
    /// card centred and full size, its neighbours smaller, and a fling that rests with a
    /// card centred.
    @Test func theBlankStarterIsACentredCarouselThatSnaps() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #require(try CLI.run(["new", "fx.lua"], directory: directory).status == 0)
        let still = try CLI.run(["run", "fx.lua", "--offset", "0", "--format", "json"], directory: directory)
        try #require(still.status == 0, "\(still.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(still.stdout.utf8)) as? [String: Any])
        let layout = try #require(json["layout"] as? [String: Any])
        #expect(layout["scrollDirection"] as? String == "horizontal")
        let frame = try #require((json["frames"] as? [[String: Any]])?.first)
        let items = try #require(frame["items"] as? [[String: Any]])
        let centres = items.compactMap { ($0["center"] as? [String: Double]) }
        #expect(Set(centres.compactMap { $0["y"] }) == [368], "one row, centred in the 736-pt viewport")
        #expect(centres.first?["x"] == 207, "the first card centred in the 414-pt viewport")
        let scales = items.compactMap { ($0["transform3D"] as? [Double])?.first }
        #expect(scales.first == 1)
        #expect(scales.dropFirst().allSatisfy { $0 < 1 }, "\(scales)")
        // A fling from 0: the 289.8-pt cards are 16 pt apart, item i is centred at i·305.8.
        let fling = try CLI.run(["run", "fx.lua", "--fling", "3", "--format", "json"], directory: directory)
        try #require(fling.status == 0, "\(fling.stderr)")
        let flung = try #require(try JSONSerialization.jsonObject(with: Data(fling.stdout.utf8)) as? [String: Any])
        let snap = try #require((flung["snaps"] as? [[String: Any]])?.first)
        let target = try #require((snap["targetContentOffset"] as? [String: Double])?["x"])
        let pitch = 414 * 0.7 + 16
        #expect(abs(target / pitch - (target / pitch).rounded()) < 1e-9, "rests on a card: \(target)")
        #expect(target > 0)
    }

    /// The templates are the shipped scripts (embedded from scripts/ at build time), with
    /// a header and `---@` annotations added.
    @Test(arguments: ["lol", "card-scale", "photo-browser", "stacked-deck", "paging-layout", "wrap-carousel"])
    func theExampleTemplatesAreTheShippedScripts(_ template: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try CLI.run(["new", "x.lua", "--from", template], directory: directory)
        try #require(made.status == 0, "\(made.stderr)")
        let written = try String(contentsOf: directory.appendingPathComponent("x.lua"), encoding: .utf8)
        let shipped = try String(contentsOfFile: CLI.script("\(template).lua"), encoding: .utf8)

        let withoutAnnotations = written.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("---@") }.joined(separator: "\n")
        #expect(withoutAnnotations.hasSuffix(shipped),
                "`new --from \(template)` does not end with scripts/\(template).lua")
        let header = withoutAnnotations.dropLast(shipped.count)
        #expect(header.split(separator: "\n").allSatisfy { $0.hasPrefix("--") }, "the header is comments only")
    }

    /// Shown as skipped, not passed, where luacheck is not installed.
    @Test(.enabled(if: NewTests.executable(named: "luacheck") != nil, "luacheck is not installed"))
    func theShippedLuacheckConfigPassesEveryStarter() throws {
        let luacheck = try #require(Self.executable(named: "luacheck"))
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String] = []
        for template in Self.templates {
            _ = try CLI.run(["new", "\(template).lua", "--from", template], directory: directory)
            files.append("\(template).lua")
        }
        let config = CLI.packageRoot.appendingPathComponent(".luacheckrc").path
        let result = try Self.runTool(luacheck, ["--no-color", "--config", config] + files, directory: directory)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func neverOverwritesTheScript() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write("-- mine\n", named: "effect.lua", in: directory)
        let result = try CLI.run(["new", "effect.lua", "--from", "lol"], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("effect.lua already exists"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "-- mine\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(".luarc.json").path))
    }

    @Test func leavesAnExistingLuarcAloneAndSaysSo() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let luarc = try CLI.write("{ \"mine\": true }\n", named: ".luarc.json", in: directory)
        let foreign = try CLI.write("-- my own definitions\n", named: "cardlua.d.lua", in: directory)
        let result = try CLI.run(["new", "sub/effect.lua"], directory: directory)
        // A new folder for the script: its editor files go there, beside it.
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("sub/.luarc.json").path))

        let again = try CLI.run(["new", "second.lua"], directory: directory)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("left .luarc.json alone"))
        #expect(again.stdout.contains("left cardlua.d.lua alone"))
        #expect(try String(contentsOfFile: luarc, encoding: .utf8) == "{ \"mine\": true }\n")
        #expect(try String(contentsOfFile: foreign, encoding: .utf8) == "-- my own definitions\n")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("second.lua").path))
    }

    @Test func refreshesOutdatedDefinitionsItWrote() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let definitions = try CLI.write("---@meta cardlua\n-- an older version\n", named: "cardlua.d.lua", in: directory)
        let result = try CLI.run(["new", "effect.lua"], directory: directory)
        #expect(result.status == 0)
        #expect(result.stdout.contains("updated cardlua.d.lua"))
        #expect(try String(contentsOfFile: definitions, encoding: .utf8) == (try CLI.run(["types"])).stdout)
    }

    @Test func wrongUsage() throws {
        let unknown = try CLI.run(["new", "x.lua", "--from", "lool"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("did you mean 'lol'?"))
        let missing = try CLI.run(["new"])
        #expect(missing.status == 2)
    }

    // MARK: Helpers

    static func executable(named name: String) -> String? { TestSupport.which(name) }

    /// Runs a tool (luacheck) in `directory`; `output` is what it wrote on both streams.
    static func runTool(_ path: String, _ arguments: [String], directory: URL) throws -> (status: Int32, output: String) {
        let result = try TestSupport.run(URL(fileURLWithPath: path), arguments, directory: directory)
        return (result.status, result.stdout + result.stderr)
    }
}
