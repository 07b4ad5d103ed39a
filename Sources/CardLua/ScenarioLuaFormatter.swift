import CardLayout
import Foundation

/// Writes scenarios as the Lua a script defines them with (`scenarios = { … }`), e.g. to
/// save what `InteractiveScrollView` recorded into the effect's file; the writer of what
/// LuaScenarios.swift reads back (`LuaEffect.scenario(named:defaults:)`):
///
/// ```lua
/// scenarios = {
///   recorded = {
///     viewport = "414x736",
///     items = 20,
///     fps = 60,
///     steps = {
///       { wait = 0.5 },
///       { drag = 300, duration = 0.4, velocity = 1.2 },
///     },
///   },
/// }
/// ```
///
/// Numbers are written so that Lua reads back the identical `Double` (whole numbers
/// without a decimal point, others in their shortest round-trip form). `items` is a number
/// for one section and a list (`{ 5, 8, 3 }`) for several; `rtl = true` only right to
/// left; a `scrollToItem` keeps its `section` key only when it is not 0.
public enum ScenarioLuaFormatter {
    /// The whole `scenarios = { … }` block holding `scenarios`, keyed by their names, in order.
    public static func scenariosBlock(_ scenarios: [Scenario]) -> String {
        var out = "scenarios = {\n"
        for scenario in scenarios {
            out += table(scenario, indent: "  ")
        }
        return out + "}\n"
    }

    /// One scenario as the entry `name = { … },` of a `scenarios` table, every line
    /// prefixed with `indent`.
    public static func table(_ scenario: Scenario, indent: String = "") -> String {
        let inner = indent + "  "
        var out = "\(indent)\(key(scenario.name)) = {\n"
        out += "\(inner)viewport = \(size(scenario.viewportSize)),\n"
        out += scenario.numberOfItems.count > 1
            ? "\(inner)items = { \(scenario.numberOfItems.map(String.init).joined(separator: ", ")) },\n"
            : "\(inner)items = \(scenario.numberOfItems.first ?? 0),\n"
        if scenario.layoutDirection == .rightToLeft { out += "\(inner)rtl = true,\n" }
        out += "\(inner)fps = \(number(scenario.framesPerSecond)),\n"
        out += "\(inner)steps = {\n"
        for step in scenario.steps {
            out += "\(inner)  \(self.step(step)),\n"
        }
        out += "\(inner)},\n"
        return out + "\(indent)},\n"
    }

    /// One step as a Lua table constructor, e.g. `{ drag = 300, duration = 0.4 }`.
    public static func step(_ step: ScenarioStep) -> String {
        switch step {
        case let .jump(offset):
            return "{ jump = \(number(offset)) }"
        case let .drag(distance, seconds, velocity):
            let release = velocity.map { ", velocity = \(number($0))" } ?? ""
            return "{ drag = \(number(distance)), duration = \(number(seconds))\(release) }"
        case let .fling(velocity):
            return "{ fling = \(number(velocity)) }"
        case let .wait(seconds):
            return "{ wait = \(number(seconds)) }"
        case let .scrollToItem(indexPath, seconds):
            let section = indexPath.section == 0 ? "" : ", section = \(indexPath.section)"
            return "{ scrollToItem = \(indexPath.item)\(section), duration = \(number(seconds)) }"
        case let .resize(newSize):
            return "{ resize = \(size(newSize)) }"
        case let .autoplay(interval, seconds):
            return "{ autoplay = \(number(interval)), duration = \(number(seconds)) }"
        }
    }

    /// A number Lua reads back exactly (``ParamSetting/text(_:)``: whole numbers as
    /// integers, others in Swift's shortest round-trip form).
    public static func number(_ value: Double) -> String {
        ParamSetting.text(value)
    }

    /// `"WxH"` for whole sizes, `{ width = W, height = H }` otherwise.
    static func size(_ size: Size) -> String {
        let whole = [size.width, size.height].allSatisfy { $0.isFinite && $0 == $0.rounded() && abs($0) < 1e15 }
        return whole ? "\"\(number(size.width))x\(number(size.height))\""
            : "{ width = \(number(size.width)), height = \(number(size.height)) }"
    }

    /// A bare key when the name is a Lua identifier, `["…"]` otherwise.
    static func key(_ name: String) -> String {
        let keywords: Set<String> = ["and", "break", "do", "else", "elseif", "end", "false", "for", "function",
                                     "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then",
                                     "true", "until", "while"]
        let isIdentifier = !name.isEmpty && !keywords.contains(name)
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }
            && !("0"..."9").contains(name.unicodeScalars.first!)
        if isIdentifier { return name }
        var quoted = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    // Three digits, so a digit after it cannot extend the escape.
                    quoted += "\\" + String(format: "%03d", scalar.value)
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return "[\(quoted)\"]"
    }
}
