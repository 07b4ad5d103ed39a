/// The value of one of a script's tweakables (its `params`): a number (a slider), on/off
/// (a toggle) or one of the strings the script lists as its `options` (a segmented
/// control). A literal number is a ``number(_:)``.
public enum ParamSetting: Hashable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
                          ExpressibleByBooleanLiteral, CustomStringConvertible {
    case number(Double)
    case boolean(Bool)
    case option(String)

    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }

    /// The number, for a ``number(_:)``.
    public var number: Double? {
        if case let .number(x) = self { return x }
        return nil
    }

    /// As Lua reads it back exactly and a command line writes it: the shortest
    /// round-tripping number, `true` / `false`, or the option itself.
    public var description: String {
        switch self {
        case let .number(x): Self.text(x)
        case let .boolean(b): b ? "true" : "false"
        case let .option(text): text
        }
    }

    /// A number as Lua reads it back exactly (and a command line writes it): whole numbers
    /// as integers, others in Swift's shortest round-trip form (`0.1`, `1e-05`), which
    /// Lua's `tonumber` rounds back to the same `Double`; NaN and the infinities as Lua
    /// expressions (`0/0`, `math.huge`). The scenario writer in CardLua writes its numbers
    /// with it too.
    public static func text(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        if value.isNaN { return "0/0" }
        if value.isInfinite { return value > 0 ? "math.huge" : "-math.huge" }
        return "\(value)"
    }
}
