import CardLuaTestSupport
import Foundation
import Testing

/// `cardlua export`: the Swift on standard output or in an -o file, --class, --param,
/// --check, and the failures: wrong usage (2), a script that does not run or that the
/// translator refuses (1, one line, no file).
@Suite struct ExportCLITests {
    /// Declares a tweakable, runs and exports.
    static let tweakable = """
    -- A turn that grows with the tweakable.
    params = {
      rotate = { value = 35, min = 0, max = 90, step = 1 },
    }
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(100, 100)
    end
    function transform(attributes, layout)
      return CATransform3DMakeRotation(params.rotate * M_PI / 180, 0, 0, 1)
    end

    """

    /// Runs, but keeps a table keyed by computed strings: refused on line 5.
    static let usesAMap = """
    -- A map keyed by item.
    local seen = {}

    function transform(attributes, layout)
      seen["k" .. attributes.indexPath.item] = true
      attributes.alpha = 0.5
    end

    """

    /// Fails on its first transform call, as `run` reports it.
    static let doesNotRun = """
    function transform(attributes, layout)
      attributes.alpha = nosuch.field
    end

    """

    private func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    /// The names in `directory`, hidden ones (a temporary left behind) included.
    private func contents(of directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    // MARK: - Success

    @Test func printsTheLayoutNamedAfterTheFile() throws {
        let result = try CLI.run(["export", CLI.script("lol.lua")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("import UIKit\n"))
        #expect(result.stdout.contains("final class LolLayout: UICollectionViewFlowLayout {"))
        #expect(result.stdout.contains("override func prepare()"))
        #expect(result.stdout.contains("override func targetContentOffset(\n        forProposedContentOffset"))
        // The header comment travels as the class's doc comment.
        #expect(result.stdout.contains("/// League of Legends skin picker"))
    }

    @Test func classNamesTheClassAndOutputWritesTheFileOnly() throws {
        try withDirectory { directory in
            let script = try CLI.write(Self.tweakable, named: "card-turn.lua", in: directory)
            let byDefault = try CLI.run(["export", script])
            #expect(byDefault.status == 0, "\(byDefault.stderr)")
            #expect(byDefault.stdout.contains("final class CardTurnLayout: UICollectionViewFlowLayout"))

            let target = directory.appendingPathComponent("Turn.swift").path
            let written = try CLI.run(["export", script, "--class", "TurnLayout", "-o", target])
            #expect(written.status == 0, "\(written.stderr)")
            #expect(written.stdout.isEmpty)
            let text = try String(contentsOfFile: target, encoding: .utf8)
            #expect(text.contains("final class TurnLayout: UICollectionViewFlowLayout"))
            #expect(!text.contains("CardTurnLayout"))
            // The same translation as on standard output, but for the name (and the lines
            // the shorter name lets swift-format's layout join).
            let code = { (swift: String) in swift.filter { !$0.isWhitespace } }
            #expect(code(text) == code(byDefault.stdout.replacingOccurrences(of: "CardTurnLayout", with: "TurnLayout")))
            #expect(try contents(of: directory) == ["Turn.swift", "card-turn.lua"])
        }
    }

    @Test func paramBakesTheTunedValueIn() throws {
        try withDirectory { directory in
            let script = try CLI.write(Self.tweakable, named: "turn.lua", in: directory)
            let tuned = try CLI.run(["export", script, "--param", "rotate=50"])
            #expect(tuned.status == 0, "\(tuned.stderr)")
            #expect(tuned.stdout.contains("var rotate: CGFloat = 50"))
            let plain = try CLI.run(["export", script])
            #expect(plain.stdout.contains("var rotate: CGFloat = 35"))
            // Later entries win, as for run.
            let twice = try CLI.run(["export", script, "--param", "rotate=10", "--param=rotate=20"])
            #expect(twice.stdout.contains("var rotate: CGFloat = 20"))
        }
    }

    // MARK: - Failures

    @Test func aRefusedConstructIsOneLineAndLeavesNoFile() throws {
        try withDirectory { directory in
            let script = try CLI.write(Self.usesAMap, named: "map.lua", in: directory)
            let target = directory.appendingPathComponent("Map.swift").path
            let result = try CLI.run(["export", script, "-o", target])
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines[1].isEmpty, "\(result.stderr)")
            #expect(lines.first?.hasPrefix("\(script):5: export: a table used as a map is not supported") == true,
                    "\(result.stderr)")
            #expect(try contents(of: directory) == ["map.lua"])
        }
    }

