import CardExport
import CardLayout
import CardLua
import CardRender
import Foundation

/// `cardlua export SCRIPT [-o FILE.swift] [--class NAME] [--param NAME=X …]`: the Swift
/// `UICollectionViewFlowLayout` subclass an app compiles, translated from the script;
/// `cardlua export --check FILE…`: which scripts can be exported;
/// `cardlua export --app DIR SCRIPT`: an app that runs the layout on a phone (``ExportApp``).
///
/// Before translating, the script runs its demo exactly as `cardlua run` would (sandboxed,
/// run's limits, the same `--param` checks), so a script that does not run fails as run
/// reports it, and a `--param` the script does not declare is wrong usage (exit 2).
/// What the translator does not take is one line `file:line: export: …` (exit 1). With
/// `-o` the file only appears, atomically, when the whole translation succeeded.
/// `--tests` also writes `<Class>Tests.swift` beside the `-o` file: XCTest cases that
/// assert the layout's answers at the offsets the demo visited (``ExportTestRecorder``,
/// ``XCTestFile``); both files appear, or neither.
enum ExportCommand {
    static let declaration = CommandDeclaration(
        name: "export", synopsis: "export SCRIPT [-o FILE]",
        summary: "the Swift UICollectionViewFlowLayout an iOS app compiles",
        arguments: .one("SCRIPT", missing: "the script to export", extraHint: "one script at a time; --check takes several"),
        argumentsWith: (.check, .oneOrMore("--check FILE…", missing: "the scripts to check")),
        options: [
            OptionSpec(.output, aliases: ["output"], value: "FILE",
                       summary: "write the Swift there (atomically) instead of standard output"),
            OptionSpec(.className, value: "NAME", summary: "the layout class's name",
                       defaultText: "from the file name, lol.lua → LolLayout", defaultInWords: true),
            OptionTable.param,
            OptionSpec(.tests, summary: "also write <Class>Tests.swift beside the -o file: XCTest cases asserting the layout's "
                           + "answers at the offsets the script's demo visited"),
            OptionSpec(.testModule, value: "NAME", summary: "the app module the tests import @testable (the layout's)",
                       defaultText: "App"),
            OptionSpec(.check, summary: "for each FILE: exportable, or the first reason it is not"),
            OptionSpec(.swiftui, summary: "a SwiftUI carousel view instead (iOS 17; docs/export-swiftui.md)"),
            OptionSpec(.viewName, value: "NAME", summary: "with --swiftui, the view's name",
                       defaultText: "from the file name, lol.lua → LolCarousel", defaultInWords: true),
            OptionSpec(.app, value: "DIR", summary: "write an iOS app there instead (DIR.swiftpm, for Xcode or "
                       + "Swift Playgrounds): the layout in a collection view, ready to run on a phone"),
            OptionSpec(.cards, value: "FOLDER", summary: "with --app: the images the app's cards show "
                       + "(png, jpg, webp, gif), in name order, cycling",
                       defaultText: "a cards folder beside the script, else numbered cards", defaultInWords: true),
        ],
        help: { options in """
        cardlua export — the Swift layout an iOS app compiles, translated from a script

        USAGE: cardlua export SCRIPT [-o FILE.swift] [--class NAME] [--param NAME=X …]
               cardlua export --swiftui SCRIPT [-o FILE.swift] [--name NAME] [--param NAME=X …]
               cardlua export SCRIPT -o FILE.swift --tests [--test-module NAME] …
               cardlua export --check [--swiftui] FILE…
               cardlua export --app DIR SCRIPT [--cards FOLDER] [--class NAME] [--param NAME=X …]

        Translates the script into one self-contained Swift file: import UIKit and a final
        UICollectionViewFlowLayout subclass with prepare(), layoutAttributesForElements(in:),
        layoutAttributesForItem(at:), shouldInvalidateLayout(forBoundsChange:) and
        targetContentOffset(forProposedContentOffset:withScrollingVelocity:), keeping the
        script's names and comments. Tweakables (params) become stored properties that
        invalidate the layout; --param bakes in the values you tuned (or paste play's Copy
        params table into the script). First the script runs its demo as `cardlua run`
        does: a script that fails there fails here the same way, and --param is checked as
        run checks it.
        A construct the translator does not take (a table used as a map, coroutines, string
        building, a wrapping layout, …) is refused with one line, file:line: export: what
        and why, exit status 1, and no -o file. --check prints, per script, "FILE:
        exportable" or the first reason it is not; exit status 0 when all are exportable.
        --tests also writes <Class>Tests.swift (LolLayoutTests.swift) beside the -o file:
        one XCTestCase that hosts the layout in a UICollectionView of the demo's viewport
        and items, sets the content offsets the demo visited (at most 48, evenly spread)
        and asserts each cell's frame, center, transform3D, alpha, zIndex and isHidden, and
        each release's targetContentOffset, within 1e-9 — the proof, for the app's CI. It
        imports the layout's module @testable (--test-module; the class is internal).
        --app DIR writes an app instead, a folder DIR.swiftpm that Xcode and Swift
        Playgrounds open: the layout in a UICollectionView filling the screen, the demo's
        cards showing the --cards images (or numbers), the params baked in. It is written
        whole or not at all; an existing folder that is not empty is never written over.
        docs/export.md has the translation table and how to wire the layout into an app.
        --swiftui writes a SwiftUI view instead (a ScrollView of the cards, each drawn by
        .visualEffect, snapping by a ScrollTargetBehavior; iOS 17): docs/export-swiftui.md.

        \(options)

        EXAMPLES:
          cardlua export scripts/lol.lua -o LolLayout.swift
          cardlua export scripts/lol.lua -o LolLayout.swift --tests --test-module SkinPicker
          cardlua export scripts/effects/fspager-coverflow.lua --class CoverFlowLayout --param itemWidth=240
          cardlua export --swiftui scripts/lol.lua -o LolCarousel.swift
          cardlua export --check scripts/*.lua scripts/effects/*.lua
          cardlua export --app LolDemo scripts/lol.lua
        """ },
        run: main)

