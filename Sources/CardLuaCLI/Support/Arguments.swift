import CardLua

/// The words after the subcommand, split into options and positional arguments.
///
/// Options are `--name value`, `--name=value`, `-o value`, or flags without a value, as
/// the subcommand's table declares them (`OptionTable`); `-h`/`--help` is always known.
/// A typo is caught with a suggestion.
struct Arguments {
    private(set) var values: [String: String] = [:]
    /// Every value of each valued option, in order (`--param a=1 --param b=2`); `values`
    /// keeps the last.
    private(set) var allValues: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positional: [String] = []

    /// Parses `words` with `command`'s option table.
    init(_ words: [String], command: String) throws(UsageError) {
        try self.init(words, options: OptionTable.options(for: command) + (OptionTable.hidden[command] ?? []),
                      command: command)
    }

    /// - Parameter options: the options the subcommand takes; values and flags are stored
    ///   under each option's `name`, whichever alias was used.
    init(_ words: [String], options: [OptionSpec], command: String) throws(UsageError) {
        var canonical: [String: String] = ["h": "help", "help": "help"]
        for option in options {
            for spelling in [option.name] + option.aliases { canonical[spelling] = option.name }
        }
        let valued = Set(options.filter { $0.value != nil }.map(\.name))
        let flagNames = Set(options.filter { $0.value == nil }.map(\.name)).union(["help"])
        var index = 0
        var onlyPositional = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositional || word == "-" || !word.hasPrefix("-") {
                positional.append(word)
                continue
            }
            if word == "--" { onlyPositional = true; continue }
            var name = word.hasPrefix("--") ? String(word.dropFirst(2)) : String(word.dropFirst())
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if let known = canonical[name] { name = known }
            if flagNames.contains(name) {
                if inlineValue != nil { throw UsageError("\(Echo.safe(word)): --\(name) takes no value", command: command) }
                flags.insert(name)
            } else if valued.contains(name) {
                let display = name == "o" ? "-o" : "--\(name)"
                if let inlineValue {
                    values[name] = inlineValue
                    allValues[name, default: []].append(inlineValue)
                } else {
                    // A value may start with "-" (a negative number), but not be another option.
                    guard index < words.count, !Arguments.looksLikeOption(words[index]) else {
                        throw UsageError("\(display) needs a value", command: command)
                    }
                    values[name] = words[index]
                    allValues[name, default: []].append(words[index])
                    index += 1
                }
            } else {
                var message = "unknown option '\(Echo.safe(word))'"
                let known = Set(canonical.keys).filter { $0.count > 1 }
                if let guess = Arguments.closest(to: name, in: known) { message += " (did you mean --\(guess)?)" }
                throw UsageError(message, command: command)
            }
        }
    }

    private static func looksLikeOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        let second = word[word.index(after: word.startIndex)]
        return !(second.isNumber || second == ".")
    }

    /// Names longer than this get no suggestion: no known name is that long, and the edit
    /// distance of a hostile 100 000-character word would take seconds.
    static let longestComparedName = 64

    /// The known name nearest to `name` by edit distance, if it is near enough.
    static func closest(to name: String, in known: Set<String>) -> String? {
        guard name.unicodeScalars.count <= longestComparedName else { return nil }
        let scored = known.map { ($0, Suggest.distance(name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return nil }
        return best.1 <= max(2, name.count / 3) ? best.0 : nil
    }
}
