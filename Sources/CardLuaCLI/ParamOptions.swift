import CardLua

/// One `--param NAME=X` of `run`, `watch`, `check` or `play`: set the script's tweakable
/// NAME (declared in its `params` table) to X. The syntax is checked when the command
/// line is parsed; the name and the range once the script is loaded.
struct ParamOption: Equatable {
    var name: String
    var value: Double
    /// As given (`rotate=50`), for messages.
    var text: String

    /// Every `--param`, in order.
    static func parse(_ arguments: Arguments, command: String) throws(UsageError) -> [ParamOption] {
        var out: [ParamOption] = []
        for text in arguments.allValues["param"] ?? [] {
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts.first.map(String.init) ?? ""
            let isIdentifier = name.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } == true
                && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            guard parts.count == 2, isIdentifier else {
                throw UsageError("--param: expected NAME=NUMBER, like rotate=50 (got '\(Echo.safe(text))')", command: command)
            }
            guard let value = Double(parts[1].trimmingCharacters(in: .whitespaces)), value.isFinite else {
                throw UsageError("--param \(Echo.safe(text)): expected a number after '=' (got '\(Echo.safe(String(parts[1])))')", command: command)
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
    /// As `LuaEffect.setParams` takes them.
    var overrides: [(name: String, value: Double)] { map { ($0.name, $0.value) } }
}
