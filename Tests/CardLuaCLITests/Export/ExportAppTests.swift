import CardLuaTestSupport
import Foundation
import Testing

/// `cardlua export --app DIR`: the files of the app package and their names, the
/// `--cards` images copied, the wiring the layout asks for, the files linted with the
/// repository's swift-format configuration and type-checked against the test-only UIKit
/// (Tests/UIKitShim), and the refusals: a script the exporter refuses, an existing
/// non-empty DIR, bad flags — each leaving nothing behind.
@Suite struct ExportAppTests {
    /// Per-item sizes, insets, headers and footers, and an appearance: everything the
    /// view controller and the cell wire.
    static let sized = """
    -- Cards of two widths, with per-section insets, headers and footers.
    params = {
      radius = { value = 8, min = 0, max = 40, step = 1 },
    }
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(100, 200)
    end
    function sizeForItem(indexPath, layout)
      if indexPath.item % 2 == 0 then
        return CGSizeMake(120, 200)
      end
      return CGSizeMake(80, 200)
    end
    function insetForSection(section, layout)
      return UIEdgeInsetsMake(10, 20, 10, 20)
    end
    function referenceSizeForHeader(section, layout)
      return CGSizeMake(40, 200)
    end
    function referenceSizeForFooter(section, layout)
      return CGSizeMake(30, 200)
    end
    function transform(attributes, layout)
      attributes.cornerRadius = params.radius
    end

    """

    /// Runs, but keeps a table keyed by computed strings: the exporter refuses it.
    static let usesAMap = """
    local seen = {}
    function transform(attributes, layout)
      seen["k" .. attributes.indexPath.item] = true
    end

    """

    /// The app's files, the layout's named after its class.
    static func appFiles(layout: String) -> [String] {
        ["CardCell.swift", "CardDeck.swift", "CarouselApp.swift", "CarouselView.swift",
         "CarouselViewController.swift", layout, "Package.swift"].sorted()
    }

    private func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    /// Every name under `directory`, relative, hidden ones (a temporary left behind) included.
    private func tree(_ directory: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        return ((enumerator?.allObjects as? [String]) ?? []).sorted()
    }

    private func read(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    // MARK: - What is written

    @Test func writesTheAppPackageWithNumberedCards() throws {
        try withDirectory { directory in
            let app = directory.appendingPathComponent("LolDemo.swiftpm")
            let result = try CLI.run(["export", "--app", app.path, CLI.script("lol.lua")])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.isEmpty && result.stderr.isEmpty)
            #expect(tree(directory) == ["LolDemo.swiftpm"] + Self.appFiles(layout: "LolLayout.swift").map { "LolDemo.swiftpm/" + $0 })

            let package = try read(app.appendingPathComponent("Package.swift"))
            #expect(package.hasPrefix("// swift-tools-version: 5.9\n"))
            #expect(package.contains("import PackageDescription\nimport AppleProductTypes\n"))
            #expect(package.contains("name: \"LolDemo\","))
            #expect(package.contains(".iOSApplication("))
            #expect(package.contains("bundleIdentifier: \"com.example.LolDemo\","))
            #expect(package.contains(".iOS(\"16.0\")"))
            #expect(package.contains("path: \".\"\n"))
            #expect(!package.contains("resources:"))  // no Resources folder without images

            // The layout is the one `cardlua export` prints.
            let exported = try CLI.run(["export", CLI.script("lol.lua")])
            #expect(try read(app.appendingPathComponent("LolLayout.swift")) == exported.stdout)

            let controller = try read(app.appendingPathComponent("CarouselViewController.swift"))
            #expect(controller.contains("private let layout = LolLayout()"))
            #expect(controller.contains("collectionView.contentInsetAdjustmentBehavior = .never"))
            #expect(!controller.contains("sizeForItemAt"))  // the layout declares none
            #expect(try read(app.appendingPathComponent("CardDeck.swift")).contains("static let numberOfItems = [20]"))
            let cell = try read(app.appendingPathComponent("CardCell.swift"))
            #expect(cell.contains("label.text = String(number)"))
            #expect(!cell.contains("override func apply"))  // lol.lua sets no appearance
            let entry = try read(app.appendingPathComponent("CarouselApp.swift"))
            #expect(entry.contains("@main\nstruct CarouselApp: App {"))
            #expect(entry.contains("WindowGroup {"))
        }
    }

