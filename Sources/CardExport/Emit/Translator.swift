// The translator's state and its passes: the script's top level, the callbacks, and the
// statements. Expressions are in Translator+Expressions.swift, the script API's names in
// Translator+API.swift, the assembled file in Translator+File.swift.

import LuaSyntax
import Foundation

/// One piece of Swift for an expression: its text, its kind, and how tightly it binds
/// (so that the text is parenthesized only where Swift needs it).
struct Code {
    var text: String
    var type: LuaType
    var precedence: Int
    /// The same value spelt as a CGFloat, for an Int expression whose parts convert one by
    /// one (a ternary of integer literals), so it needs no `CGFloat(…)` around it.
    var asFloat: String?
    /// The variable this reads, for a bare read of one (`x`, `Self.x`).
    var variable: Int?
    /// The text is one parenthesized expression (the script's own parentheses).
    var isParenthesized = false
    /// For an `Int`: a bound on its magnitude, where one is known (a literal, a count, an
    /// index, arithmetic of those). Arithmetic whose result stays below ``plainBound`` cannot
    /// wrap round as Lua's integers do, so it is written with plain `+ - *`; where no bound
    /// is known it keeps Swift's wrapping `&+ &- &*` (Lua's integer overflow wraps).
    var bound: Double?

    init(text: String, type: LuaType, precedence: Int, asFloat: String? = nil) {
        self.text = text
        self.type = type
        self.precedence = precedence
        self.asFloat = asFloat
    }

    /// Counts and indexes of a collection view (items, sections, a sequence's length): far
    /// below this, since every item has a cell's attributes in memory.
    static let countBound: Double = 0x1p40
    /// Integer arithmetic whose operands' bounds keep the result below this cannot overflow
    /// `Int` (2⁶³): it needs no wrapping operator.
    static let plainBound: Double = 0x1p62

    static let atom = 100, prefix = 90, multiplicative = 80, additive = 70, comparison = 60,
        conjunction = 50, disjunction = 40, ternary = 30
}

/// Which callback (or helper) the statements being translated belong to.
enum FunctionRole: Equatable {
    case prepare, transform, elementQuery, targetContentOffset
    case sizeForItem, insetForSection, headerSize, footerSize
    case helper(Int)
    case closure(Int)
}

/// A declared script parameter (a tweakable).
struct ScriptParameter {
    var luaName: String
    var swiftName: String
    var value: Double
    var min: Double
    var max: Double
    var step: Double?
    var line: Int
    var comment: String?
    /// An on/off param (`value = true`): a `Bool` property; `value` is then 1 or 0.
    var isBoolean = false
    /// Fixed at export (`layout.wraps` depends on it): a constant, not a stored property.
    var isConstant = false
}

final class Translator {
    let chunk: LuaChunk
    let fileName: String
    let className: String
    let overrides: [String: Double]
    /// The back end the file is assembled for (Translator+SwiftUI.swift for `.swiftui`).
    var target: ExportTarget = .uikit
    /// `--param name=true|false` for on/off params.
    var switchOverrides: [String: Bool] = [:]
    /// `--param name=option` for params with options (refused: export has no String params).
    var choiceOverrides: [String: String] = [:]

    /// Whether the script writes a card's centre (`attributes.center = …`, `{ center = … }`):
    /// found by the SwiftUI back end's refusal pass (Translator+SwiftUI.swift).
    var writesCenter = false

    /// The last walk: write the Swift and report what cannot be translated.
    var isFinal = false
    /// Whether this walk learnt something.
    var changed = false

    var variables: [VariableFacts] = []
    var variableCount = 0
    var functions: [FunctionFacts] = []
    var functionCount = 0
    var records: [RecordFacts] = []
    /// The record made by each table constructor, by the constructor's number in the walk.
    var constructorRecords: [Int: Int] = [:]
    var constructorCount = 0

    var parameters: [ScriptParameter] = []
    var parametersRead = false

    /// Lua name → variable number, innermost scope last.
    var scopes: [[String: Int]] = []
    /// The variables that stand for the layout, its collection view or `params` (no Swift of their own).
    var role: FunctionRole = .prepare
    var functionStack: [FunctionRole] = []
    /// Whether the collection view is bound by a `guard let` in the function being written.
    var collectionViewBound = false
    var usedCollectionView = false
    /// Functions (by role description) whose bodies use the collection view, from the last walk.
    var usesCollectionView: Set<String> = []
    var usesCollectionViewNow: Set<String> = []
    /// Whether the last walk's `transform` read the collection view's bounds (or its
    /// contentOffset or frame): they come in as `visibleBounds`, read by `prepare()` (`preparedBounds`).
    var transformReadsBounds = false
    var transformReadsBoundsNow = false
    /// An assignment's target is being translated (a write reads nothing hoisted).
    var translatingTarget = false

