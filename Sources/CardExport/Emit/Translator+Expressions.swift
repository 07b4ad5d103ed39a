import LuaSyntax

// Expressions: operators with Lua's semantics, conditions, tables, calls of the script's functions.

extension Translator {
    func code(_ text: String, _ type: LuaType, _ precedence: Int = Code.atom) -> Code {
        Code(text: text, type: type, precedence: precedence)
    }

    /// A count or an index of the collection view: bounded by ``Code/countBound``.
    func counted(_ c: Code) -> Code {
        var c = c
        c.bound = Code.countBound
        return c
    }

    func wrap(_ c: Code, _ needed: Int) -> Code {
        c.precedence >= needed ? c : Code(text: "(\(c.text))", type: c.type, precedence: Code.atom)
    }

    /// A value converted to the kind a place takes (integers to CGFloat and back), or a refusal.
    func coerce(_ c: Code, to t: LuaType, line: Int) throws -> Code {
        if c.type == t || t == .unknown || c.type == .unknown { return c }
        switch (c.type, t) {
        case (.int, .num):
            if let id = c.variable { floatReadsNow[id, default: 0] += 1 }
            if Int(c.text) != nil { return c }
            if let f = c.asFloat { return code(f, .num, c.precedence) }
            // `CGFloat(x)`, not `CGFloat((x))`, of a parenthesized Lua expression.
            return code(c.isParenthesized ? "CGFloat\(c.text)" : "CGFloat(\(c.text))", .num)
        case (.num, .int):
            if let d = Double(c.text), d == d.rounded() { return code(String(Int(d)), .int) }
            return code("Int(\(c.text))", .int)
        case (.nilValue, .optional): return code("nil", t)
        case (let x, .optional(let y)) where x == y: return c
        case (.int, .optional(.num)): return code("CGFloat(\(c.text))", .num)
        case (.emptyTable, .array), (.emptyTable, .emptyTable): return code("[]", t)
        case (.emptyTable, .record(let r)): return code("\(records[recordRoot(r)].name)()", t)
        case (.array, .array), (.record, .record), (.function, .function): return c
        case (.string(let s), .color):
            if let col = SwiftText.color(s) { return code(col, .color) }
        default: break
        }
        if case .conflict = t, isFinal { _ = try swiftType(t, line: line) }
        if isFinal {
            throw refuse(line, "a value of two kinds is not supported (\(c.type.kindName) where \(t.kindName) is expected; Swift gives each value one type)")
        }
        return c
    }

    func variableText(_ id: Int) -> String {
        let t = variables[id].type
        if t == .collectionView { return collectionViewText }
        if t == .layout { return "self" }
        if moduleVariables.contains(id) {
            if mutableModuleVariables.contains(id) { return "self." + swiftName(id) }
            if methodFunctions[id] != nil { return swiftName(id) }
            return inStaticInitializer ? swiftName(id) : "Self." + swiftName(id)
        }
        return swiftName(id)
    }

    var collectionViewText: String {
        for k in keyStack { usesCollectionViewNow.insert(k) }
        return "collectionView"
    }

    // MARK: - Expressions

