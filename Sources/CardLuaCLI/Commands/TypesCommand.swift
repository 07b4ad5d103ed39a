import CardLua

/// `cardlua types [-o FILE]`: the LuaCATS definitions of the script API.
enum TypesCommand {
    static let declaration = CommandDeclaration(
        name: "types", synopsis: "types", summary: "print the LuaCATS definitions of the script API",
        arguments: .none(),
        options: [OptionSpec(.output, aliases: ["output"], value: "FILE", summary: "write there instead of standard output")],
        help: { options in """
        cardlua types — print the LuaCATS definitions of the script API

        USAGE: cardlua types [-o FILE]

        The definitions (---@meta) are generated from the same table the prelude registers
        its functions in. Save them where your editor's Lua language server can see them.

        \(options)
        """ },
        run: main)

    static func main(_ arguments: Arguments) throws -> Int32 {
        let text: String
        do {
            text = try LuaEffect.typeDefinitions() + "\n"
        } catch {
            throw CommandFailure("cardlua: \(error.message)")
        }
        if let path = arguments.value(.output) {
            do { try writeAtomically(text, to: path) } catch {
                throw CommandFailure("cardlua: \(error)")
            }
        } else {
            Console.out(text)
        }
        return 0
    }
}
