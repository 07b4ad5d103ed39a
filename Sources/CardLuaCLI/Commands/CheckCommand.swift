import CardLayout
import CardLua

/// `cardlua check SCRIPT [limits] [--strict]`: exercises every callback and reports every
/// problem, one `file:line: message` each (a problem met in several frames once, with the
/// count), on standard output. Exit status 1 when it found an error, 0 when it found
/// warnings only (`--strict`: 1 for warnings too), 0 when clean.
enum CheckCommand {
    static func main(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments(words, command: "check")
        if CardLuaCommand.printedHelp(arguments, command: "check") { return 0 }
        guard let path = arguments.positional.first else {
            throw UsageError("missing the script to check (cardlua check SCRIPT)", command: "check")
        }
        if arguments.positional.count > 1 {
            throw UsageError("unexpected argument '\(Echo.safe(arguments.positional[1]))' (one script at a time)", command: "check")
        }
        let limits = try RunOptions.limits(arguments.values, command: "check")
        let params = try ParamOption.parse(arguments, command: "check")
        let direction: UserInterfaceLayoutDirection = arguments.flags.contains("rtl") ? .rightToLeft : .leftToRight
        let viewport = try arguments.values["viewport"].map { text throws(UsageError) in
            try RunOptions.parseViewport(text, command: "check")
        }
        let diagnostics: [Diagnostic]
        do {
            diagnostics = try ScriptChecker.check(path: path, limits: limits, params: params.overrides,
                                                  layoutDirection: direction, viewport: viewport)
        } catch {
            throw RunFailure(message: ParamOption.message(error, in: params), details: "", isUsage: true)
        }
        var report = ""
        let shownPath = Echo.safe(path)  // the path as given may hold anything
        for diagnostic in diagnostics {
            report += Echo.safe(diagnostic.formatted(file: shownPath), limit: nil) + "\n"
            if !diagnostic.details.isEmpty {
                // The traceback, indented under its line (its tabs made spaces).
                report += diagnostic.details.split(separator: "\n").map { (line: Substring) -> String in
                    let depth = line.prefix(while: { $0 == "\t" }).count
                    return String(repeating: "  ", count: depth + 1) + Echo.safe(String(line.dropFirst(depth)), limit: nil)
                }.joined(separator: "\n") + "\n"
            }
        }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        if diagnostics.isEmpty {
            report += "\(shownPath): no problems found\n"
        } else {
            func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
            report += "\(shownPath): \(count(diagnostics.count, "problem")) (\(count(errors, "error")), \(count(warnings, "warning")))\n"
        }
        Console.out(report)
        let strict = arguments.flags.contains("strict")
        return errors > 0 || (strict && warnings > 0) ? 1 : 0
    }
}
