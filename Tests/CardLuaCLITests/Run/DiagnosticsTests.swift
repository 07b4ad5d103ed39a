import Foundation
import Testing

/// What a script's author sees when things go wrong, or when the script talks: runtime
/// errors with the script's own traceback, `print` and `warn` on standard error with the
/// script's name.
@Suite struct DiagnosticsTests {
    static func run(_ source: String, _ arguments: [String] = ["--offset", "0"]) throws -> CLI.Result {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(source, named: "effect.lua", in: directory)
        return try CLI.run(["run", "effect.lua"] + arguments, directory: directory)
    }

    @Test func aRuntimeErrorShowsTheScriptsOwnFrames() throws {
        let result = try Self.run("""
        local function depth(t)
          return t.inner.value
        end

        local function helper(attributes)
          local value = depth(attributes)
          return value
        end

        function transform(attributes, layout)
          if attributes.indexPath.item == 1 then helper({}) end
        end

        """)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "effect.lua:2: transform: item 1: attempt to index a nil value (field 'inner')", "\(result.stderr)")
        #expect(lines.dropFirst().first == "script traceback:")
        let frames = lines.dropFirst(2).filter { $0.hasPrefix("\t") }
        #expect(frames.count == 3, "\(result.stderr)")
        #expect(frames.allSatisfy { $0.hasPrefix("\teffect.lua:") }, "only the script's own frames")
        #expect(frames.first?.hasPrefix("\teffect.lua:2:") == true)
        #expect(frames.last?.hasPrefix("\teffect.lua:11:") == true)
        #expect(!result.stderr.contains("prelude") && !result.stderr.contains("[C]"))
        #expect(result.stdout.isEmpty)
    }

    @Test func aBadArgumentToTheAPIPointsAtTheScriptsLine() throws {
        let result = try Self.run("""
        function transform(attributes)
          attributes.transform3D = CATransform3DRotate(nil, 1, 0, 1, 0)
        end

        """)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("effect.lua:2: transform: item 0: CATransform3DRotate: expected a CATransform3D"),
                "\(result.stderr)")
    }

    @Test func printAndWarnGoToStandardErrorWithTheScriptsName() throws {
        let result = try Self.run("""
        print("loaded", 42, nil)
        warn("this is ", "a warning")
        function prepare(layout)
          print("prepare", layout.collectionView.bounds.width)
        end

        """)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("effect.lua: loaded\t42\tnil"), "\(result.stderr)")
        #expect(lines.contains("effect.lua: warning: this is a warning"), "\(result.stderr)")
        #expect(lines.contains("effect.lua: prepare\t414.0"), "\(result.stderr)")
        #expect(!result.stdout.contains("loaded"), "standard output is for the result only")
    }

    @Test func checkShowsTheTracebackToo() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("""
        local function explode() error("boom") end
        function targetContentOffset(proposed) explode() return proposed end

        """, named: "effect.lua", in: directory)
        let result = try CLI.run(["check", "effect.lua"], directory: directory)
        #expect(result.status == 1)
        #expect(result.stdout.contains("effect.lua:1: targetContentOffset: boom"), "\(result.stdout)")
        #expect(result.stdout.contains("  script traceback:\n    effect.lua:1: in "), "\(result.stdout)")
    }
}
