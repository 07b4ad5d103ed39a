// The syntax tree of a Lua 5.4 chunk, as `parseLua(_:fileName:)` produces it.
//
// The tree is the whole of Lua 5.4's grammar (the reference manual, §9), so that the
// emitter can refuse a construct by its line instead of the parser rejecting it blindly.
// It keeps what a translation to readable Swift needs and a compiler would drop: the
// source text of numeric literals, the difference between `a.b` and `a["b"]`, parentheses
// (they cut a call's results to one), and the comments around each statement.
//
// Comments are stored as text lines without their `--`: for `-- a note` the line is
// `a note` (the `--` and at most one space after it are removed, trailing blanks trimmed).
// A long comment `--[[ … ]]` contributes one string per line of its text.

/// A whole script: its header comment and its top-level block.
package struct LuaChunk: Equatable, Sendable {
    /// The leading comment block at the top of the file: the comment lines before the
    /// first blank line or the first code, whichever comes first. These lines are not
    /// repeated in the first statement's `leadingComments`.
    package var headerComment: [String]
    /// The top-level statements. Comments after the last statement are in
    /// `body.trailingComments`.
    package var body: LuaBlock

    package init(headerComment: [String], body: LuaBlock) {
        self.headerComment = headerComment
        self.body = body
    }
}

/// A sequence of statements: a chunk's body, or the body of a function, loop, `if` branch
/// or `do … end`.
package struct LuaBlock: Equatable, Sendable {
    /// The statements in order. Empty statements (`;`) are dropped.
    package var statements: [LuaStatement]
    /// Comment lines after the last statement, before the block's closing keyword
    /// (`end`, `else`, `elseif`, `until`) or the end of the file.
    package var trailingComments: [String]

    package init(statements: [LuaStatement], trailingComments: [String] = []) {
        self.statements = statements
        self.trailingComments = trailingComments
    }
}

/// One statement, with its line and the comments around it.
package struct LuaStatement: Equatable, Sendable {
    /// What the statement is.
    package var kind: Kind
    /// The 1-based line of the statement's first token.
    package var line: Int
    /// The comment lines between the previous statement (or the start of the block) and
    /// this one, in order, without their `--`.
    package var leadingComments: [String]
    /// A comment that starts on the line where the statement ends, after it
    /// (`x = 1  -- why`), without its `--`.
    package var trailingComment: String?
    /// Whether a blank line separates this statement (with its leading comments) from
    /// what precedes it in the source, so the emitter can keep the script's paragraphs.
    package var isPrecededByBlankLine: Bool

    package init(_ kind: Kind, line: Int, leadingComments: [String] = [], trailingComment: String? = nil,
                isPrecededByBlankLine: Bool = false) {
        self.kind = kind
        self.line = line
        self.leadingComments = leadingComments
        self.trailingComment = trailingComment
        self.isPrecededByBlankLine = isPrecededByBlankLine
    }

    /// The kinds of statement of Lua 5.4.
    package indirect enum Kind: Equatable, Sendable {
        /// `local a <const>, b = e1, e2` (`values` is empty for `local a, b`).
        case local(names: [LuaLocalName], values: [LuaExpression])
        /// `t1, t2 = e1, e2`: each target is a `.name`, `.field` or `.index` expression.
        case assignment(targets: [LuaExpression], values: [LuaExpression])
        /// A function or method call used as a statement: the expression is a `.call` or `.methodCall`.
        case call(LuaExpression)
        /// `do … end`.
        case doBlock(LuaBlock)
        /// `while condition do … end`.
        case whileLoop(condition: LuaExpression, body: LuaBlock)
        /// `repeat … until condition` (the condition sees the body's locals).
        case repeatLoop(body: LuaBlock, condition: LuaExpression)
        /// `if c1 then … elseif c2 then … else … end`: one clause per `if`/`elseif`,
        /// `elseBlock` nil when there is no `else`.
        case ifStatement(clauses: [LuaConditionalBlock], elseBlock: LuaBlock?)
        /// `for variable = start, limit[, step] do … end`.
        case numericFor(variable: String, start: LuaExpression, limit: LuaExpression, step: LuaExpression?,
                        body: LuaBlock)
        /// `for n1, n2 in e1, e2 do … end`.
        case genericFor(names: [String], expressions: [LuaExpression], body: LuaBlock)
        /// `function a.b.c:m(…) … end` (a global or a field of one, `a` alone for `function a()`).
        case function(name: LuaFunctionName, function: LuaFunction)
        /// `local function name(…) … end` (the name is in scope in its own body).
        case localFunction(name: String, function: LuaFunction)
        /// `return e1, e2` (possibly no values). Always the last statement of its block.
        case returnStatement([LuaExpression])
        /// `break`.
        case breakStatement
        /// `goto label`.
        case gotoStatement(label: String)
        /// `::label::`.
        case label(String)
    }
}

