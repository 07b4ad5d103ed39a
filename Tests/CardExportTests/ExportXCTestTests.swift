import CardLuaTestSupport
import Foundation
import Testing

/// `cardlua export --tests`: the generated XCTest files, run with the toolchain's XCTest
/// against the UIKit shim, pass for the layouts they were generated with and fail, naming
/// the offset and the item, for a layout that turns its cards the wrong way.
///
/// As an app builds them: the exported layouts are one module, `App` (`-enable-testing`),
/// and the test files, which import it `@testable`, are compiled with a `main.swift` that
/// lists their cases for `XCTMain` (Linux has no Objective-C runtime to find them).
@Suite(.serialized) struct ExportXCTestTests {
    /// The seeds and two catalogue scripts (gemini-cube sizes its items through the
    /// delegate: the tests' delegate forwards to the layout).
    static let scripts = [
        "scripts/lol.lua", "scripts/card-scale.lua", "scripts/photo-browser.lua",
        "scripts/effects/gemini-cube.lua", "scripts/effects/icarousel-coverflow.lua",
    ]

    /// What running the generated tests printed, and how the runner ended.
    struct Run {
        var build: String
        var buildWarnings: [String]
        var status: Int32
        var output: String
        var testFiles: [String: String]
    }

    /// The exports and their tests (lol's also as `FlippedLolLayout`, its rotation's sign
    /// flipped), compiled and run once for the suite.
    static let run: Result<Run, any Error> = Result { try makeRun() }

    static func makeRun() throws -> Run {
        let directory = try TestSupport.temporaryDirectory(prefix: "cardlua-export-xctest")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cardlua = TestSupport.builtExecutable(named: "cardlua")
        var layouts: [URL] = [], tests: [URL] = []
        func export(_ script: String, className: String, extra: [String] = []) throws {
            let layout = directory.appendingPathComponent("\(className).swift")
            let result = try TestSupport.run(cardlua, ["export", script, "-o", layout.path, "--tests", "--class", className]
                                                 + extra, directory: TestSupport.packageRoot)
            guard result.status == 0 else {
                throw Failure("cardlua export --tests \(script): status \(result.status): \(result.stderr)")
            }
            layouts.append(layout)
            tests.append(directory.appendingPathComponent("\(className)Tests.swift"))
        }
        for script in scripts {
            try export(script, className: className(script))
        }
        try export("scripts/lol.lua", className: "FlippedLolLayout")
        let flipped = layouts.last!
        let original = try String(contentsOf: flipped, encoding: .utf8)
        let mutated = original.replacingOccurrences(of: "CATransform3DRotate(t, -zoom,", with: "CATransform3DRotate(t, zoom,")
        guard mutated != original else { throw Failure("lol's export no longer turns by -zoom: update the mutation") }
        try mutated.write(to: flipped, atomically: true, encoding: .utf8)

        var testFiles: [String: String] = [:]
        for url in tests { testFiles[url.deletingPathExtension().lastPathComponent] = try String(contentsOf: url, encoding: .utf8) }
        let main = directory.appendingPathComponent("main.swift")
        try mainSource(testFiles).write(to: main, atomically: true, encoding: .utf8)

        let (modules, objects) = try SwiftCompiler.shimInputs()
        let sanitize = objects.contains(where: SwiftCompiler.isInstrumented) ? ["-sanitize=address"] : []
        let swiftc = URL(fileURLWithPath: try SwiftCompiler.swiftc())
        let app = try TestSupport.run(swiftc, ["-swift-version", "6", "-module-name", "App", "-enable-testing",
                                               "-parse-as-library", "-wmo", "-Onone", "-c", "-I", modules.path,
                                               "-emit-module", "-emit-module-path",
                                               directory.appendingPathComponent("App.swiftmodule").path,
                                               "-o", directory.appendingPathComponent("App.o").path]
                                          + sanitize + layouts.map(\.path), timeout: 600)
        guard app.status == 0 else { throw Failure("the layouts did not compile: \(app.stdout)\(app.stderr)") }
        let runner = directory.appendingPathComponent("runner")
        let build = try TestSupport.run(swiftc, ["-swift-version", "6", "-module-name", "AppTests", "-Onone", "-wmo",
                                                 "-I", modules.path, "-I", directory.path, "-o", runner.path]
                                            + sanitize + tests.map(\.path)
                                            + [main.path, directory.appendingPathComponent("App.o").path] + objects,
                                        timeout: 600)
        let buildText = build.stdout + build.stderr
        guard build.status == 0 else { throw Failure("the tests did not compile: \(buildText)") }
        let warnings = SwiftCompiler.parse(buildText).filter { $0.file.hasSuffix("Tests.swift") }.map(\.description)
        let result = try TestSupport.run(runner, [], timeout: 600)
        return Run(build: buildText, buildWarnings: warnings, status: result.status,
                   output: result.stdout + result.stderr, testFiles: testFiles)
    }

