// The script's top level: params, module-level locals, and the functions (callbacks and helpers).

import LuaSyntax
import Foundation

extension Translator {
    static let callbackNames: Set<String> = [
        "prepare", "transform", "targetContentOffset", "layoutAttributesForElements",
        "sizeForItem", "insetForSection", "referenceSizeForHeader", "referenceSizeForFooter",
    ]

    /// The names a generated method or property must not take (the layout's own members).
    static let reservedMemberNames: Set<String> = Set<String>([
        "itemSize", "estimatedItemSize", "scrollDirection", "sectionInset", "minimumLineSpacing",
        "minimumInteritemSpacing", "headerReferenceSize", "footerReferenceSize", "collectionView",
        "collectionViewContentSize", "prepare", "invalidateLayout", "layoutAttributesForElements",
        "layoutAttributesForItem", "targetContentOffset", "shouldInvalidateLayout", "description",
        "hash", "copy", "isEqual", "transform", "elementQuery", "attributesForItem", "offsetOnScrollAxis",
        "preparedBounds", "update", "shownElements", "shownElement",
        "min", "max", "abs", "floor", "ceil", "sqrt", "pow", "sin", "cos", "tan", "asin", "acos", "atan",
        "atan2", "exp", "log", "log2", "log10", "fmod", "luaMod", "luaIntMod", "luaIntDiv", "luaIndex",
        "luaLog", "luaColor", "stride", "zip", "print", "layoutAttributesClass",
        "flipsHorizontallyInOppositeLayoutDirection", "self", "super", "type",
    ]).union(motionMemberNames)

    // MARK: - params

    func readParameters() throws {
        for statement in chunk.body.statements {
            guard case let .assignment(targets, values) = statement.kind, targets.count == 1,
                  case .name("params") = targets[0].kind else { continue }
            guard values.count == 1, case let .table(fields) = values[0].kind else {
                throw refuse(statement.line, "params that is not a table constructor is not supported (write params = { name = { value = …, min = …, max = … } })")
            }
            for field in fields {
                guard case let .named(name, entry) = field.kind, case let .table(entryFields) = entry.kind else {
                    throw refuse(field.line, "a params entry that is not `name = { value = …, min = …, max = … }` is not supported")
                }
                var numbers: [String: Double] = [:], flag: Bool?, label: String?
                if let options = entryFields.first(where: { if case .named("options", _) = $0.kind { true } else { false } }) {
                    throw refuse(options.line, "params.\(name): a param with options is not supported (a Swift layout "
                                 + "has no string params; declare a number or an on/off param to export)")
                }
                for e in entryFields {
                    if case let .named("label", v) = e.kind, case let .string(text) = v.kind { label = text; continue }
                    if case let .named("value", v) = e.kind, case let .boolean(b) = v.kind { flag = b; continue }
                    guard case let .named(key, v) = e.kind, let n = constantNumber(v) else {
                        throw refuse(e.line, "params.\(name): a field that is not a constant number is not supported")
                    }
                    numbers[key] = n
                }
                // A key written twice: Lua keeps the last.
                parameters.removeAll { $0.luaName == name }
                let swiftName = parameterName(name)
                if let flag {  // on/off: a Bool property
                    let on = switchOverrides[name] ?? flag
                    parameters.append(ScriptParameter(luaName: name, swiftName: swiftName, value: on ? 1 : 0,
                                                      min: 0, max: 1, step: nil, line: field.line,
                                                      comment: sourceComment(line: field.line) ?? label, isBoolean: true))
                    continue
                }
                guard let value = numbers["value"], let lo = numbers["min"], let hi = numbers["max"] else {
                    throw refuse(field.line, "params.\(name) needs value, min and max")
                }
                if let v = overrides[name], !(lo...hi).contains(v) {
                    throw refuse(field.line, "--param \(name)=\(SwiftText.double(v)) is outside min…max (\(SwiftText.double(lo))…\(SwiftText.double(hi)))")
                }
                parameters.append(ScriptParameter(luaName: name, swiftName: swiftName, value: overrides[name] ?? value,
                                                  min: lo, max: hi, step: numbers["step"], line: field.line,
                                                  comment: sourceComment(line: field.line) ?? label))
            }
        }
        for name in overrides.keys.sorted() where !parameters.contains(where: { $0.luaName == name && !$0.isBoolean }) {
            throw refuse(1, "--param \(name): the script declares no such param")
        }
        for name in switchOverrides.keys.sorted() where !parameters.contains(where: { $0.luaName == name && $0.isBoolean }) {
            throw refuse(1, "--param \(name): the script declares no such on/off param")
        }
        for name in choiceOverrides.keys.sorted() {
            throw refuse(1, "--param \(name): params with options are not supported")
        }
    }

