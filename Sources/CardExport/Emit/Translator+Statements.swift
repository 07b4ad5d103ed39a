import LuaSyntax

// Statements: locals, assignments, calls, control flow, and `return` as each callback means it.

extension Translator {
    func block(_ b: LuaBlock, newScope: Bool = true) throws {
        let body = {
            for (i, s) in b.statements.enumerated() {
                try self.statement(s, first: i == 0)
            }
            self.emitComments(b.trailingComments)
        }
        if newScope { try scoped(body) } else { try body() }
    }

    func statement(_ s: LuaStatement, first: Bool) throws {
        if s.isPrecededByBlankLine && !first { emit("") }
        emitComments(s.leadingComments)
        let start = lines.count
        try statementBody(s)
        if let c = s.trailingComment, isFinal {
            if lines.count > start { lines[start] += "  " + SwiftText.lineComment(c) } else { emit(SwiftText.lineComment(c)) }
        }
    }

    func statementBody(_ s: LuaStatement) throws {
        switch s.kind {
        case let .local(names, values):
            try localDeclaration(s, names: names.map(\.name), values: values)
        case let .localFunction(name, f):
            let id = declare(name, line: s.line)
            try helperFunction(LuaStatement(s.kind, line: s.line), variable: id, name: name, function: f)
        case let .assignment(targets, values):
            try assignment(s.line, targets: targets, values: values)
        case .call(let e):
            try callStatement(e)
        case .doBlock(let b):
            emit("do {")
            indent += 1
            try block(b)
            indent -= 1
            emit("}")
        case let .whileLoop(condition, body):
            emit("while \(try conditionCode(condition).text) {")
            indent += 1
            try block(body)
            indent -= 1
            emit("}")
        case let .repeatLoop(body, condition):
            emit("repeat {")
            indent += 1
            try block(body)
            indent -= 1
            emit("} while !(\(try conditionCode(condition).text))")
        case let .ifStatement(clauses, elseBlock):
            for (i, clause) in clauses.enumerated() {
                let c = try conditionCode(clause.condition).text
                emit(i == 0 ? "if \(c) {" : "} else if \(c) {")
                indent += 1
                try block(clause.body)
                indent -= 1
            }
            if let e = elseBlock {
                emit("} else {")
                indent += 1
                try block(e)
                indent -= 1
            }
            emit("}")
        case let .numericFor(variable, start, limit, step, body):
            try numericFor(s.line, variable: variable, start: start, limit: limit, step: step, body: body)
        case let .genericFor(names, expressions, body):
            try genericFor(s.line, names: names, expressions: expressions, body: body)
        case .function:
            throw refuse(s.line, "a global function defined inside a function is not supported (write `local function name(…)`)")
        case .returnStatement(let values):
            try returnStatement(s.line, values)
        case .breakStatement:
            emit("break")
        case .gotoStatement, .label:
            throw refuse(s.line, "goto is not supported (Swift has no goto; use a loop with `break` or a flag)")
        }
    }

    // MARK: - Locals