    func expression(_ e: LuaExpression, wantsAbsent: Bool = false, closureParameters: [LuaType]? = nil,
                    allowTuple: Bool = false) throws -> Code {
        switch e.kind {
        case .nilLiteral: return code("nil", .nilValue)
        case .boolean(let b): return code(b ? "true" : "false", .bool)
        case .number(let n):
            var literal = code(SwiftText.number(n), n.isInteger ? .int : .num, n.text.hasPrefix("-") ? Code.prefix : Code.atom)
            if n.isInteger { literal.bound = abs(n.value) }
            return literal
        case .string(let s):
            if SwiftText.color(s) != nil { return code(SwiftText.color(s)!, .color) }
            return code(SwiftText.string(s), .string(s))
        case .vararg:
            throw refuse(e.line, "`...` is not supported (name the parameters)")
        case .function(let f):
            return try functionLiteral(f, line: e.line, parameterTypes: closureParameters)
        case .table(let fields):
            return try tableConstructor(fields, line: e.line)
        case .name(let n):
            if let id = lookUp(n), let f = mathAliases[id] {
                throw refuse(e.line, "'\(n)' (math.\(f)) is supported only where it is called (Swift has no value of it to pass or keep)")
            }
            if let id = lookUp(n) {
                readNow.insert(id)
                let t = try variableType(id, line: e.line)
                var read = code(variableText(id), t)
                read.variable = id
                if t == .int {
                    integerReadsNow[id, default: 0] += 1
                    if !variables[id].reassigned { read.bound = variables[id].bound }
                }
                return read
            }
            return try globalName(n, line: e.line)
        case let .field(base, name):
            if case .name(let m) = base.kind, lookUp(m) == nil, ["math", "string", "table", "coroutine", "os", "io", "utf8", "debug"].contains(m) {
                return try libraryField(m, name, line: e.line)
            }
            let cvBefore = usesCollectionViewNow
            let b = try expression(base)
            if b.type == .collectionView, let hoisted = hoistedCollectionViewField(name) {
                usesCollectionViewNow = cvBefore   // read from `visibleBounds`, not the view
                return hoisted
            }
            return try fieldAccess(b, name, line: e.line)
        case let .index(base, key):
            let b = try expression(base)
            let k = try expression(key)
            switch b.type {
            case .array(let element):
                let i = try coerce(k, to: .int, line: e.line)
                if wantsAbsent {
                    helpers.insert("luaIndex")
                    return code("luaIndex(\(b.text), \(i.text))", .optional(element))
                }
                return code("\(b.text)[\(offsetByOne(i))]", element)
            case .unknown, .emptyTable:
                return code("", .unknown)
            default:
                if case .string = k.type {
                    throw refuse(e.line, "indexing with a string key (t[\"…\"]) is not supported (write t.name)")
                }
                throw refuse(e.line, "a table used as a map is not supported (its keys are computed; Swift needs fixed fields: use a sequence, or a record with named fields)")
            }
        case let .call(function, arguments):
            return try call(function, arguments, line: e.line, allowTuple: allowTuple)
        case let .methodCall(object, method, arguments):
            return try methodCall(object, method, arguments, line: e.line)
        case .parenthesized(let inner):
            let c = try expression(inner)
            var parenthesized = code("(\(c.text))", c.type)
            parenthesized.asFloat = c.asFloat.map { "(\($0))" }
            parenthesized.isParenthesized = true
            return parenthesized
        case let .unary(op, operand):
            return try unary(op, operand, line: e.line)
        case let .binary(op, l, r):
            return try binary(op, l, r, line: e.line)
        }
    }

    func unary(_ op: LuaUnaryOperator, _ operand: LuaExpression, line: Int) throws -> Code {
        switch op {
        case .negate:
            let c = try expression(operand)
            if !c.type.isNumber && c.type != .unknown && isFinal {
                throw refuse(line, "negating \(c.type.kindName) is not supported")
            }
            // Lua's integers wrap round: -math.mininteger is math.mininteger, where Swift's
            // `-Int.min` traps; a literal (`-5`) cannot reach Int.min.
            if c.type == .int, case .number = operand.kind {} else if c.type == .int, let b = c.bound, b < Code.plainBound {
                var negated = code("-" + wrap(c, Code.prefix).text, .int, Code.prefix)
                negated.bound = b
                negated.variable = c.variable  // `-x` made a CGFloat is a CGFloat read of x
                return negated
            } else if c.type == .int {
                return code("0 &- " + wrap(c, Code.additive + 1).text, .int, Code.additive)
            }
            return code("-" + wrap(c, Code.prefix).text, c.type == .int ? .int : .num, Code.prefix)
        case .not:
            let c = try conditionCode(operand)
            return code("!" + wrap(c, Code.prefix).text, .bool, Code.prefix)
        case .length:
            let c = try expression(operand)
            if case .array = c.type {
                var count = code("\(wrap(c, Code.atom).text).count", .int)
                count.bound = Code.countBound
                return count
            }
            if c.type == .emptyTable || (c.type == .unknown && !isFinal) { return code("\(wrap(c, Code.atom).text).count", .int) }
            throw refuse(line, "`#` of \(c.type.kindName) is not supported (only a sequence's length is)")
        case .bitwiseNot:
            throw refuse(line, "bitwise operators are not supported (write the arithmetic)")
        }
    }

