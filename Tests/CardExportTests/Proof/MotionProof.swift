import CardLayout
import CardLua
import CardLuaTestSupport
import Foundation

/// The proof of the export's `scrollToItem` helpers and autoplay driver: a script's
/// scenarios are run through the Lua engine, and the compiled export, put where the engine
/// was when each `scrollToItem` or `autoplay` step began, must land (the helper) and rest
/// (each of the driver's advances, called directly: no timer runs) exactly where the
/// engine's step came to rest, within 1e-9. UIKit's animation curve is not compared: the
/// shim's `setContentOffset(_:animated:)` sets the offset the animation ends on.
enum MotionProof {
    /// What the compiled export is asked, in the scenario's order.
    enum Event {
        /// The collection view is put where the engine was (its visible rect) when the next
        /// motion step began: after a step the export does not play (a drag, a jump, a resize).
        case place(Rect)
        /// A `scrollToItem` step and where the engine rested after it.
        case scrollToItem(CardIndexPath, rest: Point)
        /// An `autoplay` step (a new driver): where each of its advances rested.
        case autoplay(rests: [Point])
    }

    /// One scenario of a script, as the engine ran it.
    struct Record {
        var scenario: String
        var numberOfItems: [Int]
        var rightToLeft: Bool
        var events: [Event]
    }

    /// One layout to prove: its Swift and its scenarios' records.
    struct Case {
        var name: String
        var className: String
        var swift: String
        var records: [Record]
    }

    /// Frames and snaps of one run, kept.
    final class Collector: TimelineSink {
        var frames: [Frame] = []
        var snaps: [SnapEvent] = []
        func begin(_ header: Timeline) throws {}
        func frame(_ frame: Frame) throws { frames.append(frame) }
        func snap(_ snap: SnapEvent) throws { snaps.append(snap) }
        func end(_ summary: Timeline) throws {}
    }

    /// Every scenario of the script that has a `scrollToItem` or `autoplay` step, run by the
    /// engine. Each step's end is found by running the scenario up to it (the engine is
    /// deterministic); an autoplay advance rests where the frame the next one fires on shows
    /// the content (at rest), the last one on the step's last frame.
    static func records(source: String, fileName: String) throws -> [Record] {
        let effect = try LuaEffect(source: source, chunkName: fileName)
        var records: [Record] = []
        for name in try effect.scenarioNames() {
            let scenario = try effect.scenario(named: name, defaults: Scenario(name: name, steps: []))
            guard scenario.steps.contains(where: { $0.kind == "scrollToItem" || $0.kind == "autoplay" }) else { continue }
            let runner = ScenarioRunner(effect: effect, scriptName: fileName)
            var events: [Event] = []
            var previous = Collector()
            var placed = false
            for (k, step) in scenario.steps.enumerated() {
                var prefix = scenario
                prefix.steps = Array(scenario.steps[0...k])
                let run = Collector()
                try runner.run(prefix, into: run)
                defer { previous = run }
                guard step.kind == "scrollToItem" || step.kind == "autoplay" else {
                    placed = false
                    continue
                }
                if !placed {
                    // Where the step began: the last frame before it (the first frame, at rest, for the first step).
                    let start = previous.frames.last ?? run.frames[0]
                    events.append(.place(Rect(origin: start.contentOffset, size: start.viewportSize)))
                    placed = true
                }
                if case let .scrollToItem(indexPath, _) = step {
                    events.append(.scrollToItem(indexPath, rest: run.frames.last!.contentOffset))
                } else {
                    let advances = Array(run.snaps.dropFirst(previous.snaps.count))
                    var rests: [Point] = []
                    for (i, _) in advances.enumerated() {
                        if i + 1 < advances.count {
                            let frame = Int((advances[i + 1].time * scenario.framesPerSecond).rounded())
                            rests.append(run.frames[frame].contentOffset)
                        } else {
                            rests.append(run.frames.last!.contentOffset)
                        }
                    }
                    events.append(.autoplay(rests: rests))
                }
            }
            records.append(Record(scenario: name, numberOfItems: scenario.numberOfItems,
                                  rightToLeft: scenario.layoutDirection == .rightToLeft, events: events))
        }
        return records
    }

    /// The driver's input for a record: `items N…`, `rtl`, then `place X Y W H`,
    /// `scroll SECTION ITEM`, `autoplay ADVANCES` lines.
    static func input(for record: Record) -> String {
        var text = "items " + record.numberOfItems.map(String.init).joined(separator: " ") + "\n"
        if record.rightToLeft { text += "rtl\n" }
        for event in record.events {
            switch event {
            case let .place(b): text += "place \(b.origin.x) \(b.origin.y) \(b.size.width) \(b.size.height)\n"
            case let .scrollToItem(indexPath, _): text += "scroll \(indexPath.section) \(indexPath.item)\n"
            case let .autoplay(rests): text += "autoplay \(rests.count)\n"
            }
        }
        return text
    }

