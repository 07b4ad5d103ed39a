import LuaSyntax

/// What the static checks read off a script's syntax tree, in one walk: where each global
/// is first defined and as what, where each field is first assigned, the lines of the
/// entries of the `scenarios` and `params` tables, and the statements that compute a
/// transform and drop it.
///
/// The tree comes from the same Lua 5.4 parser `cardlua export` translates, so a name in a
/// string or a comment, a statement spread over lines, or a local that shadows a global
/// is read as Lua reads it. A script the parser refuses (Lua refuses it too: the load
/// error is reported instead) gives an empty index, whose lines are all nil.
struct SourceIndex {
    /// What a global is first given.
    enum Kind: String {
        case function, table, other
    }

    /// A global the script defines: `function name(…)` or `name = value` outside any
    /// local of that name.
    struct Global {
        var name: String
        var kind: Kind
        var line: Int
    }

    /// A statement that is only a call whose value is a new transform (or another value)
    /// and so changes nothing: `t:rotate(…)` or `CATransform3DScale(t, …)` alone.
    struct DroppedResult {
        var line: Int
        /// `t` and `rotate` for `t:rotate(…)`; nil for a function call.
        var receiver: String?
        var method: String?
        /// `CATransform3DScale` for `CATransform3DScale(…)`; nil for a method call.
        var function: String?
    }

    /// The transform methods whose result is a new transform.
    static let transformMethods: Set<String> = ["rotate", "scale", "translate", "concat", "invert"]
    /// The prefixes of the functions whose result is a new value.
    static let valuePrefixes = ["CATransform3D", "CGAffineTransform"]

    /// The script's globals, each at its first definition, in source order.
    private(set) var globals: [Global] = []
    /// The dropped results, in source order.
    private(set) var droppedResults: [DroppedResult] = []
    /// Whether the source parsed.
    private(set) var parsed = false
    /// The first line assigning `x.key = …` or `x["key"] = …`, by key.
    private var fieldAssignments: [String: Int] = [:]
    /// The lines of the named entries of the table a global is given (`scenarios`,
    /// `params`), and of `scenarios.name = …`.
    private var tableEntries: [String: [String: Int]] = [:]
    /// The names of the entries written in the table's constructor, in its order.
    private var tableEntryOrder: [String: [String]] = [:]

    init(source: String, chunkName: String = "script") {
        guard let chunk = try? parseLua(source, fileName: chunkName) else { return }
        parsed = true
        var walk = Walk(index: self)
        walk.block(chunk.body)
        self = walk.index
    }

    /// The line of the first statement that assigns the field `key` (`attributes.alpha =`,
    /// `layout["itemSize"] =`), whatever the table.
    func assignment(to key: String) -> Int? { fieldAssignments[key] }

    /// The line where the global `name` is first defined (`function name(` or `name = …`).
    func definition(of name: String) -> Int? { globals.first { $0.name == name }?.line }

    /// Where the scenario `name` is defined (its entry in the `scenarios` table, or
    /// `scenarios.name = …`), else the `scenarios` table.
    func scenario(named name: String) -> Int? {
        tableEntries["scenarios"]?[name] ?? definition(of: "scenarios")
    }

    /// The line of the declaration a `params` error names (`params.rotate: …`): the
    /// entry's line inside the `params` table, else the table's, else 1.
    func paramLine(forMessage text: String) -> Int {
        let table = definition(of: "params") ?? 1
        guard text.hasPrefix("params.") else { return table }
        let name = text.dropFirst("params.".count).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return tableEntries["params"]?[String(name)] ?? table
    }

    private mutating func noteGlobal(_ name: String, _ kind: Kind, line: Int) {
        if !globals.contains(where: { $0.name == name }) { globals.append(Global(name: name, kind: kind, line: line)) }
    }

    private mutating func noteField(_ key: String, line: Int) {
        if fieldAssignments[key] == nil { fieldAssignments[key] = line }
    }

    /// An entry of `table`: in its constructor (`inConstructor`, which orders them) or
    /// assigned later (`scenarios.late = …`).
    private mutating func noteEntry(_ key: String, of table: String, line: Int, inConstructor: Bool) {
        guard tableEntries[table, default: [:]][key] == nil else { return }
        tableEntries[table, default: [:]][key] = line
        if inConstructor { tableEntryOrder[table, default: []].append(key) }
    }

    /// `names` in the order the script's `params = { … }` constructor declares them (its
    /// entries `name = …` and `["name"] = …`); names it does not list (a param added by
    /// code, `params.extra = …`) follow, by name.
    func paramOrder(_ names: [String]) -> [String] {
        var order: [String: Int] = [:]
        for (position, key) in (tableEntryOrder["params"] ?? []).enumerated() { order[key] = position }
        return names.sorted { a, b in
            switch (order[a], order[b]) {
            case let (x?, y?): x < y
            case (_?, nil): true
            case (nil, _?): false
            case (nil, nil): a < b
            }
        }
    }

    /// The walk over the tree, with the locals in scope at each point.
    private struct Walk {
        var index: SourceIndex
        /// The local names of each enclosing block, innermost last.
        var scopes: [Set<String>] = [[]]

        func isLocal(_ name: String) -> Bool { scopes.contains { $0.contains(name) } }

        mutating func declare(_ names: [String]) { scopes[scopes.count - 1].formUnion(names) }

