import Foundation

/// Spelling suggestions and small text helpers.
package enum Suggest {
    static let callbacks = ["prepare", "transform", "targetContentOffset", "layoutAttributesForElements",
                            "sizeForItem", "insetForSection", "referenceSizeForHeader", "referenceSizeForFooter"]
    /// The keys a script may assign (the C list, ScriptConstants), and UIKit's `isHidden`.
    static let attributeKeys = ScriptConstants.attributeKeys.filter(\.writable).map(\.name) + ["isHidden"]
    static let layoutKeys = ["scrollDirection", "itemSize", "sectionInset", "minimumLineSpacing",
                             "minimumInteritemSpacing", "headerReferenceSize", "footerReferenceSize",
                             "decelerationRate", "isPagingEnabled", "collectionView", "wraps",
                             "flipsHorizontallyInOppositeLayoutDirection"]
    static let collectionViewKeys = ["decelerationRate", "isPagingEnabled", "bounces", "alwaysBounceHorizontal",
                                     "alwaysBounceVertical"]

    /// The callback (or `scenarios`, `params`) a global's name looks like a misspelling
    /// of: the same name in another case, or — for a function (a table for `scenarios`;
    /// never for `params`, near too many common words) — within two edits of it.
    static func misspelledCallback(_ name: String, type: String) -> String? {
        if callbacks.contains(name) || name == "scenarios" || name == "params" { return nil }
        for callback in callbacks + ["scenarios", "params"] {
            if name.lowercased() == callback.lowercased() { return callback }
            let wantedType = callback == "scenarios" ? "table" : "function"
            if callback != "params", type == wantedType, name.count >= 5, distance(name.lowercased(), callback.lowercased()) <= 2 {
                return callback
            }
        }
        return nil
    }

    /// The known name nearest to `name`: the same in another case, or within two edits
    /// (for names of four letters or more).
    static func closest(to name: String, in known: [String]) -> String? {
        // A word far longer than any name is no typo of one, and its edit distance would
        // take seconds (a 100 000-character `--param` name).
        guard name.utf8.count <= 64 else { return nil }
        if let same = known.first(where: { $0.lowercased() == name.lowercased() }) { return same }
        guard name.count >= 4 else { return nil }
        let scored = known.map { ($0, distance(name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    /// Edit distance with transpositions counted as one edit (optimal string alignment):
    /// the one measure of "near" for every did-you-mean of the command line and the checks.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// Every global name a script finds defined: the prelude's API (as a fresh state lists
    /// it: the C functions it installs are named only in C's table) and the sandbox's base
    /// library.
    static let globalNames: [String] = {
        let names = (try? LuaEffect(source: "", chunkName: "names").internalStrings("globalNames")) ?? []
        return names + ["assert", "error", "ipairs", "next", "pairs", "pcall", "print", "rawequal", "rawget",
                        "rawlen", "rawset", "select", "setmetatable", "getmetatable", "tonumber", "tostring",
                        "type", "xpcall", "warn", "string", "table", "math", "utf8", "coroutine"]
    }()

    /// Lua's `attempt to call a nil value (global 'CATransform3DRotat')` with
    /// `; did you mean CATransform3DRotate?` added when a defined global is within two
    /// edits of the name; any other message unchanged.
    static func withDidYouMean(_ message: String) -> String {
        let marker = "attempt to call a nil value (global '"
        guard let start = message.range(of: marker) else { return message }
        let name = message[start.upperBound...].prefix(while: { $0 != "'" })
        let end = message.index(start.upperBound, offsetBy: name.count)
        guard message[end...].hasPrefix("')"), !name.isEmpty,
              let guess = closest(to: String(name), in: globalNames), guess != String(name) else { return message }
        let close = message.index(end, offsetBy: 2)
        return String(message[..<close]) + "; did you mean \(guess)?" + message[close...]
    }

    /// A number as a person writes it: 1 not 1.0, at most three decimals.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
