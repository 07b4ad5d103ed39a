import CardLua

/// `cardlua types [-o FILE]`: the LuaCATS definitions of the script API.
enum TypesCommand {
    static func main(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments(words, command: "types")
        if CardLuaCommand.printedHelp(arguments, command: "types") { return 0 }
        if let extra = arguments.positional.first { throw UsageError("unexpected argument '\(Echo.safe(extra))'", command: "types") }
        let text: String
        do {
            text = try LuaEffect.typeDefinitions() + "\n"
        } catch {
            throw CommandFailure("cardlua: \(error.message)")
        }
        if let path = arguments.values["o"] {
            do { try writeAtomically(text, to: path) } catch {
                throw CommandFailure("cardlua: \(error)")
            }
        } else {
            Console.out(text)
        }
        return 0
    }
}
