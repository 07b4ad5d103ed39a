// The printer's last step: lines longer than 120 columns are broken where the toolchain's
// `swift-format` breaks them (4-space indentation, 120 columns: Xcode's defaults, and the
// configuration in the repository's `.swift-format`), so that every exported file passes
// `swift-format lint --strict` as it is.
//
// The translator writes each statement on one line; this pass reads such a line as a
// sequence of groups (`(…)`, `[…]`, `{…}` and string literals) and breaks it the way
// swift-format's pretty printer lays out the same syntax:
//
// - a declaration's parameter list: after `(`, the parameters filled at +4, and `)` back
//   at the declaration's indentation before `-> Result {`;
// - a header with a one-statement body (`if let x = y { f(x) }`): the body on its own line;
// - a condition joined by `&&`/`||`: a line per operand at +4, the `{` on a line of its own
//   (as after any `for`, `if` or `while` header that spans lines);
// - an assignment whose value is an operator expression: after `=`, the value at +4, and
//   a value still too long before its loosest operators, the operands filled;
// - otherwise the first call: after its `(`, the arguments filled at +4, `)` after the last
//   (a lone closure argument: its body on its own lines, `})` after it);
// - a comment beside code that ends past column 120 goes on the line above, and a comment
//   line past 120 columns is wrapped between words.
//
// Each step applies again to the lines it makes, one level deeper.

enum SwiftLineBreaker {
    /// The column limit: swift-format's default `lineLength`.
    static let lineLength = 120
    /// One level of indentation: swift-format's default.
    static let indentWidth = 4

    /// The file's lines with every long line broken.
    static func breakLines(_ lines: [String]) -> [String] {
        lines.flatMap(breakLine)
    }

    /// One line of the file, as one or more lines of at most ``lineLength`` columns where
    /// the syntax allows it.
    static func breakLine(_ line: String) -> [String] {
        if line.count <= lineLength { return [line] }
        let indent = line.prefix(while: { $0 == " " }).count
        let text = String(line.dropFirst(indent))
        if text.hasPrefix("//") { return wrapComment(text, indent: indent) }
        let (code, comment) = splitComment(text)
        if let comment {
            // swift-format's EndOfLineComment: a comment that ends past the limit goes above.
            return wrapComment(comment, indent: indent) + breakCode(code, indent: indent)
        }
        return breakCode(code, indent: indent)
    }

    // MARK: - Comments

    /// A `//` or `///` comment wrapped between words at the limit.
    static func wrapComment(_ comment: String, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        if indent + comment.count <= lineLength { return [pad + comment] }
        let marker = comment.hasPrefix("///") ? "///" : "//"
        let words = comment.dropFirst(marker.count).split(separator: " ", omittingEmptySubsequences: true)
        var result: [String] = []
        var current = marker
        for word in words {
            if current != marker, indent + current.count + 1 + word.count > lineLength {
                result.append(pad + current)
                current = marker
            }
            current += " " + word
        }
        result.append(pad + current)
        return result
    }

