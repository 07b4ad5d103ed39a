import CardLayout
import CardLua

/// `cardlua check SCRIPT [limits] [--strict]`: exercises every callback and reports every
/// problem, one `file:line: message` each (a problem met in several frames once, with the
/// count), on standard output. Exit status 1 when it found an error, 0 when it found
/// warnings only (`--strict`: 1 for warnings too), 0 when clean.
enum CheckCommand {
    static let declaration = CommandDeclaration(
        name: "check", synopsis: "check SCRIPT", summary: "load and exercise every callback; report problems",
        arguments: .one("SCRIPT", missing: "the script to check", extraHint: "one script at a time"),
        options: [
            OptionTable.param,
            OptionSpec(.rtl, summary: "right to left: prepare sees effectiveUserInterfaceLayoutDirection \"rightToLeft\""),
            OptionSpec(.strict, summary: "warnings fail too (exit status 1)"),
            OptionSpec(.viewport, value: "WxH", summary: "check at this viewport too (after 414x736 and 768x1024)"),
        ] + OptionTable.limits,
        help: { options in """
        cardlua check — exercise every callback and report every problem

        USAGE: cardlua check SCRIPT [options]

        Loads the script, calls prepare for two viewports (414x736 and 768x1024, and
        --viewport's), transform across a sweep of offsets including both ends, and
        targetContentOffset with flings both ways. Reports errors, NaN or infinite values,
        alpha outside 0…1, unknown fields written on attributes or layout, transform results
        that are computed and dropped, globals that look like misspelled callbacks, and cards
        that do not fit between the section insets (UIKit logs that the flow layout's
        behaviour is not defined), each as file:line: message on standard output;
        a problem met in several frames is one line, with the count. The limits are run's.
        Exit status 1 when it found an error, 0 when clean or with warnings only (1 with
        --strict).

        \(options)
        """ },
        run: main)

    static func main(_ arguments: Arguments) throws -> Int32 {
        let path = arguments.argument
        let limits = try RunOptions.limits(arguments)
        let params = try ParamOption.parse(arguments)
        let direction: UserInterfaceLayoutDirection = arguments.isSet(.rtl) ? .rightToLeft : .leftToRight
        let viewport = try arguments.value(.viewport).map { text throws(UsageError) in
            try RunOptions.parseViewport(text, command: arguments.command)
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
        let strict = arguments.isSet(.strict)
        return errors > 0 || (strict && warnings > 0) ? 1 : 0
    }
}