    func binary(_ op: LuaBinaryOperator, _ l: LuaExpression, _ r: LuaExpression, line: Int) throws -> Code {
        switch op {
        case .and, .or:
            return try logical(op, l, r, line: line)
        case .less, .greater, .lessEqual, .greaterEqual:
            let (a, b) = try numericPair(l, r, line: line, what: "comparing")
            return code("\(wrap(a, Code.comparison + 1).text) \(op.rawValue) \(wrap(b, Code.comparison + 1).text)", .bool, Code.comparison)
        case .equal, .notEqual:
            for (x, y) in [(l, r), (r, l)] {
                if case .name(let n) = x.kind, y.kind == .nilLiteral, let id = lookUp(n) { mark(id, \.nilTested) }
            }
            var a = try expression(l), b = try expression(r)
            if a.type.isNumber || b.type.isNumber {
                if a.type != b.type { a = try coerce(a, to: .num, line: line); b = try coerce(b, to: .num, line: line) }
            } else if case .optional = a.type, b.type == .nilValue {
                // t[k] == nil
            } else if a.type == .transform3D && b.type == .transform3D {
                let eq = "CATransform3DEqualToTransform(\(a.text), \(b.text))"
                return op == .equal ? code(eq, .bool) : code("!" + eq, .bool, Code.prefix)
            } else if case .record = a.type {
                let sym = op == .equal ? "===" : "!=="
                return code("\(a.text) \(sym) \(b.text)", .bool, Code.comparison)
            } else if a.type == .attributes {
                let sym = op == .equal ? "===" : "!=="
                return code("\(a.text) \(sym) \(b.text)", .bool, Code.comparison)
            } else if a.type != b.type && a.type != .unknown && b.type != .unknown && isFinal {
                // Lua: values of different kinds are never equal.
                return code(op == .equal ? "false" : "true", .bool)
            }
            let sym = op == .equal ? "==" : "!="
            return code("\(wrap(a, Code.comparison + 1).text) \(sym) \(wrap(b, Code.comparison + 1).text)", .bool, Code.comparison)
        case .add, .subtract, .multiply:
            let (a, b) = try numericPair(l, r, line: line, what: "arithmetic on")
            let p = op == .multiply ? Code.multiplicative : Code.additive
            let t: LuaType = a.type == .int && b.type == .int ? .int : .num
            // Lua's integers wrap around on overflow: Swift's wrapping operators (&+ &- &*) do the
            // same, where the operands' bounds do not rule it out (an index plus one cannot wrap).
            var bound: Double?
            if t == .int, let x = a.bound, let y = b.bound { bound = op == .multiply ? x * y : x + y }
            let plain = t != .int || (bound.map { $0 < Code.plainBound } ?? false)
            let symbol = plain ? op.rawValue : "&" + op.rawValue
            var result = code("\(wrap(a, p).text) \(symbol) \(wrap(b, p + 1).text)", t, p)
            result.bound = plain ? bound : nil
            return result
        case .divide:
            let (a0, b0) = try numericPair(l, r, line: line, what: "dividing")
            var a = try coerce(a0, to: .num, line: line)
            let b = try coerce(b0, to: .num, line: line)
            // Two integer literals would divide as Int where Swift's context is generic (`max(1 / 2, 0)`).
            if Int(a.text) != nil, Int(b.text) != nil { a.text += ".0" }
            return code("\(wrap(a, Code.multiplicative).text) / \(wrap(b, Code.multiplicative + 1).text)", .num, Code.multiplicative)
        case .floorDivide:
            let (a, b) = try numericPair(l, r, line: line, what: "dividing")
            if a.type == .int && b.type == .int {
                try refuseConstantZero(r, line: line, "integer division", luaMessage: "attempt to divide by zero")
                helpers.insert("luaIntDiv")
                var quotient = code("luaIntDiv(\(a.text), \(b.text))", .int)
                quotient.bound = a.bound  // |a // b| ≤ |a| for a whole divisor
                return quotient
            }
            let x = try coerce(a, to: .num, line: line), y = try coerce(b, to: .num, line: line)
            return code("floor(\(x.text) / \(wrap(y, Code.multiplicative + 1).text))", .num)
        case .modulo:
            let (a, b) = try numericPair(l, r, line: line, what: "the remainder of")
            if a.type == .int && b.type == .int {
                try refuseConstantZero(r, line: line, "the integer remainder", luaMessage: "attempt to perform 'n%0'")
                helpers.insert("luaIntMod")
                var remainder = code("luaIntMod(\(a.text), \(b.text))", .int)
                remainder.bound = b.bound  // |a % b| < |b|
                return remainder
            }
            helpers.insert("luaMod")
            return code("luaMod(\(try coerce(a, to: .num, line: line).text), \(try coerce(b, to: .num, line: line).text))", .num)
        case .power:
            let (a, b) = try numericPair(l, r, line: line, what: "raising")
            return code("pow(\(try coerce(a, to: .num, line: line).text), \(try coerce(b, to: .num, line: line).text))", .num)
        case .concat:
            throw refuse(line, "string concatenation (`..`) is not supported (a layout builds no text; drop it, or keep it in a tool-only print)")
        case .bitwiseOr, .bitwiseXor, .bitwiseAnd, .shiftLeft, .shiftRight:
            throw refuse(line, "bitwise operators are not supported (write the arithmetic)")
        }
    }

