@testable import CardLuaCLI
import Testing

/// The command declarations drive dispatch, parsing and help: whatever a declaration
/// says, the overview lists, the help shows and the parser accepts; nothing else is
/// accepted, and a near miss is answered with the name meant.
@Suite struct OptionTableTests {
    /// Every declared command, by name (the list is the declarations', not a copy).
    static let commands = CardLuaCommand.commands.map(\.name)

    static func declaration(_ name: String) throws -> CommandDeclaration {
        try #require(CardLuaCommand.command(named: name), "no declaration for \(name)")
    }

    /// The OPTIONS section's labels as the help prints them (`-o, --output FILE`), read
    /// off the text: each line that starts with two spaces and a dash, up to the summary.
    static func labelsInHelp(_ help: String) -> [String] {
        guard let start = help.range(of: "OPTIONS:\n") else { return [] }
        var labels: [String] = []
        for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty || !line.hasPrefix("  ") { break }
            guard line.hasPrefix("  -") else { continue }  // a wrapped summary's continuation
            let body = line.dropFirst(2)
            labels.append(String(body.range(of: "  ").map { body[..<$0.lowerBound] } ?? body))
        }
        return labels
    }

    @Test func namesAreUniqueAndEveryKeyIsSomeCommandsOption() {
        #expect(Set(Self.commands).count == Self.commands.count, "\(Self.commands)")
        let used = Set(CardLuaCommand.commands.flatMap { ($0.options + $0.hiddenOptions).map(\.key) })
        #expect(used == Set(OptionKey.allCases), "keys no command takes: \(Set(OptionKey.allCases).subtracting(used))")
    }

    /// `cardlua --help` lists the declarations, in their order, each with its summary.
    @Test func overviewListsEveryDeclaredCommand() throws {
        let overview = Help.overview
        let start = try #require(overview.range(of: "COMMANDS:\n"))
        let lines = overview[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { !$0.isEmpty }
        #expect(lines.map { $0.split(separator: " ").first.map(String.init) ?? "" } == Self.commands)
        for (line, command) in zip(lines, CardLuaCommand.commands) {
            #expect(line.hasPrefix("  " + command.synopsis + " ") && line.hasSuffix(" " + command.summary), "\(line)")
            // The summaries line up in one column, as the overview's own options do.
            #expect(line.count - command.summary.count == 2 + 26, "\(line)")
        }
        #expect(overview.contains("\n  --version                 show the version\n"))
    }

    /// `cardlua NAME --help` and `cardlua help NAME` print the declaration's help, which
    /// names the command, says how to call it and has an OPTIONS section.
    @Test(arguments: commands)
    func everyCommandHasItsHelp(_ name: String) throws {
        let help = try Self.declaration(name).help
        #expect(help.hasPrefix("cardlua \(name) — "), "\(help)")
        #expect(help.contains("\nUSAGE: cardlua \(name)"))
        #expect(!Self.labelsInHelp(help).isEmpty, "no OPTIONS in \(name) --help")
        for words in [[name, "--help"], [name, "-h"], ["help", name], [name, "--help", "extra", "words"]] {
            let (status, capture) = try Console.capturing { try CardLuaCommand.dispatch(words) }
            #expect(status == 0 && capture.standardOutput == help + "\n", "\(words)")
        }
    }

    /// Whatever the declaration lists, the help shows and the parser accepts under every
    /// spelling; whatever the help shows, the parser accepts.
    @Test(arguments: commands)
    func helpListsAndParserAcceptsEveryDeclaredOption(_ name: String) throws {
        let declaration = try Self.declaration(name)
        let labels = Self.labelsInHelp(declaration.help)
        #expect(labels == declaration.options.map(\.label), "\(name) --help")
        for option in declaration.options {
            for spelling in [option.name] + option.aliases {
                let word = spelling.count == 1 ? "-\(spelling)" : "--\(spelling)"
                let parsed = try declaration.parse((option.isFlag ? [word] : [word, "1"]) + ["--help"])
                #expect(option.isFlag ? parsed.isSet(option.key) : parsed.value(option.key) == "1", "\(name) \(word)")
            }
        }
        // What the help shows, read off its text: every spelling of every label parses.
        for label in labels {
            let parts = label.split(separator: " ")
            let takesValue = parts.count > 1 && !parts.last!.hasPrefix("-")
            for spelling in parts where spelling.hasPrefix("-") {
                let word = String(spelling.hasSuffix(",") ? spelling.dropLast() : spelling)
                #expect(throws: Never.self, "\(name) \(word)") {
                    try declaration.parse((takesValue ? [word, "1"] : [word]) + ["--help"])
                }
            }
        }
        for option in declaration.hiddenOptions {
            #expect(!declaration.help.contains(option.key.spelled), "\(option.key.spelled) is hidden")
            #expect(try declaration.parse([option.key.spelled, "1", "--help"]).value(option.key) == "1")
        }
        let error = #expect(throws: UsageError.self) { try declaration.parse(["--no-such-option"]) }
        #expect(error?.command == name)
    }

    /// A long option typed with its first letter twice is answered with the option meant.
    @Test(arguments: commands)
    func aMistypedOptionGetsASuggestion(_ name: String) throws {
        let declaration = try Self.declaration(name)
        for option in declaration.options + declaration.hiddenOptions where option.name.count >= 3 {
            let typo = "--" + String(option.name.first!) + option.name
            let error = #expect(throws: UsageError.self) { try declaration.parse([typo]) }
            #expect(error?.message == "unknown option '\(typo)' (did you mean --\(option.name)?)", "\(name) \(typo)")
        }
    }

    /// A command typed with its first letter twice (`rrun`) is answered with the one meant.
    @Test(arguments: commands)
    func aMistypedCommandGetsASuggestion(_ name: String) {
        let typo = String(name.first!) + name
        let error = #expect(throws: UsageError.self) { try CardLuaCommand.dispatch([typo]) }
        #expect(error?.message == "unknown command '\(typo)' (did you mean '\(name)'?)")
        #expect(error?.command == nil)
    }

    /// The positional count each declaration states is enforced before the command runs,
    /// except when `--help` is asked for.
    @Test(arguments: commands)
    func theDeclaredArgumentCountIsEnforced(_ name: String) throws {
        let declaration = try Self.declaration(name)
        let rule = declaration.arguments
        switch rule.count {
        case .none, .one:
            let given = rule.count == .none ? ["a"] : ["a", "b"]
            let error = #expect(throws: UsageError.self) { try declaration.parse(given) }
            #expect(error?.message.hasPrefix("unexpected argument '\(given.last!)'") == true, "\(error?.message ?? "")")
            #expect(error?.command == name)
        case .oneOrMore:
            #expect(try declaration.parse(["a", "b", "c"]).positional == ["a", "b", "c"])
        case .any:
            break
        }
        if rule.count == .one || rule.count == .oneOrMore {
            let error = #expect(throws: UsageError.self) { try declaration.parse([]) }
            #expect(error?.message == "missing \(rule.missing) (cardlua \(name) \(rule.placeholder))")
        }
        #expect(try declaration.parse(["a", "b", "c", "--help"]).wantsHelp)
    }

    /// The flags that change what a command takes: `new --list` takes no file, `export
    /// --check` several, `bench --scale` none at all.
    @Test func aFlagCanChangeTheArgumentsTaken() throws {
        #expect(throws: UsageError.self) { try NewCommand.declaration.parse(["--list", "x.lua"]) }
        #expect(try NewCommand.declaration.parse(["--list"]).positional.isEmpty)
        #expect(try ExportCommand.declaration.parse(["--check", "a.lua", "b.lua"]).positional.count == 2)
        let error = #expect(throws: UsageError.self) { try ExportCommand.declaration.parse(["--check"]) }
        #expect(error?.message == "missing the scripts to check (cardlua export --check FILE…)")
        #expect(try BenchCommand.declaration.parse(["--scale"]).positional.isEmpty)
    }

    /// No command takes two options spelt the same.
    @Test(arguments: commands)
    func spellingsAreUniqueWithinACommand(_ name: String) throws {
        let declaration = try Self.declaration(name)
        let spellings = (declaration.options + declaration.hiddenOptions).flatMap { [$0.name] + $0.aliases }
        #expect(Set(spellings).count == spellings.count && !spellings.contains("help") && !spellings.contains("h"))
    }

    /// `--max-run-time`: declared with its default of 60 s, parsed into RunOptions.
    @Test func maxRunTimeIsDeclaredWithItsDefault() throws {
        let run = RunCommand.declaration
        let declared = try #require(run.options.first { $0.key == .maxRunTime })
        #expect(declared.defaultText == "60")
        #expect(try RunOptions(run.parse(["x.lua"])).limits.maxRunTime == 60)
        #expect(try RunOptions(run.parse(["x.lua", "--max-run-time", "2.5"])).limits.maxRunTime == 2.5)
        #expect(throws: UsageError.self) { try RunOptions(run.parse(["x.lua", "--max-run-time", "0"])) }
        // play has none: a session lasts as long as it is played.
        #expect(!PlayCommand.declaration.options.contains { $0.key == .maxRunTime })
        #expect(throws: UsageError.self) { try PlayCommand.declaration.parse(["x.lua", "--max-run-time", "5"]) }
    }

    /// `--max-steps` names what the budget counts; `--max-instructions`, its old name, is
    /// the same option: both set `maxSteps`, and the help shows both and says so.
    @Test func maxStepsTakesItsOldName() throws {
        let declared = try #require(RunCommand.declaration.options.first { $0.key == .maxSteps })
        #expect(declared.aliases == ["max-instructions"])
        #expect(declared.defaultText == "10000000")
        #expect(declared.summary.contains("steps") && declared.summary.contains("old name"))
        for spelling in ["--max-steps", "--max-instructions"] {
            let limits = try RunOptions.limits(CheckCommand.declaration.parse(["x.lua", spelling, "5000"]))
            #expect(limits.maxSteps == 5000, "\(spelling)")
        }
        #expect(CheckCommand.declaration.help.contains("--max-steps, --max-instructions N"))
        #expect(throws: UsageError.self) {
            try RunOptions(RunCommand.declaration.parse(["x.lua", "--max-steps", "0"]))
        }
    }

    /// Help wraps at 86 columns, continuation lines under the summary.
    @Test func wrapBreaksAtSpacesWithinTheWidth() {
        #expect(OptionTable.wrap("aaa bbb ccc", width: 7) == ["aaa bbb", "ccc"])
        #expect(OptionTable.wrap("short", width: 7) == ["short"])
    }
}
