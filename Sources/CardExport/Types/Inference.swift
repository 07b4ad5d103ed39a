import LuaSyntax

// What the inference remembers between its passes: the locals, functions and records of
// the script, each numbered in the order a walk of the syntax tree meets it.
//
// The translator walks the whole script several times. Each walk computes every
// expression's kind from what the previous walks learnt (a local's kind is the meeting of
// every value assigned to it, a function's parameters the meeting of its arguments at every
// call), and stops when a walk learns nothing new; the last walk writes the Swift. Because
// every walk visits the declarations in the same order, the n-th declaration of one walk is
// the n-th of the next, and its facts carry over by number.

/// What is known about one local (or parameter).
struct VariableFacts {
    var luaName: String
    var line: Int
    var type: LuaType = .unknown
    /// The first line each kind of value was assigned on (for "a value of two kinds").
    var kindLines: [(kind: String, line: Int)] = []
    /// Assigned again after its declaration.
    var reassigned = false
    /// A field of it is assigned (`t.m34 = …`): a value type must then be a Swift `var`.
    var fieldMutated = false
    /// Read somewhere (an unread local becomes `_ = …`).
    var read = false
    /// Tested for truth (`if previous and …`): an array element read into it may be absent.
    var truthTested = false
    /// Compared with nil (`closest == nil`): declared without a value, it is an optional.
    var nilTested = false
    /// For an integer local that is never assigned again: the bound on its value's magnitude
    /// (``Code/bound``), from the last walk.
    var bound: Double?
}

/// What is known about one function (a local function, a global one, or a literal).
struct FunctionFacts {
    var luaName: String
    var line: Int
    /// The parameters' variable numbers.
    var parameters: [Int] = []
    /// The kinds of the returned values (several: a tuple), joined over every `return`.
    var returns: [LuaType] = []
    /// Whether some `return` gives no value.
    var returnsNothing = false
    /// Functions merged into this one (an array of function literals shares one signature).
    var parent: Int
    /// Parameters given a default by `p = p or value` at the top of the body: Swift default arguments.
    var defaults: [Int: String] = [:]
}

/// A table with fixed keys: its fields in the order they were first seen.
struct RecordFacts {
    var name: String
    var fields: [(name: String, type: LuaType)] = []
    /// Fields given in some constructor (the others start at their default).
    var constructorFields: Set<String> = []
    var parent: Int
}