        mutating func block(_ block: LuaBlock, declaring names: [String] = []) {
            scopes.append(Set(names))
            for statement in block.statements { self.statement(statement) }
            scopes.removeLast()
        }

        mutating func statement(_ statement: LuaStatement) {
            switch statement.kind {
            case .local(let names, let values):
                values.forEach { expression($0) }
                declare(names.map(\.name))
            case .assignment(let targets, let values):
                for (k, target) in targets.enumerated() {
                    assign(target, value: k < values.count ? values[k] : nil)
                }
                values.forEach { expression($0) }
            case .call(let call):
                noteDroppedResult(call, line: statement.line)
                expression(call)
            case .doBlock(let body):
                block(body)
            case .whileLoop(let condition, let body):
                expression(condition)
                block(body)
            case .repeatLoop(let body, let condition):
                // The condition sees the body's locals.
                scopes.append([])
                body.statements.forEach { self.statement($0) }
                expression(condition)
                scopes.removeLast()
            case .ifStatement(let clauses, let elseBlock):
                for clause in clauses {
                    expression(clause.condition)
                    block(clause.body)
                }
                if let elseBlock { block(elseBlock) }
            case .numericFor(let variable, let start, let limit, let step, let body):
                [start, limit].forEach { expression($0) }
                if let step { expression(step) }
                block(body, declaring: [variable])
            case .genericFor(let names, let expressions, let body):
                expressions.forEach { expression($0) }
                block(body, declaring: names)
            case .function(let name, let function):
                if name.fields.isEmpty, name.method == nil, !isLocal(name.base) {
                    index.noteGlobal(name.base, .function, line: statement.line)
                }
                self.function(function, isMethod: name.method != nil)
            case .localFunction(let name, let function):
                declare([name])
                self.function(function, isMethod: false)
            case .returnStatement(let values):
                values.forEach { expression($0) }
            case .breakStatement, .gotoStatement, .label:
                break
            }
        }

        mutating func assign(_ target: LuaExpression, value: LuaExpression?) {
            switch target.kind {
            case .name(let name) where !isLocal(name):
                let kind: Kind
                switch value?.kind {
                case .function: kind = .function
                case .table(let fields):
                    kind = .table
                    for field in fields {
                        if let key = Self.key(of: field) { index.noteEntry(key, of: name, line: field.line, inConstructor: true) }
                    }
                default: kind = .other
                }
                index.noteGlobal(name, kind, line: target.line)
            case .field(let base, let key):
                index.noteField(key, line: target.line)
                if case .name(let table) = base.kind, !isLocal(table) {
                    index.noteEntry(key, of: table, line: target.line, inConstructor: false)
                }
                expression(base)
            case .index(let base, let key):
                if case .string(let name) = key.kind { index.noteField(name, line: target.line) }
                expression(base)
                expression(key)
            default:
                break
            }
        }

        mutating func function(_ function: LuaFunction, isMethod: Bool) {
            block(function.body, declaring: (isMethod ? ["self"] : []) + function.parameters)
        }

        mutating func expression(_ expression: LuaExpression) {
            switch expression.kind {
            case .function(let function):
                self.function(function, isMethod: false)
            case .table(let fields):
                for field in fields {
                    switch field.kind {
                    case .positional(let value), .named(_, let value): self.expression(value)
                    case .keyed(let key, let value):
                        self.expression(key)
                        self.expression(value)
                    }
                }
            case .field(let base, _):
                self.expression(base)
            case .index(let base, let key):
                self.expression(base)
                self.expression(key)
            case .call(let function, let arguments):
                self.expression(function)
                arguments.forEach { self.expression($0) }
            case .methodCall(let object, _, let arguments):
                self.expression(object)
                arguments.forEach { self.expression($0) }
            case .unary(_, let operand), .parenthesized(let operand):
                self.expression(operand)
            case .binary(_, let lhs, let rhs):
                self.expression(lhs)
                self.expression(rhs)
            case .nilLiteral, .boolean, .number, .string, .vararg, .name:
                break
            }
        }

        /// A call statement whose value is a new transform (or value), dropped.
        mutating func noteDroppedResult(_ call: LuaExpression, line: Int) {
            switch call.kind {
            case .methodCall(let object, let method, _) where SourceIndex.transformMethods.contains(method):
                guard let receiver = Self.path(object) else { return }
                index.droppedResults.append(DroppedResult(line: line, receiver: receiver, method: method))
            case .call(let function, _):
                guard case .name(let name) = function.kind,
                      SourceIndex.valuePrefixes.contains(where: { name.hasPrefix($0) && name.count > $0.count })
                else { return }
                index.droppedResults.append(DroppedResult(line: line, function: name))
            default:
                return
            }
        }

        /// `t` or `self.t`: a name or a dotted path of names, as written.
        static func path(_ expression: LuaExpression) -> String? {
            switch expression.kind {
            case .name(let name): name
            case .field(let base, let name): path(base).map { "\($0).\(name)" }
            default: nil
            }
        }

        /// The key of a table entry written `name = …` or `["name"] = …`.
        static func key(of field: LuaTableField) -> String? {
            switch field.kind {
            case .named(let name, _): name
            case .keyed(let key, _): if case .string(let name) = key.kind { name } else { nil }
            case .positional: nil
            }
        }
    }
}