    /// `//` and `%` of integers by a divisor that is always zero: Lua raises an error there,
    /// and no Swift gives what Lua does (the helpers stop with Lua's message where a zero
    /// comes at run time).
    func refuseConstantZero(_ divisor: LuaExpression, line: Int, _ what: String, luaMessage: String) throws {
        guard isFinal, constantNumber(divisor) == 0 else { return }
        throw refuse(line, "\(what) by a constant zero is not supported (Lua raises '\(luaMessage)' there, so the script fails; divide by a number that is not zero)")
    }

    /// Two numbers, both Int or both CGFloat.
    func numericPair(_ l: LuaExpression, _ r: LuaExpression, line: Int, what: String) throws -> (Code, Code) {
        var a = try expression(l), b = try expression(r)
        for c in [a, b] where !c.type.isNumber && c.type != .unknown && isFinal {
            throw refuse(line, "\(what) \(c.type.kindName) is not supported (only numbers)")
        }
        if a.type != b.type {
            a = try coerce(a, to: .num, line: line)
            b = try coerce(b, to: .num, line: line)
            if a.type == .unknown { a.type = .num }
            if b.type == .unknown { b.type = .num }
        }
        return (a, b)
    }

    // MARK: - Truth

    /// An expression as a Swift `Bool` with Lua's truth: only `nil` and `false` are false.
    func conditionCode(_ e: LuaExpression) throws -> Code {
        switch e.kind {
        case let .binary(.and, l, r):
            let a = try conditionCode(l), b = try conditionCode(r)
            return code("\(wrap(a, Code.conjunction).text) && \(wrap(b, Code.conjunction + 1).text)", .bool, Code.conjunction)
        case let .binary(.or, l, r):
            let a = try conditionCode(l), b = try conditionCode(r)
            return code("\(wrap(a, Code.disjunction).text) || \(wrap(b, Code.disjunction + 1).text)", .bool, Code.disjunction)
        case .unary(.not, let x):
            let c = try conditionCode(x)
            return code("!" + wrap(c, Code.prefix).text, .bool, Code.prefix)
        case .parenthesized(let x):
            let c = try conditionCode(x)
            return c.precedence >= Code.atom ? c : code("(\(c.text))", .bool)
        case .name(let n):
            if let id = lookUp(n) { mark(id, \.truthTested) }
        default: break
        }
        return truth(try expression(e))
    }