    func localDeclaration(_ s: LuaStatement, names: [String], values: [LuaExpression]) throws {
        // Function literals become nested functions.
        if names.count == 1, values.count == 1, case .function(let f) = values[0].kind {
            let id = declare(names[0], line: s.line)
            try helperFunction(LuaStatement(.localFunction(name: names[0], function: f), line: s.line),
                               variable: id, name: names[0], function: f)
            return
        }
        if declareMathAliases(s, names: names, values: values) {
            emit(SwiftText.lineComment(mathAliasComment(names)))
            return
        }
        // Values first (they see the outer names), then the new locals.
        var codes: [Code] = []
        var tuple: Code?
        let cvBefore = usesCollectionViewNow
        defer {
            // `local cv = layout.collectionView` writes nothing: the uses of cv count, not this.
            if !codes.isEmpty, codes.allSatisfy({ $0.type == .collectionView || $0.type == .layout || $0.type == .params }) {
                usesCollectionViewNow = cvBefore
            }
        }
        for (i, v) in values.enumerated() {
            pendingRecordName = i < names.count ? capitalized(names[i]) : nil
            let c = try expression(v, wantsAbsent: i == 0 && names.count == 1 && isTruthTested(names[0]),
                                   allowTuple: i == values.count - 1 && names.count > values.count)
            if i == values.count - 1, names.count > values.count, case .multiple(let ts) = multipleResults(c) {
                tuple = c
                for k in 0..<ts.count where codes.count < names.count {
                    codes.append(Code(text: "\(c.text).\(k)", type: ts[k], precedence: Code.atom))
                }
            } else {
                codes.append(c)
            }
        }
        let shadows = names.count > 1 && names.contains { name in lookUp(name) != nil && codes.contains(where: { $0.text.contains(name) }) }
        var ids: [Int] = []
        for (i, name) in names.enumerated() {
            let renamed = scopes[scopes.count - 1][name] != nil
            let id = declare(name, line: s.line)
            if renamed, variables[id].luaName == name { renamedSwift[id] = unique(name) }
            ids.append(id)
            if i >= codes.count || codes[i].type == .nilValue, variables[id].nilTested || variables[id].truthTested {
                assign(id, .optional(.unknown), line: s.line)   // `local closest` … `if closest == nil`
            }
            assign(id, i < codes.count ? codes[i].type : .nilValue, line: s.line)
            bound(id, i < codes.count ? codes[i] : nil)
        }
        if let t = tuple, !shadows, codes.count == names.count, names.count > 1, isFinal {
            // local a, b = f(): destructure the tuple
            var parts: [String] = []
            var anyVar = false
            for id in ids {
                parts.append(variables[id].read ? swiftName(id) : "_")
                if needsVar(id) { anyVar = true }
            }
            emit("\(anyVar ? "var" : "let") (\(parts.joined(separator: ", "))) = \(t.text)")
            return
        }
        if shadows && isFinal {
            var parts: [String] = [], types: [String] = [], vals: [String] = []
            for (i, id) in ids.enumerated() {
                let t = try variableType(id, line: s.line)
                parts.append(swiftName(id))
                types.append(try swiftType(t, line: s.line))
                vals.append(i < codes.count ? try coerce(codes[i], to: t, line: s.line).text : defaultValue(t))
            }
            emit("var (\(parts.joined(separator: ", "))): (\(types.joined(separator: ", "))) = (\(vals.joined(separator: ", ")))")
            return
        }
        for (i, id) in ids.enumerated() {
            let t = try variableType(id, line: s.line)
            if t == .layout || t == .collectionView || t == .params { continue }
            guard isFinal else { continue }
            if !variables[id].read {
                // an unread local: only a call is kept, for what it does
                if i < values.count, i < codes.count, codes[i].type != .nilValue, !isSimple(values[i]) { emit("_ = \(codes[i].text)") }
                continue
            }
            let st = try swiftType(t, line: s.line)
            let note = renameNote(id)
            if i < codes.count, codes[i].type != .nilValue {
                emit("\(needsVar(id) ? "var" : "let") \(swiftName(id)): \(st) = \(try coerce(codes[i], to: t, line: s.line).text)" + note)
            } else if hasDefault(t) {
                emit("var \(swiftName(id)): \(st) = \(defaultValue(t))" + note)
            } else if case .optional = t {
                emit("var \(swiftName(id)): \(st) = nil" + note)
            } else {
                emit("var \(swiftName(id)): \(st)! = nil" + note)
            }
        }
    }

    func needsVar(_ id: Int) -> Bool {
        variables[id].reassigned || (variables[id].fieldMutated && isValueType(variables[id].type))
    }

    /// Whether the local about to be declared with this name was tested for truth in the last walk.
    func isTruthTested(_ name: String) -> Bool {
        variableCount < variables.count && variables[variableCount].luaName == name && variables[variableCount].truthTested
    }

    enum Results { case single, multiple([LuaType]) }

    func multipleResults(_ c: Code) -> Results {
        if case .record(-1) = c.type { return .single }
        if let ts = tupleTypes[c.text], ts.count > 1 { return .multiple(ts) }
        return .single
    }

    // MARK: - Assignments

