import Foundation

/// The table `cardlua bench` prints, a row at a time as each figure is measured: what,
/// the median, its unit, ratios against the floors (the same script in the stock
/// interpreter, a bare `lua_pcall`, the native Swift twin), and the target if there is
/// one. Plain columns for a terminal, or Markdown (`--markdown`) for BENCHMARKS.md.
struct BenchTable {
    enum Unit {
        case nsPerItem, nsPerCall, usPerItem, usPerFrame, usPerCall, msPerCall, msWall

        var label: String {
            switch self {
            case .nsPerItem: "ns/card"
            case .nsPerCall: "ns/call"
            case .usPerItem: "µs/card"
            case .usPerFrame: "µs/frame"
            case .usPerCall: "µs"
            case .msPerCall, .msWall: "ms"
            }
        }

        /// The median (nanoseconds) in this unit.
        func value(_ ns: Double) -> String {
            guard ns.isFinite else { return "n/a" }
            switch self {
            case .nsPerItem, .nsPerCall: return String(format: "%.1f", ns)
            case .usPerItem, .usPerFrame, .usPerCall: return String(format: ns < 10_000 ? "%.3f" : "%.1f", ns / 1000)
            case .msPerCall, .msWall: return String(format: "%.2f", ns / 1_000_000)
            }
        }
    }

    let markdown: Bool
    /// Whether targets are judged (met / MISSED): release builds at full counts only.
    let judged: Bool
    private var startedTable = false

    /// Whether the engine's targets are shown at all (`--targets`).
    let showsTargets: Bool

    /// Whether the column of ratios to the stock interpreter is shown (`--stock`).
    let showsStock: Bool

    init(markdown: Bool, judged: Bool, showsTargets: Bool = false, showsStock: Bool = false) {
        self.showsTargets = showsTargets
        self.showsStock = showsStock
        self.markdown = markdown
        self.judged = judged
    }

    /// The widths of the columns before the note.
    private var widths: [Int] { showsStock ? [56, 10, 9, 9, 9, 9] : [56, 10, 9, 9, 9] }

    /// `cells` without the stock interpreter's column (the fourth) unless it is shown.
    private func shown(_ cells: [String]) -> [String] {
        showsStock ? cells : Array(cells.prefix(3) + cells.dropFirst(4))
    }

    mutating func header(_ lines: [String]) {
        for line in lines { Console.out((markdown ? "" : "") + line + (markdown ? "  \n" : "\n")) }
        Console.out("\n")
    }

    mutating func note(_ text: String) {
        Console.out(text + "\n")
    }

    mutating func section(_ title: String) {
        if !startedTable {
            startedTable = true
            let columns = shown(["what", "median", "unit", "× lua5.4", "× pcall", "× Swift",
                                 showsTargets ? "target / note" : "note"])
            if markdown {
                Console.out("| " + columns.joined(separator: " | ") + " |\n")
                Console.out("|---|--:|---|" + String(repeating: "--:|", count: columns.count - 4) + "---|\n")
            } else {
                Console.out(line(columns) + "\n")
            }
        }
        if markdown {
            Console.out("| **\(title)** |" + String(repeating: " |", count: shown(Array(repeating: "", count: 7)).count - 1) + "\n")
        } else {
            Console.out("-- \(title)\n")
        }
    }

    /// One measured figure. Ratios are this row's median over the reference's.
    mutating func row(_ what: String, ns: Double, unit: Unit, lua: Double? = nil, pcall: Double? = nil,
                      swift: Double? = nil, target: Target? = nil, note: String? = nil) {
        let cells = [what, unit.value(ns), unit.label, BenchTable.ratio(lua), BenchTable.ratio(pcall),
                     BenchTable.ratio(swift),
                     [showsTargets ? target?.text(judged: judged) : nil, note].compactMap { $0 }.joined(separator: "; ")]
        emit(cells)
    }

    /// A row without a figure (something that could not be measured here, and why).
    mutating func missing(_ what: String, reason: String) {
        emit([what, "n/a", "", "", "", "", reason])
    }

    private func emit(_ all: [String]) {
        let cells = shown(all)
        if markdown {
            Console.out("| " + cells.map { $0.isEmpty ? " " : $0 }.joined(separator: " | ") + " |\n")
        } else {
            Console.out(line(cells) + "\n")
        }
    }

    private func line(_ cells: [String]) -> String {
        var out = ""
        for (i, cell) in cells.enumerated() {
            if i < widths.count {
                let width = widths[i]
                let pad = max(0, width - cell.count)
                // Names left-aligned, figures right-aligned.
                out += i == 0 || i == 2 ? cell + String(repeating: " ", count: pad) : String(repeating: " ", count: pad) + cell
                out += " "
            } else {
                out += " " + cell
            }
        }
        while out.hasSuffix(" ") { out.removeLast() }
        return out
    }

    func flush() {}

    static func ratio(_ r: Double?) -> String {
        guard let r else { return "" }
        guard r.isFinite else { return "n/a" }
        return String(format: r < 10 ? "%.2f×" : "%.0f×", r)
    }

    /// Nanoseconds in the nearest readable unit ("5 µs", "150 ms").
    static func human(_ ns: Double) -> String {
        if ns >= 1_000_000 { return String(format: "%g ms", ns / 1_000_000) }
        if ns >= 1000 { return String(format: "%g µs", ns / 1000) }
        return String(format: "%g ns", ns)
    }
}
