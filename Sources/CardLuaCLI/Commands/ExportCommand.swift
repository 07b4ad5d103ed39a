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
            OptionSpec(.check, summary: "for each FILE: exportable, or the first reason it is not"),
            OptionSpec(.app, value: "DIR", summary: "write an iOS app there instead (DIR.swiftpm, for Xcode or "
                       + "Swift Playgrounds): the layout in a collection view, ready to run on a phone"),
            OptionSpec(.cards, value: "FOLDER", summary: "with --app: the images the app's cards show "
                       + "(png, jpg, webp, gif), in name order, cycling",
                       defaultText: "a cards folder beside the script, else numbered cards", defaultInWords: true),
        ],
        help: { options in """
        cardlua export — the Swift layout an iOS app compiles, translated from a script

        USAGE: cardlua export SCRIPT [-o FILE.swift] [--class NAME] [--param NAME=X …]
               cardlua export --check FILE…
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
        --app DIR writes an app instead, a folder DIR.swiftpm that Xcode and Swift
        Playgrounds open: the layout in a UICollectionView filling the screen, the demo's
        cards showing the --cards images (or numbers), the params baked in. It is written
        whole or not at all; an existing folder that is not empty is never written over.
        docs/export.md has the translation table and how to wire the layout into an app.

        \(options)

        EXAMPLES:
          cardlua export scripts/lol.lua -o LolLayout.swift
          cardlua export scripts/effects/fspager-coverflow.lua --class CoverFlowLayout --param itemWidth=240
          cardlua export --check scripts/*.lua scripts/effects/*.lua
          cardlua export --app LolDemo scripts/lol.lua
        """ },
        run: main)

    static func main(_ arguments: Arguments) throws -> Int32 {
        if arguments.isSet(.check) { return try check(arguments) }
        if let folder = arguments.value(.app) { return try ExportApp.main(arguments, folder: folder) }
        if arguments.value(.cards) != nil {
            throw UsageError("--cards goes with --app (the images of the app's cards)", command: declaration.name)
        }

        let path = arguments.argument
        let params = try ParamOption.parse(arguments)
        let className = try arguments.value(.className).map { name throws(UsageError) in try checkedClassName(name) }
        let outputPath = arguments.value(.output) == "-" ? nil : arguments.value(.output)
        // Opened first, as run does, so a bad -o is reported before any work; a regular
        // file only appears (renamed over the target) when everything succeeded.
        let output = try outputPath.map(OutputFile.open) ?? OutputFile.standardOutput()
        do {
            let swift = try exportedSwift(path, params: params, className: className)
            try output.write(swift)
            try output.commit()
        } catch {
            output.discard()
            throw error  // CardLuaCommand reports it
        }
        return 0
    }

    /// The script's Swift, with the `--param` values baked in, after its demo ran.
    static func exportedSwift(_ path: String, params: [ParamOption], className: String?) throws(RunFailure) -> String {
        let source = try loadAndRun(path, params: params)
        // Later --param entries win, as they do for run. The run above read each as its
        // param's kind takes it: a number, true / false, or an option.
        var values: [String: Double] = [:], switches: [String: Bool] = [:], choices: [String: String] = [:]
        for param in params {
            if let x = Double(param.value) { values[param.name] = x }
            else if param.value == "true" || param.value == "false" { switches[param.name] = param.value == "true" }
            else { choices[param.name] = param.value }
        }
        do {
            return try Exporter.export(source: source, fileName: path, className: className, params: values,
                                       switches: switches, choices: choices)
        } catch {
            throw RunFailure(message: error.description, details: "")
        }
    }

    /// `--check FILE…`: one line per script on standard output, `FILE: exportable` or the
    /// first reason it is not (a `file:line: …` line). Exit 0 when all are exportable.
    private static func check(_ arguments: Arguments) throws -> Int32 {
        for option in [OptionKey.output, .className, .param, .app, .cards] where arguments.value(option) != nil {
            throw UsageError("\(option.spelled) cannot be combined with --check", command: declaration.name)
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