    func assignment(_ line: Int, targets: [LuaExpression], values: [LuaExpression]) throws {
        if targets.count == 1, values.count == 1 {
            try assignOne(line, target: targets[0], value: values[0])
            return
        }
        // All values first, as Lua evaluates them, then the targets: a tuple assignment.
        var codes: [Code] = []
        for v in values { codes.append(try expression(v)) }
        var lhs: [String] = [], rhs: [String] = []
        for (i, t) in targets.enumerated() {
            let value = i < codes.count ? codes[i] : Code(text: "nil", type: .nilValue, precedence: Code.atom)
            let target = try lvalue(t, line: line, valueType: value.type)
            lhs.append(target.text)
            rhs.append(try coerce(value, to: target.type, line: line).text)
        }
        emit("(\(lhs.joined(separator: ", "))) = (\(rhs.joined(separator: ", ")))")
    }

    func assignOne(_ line: Int, target: LuaExpression, value: LuaExpression) throws {
        // t[#t + 1] = v: append
        if case let .index(base, key) = target.kind, case let .binary(.add, l, r) = key.kind,
           case let .unary(.length, counted) = l.kind, counted == base, case .number(let one) = r.kind, one.value == 1 {
            pendingRecordName = recordName(for: base)
            let v = try expression(value)
            let arrayCode = try lvalue(base, line: line, valueType: .array(v.type))
            guard case .array(let element) = arrayCode.type else {
                if isFinal { throw refuse(line, "appending to \(arrayCode.type.kindName) is not supported") }
                return
            }
            emit("\(arrayCode.text).append(\(try coerce(v, to: element, line: line).text))")
            return
        }
        if case let .field(base, name) = target.kind, try layoutAssignment(line, base: base, name: name, value: value) {
            return
        }
        let v = try expression(value, wantsAbsent: false)
        let t = try lvalue(target, line: line, valueType: v.type)
        if t.text.isEmpty { return }
        if t.text == v.text {
            emit("// \(t.text) keeps its value")
            return
        }
        emit("\(t.text) = \(try coerce(v, to: t.type, line: line).text)")
    }

    /// The Swift of an assignment's target, and the kind it takes (joining `valueType` into
    /// a local's or a record field's kind).
    func lvalue(_ e: LuaExpression, line: Int, valueType: LuaType) throws -> Code {
        switch e.kind {
        case .name(let n):
            guard let id = lookUp(n) else {
                throw refuse(line, "assigning a global variable ('\(n)') is not supported (a layout keeps no global state; declare it `local`)")
            }
            if let f = mathAliases[id] {
                throw refuse(line, "'\(n)' names math.\(f) and is assigned again: not supported (keep one name for one function)")
            }
            mark(id, \.reassigned)
            assign(id, valueType, line: line)
            let t = try variableType(id, line: line)
            return Code(text: variableText(id), type: t, precedence: Code.atom)
        case let .field(base, name):
            markFieldMutation(base)
            translatingTarget = true
            let b = try expression(base)
            translatingTarget = false
            switch b.type {
            case .emptyTable, .record:
                var r: Int
                if case .record(let x) = b.type { r = x } else {
                    r = newRecord(named: recordName(for: base))
                    if case .name(let n) = base.kind, let id = lookUp(n) { assign(id, .record(r), line: line) }
                }
                addRecordField(r, name, valueType)
                let ft = recordField(r, name) ?? valueType
                return Code(text: "\(b.text).\(fieldName(name))", type: ft, precedence: Code.atom)
            case .attributes:
                return try attributesField(b, name, line: line, writing: true)
            case .optional(let inner):
                if case .record(let r) = inner {
                    addRecordField(r, name, valueType)
                    return Code(text: "\(b.text)!.\(fieldName(name))", type: recordField(r, name) ?? valueType, precedence: Code.atom)
                }
            default: break
            }
            return try fieldAccess(b, name, line: line)
        case let .index(base, key):
            markFieldMutation(base)
            let b = try expression(base)
            guard case .array(let element) = b.type else {
                if isFinal { throw refuse(line, "a table used as a map is not supported (its keys are computed; Swift needs fixed fields: use a sequence built with t[#t + 1] = v, or a record with named fields)") }
                return Code(text: "", type: .unknown, precedence: Code.atom)
            }
            let k = try coerce(try expression(key), to: .int, line: line)
            return Code(text: "\(b.text)[\(offsetByOne(k))]", type: element, precedence: Code.atom)
        default:
            throw refuse(line, "this assignment target is not supported")
        }
    }

