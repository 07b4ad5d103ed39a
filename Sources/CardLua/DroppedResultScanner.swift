/// The source scan behind `ScriptChecker.droppedResults`, written by hand: a run pays for
/// it after every script, and a regular expression (ICU's) cost more than the rest of a
/// small demo's start-up, most of it loading ICU's data.
///
/// On one line (a comment already cut off) it finds the statements that are only a call
/// whose value is a new transform:
/// - `receiver:method(` with a method of `DroppedResultScanner.methods`, the receiver a
///   name or a dotted path (`t`, `self.t`);
/// - `CATransform3D…(` or `CGAffineTransform…(`, the name longer than its prefix;
///
/// where a statement starts at the start of the line, after `;`, or after the words
/// `then`, `do` or `else`, with any white space between. Found calls do not overlap: the
/// scan goes on after each call's `(`.
package enum DroppedResultScanner {
    /// The transform methods whose result is a new transform.
    static let methods = ["rotate", "scale", "translate", "concat", "invert"]
    /// The prefixes of the functions whose result is a new value.
    static let prefixes = ["CATransform3D", "CGAffineTransform"]

    /// One call found on a line.
    package struct Call: Equatable, Sendable {
        /// Where the call starts (its receiver or its name), in unicode scalars from the
        /// line's start.
        package var start: Int
        /// `t` and `rotate` for `t:rotate(`; nil for a function call.
        package var receiver: String?
        package var method: String?
        /// `CATransform3DScale` for `CATransform3DScale(`; nil for a method call.
        package var function: String?
    }

    /// The calls on `line` that stand alone as statements.
    package static func calls(in line: String) -> [Call] {
        let s = Array(line.unicodeScalars)
        var found: [Call] = []
        var cursor = 0  // where the next statement start may be (calls do not overlap)
        // Each position in turn, as a regular expression's search goes: a statement start
        // that begins there (the line's start or a `;` just before it, then a word starting
        // at it), tried in that order, and the first that leads to a call wins.
        var i = 0
        while i <= s.count {
            var starts: [(from: Int, after: Int)] = []
            if i == 0 { starts.append((0, 0)) }
            if i < s.count, s[i] == ";" { starts.append((i, i + 1)) }
            if i < s.count, isWord(s[i]) && (i == 0 || !isWord(s[i - 1])) {
                for word in ["then", "do", "else"] where matchesWord(word, in: s, at: i) {
                    starts.append((i, i + word.unicodeScalars.count))
                }
            }
            var next = i + 1
            for start in starts where start.from >= cursor {
                if let (call, end) = callStatement(in: s, from: start.after) {
                    found.append(call)
                    cursor = end
                    next = end
                    break
                }
            }
            i = next
        }
        return found
    }

    /// The line up to its first `--` (the comment cut off; a `--` in a string counts too).
    package static func code(of line: Substring) -> String {
        let s = line.unicodeScalars
        var previousDash = false
        for i in s.indices {
            if s[i] == "-" {
                if previousDash { return String(String.UnicodeScalarView(s[..<s.index(before: i)])) }
                previousDash = true
            } else {
                previousDash = false
            }
        }
        return String(line)
    }

    /// Whether the line holds nothing but spaces and tabs (Foundation's `.whitespaces`).
    package static func isBlank(_ line: String) -> Bool {
        line.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// Whether the line may hold a call of interest: a `:`, or one of the prefixes.
    package static func mayHoldCall(_ line: String) -> Bool {
        let s = Array(line.unicodeScalars)
        for i in s.indices {
            if s[i] == ":" { return true }
            if s[i] == "C", prefixes.contains(where: { matchesText($0, in: s, at: i) }) { return true }
        }
        return false
    }

    /// Whether a line (a comment already cut off) ends in the middle of an expression: with
    /// an operator, `=`, `,`, an opening bracket, `..`, or the words and, or, not, return,
    /// local, in. A call at the start of the next line is then part of it.
    package static func continues(_ line: String) -> Bool {
        var s = Array(line.unicodeScalars)
        while let last = s.last, isSpace(last) { s.removeLast() }
        guard let last = s.last else { return false }
        if "=,([{+-*/%^<>~".unicodeScalars.contains(last) { return true }
        if s.count >= 2 && last == "." && s[s.count - 2] == "." { return true }
        for word in ["and", "or", "not", "return", "local", "in"] {
            let n = word.unicodeScalars.count
            guard s.count >= n else { continue }
            let at = s.count - n
            if String(String.UnicodeScalarView(s[at...])) == word && (at == 0 || !isWord(s[at - 1])) { return true }
        }
        return false
    }

    /// After white space from `start`: a method or function call of interest up to its `(`;
    /// the call and the index just past the `(`.
    private static func callStatement(in s: [Unicode.Scalar], from start: Int) -> (Call, Int)? {
        var i = start
        while i < s.count, isSpace(s[i]) { i += 1 }
        let callStart = i
        // A receiver: [A-Za-z_][\w.]*
        guard i < s.count, isASCIILetter(s[i]) || s[i] == "_" else { return nil }
        var j = i + 1
        while j < s.count, isWord(s[j]) || s[j] == "." { j += 1 }
        let name = String(String.UnicodeScalarView(s[i..<j]))
        // receiver:method(
        var k = j
        while k < s.count, isSpace(s[k]) { k += 1 }
        if k < s.count, s[k] == ":" {
            k += 1
            while k < s.count, isSpace(s[k]) { k += 1 }
            for method in methods where matchesText(method, in: s, at: k) {
                if let end = openParenthesis(in: s, from: k + method.unicodeScalars.count) {
                    return (Call(start: callStart, receiver: name, method: method, function: nil), end)
                }
            }
        }
        // CATransform3D…( : the prefix and at least one word character, then (
        for prefix in prefixes where matchesText(prefix, in: s, at: i) {
            var e = i + prefix.unicodeScalars.count
            guard e < s.count, isWord(s[e]) else { continue }
            while e < s.count, isWord(s[e]) { e += 1 }
            if let end = openParenthesis(in: s, from: e) {
                let function = String(String.UnicodeScalarView(s[i..<e]))
                return (Call(start: callStart, receiver: nil, method: nil, function: function), end)
            }
        }
        return nil
    }

    /// White space then `(` from `i`: the index just past it.
    private static func openParenthesis(in s: [Unicode.Scalar], from i: Int) -> Int? {
        var k = i
        while k < s.count, isSpace(s[k]) { k += 1 }
        return k < s.count && s[k] == "(" ? k + 1 : nil
    }

    private static func matchesText(_ text: String, in s: [Unicode.Scalar], at i: Int) -> Bool {
        let t = Array(text.unicodeScalars)
        return i + t.count <= s.count && Array(s[i..<(i + t.count)]) == t
    }

    /// `word` at i as a whole word (not followed by a word character).
    private static func matchesWord(_ word: String, in s: [Unicode.Scalar], at i: Int) -> Bool {
        let n = word.unicodeScalars.count
        return matchesText(word, in: s, at: i) && (i + n == s.count || !isWord(s[i + n]))
    }

    /// A word character as regular expressions have it (\w): letters, marks, digits, `_`.
    static func isWord(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII { return isASCIILetter(c) || ("0"..."9").contains(c) || c == "_" }
        let p = c.properties
        return p.isAlphabetic || p.generalCategory == .decimalNumber || p.generalCategory == .connectorPunctuation
            || p.generalCategory == .nonspacingMark || p.generalCategory == .spacingMark || p.generalCategory == .enclosingMark
            || c == "\u{200C}" || c == "\u{200D}"
    }

    private static func isASCIILetter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }

    /// White space as regular expressions have it (\s).
    static func isSpace(_ c: Unicode.Scalar) -> Bool {
        c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0B}" || c == "\u{0C}" || c.properties.isWhitespace
    }
}
