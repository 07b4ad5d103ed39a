import Foundation
import Testing

/// Scenarios defined by scripts, run with `--scenario`, and their bad-input messages.
@Suite struct ScenarioCLITests {
    static let effect = """
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = { width = 200, height = 300 }
      layout.minimumLineSpacing = 20
      layout.sectionInset = { top = 0, left = 100, bottom = 0, right = 100 }
    end

    function targetContentOffset(proposed, velocity, layout)
      -- nearest multiple of the 220-pt pitch
      return { x = math.floor(proposed.x / 220 + 0.5) * 220, y = 0 }
    end

    """

    static func run(_ source: String, _ arguments: [String]) throws -> CLI.Result {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(source, named: "s.lua", in: directory)
        return try CLI.run(["run", "s.lua"] + arguments, directory: directory)
    }

    static func json(_ result: CLI.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func scriptScenarioRunsEveryStep() throws {
        let source = Self.effect + """
        scenarios = {
          browse = {
            viewport = "400x600", items = 12, fps = 30,
            steps = {
              { jump = 0 },
              { wait = 0.1 },
              { drag = 300, duration = 0.5 },
              { wait = 0.2 },
              { fling = -1.5 },
              { scrollToItem = 5, duration = 0.3 },
              { resize = { width = 600, height = 400 } },
            },
          },
        }
        """
        let result = try Self.run(source, ["--scenario", "browse", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try Self.json(result)
        #expect(json["viewport"] as? [String: Double] == ["width": 400, "height": 600])
        #expect(json["fps"] as? Double == 30)
        let frames = try #require(json["frames"] as? [[String: Any]])
        let phases = Set(frames.compactMap { $0["phase"] as? String })
        #expect(phases.isSuperset(of: ["idle", "dragging", "decelerating"]))
        // Frame times are exact multiples of 1/30 s.
        for (i, frame) in frames.enumerated() {
            #expect(abs((frame["time"] as? Double ?? -1) - Double(i) / 30) < 1e-9)
        }
        // Two releases (the drag's and the fling's), each landing on a multiple of 220.
        let snaps = try #require(json["snaps"] as? [[String: Any]])
        #expect(snaps.count == 2)
        for snap in snaps {
            let x = try #require((snap["targetContentOffset"] as? [String: Double])?["x"])
            #expect(x.truncatingRemainder(dividingBy: 220) == 0)
        }
        // scrollToItem 5 centres item 5 (centre 100 + 5·220 + 100 = 1300) in the 400 viewport.
        // Then the resize keeps it centred in the 600-wide viewport.
        let last = try #require(frames.last)
        #expect(last["viewport"] as? [String: Double] == ["width": 600, "height": 400])
        let offset = try #require((last["contentOffset"] as? [String: Double])?["x"])
        #expect(abs(offset - (1300 - 300)) < 1e-9)
    }

    @Test func commandLineOverridesTheScenarioTable() throws {
        let source = Self.effect + "scenarios = { s = { viewport = '400x600', items = 3, steps = { { jump = 10 } } } }\n"
        let result = try Self.run(source, ["--scenario", "s", "--viewport", "500x500", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try Self.json(result)
        #expect(json["viewport"] as? [String: Double] == ["width": 500, "height": 500])
    }

    static let failures: [(source: String, arguments: [String], status: Int32, message: String)] = [
        ("scenarios = { a = { steps = {} }, b = { steps = {} } }\n", ["--scenario", "c"], 1,
         "unknown scenario 'c' (the script defines: a, b)"),
        ("scenarios = { a = { steps = { { flig = 2 } } } }\n", ["--scenario", "a"], 1,
         "scenario 'a': step 1: unknown key 'flig'"),
        ("scenarios = { a = { steps = { { fling = 'fast' } } } }\n", ["--scenario", "a"], 1,
         "scenario 'a': step 1: fling must be a finite number (got fast)"),
        ("scenarios = { a = { fps = 0, steps = {} } }\n", ["--scenario", "a"], 1,
         "scenario 'a': fps must be a positive number (got 0)"),
        ("scenarios = { a = { steps = { { scrollToItem = 99 } } } }\n", ["--scenario", "a"], 1,
         "no item 99 in section 0"),
        ("function targetContentOffset() return 'left' end\n", ["--fling", "1"], 1,
         "targetContentOffset: returned a string; expected a CGPoint or a number"),
        ("", ["--fling", "x"], 2, "cardlua: --fling: expected a number (got 'x')"),
        ("", ["--fps", "-5"], 2, "cardlua: --fps: expected a number above 0"),
    ]

    @Test(arguments: 0..<failures.count)
    func badScenariosAreReportedClearly(index: Int) throws {
        let (source, arguments, status, message) = Self.failures[index]
        let result = try Self.run(Self.effect.replacingOccurrences(of: "function targetContentOffset", with: "local function _unused")
                                  + source, arguments)
        #expect(result.status == status)
        #expect(!result.signalled)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        // One line first, located in the script when it is the script's fault.
        if status == 1 { #expect(result.stderr.hasPrefix("s.lua:"), "\(result.stderr)") }
    }
}
