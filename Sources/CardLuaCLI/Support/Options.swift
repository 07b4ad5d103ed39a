import CardLayout
import CardLua

/// One option of a subcommand: how it is spelt, whether it takes a value, its default
/// and what it does. Each command's declaration (``CommandDeclaration``) lists its
/// options: `Arguments` parses with them and the command's help writes its OPTIONS
/// section from them, so the help cannot drift from what is accepted or from the
/// defaults in effect.
struct OptionSpec: Sendable {
    /// What the parsed value is read by; its raw value is the name without dashes.
    var key: OptionKey
    /// Other spellings of the same option (`output` for `-o`, `verbose` for `--frames`).
    var aliases: [String]
    /// The value's placeholder in the help (`WxH`); nil for a flag.
    var value: String?
    /// What it does, one sentence without a final full stop.
    var summary: String
    /// The default as shown in the help, from the constant in effect; nil when none.
    var defaultText: String?
    /// The default is said in words (`(default: the demo)`), not given as a value.
    var defaultInWords: Bool

    init(_ key: OptionKey, aliases: [String] = [], value: String? = nil, summary: String,
         defaultText: String? = nil, defaultInWords: Bool = false) {
        self.key = key
        self.aliases = aliases
        self.value = value
        self.summary = summary
        self.defaultText = defaultText
        self.defaultInWords = defaultInWords
    }

    /// The name without dashes (`viewport`; `o` for `-o`).
    var name: String { key.rawValue }

    /// Whether it is a flag (no value).
    var isFlag: Bool { value == nil }

    /// `--viewport WxH`, `-o, --output FILE`, `--frames, --verbose`.
    var label: String {
        let names = ([name] + aliases).map { $0.count == 1 ? "-\($0)" : "--\($0)" }
        return names.joined(separator: ", ") + (value.map { " " + $0 } ?? "")
    }
}

/// The options several subcommands share, and the OPTIONS section written from a list.
enum OptionTable {
    /// `--max-steps` (`--max-instructions`, its old name), `--max-memory`, `--max-time`,
    /// `--max-run-time`: the script's limits (run, watch, check; play without the last).
    static let limits: [OptionSpec] = {
        let defaults = ScriptLimits()
        return [
            OptionSpec(.maxSteps, aliases: ["max-instructions"], value: "N",
                       summary: "budget steps per callback call, counted at loop and function checkpoints: "
                       + "1.3 to 2.5 steps per Lua VM instruction (--max-instructions is its old name)",
                       defaultText: String(defaults.maxSteps)),
            OptionSpec(.maxMemory, value: "SIZE", summary: "memory cap of the script, like 64M",
                       defaultText: byteSize(defaults.maxMemory)),
            OptionSpec(.maxTime, value: "SECONDS",
                       summary: "wall-clock limit per callback call (transform: per frame, all items together)",
                       defaultText: number(defaults.maxTime)),
            OptionSpec(.maxRunTime, value: "SECONDS", summary: "wall-clock limit of the whole run",
                       defaultText: number(ScriptLimits.defaultRunTime)),
        ]
    }()

    /// `--param NAME=VALUE` (run, watch, check, play, export).
    static let param = OptionSpec(.param, value: "NAME=X",
                                  summary: "set a tweakable the script declares in params (repeatable)")

    /// `--cards DIR` (run, watch, play): real card images (CardsFolder.swift).
    static let cards = OptionSpec(.cards, value: "DIR",
                                  summary: "draw the cards with the images in DIR (png, jpg, webp, gif, svg), in name order, "
                                  + "cycling; HTML and play only", defaultText: "a cards folder beside the script, if any",
                                  defaultInWords: true)

    /// `--viewport WxH` (run, watch, play).
    static let viewport = OptionSpec(.viewport, value: "WxH", summary: "collection view size in points",
                                     defaultText: viewport(Scenario.defaultViewportSize))

    /// `--rtl` (run, watch, play).
    static let rightToLeft = OptionSpec(.rtl, summary: "right to left: a horizontal flow mirrors, item 0 on the right")

    // MARK: Help

    /// The OPTIONS section written from `options`: the label, the summary and, in a column
    /// where it fits, the default; long lines wrap under the summary.
    static func help(_ options: [OptionSpec], width: Int = 86) -> String {
        let labelWidth = max(20, options.map(\.label.count).max() ?? 0) + 2
        let indent = String(repeating: " ", count: 2 + labelWidth)
        var lines = ["OPTIONS:"]
        for option in options {
            var text = option.summary
            if let value = option.defaultText {
                let shown = option.defaultInWords ? "(default: \(value))" : "(default \(value))"
                let column = 38  // where defaults line up, when the summary leaves room
                text = text.count < column
                    ? text + String(repeating: " ", count: column - text.count) + shown
                    : text + " " + shown
            }
            let label = "  " + option.label + String(repeating: " ", count: labelWidth - option.label.count)
            let wrapped = wrap(text, width: width - indent.count)
            lines.append(label + wrapped[0])
            lines += wrapped.dropFirst().map { indent + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` in lines of at most `width` characters, broken at spaces (a run of spaces
    /// inside a line, the default's column, is kept).
    static func wrap(_ text: String, width: Int) -> [String] {
        guard text.count > width else { return [text] }
        var lines: [String] = []
        var rest = Substring(text)
        while rest.count > width {
            let head = rest.prefix(width + 1)
            guard let space = head.lastIndex(of: " ") else { break }
            lines.append(String(rest[..<space]).trimmingTrailingSpaces())
            rest = rest[rest.index(after: space)...].drop(while: { $0 == " " })
        }
        return lines + [String(rest)]
    }

    // MARK: Defaults as shown

    static func number(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    static func viewport(_ size: Size) -> String { number(size.width) + "x" + number(size.height) }

    static func byteSize(_ bytes: Int) -> String {
        for (unit, scale) in [("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)] where bytes % scale == 0 {
            return "\(bytes / scale)\(unit)"
        }
        return String(bytes)
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