    var usesAppearance = false
    var usesAppearanceNow = false
    var helpers: Set<String> = []
    var usesOffsetOnAxis = false
    /// Whether `prepare` sets a flow-layout property (through ``updateProperty``).
    var usesUpdateProperty = false
    var uniqueCounter = 0
    var flipsHorizontally: Bool?

    /// The module-level declarations and methods, in source order (written by the last walk).
    var members: [[String]] = []
    var lines: [String] = []
    var indent = 0

    /// The global callbacks the script defines.
    var callbacks: Set<String> = []
    /// The callbacks' Swift, by name (placed by the file's assembly).
    var callbackMembers: [String: [String]] = [:]
    var sourceLines: [String] = []
    var inStaticInitializer = false
    /// Module-level locals (static constants, or instance variables when assigned again).
    var moduleVariables: Set<Int> = []
    var mutableModuleVariables: Set<Int> = []
    /// Variables that name a function translated as a method (or nested function).
    var methodFunctions: [Int: Int] = [:]
    /// The functions being translated, innermost last (keys for `usesCollectionView`).
    var keyStack: [String] = []
    var currentFunctionKey: String {
        get { keyStack.last ?? "" }
        set { if keyStack.isEmpty { keyStack.append(newValue) } else { keyStack[keyStack.count - 1] = newValue } }
    }
    var rebindLines: [String] = []
    var transformAttributesName: String?
    var targetProposedName: String?
    var usesAttributesForItem = false
    /// Calls that give several values, by their text: the kinds of the values.
    var tupleTypes: [String: [LuaType]] = [:]
    /// Calls of functions that return nothing (written without `_ =`).
    var voidCalls: Set<String> = []
    /// Locals renamed because Lua redeclared them in the same block.
    var renamedSwift: [Int: String] = [:]
    /// Locals that name a math function (`local abs = math.abs`, the usual way to save the
    /// look-up in Lua), by variable number: a call through one is the math call; nothing
    /// is declared for the local itself.
    var mathAliases: [Int: String] = [:]
    /// The name a table constructor's record takes (from the local or array it goes into).
    var pendingRecordName: String?
    /// The call being translated is a statement (its value, if any, is dropped).
    var callIsStatement = false
    /// The variables this walk has read (a local no walk reads is written as `_ = …`).
    var readNow: Set<Int> = []
    /// How often this walk read each integer variable, and how many of those reads were
    /// converted to CGFloat where they were used (`distance / ACTIVE_DISTANCE`).
    var integerReadsNow: [Int: Int] = [:]
    var floatReadsNow: [Int: Int] = [:]
    /// Module-level integer constants every read of which is a CGFloat: declared `CGFloat`
    /// so that no use converts them (once chosen, kept: the reads are then CGFloat anyway).
    var floatConstants: Set<Int> = []

    // The name table (Translator+Names.swift).
    /// Every name the script spells (its tokens): a name the table makes up is none of them.
    var scriptNames: Set<String> = []
    /// The names the table made up, by what they name (`v<id>`, `p:<param>`, `f:<field>`).
    var renames: [String: String] = [:]
    var freshNames: Set<String> = []
    /// The class's members by Swift name: what each names (one name, one member).
    var memberOwners: [String: String] = [:]
    /// The variables declared at the top of the script (members of the class).
    var topLevelVariables: Set<Int> = []
    /// The names made up by ``unique(_:)`` in this walk.
    var uniqueNow: Set<String> = []
    /// Names the file's code refers to by their bare name inside the script's functions
    /// (types, functions, helpers, what the file declares around them): no local takes one.
    lazy var namesInScope: Set<String> = SwiftText.unescapable.union(SwiftText.typeNames).union(SwiftText.functionNames)
        .union(["collectionView", "collectionViewLayout", Self.visibleBounds, Self.preparedBounds, Self.updateProperty, Self.shownElements, "shownElement", "super",
                "offsetOnScrollAxis", "attributesForItem", "flipsHorizontallyInOppositeLayoutDirection",
                className, className + "Attributes", className + "Autoplay"])
    /// Names no member of the class (a param, a module-level local, a function) takes: those
    /// above, the flow layout's own members and the members the file writes.
    lazy var namesOfMembers: Set<String> = namesInScope.union(Self.reservedMemberNames)
    /// Names no record field takes: a field named like a type hides it in the record.
    lazy var namesOfFields: Set<String> = SwiftText.unescapable.union(SwiftText.typeNames)
        .union([className, className + "Attributes", className + "Autoplay"])