    /// The code and the `//` comment beside it (outside string literals), if any.
    static func splitComment(_ text: String) -> (code: String, comment: String?) {
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            if chars[i] == "\"" {
                i = endOfString(chars, from: i)
                continue
            }
            if chars[i] == "/", i + 1 < chars.count, chars[i + 1] == "/" {
                var code = String(chars[..<i])
                while code.last == " " { code.removeLast() }
                return (code, String(chars[i...]))
            }
            i += 1
        }
        return (text, nil)
    }

    // MARK: - Code

    static func breakCode(_ code: String, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        if indent + code.count <= lineLength { return [pad + code] }
        let chars = Array(code)
        let groups = topLevelGroups(chars)
        let deeper = indent + indentWidth
        if let lines = breakDeclaration(chars, groups, indent: indent) { return lines }
        if let lines = breakOneLineBody(chars, groups, indent: indent) { return lines }
        if let lines = breakCondition(chars, indent: indent) { return lines }
        if let lines = breakHeader(code, indent: indent) { return lines }
        if let equals = topLevelAssignment(chars), isOperatorExpression(Array(chars[(equals + 3)...])) {
            let value = String(chars[(equals + 3)...])
            return [pad + String(chars[..<equals]) + " ="] + breakValue(value, indent: deeper)
        }
        if let call = groups.first(where: { $0.open == "(" && $0.start > 0 && isCallee(chars[$0.start - 1]) }) {
            return breakCall(chars, call, indent: indent)
        }
        return [pad + code]
    }

    /// The operator levels a long value is broken at, loosest first (Swift's precedence).
    static let operatorLevels: [[String]] = [
        [" || "], [" && "], [" ?? "], [" <= ", " >= ", " < ", " > ", " == ", " != "],
        [" + ", " - ", " &+ ", " &- "], [" * ", " / ", " % ", " &* "],
    ]

    /// An assignment's value (or a call's argument): an operator chain too long for its line
    /// is broken before its loosest operators, the operands filled at the same indentation
    /// after `=` (`a + b` / `+ c`), at +4 inside a call's arguments.
    static func breakValue(_ value: String, indent: Int, continuation: Int = 0) -> [String] {
        let pad = String(repeating: " ", count: indent)
        if indent + value.count <= lineLength { return [pad + value] }
        let chars = Array(value)
        for level in operatorLevels {
            let positions = topLevelPositions(of: level, in: chars, 0..<chars.count)
            guard !positions.isEmpty else { continue }
            var pieces: [String] = []
            var start = 0
            for at in positions {
                pieces.append(String(chars[start..<at]))
                start = at + 1
            }
            pieces.append(String(chars[start...]))
            // Inside a call's arguments the operands after the first are indented once more.
            let lines = fill(pieces, indent: indent + continuation)
            return lines.enumerated().flatMap { k, line in breakCode(line, indent: k == 0 ? indent : indent + continuation) }
        }
        return breakCode(value, indent: indent)
    }

    /// A bracketed group at the statement's top level: its opening and closing positions.
    struct Group {
        var open: Character
        var start: Int
        var end: Int
    }

    static func topLevelGroups(_ chars: [Character]) -> [Group] {
        var groups: [Group] = []
        var stack: [(Character, Int)] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\"" {
                i = endOfString(chars, from: i)
                continue
            }
            if c == "(" || c == "[" || c == "{" {
                stack.append((c, i))
            } else if c == ")" || c == "]" || c == "}", let (open, start) = stack.popLast(), stack.isEmpty {
                groups.append(Group(open: open, start: start, end: i))
            }
            i += 1
        }
        return groups
    }

    /// The position after a string literal that starts at `start`.
    static func endOfString(_ chars: [Character], from start: Int) -> Int {
        var i = start + 1
        while i < chars.count {
            if chars[i] == "\\" {
                i += 2
                continue
            }
            if chars[i] == "\"" { return i + 1 }
            i += 1
        }
        return i
    }

    /// Whether a `(` after this character opens a call's arguments (not a parenthesized expression).
    static func isCallee(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "_" || c == ")" || c == "]" || c == "?" || c == "!" || c == ">"
    }

    /// The positions of `separator` at depth 0 of `chars[range]`, outside strings.
    static func topLevelPositions(of separators: [String], in chars: [Character], _ range: Range<Int>) -> [Int] {
        var positions: [Int] = []
        var depth = 0
        var i = range.lowerBound
        while i < range.upperBound {
            let c = chars[i]
            if c == "\"" {
                i = endOfString(chars, from: i)
                continue
            }
            if c == "(" || c == "[" || c == "{" { depth += 1 }
            if c == ")" || c == "]" || c == "}" { depth -= 1 }
            if depth == 0 {
                for s in separators where matches(chars, at: i, s, limit: range.upperBound) {
                    positions.append(i)
                    break
                }
            }
            i += 1
        }
        return positions
    }

    static func matches(_ chars: [Character], at i: Int, _ s: String, limit: Int) -> Bool {
        let needle = Array(s)
        guard i + needle.count <= limit else { return false }
        return Array(chars[i..<(i + needle.count)]) == needle
    }

    /// The ` = ` of a declaration or an assignment, if the statement is one.
    static func topLevelAssignment(_ chars: [Character]) -> Int? {
        topLevelPositions(of: [" = "], in: chars, 0..<chars.count).first
    }

    /// Whether a value is an operator expression at its top level (`a * f(x) - b`), which
    /// swift-format breaks after the `=` before it, rather than inside a call.
    static func isOperatorExpression(_ chars: [Character]) -> Bool {
        let operators = [" + ", " - ", " * ", " / ", " % ", " ?? ", " && ", " || ", " < ", " > ", " <= ", " >= ",
                         " == ", " != ", " ? ", " &+ ", " &- ", " &* "]
        return !topLevelPositions(of: operators, in: chars, 0..<chars.count).isEmpty
    }

    /// Arguments, split at their top-level commas (each with its comma, but the last).
    static func arguments(_ chars: [Character], _ range: Range<Int>) -> [String] {
        var pieces: [String] = []
        var start = range.lowerBound
        for comma in topLevelPositions(of: [", "], in: chars, range) {
            pieces.append(String(chars[start...comma]))
            start = comma + 2
        }
        pieces.append(String(chars[start..<range.upperBound]))
        return pieces
    }

    /// The arguments filled onto lines at `indent`, each line as long as the limit allows.
    static func fill(_ pieces: [String], indent: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for piece in pieces {
            if current.isEmpty {
                current = piece
            } else if indent + current.count + 1 + piece.count <= lineLength {
                current += " " + piece
            } else {
                lines.append(current)
                current = piece
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `func name(parameters) -> Result {` (or `init(…) {`): the parameters on their own
    /// lines, `)` back at the declaration's indentation.
    static func breakDeclaration(_ chars: [Character], _ groups: [Group], indent: Int) -> [String]? {
        let text = String(chars)
        let words = text.split(separator: " ").map(String.init)
        guard let keyword = words.firstIndex(where: { $0 == "func" || $0.hasPrefix("init(") || $0 == "init" }),
              words[..<keyword].allSatisfy({ ["override", "private", "fileprivate", "static", "final", "public",
                                               "nonisolated", "@objc", "@MainActor", "convenience",
                                               "required"].contains($0) }),
              text.hasSuffix("{"),
              let parameters = groups.first(where: { $0.open == "(" }) else { return nil }
        let pad = String(repeating: " ", count: indent)
        let head = String(chars[...parameters.start])
        let tail = String(chars[parameters.end...])
        let filled = fill(arguments(chars, (parameters.start + 1)..<parameters.end), indent: indent + indentWidth)
        return [pad + head] + filled.flatMap { breakCode($0, indent: indent + indentWidth) } + [pad + tail]
    }

    /// `if let x = y { f(x) }` (or `guard … else { return nil }`): the body on its own line.
    static func breakOneLineBody(_ chars: [Character], _ groups: [Group], indent: Int) -> [String]? {
        guard let body = groups.last, body.open == "{", body.end == chars.count - 1, body.start > 0,
              chars[body.start - 1] == " " else { return nil }
        let head = String(chars[..<body.start])
        let isHeader = ["if ", "guard ", "for ", "while ", "} else"].contains { head.hasPrefix($0) }
        guard isHeader else { return nil }
        let pad = String(repeating: " ", count: indent)
        let inner = String(chars[(body.start + 1)..<body.end]).trimmingSpaces
        return breakCode(head + "{", indent: indent) + breakCode(inner, indent: indent + indentWidth) + [pad + "}"]
    }

    /// `if a && b {` (or `while`, `||`): an operand per line, `{` on its own line.
    static func breakCondition(_ chars: [Character], indent: Int) -> [String]? {
        let text = String(chars)
        guard ["if ", "while ", "guard ", "} else if "].contains(where: { text.hasPrefix($0) }), text.hasSuffix(" {")
        else { return nil }
        let keywordEnd = text.hasPrefix("} else if ") ? 10 : text.firstIndex(of: " ").map { text.distance(from: text.startIndex, to: $0) + 1 }!
        let range = keywordEnd..<(chars.count - 2)
        let joins = topLevelPositions(of: [" && ", " || "], in: chars, range)
        guard !joins.isEmpty else { return nil }
        let pad = String(repeating: " ", count: indent)
        var lines = breakCode(String(chars[..<joins[0]]), indent: indent)
        for (k, join) in joins.enumerated() {
            let end = k + 1 < joins.count ? joins[k + 1] : range.upperBound
            lines += breakOperand(String(chars[(join + 1)..<end]), indent: indent + indentWidth)
        }
        return lines + [pad + "{"]
    }

    /// One operand of `&&`/`||` (`&& a - b <= max(…)`): broken before its comparison first,
    /// the right side at +4.
    static func breakOperand(_ operand: String, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        if indent + operand.count <= lineLength { return [pad + operand] }
        let chars = Array(operand)
        let comparisons = [" <= ", " >= ", " < ", " > ", " == ", " != "]
        guard let at = topLevelPositions(of: comparisons, in: chars, 0..<chars.count).first else {
            return breakCode(operand, indent: indent)
        }
        return breakCode(String(chars[..<at]), indent: indent)
            + breakCode(String(chars[(at + 1)...]), indent: indent + indentWidth)
    }

    /// A `for`, `if` or `while` header broken inside (`for i in stride(` …): its `{` goes on
    /// a line of its own, as swift-format puts it after a header that spans lines.
    static func breakHeader(_ code: String, indent: Int) -> [String]? {
        guard ["for ", "if ", "while ", "switch "].contains(where: { code.hasPrefix($0) }), code.hasSuffix(" {")
        else { return nil }
        var lines = breakCode(String(code.dropLast(2)), indent: indent)
        guard lines.count > 1, let last = lines.last else { return nil }
        let pad = String(repeating: " ", count: indent)
        // A header that ends back at its own indentation (`})` of a closure argument) keeps it.
        if last.hasPrefix(pad), last.dropFirst(indent).first != " " {
            lines[lines.count - 1] += " {"
            return lines
        }
        return lines + [pad + "{"]
    }

    /// A call's arguments after its `(`, filled at +4, `)` after the last; a lone closure
    /// argument as `f({`, its body, `})`.
    static func breakCall(_ chars: [Character], _ call: Group, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let deeper = indent + indentWidth
        let head = String(chars[...call.start])
        let tail = String(chars[call.end...])
        let inside = Array(chars[(call.start + 1)..<call.end])
        if inside.first == "{", inside.last == "}", topLevelGroups(inside).count == 1 {
            var body = String(inside.dropFirst().dropLast()).trimmingSpaces
            var opening = "{"
            if let inRange = body.range(of: " in ") {
                opening += " " + body[..<inRange.lowerBound] + " in"
                body = String(body[inRange.upperBound...])
            }
            return [pad + head + opening] + breakCode(body, indent: deeper) + [pad + "}" + tail]
        }
        var filled = fill(arguments(chars, (call.start + 1)..<call.end), indent: deeper)
        if tail.hasPrefix(")."), tail.count > 1 {
            // A member chained on the call (`CGAffineTransform(…).concatenating(…)`): `)` and
            // the chain go back to the statement's indentation.
            return [pad + head] + filled.flatMap { breakValue($0, indent: deeper, continuation: indentWidth) } + breakCode(tail, indent: indent)
        }
        filled[filled.count - 1] += tail
        return [pad + head] + filled.flatMap { breakValue($0, indent: deeper, continuation: indentWidth) }
    }
}

extension String {
    /// The text without the spaces at either end.
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