    /// lol.lua → LolLayout (the CLI's own default, written out so the files are known).
    static func className(_ script: String) -> String {
        let base = (script as NSString).lastPathComponent.replacingOccurrences(of: ".lua", with: "")
        return base.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + "Layout"
    }

    /// `XCTMain` over every generated class, and the shim's SPI conformances that stand
    /// for Objective-C's optional methods (`numberOfSections(in:)`, the delegate's).
    static func mainSource(_ testFiles: [String: String]) -> String {
        var text = "import XCTest\n@_spi(UIKitShimDriver) import UIKit\n\n"
        var cases: [String] = []
        for (name, swift) in testFiles.sorted(by: { $0.key < $1.key }) {
            text += "extension \(name).DataSource: UICollectionViewDataSourceNumberOfSections {}\n"
            let compact = swift.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for method in ProofDriver.DelegateMethod.all where compact.contains(method.signature) {
                text += "extension \(name).Delegate: \(method.shimProtocol) {}\n"
            }
            let methods = ["testCellsAtEveryOffsetTheScriptVisited", "testTargetContentOffsetAtEveryRelease"]
                .filter { swift.contains("func \($0)()") }
            cases.append("    testCase([\n" + methods.map { method in
                "        (\"\(method)\", { (test: \(name)) in { MainActor.assumeIsolated { test.\(method)() } } }),\n"
            }.joined() + "    ]),\n")
        }
        return text + "\nXCTMain([\n" + cases.joined() + "])\n"
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test("the generated tests pass swift-format lint --strict with the repository's configuration")
    func format() throws {
        let run = try Self.run.get()
        let findings = try ExportFormatTests.lint(run.testFiles.map { (name: $0.key, swift: $0.value) })
        #expect(findings.isEmpty, "\(findings.prefix(4000))")
    }

    @Test("the generated tests compile without a warning in Swift 6 mode")
    func compilesCleanly() throws {
        let run = try Self.run.get()
        #expect(run.buildWarnings.isEmpty, "\(run.buildWarnings)")
    }

    @Test("each generated case passes for the layout it was generated with", arguments: scripts)
    func passes(_ script: String) throws {
        let run = try Self.run.get()
        let name = Self.className(script) + "Tests"
        #expect(run.testFiles[name]?.contains("func testCellsAtEveryOffsetTheScriptVisited()") == true)
        #expect(run.output.contains("Test Case '\(name).testCellsAtEveryOffsetTheScriptVisited' passed"),
                "\(run.output.suffix(3000))")
        // The others snap (their demo's flings release); gemini-cube pages, and UIKit does
        // not ask a paging layout: no release, no release test.
        let releases = run.testFiles[name]?.contains("func testTargetContentOffsetAtEveryRelease()") == true
        #expect(releases == !script.contains("gemini-cube"))
        if releases {
            #expect(run.output.contains("Test Case '\(name).testTargetContentOffsetAtEveryRelease' passed"),
                    "\(run.output.suffix(3000))")
        }
        #expect(!run.output.contains("error: \(name)."), "\(run.output.suffix(3000))")
    }

    @Test("a layout that turns its cards the other way fails, naming the offset, the item and the field")
    func wrongLayoutFails() throws {
        let run = try Self.run.get()
        #expect(run.status != 0, "the runner passed with a wrong layout")
        #expect(run.output.contains("Test Case 'FlippedLolLayoutTests.testCellsAtEveryOffsetTheScriptVisited' failed"))
        // At offset 0 the first card's centre is 7 points left of the view's (x 200 in a
        // 414-point view: a 50-point inset and half a 300-point card), so it is turned
        // by 35° · 7 / 200 about y, and m13 = ±sin of that changes sign with the turn.
        let failures = run.output.split(separator: "\n").filter { $0.contains("error: FlippedLolLayoutTests.") }
        let m13 = try #require(failures.first { $0.contains("m13 at offset (0.0, 0.0), item 0 of section 0") },
                               "\(failures.prefix(5))")
        // XCTAssertEqual failed: ("GOT") is not equal to ("WANTED") +/- ("1e-09") - MESSAGE
        let quoted = m13.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { Double(String($0.element)) }
        let zoom = (35.0 * Double.pi / 180.0) * (7.0 / 200.0)
        #expect(quoted.count >= 2)
        if quoted.count >= 2, let got = quoted[0], let wanted = quoted[1] {
            #expect(abs(wanted - sin(zoom)) < 1e-12 && abs(got + sin(zoom)) < 1e-12, "\(m13)")
        }
        // The snap does not turn cards: its releases still pass.
        #expect(run.output.contains("Test Case 'FlippedLolLayoutTests.testTargetContentOffsetAtEveryRelease' passed"))
    }
}
