import CardLayout
import Foundation

/// A value a script declares for tweaking from outside, in its global `params` table
/// (docs/script-api.md, "Tweakables"):
///
/// ```lua
/// params = {
///   rotate = { value = 35, min = 0, max = 90, step = 1, label = "Rotation" },  -- a number
///   wrap = { value = true },                                                    -- on/off
///   style = { value = "cover", options = { "cover", "flat", "stack" } },        -- one of
/// }
/// ```
///
/// Callbacks read `params.rotate` as the value in use: the declared `value`, or an
/// override (`--param rotate=50`, a control of `cardlua play`).
public struct ScriptParam: Hashable, Sendable {
    /// What the value is, and so the control `cardlua play` shows for it.
    public enum Kind: Hashable, Sendable {
        /// A number within min…max (a slider).
        case number
        /// `true` or `false` (a toggle).
        case boolean
        /// One of these strings, in the script's order (a segmented control).
        case options([String])

        /// The kind's name in `play`'s state (`number`, `boolean`, `options`).
        public var name: String {
            switch self {
            case .number: "number"
            case .boolean: "boolean"
            case .options: "options"
            }
        }
    }

    public var name: String
    /// The value in use: the declared one, or the override.
    public var value: ParamSetting
    /// The declared `value`.
    public var defaultValue: ParamSetting
    /// A number's declared `min` and `max` (0 for the other kinds).
    public var minimum: Double
    public var maximum: Double
    /// The declared `step` (a slider's step), if any.
    public var step: Double?
    public var kind: Kind
    /// The declared `label` (what `play` shows instead of the name), if any.
    public var label: String?

    public init(name: String, value: ParamSetting, defaultValue: ParamSetting, minimum: Double = 0, maximum: Double = 0,
                step: Double? = nil, kind: Kind = .number, label: String? = nil) {
        self.name = name
        self.value = value
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.kind = kind
        self.label = label
    }

    /// `text` (a `--param` value as written) as this param's kind takes it: a number,
    /// `true` / `false`, or one of the options exactly. Whether a number is within
    /// min…max is ``LuaEffect/checkParams(_:against:)``'s.
    public func setting(parsing text: String) throws(ParamOverrideError) -> ParamSetting {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch kind {
        case .number:
            guard let x = Double(trimmed), x.isFinite else {
                throw ParamOverrideError(name: name, text: numberExpected(got: "'\(text)'"))
            }
            return .number(x)
        case .boolean:
            switch trimmed {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            default:
                throw ParamOverrideError(name: name, text: "params.\(name) is on/off: expected true or false (got '\(text)')")
            }
        case let .options(options):
            guard options.contains(trimmed) else {
                throw ParamOverrideError(name: name, text: Self.notAnOption(text, name: name, options: options))
            }
            return .option(trimmed)
        }
    }

    /// "params.tilt is a number from 0 to 1: type one, like --param tilt=0.9 (got 'yes')":
    /// which value to type, the default as the example.
    func numberExpected(got: String) -> String {
        let n = Suggest.number
        let example: String = if case let .number(x) = defaultValue { n(x) } else { n(minimum) }
        return "params.\(name) is a number from \(n(minimum)) to \(n(maximum)): type one, like --param \(name)=\(example) (got \(got))"
    }

    /// "'flt' is not one of params.style's options (cover, flat, stack); did you mean flat?"
    static func notAnOption(_ text: String, name: String, options: [String]) -> String {
        var message = "'\(text)' is not one of params.\(name)'s options (\(options.joined(separator: ", ")))"
        // Options are short words: one edit is a typo even below Suggest's four letters.
        if let guess = Suggest.closest(to: text, in: options)
            ?? options.first(where: { text.utf8.count <= 64 && Suggest.distance(text.lowercased(), $0.lowercased()) <= 1 })
            ?? options.first(where: { !text.isEmpty && $0.lowercased().hasPrefix(text.lowercased()) }) {
            message += "; did you mean \(guess)?"
        }
        return message
    }
}

/// An override the script cannot take: a name it does not declare, or a value outside
/// the declaration's min…max. For a command line, wrong usage.
public struct ParamOverrideError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The override's name as given.
    public var name: String
    /// What is wrong, one line, without the override itself (`outside 0…90, params.rotate's
    /// min…max`).
    public var text: String
    /// For a value outside the declaration's min…max: the declared text of the range
    /// (`0…90`), so that a message can show the value as the user wrote it
    /// (``message(value:)``) rather than as a number formatted back.
    public var declaredRange: String?

    public init(name: String, text: String, declaredRange: String? = nil) {
        self.name = name
        self.text = text
        self.declaredRange = declaredRange
    }

    /// ``text``, with the value as `written` (`90.`, `1.50`) where the error is about it.
    public func message(value written: String) -> String {
        guard let declaredRange else { return text }
        return "\(written) is outside \(declaredRange) (params.\(name)'s min…max)"
    }

    public var description: String { text }
}