/// A name declared by `local`, with its attribute.
package struct LuaLocalName: Equatable, Sendable {
    /// The variable's name.
    package var name: String
    /// `<const>` or `<close>`, if written.
    package var attribute: Attribute?

    package init(name: String, attribute: Attribute? = nil) {
        self.name = name
        self.attribute = attribute
    }

    /// Lua 5.4's local variable attributes.
    package enum Attribute: String, Equatable, Sendable {
        /// `<const>`: the variable cannot be assigned to.
        case const
        /// `<close>`: the value's `__close` runs when the variable goes out of scope.
        case close
    }
}

/// The name of a `function` statement: `base.fields[0].fields[1]…:method`.
package struct LuaFunctionName: Equatable, Sendable {
    /// The first name (a global or an upvalue/local).
    package var base: String
    /// The dotted names after it, in order (`a.b.c` → `["b", "c"]`).
    package var fields: [String]
    /// The name after `:`, if any: a method, whose function gets an implicit `self` first
    /// parameter (not listed in `LuaFunction.parameters`).
    package var method: String?

    package init(base: String, fields: [String] = [], method: String? = nil) {
        self.base = base
        self.fields = fields
        self.method = method
    }
}

/// One `if`/`elseif` branch.
package struct LuaConditionalBlock: Equatable, Sendable {
    /// The condition.
    package var condition: LuaExpression
    /// The statements run when the condition holds.
    package var body: LuaBlock
    /// The line of the `if` or `elseif` keyword.
    package var line: Int

    package init(condition: LuaExpression, body: LuaBlock, line: Int) {
        self.condition = condition
        self.body = body
        self.line = line
    }
}

/// A function body: from a `function` statement, a `local function` or a function literal.
package struct LuaFunction: Equatable, Sendable {
    /// The named parameters, in order (without the implicit `self` of a method).
    package var parameters: [String]
    /// Whether the parameter list ends in `...`.
    package var isVararg: Bool
    /// The statements.
    package var body: LuaBlock
    /// The line of the `function` keyword.
    package var line: Int
    /// The line of the closing `end`.
    package var endLine: Int

    package init(parameters: [String], isVararg: Bool = false, body: LuaBlock, line: Int, endLine: Int) {
        self.parameters = parameters
        self.isVararg = isVararg
        self.body = body
        self.line = line
        self.endLine = endLine
    }
}

/// A numeric literal, kept as written.
package struct LuaNumber: Equatable, Sendable {
    /// The literal's source text, e.g. `35.0`, `0x10`, `1e-3`.
    package var text: String
    /// Whether Lua reads it as an integer (a decimal or hex literal without a point or
    /// exponent that fits in 64 bits; hex literals wrap around, as in Lua). Otherwise a float.
    package var isInteger: Bool
    /// The value as Lua computes it: exact for an integer (`integerValue`), the nearest
    /// `Double` for a float.
    package var value: Double
    /// The integer's value when `isInteger`, else nil.
    package var integerValue: Int64?

    package init(text: String, isInteger: Bool, value: Double, integerValue: Int64?) {
        self.text = text
        self.isInteger = isInteger
        self.value = value
        self.integerValue = integerValue
    }
}