    /// `k - 1` for a 1-based index `k`, folded where it is a literal or ends in `+ 1`.
    func offsetByOne(_ k: Code) -> String {
        if let i = Int(k.text) { return String(i - 1) }
        if k.text.hasSuffix(" + 1") { return String(k.text.dropLast(4)) }
        return "\(wrap(k, Code.additive).text) - 1"
    }

    func markFieldMutation(_ base: LuaExpression) {
        var b = base
        while true {
            switch b.kind {
            case .name(let n):
                if let id = lookUp(n) { mark(id, \.fieldMutated) }
                return
            case .field(let inner, _), .index(let inner, _): b = inner
            default: return
            }
        }
    }

    // MARK: - Calls as statements

    func callStatement(_ e: LuaExpression) throws {
        if case let .call(fn, args) = e.kind, case .name(let n) = fn.kind, lookUp(n) == nil {
            if n == "print" || n == "warn" {
                emit("// \(n)(…) dropped: it only writes to the tools' output")
                return
            }
            _ = args
        }
        if case let .call(fn, args) = e.kind, case let .field(t, f) = fn.kind, case .name("table") = t.kind, lookUp("table") == nil {
            try tableCall(e.line, f, args)
            return
        }
        if case let .methodCall(obj, method, _) = e.kind, method == "invalidateLayout", try expression(obj).type == .layout {
            emit("// layout:invalidateLayout() dropped: the layout invalidates itself on every bounds change")
            return
        }
        callIsStatement = true
        let c = try expression(e)
        callIsStatement = false
        if c.text.isEmpty { return }
        if c.type == .unknown && !isFinal { return }
        if case .record(-1) = c.type { emit(c.text); return }
        if isVoidCall(c) { emit(c.text) } else { emit("_ = \(c.text)") }
    }

    func isVoidCall(_ c: Code) -> Bool {
        voidCalls.contains(c.text)
    }

    func tableCall(_ line: Int, _ name: String, _ args: [LuaExpression]) throws {
        guard !args.isEmpty else { throw refuse(line, "table.\(name) needs the table") }
        switch name {
        case "insert" where args.count == 2:
            let v = try expression(args[1])
            let a = try lvalue(args[0], line: line, valueType: .array(v.type))
            markFieldMutation(args[0])
            guard case .array(let element) = a.type else { return }
            emit("\(a.text).append(\(try coerce(v, to: element, line: line).text))")
        case "insert" where args.count == 3:
            let v = try expression(args[2])
            let a = try lvalue(args[0], line: line, valueType: .array(v.type))
            markFieldMutation(args[0])
            guard case .array(let element) = a.type else { return }
            let k = try coerce(try expression(args[1]), to: .int, line: line)
            emit("\(a.text).insert(\(try coerce(v, to: element, line: line).text), at: \(offsetByOne(k)))")
        case "sort" where args.count <= 2:
            markFieldMutation(args[0])
            let a = try lvalue(args[0], line: line, valueType: .unknown)
            guard case .array(let element) = a.type else { return }
            if args.count == 1 {
                emit("\(a.text).sort()")
                return
            }
            // The comparator: a function literal typed by the elements; Lua's sort is not
            // stable, nor is Swift's: a script that needs an order for ties must say it.
            let cmp = try expression(args[1], closureParameters: [element, element])
            emit("\(a.text).sort(by: \(cmp.text))")
        case "remove" where args.count == 1:
            markFieldMutation(args[0])
            let a = try lvalue(args[0], line: line, valueType: .unknown)
            emit("\(a.text).removeLast()")
        default:
            throw refuse(line, "table.\(name) is not supported (the translator takes table.insert and table.sort)")
        }
    }

    // MARK: - Loops