    func truth(_ c: Code) -> Code {
        switch c.type {
        case .bool, .unknown: return c
        case .optional: return code("\(wrap(c, Code.comparison + 1).text) != nil", .bool, Code.comparison)
        case .nilValue: return code("false", .bool)
        default: return code("true", .bool)   // every number, table and transform is true in Lua
        }
    }

    /// `and`/`or` as values: a ternary where the middle value can never be false.
    /// The guarded alternatives of a chain `c1 and v1 or c2 and v2 or v3` (nil guard: always),
    /// or nil when a value in it could be false (then it is not a plain choice).
    func alternatives(_ e: LuaExpression) throws -> [(condition: Code?, value: Code)]? {
        switch e.kind {
        case let .binary(.or, l, r):
            guard let a = try alternatives(l), let b = try alternatives(r) else { return nil }
            if a.last?.condition == nil { return a }   // the left side is never false
            return a + b
        case let .binary(.and, x, v):
            guard !isAndOr(v) else { return nil }
            let value = try expression(v)
            guard !value.type.canBeFalsy else { return nil }
            return [(try conditionCode(x), value)]
        case .parenthesized(let inner) where isAndOr(inner):
            return try alternatives(inner)
        default:
            let value = try expression(e)
            guard !value.type.canBeFalsy else { return nil }
            return [(nil, value)]
        }
    }

    func isAndOr(_ e: LuaExpression) -> Bool {
        if case .binary(let op, _, _) = e.kind { return op == .and || op == .or }
        return false
    }

    func logical(_ op: LuaBinaryOperator, _ l: LuaExpression, _ r: LuaExpression, line: Int) throws -> Code {
        // x and a or b (and longer chains): a ternary where each chosen value is never false
        if op == .or, let alts = try alternatives(LuaExpression(.binary(op, l, r), line: line)),
           alts.count > 1, alts.last?.condition == nil {
            var t: LuaType = .unknown
            for a in alts { t = join(t, a.value.type) }
            if case .conflict = t, isFinal {
                throw refuse(line, "`x and a or b` with a and b of two kinds is not supported (\(alts.map(\.value.type.kindName).joined(separator: " and ")); Swift gives each value one type)")
            }
            func chain(_ kind: LuaType) throws -> String {
                var text = wrap(try coerce(alts.last!.value, to: kind, line: line), Code.ternary).text
                for a in alts.dropLast().reversed() {
                    text = "\(wrap(a.condition!, Code.ternary + 1).text) ? \(wrap(try coerce(a.value, to: kind, line: line), Code.ternary + 1).text) : \(text)"
                }
                return text
            }
            var result = code(try chain(t), t, Code.ternary)
            if t == .int { result.asFloat = try chain(.num) }
            return result
        }
        let a = try expression(l)
        // `a or b` with a never false is a: b is never evaluated (Lua short-circuits too).
        if op == .or, !a.type.canBeFalsy { return a }
        let b = try expression(r)
        if a.type == .bool && b.type == .bool || a.type == .unknown || b.type == .unknown {
            let ca = try conditionCode(l), cb = try conditionCode(r)
            let sym = op == .and ? "&&" : "||", p = op == .and ? Code.conjunction : Code.disjunction
            return code("\(wrap(ca, p).text) \(sym) \(wrap(cb, p + 1).text)", .bool, p)
        }
        if op == .or {
            if case .optional(let inner) = a.type {
                let t = join(inner, b.type)
                return code("\(wrap(a, Code.ternary + 1).text) ?? \(wrap(try coerce(b, to: t, line: line), Code.ternary + 1).text)", t, Code.ternary)
            }
            if !a.type.canBeFalsy { return a }   // a number or a table is never false: `a or b` is a
        } else {
            if !a.type.canBeFalsy {
                // `a and b` with a never false is b; a computed `a` would be dropped: say so instead.
                if isFinal, case .binary = l.kind {
                    throw refuse(line, "`and` after \(a.type.kindName), which is never false, is not supported (the value is always the right side: write that)")
                }
                if isFinal, case .call = l.kind {
                    throw refuse(line, "`and` after \(a.type.kindName), which is never false, is not supported (the value is always the right side: write that)")
                }
                return b
            }
        }
        throw refuse(line, "`\(op.rawValue)` as a value mixing \(a.type.kindName) and \(b.type.kindName) is not supported (Swift gives each value one type; write an if)")
    }

