import LuaSyntax

// Spelling Swift: names, numbers, and the small helpers a translation may need.

enum SwiftText {
    /// Swift's reserved words (and the few names that would change meaning inside a layout
    /// class), which a Lua name is escaped from with backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "async",
    ]

    /// A Lua name as a Swift identifier (keywords in backticks; `_` stays `_`).
    static func name(_ lua: String) -> String {
        keywords.contains(lua) ? "`\(lua)`" : lua
    }

    /// A number as a Swift literal that parses back to the same `Double`: integers as
    /// written (in decimal), floats by `Double.description` (which round-trips).
    static func number(_ n: LuaNumber) -> String {
        if n.isInteger, let i = n.integerValue { return grouped(String(i)) }
        // A float written whole (`35.0`) stays a float literal, as the script wrote it.
        if n.value == n.value.rounded(), abs(n.value) < 1e15 { return double(n.value) + (n.value.sign == .minus && n.value == 0 ? "" : ".0") }
        return double(n.value)
    }

    /// An integer literal's digits in groups of three (`1_000_000`) from seven digits on, as
    /// swift-format's GroupNumericLiterals rule asks; shorter ones as they are.
    static func grouped(_ literal: String) -> String {
        let sign = literal.hasPrefix("-") ? "-" : ""
        let digits = Array(literal.dropFirst(sign.count))
        guard digits.count >= 7, digits.allSatisfy(\.isNumber) else { return literal }
        var out = ""
        for (k, d) in digits.enumerated() {
            if k > 0, (digits.count - k) % 3 == 0 { out += "_" }
            out.append(d)
        }
        return sign + out
    }

    static func double(_ v: Double) -> String {
        if v.isInfinite { return v < 0 ? "-CGFloat.infinity" : "CGFloat.infinity" }
        if v.isNaN { return "CGFloat.nan" }
        if v != 0, abs(v) < Double.leastNormalMagnitude {
            // A subnormal: Swift's literal parser warns about these, so spell the bits.
            if abs(v) == Double.leastNonzeroMagnitude { return v < 0 ? "-CGFloat.leastNonzeroMagnitude" : "CGFloat.leastNonzeroMagnitude" }
            return "CGFloat(Double(bitPattern: 0x\(String(v.bitPattern, radix: 16))))"
        }
        if v == v.rounded(), abs(v) < 1e15 { return grouped(String(Int64(v))) + (v == 0 && v.sign == .minus ? ".0" : "") }
        return v.description
    }

    // MARK: - Text that travels into the file

    /// A string as a Swift string literal: `"` and `\\` escaped, and every control
    /// character (C0, DEL, C1, the line and paragraph separators, the bidirectional
    /// overrides and isolates) written as an escape, so the literal stays on its line and
    /// shows what it holds.
    static func string(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            default:
                if isControl(c) { out += "\\u{" + String(c.value, radix: 16, uppercase: true) + "}" } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }

    /// A script comment's text as Swift reads it, or nil for one to drop. LuaCATS
    /// annotations (`---@param t number the progress`, `---@return number`) are Lua's
    /// documentation markup: `@param` and `@return` become Swift's (`- Parameter t: the
    /// progress`, `- Returns: …`), the rest (`@type`, `@class`, `@field`, …) only type the Lua
    /// for its language server and are dropped; a `---` line's extra dash goes.
    static func scriptComment(_ text: String) -> String? {
        guard text.hasPrefix("-") else { return text }
        let body = String(text.drop(while: { $0 == "-" }).drop(while: { $0 == " " }))
        guard body.hasPrefix("@") else { return body }
        let words = body.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch words.first {
        case "@param" where words.count >= 2:
            // `@param name type description`: the type is Lua's; Swift's signature has its own.
            let name = words[1].hasSuffix("?") ? String(words[1].dropLast()) : words[1]
            let description = words.dropFirst(3).joined(separator: " ")
            return description.isEmpty ? nil : "- Parameter \(name): " + description
        case "@return" where words.count >= 2:
            let description = words.dropFirst(2).joined(separator: " ")
            return description.isEmpty ? nil : "- Returns: " + description
        default:
            return nil
        }
    }

    /// Whether a script comment is LuaDoc (`--- …`, `---@param …`): above a function it is
    /// the function's documentation.
    static func isDocumentation(_ text: String) -> Bool { text.hasPrefix("-") }

    /// A `// …` comment holding `text` (a comment of the script, a note): `//` alone when
    /// the text is empty.
    static func lineComment(_ text: String) -> String {
        text.isEmpty ? "//" : "// " + commentText(text)
    }

    /// A `/// …` doc comment holding `text` (the script's header, a param's range and
    /// label, the file name): `///` alone when the text is empty.
    static func docComment(_ text: String) -> String {
        text.isEmpty ? "///" : "/// " + commentText(text)
    }

    /// Text that stays inside one comment line: Swift ends a comment at a line feed or a
    /// carriage return (the rest of the line would be code) and warns about a NUL, and
    /// editors break lines at U+2028/U+2029 and reorder text at the bidirectional
    /// controls; so each control character but the tab is written out visibly, as
    /// `cardlua`'s messages write them (`\\n`, `\\r`, `\\e`, `\\u{0}`). `*/` and `/*`
    /// stay: they mean nothing in a line comment, and the file has no block comments.
    private static func commentText(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "\t": out.unicodeScalars.append(c)
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\u{1B}": out += "\\e"
            default:
                if isControl(c) { out += "\\u{" + String(c.value, radix: 16) + "}" } else { out.unicodeScalars.append(c) }
            }
        }
        return out
    }

    /// C0, DEL, C1, U+2028/U+2029 and the bidirectional overrides and isolates.
    private static func isControl(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `#rrggbb` as a `UIColor`, or nil when the text is not that.
    static func color(_ hex: String) -> String? {
        let chars = Array(hex)
        guard chars.count == 7, chars[0] == "#" else { return nil }
        var parts: [String] = []
        for i in stride(from: 1, to: 7, by: 2) {
            guard let v = Int(String(chars[i...i + 1]), radix: 16) else { return nil }
            parts.append("\(v) / 255")
        }
        return "UIColor(red: \(parts[0]), green: \(parts[1]), blue: \(parts[2]), alpha: 1)"
    }

    /// The helpers a translation may call, by name, as private free functions of the file.
    static let helpers: [String: String] = [
        "luaMod": """
        /// Lua's `%` on floats: the remainder takes the divisor's sign (Swift's `fmod` truncates).
        private func luaMod(_ a: CGFloat, _ b: CGFloat) -> CGFloat {
            var m = fmod(a, b)
            if (m > 0 && b < 0) || (m < 0 && b > 0) { m += b }
            return m
        }
        """,
        "luaIntMod": """
        /// Lua's `%` on integers, as Lua's VM computes it (lvm.c, luaV_mod): floored (Swift's
        /// `%` truncates), 0 by -1 (where Swift's `Int.min % -1` would trap). By 0 Lua raises
        /// an error, so the script fails in cardlua: there is no number to give, and this
        /// stops with Lua's message instead of returning one that differs.
        private func luaIntMod(_ a: Int, _ b: Int) -> Int {
            if b == 0 { fatalError("attempt to perform 'n%0'") }
            if b == -1 { return 0 }
            let r = a % b
            return r != 0 && (r < 0) != (b < 0) ? r + b : r
        }
        """,
        "luaIntDiv": """
        /// Lua's `//` on integers, as Lua's VM computes it (lvm.c, luaV_idiv): floored (Swift's
        /// `/` truncates), wrapping round by -1 (`Int.min // -1` is Int.min, where Swift would
        /// trap). By 0 Lua raises an error, so the script fails in cardlua: there is no number
        /// to give, and this stops with Lua's message instead of returning one that differs.
        private func luaIntDiv(_ a: Int, _ b: Int) -> Int {
            if b == 0 { fatalError("attempt to divide by zero") }
            if b == -1 { return 0 &- a }
            let q = a / b
            return a % b != 0 && (a < 0) != (b < 0) ? q - 1 : q
        }
        """,
        "luaIntAbs": """
        /// Lua's `math.abs` on integers: math.mininteger is its own absolute value (Lua wraps
        /// round, where Swift's `abs(Int.min)` would trap).
        private func luaIntAbs(_ x: Int) -> Int {
            x < 0 ? 0 &- x : x
        }
        """,
        "luaIndex": """
        /// Lua's `t[i]` on a sequence: nil past either end (1-based, as in Lua).
        private func luaIndex<Element>(_ array: [Element], _ index: Int) -> Element? {
            index >= 1 && index <= array.count ? array[index - 1] : nil
        }
        """,
        "luaLog": """
        /// Lua's `math.log(x, base)`: log2 and log10 exactly, other bases by division.
        private func luaLog(_ x: CGFloat, _ base: CGFloat) -> CGFloat {
            if base == 2 { return log2(x) }
            if base == 10 { return log10(x) }
            return log(x) / log(base)
        }
        """,
        "luaFormatColor": """
        /// `string.format("#%02x%02x%02x", r, g, b)` as the colour it names.
        private func luaColor(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat) -> UIColor {
            UIColor(red: r / 255, green: g / 255, blue: b / 255, alpha: 1)
        }
        """,
    ]
}
