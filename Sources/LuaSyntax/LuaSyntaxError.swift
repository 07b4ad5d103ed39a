/// A syntax error in a Lua chunk: where Lua would report it, worded as Lua words it
/// (`unexpected symbol near 'x'`, `'end' expected (to close 'function' at line 3) near <eof>`).
package struct LuaSyntaxError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The chunk's file name as it was given to the parser.
    package var fileName: String
    /// The 1-based line the error is on.
    package var line: Int
    /// What is wrong, without the file and line.
    package var message: String

    /// Creates an error for `fileName` at `line`.
    package init(fileName: String, line: Int, message: String) {
        self.fileName = fileName
        self.line = line
        self.message = message
    }

    /// The one-line diagnostic: `file:line: message`.
    package var description: String { "\(fileName):\(line): \(message)" }
}
