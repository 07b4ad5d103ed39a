// Lua 5.4's lexical grammar (reference manual §3.1), turned into a token array.
//
// The lexer works on the script's UTF-8 bytes, as Lua's does. It keeps what the parser
// needs to place comments: each token carries the comments between it and the previous
// token, and whether a blank line separates them.

/// A comment as the lexer saw it.
struct LuaComment: Equatable, Sendable {
    /// The text lines without the `--` (and the space after it), trailing blanks trimmed.
    var lines: [String]
    /// The line the comment starts on.
    var line: Int
    /// Whether a blank line separates it from the previous token or comment.
    var isPrecededByBlankLine: Bool
}

/// One token of a Lua chunk.
struct LuaToken: Sendable {
    enum Kind: Equatable, Sendable {
        /// An identifier that is not a reserved word.
        case name(String)
        /// A reserved word (`end`, `function`, …) or an operator or punctuation (`..`, `(`, …).
        case symbol(String)
        /// A numeric literal.
        case number(LuaNumber)
        /// A string literal, escapes decoded.
        case string(String)
        /// The end of the chunk.
        case endOfFile
    }

    var kind: Kind
    /// The line the token starts on.
    var line: Int
    /// The line it ends on (a long string may span lines).
    var endLine: Int
    /// The source text, shortened, for `near '…'` in messages.
    var text: String
    /// The comments between the previous token and this one.
    var comments: [LuaComment]
    /// Whether a blank line separates this token from the previous token or comment.
    var isPrecededByBlankLine: Bool

    func isSymbol(_ symbol: String) -> Bool { kind == .symbol(symbol) }
}

/// Lua 5.4's reserved words.
let luaReservedWords: Set<String> = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
    "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
]

/// Splits a chunk into tokens; the last is always `.endOfFile`.
struct LuaLexer {
    private let bytes: [UInt8]
    private let fileName: String
    private var position = 0
    private var line = 1
    /// The line on which the last token or comment ended (0 before the first).
    private var lastItemEndLine = 0

    init(_ source: String, fileName: String) {
        self.bytes = Array(source.utf8)
        self.fileName = fileName
    }