    /// main.swift: for each class, a layout in a collection view as an app's, asked for the
    /// helper's offset and scrolled with it (`scroll HX HY X Y`: the helper's answer, then the
    /// content offset after `scrollToItem(at:animated:)`), or given a new autoplay driver
    /// whose `advance()` is called once per advance (`advance X Y`: the offset after it).
    static func mainSource(for cases: [Case]) -> String {
        var text = """
        // The motion proof's driver (generated by Tests/CardExportTests/Proof/MotionProof.swift).
        @_spi(UIKitShimDriver) import UIKit

        \(ProofDriver.dataSourceDeclaration)

        @MainActor struct MotionHooks {
            var layout: UICollectionViewFlowLayout
            var centring: ((IndexPath) -> CGPoint?)?
            var scroll: ((IndexPath) -> Void)?
            var autoplay: ((UICollectionView) -> () -> CGPoint?)?
        }

        let registry: [String: @MainActor () -> MotionHooks] = [

        """
        for c in cases {
            let scrolls = c.swift.contains("func contentOffset(forCenteringItemAt indexPath: IndexPath)")
            let autoplays = c.swift.contains("final class \(c.className)Autoplay")
            text += "    \"\(c.className)\": {\n"
            text += "        let layout = \(c.className)()\n"
            text += "        return MotionHooks(layout: layout,\n"
            text += scrolls ? "            centring: { layout.contentOffset(forCenteringItemAt: $0) },\n" : "            centring: nil,\n"
            text += scrolls ? "            scroll: { layout.scrollToItem(at: $0, animated: true) },\n" : "            scroll: nil,\n"
            text += autoplays
                ? "            autoplay: { view in let driver = \(c.className)Autoplay(collectionView: view); return { driver.advance() } })\n"
                : "            autoplay: nil)\n"
            text += "    },\n"
        }
        if cases.isEmpty { text += "    :\n" }
        text += """
        ]

        func number(_ value: CGFloat) -> String { "\\(Double(value))" }

        @MainActor func play(_ className: String, input inputPath: String, output outputPath: String) throws {
            let hooks = registry[className]!()
            var output = ""
            var counts: [Int] = []
            var rightToLeft = false
            var dataSource: ProofDataSource?
            var view: UICollectionView?
            var advance: (() -> CGPoint?)?
            for line in try String(contentsOfFile: inputPath, encoding: .utf8).split(separator: "\\n") {
                let fields = line.split(separator: " ").map(String.init)
                switch fields[0] {
                case "items":
                    counts = fields.dropFirst().map { Int($0)! }
                case "rtl":
                    rightToLeft = true
                case "place":
                    let n = fields.dropFirst().map { CGFloat(Double($0)!) }
                    let bounds = CGRect(x: n[0], y: n[1], width: n[2], height: n[3])
                    if view == nil {
                        // As an app's: shown at offset 0 first, prepared there.
                        let created = UICollectionView(frame: CGRect(origin: .zero, size: bounds.size),
                                                       collectionViewLayout: hooks.layout)
                        dataSource = ProofDataSource(counts: counts)
                        created.dataSource = dataSource
                        if rightToLeft { created.setEffectiveUserInterfaceLayoutDirection(.rightToLeft) }
                        created.layoutIfNeeded()
                        view = created
                    }
                    view!.bounds = bounds
                    view!.layoutIfNeeded()
                case "scroll":
                    let indexPath = IndexPath(item: Int(fields[2])!, section: Int(fields[1])!)
                    guard let centring = hooks.centring, let scroll = hooks.scroll, let view else {
                        output += "scroll none\\n"
                        continue
                    }
                    let helper = centring(indexPath)
                    scroll(indexPath)
                    view.layoutIfNeeded()
                    output += "scroll \\(helper.map { "\\(number($0.x)) \\(number($0.y))" } ?? "nil nil") "
                    output += "\\(number(view.contentOffset.x)) \\(number(view.contentOffset.y))\\n"
                case "autoplay":
                    guard let make = hooks.autoplay, let view else {
                        output += "autoplay none\\n"
                        continue
                    }
                    advance = make(view)
                    for _ in 0..<Int(fields[1])! {
                        let target = advance!()
                        view.layoutIfNeeded()
                        output += "advance \\(number(view.contentOffset.x)) \\(number(view.contentOffset.y))"
                        output += target == nil ? " nil\\n" : "\\n"
                    }
                default:
                    fatalError("driver: \\(line)")
                }
            }
            _ = dataSource
            try output.write(toFile: outputPath, atomically: true, encoding: .utf8)
        }

        let arguments = CommandLine.arguments
        for job in try String(contentsOfFile: arguments[1], encoding: .utf8).split(separator: "\\n") {
            let words = job.split(separator: "\\t").map(String.init)
            try play(words[0], input: words[1], output: words[2])
        }

        """
        return text
    }

