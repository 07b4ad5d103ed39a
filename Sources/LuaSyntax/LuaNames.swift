/// Every name a Lua source spells as a token (a local, a global, a field, a parameter),
/// leaving out what its comments and strings hold; empty when the source does not lex.
/// The exporter's name table keeps the names it makes up clear of all of them.
package func luaNameTokens(in source: String) -> Set<String> {
    var lexer = LuaLexer(source, fileName: "")
    guard let tokens = try? lexer.tokenize() else { return [] }
    var names: Set<String> = []
    for token in tokens {
        if case .name(let name) = token.kind { names.insert(name) }
    }
    return names
}