    init(chunk: LuaChunk, fileName: String, className: String, overrides: [String: Double]) {
        self.chunk = chunk
        self.fileName = fileName
        self.className = className
        self.overrides = overrides
    }

    // MARK: - Errors

    func refuse(_ line: Int, _ message: String) -> ExportError {
        ExportError(fileName: fileName, line: line, message: message)
    }

    // MARK: - Running

    func run() throws -> String {
        try readParameters()
        if target == .swiftui { try refuseForSwiftUI() }
        for _ in 0..<20 {
            changed = false
            try walk()
            if !changed { break }
        }
        isFinal = true
        try walk()
        return try target == .swiftui ? assembleSwiftUIFile() : assembleFile()
    }

    func resetWalk() {
        variableCount = 0
        functionCount = 0
        constructorCount = 0
        uniqueCounter = 0
        uniqueNow = []
        scopes = [[:]]
        members = []
        lines = []
        indent = 0
        helpers = []
        usesOffsetOnAxis = false
        usesUpdateProperty = false
        usesAttributesForItem = false
        callbacks = []
        for s in chunk.body.statements {
            if case let .function(name, _) = s.kind, name.fields.isEmpty, name.method == nil,
               !Self.callbackNames.contains(name.base) {
                _ = declare(name.base, line: s.line)
            }
        }
        usesAppearanceNow = false
        usesCollectionViewNow = []
        transformReadsBoundsNow = false
        readNow = []
        integerReadsNow = [:]
        floatReadsNow = [:]
        flipsHorizontally = nil
    }

    func walk() throws {
        resetWalk()
        for statement in chunk.body.statements {
            try topLevel(statement)
        }
        // A local counts as read when the last walk's Swift read it (not an expression it dropped).
        for id in variables.indices where variables[id].read != readNow.contains(id) {
            variables[id].read = readNow.contains(id)
            changed = true
        }
        for (id, reads) in integerReadsNow where moduleVariables.contains(id) && !mutableModuleVariables.contains(id)
            && floatReadsNow[id] == reads && !floatConstants.contains(id) && methodFunctions[id] == nil {
            floatConstants.insert(id)
            changed = true
        }
        if usesAppearanceNow != usesAppearance { usesAppearance = usesAppearanceNow; changed = true }
        if usesCollectionViewNow != usesCollectionView { usesCollectionView = usesCollectionViewNow; changed = true }
        if transformReadsBoundsNow != transformReadsBounds { transformReadsBounds = transformReadsBoundsNow; changed = true }
    }

    // MARK: - Variables

    func declare(_ luaName: String, line: Int) -> Int {
        let id = variableCount
        variableCount += 1
        if id == variables.count {
            variables.append(VariableFacts(luaName: luaName, line: line))
            changed = true
        }
        scopes[scopes.count - 1][luaName] = id
        if scopes.count == 1 { topLevelVariables.insert(id) }
        return id
    }

    func lookUp(_ luaName: String) -> Int? {
        for scope in scopes.reversed() {
            if let id = scope[luaName] { return id }
        }
        return nil
    }

    /// Joins a value's kind into a variable's.
    func assign(_ id: Int, _ type: LuaType, line: Int) {
        var facts = variables[id]
        let kind = type.kindName
        if type != .unknown, type != .nilValue, !facts.kindLines.contains(where: { $0.kind == kind }) {
            facts.kindLines.append((kind, line))
        }
        let joined = join(facts.type, type)
        if joined != facts.type {
            facts.type = joined
            changed = true
        }
        variables[id] = facts
    }

    /// Keeps the bound of a value given to an integer local at its declaration (read where
    /// the local is never assigned again).
    func bound(_ id: Int, _ c: Code?) {
        let bound = c?.type == .int ? c?.bound : nil
        if variables[id].bound != bound {
            variables[id].bound = bound
            changed = true
        }
    }

    func mark(_ id: Int, _ flag: WritableKeyPath<VariableFacts, Bool>) {
        if !variables[id][keyPath: flag] {
            variables[id][keyPath: flag] = true
            changed = true
        }
    }