    @Test func addsTheSuffixAndSaysSo() throws {
        try withDirectory { directory in
            let result = try CLI.run(["export", "--app", directory.appendingPathComponent("Lol").path,
                                      CLI.script("lol.lua")])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("Lol.swiftpm"))
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(tree(directory).first == "Lol.swiftpm")
        }
    }

    @Test func copiesTheCardsImagesInNameOrderAndWiresWhatTheLayoutDeclares() throws {
        try withDirectory { directory in
            let script = try CLI.write(Self.sized, named: "sized.lua", in: directory)
            let cards = directory.appendingPathComponent("photos")
            try FileManager.default.createDirectory(at: cards, withIntermediateDirectories: false)
            // Not image bytes: the app only copies them, and UIKit reads them on the phone.
            try Data("second".utf8).write(to: cards.appendingPathComponent("b.PNG"))
            try Data("first".utf8).write(to: cards.appendingPathComponent("a.jpeg"))
            try Data("ignored".utf8).write(to: cards.appendingPathComponent("notes.txt"))
            let app = directory.appendingPathComponent("Sized.swiftpm")
            let result = try CLI.run(["export", "--app", app.path, script, "--cards", cards.path,
                                      "--param", "radius=20", "--class", "TwoWidthsLayout"])
            #expect(result.status == 0, "\(result.stderr)")
            let resources = app.appendingPathComponent("Resources")
            #expect(tree(resources) == ["card-000.jpeg", "card-001.png"])
            #expect(FileManager.default.contents(atPath: resources.appendingPathComponent("card-000.jpeg").path)
                    == Data("first".utf8))
            #expect(FileManager.default.contents(atPath: resources.appendingPathComponent("card-001.png").path)
                    == Data("second".utf8))
            #expect(try read(app.appendingPathComponent("Package.swift")).contains("resources: [.process(\"Resources\")]"))
            let deck = try read(app.appendingPathComponent("CardDeck.swift"))
            #expect(deck.contains("static let imageNames = [\"card-000.jpeg\", \"card-001.png\"]\n"))
            #expect(deck.contains("in: .module, compatibleWith: nil)"))

            // The param is baked in, the class named.
            let layout = try read(app.appendingPathComponent("TwoWidthsLayout.swift"))
            #expect(layout.contains("var radius: CGFloat = 20"))
            let controller = try read(app.appendingPathComponent("CarouselViewController.swift"))
            for forwarded in ["sizeForItemAt: indexPath)", "insetForSectionAt: section)",
                              "referenceSizeForHeaderInSection: section)", "referenceSizeForFooterInSection: section)"] {
                #expect(controller.contains("layout.collectionView(collectionView, layout: collectionViewLayout, \(forwarded)"))
            }
            #expect(controller.contains("viewForSupplementaryElementOfKind kind: String"))
            #expect(controller.contains("UICollectionView.elementKindSectionHeader"))
            #expect(controller.contains("UICollectionView.elementKindSectionFooter"))
            let cell = try read(app.appendingPathComponent("CardCell.swift"))
            #expect(cell.contains("(layoutAttributes as? TwoWidthsLayoutAttributes)?.apply(to: self)"))
            #expect(cell.contains("imageView.image = CardDeck.image(forCard: number)"))
        }
    }

    // MARK: - The sources compile

    /// Every Swift file passes `swift-format lint --strict` with the repository's
    /// configuration; the UIKit ones (all but the two SwiftUI files) type-check in Swift 6
    /// mode, without a warning, against the test-only UIKit, with and without images.
    @Test func theSourcesLintAndTypeCheck() throws {
        guard let swiftc = TestSupport.which("swiftc") else {
            Issue.record("no swiftc on PATH")
            return
        }
        let bin = TestSupport.builtExecutable(named: "cardlua").deletingLastPathComponent()
        let modules = [bin.appendingPathComponent("Modules"), bin].first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("UIKit.swiftmodule").path)
        }
        guard let modules else {
            Issue.record("no UIKit.swiftmodule beside the test binary (build the tests first)")
            return
        }
        let swiftFormat = TestSupport.which("swift-format")
        try withDirectory { directory in
            let script = try CLI.write(Self.sized, named: "sized.lua", in: directory)
            let cards = directory.appendingPathComponent("photos")
            try FileManager.default.createDirectory(at: cards, withIntermediateDirectories: false)
            try Data("png".utf8).write(to: cards.appendingPathComponent("a.png"))
            let many = directory.appendingPathComponent("many")  // names on lines of their own
            try FileManager.default.createDirectory(at: many, withIntermediateDirectories: false)
            for n in 0..<12 { try Data("png".utf8).write(to: many.appendingPathComponent("\(n).png")) }
            for (name, extra) in [("Plain", [CLI.script("lol.lua")]), ("Sized", [script, "--cards", cards.path]),
                                  ("Many", [CLI.script("stacked-deck.lua"), "--cards", many.path])] {
                let app = directory.appendingPathComponent(name + ".swiftpm")
                let result = try CLI.run(["export", "--app", app.path] + extra)
                #expect(result.status == 0, "\(result.stderr)")
                let files = tree(app).filter { $0.hasSuffix(".swift") }.map { app.appendingPathComponent($0).path }
                if let swiftFormat {
                    let lint = try TestSupport.run(URL(fileURLWithPath: swiftFormat), [
                        "lint", "--strict", "--configuration", CLI.packageRoot.appendingPathComponent(".swift-format").path,
                    ] + files)
                    #expect(lint.status == 0, "\(name): \(lint.stdout)\(lint.stderr)")
                }
                // What SwiftPM generates for a target with resources.
                let accessor = directory.appendingPathComponent("\(name)-bundle.swift")
                try "import Foundation\n\nextension Bundle {\n    static let module = Bundle.main\n}\n"
                    .write(to: accessor, atomically: true, encoding: .utf8)
                let uikit = files.filter { !["CarouselApp.swift", "CarouselView.swift", "Package.swift"]
                    .contains(($0 as NSString).lastPathComponent) }
                #expect(uikit.count == 4)
                let check = try TestSupport.run(URL(fileURLWithPath: swiftc), [
                    "-typecheck", "-swift-version", "6", "-module-name", "AppModule", "-I", modules.path,
                ] + uikit + (extra.contains("--cards") ? [accessor.path] : []))
                #expect(check.status == 0 && !(check.stdout + check.stderr).contains("warning:"),
                        "\(name): \(check.stdout)\(check.stderr)")
            }
        }
    }

    // MARK: - Refusals

    @Test func aScriptTheExporterRefusesWritesNothing() throws {
        try withDirectory { directory in
            let script = try CLI.write(Self.usesAMap, named: "map.lua", in: directory)
            let result = try CLI.run(["export", "--app", directory.appendingPathComponent("Map.swiftpm").path, script])
            let plain = try CLI.run(["export", script])
            #expect(result.status == 1)
            #expect(result.stderr == plain.stderr)  // the same one line
            #expect(result.stderr.contains("map.lua:3: export:"))
            #expect(tree(directory) == ["map.lua"])  // no folder, no temporary
        }
    }

    @Test func anExistingFolderThatIsNotEmptyIsRefusedAndLeftIntact() throws {
        try withDirectory { directory in
            let app = directory.appendingPathComponent("Mine.swiftpm")
            try FileManager.default.createDirectory(at: app, withIntermediateDirectories: false)
            try Data("keep".utf8).write(to: app.appendingPathComponent("notes.txt"))
            let result = try CLI.run(["export", "--app", app.path, CLI.script("lol.lua")])
            #expect(result.status == 1)
            #expect(result.stderr.contains("Mine.swiftpm: exists and is not empty"))
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(tree(directory) == ["Mine.swiftpm", "Mine.swiftpm/notes.txt"])
            #expect(FileManager.default.contents(atPath: app.appendingPathComponent("notes.txt").path) == Data("keep".utf8))

            // A file at the name is refused too; an empty folder is filled.
            let file = directory.appendingPathComponent("File.swiftpm")
            try Data("x".utf8).write(to: file)
            #expect(try CLI.run(["export", "--app", file.path, CLI.script("lol.lua")]).status == 1)
            let empty = directory.appendingPathComponent("Empty.swiftpm")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
            #expect(try CLI.run(["export", "--app", empty.path, CLI.script("lol.lua")]).status == 0)
            #expect(tree(empty) == Self.appFiles(layout: "LolLayout.swift"))
        }
    }

    @Test(arguments: [
        (["-o", "x.swift"], "-o cannot be combined with --app"),
        (["--cards", "nowhere"], "--cards: no folder"),
        (["--class", "CardCell"], "--class: 'CardCell' is a type of the app"),
        (["--class", "1x"], "--class: expected a Swift type name"),
        (["--param", "nosuch=1"], "nosuch"),
    ])
    func badFlagsExitTwoAndWriteNothing(flags: [String], message: String) throws {
        try withDirectory { directory in
            let app = directory.appendingPathComponent("Bad.swiftpm")
            let result = try CLI.run(["export", "--app", app.path, CLI.script("lol.lua")] + flags, directory: directory)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(tree(directory).isEmpty)
        }
    }

    @Test func cardsWithoutAppAndAppWithCheckAreWrongUsage() throws {
        try withDirectory { directory in
            let alone = try CLI.run(["export", CLI.script("lol.lua"), "--cards", directory.path])
            #expect(alone.status == 2)
            #expect(alone.stderr.contains("--cards goes with --app"))
            let checked = try CLI.run(["export", "--check", CLI.script("lol.lua"), "--app", directory.path])
            #expect(checked.status == 2)
            #expect(checked.stderr.contains("--app cannot be combined with --check"))
            #expect(tree(directory).isEmpty)
        }
    }

    @Test func anSVGCardIsRefused() throws {
        try withDirectory { directory in
            let cards = directory.appendingPathComponent("cards")
            try FileManager.default.createDirectory(at: cards, withIntermediateDirectories: false)
            try Data("<svg/>".utf8).write(to: cards.appendingPathComponent("a.svg"))
            let result = try CLI.run(["export", "--app", directory.appendingPathComponent("S").path,
                                      CLI.script("lol.lua"), "--cards", cards.path])
            #expect(result.status == 2)
            #expect(result.stderr.contains("'a.svg' is an SVG"))
            #expect(tree(directory) == ["cards", "cards/a.svg"])
        }
    }
}
