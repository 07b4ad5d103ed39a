import CardLayout
import CardLua

/// One option of a subcommand: how it is spelled, whether it takes a value, its default
/// and what it does. The option tables below are the only place options are declared:
/// `Arguments` parses with them and `Help` writes every OPTIONS section from them, so
/// the help cannot drift from what is accepted or from the defaults in effect.
struct OptionSpec {
    /// The name without dashes (`viewport`; `o` for `-o`).
    var name: String
    /// Other spellings of the same option (`output` for `-o`, `verbose` for `--frames`).
    var aliases: [String] = []
    /// The value's placeholder in the help (`WxH`); nil for a flag.
    var value: String?
    /// What it does, one sentence without a final full stop.
    var summary: String
    /// The default as shown in the help, from the constant in effect; nil when none.
    var defaultText: String?
    /// The default is said in words (`(default: the demo)`), not given as a value.
    var defaultInWords = false

    /// `--viewport WxH`, `-o, --output FILE`, `--frames, --verbose`.
    var label: String {
        let names = ([name] + aliases).map { $0.count == 1 ? "-\($0)" : "--\($0)" }
        return names.joined(separator: ", ") + (value.map { " " + $0 } ?? "")
    }
}

/// The option tables of every subcommand.
enum OptionTable {
    /// `--max-steps` (`--max-instructions`, its old name), `--max-memory`, `--max-time`,
    /// `--max-run-time`: the script's limits (run, watch, check).
    static let limits: [OptionSpec] = {
        let defaults = ScriptLimits()
        return [
            OptionSpec(name: "max-steps", aliases: ["max-instructions"], value: "N",
                       summary: "budget steps per callback call, counted at loop and function checkpoints: "
                       + "1.3 to 2.5 steps per Lua VM instruction (--max-instructions is its old name)",
                       defaultText: String(defaults.maxSteps)),
            OptionSpec(name: "max-memory", value: "SIZE", summary: "memory cap of the script, like 64M",
                       defaultText: byteSize(defaults.maxMemory)),
            OptionSpec(name: "max-time", value: "SECONDS",
                       summary: "wall-clock limit per callback call (transform: per frame, all items together)",
                       defaultText: number(defaults.maxTime)),
            OptionSpec(name: "max-run-time", value: "SECONDS", summary: "wall-clock limit of the whole run",
                       defaultText: number(ScriptLimits.defaultRunTime)),
        ]
    }()

    /// `--param NAME=VALUE` (run, watch, check, play, export).
    static let param = OptionSpec(name: "param", value: "NAME=X",
                                  summary: "set a tweakable the script declares in params (repeatable)")

    /// `--cards DIR` (run, watch, play, gallery): real card images (CardsFolder.swift).
    static let cards = OptionSpec(name: "cards", value: "DIR",
                                  summary: "draw the cards with the images in DIR (png, jpg, webp, gif, svg), in name order, "
                                  + "cycling; HTML and play only", defaultText: "a cards folder beside the script, if any",
                                  defaultInWords: true)

    /// `run` and `watch`.
    static let run: [OptionSpec] = [
        OptionSpec(name: "viewport", value: "WxH", summary: "collection view size in points",
                   defaultText: viewport(Scenario.defaultViewportSize)),
        OptionSpec(name: "items", value: "N[,N…]",
                   summary: "items per section, like 20 or 5,8,3 (at most \(Scenario.maxItems) in all)",
                   defaultText: Scenario.defaultNumberOfItems.map(String.init).joined(separator: ",")),
        OptionSpec(name: "rtl", summary: "right to left: a horizontal flow mirrors, item 0 on the right"),
        OptionSpec(name: "offset", value: "X", summary: "one frame at content offset X on the scroll axis"),
        OptionSpec(name: "fling", value: "V",
                   summary: "release at --offset (default 0) with velocity V pt/ms, frames until rest"),
        OptionSpec(name: "scenario", value: "NAME", summary: "a scenario the script defines",
                   defaultText: "the demo", defaultInWords: true),
        OptionSpec(name: "fps", value: "N", summary: "frames per second of a timeline",
                   defaultText: number(Scenario.defaultFramesPerSecond)),
        OptionSpec(name: "format", value: "F",
                   summary: OutputFormat.allCases.map(\.rawValue).joined(separator: " | "),
                   defaultText: "text, or from the -o file's extension"),
        OptionSpec(name: "o", aliases: ["output"], value: "FILE",
                   summary: "write there (atomically) instead of standard output; - is standard output"),
        OptionSpec(name: "frames", aliases: ["verbose"], summary: "text: every frame, not the one-screen summary"),
        OptionSpec(name: "max-output", value: "SIZE", summary: "the most output a run may write, like 1G",
                   defaultText: byteSize(OutputFile.defaultByteLimit)),
        param,
        cards,
    ] + limits

    /// `play`.
    static let play: [OptionSpec] = [
        OptionSpec(name: "port", value: "N", summary: "port on 127.0.0.1; 0 takes any free one",
                   defaultText: String(PlayCommand.defaultPort)),
        OptionSpec(name: "viewport", value: "WxH", summary: "collection view size in points",
                   defaultText: viewport(Scenario.defaultViewportSize)),
        OptionSpec(name: "items", value: "N[,N…]", summary: "items per section, like 20 or 5,8,3",
                   defaultText: Scenario.defaultNumberOfItems.map(String.init).joined(separator: ",")),
        param,
        OptionSpec(name: "rtl", summary: "right to left: a horizontal flow mirrors, item 0 on the right"),
    ] + playLAN + limits.filter { $0.name != "max-run-time" }  // a live session has no whole-run limit

