import CardExport
import CardLuaTestSupport
import Foundation
import Testing

/// `Exporter.export`'s own contract, apart from the translation: a syntax error of the
/// script is an `ExportError` at Lua's line with Lua's words (the parser's own tests are
/// in LuaSyntaxTests).
@Suite struct ExporterTests {
    @Test(arguments: [
        ("x =", 1, "unexpected symbol near <eof>"),
        ("local function f()\n  return 1\n\n", 4, "'end' expected (to close 'function' at line 1) near <eof>"),
        ("local x <const> = 1\nx = 2", 2, "attempt to assign to const variable 'x'"),
    ])
    func aSyntaxErrorIsAnExportErrorAtItsLine(source: String, line: Int, message: String) {
        #expect(throws: ExportError(fileName: "bad.lua", line: line, message: message)) {
            try Exporter.export(source: source, fileName: "bad.lua", className: nil, params: [:])
        }
        let error = ExportError(fileName: "bad.lua", line: line, message: message)
        #expect(error.description == "bad.lua:\(line): export: \(message)")
    }
}

/// docs/export.md shows the LoL seed's export as `cardlua export scripts/lol.lua` prints
/// it: the page stays today's file, not last round's.
@Suite struct ExportDocsTests {
    @Test func theDocsShowTodaysLolExport() throws {
        let root = TestSupport.packageRoot
        let docs = try String(contentsOf: root.appendingPathComponent("docs/export.md"), encoding: .utf8)
        let marker = "`cardlua export scripts/lol.lua` prints:\n\n```swift\n"
        let start = try #require(docs.range(of: marker)).upperBound
        let end = try #require(docs.range(of: "```\n", range: start..<docs.endIndex)).lowerBound
        let source = try String(contentsOf: root.appendingPathComponent("scripts/lol.lua"), encoding: .utf8)
        let swift = try Exporter.export(source: source, fileName: "scripts/lol.lua", className: nil, params: [:])
        #expect(String(docs[start..<end]) == swift)
    }
}
