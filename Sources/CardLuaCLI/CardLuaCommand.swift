import CardLua

/// The `cardlua` command: picks the subcommand, and is the one place that turns errors
/// into messages and exit statuses (0 success, 1 the script failed, 2 wrong usage).
enum CardLuaCommand {
    static func main(_ words: [String]) -> Int32 {
        do {
            return try dispatch(words)
        } catch {
            return exitStatus(reporting: error)
        }
    }

    /// Every subcommand, in the order `cardlua --help` lists them. A new one is its
    /// declaration (beside its run function) and its line here.
    static let commands: [CommandDeclaration] = [
        RunCommand.declaration,
        WatchCommand.declaration,
        PlayCommand.declaration,
        CheckCommand.declaration,
        NewCommand.declaration,
        GalleryCommand.declaration,
        ExportCommand.declaration,
        TypesCommand.declaration,
        BenchCommand.declaration,
    ]

    /// The subcommand called `name`, if there is one.
    static func command(named name: String) -> CommandDeclaration? {
        commands.first { $0.name == name }
    }

    /// Runs the subcommand `words` name; what goes wrong is thrown for ``exitStatus(reporting:)``.
    static func dispatch(_ words: [String]) throws -> Int32 {
        guard let first = words.first else {
            // No command is wrong usage: the overview where errors go, exit status 2.
            Console.error(Help.overview)
            return 2
        }
        let rest = Array(words.dropFirst())
        switch first {
        case "-h", "--help", "help":
            if let topic = rest.first {
                guard let command = command(named: topic) else { throw UsageError("no such command '\(Echo.safe(topic))'") }
                Console.out(command.help + "\n")
            } else {
                Console.out(Help.overview + "\n")
            }
            return 0
        case "--version", "version":
            Console.out("cardlua \(Help.version)\n")
            return 0
        default:
            guard let command = command(named: first) else {
                var message = "unknown command '\(Echo.safe(first))'"
                if let guess = Arguments.closest(to: first, in: Set(commands.map(\.name))) { message += " (did you mean '\(guess)'?)" }
                throw UsageError(message)
            }
            let arguments = try command.parse(rest)
            if arguments.wantsHelp {
                Console.out(command.help + "\n")
                return 0
            }
            return try command.run(arguments)
        }
    }

    /// The one place errors become exit statuses: prints `error` on standard error and
    /// returns 2 for wrong usage, 1 for everything else (the script or the command failed).
    static func exitStatus(reporting error: any Error) -> Int32 {
        let (lines, status) = report(of: error)
        for line in lines { Console.error(line) }
        return status
    }

    /// What ``exitStatus(reporting:)`` prints for `error` (before ``Console/error(_:)``
    /// escapes it), and the exit status.
    static func report(of error: any Error) -> (lines: [String], status: Int32) {
        switch error {
        case let usage as UsageError:
            return (["cardlua: " + Echo.safe(usage.message, limit: nil),
                     "Run 'cardlua \(usage.command.map { "\($0) " } ?? "")--help' for usage."], 2)
        case let failure as RunFailure:
            return (lines(of: failure), failure.isUsage ? 2 : 1)
        case let failure as CommandFailure:
            return (lines(of: RunFailure(message: failure.message, details: failure.details)), 1)
        case let failure as ScriptError:
            return (lines(of: RunFailure(message: failure.message, details: failure.details)), 1)
        case let failure as OutputError:
            return ([failure.description], 1)
        default:
            return (["cardlua: \(error)"], 1)
        }
    }

    /// Prints a failed run: the one line first, then its details.
    static func report(_ failure: RunFailure) {
        for line in lines(of: failure) { Console.error(line) }
    }

    /// A failed run's message (one line, whatever it repeats), then its details.
    static func lines(of failure: RunFailure) -> [String] {
        [Echo.safe(failure.message, limit: nil)] + (failure.details.isEmpty ? [] : [failure.details])
    }
}