    /// The kind a variable holds, or a refusal when it holds two.
    func variableType(_ id: Int, line: Int) throws -> LuaType {
        let facts = variables[id]
        if case .conflict = facts.type, isFinal {
            let first = facts.kindLines.first, second = facts.kindLines.dropFirst().first
            throw refuse(second?.line ?? line,
                         "a value of two kinds is not supported ('\(facts.luaName)' is \(first?.kind ?? "one kind") on line \(first?.line ?? facts.line) and \(second?.kind ?? "another") on line \(second?.line ?? line); Swift gives each value one type: use two locals)")
        }
        return facts.type
    }

    // MARK: - Kinds

    func join(_ a: LuaType, _ b: LuaType) -> LuaType {
        if a == b { return a }
        switch (a, b) {
        case (.unknown, _): return b
        case (_, .unknown): return a
        case (.conflict, _): return a
        case (_, .conflict): return b
        case (.nilValue, .optional), (.optional, .nilValue): return a == .nilValue ? b : a
        case (.nilValue, _): return b
        case (_, .nilValue): return a
        case (.int, .num), (.num, .int): return .num
        case (.emptyTable, .array), (.emptyTable, .record): return b
        case (.array, .emptyTable), (.record, .emptyTable): return a
        case let (.array(x), .array(y)): return .array(join(x, y))
        case let (.record(x), .record(y)): return .record(mergeRecords(x, y))
        case let (.function(x), .function(y)): return .function(mergeFunctions(x, y))
        case let (.optional(x), .optional(y)): return .optional(join(x, y))
        case let (.optional(x), y), let (y, .optional(x)): return .optional(join(x, y))
        default: return .conflict("\(a.kindName) and \(b.kindName)")
        }
    }

    func recordRoot(_ r: Int) -> Int {
        var r = r
        while records[r].parent != r { r = records[r].parent }
        return r
    }

    func mergeRecords(_ x: Int, _ y: Int) -> Int {
        let a = recordRoot(x), b = recordRoot(y)
        if a == b { return a }
        let (keep, drop) = a < b ? (a, b) : (b, a)
        records[drop].parent = keep
        for field in records[drop].fields { addRecordField(keep, field.name, field.type) }
        records[keep].constructorFields.formUnion(records[drop].constructorFields)
        changed = true
        return keep
    }

    func addRecordField(_ r: Int, _ name: String, _ type: LuaType) {
        let root = recordRoot(r)
        if let i = records[root].fields.firstIndex(where: { $0.name == name }) {
            let joined = join(records[root].fields[i].type, type)
            if joined != records[root].fields[i].type {
                records[root].fields[i].type = joined
                changed = true
            }
        } else {
            records[root].fields.append((name, type))
            changed = true
        }
    }

    func recordField(_ r: Int, _ name: String) -> LuaType? {
        records[recordRoot(r)].fields.first(where: { $0.name == name })?.type
    }

    func functionRoot(_ f: Int) -> Int {
        var f = f
        while functions[f].parent != f { f = functions[f].parent }
        return f
    }

    func mergeFunctions(_ x: Int, _ y: Int) -> Int {
        let a = functionRoot(x), b = functionRoot(y)
        if a == b { return a }
        let (keep, drop) = a < b ? (a, b) : (b, a)
        functions[drop].parent = keep
        changed = true
        return keep
    }

    /// The parameter kinds of a function (joined over the functions merged with it).
    func parameterTypes(_ f: Int) -> [LuaType] {
        let root = functionRoot(f)
        var result: [LuaType] = []
        for (i, facts) in functions.enumerated() where functionRoot(i) == root {
            for (k, p) in facts.parameters.enumerated() {
                if k < result.count { result[k] = join(result[k], variables[p].type) } else { result.append(variables[p].type) }
            }
        }
        return result
    }

    func returnTypes(_ f: Int) -> [LuaType] {
        let root = functionRoot(f)
        var result: [LuaType] = []
        for (i, facts) in functions.enumerated() where functionRoot(i) == root {
            for (k, r) in facts.returns.enumerated() {
                if k < result.count { result[k] = join(result[k], r) } else { result.append(r) }
            }
        }
        return result
    }

    /// Passes a call's argument kinds to the parameters of every function merged with `f`.
    func passArguments(_ f: Int, _ types: [LuaType], line: Int) {
        let root = functionRoot(f)
        for (i, facts) in functions.enumerated() where functionRoot(i) == root {
            for (k, p) in facts.parameters.enumerated() where k < types.count || facts.defaults[k] == nil {
                assign(p, k < types.count ? types[k] : .nilValue, line: line)
            }
        }
    }