    /// All the tokens of the chunk.
    mutating func tokenize() throws(LuaSyntaxError) -> [LuaToken] {
        // Like `lua`, skip a first line starting with `#` (a shebang).
        if current == UInt8(ascii: "#") {
            // Up to the first line feed, as lua.c's loader reads it (a CR alone does not end it there).
            while position < bytes.count, current != UInt8(ascii: "\n") { position += 1 }
            lastItemEndLine = 1
        }
        var tokens: [LuaToken] = []
        while true {
            var comments: [LuaComment] = []
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "-"), peek(1) == UInt8(ascii: "-") else { break }
                comments.append(try readComment())
            }
            let startLine = line
            let start = position
            let blank = startLine - lastItemEndLine >= 2
            let kind = try readToken()
            tokens.append(LuaToken(kind: kind, line: startLine, endLine: line, text: shortText(from: start),
                                   comments: comments, isPrecededByBlankLine: blank))
            lastItemEndLine = line
            if kind == .endOfFile { return tokens }
        }
    }

    // MARK: - Characters

    private var current: UInt8 { position < bytes.count ? bytes[position] : 0 }
    private func peek(_ offset: Int) -> UInt8 {
        position + offset < bytes.count ? bytes[position + offset] : 0
    }
    private var atEnd: Bool { position >= bytes.count }

    private func isNewline(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }
    private static func isNameByte(_ byte: UInt8) -> Bool { isNameStart(byte) || isDigit(byte) }
    private static func hexValue(_ byte: UInt8) -> Int {
        if isDigit(byte) { return Int(byte) - 0x30 }
        return Int(byte | 0x20) - 0x61 + 10
    }

    /// Consumes a line break (`\n`, `\r`, `\r\n` or `\n\r`, as Lua counts them).
    private mutating func consumeNewline() {
        let first = current
        position += 1
        if isNewline(current), current != first { position += 1 }
        line += 1
    }

    private mutating func skipWhitespace() {
        while !atEnd {
            switch current {
            case 0x0A, 0x0D: consumeNewline()
            case 0x20, 0x09, 0x0B, 0x0C: position += 1
            default: return
            }
        }
    }

    private func shortText(from start: Int) -> String {
        let end = min(position, bytes.count)
        guard start < end else { return "<eof>" }
        let slice = bytes[start..<min(end, start + 40)]
        let text = String(decoding: slice, as: UTF8.self)
        return end - start > 40 ? text + "…" : text
    }

    private func error(_ message: String, line: Int? = nil) -> LuaSyntaxError {
        LuaSyntaxError(fileName: fileName, line: line ?? self.line, message: message)
    }

    /// `near '…'` for the text from `start` to the current position, as Lua words it.
    private func near(_ start: Int) -> String {
        atEnd && start >= bytes.count ? "near <eof>" : "near '\(shortText(from: start))'"
    }

    // MARK: - Comments

    private mutating func readComment() throws(LuaSyntaxError) -> LuaComment {
        let startLine = line
        let blank = startLine - lastItemEndLine >= 2
        position += 2
        var lines: [String]
        if current == UInt8(ascii: "["), let level = longBracketLevel() {
            let text = try readLongBracket(level: level, what: "comment")
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { trimmedRight(String($0)) }
            // `--[[ text ]]` on one line, or with the brackets on their own lines: drop the empty edges.
            if lines.count > 1, lines.first?.trimmingSpaces().isEmpty == true { lines.removeFirst() }
            if lines.count > 1, lines.last?.trimmingSpaces().isEmpty == true { lines.removeLast() }
            if !lines.isEmpty { lines[0] = lines[0].trimmingSpaces() }
        } else {
            let start = position
            while !atEnd, !isNewline(current) { position += 1 }
            var text = String(decoding: bytes[start..<position], as: UTF8.self)
            if text.hasPrefix(" ") { text.removeFirst() }
            lines = [trimmedRight(text)]
        }
        lastItemEndLine = line
        return LuaComment(lines: lines, line: startLine, isPrecededByBlankLine: blank)
    }

    private func trimmedRight(_ text: String) -> String {
        var text = text
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return text
    }

    /// At `[`: the level of a long bracket `[==[` starting here, or nil if it is not one.
    private func longBracketLevel() -> Int? {
        var offset = 1
        while peek(offset) == UInt8(ascii: "=") { offset += 1 }
        return peek(offset) == UInt8(ascii: "[") ? offset - 1 : nil
    }

    /// Reads `[==[ … ]==]` from its opening `[`; returns the text between, without a
    /// first line break that directly follows the opening bracket (as Lua does), with line
    /// breaks as `\n`.
    private mutating func readLongBracket(level: Int, what: String) throws(LuaSyntaxError) -> String {
        let startLine = line
        position += level + 2
        if isNewline(current) { consumeNewline() }
        var text: [UInt8] = []
        while true {
            if atEnd {
                throw error("unfinished long \(what) (starting at line \(startLine)) near <eof>")
            }
            let byte = current
            if byte == UInt8(ascii: "]") {
                var offset = 1
                while peek(offset) == UInt8(ascii: "=") { offset += 1 }
                if offset - 1 == level, peek(offset) == UInt8(ascii: "]") {
                    position += offset + 1
                    return String(decoding: text, as: UTF8.self)
                }
                text.append(byte)
                position += 1
            } else if isNewline(byte) {
                consumeNewline()
                text.append(0x0A)
            } else {
                text.append(byte)
                position += 1
            }
        }
    }

    // MARK: - Tokens

    private mutating func readToken() throws(LuaSyntaxError) -> LuaToken.Kind {
        guard !atEnd else { return .endOfFile }
        let start = position
        let byte = current
        if Self.isNameStart(byte) {
            while Self.isNameByte(current) { position += 1 }
            let word = String(decoding: bytes[start..<position], as: UTF8.self)
            return luaReservedWords.contains(word) ? .symbol(word) : .name(word)
        }
        if Self.isDigit(byte) || (byte == UInt8(ascii: ".") && Self.isDigit(peek(1))) {
            return .number(try readNumber())
        }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return .string(try readShortString())
        case UInt8(ascii: "["):
            if let level = longBracketLevel() {
                return .string(try readLongBracket(level: level, what: "string"))
            }
            if peek(1) == UInt8(ascii: "=") {
                position += 2
                throw error("invalid long string delimiter near '[='")
            }
            position += 1
            return .symbol("[")
        default:
            break
        }
        // Operators and punctuation: the longest that matches.
        if let symbol = Self.symbol(at: byte, next: peek(1), afterNext: peek(2)) {
            position += symbol.utf8.count
            return .symbol(symbol)
        }
        position += 1
        let shown = byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "<\\\(byte)>"
        throw error("unexpected symbol near '\(shown)'")
    }

    /// The operator or punctuation starting with `byte` (the longest match), or nil.
    private static func symbol(at byte: UInt8, next: UInt8, afterNext: UInt8) -> String? {
        switch UnicodeScalar(byte) {
        case ".":
            if next == UInt8(ascii: ".") { return afterNext == UInt8(ascii: ".") ? "..." : ".." }
            return "."
        case "=": return next == UInt8(ascii: "=") ? "==" : "="
        case "~": return next == UInt8(ascii: "=") ? "~=" : "~"
        case "<": return next == UInt8(ascii: "=") ? "<=" : next == UInt8(ascii: "<") ? "<<" : "<"
        case ">": return next == UInt8(ascii: "=") ? ">=" : next == UInt8(ascii: ">") ? ">>" : ">"
        case "/": return next == UInt8(ascii: "/") ? "//" : "/"
        case ":": return next == UInt8(ascii: ":") ? "::" : ":"
        case "+": return "+"
        case "-": return "-"
        case "*": return "*"
        case "%": return "%"
        case "^": return "^"
        case "#": return "#"
        case "&": return "&"
        case "|": return "|"
        case "(": return "("
        case ")": return ")"
        case "{": return "{"
        case "}": return "}"
        case "[": return "["
        case "]": return "]"
        case ";": return ";"
        case ",": return ","
        default: return nil
        }
    }

    // MARK: - Numbers

    /// Reads a numeral the way Lua's lexer delimits it, then checks and converts it.
    private mutating func readNumber() throws(LuaSyntaxError) -> LuaNumber {
        let start = position
        let isHex = current == UInt8(ascii: "0") && (peek(1) == UInt8(ascii: "x") || peek(1) == UInt8(ascii: "X"))
        let exponentMarks: Set<UInt8> = isHex ? [UInt8(ascii: "p"), UInt8(ascii: "P")] : [UInt8(ascii: "e"), UInt8(ascii: "E")]
        if isHex { position += 2 }
        while true {
            if exponentMarks.contains(current), peek(1) == UInt8(ascii: "+") || peek(1) == UInt8(ascii: "-") {
                position += 2
            } else if Self.isNameByte(current) || current == UInt8(ascii: ".") {
                position += 1
            } else {
                break
            }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let number = isHex ? Self.hexNumber(text) : Self.decimalNumber(text) else {
            throw error("malformed number near '\(text)'")
        }
        return number
    }

    /// A decimal numeral: digits [. digits] [e [+-] digits]; an integer if it has neither
    /// point nor exponent and fits in 64 bits (otherwise Lua reads it as a float).
    static func decimalNumber(_ text: String) -> LuaNumber? {
        let utf8 = Array(text.utf8)
        var index = 0
        var mantissaDigits = 0
        var isFloat = false
        while index < utf8.count, isDigit(utf8[index]) { index += 1; mantissaDigits += 1 }
        if index < utf8.count, utf8[index] == UInt8(ascii: ".") {
            isFloat = true
            index += 1
            while index < utf8.count, isDigit(utf8[index]) { index += 1; mantissaDigits += 1 }
        }
        guard mantissaDigits > 0 else { return nil }
        if index < utf8.count, utf8[index] == UInt8(ascii: "e") || utf8[index] == UInt8(ascii: "E") {
            isFloat = true
            index += 1
            if index < utf8.count, utf8[index] == UInt8(ascii: "+") || utf8[index] == UInt8(ascii: "-") { index += 1 }
            var exponentDigits = 0
            while index < utf8.count, isDigit(utf8[index]) { index += 1; exponentDigits += 1 }
            guard exponentDigits > 0 else { return nil }
        }
        guard index == utf8.count, let value = Double(text) else { return nil }
        if !isFloat, let integer = Int64(text) {
            return LuaNumber(text: text, isInteger: true, value: Double(integer), integerValue: integer)
        }
        return LuaNumber(text: text, isInteger: false, value: value, integerValue: nil)
    }

    /// A hexadecimal numeral: 0x hexdigits [. hexdigits] [p [+-] digits]. Without point and
    /// exponent it is an integer that wraps around modulo 2^64, as in Lua.
    static func hexNumber(_ text: String) -> LuaNumber? {
        let utf8 = Array(text.utf8)
        var index = 2
        var digits = 0
        var isFloat = false
        var integer: UInt64 = 0
        while index < utf8.count, isHexDigit(utf8[index]) {
            integer = integer &* 16 &+ UInt64(hexValue(utf8[index]))
            index += 1
            digits += 1
        }
        if index < utf8.count, utf8[index] == UInt8(ascii: ".") {
            isFloat = true
            index += 1
            while index < utf8.count, isHexDigit(utf8[index]) { index += 1; digits += 1 }
        }
        guard digits > 0 else { return nil }
        var hasExponent = false
        if index < utf8.count, utf8[index] == UInt8(ascii: "p") || utf8[index] == UInt8(ascii: "P") {
            isFloat = true
            hasExponent = true
            index += 1
            if index < utf8.count, utf8[index] == UInt8(ascii: "+") || utf8[index] == UInt8(ascii: "-") { index += 1 }
            var exponentDigits = 0
            while index < utf8.count, isDigit(utf8[index]) { index += 1; exponentDigits += 1 }
            guard exponentDigits > 0 else { return nil }
        }
        guard index == utf8.count else { return nil }
        if !isFloat {
            let signed = Int64(bitPattern: integer)
            return LuaNumber(text: text, isInteger: true, value: Double(signed), integerValue: signed)
        }
        // Swift's Double(String) reads C99 hexadecimal floats (correctly rounded, as strtod).
        guard let value = Double(hasExponent ? text : text + "p0") else { return nil }
        return LuaNumber(text: text, isInteger: false, value: value, integerValue: nil)
    }

    // MARK: - Strings

    private mutating func readShortString() throws(LuaSyntaxError) -> String {
        let start = position
        let quote = current
        position += 1
        var text: [UInt8] = []
        while true {
            if atEnd { throw error("unfinished string near <eof>") }
            let byte = current
            if byte == quote {
                position += 1
                return String(decoding: text, as: UTF8.self)
            }
            if isNewline(byte) { throw error("unfinished string near '\(shortText(from: start))'") }
            if byte != UInt8(ascii: "\\") {
                text.append(byte)
                position += 1
                continue
            }
            position += 1
            let escape = current
            switch escape {
            case UInt8(ascii: "a"): text.append(0x07); position += 1
            case UInt8(ascii: "b"): text.append(0x08); position += 1
            case UInt8(ascii: "f"): text.append(0x0C); position += 1
            case UInt8(ascii: "n"): text.append(0x0A); position += 1
            case UInt8(ascii: "r"): text.append(0x0D); position += 1
            case UInt8(ascii: "t"): text.append(0x09); position += 1
            case UInt8(ascii: "v"): text.append(0x0B); position += 1
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): text.append(escape); position += 1
            case 0x0A, 0x0D: consumeNewline(); text.append(0x0A)
            case UInt8(ascii: "x"):
                position += 1
                var value = 0
                for _ in 0..<2 {
                    guard Self.isHexDigit(current) else {
                        if !atEnd { position += 1 }
                        throw error("hexadecimal digit expected \(near(start))")
                    }
                    value = value * 16 + Self.hexValue(current)
                    position += 1
                }
                text.append(UInt8(value))
            case UInt8(ascii: "z"):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "u"):
                position += 1
                guard current == UInt8(ascii: "{") else { throw error("missing '{' in \\u{xxxx} \(near(start))") }
                position += 1
                var value: UInt64 = 0
                var digits = 0
                while Self.isHexDigit(current) {
                    value = value * 16 + UInt64(Self.hexValue(current))
                    digits += 1
                    position += 1
                    guard value <= 0x7FFF_FFFF else { throw error("UTF-8 value too large \(near(start))") }
                }
                guard digits > 0 else { throw error("hexadecimal digit expected \(near(start))") }
                guard current == UInt8(ascii: "}") else { throw error("missing '}' in \\u{xxxx} \(near(start))") }
                position += 1
                text.append(contentsOf: Self.utf8Bytes(UInt32(value)))
            default:
                guard Self.isDigit(escape) else {
                    if !atEnd { position += 1 }
                    throw error("invalid escape sequence \(near(start))")
                }
                var value = 0
                for _ in 0..<3 where Self.isDigit(current) {
                    value = value * 10 + Int(current) - 0x30
                    position += 1
                }
                guard value <= 255 else { throw error("decimal escape too large \(near(start))") }
                text.append(UInt8(value))
            }
        }
    }

    /// Lua's (extended) UTF-8 encoding of a code point up to 2^31 - 1.
    static func utf8Bytes(_ value: UInt32) -> [UInt8] {
        if value < 0x80 { return [UInt8(value)] }
        var bytes: [UInt8] = []
        var value = value
        var firstByteMax: UInt32 = 0x3F  // the largest payload that fits in the first byte
        while value > firstByteMax {
            bytes.append(UInt8(0x80 | (value & 0x3F)))
            value >>= 6
            firstByteMax >>= 1
        }
        let lead = UInt8(truncatingIfNeeded: (~firstByteMax << 1) | value)
        bytes.append(lead)
        return bytes.reversed()
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