    // MARK: - Tables

    func newRecord(named name: String) -> Int {
        let id = records.count
        records.append(RecordFacts(name: recordTypeName(name), parent: id))
        changed = true
        return id
    }

    func recordName(for e: LuaExpression) -> String {
        if case .name(let n) = e.kind { return capitalized(n) }
        return "Record"
    }

    func capitalized(_ s: String) -> String {
        var name = s
        if name.hasSuffix("s"), name.count > 3 { name.removeLast() }
        let cleaned = name.filter { $0.isLetter || $0.isNumber }
        guard let f = cleaned.first else { return "Record" }
        return f.uppercased() + cleaned.dropFirst()
    }

    func tableConstructor(_ fields: [LuaTableField], line: Int) throws -> Code {
        let site = constructorCount
        constructorCount += 1
        if fields.isEmpty { return code("[]", .emptyTable) }
        var positional: [Code] = []
        var named: [(String, Code, Int)] = []
        for f in fields {
            switch f.kind {
            case .positional(let v): positional.append(try expression(v))
            case let .named(k, v): named.append((k, try expression(v), f.line))
            case .keyed:
                throw refuse(f.line, "a table used as a map is not supported (a computed key `[k] = v`; Swift needs fixed fields: use a sequence or named fields)")
            }
        }
        if !positional.isEmpty && !named.isEmpty {
            throw refuse(line, "a table with both a sequence and named fields is not supported (use two tables)")
        }
        if !positional.isEmpty {
            var element: LuaType = .unknown
            for c in positional { element = join(element, c.type) }
            let items = try positional.map { try coerce($0, to: element, line: line).text }
            let multiline = items.contains { $0.contains("\n") } || items.joined(separator: ", ").count > 90
            if multiline {
                let indented = items.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n") }
                return code("[\n" + indented.map { $0 + "," }.joined(separator: "\n") + "\n]", .array(element))
            }
            return code("[\(items.joined(separator: ", "))]", .array(element))
        }
        // A table with an indexPath is an element for the layout: a copy of the item's attributes, changed.
        if named.contains(where: { $0.0 == "indexPath" }) {
            return try attributesConstructor(named, line: line)
        }
        let r: Int
        if let known = constructorRecords[site] { r = known } else {
            r = newRecord(named: pendingRecordName ?? "Record")
            constructorRecords[site] = r
        }
        records[recordRoot(r)].constructorFields.formUnion(named.map(\.0))
        for (k, c, _) in named { addRecordField(r, k, c.type) }
        let root = recordRoot(r)
        var args: [String] = []
        for field in records[root].fields {
            if let (_, c, l) = named.first(where: { $0.0 == field.name }) {
                args.append("\(SwiftText.label(fieldName(field.name))): \(try coerce(c, to: field.type, line: l).text)")
            }
        }
        return code("\(records[root].name)(\(args.joined(separator: ", ")))", .record(root))
    }

    func functionLiteral(_ f: LuaFunction, line: Int, parameterTypes: [LuaType]?) throws -> Code {
        if f.isVararg { throw refuse(line, "a function with `...` is not supported (name its parameters)") }
        let fid = newFunction("function", line: line)
        let savedLines = lines, savedIndent = indent
        lines = []
        indent = 0
        try functionBody(f, fid: fid, role: .closure(fid), variable: nil, nested: true, trailing: nil)
        let text = lines.joined(separator: "\n")
        lines = savedLines
        indent = savedIndent
        if let types = parameterTypes { passArguments(fid, types, line: line) }
        return code(text, .function(fid))
    }
}
