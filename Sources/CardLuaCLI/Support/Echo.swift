/// Makes text from outside (an argument, a file name, a script's message) safe to show
/// on a terminal: the one function every message that repeats a user's value goes through.
enum Echo {
    /// The most characters an echoed value keeps (its last one then `…`).
    static let maximumLength = 200

    /// `value` with every control character written out visibly — C0 (`\n`, `\t`, `\r`,
    /// `\e` for ESC, `\u{7}` for the others), DEL, C1, and the characters that reorder or
    /// break lines (U+2028/9, the bidirectional overrides and isolates) — so that no
    /// escape sequence reaches the terminal and the message stays on one line; then cut to
    /// `limit` characters (Unicode scalars) with `…`.
    ///
    /// - Parameters:
    ///   - limit: the most characters kept; nil keeps all (for whole messages, whose
    ///     values were cut already).
    ///   - keepingLines: newlines and tabs pass as they are (multi-line details, such as a
    ///     traceback); everything else is still escaped.
    static func safe(_ value: String, limit: Int? = maximumLength, keepingLines: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        var count = 0
        let limit = max(1, limit ?? Int.max)
        // Where to cut if the whole does not fit: the longest prefix that leaves room for
        // the `…` (an escape is never split).
        var cut: String.UnicodeScalarView?
        for scalar in value.unicodeScalars {
            let piece: String.UnicodeScalarView
            if keepingLines && (scalar == "\n" || scalar == "\t") {
                piece = String.UnicodeScalarView([scalar])
            } else if let escaped = escape(scalar) {
                piece = escaped.unicodeScalars
            } else {
                piece = String.UnicodeScalarView([scalar])
            }
            if cut == nil && count + piece.count > limit - 1 { cut = out }
            out.append(contentsOf: piece)
            count += piece.count
            if count > limit, let cut { return String(cut) + "…" }
        }
        return String(out)
    }

    /// The visible spelling of a character that must not reach a terminal raw; nil for
    /// every other character.
    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x0A: return "\\n"
        case 0x09: return "\\t"
        case 0x0D: return "\\r"
        case 0x1B: return "\\e"
        case 0x00...0x1F, 0x7F, 0x80...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
            return "\\u{" + String(scalar.value, radix: 16) + "}"
        default: return nil
        }
    }
}
