import CardLuaTestSupport
import Foundation
import Testing

/// The rule that keeps the host alive (Sources/CLuaShims/README.md), checked on the sources: Swift
/// never calls the Lua API (a Lua error unwinding a Swift frame is undefined behaviour);
/// it calls the entry points of CLuaShims, each audited in Sources/CLuaShims/README.md.
@Suite struct AuditTests {
    static let root = TestSupport.packageRoot

    static func sources(_ folder: String, _ ext: String) throws -> [URL] {
        let directory = root.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == ext }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The text without `//` and `/* */` comments (comments may name lua_pcall freely).
    static func code(_ text: String) -> String {
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let rest = text[index...]
            if rest.hasPrefix("//") {
                index = rest.firstIndex(of: "\n") ?? text.endIndex
            } else if rest.hasPrefix("/*") {
                index = rest.range(of: "*/").map(\.upperBound) ?? text.endIndex
            } else {
                out.append(text[index])
                index = text.index(after: index)
            }
        }
        return out
    }

    /// Identifiers that start with lua_ or luaL_ (cardlua_open and x.lua_y do not count).
    static func luaAPICalls(in text: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: "(?<![A-Za-z0-9_.])(lua|luaL)_[A-Za-z0-9_]+")
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
    }

    @Test func swiftCallsNoLuaAPI() throws {
        let files = try Self.sources("Sources/CardLua", "swift")
        #expect(files.contains { $0.lastPathComponent == "LuaEffect.swift" })
        for file in files {
            let text = Self.code(try String(contentsOf: file, encoding: .utf8))
            let calls = Self.luaAPICalls(in: text)
            #expect(calls.isEmpty, "\(file.lastPathComponent) uses the Lua API directly: \(Set(calls).sorted())")
            #expect(!text.contains("import CLua\n") && !text.contains("import CLua\r"),
                    "\(file.lastPathComponent) imports the raw Lua module")
        }
    }

    /// The grep itself works: it finds a call and ignores cardlua_ names and comments.
    @Test func auditFindsWhatItShould() {
        #expect(Self.luaAPICalls(in: Self.code("let s = lua_gettop(L) // lua_pcall\n")) == ["lua_gettop"])
        #expect(Self.luaAPICalls(in: Self.code("cardlua_open(p, n) /* luaL_error */ x.lua_y")).isEmpty)
        #expect(Self.luaAPICalls(in: "luaL_checkinteger(L, 1)") == ["luaL_checkinteger"])
    }

    /// Every function the public header exports is a cardlua_ entry point, the header
    /// exposes no Lua type, and the audit (README.md) covers each one.
    @Test func everyEntryPointIsAudited() throws {
        let header = try String(contentsOf: Self.root.appendingPathComponent("Sources/CLuaShims/include/CLuaShims.h"),
                                encoding: .utf8)
        let readme = try String(contentsOf: Self.root.appendingPathComponent("Sources/CLuaShims/README.md"),
                                encoding: .utf8)
        let declarations = try NSRegularExpression(pattern: "^[A-Za-z_][A-Za-z0-9_ \\*]*?\\b([a-z_][a-z0-9_]*)\\(",
                                                   options: [.anchorsMatchLines])
        let code = Self.code(header)
        let names = declarations.matches(in: code, range: NSRange(code.startIndex..., in: code)).compactMap {
            Range($0.range(at: 1), in: code).map { String(code[$0]) }
        }.filter { $0 != "if" && $0 != "typedef" }
        #expect(names.count >= 15)
        for name in names {
            #expect(name.hasPrefix("cardlua_"), "the header exports \(name)")
            #expect(readme.contains("`\(name)`"), "Sources/CLuaShims/README.md does not audit \(name)")
        }
        #expect(!code.contains("lua_State") && !code.contains("#include <lua"), "the header exposes the Lua API")
    }
}
