/// Parses a Lua 5.4 chunk into its syntax tree.
///
/// Accepts exactly Lua 5.4's grammar; a syntax error is a `LuaSyntaxError` on the line where
/// Lua would report it, worded as Lua words it (`unexpected symbol near 'x'`,
/// `'end' expected (to close 'function' at line 3) near <eof>`). Nesting is capped at
/// ``LuaParser/maximumDepth`` levels (Lua's own limit), so hostile input gets an error, not
/// a stack overflow.
///
/// Comments are attached to the statements they precede (see ``LuaStatement``); the
/// file's first comment block is the chunk's ``LuaChunk/headerComment``. Comments inside
/// an expression (between a table's entries, say) are not kept.
package func parseLua(_ source: String, fileName: String) throws(LuaSyntaxError) -> LuaChunk {
    var lexer = LuaLexer(source, fileName: fileName)
    let tokens = try lexer.tokenize()
    var parser = LuaParser(tokens: tokens, fileName: fileName)
    return try parser.parseChunk()
}

/// A recursive-descent parser over the lexer's tokens, following the grammar of the Lua 5.4
/// reference manual (§9) and the precedence table of §3.4.8.
struct LuaParser {
    /// The deepest nesting of statements and subexpressions accepted (Lua's LUAI_MAXCCALLS).
    static let maximumDepth = 200

    private let tokens: [LuaToken]
    private let fileName: String
    private var index = 0
    /// How many of the current token's comments are already attached to something.
    private var commentsTaken = 0
    private var depth = 0
    /// How many of `depth`'s levels are links of chains under way (see ``enterChainLink()``).
    private var chainLinks = 0
    /// Per function being parsed (innermost last): how many loops enclose the current point.
    private var loopDepths: [Int] = [0]
    /// Per function being parsed: whether `...` is allowed in it.
    private var varargFunctions: [Bool] = [true]
    /// The locals in scope, innermost block last (enclosing functions' too: their locals
    /// are upvalues): for each name, whether it is read-only (`<const>` or `<close>`).
    private var scopes: [[String: Bool]] = [[:]]

    init(tokens: [LuaToken], fileName: String) {
        self.tokens = tokens
        self.fileName = fileName
    }

    // MARK: - Tokens

    private var current: LuaToken { tokens[index] }
    private var previous: LuaToken { tokens[max(index - 1, 0)] }

    private func peekKind(_ offset: Int = 1) -> LuaToken.Kind {
        tokens[min(index + offset, tokens.count - 1)].kind
    }