/// An expression, with its line.
package struct LuaExpression: Equatable, Sendable {
    /// What the expression is.
    package var kind: Kind
    /// The 1-based line of the expression's first token, except for binary operations,
    /// calls, method calls, indexing and field access, which carry the line of their
    /// operator (`+`, `(`, `:`, `[`, `.`), where Lua itself reports their errors.
    package var line: Int

    package init(_ kind: Kind, line: Int) {
        self.kind = kind
        self.line = line
    }

    /// The kinds of expression of Lua 5.4.
    package indirect enum Kind: Equatable, Sendable {
        /// `nil`.
        case nilLiteral
        /// `true` or `false`.
        case boolean(Bool)
        /// A numeric literal.
        case number(LuaNumber)
        /// A string literal (short or long), with its escapes decoded. Bytes that are not
        /// valid UTF-8 (from `\xXX` or `\ddd`) become U+FFFD.
        case string(String)
        /// `...`.
        case vararg
        /// `function (…) … end`.
        case function(LuaFunction)
        /// `{ … }`.
        case table([LuaTableField])
        /// A variable: a local, an upvalue or a global.
        case name(String)
        /// `base.name`.
        case field(base: LuaExpression, name: String)
        /// `base[key]`.
        case index(base: LuaExpression, key: LuaExpression)
        /// `function(arguments)`; `f "s"` and `f {…}` are calls with that one argument.
        case call(function: LuaExpression, arguments: [LuaExpression])
        /// `object:method(arguments)`.
        case methodCall(object: LuaExpression, method: String, arguments: [LuaExpression])
        /// A prefix operator applied to an operand.
        case unary(LuaUnaryOperator, LuaExpression)
        /// A binary operator; `lhs op rhs`, grouped by Lua's precedence and associativity.
        case binary(LuaBinaryOperator, LuaExpression, LuaExpression)
        /// `(expression)`: kept because it cuts a call's or `...`'s results to one value.
        case parenthesized(LuaExpression)
    }
}

/// One entry of a table constructor.
package struct LuaTableField: Equatable, Sendable {
    /// The entry's form.
    package var kind: Kind
    /// The 1-based line where the entry starts.
    package var line: Int

    package init(_ kind: Kind, line: Int) {
        self.kind = kind
        self.line = line
    }

    /// The three forms of a table constructor's entry.
    package indirect enum Kind: Equatable, Sendable {
        /// `value`: the next array item (keys 1, 2, … in order).
        case positional(LuaExpression)
        /// `name = value`.
        case named(String, LuaExpression)
        /// `[key] = value`.
        case keyed(LuaExpression, LuaExpression)
    }
}

/// Lua 5.4's prefix operators (all bind tighter than every binary operator except `^`).
package enum LuaUnaryOperator: String, Equatable, Sendable {
    /// `-x`.
    case negate = "-"
    /// `not x`.
    case not = "not"
    /// `#x`: length.
    case length = "#"
    /// `~x`: bitwise not.
    case bitwiseNot = "~"
}

/// Lua 5.4's binary operators. The raw value is the operator's source text.
package enum LuaBinaryOperator: String, Equatable, Sendable, CaseIterable {
    case or = "or"
    case and = "and"
    case less = "<"
    case greater = ">"
    case lessEqual = "<="
    case greaterEqual = ">="
    case notEqual = "~="
    case equal = "=="
    case bitwiseOr = "|"
    case bitwiseXor = "~"
    case bitwiseAnd = "&"
    case shiftLeft = "<<"
    case shiftRight = ">>"
    /// `..`: string concatenation (right-associative).
    case concat = ".."
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    /// `/`: always a float division.
    case divide = "/"
    /// `//`: floor division (integer when both operands are integers).
    case floorDivide = "//"
    /// `%`: the floored modulo (the result has the sign of the divisor).
    case modulo = "%"
    /// `^`: exponentiation, always a float (right-associative, binds tighter than unary operators on its left).
    case power = "^"

    /// The operator's left and right binding power, from the reference manual's precedence
    /// table (lowest `or` = 1, highest `^` = 14). A right-associative operator has a right
    /// power below its left power.
    package var precedence: (left: Int, right: Int) {
        switch self {
        case .or: (1, 1)
        case .and: (2, 2)
        case .less, .greater, .lessEqual, .greaterEqual, .notEqual, .equal: (3, 3)
        case .bitwiseOr: (4, 4)
        case .bitwiseXor: (5, 5)
        case .bitwiseAnd: (6, 6)
        case .shiftLeft, .shiftRight: (7, 7)
        case .concat: (9, 8)
        case .add, .subtract: (10, 10)
        case .multiply, .divide, .floorDivide, .modulo: (11, 11)
        case .power: (14, 13)
        }
    }

    /// The binding power of the prefix operators: above `*`, below `^`.
    package static let unaryPrecedence = 12
}
