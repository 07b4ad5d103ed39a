/// A subcommand of `cardlua`, declared once: its name, its line in the overview, the
/// positional arguments it takes, its options, its help and the function that runs it.
///
/// Everything else is read off the declarations in ``CardLuaCommand/commands``:
/// dispatch, the "did you mean" of a mistyped command, the COMMANDS of `cardlua --help`,
/// `cardlua COMMAND --help` and `cardlua help COMMAND`, and the tests' list of commands.
/// (In the spirit of swift-argument-parser's `CommandConfiguration`, kept small.)
struct CommandDeclaration: Sendable {
    /// What is typed after `cardlua`: `run`.
    let name: String
    /// How the overview shows the call: `run SCRIPT [options]`.
    let synopsis: String
    /// The overview's line on what it does.
    let summary: String
    /// The positional arguments it takes.
    let arguments: PositionalRule
    /// A flag that, given, changes the positional arguments taken (`new --list`: none),
    /// with the rule then.
    let argumentsWith: (flag: OptionKey, rule: PositionalRule)?
    /// The options `--help` lists, in its order.
    let options: [OptionSpec]
    /// Options accepted but not in the help (tests stand in a second loopback address
    /// for the LAN one with `play --lan-address 127.0.0.2`).
    let hiddenOptions: [OptionSpec]
    /// The text of `--help`.
    let help: String
    /// Does the work once the arguments are parsed and their count checked; returns
    /// the exit status. What goes wrong is thrown (``CardLuaCommand/report(of:)``).
    let run: @Sendable (Arguments) throws -> Int32

    /// - Parameter help: the help text, given the OPTIONS section written from `options`.
    init(name: String, synopsis: String, summary: String, arguments: PositionalRule,
         argumentsWith: (flag: OptionKey, rule: PositionalRule)? = nil,
         options: [OptionSpec], hiddenOptions: [OptionSpec] = [],
         help: (_ optionsSection: String) -> String,
         run: @escaping @Sendable (Arguments) throws -> Int32) {
        self.name = name
        self.synopsis = synopsis
        self.summary = summary
        self.arguments = arguments
        self.argumentsWith = argumentsWith
        self.options = options
        self.hiddenOptions = hiddenOptions
        self.help = help(OptionTable.help(options))
        self.run = run
    }

    /// `words` (what follows the command's name) parsed with its options; unless `--help`
    /// was asked for, the positional arguments' count is checked too.
    func parse(_ words: [String]) throws(UsageError) -> Arguments {
        let parsed = try Arguments(words, options: options + hiddenOptions, command: name)
        if !parsed.wantsHelp { try rule(for: parsed).check(parsed.positional, command: name) }
        return parsed
    }

    /// The positional rule in effect for `parsed`.
    func rule(for parsed: Arguments) -> PositionalRule {
        if let special = argumentsWith, parsed.isSet(special.flag) { return special.rule }
        return arguments
    }
}
