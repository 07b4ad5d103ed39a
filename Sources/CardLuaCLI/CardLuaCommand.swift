import CardLua

/// The `cardlua` command: picks the subcommand, and is the one place that turns errors
/// into messages and exit statuses (0 success, 1 the script failed, 2 wrong usage).
enum CardLuaCommand {
    static func main(_ words: [String]) -> Int32 {
        guard let first = words.first else {
            Console.out(Help.overview + "\n")
            return 0
        }
        let rest = Array(words.dropFirst())
        do {
            switch first {
            case "-h", "--help", "help":
                if let topic = rest.first {
                    guard let text = Help.text(for: topic) else { throw UsageError("no such command '\(topic)'") }
                    Console.out(text + "\n")
                } else {
                    Console.out(Help.overview + "\n")
                }
                return 0
            case "--version", "version":
                Console.out("cardlua \(Help.version)\n")
                return 0
            case "run": return try RunCommand.main(rest)
            case "types": return try TypesCommand.main(rest)
            case "bench": return try BenchCommand.main(rest)
            case "watch": return try WatchCommand.main(rest)
            case "check": return try CheckCommand.main(rest)
            case "new": return try NewCommand.main(rest)
            case "play": return try PlayCommand.main(rest)
            case "gallery": return try GalleryCommand.main(rest)
            case "export": return try ExportCommand.main(rest)
            default:
                var message = "unknown command '\(first)'"
                let commands: Set<String> = ["run", "watch", "play", "check", "new", "gallery", "types", "bench", "export"]
                if let guess = Arguments.closest(to: first, in: commands) { message += " (did you mean '\(guess)'?)" }
                throw UsageError(message)
            }
        } catch {
            return exitStatus(reporting: error)
        }
    }

    /// The one place errors become exit statuses: prints `error` on standard error and
    /// returns 2 for wrong usage, 1 for everything else (the script or the command failed).
    static func exitStatus(reporting error: any Error) -> Int32 {
        switch error {
        case let usage as UsageError:
            Console.error("cardlua: \(usage.message)")
            Console.error("Run 'cardlua \(usage.command.map { "\($0) " } ?? "")--help' for usage.")
            return 2
        case let failure as RunFailure:
            report(failure)
            if failure.isUsage { return 2 }
        case let failure as CommandFailure:
            report(RunFailure(message: failure.message, details: failure.details))
        case let failure as ScriptError:
            report(RunFailure(message: failure.message, details: failure.details))
        case let failure as OutputError:
            Console.error(failure.description)
        default:
            Console.error("cardlua: \(error)")
        }
        return 1
    }

    /// Prints a failed run: the one line first, then its details.
    static func report(_ failure: RunFailure) {
        Console.error(failure.message)
        if !failure.details.isEmpty { Console.error(failure.details) }
    }

    /// True when `--help` was asked for; prints the command's help.
    static func printedHelp(_ arguments: Arguments, command: String) -> Bool {
        guard arguments.flags.contains("help") else { return false }
        Console.out((Help.text(for: command) ?? Help.overview) + "\n")
        return true
    }
}
