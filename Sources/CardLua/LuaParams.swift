import CardLayout
import Foundation

/// A number a script declares for tweaking from outside, in its global `params` table
/// (docs/script-api.md, "Tweakables"):
///
/// ```lua
/// params = { rotate = { value = 35, min = 0, max = 90, step = 1 } }
/// ```
///
/// Callbacks read `params.rotate` as the number in use: the declared `value`, or an
/// override (`--param rotate=50`, a slider of `cardlua play`).
public struct ScriptParam: Hashable, Sendable {
    public var name: String
    /// The value in use: the declared one, or the override.
    public var value: Double
    /// The declared `value`.
    public var defaultValue: Double
    public var minimum: Double
    public var maximum: Double
    /// The declared `step` (a slider's step), if any.
    public var step: Double?

    public init(name: String, value: Double, defaultValue: Double, minimum: Double, maximum: Double,
                step: Double? = nil) {
        self.name = name
        self.value = value
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
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
    /// error at its line) and the global made a table of numbers.
    func readParams() throws(ScriptError) {
        let text: String
        do {
            text = try internalString("params")
        } catch where error.text.hasPrefix("params") {
            // The prelude's own complaint (no line of the script raised it): at the entry.
            throw error.at(line: SourceIndex(source: source).paramLine(forMessage: error.text))
        }
        params = text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 5, let value = Double(f[1]), let low = Double(f[2]), let high = Double(f[3]) else {
                return nil
            }
            return ScriptParam(name: f[0], value: value, defaultValue: value, minimum: low, maximum: high,
                               step: Double(f[4]))
        }
    }

    /// Sets every tweakable to its declared value, then to `overrides` (later entries
    /// win), after checking them all with ``checkParams(_:against:)``: nothing changes
    /// when one is wrong. Takes effect from the next callback call.
    public func setParams(_ overrides: [(name: String, value: Double)]) throws(ParamOverrideError) {
        try Self.checkParams(overrides, against: params)
        var values = params
        for index in values.indices { values[index].value = values[index].defaultValue }
        for (name, value) in overrides {
            if let index = values.firstIndex(where: { $0.name == name }) { values[index].value = value }
        }
        guard !values.isEmpty else { return }
        let text = values.map { "\($0.name)\t\(ScenarioLuaFormatter.number($0.value))" }.joined(separator: "\n")
        do {
            _ = try internalString("setParams", argument: text)
        } catch {
            // Only a limit reached earlier can stop this (the state is then unusable anyway).
            throw ParamOverrideError(name: overrides.first?.name ?? "", text: error.text)
        }
        params = values
    }

    /// Checks `overrides` against the declarations: each name declared (else a "did you
    /// mean"), each value a finite number within min…max.
    public static func checkParams(_ overrides: [(name: String, value: Double)],
                                   against params: [ScriptParam]) throws(ParamOverrideError) {
        for (name, value) in overrides {
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
            guard value.isFinite else {
                throw ParamOverrideError(name: name, text: "expected a finite number")
            }
            guard value >= param.minimum, value <= param.maximum else {
                let range = "\(Suggest.number(param.minimum))…\(Suggest.number(param.maximum))"
                throw ParamOverrideError(name: name, text: "\(Suggest.number(value)) is outside \(range) "
                                         + "(params.\(name)'s min…max)", declaredRange: range)
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
        for param in params where message.contains("attempt to index a number value (field '\(param.name)')") {
            return message + "; params.\(param.name) is the number itself (read params.\(param.name), "
                + "not params.\(param.name).value)"
        }
        return message
    }
}
