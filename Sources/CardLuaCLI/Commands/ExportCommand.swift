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
        ],
        help: { options in """
        cardlua export — the Swift layout an iOS app compiles, translated from a script

        USAGE: cardlua export SCRIPT [-o FILE.swift] [--class NAME] [--param NAME=X …]
               cardlua export SCRIPT -o FILE.swift --tests [--test-module NAME] …
               cardlua export --check FILE…

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
        docs/export.md has the translation table and how to wire the layout into an app.

        \(options)

        EXAMPLES:
          cardlua export scripts/lol.lua -o LolLayout.swift
          cardlua export scripts/lol.lua -o LolLayout.swift --tests --test-module SkinPicker
          cardlua export scripts/effects/fspager-coverflow.lua --class CoverFlowLayout --param itemWidth=240
          cardlua export --check scripts/*.lua scripts/effects/*.lua
        """ },
        run: main)

    static func main(_ arguments: Arguments) throws -> Int32 {
        if arguments.isSet(.check) { return try check(arguments) }

        let path = arguments.argument
        let params = try ParamOption.parse(arguments)
        let className = try arguments.value(.className).map { name throws(UsageError) in try checkedClassName(name) }
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
            let source = try loadAndRun(path, params: params)
            // Later --param entries win, as they do for run. The run above read each as its
            // param's kind takes it: a number, true / false, or an option.
            var values: [String: Double] = [:], switches: [String: Bool] = [:], choices: [String: String] = [:]
            for param in params {
                if let x = Double(param.value) { values[param.name] = x }
                else if param.value == "true" || param.value == "false" { switches[param.name] = param.value == "true" }
                else { choices[param.name] = param.value }
            }
            let swift: String
            do {
                swift = try Exporter.export(source: source, fileName: path, className: className, params: values,
                                            switches: switches, choices: choices)
            } catch {
                throw RunFailure(message: error.description, details: "")
            }
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

    /// `--check FILE…`: one line per script on standard output, `FILE: exportable` or the
    /// first reason it is not (a `file:line: …` line). Exit 0 when all are exportable.
    private static func check(_ arguments: Arguments) throws -> Int32 {
        for option in [OptionKey.output, .className, .param, .testModule] where arguments.value(option) != nil {
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
                _ = try Exporter.export(source: source, fileName: path, className: nil, params: [:])
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
    static func checkedClassName(_ name: String) throws(UsageError) -> String {
        if let problem = Exporter.classNameProblem(name) {
            throw UsageError("--class: \(problem)", command: declaration.name)
        }
        return name
    }
}

/// Output that is thrown away: the demo run before a translation only has to succeed.
private final class DiscardedOutput: TextOutput {
    func write(_ text: String) throws {}
}