    /// A `-- comment` at the end of a source line (for the params' entries, whose comments
    /// sit inside the table constructor where the syntax tree keeps none).
    func sourceComment(line: Int) -> String? {
        guard line >= 1, line <= sourceLines.count else { return nil }
        let text = sourceLines[line - 1]
        guard let range = text.range(of: "--", options: .backwards) else { return nil }
        let before = text[..<range.lowerBound]
        if before.filter({ $0 == "\"" }).count % 2 == 1 { return nil }
        let comment = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
        return comment.isEmpty ? nil : comment
    }

    /// A number computed from literals and the math constants only, or nil.
    func constantNumber(_ e: LuaExpression) -> Double? {
        switch e.kind {
        case .number(let n): return n.value
        case .parenthesized(let x): return constantNumber(x)
        case .unary(.negate, let x): return constantNumber(x).map { -$0 }
        case .name("M_PI"): return Double.pi
        case .name("M_PI_2"): return Double.pi / 2
        case .name("M_PI_4"): return Double.pi / 4
        case let .field(base, "pi") where base.kind == .name("math"): return Double.pi
        case let .binary(op, l, r):
            guard let a = constantNumber(l), let b = constantNumber(r) else { return nil }
            switch op {
            case .add: return a + b
            case .subtract: return a - b
            case .multiply: return a * b
            case .divide: return a / b
            case .power: return pow(a, b)
            default: return nil
            }
        default: return nil
        }
    }

    func parameter(_ luaName: String) -> Int? {
        parameters.firstIndex(where: { $0.luaName == luaName })
    }

    // MARK: - The top level

    func topLevel(_ s: LuaStatement) throws {
        switch s.kind {
        case let .assignment(targets, _) where targets.count == 1:
            if case .name("params") = targets[0].kind { return }
            if case .name("scenarios") = targets[0].kind {
                let note = scenarioMotion.isEmpty ? "for the tools only (left out)"
                    : "left out; what their scrollToItem and autoplay steps do is at the end of the file"
                members.append(commentLines(s) + ["// scenarios: cardlua's demo steps, \(note)."])
                return
            }
            if case .name(let n) = targets[0].kind, lookUp(n) == nil {
                throw refuse(s.line, "a global variable ('\(n)') is not supported (a layout keeps no global state; write `local \(n) = …`)")
            }
            throw refuse(s.line, "an assignment at the top level is not supported (only `local` constants, params and functions are translated)")
        case let .local(names, values):
            try moduleLocal(s, names: names.map(\.name), values: values)
        case let .localFunction(name, f):
            let id = declare(name, line: s.line)
            try helperFunction(s, variable: id, name: name, function: f)
        case let .function(name, f):
            guard name.fields.isEmpty, name.method == nil else {
                throw refuse(s.line, "a function stored in a table is not supported (write `local function name(…)`)")
            }
            if Self.callbackNames.contains(name.base) {
                callbacks.insert(name.base)
                try callback(s, name: name.base, function: f)
            } else {
                let id = lookUp(name.base) ?? declare(name.base, line: s.line)
                try helperFunction(s, variable: id, name: name.base, function: f)
            }
        case .call(let e):
            if case .call(let fn, _) = e.kind, case .name(let n) = fn.kind, n == "print" || n == "warn" {
                members.append(commentLines(s) + ["// \(n)(…) at load time dropped: it only writes to the tools' output."])
                return
            }
            throw refuse(s.line, "a call at the top level is not supported (the layout runs only its callbacks)")
        default:
            throw refuse(s.line, "this statement at the top level is not supported (only `local` constants, params and functions are translated)")
        }
    }

    func commentLines(_ s: LuaStatement) -> [String] {
        (s.isPrecededByBlankLine ? [""] : []) + s.leadingComments.compactMap(SwiftText.scriptComment).map(SwiftText.lineComment)
    }

    /// The comments above a function: Swift documentation (`///`) where the script wrote
    /// LuaDoc (`---`, LuaCATS annotations), plain comments otherwise.
    func functionCommentLines(_ s: LuaStatement) -> [String] {
        guard s.leadingComments.contains(where: SwiftText.isDocumentation) else { return commentLines(s) }
        return (s.isPrecededByBlankLine ? [""] : []) + s.leadingComments.compactMap(SwiftText.scriptComment).map(SwiftText.docComment)
    }