    func numericFor(_ line: Int, variable: String, start: LuaExpression, limit: LuaExpression,
                    step: LuaExpression?, body: LuaBlock) throws {
        let a = try expression(start), b = try expression(limit)
        let c = try step.map { try expression($0) } ?? Code(text: "1", type: .int, precedence: Code.atom)
        let integer = a.type == .int && b.type == .int && c.type == .int
        try scoped {
            let id = declare(variable, line: line)
            assign(id, integer ? .int : .num, line: line)
            if integer, let x = a.bound, let y = b.bound {
                var ends = a
                ends.bound = max(x, y)
                bound(id, ends)
            } else {
                bound(id, nil)
            }
            let name = variables[id].read ? swiftName(id) : "_"
            // A whole step (the usual `1`): `stride` — for floats Swift's computes start + n·step
            // where Lua's loop adds the step each time, the same values while they are whole
            // numbers (every shipped script's), within an ulp otherwise.
            let wholeStep = c.type == .int || step.flatMap(constantNumber).map { $0 == $0.rounded() } == true
            if integer || wholeStep {
                let kind: LuaType = integer ? .int : .num
                let from = try coerce(a, to: kind, line: line).text, through = try coerce(b, to: kind, line: line).text
                let by = try coerce(c, to: kind, line: line).text
                emit("for \(name) in stride(from: \(from), through: \(through), by: \(by)) {")
                indent += 1
                if variables[id].reassigned { emit("var \(name) = \(name)") }
            } else {
                // Lua's float loop with a fractional step: the counter accumulates the step
                // (Swift's stride would multiply, and could end an iteration early or late).
                let counter = unique(variable + "Counter"), end = unique(variable + "Limit")
                let numA = try coerce(a, to: .num, line: line).text, numB = try coerce(b, to: .num, line: line).text
                let numC = try coerce(c, to: .num, line: line)
                emit("var \(counter): CGFloat = \(numA)")
                emit("let \(end): CGFloat = \(numB)")
                let positive: Bool? = step == nil ? true : constantNumber(step!).map { $0 > 0 }
                let test: String
                switch positive {
                case true?: test = "\(counter) <= \(end)"
                case false?: test = "\(counter) >= \(end)"
                case nil: test = "\(wrap(numC, Code.comparison).text) > 0 ? \(counter) <= \(end) : \(counter) >= \(end)"
                }
                emit("while \(test) {")
                indent += 1
                emit("defer { \(counter) += \(numC.text) }")
                if name != "_" { emit("\(variables[id].reassigned ? "var" : "let") \(name) = \(counter)") }
            }
            try block(body)
            indent -= 1
            emit("}")
        }
    }

    func genericFor(_ line: Int, names: [String], expressions: [LuaExpression], body: LuaBlock) throws {
        guard expressions.count == 1, case let .call(fn, args) = expressions[0].kind, case .name(let f) = fn.kind,
              f == "ipairs", args.count == 1 else {
            if expressions.count == 1, case let .call(fn, _) = expressions[0].kind, case .name("pairs") = fn.kind {
                throw refuse(line, "pairs is not supported (it walks a table as a map, in no fixed order; walk a sequence with ipairs)")
            }
            throw refuse(line, "this `for … in` is not supported (the translator takes `for i, v in ipairs(t)`)")
        }
        let a = try expression(args[0])
        var element: LuaType = .unknown
        if case .array(let e) = a.type { element = e } else if a.type != .emptyTable, a.type != .unknown, isFinal {
            throw refuse(line, "ipairs over \(a.type.kindName) is not supported")
        }
        try scoped {
            let k = declare(names[0], line: line)
            assign(k, .int, line: line)
            bound(k, counted(code("", .int)))  // a position in a sequence
            let v = names.count > 1 ? declare(names[1], line: line) : nil
            if let v { assign(v, element, line: line) }
            let vName = v.map { variables[$0].read ? swiftName($0) : "_" } ?? "_"
            if variables[k].read {
                let counter = unique(names[0])
                emit("for (\(counter), \(vName)) in \(a.text).enumerated() {")
                indent += 1
                emit("let \(swiftName(k)) = \(counter) + 1")
            } else {
                emit("for \(vName) in \(a.text) {")
                indent += 1
            }
            if let v, variables[v].reassigned || (variables[v].fieldMutated && isValueType(element)) {
                emit("var \(swiftName(v)) = \(swiftName(v))")
            }
            try block(body)
            indent -= 1
            emit("}")
        }
    }

    // MARK: - return

    /// Whether every path through a block ends in a `return` (Swift needs one where a value is due).
    func alwaysReturns(_ b: LuaBlock) -> Bool {
        guard let last = b.statements.last else { return false }
        switch last.kind {
        case .returnStatement: return true
        case .doBlock(let inner): return alwaysReturns(inner)
        case let .ifStatement(clauses, elseBlock):
            guard let e = elseBlock else { return false }
            return alwaysReturns(e) && clauses.allSatisfy { alwaysReturns($0.body) }
        default: return false
        }
    }

