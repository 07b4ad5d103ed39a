/// `cardlua --help`: the overview, its COMMANDS written from the declarations in
/// ``CardLuaCommand/commands`` (each command's own help is its declaration's).
enum Help {
    static let version = "0.1.0"

    static let overview = """
    cardlua — design card-carousel effects in Lua, with UIKit's flow layout and scroll physics

    USAGE: cardlua <command> [options]

    COMMANDS:
    \(CardLuaCommand.commands.map { line($0.synopsis, $0.summary) }.joined(separator: "\n"))

    OPTIONS:
    \(line("-h, --help", "show help (also: cardlua help <command>)"))
    \(line("--version", "show the version"))

    EXIT STATUS: 0 success, 1 the script failed, 2 wrong usage.
    Try: cardlua run scripts/lol.lua --offset 150
    """

    /// One line of the overview: `label`, then `text` from the 29th column (or after a space).
    static func line(_ label: String, _ text: String) -> String {
        "  " + label + String(repeating: " ", count: max(1, 26 - label.count)) + text
    }
}