    /// What became of the cases: swiftc's diagnostics in each file, the mismatches of each
    /// class, the steps compared, and swiftc's output when the driver did not build.
    struct Report {
        var diagnostics: [String: [String]] = [:]
        var mismatches: [String: [String]] = [:]
        var compared: [String: (scrolls: Int, advances: Int)] = [:]
        var buildFailure: String?

        func problems(of className: String) -> [String] {
            (diagnostics[className] ?? []) + (mismatches[className] ?? [])
        }
    }

    /// Compiles every case with the driver (one swiftc invocation) and compares.
    static func prove(_ cases: [Case]) throws -> Report {
        var report = Report()
        let directory = try TestSupport.temporaryDirectory(prefix: "cardlua-motion-proof")
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [URL] = []
        for c in cases {
            let url = directory.appendingPathComponent("\(c.className).swift")
            try c.swift.write(to: url, atomically: true, encoding: .utf8)
            files.append(url)
        }
        let main = directory.appendingPathComponent("main.swift")
        try mainSource(for: cases).write(to: main, atomically: true, encoding: .utf8)
        let outcome = try SwiftCompiler.compile(files + [main], into: directory.appendingPathComponent("driver"))
        for diagnostic in outcome.diagnostics {
            let name = ((diagnostic.file as NSString).lastPathComponent as NSString).deletingPathExtension
            report.diagnostics[name, default: []].append(diagnostic.description)
        }
        guard let executable = outcome.executable else {
            report.buildFailure = outcome.output
            return report
        }
        var jobs = ""
        for c in cases {
            for (i, record) in c.records.enumerated() {
                let stem = directory.appendingPathComponent("\(c.className)-\(i)").path
                try input(for: record).write(toFile: stem + ".in", atomically: true, encoding: .utf8)
                jobs += "\(c.className)\t\(stem).in\t\(stem).out\n"
            }
        }
        try jobs.write(to: directory.appendingPathComponent("jobs"), atomically: true, encoding: .utf8)
        let result = try TestSupport.run(executable, [directory.appendingPathComponent("jobs").path], timeout: 300)
        for c in cases {
            var problems: [String] = []
            var scrolls = 0, advances = 0
            for (i, record) in c.records.enumerated() {
                let context = "\(c.name), scenario \(record.scenario)"
                let path = directory.appendingPathComponent("\(c.className)-\(i).out").path
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    problems.append("\(context): the driver failed (status \(result.status)): \(result.stderr.suffix(800))")
                    continue
                }
                var lines = text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }[...]
                func close(_ words: ArraySlice<String>, _ point: Point) -> Bool {
                    let values = words.compactMap(Double.init)
                    return values.count == 2 && abs(values[0] - point.x) <= 1e-9 && abs(values[1] - point.y) <= 1e-9
                }
                for (n, event) in record.events.enumerated() {
                    switch event {
                    case .place:
                        continue
                    case let .scrollToItem(indexPath, rest):
                        guard let words = lines.popFirst(), words.first == "scroll", words.count == 5 else {
                            problems.append("\(context), event \(n + 1): no scrollToItem helper answered")
                            continue
                        }
                        scrolls += 1
                        if !close(words[1...2], rest) || !close(words[3...4], rest) {
                            problems.append("\(context), event \(n + 1): scrollToItem \(indexPath.section)/\(indexPath.item): "
                                + "the engine rests at (\(rest.x), \(rest.y)); the helper answers (\(words[1]), \(words[2])) "
                                + "and scrollToItem(at:animated:) sets (\(words[3]), \(words[4]))")
                        }
                    case let .autoplay(rests):
                        for (k, rest) in rests.enumerated() {
                            guard let words = lines.popFirst(), words.first == "advance", words.count >= 3 else {
                                problems.append("\(context), event \(n + 1): no autoplay driver answered")
                                break
                            }
                            advances += 1
                            if !close(words[1...2], rest) {
                                problems.append("\(context), event \(n + 1), advance \(k + 1): the engine rests at "
                                    + "(\(rest.x), \(rest.y)); the driver at (\(words[1]), \(words[2]))")
                            }
                        }
                    }
                }
            }
            report.mismatches[c.className] = problems
            report.compared[c.className] = (scrolls, advances)
        }
        return report
    }
}
