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
