/// How many positional arguments a subcommand takes, and what it says when the count is
/// wrong: `cardlua: missing the script to run (cardlua run SCRIPT)`, or
/// `cardlua: unexpected argument 'b.lua' (one script at a time)` (exit status 2).
struct PositionalRule: Sendable {
    enum Count: Sendable {
        case none, one, oneOrMore, any
    }

    var count: Count
    /// How the usage line names them, after `cardlua COMMAND`: `SCRIPT`, `--check FILE…`.
    var placeholder: String
    /// What is missing when there is none: `the script to run`.
    var missing: String
    /// Said in brackets after an argument too many (`one script at a time`); nil for nothing.
    var extraHint: String?

    /// No argument (`types`, `gallery`, `new --list`).
    static func none(_ extraHint: String? = nil) -> PositionalRule {
        PositionalRule(count: .none, placeholder: "", missing: "", extraHint: extraHint)
    }

    /// Exactly one: `run SCRIPT`.
    static func one(_ placeholder: String, missing: String, extraHint: String) -> PositionalRule {
        PositionalRule(count: .one, placeholder: placeholder, missing: missing, extraHint: extraHint)
    }

    /// At least one: `bench SCRIPT…`, `export --check FILE…`.
    static func oneOrMore(_ placeholder: String, missing: String) -> PositionalRule {
        PositionalRule(count: .oneOrMore, placeholder: placeholder, missing: missing)
    }

    /// Any number, none included (`bench --scale`).
    static let any = PositionalRule(count: .any, placeholder: "", missing: "")

    /// Throws the usage error of `positional` for `command`, if its count is wrong.
    func check(_ positional: [String], command: String) throws(UsageError) {
        switch count {
        case .none:
            if let extra = positional.first { throw unexpected(extra, command: command) }
        case .one:
            if positional.isEmpty { throw missingError(command: command) }
            if positional.count > 1 { throw unexpected(positional[1], command: command) }
        case .oneOrMore:
            if positional.isEmpty { throw missingError(command: command) }
        case .any:
            break
        }
    }

    private func missingError(command: String) -> UsageError {
        UsageError("missing \(missing) (cardlua \(command) \(placeholder))", command: command)
    }

    private func unexpected(_ word: String, command: String) -> UsageError {
        UsageError("unexpected argument '\(Echo.safe(word))'" + (extraHint.map { " (\($0))" } ?? ""), command: command)
    }
}
