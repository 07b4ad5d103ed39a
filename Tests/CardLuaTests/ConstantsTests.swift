import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// The constants C, Lua and Swift share have one definition, in `CLuaShims.h` (read by
/// Swift through `ScriptConstants`); the prelude's copies must say the same, or these fail.
@Suite struct ConstantsTests {
    static func prelude(_ file: String) throws -> String {
        try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("Sources/CardLua/Lua/prelude/\(file)"),
                   encoding: .utf8)
    }

    /// The `{ … }` on the line that assigns `name` in `text`.
    static func table(_ name: String, in text: String) throws -> String {
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("local \(name) = {") })
        let open = try #require(line.firstIndex(of: "{")), close = try #require(line.lastIndex(of: "}"))
        return String(line[line.index(after: open)..<close])
    }

    @Test func layoutConfigurationOrderMatchesTheHeader() throws {
        let text = try Self.table("LAYOUT_CONFIG_ORDER", in: Self.prelude("layout.lua"))
        let lua = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        #expect(ScriptConstants.configKeys.count == 20)  // CARDLUA_CFG_COUNT
        #expect(lua == ScriptConstants.configKeys)
    }

    @Test func stepCodesMatchTheHeader() throws {
        let text = try Self.table("STEP_CODE", in: Self.prelude("scenarios.lua"))
        var lua: [String: Int] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
            lua[parts[0]] = Int(parts[1])
        }
        #expect(ScriptConstants.stepCodes.count == 7)
        #expect(lua == ScriptConstants.stepCodes)
    }

    /// The checker suggests what a script may assign; the read-only keys are not among them.
    @Test func attributeKeysComeFromTheOneList() {
        let keys = ScriptConstants.attributeKeys
        #expect(keys.map(\.name).contains("transform3D"))
        #expect(keys.first { $0.name == "indexPath" }?.writable == false)
        // frame size center transform3D transform alpha zIndex hidden, and (contract v2)
        // isDoubleSided cornerRadius shadowOpacity shadowRadius shadowOffset backgroundColor blurRadius
        #expect(keys.filter(\.writable).count == 15)
    }
}
