/// Why a script cannot be exported: a syntax error, or a construct the translator does not take.
///
/// Printed as one line, `file:line: export: message`, the form every cardlua diagnostic
/// has, so editors and terminals can jump to the line.
public struct ExportError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The script's file name as the user gave it (e.g. `scripts/lol.lua`).
    public var fileName: String
    /// The 1-based line the problem is on.
    public var line: Int
    /// What is wrong, and where useful why and what to write instead, e.g.
    /// `a table used as a map is not supported (…why…; write … instead)`.
    public var message: String
    /// The back end that refused (named in the diagnostic: `export` or `export --swiftui`).
    public var target: ExportTarget = .uikit

    /// Creates an error for `fileName` at `line`.
    public init(fileName: String, line: Int, message: String, target: ExportTarget = .uikit) {
        self.fileName = fileName
        self.line = line
        self.message = message
        self.target = target
    }

    /// The one-line diagnostic: `file:line: export: message` (`export --swiftui:` for SwiftUI).
    public var description: String { "\(fileName):\(line): \(target.commandName): \(message)" }
}