    /// `local NAME = value` at the top: a `private static let` (or a function).
    func moduleLocal(_ s: LuaStatement, names: [String], values: [LuaExpression]) throws {
        var block = commentLines(s)
        if declareMathAliases(s, names: names, values: values) {
            members.append(block + [SwiftText.lineComment(mathAliasComment(names)) + (s.trailingComment.map { "  " + SwiftText.lineComment($0) } ?? "")])
            return
        }
        var codes: [Code] = []
        for (i, _) in names.enumerated() {
            if i < values.count {
                if case .function(let f) = values[i].kind {
                    let id = declare(names[i], line: s.line)
                    try helperFunction(s, variable: id, name: names[i], function: f)
                    codes.append(Code(text: "", type: .unknown, precedence: Code.atom))
                    continue
                }
                inStaticInitializer = true
                defer { inStaticInitializer = false }
                codes.append(try expression(values[i]))
            } else {
                codes.append(Code(text: "", type: .nilValue, precedence: Code.atom))
            }
        }
        for (i, name) in names.enumerated() where i >= values.count || !isFunctionLiteral(values[i]) {
            let redeclared = scopes[scopes.count - 1][name] != nil
            let id = declare(name, line: s.line)
            if redeclared, renamedSwift[id] == nil { renamedSwift[id] = unique(name) }
            moduleVariables.insert(id)
            assign(id, floatConstants.contains(id) && codes[i].type == .int ? .num : codes[i].type, line: s.line)
            bound(id, codes[i])
            let type = try variableType(id, line: s.line)
            if case .params = type { continue }
            let swiftType = try self.swiftType(type, line: s.line)
            let value = codes[i].type == .nilValue ? defaultValue(type) : try coerce(codes[i], to: type, line: s.line).text
            var text: String
            if variables[id].reassigned || variables[id].fieldMutated {
                mutableModuleVariables.insert(id)
                text = "private var \(swiftName(id)): \(swiftType) = \(value)"
            } else {
                text = "private static let \(swiftName(id)): \(swiftType) = \(value)"
            }
            text += declarationNote(id, trailing: i == names.count - 1 ? s.trailingComment : nil)
            block.append(text)
        }
        if block.contains(where: { !$0.hasPrefix("//") && !$0.isEmpty }) { members.append(block) }
    }

    func isFunctionLiteral(_ e: LuaExpression) -> Bool {
        if case .function = e.kind { return true }
        return false
    }

    // MARK: - Functions

    /// Starts a function's facts (or finds them from the last walk).
    func newFunction(_ luaName: String, line: Int) -> Int {
        let id = functionCount
        functionCount += 1
        if id == functions.count {
            functions.append(FunctionFacts(luaName: luaName, line: line, parent: id))
            changed = true
        }
        functions[id].returns = functions[id].returns  // kept: joined over the walks
        return id
    }

    /// A local (or global non-callback) function: a private method.
    func helperFunction(_ s: LuaStatement, variable: Int, name: String, function f: LuaFunction) throws {
        if f.isVararg { throw refuse(f.line, "a function with `...` is not supported (name its parameters)") }
        let fid = newFunction(name, line: f.line)
        assign(variable, .function(fid), line: s.line)
        methodFunctions[variable] = fid
        let nested = !functionStack.isEmpty
        let savedLines = lines, savedIndent = indent
        lines = []
        indent = nested ? savedIndent : 1
        if nested {
            if s.isPrecededByBlankLine { emit("") }
            emitComments(s.leadingComments)
        }
        try functionBody(f, fid: fid, role: .helper(fid), variable: variable, nested: nested, trailing: s.trailingComment)
        let body = lines
        lines = savedLines
        indent = savedIndent
        if nested {
            lines += body
        } else {
            members.append(functionCommentLines(s).map { $0.isEmpty ? "" : "    " + $0 } + body)
        }
    }