    /// `play`'s real cards and phone: `--cards`, `--lan` (LANAccess.swift); `--lan-address`
    /// is for tests and is not in the help.
    static let playLAN: [OptionSpec] = [
        cards,
        OptionSpec(name: "lan", summary: "also listen on this machine's LAN address, for a phone: prints a URL with a "
                   + "secret token and its QR code; requests without the token get 403"),
    ]
    /// Options every table accepts but no help shows (tests stand in a second loopback
    /// address for the LAN one with `--lan-address 127.0.0.2`).
    static let hidden: [String: [OptionSpec]] = [
        "play": [OptionSpec(name: "lan-address", value: "IPV4", summary: "the address --lan listens on (tests)")],
    ]

    /// `check`.
    static let check: [OptionSpec] = [
        param,
        OptionSpec(name: "rtl", summary: "right to left: prepare sees effectiveUserInterfaceLayoutDirection \"rightToLeft\""),
        OptionSpec(name: "strict", summary: "warnings fail too (exit status 1)"),
        OptionSpec(name: "viewport", value: "WxH", summary: "check at this viewport too (after 414x736 and 768x1024)"),
    ] + limits

    /// `new`.
    static let new: [OptionSpec] = [
        OptionSpec(name: "from", value: "NAME",
                   summary: "the template or catalogue effect to start from (see --list)",
                   defaultText: Templates.all[0].name),
        OptionSpec(name: "list", summary: "print every NAME with what it looks like and its source"),
    ]

    /// `gallery`.
    static let gallery: [OptionSpec] = [
        OptionSpec(name: "o", aliases: ["output"], value: "FILE", summary: "write the page there instead of standard output"),
        OptionSpec(name: "only", value: "NAME[,NAME…]", summary: "just these effects, in this order (names from new --list)"),
        OptionSpec(name: "fps", value: "N", summary: "frames per second of the demos",
                   defaultText: number(GalleryCommand.defaultFramesPerSecond)),
        OptionSpec(name: "cards", value: "DIR",
                   summary: "draw every effect's cards with the images in DIR, in name order, cycling"),
    ]

    /// `export`.
    static let export: [OptionSpec] = [
        OptionSpec(name: "o", aliases: ["output"], value: "FILE",
                   summary: "write the Swift there (atomically) instead of standard output"),
        OptionSpec(name: "class", value: "NAME", summary: "the layout class's name",
                   defaultText: "from the file name, lol.lua → LolLayout", defaultInWords: true),
        param,
        OptionSpec(name: "check", summary: "for each FILE: exportable, or the first reason it is not"),
        OptionSpec(name: "swiftui", summary: "a SwiftUI carousel view instead (iOS 17; docs/export-swiftui.md)"),
        OptionSpec(name: "name", value: "NAME", summary: "with --swiftui, the view's name",
                   defaultText: "from the file name, lol.lua → LolCarousel", defaultInWords: true),
    ]

    /// `types`.
    static let types: [OptionSpec] = [
        OptionSpec(name: "o", aliases: ["output"], value: "FILE", summary: "write there instead of standard output"),
    ]

    /// `bench`.
    static let bench: [OptionSpec] = {
        let defaults = BenchCommand.Options()
        return [
            OptionSpec(name: "items", value: "N", summary: "items per transform call, per-item figures",
                       defaultText: String(defaults.batch)),
            OptionSpec(name: "iterations", value: "N", summary: "transform calls per repeat",
                       defaultText: "~20000 items", defaultInWords: true),
            OptionSpec(name: "repeat", value: "N", summary: "timed repeats; the median is shown",
                       defaultText: String(defaults.repeats)),
            OptionSpec(name: "frames", value: "N", summary: "offsets in the frame sweep", defaultText: String(defaults.frames)),
            OptionSpec(name: "viewport", value: "WxH", summary: "collection view size in points",
                       defaultText: viewport(defaults.viewport)),
            OptionSpec(name: "twin", value: "NAME", summary: "native twin: lol | card-scale | photo-browser | none",
                       defaultText: "from the script's file name", defaultInWords: true),
            OptionSpec(name: "lua", value: "PATH", summary: "the stock interpreter", defaultText: "lua5.4 on PATH"),
            OptionSpec(name: "stock", summary: "also time the script in the stock interpreter, sandboxed as in run "
                       + "(no io/os/load, the same budget and memory limit, \(number(StockInterpreter.defaultTimeLimit)) s at most)"),
            OptionSpec(name: "scale", summary: "flow layout at 10^3…10^6 items: prepare and a visible-rect query, "
                       + "uniform and per-item sizes (no script needed)"),
            OptionSpec(name: "cold-run", summary: "time `cardlua run SCRIPT` (the demo) end to end, first SCRIPT"),
            OptionSpec(name: "watch-latency", summary: "time `cardlua watch SCRIPT -o out.json` from save to output"),
            OptionSpec(name: "markdown", summary: "print the table as Markdown"),
            OptionSpec(name: "targets", summary: "judge the engine's own performance targets (scripts/bench)"),
            OptionSpec(name: "smoke", summary: "tiny counts: checks that it all runs; figures mean nothing"),
        ]
    }()

    /// The table of `command`.
    static func options(for command: String) -> [OptionSpec] {
        switch command {
        case "run", "watch": run
        case "check": check
        case "play": play
        case "new": new
        case "gallery": gallery
        case "types": types
        case "bench": bench
        case "export": export
        default: []
        }
    }

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
