/// The command line was wrong: exit status 2, one line on standard error.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    /// The subcommand whose `--help` to point at, if any.
    var command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    var description: String { message }
}

/// A subcommand failed: exit status 1, `message` (one line) and `details` on standard
/// error. `CardLuaCommand` prints it, as it does every error a subcommand throws.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var details: String

    init(_ message: String, details: String = "") {
        self.message = message
        self.details = details
    }

    var description: String { message }
}