    /// The signature and body of a helper or a function literal.
    func functionBody(_ f: LuaFunction, fid: Int, role: FunctionRole, variable: Int?, nested: Bool,
                      trailing: String?) throws {
        functionStack.append(role)
        keyStack.append("f\(fid)")
        let savedRole = self.role, savedBound = collectionViewBound
        self.role = role
        collectionViewBound = false
        defer {
            functionStack.removeLast()
            keyStack.removeLast()
            self.role = savedRole
            collectionViewBound = savedBound
        }
        try scoped {
            var params: [Int] = []
            for p in f.parameters { params.append(declare(p, line: f.line)) }
            functions[fid].parameters = params
            // `a, b = a or 0, b or 1` first in the body: Swift default arguments.
            var skipped = 0
            var defaults: [Int: String] = [:]
            var defaultLines: [String] = []
            for statement in f.body.statements {
                guard case let .assignment(targets, values) = statement.kind, targets.count == values.count else { break }
                var found: [(Int, LuaExpression)] = []
                for (t, v) in zip(targets, values) {
                    guard case .name(let n) = t.kind, let k = f.parameters.firstIndex(of: n),
                          case let .binary(.or, l, r) = v.kind, l.kind == .name(n), constantNumber(r) != nil || isLiteral(r) else { break }
                    found.append((k, r))
                }
                guard found.count == targets.count else { break }
                for (k, r) in found {
                    let c = try expression(r)
                    assign(params[k], c.type, line: statement.line)
                    defaults[k] = c.text
                }
                defaultLines += statement.leadingComments.compactMap(SwiftText.scriptComment).map(SwiftText.lineComment)
                defaultLines.append(SwiftText.lineComment(found.map { "\(f.parameters[$0.0]) defaults to \(defaults[$0.0]!)" }.joined(separator: ", ") + " (Lua's `or` on a missing argument)"))
                skipped += 1
            }
            functions[fid].defaults = defaults
            var signature: [String] = []
            var rebinds: [String] = []
            for p in params {
                let t = variables[p].type
                if t == .layout || t == .collectionView || t == .params { continue }
                let st = try swiftType(t == .unknown ? .num : t, line: f.line)
                let n = swiftName(p)
                if let k = params.firstIndex(of: p), let d = defaults[k] {
                    signature.append("_ \(n): \(st) = \(d)")
                } else {
                    signature.append("_ \(n): \(st)")
                }
                if variables[p].reassigned || (variables[p].fieldMutated && isValueType(t)) { rebinds.append("var \(n) = \(n)") }
            }
            let ret = try returnSignature(fid, line: f.line)
            if ret != nil, isFinal, !alwaysReturns(f.body) {
                throw refuse(f.endLine, "a function that can end without returning a value is not supported (Lua returns nil there; Swift needs a value: end it with a return)")
            }
            let arrow = ret.map { " -> \($0)" } ?? ""
            let key = "f\(fid)"
            if case .closure = role {
                emit("{ (\(signature.map { String($0.dropFirst(2)) }.joined(separator: ", ")))\(arrow) in")
            } else if let variable {
                let note = declarationNote(variable, trailing: trailing)
                emit("\(nested ? "" : "private ")func \(swiftName(variable))(\(signature.joined(separator: ", ")))\(arrow) {" + note)
            }
            indent += 1
            for r in rebinds { emit(r) }
            if usesCollectionView.contains(key) && !nested {
                emit("let collectionView = self.collectionView!")
            }
            collectionViewBound = usesCollectionView.contains(key) || (nested && savedBound)
            for l in defaultLines { emit(l) }
            var body = f.body
            body.statements.removeFirst(skipped)
            try block(body, newScope: false)
            indent -= 1
            emit("}")
        }
    }

    func isLiteral(_ e: LuaExpression) -> Bool {
        switch e.kind {
        case .boolean, .number, .string: return true
        default: return false
        }
    }

    // MARK: - Callbacks