    // MARK: - Output

    func emit(_ text: String) {
        if !isFinal { return }
        let pad = String(repeating: "    ", count: indent)
        for l in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(l.isEmpty ? "" : pad + l)
        }
    }

    func emitComments(_ comments: [String]) {
        for c in comments.compactMap(SwiftText.scriptComment) { emit(SwiftText.lineComment(c)) }
    }

    /// `base1`, `base2`… (one counter per walk), clear of the name table's names.
    func unique(_ base: String) -> String {
        var name: String
        repeat {
            uniqueCounter += 1
            name = "\(base)\(uniqueCounter)"
        } while scriptNames.contains(name) || namesOfMembers.contains(name) || freshNames.contains(name)
        uniqueNow.insert(name)
        return name
    }

    func scoped<T>(_ body: () throws -> T) rethrows -> T {
        scopes.append([:])
        defer { scopes.removeLast() }
        return try body()
    }

    // MARK: - Swift types

    var attributesClassName: String {
        usesAppearance ? className + "Attributes" : "UICollectionViewLayoutAttributes"
    }

    func swiftType(_ t: LuaType, line: Int) throws -> String {
        if !isFinal {
            switch t {
            case .conflict, .nilValue, .params: return "CGFloat"   // not known yet
            default: break
            }
        }
        switch t {
        case .unknown, .num: return "CGFloat"
        case .int: return "Int"
        case .bool: return "Bool"
        case .color: return "UIColor"
        case .string: return "String"
        case .point: return "CGPoint"
        case .size: return "CGSize"
        case .rect: return "CGRect"
        case .insets: return "UIEdgeInsets"
        case .transform3D: return "CATransform3D"
        case .affine: return "CGAffineTransform"
        case .indexPath: return "IndexPath"
        case .attributes: return attributesClassName
        case .array(let e): return "[\(try swiftType(e, line: line))]"
        case .record(let r): return records[recordRoot(r)].name
        case .emptyTable: return "[CGFloat]"
        case .optional(let x): return "\(try swiftType(x, line: line))?"
        case .function(let f):
            let ps = try parameterTypes(f).map { try swiftType($0, line: line) }
            return "(\(ps.joined(separator: ", "))) -> \(try returnSignature(f, line: line) ?? "Void")"
        case .nilValue:
            throw refuse(line, "a value that is only ever nil is not supported (Swift needs its type; give it a value)")
        case .layout: return "UICollectionViewFlowLayout"
        case .collectionView: return "UICollectionView"
        case .params:
            throw refuse(line, "params as a value is not supported (read params.NAME where you need it)")
        case .conflict(let m):
            throw refuse(line, "a value of two kinds is not supported (\(m); Swift gives each value one type: use two locals)")
        }
    }

    func returnSignature(_ f: Int, line: Int) throws -> String? {
        let r = returnTypes(f)
        if r.isEmpty { return nil }
        if r.count == 1 { return try swiftType(r[0], line: line) }
        return "(" + (try r.map { try swiftType($0, line: line) }).joined(separator: ", ") + ")"
    }

    /// The value a field or a local starts at before it is set.
    func defaultValue(_ t: LuaType) -> String {
        switch t {
        case .int: "0"
        case .num, .unknown: "0"
        case .bool: "false"
        case .point: "CGPoint.zero"
        case .size: "CGSize.zero"
        case .rect: "CGRect.zero"
        case .insets: "UIEdgeInsets.zero"
        case .transform3D: "CATransform3DIdentity"
        case .affine: "CGAffineTransform.identity"
        case .indexPath: "IndexPath(item: 0, section: 0)"
        case .array, .emptyTable: "[]"
        case .string: "\"\""
        default: "nil"
        }
    }

    /// Whether a kind's Swift type has a default value (else the declaration is an optional).
    func hasDefault(_ t: LuaType) -> Bool {
        switch t {
        case .attributes, .record, .color, .function, .optional, .layout, .collectionView: false
        default: true
        }
    }

    /// Value types in Swift (a field write changes only that copy).
    func isValueType(_ t: LuaType) -> Bool {
        switch t {
        case .point, .size, .rect, .insets, .transform3D, .affine, .indexPath, .array, .emptyTable: true
        default: false
        }
    }
}
