import CardExport
import CardLayout
import CardLua
import CardRender
import Foundation

/// `cardlua export SCRIPT [-o FILE.swift] [--class NAME] [--param NAME=X …]`: the Swift
/// `UICollectionViewFlowLayout` subclass an app compiles, translated from the script;
/// `cardlua export --check FILE…`: which scripts can be exported.
///
/// Before translating, the script runs its demo exactly as `cardlua run` would (sandboxed,
/// run's limits, the same `--param` checks), so a script that does not run fails as run
/// reports it, and a `--param` the script does not declare is wrong usage (exit 2).
/// What the translator does not take is one line `file:line: export: …` (exit 1). With
/// `-o` the file only appears, atomically, when the whole translation succeeded.
enum ExportCommand {
    static func main(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments(words, command: "export")
        if CardLuaCommand.printedHelp(arguments, command: "export") { return 0 }
        if arguments.flags.contains("check") { return try check(arguments) }

        guard let path = arguments.positional.first else {
            throw UsageError("missing the script to export (cardlua export SCRIPT)", command: "export")
        }
        if arguments.positional.count > 1 {
            throw UsageError("unexpected argument '\(arguments.positional[1])' (one script at a time; "
                             + "--check takes several)", command: "export")
        }
        let params = try ParamOption.parse(arguments, command: "export")
        let target = try exportTarget(arguments)
        let className = try arguments.values[target == .uikit ? "class" : "name"].map { name throws(UsageError) in
            try checkedClassName(name, option: target == .uikit ? "--class" : "--name")
        }
        let outputPath = arguments.values["o"] == "-" ? nil : arguments.values["o"]
        // Opened first, as run does, so a bad -o is reported before any work; a regular
        // file only appears (renamed over the target) when everything succeeded.
        let output = try outputPath.map(OutputFile.open) ?? OutputFile.standardOutput()
        do {
            let source = try loadAndRun(path, params: params)
            // Later --param entries win, as they do for run. The run above read each as its
            // param's kind takes it: a number, true / false, or an option.
            var values: [String: Double] = [:], switches: [String: Bool] = [:], choices: [String: String] = [:]
            for param in params {
                if let x = Double(param.value) { values[param.name] = x }
                else if param.value == "true" || param.value == "false" { switches[param.name] = param.value == "true" }
                else { choices[param.name] = param.value }
            }
            if target == .swiftui {
                try checkOneCardALine(source, path: path, params: values.mapValues(ParamSetting.number)
                    .merging(switches.mapValues(ParamSetting.boolean)) { a, _ in a })
            }
            let swift: String
            do {
                swift = try Exporter.export(source: source, fileName: path, className: className, params: values,
                                            switches: switches, choices: choices, target: target)
            } catch {
                throw RunFailure(message: error.description, details: "")
            }
            try output.write(swift)
            try output.commit()
        } catch {
            output.discard()
            throw error  // CardLuaCommand reports it
        }
        return 0
    }

    /// `--check FILE…`: one line per script on standard output, `FILE: exportable` or the
    /// first reason it is not (a `file:line: …` line). Exit 0 when all are exportable.
    private static func check(_ arguments: Arguments) throws -> Int32 {
        guard !arguments.positional.isEmpty else {
            throw UsageError("missing the scripts to check (cardlua export --check FILE…)", command: "export")
        }
        let target = try exportTarget(arguments)
        for option in ["o", "class", "name", "param"] where arguments.values[option] != nil {
            let spelled = option == "o" ? "-o" : "--\(option)"
            throw UsageError("\(spelled) cannot be combined with --check", command: "export")
        }
        var allExportable = true
        for path in arguments.positional {
            let line: String
            do {
                let source = try loadAndRun(path, params: [])
                if target == .swiftui { try checkOneCardALine(source, path: path, params: [:]) }
                _ = try Exporter.export(source: source, fileName: path, className: nil, params: [:], target: target)
                line = "\(path): exportable"
            } catch let failure as RunFailure {
                line = failure.message
                allExportable = false
            } catch let error as ExportError {
                line = error.description
                allExportable = false
            }
            Console.out(Echo.safe(line, limit: nil) + "\n")  // a file name's control characters escaped
        }
        return allExportable ? 0 : 1
    }