    func callback(_ s: LuaStatement, name: String, function f: LuaFunction) throws {
        if f.isVararg { throw refuse(f.line, "a function with `...` is not supported (name its parameters)") }
        let savedLines = lines
        lines = []
        indent = 1
        let fid = newFunction(name, line: f.line)
        let role: FunctionRole
        let kinds: [LuaType]
        switch name {
        case "prepare": role = .prepare; kinds = [.layout]
        case "transform": role = .transform; kinds = [.attributes, .layout]
        case "layoutAttributesForElements": role = .elementQuery; kinds = [.rect, .layout]
        case "targetContentOffset": role = .targetContentOffset; kinds = [.point, .point, .layout]
        case "sizeForItem": role = .sizeForItem; kinds = [.indexPath, .layout]
        case "insetForSection": role = .insetForSection; kinds = [.int, .layout]
        case "referenceSizeForHeader": role = .headerSize; kinds = [.int, .layout]
        default: role = .footerSize; kinds = [.int, .layout]
        }
        functionStack.append(role)
        self.role = role
        collectionViewBound = false
        let key = "f\(fid)"
        keyStack.append(key)
        defer { functionStack.removeLast(); keyStack.removeLast() }
        try scoped {
            var names: [String] = []
            for (i, p) in f.parameters.enumerated() {
                let id = declare(p, line: f.line)
                if i < kinds.count { assign(id, kinds[i], line: f.line) } else { assign(id, .nilValue, line: f.line) }
                names.append(swiftName(id))
                if i == 0, role == .transform { transformAttributesName = swiftName(id) }
                if i == 0, role == .targetContentOffset { targetProposedName = swiftName(id) }
                if i < kinds.count, variables[id].reassigned || variables[id].fieldMutated, isValueType(kinds[i]) {
                    rebindLines.append("var \(swiftName(id)) = \(swiftName(id))")
                }
            }
            func param(_ i: Int, _ fallback: String) -> String {
                i < names.count ? names[i] : fallback
            }
            let usesCV = usesCollectionView.contains(key)
            var header: [String] = []
            switch role {
            case .prepare:
                header = ["override func prepare() {",
                          "    defer { super.prepare() }  // super lays out with the properties set below"]
                if transformReadsBounds { header.append("    \(Self.preparedBounds) = collectionView?.bounds") }
                if definesElementQuery { header.append("    \(Self.shownElements) = nil") }
                if usesCV { header.append("    guard let collectionView else { return }") }
            case .transform:
                if transformReadsBounds {
                    header = ["/// The script's `transform`: one item's attributes, changed in place (they are a copy).",
                              "/// `\(Self.visibleBounds)` is the collection view's bounds, read by `prepare()`: they cannot change before the next.",
                              "private func transform(_ \(param(0, "attributes")): \(attributesClassName), \(Self.visibleBounds): CGRect) {"]
                } else {
                    header = ["/// The script's `transform`: one item's attributes, changed in place (they are a copy).",
                              "private func transform(_ \(param(0, "attributes")): \(attributesClassName)) {"]
                }
                if usesCV { header.append("    guard let collectionView else { return }") }
            case .elementQuery:
                header = ["/// The script's own element query: the elements the visible rect shows, before `transform`.",
                          "private func elementQuery(in \(param(0, "rect")): CGRect) -> [\(attributesClassName)] {"]
                if usesCV { header.append("    guard let collectionView else { return [] }") }
            case .targetContentOffset:
                let p = param(0, "proposedContentOffset"), v = param(1, "velocity")
                header = ["override func targetContentOffset(forProposedContentOffset \(p): CGPoint, withScrollingVelocity \(v): CGPoint) -> CGPoint {"]
                if usesCV { header.append("    guard let collectionView else { return \(p) }") }
            case .sizeForItem:
                header = ["/// Call this from your `UICollectionViewDelegateFlowLayout`'s `collectionView(_:layout:sizeForItemAt:)`.",
                          "func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout, sizeForItemAt \(param(0, "indexPath")): IndexPath) -> CGSize {"]
            case .insetForSection:
                header = ["/// Call this from your `UICollectionViewDelegateFlowLayout`'s `collectionView(_:layout:insetForSectionAt:)`.",
                          "func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout, insetForSectionAt \(param(0, "section")): Int) -> UIEdgeInsets {"]
            case .headerSize, .footerSize:
                let which = role == .headerSize ? "Header" : "Footer"
                header = ["/// Call this from your `UICollectionViewDelegateFlowLayout`'s `collectionView(_:layout:referenceSizeFor\(which)InSection:)`.",
                          "func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout, referenceSizeFor\(which)InSection \(param(0, "section")): Int) -> CGSize {"]
            default: break
            }
            collectionViewBound = usesCV || [.sizeForItem, .insetForSection, .headerSize, .footerSize].contains(role)
            if let c = s.trailingComment, !header.isEmpty { header[header.count - (usesCV ? 2 : 1)] += "  " + SwiftText.lineComment(c) }
            for h in header { emit(h) }
            indent += 1
            for r in rebindLines { emit(r) }
            rebindLines = []
            if isFinal, [.elementQuery, .targetContentOffset, .sizeForItem, .insetForSection, .headerSize, .footerSize].contains(role),
               !alwaysReturns(f.body) {
                throw refuse(f.endLine, "\(name) that can end without returning a value is not supported (Lua returns nil there; Swift needs a value: end it with a return)")
            }
            try block(f.body, newScope: false)
            indent -= 1
            emit("}")
        }
        var member = functionCommentLines(s).map { $0.isEmpty ? "" : "    " + $0 }
        member += lines
        callbackMembers[name] = member
        members.append(["@callback:" + name])
        lines = savedLines
    }
}