    private mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
        commentsTaken = 0
    }

    private func check(_ symbol: String) -> Bool { current.isSymbol(symbol) }

    private mutating func accept(_ symbol: String) -> Bool {
        guard check(symbol) else { return false }
        advance()
        return true
    }

    /// `near 'x'`, or `near <eof>`, as Lua words it.
    private var nearCurrent: String {
        current.kind == .endOfFile ? "near <eof>" : "near '\(current.text)'"
    }

    private func error(_ message: String, line: Int? = nil) -> LuaSyntaxError {
        LuaSyntaxError(fileName: fileName, line: line ?? current.line, message: message)
    }

    private func unexpected() -> LuaSyntaxError { error("unexpected symbol \(nearCurrent)") }

    private mutating func expect(_ symbol: String) throws(LuaSyntaxError) {
        guard accept(symbol) else { throw error("'\(symbol)' expected \(nearCurrent)") }
    }

    /// Expects the token closing a construct opened by `opener` at `line`.
    private mutating func expect(_ symbol: String, closing opener: String, at line: Int) throws(LuaSyntaxError) {
        guard !accept(symbol) else { return }
        if line == current.line { throw error("'\(symbol)' expected \(nearCurrent)") }
        throw error("'\(symbol)' expected (to close '\(opener)' at line \(line)) \(nearCurrent)")
    }

    private mutating func expectName() throws(LuaSyntaxError) -> String {
        guard case .name(let name) = current.kind else { throw error("<name> expected \(nearCurrent)") }
        advance()
        return name
    }

    private mutating func enterLevel() throws(LuaSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw tooDeep() }
    }

    /// The error at the level past ``maximumDepth``, worded for what made it deep.
    private func tooDeep() -> LuaSyntaxError {
        // Mostly links: a long chain. (A nesting of calls or of `..` is half links.)
        if chainLinks * 4 > depth * 3 {
            return error("the expression is too long to analyse (more than \(Self.maximumDepth) operators or "
                + "suffixes in a row, counted with the levels it is nested in; Lua runs it, but cardlua's "
                + "analysis and export take it only split into locals)")
        }
        return error("the script nests too deeply (more than \(Self.maximumDepth) levels of blocks or subexpressions)")
    }

    /// One more link of a left-leaning chain (`a + b + c`, `a.b.c`, `f()()`): Lua builds
    /// these in a loop, with no nesting, but the tree they make is one level deeper per link,
    /// and every walk over the tree (and freeing it) recurses that deep. So each link counts
    /// as a level, and the tree's height stays within a few times ``maximumDepth``: a chain of
    /// a million terms is an error here, never a stack overflow. The caller gives the levels
    /// back (`depth -= links`) when the chain ends.
    private mutating func enterChainLink() throws(LuaSyntaxError) {
        chainLinks += 1
        depth += 1
        if depth > Self.maximumDepth { throw tooDeep() }
    }

    /// Gives back the levels of a chain of `links` links that ended.
    private mutating func leaveChain(_ links: Int) {
        depth -= links
        chainLinks -= links
    }

    // MARK: - Comments

    /// The current token's comments not yet attached.
    private mutating func takeRemainingComments() -> [LuaComment] {
        let comments = Array(current.comments.dropFirst(commentsTaken))
        commentsTaken = current.comments.count
        return comments
    }

    /// A comment starting on the line where the previous token ends: the trailing comment
    /// of the statement that ended with that token.
    private mutating func takeTrailingComment() -> String? {
        guard index > 0, commentsTaken < current.comments.count else { return nil }
        let comment = current.comments[commentsTaken]
        guard comment.line == previous.endLine else { return nil }
        commentsTaken += 1
        return comment.lines.joined(separator: " ")
    }

    // MARK: - Chunk and blocks

    mutating func parseChunk() throws(LuaSyntaxError) -> LuaChunk {
        // The header: the first run of comments with no blank line between them.
        var header: [String] = []
        for (offset, comment) in current.comments.enumerated() {
            if offset > 0, comment.isPrecededByBlankLine { break }
            header += comment.lines
            commentsTaken = offset + 1
        }
        let body = try parseBlock()
        guard current.kind == .endOfFile else { throw error("<eof> expected \(nearCurrent)") }
        return LuaChunk(headerComment: header, body: body)
    }

    private func blockFollows() -> Bool {
        switch current.kind {
        case .endOfFile: true
        case .symbol(let symbol): symbol == "end" || symbol == "else" || symbol == "elseif" || symbol == "until"
        default: false
        }
    }

    /// A block in a scope of its own (`newScope` false: the caller's, as `repeat` needs
    /// for its condition).
    private mutating func parseBlock(newScope: Bool = true) throws(LuaSyntaxError) -> LuaBlock {
        if newScope { scopes.append([:]) }
        defer { if newScope { scopes.removeLast() } }
        var statements: [LuaStatement] = []
        // Comments before an empty statement (`;`) carry over to the next statement.
        var pending: [LuaComment] = []
        while !blockFollows() {
            if check(";") {
                pending += takeRemainingComments()
                advance()
                continue
            }
            let comments = pending + takeRemainingComments()
            pending = []
            let blank = comments.first?.isPrecededByBlankLine ?? current.isPrecededByBlankLine
            let isReturn = check("return")
            var statement = try parseStatement()
            statement.leadingComments = comments.flatMap(\.lines)
            statement.isPrecededByBlankLine = blank
            if check(";"), current.comments.isEmpty { advance() }
            statement.trailingComment = takeTrailingComment()
            statements.append(statement)
            if isReturn { break }  // `return` ends its block; the caller expects the closing token
        }
        let trailing = (pending + takeRemainingComments()).flatMap(\.lines)
        return LuaBlock(statements: statements, trailingComments: trailing)
    }

    /// A block that is a loop's body (`break` is allowed in it).
    private mutating func parseLoopBody(newScope: Bool = true) throws(LuaSyntaxError) -> LuaBlock {
        loopDepths[loopDepths.count - 1] += 1
        defer { loopDepths[loopDepths.count - 1] -= 1 }
        return try parseBlock(newScope: newScope)
    }

    private mutating func declare(_ name: String, readOnly: Bool = false) {
        scopes[scopes.count - 1][name] = readOnly
    }

    /// Lua refuses, when compiling, an assignment to a `<const>` or `<close>` local.
    private func checkAssignable(_ target: LuaExpression) throws(LuaSyntaxError) {
        switch target.kind {
        case .name(let name):
            for scope in scopes.reversed() {
                guard let readOnly = scope[name] else { continue }
                if readOnly { throw error("attempt to assign to const variable '\(name)'") }
                return
            }
        case .field, .index:
            break
        default:
            throw error("syntax error \(nearCurrent)")
        }
    }

    // MARK: - Statements

    private mutating func parseStatement() throws(LuaSyntaxError) -> LuaStatement {
        try enterLevel()
        defer { depth -= 1 }
        let line = current.line
        guard case .symbol(let keyword) = current.kind else {
            return try parseExpressionStatement()
        }
        switch keyword {
        case "if":
            return try parseIf()
        case "while":
            advance()
            let condition = try parseExpression()
            try expect("do")
            let body = try parseLoopBody()
            try expect("end", closing: "while", at: line)
            return LuaStatement(.whileLoop(condition: condition, body: body), line: line)
        case "do":
            advance()
            let body = try parseBlock()
            try expect("end", closing: "do", at: line)
            return LuaStatement(.doBlock(body), line: line)
        case "for":
            return try parseFor()
        case "repeat":
            advance()
            // The condition sees the body's locals.
            scopes.append([:])
            defer { scopes.removeLast() }
            let body = try parseLoopBody(newScope: false)
            try expect("until", closing: "repeat", at: line)
            let condition = try parseExpression()
            return LuaStatement(.repeatLoop(body: body, condition: condition), line: line)
        case "function":
            advance()
            let name = try parseFunctionName()
            if name.fields.isEmpty, name.method == nil {
                try checkAssignable(LuaExpression(.name(name.base), line: line))
            }
            let function = try parseFunctionBody(line: line, isMethod: name.method != nil)
            return LuaStatement(.function(name: name, function: function), line: line)
        case "local":
            advance()
            if accept("function") {
                let name = try expectName()
                declare(name)  // in scope in its own body
                let function = try parseFunctionBody(line: line)
                return LuaStatement(.localFunction(name: name, function: function), line: line)
            }
            return try parseLocal(line: line)
        case "::":
            advance()
            let name = try expectName()
            try expect("::")
            return LuaStatement(.label(name), line: line)
        case "return":
            advance()
            var values: [LuaExpression] = []
            if !blockFollows(), !check(";") { values = try parseExpressionList() }
            _ = accept(";")
            return LuaStatement(.returnStatement(values), line: line)
        case "break":
            guard loopDepths[loopDepths.count - 1] > 0 else {
                throw error("break outside loop at line \(line)")
            }
            advance()
            return LuaStatement(.breakStatement, line: line)
        case "goto":
            advance()
            let label = try expectName()
            return LuaStatement(.gotoStatement(label: label), line: line)
        default:
            return try parseExpressionStatement()
        }
    }

    private mutating func parseIf() throws(LuaSyntaxError) -> LuaStatement {
        let line = current.line
        var clauses: [LuaConditionalBlock] = []
        var elseBlock: LuaBlock?
        repeat {
            let clauseLine = current.line
            advance()  // `if` or `elseif`
            let condition = try parseExpression()
            try expect("then")
            let body = try parseBlock()
            clauses.append(LuaConditionalBlock(condition: condition, body: body, line: clauseLine))
        } while check("elseif")
        if accept("else") { elseBlock = try parseBlock() }
        try expect("end", closing: "if", at: line)
        return LuaStatement(.ifStatement(clauses: clauses, elseBlock: elseBlock), line: line)
    }

    private mutating func parseFor() throws(LuaSyntaxError) -> LuaStatement {
        let line = current.line
        advance()
        let first = try expectName()
        if accept("=") {
            let start = try parseExpression()
            try expect(",")
            let limit = try parseExpression()
            let step: LuaExpression? = accept(",") ? try parseExpression() : nil
            try expect("do")
            scopes.append([first: false])
            defer { scopes.removeLast() }
            let body = try parseLoopBody()
            try expect("end", closing: "for", at: line)
            return LuaStatement(.numericFor(variable: first, start: start, limit: limit, step: step, body: body),
                                line: line)
        }
        guard check(",") || check("in") else { throw error("'=' or 'in' expected \(nearCurrent)") }
        var names = [first]
        while accept(",") { names.append(try expectName()) }
        try expect("in")
        let expressions = try parseExpressionList()
        try expect("do")
        scopes.append(Dictionary(names.map { ($0, false) }, uniquingKeysWith: { _, last in last }))
        defer { scopes.removeLast() }
        let body = try parseLoopBody()
        try expect("end", closing: "for", at: line)
        return LuaStatement(.genericFor(names: names, expressions: expressions, body: body), line: line)
    }

    private mutating func parseFunctionName() throws(LuaSyntaxError) -> LuaFunctionName {
        var name = LuaFunctionName(base: try expectName())
        while accept(".") { name.fields.append(try expectName()) }
        if accept(":") { name.method = try expectName() }
        return name
    }

    private mutating func parseLocal(line: Int) throws(LuaSyntaxError) -> LuaStatement {
        var names: [LuaLocalName] = []
        var closeCount = 0
        repeat {
            var local = LuaLocalName(name: try expectName())
            if accept("<") {
                let attribute = try expectName()
                guard let kind = LuaLocalName.Attribute(rawValue: attribute) else {
                    throw error("unknown attribute '\(attribute)'")
                }
                try expect(">")
                local.attribute = kind
                if kind == .close {
                    closeCount += 1
                    if closeCount > 1 { throw error("multiple to-be-closed variables in local list") }
                }
            }
            names.append(local)
        } while accept(",")
        let values = accept("=") ? try parseExpressionList() : []
        for local in names { declare(local.name, readOnly: local.attribute != nil) }  // after the values: `local x = x`
        return LuaStatement(.local(names: names, values: values), line: line)
    }

    /// An assignment or a call statement (both start with a suffixed expression).
    private mutating func parseExpressionStatement() throws(LuaSyntaxError) -> LuaStatement {
        let line = current.line
        let first = try parseSuffixedExpression()
        if check("=") || check(",") {
            // Each target is checked as Lua checks it: before the next is read.
            try checkAssignable(first)
            var targets = [first]
            while accept(",") {
                let target = try parseSuffixedExpression()
                try checkAssignable(target)
                targets.append(target)
            }
            try expect("=")
            let values = try parseExpressionList()
            return LuaStatement(.assignment(targets: targets, values: values), line: line)
        }
        switch first.kind {
        case .call, .methodCall: return LuaStatement(.call(first), line: line)
        default: throw error("syntax error \(nearCurrent)")
        }
    }

    // MARK: - Functions

    /// `(parameters) block end`, after `function` (and its name, if any).
    private mutating func parseFunctionBody(line: Int, isMethod: Bool = false) throws(LuaSyntaxError) -> LuaFunction {
        try expect("(")
        var parameters: [String] = []
        var isVararg = false
        if !check(")") {
            repeat {
                if accept("...") {
                    isVararg = true
                    break
                }
                guard case .name(let name) = current.kind else {
                    throw error("<name> or '...' expected \(nearCurrent)")
                }
                advance()
                parameters.append(name)
            } while accept(",")
        }
        try expect(")")
        loopDepths.append(0)
        varargFunctions.append(isVararg)
        scopes.append(Dictionary((parameters + (isMethod ? ["self"] : [])).map { ($0, false) },
                                 uniquingKeysWith: { _, last in last }))
        defer {
            loopDepths.removeLast()
            varargFunctions.removeLast()
            scopes.removeLast()
        }
        let body = try parseBlock()
        let endLine = current.line
        try expect("end", closing: "function", at: line)
        return LuaFunction(parameters: parameters, isVararg: isVararg, body: body, line: line, endLine: endLine)
    }

    // MARK: - Expressions

    private mutating func parseExpressionList() throws(LuaSyntaxError) -> [LuaExpression] {
        var expressions = [try parseExpression()]
        while accept(",") { expressions.append(try parseExpression()) }
        return expressions
    }

    private func binaryOperator() -> LuaBinaryOperator? {
        guard case .symbol(let symbol) = current.kind else { return nil }
        return LuaBinaryOperator(rawValue: symbol)
    }

    private func unaryOperator() -> LuaUnaryOperator? {
        guard case .symbol(let symbol) = current.kind else { return nil }
        return LuaUnaryOperator(rawValue: symbol)
    }

    /// An expression whose binary operators all bind tighter than `limit` (precedence
    /// climbing, as Lua's `subexpr`).
    mutating func parseExpression(limit: Int = 0) throws(LuaSyntaxError) -> LuaExpression {
        try enterLevel()
        defer { depth -= 1 }
        var left: LuaExpression
        if let unary = unaryOperator() {
            let line = current.line
            advance()
            let operand = try parseExpression(limit: LuaBinaryOperator.unaryPrecedence)
            left = LuaExpression(.unary(unary, operand), line: line)
        } else {
            left = try parseSimpleExpression()
        }
        var links = 0
        defer { leaveChain(links) }
        while let binary = binaryOperator(), binary.precedence.left > limit {
            try enterChainLink()
            links += 1
            let line = current.line
            advance()
            let right = try parseExpression(limit: binary.precedence.right)
            left = LuaExpression(.binary(binary, left, right), line: line)
        }
        return left
    }

    private mutating func parseSimpleExpression() throws(LuaSyntaxError) -> LuaExpression {
        let line = current.line
        switch current.kind {
        case .number(let number):
            advance()
            return LuaExpression(.number(number), line: line)
        case .string(let string):
            advance()
            return LuaExpression(.string(string), line: line)
        case .symbol("nil"):
            advance()
            return LuaExpression(.nilLiteral, line: line)
        case .symbol("true"):
            advance()
            return LuaExpression(.boolean(true), line: line)
        case .symbol("false"):
            advance()
            return LuaExpression(.boolean(false), line: line)
        case .symbol("..."):
            guard varargFunctions[varargFunctions.count - 1] else {
                throw error("cannot use '...' outside a vararg function \(nearCurrent)")
            }
            advance()
            return LuaExpression(.vararg, line: line)
        case .symbol("{"):
            return try parseTable()
        case .symbol("function"):
            advance()
            return LuaExpression(.function(try parseFunctionBody(line: line)), line: line)
        default:
            return try parseSuffixedExpression()
        }
    }

    /// A name or parenthesized expression followed by any number of `.name`, `[key]`,
    /// `:method(args)` and `(args)`.
    private mutating func parseSuffixedExpression() throws(LuaSyntaxError) -> LuaExpression {
        var expression: LuaExpression
        let line = current.line
        switch current.kind {
        case .name(let name):
            advance()
            expression = LuaExpression(.name(name), line: line)
        case .symbol("("):
            advance()
            let inner = try parseExpression()
            try expect(")", closing: "(", at: line)
            expression = LuaExpression(.parenthesized(inner), line: line)
        default:
            throw unexpected()
        }
        var links = 0
        defer { leaveChain(links) }
        while true {
            let line = current.line
            switch current.kind {
            case .symbol("."), .symbol("["), .symbol(":"), .symbol("("), .symbol("{"), .string:
                try enterChainLink()
                links += 1
            default:
                break
            }
            switch current.kind {
            case .symbol("."):
                advance()
                expression = LuaExpression(.field(base: expression, name: try expectName()), line: line)
            case .symbol("["):
                advance()
                let key = try parseExpression()
                try expect("]")
                expression = LuaExpression(.index(base: expression, key: key), line: line)
            case .symbol(":"):
                advance()
                let method = try expectName()
                let arguments = try parseCallArguments()
                expression = LuaExpression(.methodCall(object: expression, method: method, arguments: arguments),
                                           line: line)
            case .symbol("("), .symbol("{"), .string:
                let arguments = try parseCallArguments()
                expression = LuaExpression(.call(function: expression, arguments: arguments), line: line)
            default:
                return expression
            }
        }
    }

    /// `(explist)`, a table constructor or a string literal.
    private mutating func parseCallArguments() throws(LuaSyntaxError) -> [LuaExpression] {
        let line = current.line
        switch current.kind {
        case .string(let string):
            advance()
            return [LuaExpression(.string(string), line: line)]
        case .symbol("{"):
            return [try parseTable()]
        case .symbol("("):
            advance()
            if accept(")") { return [] }
            let arguments = try parseExpressionList()
            try expect(")", closing: "(", at: line)
            return arguments
        default:
            throw error("function arguments expected \(nearCurrent)")
        }
    }

    private mutating func parseTable() throws(LuaSyntaxError) -> LuaExpression {
        let line = current.line
        try expect("{")
        var fields: [LuaTableField] = []
        while !check("}") {
            let fieldLine = current.line
            if case .name(let name) = current.kind, peekKind() == .symbol("=") {
                advance()
                advance()
                fields.append(LuaTableField(.named(name, try parseExpression()), line: fieldLine))
            } else if accept("[") {
                let key = try parseExpression()
                try expect("]")
                try expect("=")
                fields.append(LuaTableField(.keyed(key, try parseExpression()), line: fieldLine))
            } else {
                fields.append(LuaTableField(.positional(try parseExpression()), line: fieldLine))
            }
            if !accept(","), !accept(";") { break }
        }
        try expect("}", closing: "{", at: line)
        return LuaExpression(.table(fields), line: line)
    }
}