    /// Runs the script's demo as `cardlua run SCRIPT` does (its output discarded) and
    /// returns the script's text: what runs is what is translated.
    private static func loadAndRun(_ path: String, params: [ParamOption]) throws(RunFailure) -> String {
        var options: RunOptions
        do {
            options = try RunOptions(Arguments([path], command: "run"), command: "export")
        } catch {
            throw RunFailure(message: "cardlua: \(error.message)", details: "", isUsage: true)
        }
        options.params = params
        options.format = .json
        var warnings: [String] = []
        try RunPipeline.run(options, into: DiscardedOutput(), color: false, columns: 80, warnings: &warnings)
        do {
            return try ScriptFile.read(path: path)
        } catch {
            throw RunFailure(message: RunPipeline.shown(error.message, path: path), details: "")
        }
    }

    /// `--class NAME`: a Swift type name that is not taken (``Exporter/classNameProblem(_:)``:
    /// not a keyword, nor a type of Swift, Foundation or UIKit, nor a name the file declares).
    static func checkedClassName(_ name: String, option: String = "--class") throws(UsageError) -> String {
        if let problem = Exporter.classNameProblem(name) {
            throw UsageError("\(option): \(problem)", command: "export")
        }
        return name
    }

    /// The SwiftUI carousel's stack holds one card a line; a flow that fits several across
    /// (a grid) at the demo's viewport is refused, from the engine's own layout of the demo:
    /// the translator cannot know the sizes, which prepare computes from the bounds.
    static func checkOneCardALine(_ source: String, path: String, params: [String: ParamSetting]) throws(RunFailure) {
        let layout: FlowLayout
        do {
            let effect = try LuaEffect(source: source, chunkName: path)
            try effect.setParams(params.map { (name: $0.key, value: $0.value) })
            layout = try ScenarioRunner(effect: effect, scriptName: path)
                .preparedLayout(viewportSize: Scenario.defaultViewportSize, numberOfItems: Scenario.defaultNumberOfItems)
        } catch {
            return  // the demo ran above: nothing new to report here
        }
        guard let first = layout.layoutAttributesForItem(at: CardIndexPath(item: 0, section: 0)),
              let second = layout.layoutAttributesForItem(at: CardIndexPath(item: 1, section: 0)) else { return }
        let horizontal = layout.configuration.scrollDirection == .horizontal
        let sameLine = horizontal ? first.frame.origin.x == second.frame.origin.x : first.frame.origin.y == second.frame.origin.y
        guard sameLine else { return }
        let line = source.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.hasPrefix("function prepare") }.map { $0 + 1 } ?? 1
        throw RunFailure(message: ExportError(fileName: path, line: line, message: "several cards a line are not supported "
            + "(the flow fits more than one item across at the demo's viewport, a grid, and the carousel's stack holds one "
            + "card a line; make layout.itemSize wider than half the line, or export for UIKit)", target: .swiftui).description,
                         details: "")
    }

    /// `--swiftui`: the SwiftUI back end; `--name` belongs to it, `--class` to UIKit's.
    static func exportTarget(_ arguments: Arguments) throws(UsageError) -> ExportTarget {
        let swiftUI = arguments.flags.contains("swiftui")
        if swiftUI, arguments.values["class"] != nil {
            throw UsageError("--class names the UIKit layout; with --swiftui use --name", command: "export")
        }
        if !swiftUI, arguments.values["name"] != nil {
            throw UsageError("--name names the SwiftUI view: add --swiftui (the UIKit layout takes --class)", command: "export")
        }
        return swiftUI ? .swiftui : .uikit
    }
}

/// Output that is thrown away: the demo run before a translation only has to succeed.
private final class DiscardedOutput: TextOutput {
    func write(_ text: String) throws {}
}
