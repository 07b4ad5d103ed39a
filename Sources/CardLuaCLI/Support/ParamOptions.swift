import CardLua

/// One `--param NAME=X` of `run`, `watch`, `check` or `play`: set the script's tweakable
/// NAME (declared in its `params` table) to X: a number, `true` / `false` for an on/off
/// param, or one of its options. The syntax is checked when the command line is parsed;
/// the name, the kind and the range once the script is loaded.
struct ParamOption: Equatable {
    var name: String
    /// What follows the `=`, as written.
    var value: String
    /// As given (`rotate=50`), for messages.
    var text: String

    /// Every `--param`, in order.
    static func parse(_ arguments: Arguments) throws(UsageError) -> [ParamOption] {
        let command = arguments.command
        var out: [ParamOption] = []
        for text in arguments.values(.param) {
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts.first.map(String.init) ?? ""
            let isIdentifier = name.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } == true
                && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            guard parts.count == 2, isIdentifier else {
                throw UsageError("--param: expected NAME=VALUE, like rotate=50 or wrap=true (got '\(Echo.safe(text))')", command: command)
            }
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            guard !value.isEmpty else {
                throw UsageError("--param \(Echo.safe(text)): expected a value after '=' (a number, true or false, or an option)", command: command)
            }
            // Whatever the param's kind: a number, true / false, or an option — one line of
            // at most 80 bytes (the prelude's bound on options).
            let couldBeOption = value.utf8.count <= 80 && !value.unicodeScalars.contains { $0.properties.generalCategory == .control }
            guard Double(value) != nil || couldBeOption else {
                throw UsageError("--param \(Echo.safe(text)): expected a number, true or false, or one of the param's options after '='",
                                 command: command)
            }
            out.append(ParamOption(name: name, value: value, text: text))
        }
        return out
    }

    /// The one line of a usage failure for an override the script refuses:
    /// `cardlua: --param rotat=50: the script has no param 'rotat'; did you mean rotate?`.
    static func message(_ error: ParamOverrideError, in options: [ParamOption]) -> String {
        let given = options.first { $0.name == error.name }?.text ?? error.name
        // The value as the user wrote it (`90.`, not `90`): what follows the `=`.
        let written = given.split(separator: "=", maxSplits: 1).dropFirst().first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let text = written.isEmpty ? error.text : error.message(value: written)
        return "cardlua: --param \(Echo.safe(given)): \(Echo.safe(text, limit: 2 * Echo.maximumLength))"
    }
}

extension Array where Element == ParamOption {
    /// As written, for `LuaEffect.parseParams` once the script is loaded.
    var overrides: [(name: String, text: String)] { map { ($0.name, $0.value) } }
}
