import CardLuaTestSupport
import Foundation
import Testing

/// `cardlua export SCRIPT -o FILE --tests [--test-module NAME]`: `<Class>Tests.swift` beside
/// the -o file, both files or neither, and the usage errors. (That the generated tests
/// pass, and fail for a wrong layout, is ExportXCTestTests'.)
@Suite struct ExportTestsCLITests {
    /// A horizontal carousel (one 100-point card a column) that snaps to the pitch and fades
    /// with distance.
    static let snapping = """
    -- Fades with distance, snaps to the pitch.
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(100, 600)
      layout.minimumLineSpacing = 0
    end
    function transform(attributes, layout)
      local view = layout.collectionView
      local d = math.abs(attributes.center.x - (view.contentOffset.x + view.bounds.size.width / 2))
      attributes.alpha = math.max(0, 1 - d / 1000)
    end
    function targetContentOffset(proposed, velocity, layout)
      return CGPointMake(math.floor(proposed.x / 100 + 0.5) * 100, proposed.y)
    end

    """

    private func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    private func contents(of directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func testsAreWrittenBesideTheLayoutNamedAfterTheClass() throws {
        try withDirectory { directory in
            let script = try CLI.write(Self.snapping, named: "fade-snap.lua", in: directory)
            let folder = directory.appendingPathComponent("App")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let result = try CLI.run(["export", script, "-o", folder.appendingPathComponent("Carousel.swift").path, "--tests"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(try contents(of: folder) == ["Carousel.swift", "FadeSnapLayoutTests.swift"])
            let tests = try String(contentsOf: folder.appendingPathComponent("FadeSnapLayoutTests.swift"), encoding: .utf8)
            #expect(tests.contains("@testable import App\n"))
            #expect(tests.contains("@MainActor\nfinal class FadeSnapLayoutTests: XCTestCase {"))
            #expect(tests.contains("layout = FadeSnapLayout()"))
            // The demo's viewport and items (cardlua run's defaults), and its releases.
            #expect(tests.contains("CGSize(width: 414, height: 736)"))
            #expect(tests.contains("private static let itemsPerSection = [20]"))
            #expect(tests.contains("func testTargetContentOffsetAtEveryRelease()"))
            // At offset 0 item 0's centre is 157 points from the view's (50 against 207):
            // alpha 1 - 157 / 1000 = 0.843, the row's last value before zIndex and isHidden.
            let first = try #require(tests.split(separator: "\n").first { $0.contains("[0, 0, 0, 0, 0,") })
            #expect(first.hasSuffix(", 0.843, 0, 0],"), "\(first)")
        }
    }

    @Test func classAndTestModuleNameTheTests() throws {
        try withDirectory { directory in
            let script = try CLI.write(Self.snapping, named: "fade-snap.lua", in: directory)
            let target = directory.appendingPathComponent("Fade.swift").path
            let result = try CLI.run(["export", script, "-o", target, "--tests", "--class", "FadeLayout",
                                      "--test-module", "SkinPicker"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try contents(of: directory) == ["Fade.swift", "FadeLayoutTests.swift", "fade-snap.lua"])
            let tests = try String(contentsOf: directory.appendingPathComponent("FadeLayoutTests.swift"), encoding: .utf8)
            #expect(tests.contains("@testable import SkinPicker\n"))
            #expect(tests.contains("final class FadeLayoutTests: XCTestCase {"))
        }
    }

    @Test func aRefusedScriptWritesNeitherFile() throws {
        try withDirectory { directory in
            let script = try CLI.write(ExportCLITests.usesAMap, named: "map.lua", in: directory)
            let result = try CLI.run(["export", script, "-o", directory.appendingPathComponent("Map.swift").path, "--tests"])
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("\(script):5: export: a table used as a map is not supported"), "\(result.stderr)")
            #expect(try contents(of: directory) == ["map.lua"])

            let broken = try CLI.write(ExportCLITests.doesNotRun, named: "broken.lua", in: directory)
            let failed = try CLI.run(["export", broken, "-o", directory.appendingPathComponent("Broken.swift").path, "--tests"])
            #expect(failed.status == 1)
            #expect(try contents(of: directory) == ["broken.lua", "map.lua"])
        }
    }

    @Test func usageErrors() throws {
        try withDirectory { directory in
            let script = try CLI.write(Self.snapping, named: "fade-snap.lua", in: directory)
            let target = directory.appendingPathComponent("Fade.swift").path
            let cases: [(arguments: [String], message: String)] = [
                (["export", script, "--tests"], "--tests writes <Class>Tests.swift beside the layout: give -o FILE.swift"),
                (["export", script, "-o", "-", "--tests"], "--tests writes <Class>Tests.swift beside the layout"),
                (["export", script, "-o", target, "--test-module", "App"], "--test-module names the module the --tests file imports"),
                (["export", script, "-o", target, "--tests", "--test-module", "my-app"], "--test-module: expected a Swift module name"),
                (["export", "--check", script, "--tests"], "--tests cannot be combined with --check"),
                (["export", script, "-o", directory.appendingPathComponent("FadeSnapLayoutTests.swift").path, "--tests"],
                 "is where --tests writes FadeSnapLayout's tests"),
            ]
            for (arguments, message) in cases {
                let result = try CLI.run(arguments)
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
            #expect(try contents(of: directory) == ["fade-snap.lua"])
        }
    }
}