extension LuaEffect {
    /// After the script ran: its `params` declarations checked (a bad one is a script
    /// error at its line) and the global made a table of plain values. ``params`` is in
    /// the order the script declares them (``SourceIndex/paramOrder(_:)``).
    func readParams() throws(ScriptError) {
        let read: [ScriptParam]
        do {
            read = try declaredParams()
        } catch where error.text.hasPrefix("params") {
            // The prelude's own complaint (no line of the script raised it): at the entry.
            throw error.at(line: SourceIndex(source: source).paramLine(forMessage: error.text))
        }
        // Most scripts declare no params or one: no order to find, no parse of the source.
        guard read.count > 1 else {
            params = read
            return
        }
        let byName = Dictionary(read.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        params = SourceIndex(source: source, chunkName: chunkName).paramOrder(read.map(\.name)).compactMap { byName[$0] }
    }

    /// Sets every tweakable to its declared value, then to `overrides` (later entries
    /// win), after checking them all with ``checkParams(_:against:)``: nothing changes
    /// when one is wrong. Takes effect from the next callback call.
    public func setParams(_ overrides: [(name: String, value: ParamSetting)]) throws(ParamOverrideError) {
        try Self.checkParams(overrides, against: params)
        var values = params
        for index in values.indices { values[index].value = values[index].defaultValue }
        for (name, value) in overrides {
            if let index = values.firstIndex(where: { $0.name == name }) { values[index].value = value }
        }
        guard !values.isEmpty else { return }
        do {
            try writeParams(values)
        } catch {
            // Only a limit reached earlier can stop this (the state is then unusable anyway).
            throw ParamOverrideError(name: overrides.first?.name ?? "", text: error.text)
        }
        params = values
    }

    /// Overrides as written (`--param NAME=TEXT`), each read as its param's kind takes
    /// it (``ScriptParam/setting(parsing:)``) and checked (``checkParams(_:against:)``).
    public static func parseParams(_ overrides: [(name: String, text: String)],
                                   against params: [ScriptParam]) throws(ParamOverrideError) -> [(name: String, value: ParamSetting)] {
        var out: [(name: String, value: ParamSetting)] = []
        for (name, text) in overrides {
            guard let param = params.first(where: { $0.name == name }) else {
                try checkParams([(name, .number(0))], against: params)  // says which name was meant
                continue
            }
            out.append((name, try param.setting(parsing: text)))
        }
        try checkParams(out, against: params)
        return out
    }

    /// Checks `overrides` against the declarations: each name declared (else a "did you
    /// mean"), each value of the declared kind: a finite number within min…max, a
    /// boolean, or one of the options.
    public static func checkParams(_ overrides: [(name: String, value: ParamSetting)],
                                   against params: [ScriptParam]) throws(ParamOverrideError) {
        for (name, setting) in overrides {
            guard let param = params.first(where: { $0.name == name }) else {
                if params.isEmpty {
                    throw ParamOverrideError(name: name, text: "the script declares no params")
                }
                let names = params.map(\.name)
                if let guess = Suggest.closest(to: name, in: names) ?? closePrefix(name, names) {
                    throw ParamOverrideError(name: name, text: "the script has no param '\(name)'; did you mean \(guess)?")
                }
                throw ParamOverrideError(name: name, text: "the script has no param '\(name)' (it declares "
                                         + names.joined(separator: ", ") + ")")
            }
            switch (param.kind, setting) {
            case let (.number, .number(value)):
                guard value.isFinite else {
                    throw ParamOverrideError(name: name, text: "expected a finite number")
                }
                guard value >= param.minimum, value <= param.maximum else {
                    let range = "\(Suggest.number(param.minimum))…\(Suggest.number(param.maximum))"
                    throw ParamOverrideError(name: name, text: "\(Suggest.number(value)) is outside \(range) "
                                             + "(params.\(name)'s min…max)", declaredRange: range)
                }
            case (.boolean, .boolean):
                break
            case let (.options(options), .option(text)):
                guard options.contains(text) else {
                    throw ParamOverrideError(name: name, text: ScriptParam.notAnOption(text, name: name, options: options))
                }
            case (.number, _):
                throw ParamOverrideError(name: name, text: param.numberExpected(got: "\(setting)"))
            case (.boolean, _):
                throw ParamOverrideError(name: name, text: "params.\(name) is on/off: expected true or false (got \(setting))")
            case let (.options(options), _):
                throw ParamOverrideError(name: name, text: ScriptParam.notAnOption(setting.description, name: name, options: options))
            }
        }
    }

    /// A name the wrong one starts or ends (`rot` for `rotate`), for short names that
    /// the edit distance does not reach.
    private static func closePrefix(_ name: String, _ names: [String]) -> String? {
        guard name.count >= 2 else { return nil }
        let lower = name.lowercased()
        return names.first { $0.lowercased().hasPrefix(lower) }
    }

    /// Lua's "attempt to index a number value (field 'rotate')" for a declared param:
    /// the script read `params.rotate.value`; says what to read instead.
    func paramHint(_ message: String) -> String {
        for param in params {
            let (type, what) = switch param.kind {
            case .number: ("number", "number")
            case .boolean: ("boolean", "true or false")
            case .options: ("string", "string")
            }
            guard message.contains("attempt to index a \(type) value (field '\(param.name)')") else { continue }
            return message + "; params.\(param.name) is the \(what) itself (read params.\(param.name), "
                + "not params.\(param.name).value)"
        }
        return message
    }
}