    @Test func aRefusedConstructLeavesAnExistingOutputAsItWas() throws {
        try withDirectory { directory in
            let script = try CLI.write(Self.usesAMap, named: "map.lua", in: directory)
            let target = try CLI.write("// the app's file\n", named: "Map.swift", in: directory)
            let result = try CLI.run(["export", script, "-o", target])
            #expect(result.status == 1)
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "// the app's file\n")
            #expect(try contents(of: directory) == ["Map.swift", "map.lua"])
        }
    }

    @Test func aScriptThatDoesNotRunFailsAsRunReportsIt() throws {
        try withDirectory { directory in
            let script = try CLI.write(Self.doesNotRun, named: "broken.lua", in: directory)
            let target = directory.appendingPathComponent("Broken.swift").path
            let exported = try CLI.run(["export", script, "-o", target])
            let run = try CLI.run(["run", script])
            #expect(exported.status == 1 && run.status == 1)
            #expect(exported.stderr == run.stderr)
            #expect(exported.stderr.hasPrefix("\(script):2: "), "\(exported.stderr)")
            #expect(try contents(of: directory) == ["broken.lua"])
        }
    }

    @Test func wrongUsageExitsTwo() throws {
        try withDirectory { directory in
            let script = try CLI.write(Self.tweakable, named: "turn.lua", in: directory)
            let cases: [([String], String)] = [
                (["export"], "cardlua: missing the script to export (cardlua export SCRIPT)"),
                (["export", script, script], "cardlua: unexpected argument '\(script)'"),
                (["export", script, "--class", "9Lives"], "cardlua: --class: expected a Swift type name"),
                (["export", script, "--class", "class"], "cardlua: --class: expected a Swift type name"),
                (["export", script, "--param", "rotate"], "cardlua: --param: expected NAME=VALUE"),
                (["export", script, "--param", "rotat=50"],
                 "cardlua: --param rotat=50: the script has no param 'rotat'; did you mean rotate?"),
                (["export", script, "--param", "rotate=91"], "cardlua: --param rotate=91: 91 is outside 0…90"),
                (["export", CLI.script("lol.lua"), "--param", "rotate=1"],
                 "cardlua: --param rotate=1: the script declares no params"),
                (["export", script, "--clas", "X"], "cardlua: unknown option"),
                (["export", "--check"], "cardlua: missing the scripts to check"),
                (["export", "--check", script, "-o", "x.swift"], "cardlua: -o cannot be combined with --check"),
                (["exprot", script], "cardlua: unknown command 'exprot' (did you mean 'export'?)"),
            ]
            for (arguments, prefix) in cases {
                let result = try CLI.run(arguments)
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stdout.isEmpty, "\(arguments)")
                #expect(result.stderr.hasPrefix(prefix), "\(arguments): \(result.stderr)")
            }
            // Nothing was written anywhere in the directory (and no x.swift in the current one).
            #expect(try contents(of: directory) == ["turn.lua"])
        }
    }

    @Test func wrongUsageNeverLeavesTheRelativeOutput() throws {
        try withDirectory { directory in
            let script = try CLI.write(Self.tweakable, named: "turn.lua", in: directory)
            let result = try CLI.run(["export", "--check", script, "-o", "x.swift"], directory: directory)
            #expect(result.status == 2)
            #expect(try contents(of: directory) == ["turn.lua"])
        }
    }

    // MARK: - --check

    @Test func checkSaysPerScriptWhetherItExports() throws {
        try withDirectory { directory in
            let good = try CLI.write(Self.tweakable, named: "turn.lua", in: directory)
            let map = try CLI.write(Self.usesAMap, named: "map.lua", in: directory)
            let broken = try CLI.write(Self.doesNotRun, named: "broken.lua", in: directory)
            let mixed = try CLI.run(["export", "--check", good, map, broken])
            #expect(mixed.status == 1, "\(mixed.stderr)")
            let lines = mixed.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(mixed.stdout)")
            #expect(lines.first == "\(good): exportable")
            #expect(lines.dropFirst().first?.hasPrefix("\(map):5: export: a table used as a map is not supported") == true)
            #expect(lines.last?.hasPrefix("\(broken):2: ") == true)
            let clean = try CLI.run(["export", "--check", good, CLI.script("lol.lua")])
            #expect(clean.status == 0, "\(clean.stdout)")
            #expect(clean.stdout == "\(good): exportable\n\(CLI.script("lol.lua")): exportable\n")
        }
    }

    /// A file name holding a line feed, a carriage return, an ESC and a tab is written
    /// escaped in both of --check's lines (exportable, and the reason it is not), so that
    /// each script stays one line and nothing reaches the terminal raw.
    @Test func checkEscapesControlCharactersOfFileNames() throws {
        try withDirectory { directory in
            let good = try CLI.write(Self.tweakable, named: "a\nb\rc\u{1b}[31md\te.lua", in: directory)
            let map = try CLI.write(Self.usesAMap, named: "m\na\rp\u{1b}[0m\t.lua", in: directory)
            let result = try CLI.run(["export", "--check", good, map])
            #expect(result.status == 1, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.count == 3 && lines.last == "", "\(result.stdout.debugDescription)")
            #expect(lines.first == "\(directory.path)/a\\nb\\rc\\e[31md\\te.lua: exportable", "\(result.stdout.debugDescription)")
            #expect(lines.dropFirst().first?.hasPrefix("\(directory.path)/m\\na\\rp\\e[0m\\t.lua:5: export: a table used as a map") == true,
                    "\(result.stdout.debugDescription)")
            #expect(!result.stdout.contains("\u{1b}") && !result.stdout.contains("\r") && !result.stdout.contains("\t"))
        }
    }

    /// --class takes no name the file or the app already uses for something else: Swift's,
    /// Foundation's and UIKit's types, and names that are not Swift identifiers.
    @Test func classRefusesNamesThatAreTaken() throws {
        try withDirectory { directory in
            let script = try CLI.write(Self.tweakable, named: "turn.lua", in: directory)
            for name in ["UICollectionViewFlowLayout", "IndexPath", "CGFloat", "Int", "String", "Array", "UIView"] {
                let result = try CLI.run(["export", script, "--class", name])
                #expect(result.status == 2, "\(name): \(result.stdout.prefix(200))")
                #expect(result.stderr.hasPrefix("cardlua: --class: '\(name)' is taken"), "\(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
            let invalid = try CLI.run(["export", script, "--class", "Turn-Layout"])
            #expect(invalid.status == 2)
            #expect(invalid.stderr.hasPrefix("cardlua: --class: expected a Swift type name"), "\(invalid.stderr)")
        }
    }

    // MARK: - Help and the route from `new`

    @Test func helpDescribesTheCommand() throws {
        let help = try CLI.run(["export", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: cardlua export SCRIPT [-o FILE.swift] [--class NAME] [--param NAME=X …]"))
        for option in ["-o, --output FILE", "--class NAME", "--param NAME=X", "--check"] {
            #expect(help.stdout.contains(option), "\(option)")
        }
        let overview = try CLI.run(["--help"])
        #expect(overview.stdout.contains("  export SCRIPT [-o FILE]"))
    }

    @Test func newPointsAtTheExport() throws {
        try withDirectory { directory in
            let path = directory.appendingPathComponent("my-effect.lua").path
            let result = try CLI.run(["new", path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("cardlua export \(path) -o MyEffectLayout.swift"), "\(result.stdout)")
            // And the starter itself exports.
            let exported = try CLI.run(["export", path])
            #expect(exported.status == 0, "\(exported.stderr)")
            #expect(exported.stdout.contains("final class MyEffectLayout: UICollectionViewFlowLayout"))
        }
    }
}