    static func main(_ arguments: Arguments) throws -> Int32 {
        if arguments.isSet(.check) { return try check(arguments) }
        if let folder = arguments.value(.app) {
            let given = [OptionKey.swiftui, .tests].filter { arguments.isSet($0) }
                + [OptionKey.viewName, .testModule].filter { arguments.value($0) != nil }
            for option in given {
                throw UsageError("\(option.spelled) cannot be combined with --app (the app shows the UIKit layout)",
                                 command: declaration.name)
            }
            return try ExportApp.main(arguments, folder: folder)
        }
        if arguments.value(.cards) != nil {
            throw UsageError("--cards goes with --app (the images of the app's cards)", command: declaration.name)
        }

        let path = arguments.argument
        let params = try ParamOption.parse(arguments)
        let target = try exportTarget(arguments)
        if target == .swiftui, arguments.isSet(.tests) {
            throw UsageError("--tests proves the UIKit layout in XCTest; it cannot be combined with --swiftui",
                             command: declaration.name)
        }
        let className = try arguments.value(target == .uikit ? .className : .viewName).map { name throws(UsageError) in
            try checkedClassName(name, option: target == .uikit ? "--class" : "--name")
        }
        let outputPath = arguments.value(.output) == "-" ? nil : arguments.value(.output)
        let testModule = try checkedTestModule(arguments)
        if arguments.isSet(.tests) && outputPath == nil {
            throw UsageError("--tests writes <Class>Tests.swift beside the layout: give -o FILE.swift", command: declaration.name)
        }
        // Opened first, as run does, so a bad -o is reported before any work; a regular
        // file only appears (renamed over the target) when everything succeeded.
        let name = className ?? Exporter.className(forFileName: path)
        if arguments.isSet(.tests), let outputPath,
           (outputPath as NSString).standardizingPath == (testsPath(besides: outputPath, className: name) as NSString).standardizingPath {
            throw UsageError("-o \(Echo.safe(outputPath)) is where --tests writes \(name)'s tests: name the layout's file otherwise",
                             command: declaration.name)
        }
        let output = try outputPath.map(OutputFile.open) ?? OutputFile.standardOutput()
        var testsOutput: OutputFile?
        do {
            if arguments.isSet(.tests), let outputPath {
                testsOutput = try OutputFile.open(testsPath(besides: outputPath, className: name))
            }
            let swift = try exportedSwift(path, params: params, className: className, target: target)
            if let testsOutput {
                let plan = try testPlan(path: path, params: params, className: name, testModule: testModule,
                                        exportedSwift: swift)
                try testsOutput.write(XCTestFile.source(for: plan))
            }
            try output.write(swift)
            try output.commit()
            try testsOutput?.commit()
        } catch {
            output.discard()
            testsOutput?.discard()
            throw error  // CardLuaCommand reports it
        }
        return 0
    }

