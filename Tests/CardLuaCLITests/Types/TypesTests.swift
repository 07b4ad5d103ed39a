import Foundation
import Testing

/// `cardlua types`, the shipped `scripts/types/cardlua.d.lua`, and the `.luacheckrc` std.
@Suite struct TypesTests {
    static var shipped: URL { CLI.packageRoot.appendingPathComponent("scripts/types/cardlua.d.lua") }

    @Test func theShippedDefinitionsAreUpToDate() throws {
        let result = try CLI.run(["types"])
        #expect(result.status == 0, "\(result.stderr)")
        let shipped = try String(contentsOf: Self.shipped, encoding: .utf8)
        #expect(result.stdout == shipped,
                "scripts/types/cardlua.d.lua is out of date: run `cardlua types -o scripts/types/cardlua.d.lua`")
    }

    @Test func theDefinitionsAreLuaCATS() throws {
        let text = try CLI.run(["types"]).stdout
        #expect(text.hasPrefix("---@meta cardlua\n"))
        // Functions as definitions with @param and @return (what the language server shows
        // in hover and signature help), values and callbacks as typed globals.
        #expect(text.contains("""
        ---@param x number
        ---@param y number
        ---@return CGPoint
        function CGPointMake(x, y) end
        """))
        #expect(text.contains("---@type CATransform3D\nCATransform3DIdentity = nil"))
        #expect(text.contains("---@type fun(layout: UICollectionViewFlowLayout)\nprepare = nil"))
        #expect(text.contains("function UICollectionViewFlowLayout:layoutAttributesForElements(rect) end"))
        #expect(text.contains("---@class UICollectionViewLayoutAttributes"))
        #expect(text.contains("do not keep it past the call"))
        // Every method of a class documents its parameters.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where line.hasPrefix("function ") && line.contains(":") {
            let open = try #require(line.firstIndex(of: "("))
            let parameters = line[line.index(after: open)...].prefix(while: { $0 != ")" })
                .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let doc = lines[..<index].reversed().prefix(while: { $0.hasPrefix("---") })
            for parameter in parameters {
                #expect(doc.contains { $0.hasPrefix("---@param \(parameter) ") }, "\(line): no @param \(parameter)")
            }
        }
    }

    /// The definitions are valid Lua: they load (and run, harmlessly) as a script.
    @Test func theDefinitionsLoadAsLua() throws {
        let result = try CLI.run(["run", Self.shipped.path, "--offset", "0"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func writesToAFile() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["types", "-o", "api.d.lua"], directory: directory)
        #expect(result.status == 0)
        let written = try String(contentsOf: directory.appendingPathComponent("api.d.lua"), encoding: .utf8)
        #expect(written == (try CLI.run(["types"])).stdout)
    }

    /// `.luacheckrc`'s cardlua std lists exactly the globals the definitions declare: the
    /// prelude's names read-only, the callbacks and `scenarios` settable. Read by running
    /// the file itself (it is Lua) through cardlua.
    @Test func theLuacheckStdMatchesTheDefinitions() throws {
        let definitions = try CLI.run(["types"]).stdout
        var declared: Set<String> = []
        for line in definitions.split(separator: "\n") {
            if line.hasPrefix("function "), !line.contains(":"), let open = line.firstIndex(of: "(") {
                declared.insert(String(line.dropFirst("function ".count)[..<open]))
            } else if line.hasSuffix(" = nil") {
                declared.insert(String(line.dropLast(" = nil".count)))
            }
        }
        let settable: Set<String> = ["prepare", "transform", "targetContentOffset", "scenarios", "params",
                                     "layoutAttributesForElements", "sizeForItem", "insetForSection",
                                     "referenceSizeForHeader", "referenceSizeForFooter"]

        let config = try String(contentsOf: CLI.packageRoot.appendingPathComponent(".luacheckrc"), encoding: .utf8)
        let reader = "stds = {}\n" + config + """

        local function names(t)
          local out = {}
          for k, v in pairs(t) do out[#out + 1] = type(k) == "number" and v or k end
          table.sort(out)
          return table.concat(out, " ")
        end
        print("read " .. names(stds.cardlua.read_globals))
        print("set " .. names(stds.cardlua.globals))

        """
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(reader, named: "rc.lua", in: directory)
        let result = try CLI.run(["run", "rc.lua", "--offset", "0"], directory: directory)
        try #require(result.status == 0, "\(result.stderr)")
        func listed(_ tag: String) -> Set<String> {
            let line = result.stderr.split(separator: "\n").first { $0.hasPrefix("rc.lua: \(tag) ") } ?? ""
            return Set(line.dropFirst("rc.lua: \(tag) ".count).split(separator: " ").map(String.init))
        }
        #expect(listed("read") == declared.subtracting(settable),
                "update .luacheckrc: missing \(declared.subtracting(settable).subtracting(listed("read")).sorted()), extra \(listed("read").subtracting(declared).sorted())")
        #expect(listed("set") == settable)
    }

    /// Shown as skipped, not passed, where luacheck is not installed.
    @Test(.enabled(if: NewTests.executable(named: "luacheck") != nil, "luacheck is not installed"))
    func theShippedScriptsPassLuacheck() throws {
        let luacheck = try #require(NewTests.executable(named: "luacheck"))
        let scripts = try FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot.appendingPathComponent("scripts").path)
            .filter { $0.hasSuffix(".lua") }.sorted().map { "scripts/\($0)" }
        #expect(!scripts.isEmpty)
        let result = try NewTests.runTool(luacheck, ["--no-color", "-q"] + scripts, directory: CLI.packageRoot)
        #expect(result.status == 0, "\(result.output)")
    }
}