    func returnStatement(_ line: Int, _ values: [LuaExpression]) throws {
        var codes: [Code] = []
        for v in values { codes.append(try expression(v, allowTuple: values.count == 1)) }
        switch role {
        case .prepare:
            if !codes.isEmpty && isFinal { throw refuse(line, "prepare returning a value is not supported (it returns nothing)") }
            emit("return")
        case .transform:
            guard let c = codes.first, c.type != .nilValue else { emit("return"); return }
            let a = currentAttributesName
            switch c.type {
            case .int, .num:
                let s = try coerce(c, to: .num, line: line).text
                emit("\(a).transform3D = CATransform3DMakeScale(\(s), \(s), 1)  // a number: a uniform scale")
            case .transform3D: emit("\(a).transform3D = \(c.text)")
            case .affine: emit("\(a).transform = \(c.text)")
            default:
                if isFinal { throw refuse(line, "transform returning \(c.type.kindName) is not supported (return a number, a CATransform3D or a CGAffineTransform)") }
            }
            emit("return")
        case .elementQuery:
            guard let c = codes.first else { throw refuse(line, "layoutAttributesForElements must return the list of elements") }
            if c.type == .emptyTable, case .name(let n) = values[0].kind, let id = lookUp(n) {
                assign(id, .array(.attributes), line: line)   // `local result = {}` … `return result`
            }
            if case .array(.attributes) = c.type { emit("return \(c.text)") } else if c.type == .emptyTable { emit("return []") } else if isFinal {
                throw refuse(line, "layoutAttributesForElements returning \(c.type.kindName) is not supported (return the list of attributes)")
            }
        case .targetContentOffset:
            guard let c = codes.first else { throw refuse(line, "targetContentOffset must return a CGPoint or a number") }
            if c.type == .point { emit("return \(c.text)") } else if c.type.isNumber {
                usesOffsetOnAxis = true
                emit("return offsetOnScrollAxis(\(try coerce(c, to: .num, line: line).text), proposed: \(proposedName))")
            } else if isFinal { throw refuse(line, "targetContentOffset returning \(c.type.kindName) is not supported (return a CGPoint or a number)") }
        case .sizeForItem, .headerSize, .footerSize:
            if codes.count == 2 {
                emit("return CGSize(width: \(try coerce(codes[0], to: .num, line: line).text), height: \(try coerce(codes[1], to: .num, line: line).text))")
            } else if let c = codes.first, c.type == .size {
                emit("return \(c.text)")
            } else if isFinal { throw refuse(line, "a size callback must return a CGSize or two numbers") }
        case .insetForSection:
            if codes.count == 4 {
                let n = try codes.map { try coerce($0, to: .num, line: line).text }
                emit("return UIEdgeInsets(top: \(n[0]), left: \(n[1]), bottom: \(n[2]), right: \(n[3]))")
            } else if let c = codes.first, c.type == .insets {
                emit("return \(c.text)")
            } else if isFinal { throw refuse(line, "insetForSection must return a UIEdgeInsets or four numbers") }
        case .helper(let f), .closure(let f):
            if codes.isEmpty {
                functions[f].returnsNothing = true
                emit("return")
                return
            }
            var types = codes.map(\.type)
            if codes.count == 1, case .multiple(let ts) = multipleResults(codes[0]) { types = ts }
            var facts = functions[f]
            for (k, t) in types.enumerated() {
                if k < facts.returns.count {
                    let j = join(facts.returns[k], t)
                    if j != facts.returns[k] { facts.returns[k] = j; changed = true }
                } else {
                    facts.returns.append(t)
                    changed = true
                }
            }
            functions[f] = facts
            let want = returnTypes(f)
            if codes.count == 1 {
                if want.count > 1 { emit("return \(codes[0].text)") } else {
                    emit("return \(try coerce(codes[0], to: want.first ?? codes[0].type, line: line).text)")
                }
            } else {
                var parts: [String] = []
                for (k, c) in codes.enumerated() { parts.append(try coerce(c, to: k < want.count ? want[k] : c.type, line: line).text) }
                emit("return (\(parts.joined(separator: ", ")))")
            }
        }
    }
}
