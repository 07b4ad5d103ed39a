import CardLua

/// The words after the subcommand, split into options and positional arguments.
///
/// Options are `--name value`, `--name=value`, `-o value`, or flags without a value, as
/// the subcommand's declaration lists them (``CommandDeclaration/options``); `-h`/`--help`
/// is always known. A typo is caught with a suggestion. Values are read by
/// ``OptionKey``: ``value(_:)``, ``values(_:)``, ``isSet(_:)``.
struct Arguments {
    /// The subcommand whose options these are, for its messages.
    let command: String
    private(set) var positional: [String] = []
    /// `-h` or `--help` was given.
    private(set) var wantsHelp = false
    /// Every value of each valued option given, in order.
    private var given: [OptionKey: [String]] = [:]
    private var flags: Set<OptionKey> = []
    /// The options parsed with, whether each is a flag.
    private let declared: [OptionKey: Bool]

    /// - Parameter options: the options the subcommand takes; values and flags are stored
    ///   under each option's key, whichever alias was used.
    init(_ words: [String], options: [OptionSpec], command: String) throws(UsageError) {
        self.command = command
        declared = Dictionary(options.map { ($0.key, $0.isFlag) }, uniquingKeysWith: { first, _ in first })
        var canonical: [String: OptionSpec] = [:]
        for option in options {
            for spelling in [option.name] + option.aliases { canonical[spelling] = option }
        }
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
            if name == "h" || name == "help" {
                if inlineValue != nil { throw UsageError("\(Echo.safe(word)): --help takes no value", command: command) }
                wantsHelp = true
            } else if let option = canonical[name], option.isFlag {
                if inlineValue != nil { throw UsageError("\(Echo.safe(word)): --\(option.name) takes no value", command: command) }
                flags.insert(option.key)
            } else if let option = canonical[name] {
                if let inlineValue {
                    given[option.key, default: []].append(inlineValue)
                } else {
                    // A value may start with "-" (a negative number), but not be another option.
                    guard index < words.count, !Arguments.looksLikeOption(words[index]) else {
                        throw UsageError("\(option.key.spelled) needs a value", command: command)
                    }
                    given[option.key, default: []].append(words[index])
                    index += 1
                }
            } else {
                var message = "unknown option '\(Echo.safe(word))'"
                let known = Set(canonical.keys).union(["help"]).filter { $0.count > 1 }
                if let guess = Arguments.closest(to: name, in: known) { message += " (did you mean --\(guess)?)" }
                throw UsageError(message, command: command)
            }
        }
    }

    /// The value of the valued option `key`, the last one when it was given several times;
    /// nil when it was not given.
    func value(_ key: OptionKey) -> String? {
        assert(declared[key] == false, "\(command) reads \(key.spelled), which is not one of its valued options")
        return given[key]?.last
    }

    /// Every value of the valued option `key`, in order (`--param a=1 --param b=2`).
    func values(_ key: OptionKey) -> [String] {
        assert(declared[key] == false, "\(command) reads \(key.spelled), which is not one of its valued options")
        return given[key] ?? []
    }

    /// Whether the flag `key` was given.
    func isSet(_ key: OptionKey) -> Bool {
        assert(declared[key] == true, "\(command) reads \(key.spelled), which is not one of its flags")
        return flags.contains(key)
    }

    /// Whether the subcommand takes the option `key` (`play` has no `--max-run-time`).
    func declares(_ key: OptionKey) -> Bool { declared[key] != nil }

    /// The one positional argument of a command whose declaration takes exactly one
    /// (``PositionalRule/one(_:missing:extraHint:)``, checked when parsed).
    var argument: String { positional.first ?? "" }

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
