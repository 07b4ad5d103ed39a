@testable import CardLuaCLI
import Testing

/// The option tables drive parsing and help: whatever a table declares, the help lists
/// and the parser accepts; nothing else is accepted.
@Suite struct OptionTableTests {
    @Test(arguments: ["run", "watch", "check", "new", "types", "bench"])
    func helpListsAndParserAcceptsEveryDeclaredOption(_ command: String) throws {
        let help = try #require(Help.text(for: command))
        for option in OptionTable.options(for: command) {
            #expect(help.contains("  " + option.label), "\(command) --help lacks \(option.label)")
            for spelling in [option.name] + option.aliases {
                let word = spelling.count == 1 ? "-\(spelling)" : "--\(spelling)"
                let parsed = try Arguments(option.value == nil ? [word] : [word, "1"], command: command)
                #expect(option.value == nil ? parsed.flags.contains(option.name) : parsed.values[option.name] == "1")
            }
        }
        #expect(throws: UsageError.self) { try Arguments(["--no-such-option"], command: command) }
    }

    /// `--max-run-time`: declared with its default of 60 s, parsed into RunOptions.
    @Test func maxRunTimeIsDeclaredWithItsDefault() throws {
        let declared = try #require(OptionTable.run.first { $0.name == "max-run-time" })
        #expect(declared.defaultText == "60")
        #expect(try RunOptions(Arguments(["x.lua"], command: "run"), command: "run").limits.maxRunTime == 60)
        #expect(try RunOptions(Arguments(["x.lua", "--max-run-time", "2.5"], command: "run"), command: "run").limits.maxRunTime == 2.5)
        #expect(throws: UsageError.self) {
            try RunOptions(Arguments(["x.lua", "--max-run-time", "0"], command: "run"), command: "run")
        }
    }

    /// `--max-steps` names what the budget counts; `--max-instructions`, its old name, is
    /// the same option: both set `maxSteps`, and the help shows both and says so.
    @Test func maxStepsTakesItsOldName() throws {
        let declared = try #require(OptionTable.run.first { $0.name == "max-steps" })
        #expect(declared.aliases == ["max-instructions"])
        #expect(declared.defaultText == "10000000")
        #expect(declared.summary.contains("steps") && declared.summary.contains("old name"))
        for spelling in ["--max-steps", "--max-instructions"] {
            let options = try RunOptions(Arguments(["x.lua", spelling, "5000"], command: "check"), command: "check")
            #expect(options.limits.maxSteps == 5000, "\(spelling)")
        }
        #expect(OptionTable.help(OptionTable.check).contains("--max-steps, --max-instructions N"))
        #expect(throws: UsageError.self) {
            try RunOptions(Arguments(["x.lua", "--max-steps", "0"], command: "run"), command: "run")
        }
    }

    /// Help wraps at 86 columns, continuation lines under the summary.
    @Test func wrapBreaksAtSpacesWithinTheWidth() {
        #expect(OptionTable.wrap("aaa bbb ccc", width: 7) == ["aaa bbb", "ccc"])
        #expect(OptionTable.wrap("short", width: 7) == ["short"])
    }
}
