import CardExport
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
