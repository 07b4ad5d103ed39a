/// One problem `cardlua check` found in a script.
package struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    /// How bad it is. An error makes `cardlua check` exit with status 1; a warning too
    /// with `--strict`.
    package enum Severity: String, Sendable {
        /// The script fails, or produces a value that breaks the contract (NaN, infinity).
        case error
        /// The script runs, but very likely not as its author meant (a misspelled field or
        /// callback, an alpha outside 0…1).
        case warning
    }

    /// The line in the script, 1-based; nil when the problem has no place in the source
    /// (the file cannot be read).
    package var line: Int?
    /// One line, without the file and line prefix: `transform: item 2: attempt to …`.
    package var message: String
    package var severity: Severity
    /// Further lines (the script's own traceback), possibly empty.
    package var details: String
    /// How many times `check` met this problem (in as many frames or calls): one line
    /// says it once, with the count.
    package var occurrences = 1
    /// What a repeat is counted in: "frames" for the per-frame callbacks, else "calls".
    package var unit = "calls"

    package init(line: Int?, message: String, severity: Severity, details: String = "") {
        self.line = line
        self.message = message
        self.severity = severity
        self.details = details
    }

    /// `file:line: message`, with `warning: ` before the message of a warning and, for a
    /// problem met more than once, how often (`(in 12 frames)`).
    package func formatted(file: String) -> String {
        let place = line.map { "\(file):\($0): " } ?? "\(file): "
        let repeated = occurrences > 1 ? " (in \(occurrences) \(unit))" : ""
        return place + (severity == .warning ? "warning: " : "") + message + repeated
    }

    package var description: String { formatted(file: "script") }
}