    /// The script's Swift, with the `--param` values baked in, after its demo ran.
    static func exportedSwift(_ path: String, params: [ParamOption], className: String?,
                              target: ExportTarget = .uikit) throws(RunFailure) -> String {
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
        do {
            return try Exporter.export(source: source, fileName: path, className: className, params: values,
                                       switches: switches, choices: choices, target: target)
        } catch {
            throw RunFailure(message: error.description, details: "")
        }
    }

    /// `--check FILE…`: one line per script on standard output, `FILE: exportable` or the
    /// first reason it is not (a `file:line: …` line). Exit 0 when all are exportable.
    private static func check(_ arguments: Arguments) throws -> Int32 {
        let target = try exportTarget(arguments)
        for option in [OptionKey.output, .className, .viewName, .param, .testModule, .app, .cards]
        where arguments.value(option) != nil {
            throw UsageError("\(option.spelled) cannot be combined with --check", command: declaration.name)
        }
        if arguments.isSet(.tests) {
            throw UsageError("--tests cannot be combined with --check", command: declaration.name)
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
            options = try RunOptions(RunCommand.declaration.parse([path]))
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

    /// `--tests`' file: `<Class>Tests.swift` in the `-o` file's folder.
    static func testsPath(besides outputPath: String, className: String) -> String {
        let folder = (outputPath as NSString).deletingLastPathComponent
        return (folder as NSString).appendingPathComponent(className + "Tests.swift")
    }

    /// `--test-module NAME` (default `App`): a Swift module name, and given only with `--tests`.
    private static func checkedTestModule(_ arguments: Arguments) throws(UsageError) -> String {
        guard let name = arguments.value(.testModule) else { return "App" }
        guard arguments.isSet(.tests) else {
            throw UsageError("--test-module names the module the --tests file imports: give --tests too", command: declaration.name)
        }
        let isIdentifier = name.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } == true
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        guard isIdentifier else {
            throw UsageError("--test-module: expected a Swift module name, like MyApp (got '\(Echo.safe(name))')",
                             command: declaration.name)
        }
        return name
    }

    /// The demo run again with every frame and release recorded, as the tests' plan. The
    /// run before the translation succeeded, so a failure here is the engine's own.
    private static func testPlan(path: String, params: [ParamOption], className: String, testModule: String,
                                 exportedSwift: String) throws(RunFailure) -> XCTestPlan {
        var command = "cardlua export --tests " + path
        for param in params { command += " --param " + param.text }
        // One comment line in the generated file: no line breaks or control characters.
        command = String(String.UnicodeScalarView(command.unicodeScalars.map { scalar in
            [.control, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory) ? "?" : scalar
        }))
        do {
            return try ExportTestRecorder.plan(path: path, params: params, limits: RunOptions(RunCommand.declaration.parse([path])).limits,
                                               className: className, testModule: testModule, command: command,
                                               exportedSwift: exportedSwift)
        } catch {
            throw RunFailure(message: "\(Echo.safe(path)): export --tests: \(error)", details: "")
        }
    }

    /// `--class NAME`: a Swift type name that is not taken (``Exporter/classNameProblem(_:)``:
    /// not a keyword, nor a type of Swift, Foundation or UIKit, nor a name the file declares).
    static func checkedClassName(_ name: String, option: String = "--class") throws(UsageError) -> String {
        if let problem = Exporter.classNameProblem(name) {
            throw UsageError("\(option): \(problem)", command: declaration.name)
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
        let swiftUI = arguments.isSet(.swiftui)
        if swiftUI, arguments.value(.className) != nil {
            throw UsageError("--class names the UIKit layout; with --swiftui use --name", command: declaration.name)
        }
        if !swiftUI, arguments.value(.viewName) != nil {
            throw UsageError("--name names the SwiftUI view: add --swiftui (the UIKit layout takes --class)",
                             command: declaration.name)
        }
        return swiftUI ? .swiftui : .uikit
    }
}

/// Output that is thrown away: the demo run before a translation only has to succeed.
private final class DiscardedOutput: TextOutput {
    func write(_ text: String) throws {}
}
