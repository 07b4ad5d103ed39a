import CardLuaTestSupport
import Foundation
import Testing

/// `--param NAME=X` on the command line, and the JSON's `params`.
@Suite struct ParamsCLITests {
    static let script = """
    params = {
      rotate = { value = 35, min = 0, max = 90, step = 1 },
      spacing = { value = 10, min = -40, max = 40 },
    }
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(100, 100)
    end
    function transform(attributes, layout)
      return CATransform3DMakeRotation(params.rotate * M_PI / 180, 0, 0, 1)
    end

    """

    @Test func jsonRecordsTheValuesUsedOnlyWhenDeclared() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try CLI.write(Self.script, named: "tweak.lua", in: dir)
        let run = try CLI.run(["run", path, "--offset", "0", "--format", "json", "--param", "rotate=50", "--param=spacing=-2.5"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\n  \"params\": { \"rotate\": 50, \"spacing\": -2.5 },\n  \"frames\": ["))
        let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let frames = try #require(json?["frames"] as? [[String: Any]])
        let items = try #require(frames.first?["items"] as? [[String: Any]])
        let m = try #require(items.first?["transform3D"] as? [Double])
        #expect(abs(m[0] - cos(50 * Double.pi / 180)) < 1e-12 && abs(m[1] - sin(50 * Double.pi / 180)) < 1e-12)
        let defaults = try CLI.run(["run", path, "--offset", "0", "--format", "json"])
        #expect(defaults.stdout.contains("\"params\": { \"rotate\": 35, \"spacing\": 10 }"))
        let text = try CLI.run(["run", path, "--offset", "0", "--param", "rotate=50"])
        #expect(text.stdout.contains(", params rotate=50 spacing=10\n"))
        let plain = try CLI.run(["run", CLI.script("lol.lua"), "--offset", "0", "--format", "json"])
        #expect(plain.status == 0 && !plain.stdout.contains("\"params\""))
    }

    @Test func refusedOverridesAreUsageErrorsOnOneLine() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try CLI.write(Self.script, named: "tweak.lua", in: dir)
        let cases: [([String], String)] = [
            (["run", path, "--param", "rotat=50"], "cardlua: --param rotat=50: the script has no param 'rotat'; did you mean rotate?"),
            (["run", path, "--param", "rotate=91"], "cardlua: --param rotate=91: 91 is outside 0…90 (params.rotate's min…max)"),
            // The value as the user wrote it, not as a number formatted back ("90.5", "1e2").
            (["run", path, "--param", "rotate=90.50"], "cardlua: --param rotate=90.50: 90.50 is outside 0…90 (params.rotate's min…max)"),
            (["run", path, "--param", "rotate=1e2"], "cardlua: --param rotate=1e2: 1e2 is outside 0…90 (params.rotate's min…max)"),
            (["check", path, "--param", "spacng=1"], "cardlua: --param spacng=1: the script has no param 'spacng'; did you mean spacing?"),
            (["run", CLI.script("lol.lua"), "--param", "rotate=1"], "cardlua: --param rotate=1: the script declares no params"),
            (["watch", path, "--param", "rotate=-1", "-o", dir.appendingPathComponent("out.json").path],
             "cardlua: --param rotate=-1: -1 is outside 0…90 (params.rotate's min…max)"),
        ]
        for (arguments, expected) in cases {
            let result = try CLI.run(arguments, timeout: 30)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr == expected + "\n", "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
        let syntax = try CLI.run(["run", path, "--param", "rotate"])
        #expect(syntax.status == 2 && syntax.stderr.hasPrefix("cardlua: --param: expected NAME=VALUE, like rotate=50 or wrap=true (got 'rotate')\n"))
        let number = try CLI.run(["run", path, "--param", "rotate=abc"])
        #expect(number.status == 2 && number.stderr.hasPrefix("cardlua: --param rotate=abc: params.rotate is a number from 0 to 90: type one, like --param rotate=35 (got 'abc')\n"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.json").path))
    }

    @Test func checkRunsWithTheOverride() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A transform that fails only when rotate is above 60.
        let source = Self.script.replacingOccurrences(of: "  return CATransform3DMakeRotation",
                                                      with: "  if params.rotate > 60 then error(\"too far\") end\n  return CATransform3DMakeRotation")
        let path = try CLI.write(source, named: "tweak.lua", in: dir)
        let clean = try CLI.run(["check", path])
        #expect(clean.status == 0, "\(clean.stdout)")
        let tilted = try CLI.run(["check", path, "--param", "rotate=70"])
        #expect(tilted.status == 1 && tilted.stdout.contains("tweak.lua:10: transform: item 0: too far"), "\(tilted.stdout)")
    }

    /// `cardlua play --param`: the page's state starts with the value; a slider's POST
    /// /params outside the range is a 400 with the reason; a name the script does not
    /// declare stops play before it serves (exit 2, one line).
    @Test func playStartsWithTheOverrideAndRefusesBadSliders() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try CLI.write(Self.script, named: "tweak.lua", in: dir)
        let refused = try CLI.run(["play", dir.appendingPathComponent("tweak.lua").path, "--port", "0", "--param", "rotat=1"])
        #expect(refused.status == 2)
        #expect(refused.stderr == "cardlua: --param rotat=1: the script has no param 'rotat'; did you mean rotate?\n")

        let play = try WatchProcess(["play", "tweak.lua", "--port", "0", "--param", "rotate=50"], directory: dir)
        defer { play.kill() }
        try #require(waitUntil { play.stdout.contains("\n") }, "no URL printed; stderr: \(play.stderr)")
        let line = play.stdout.split(separator: "\n")[0]
        let port = try #require(UInt16(line.dropFirst("http://127.0.0.1:".count).dropLast()))
        let state = try #require(PlayTests.request(port: port, "GET /state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"))
        // The script's order; each param's keys in name order (PlayJSON).
        #expect(state.contains(#""params":[{"default":35,"kind":"number","label":null,"max":90,"min":0,"name":"rotate","step":1,"value":50},"#
                               + #"{"default":10,"kind":"number","label":null,"max":40,"min":-40,"name":"spacing","step":null,"value":10}]"#), "\(state)")
        func post(_ body: String) -> String? {
            PlayTests.request(port: port, "POST /params HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                + "Origin: http://127.0.0.1:\(port)\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        }
        let tooFar = try #require(post(#"{"t":0.5,"name":"rotate","value":95}"#))
        #expect(tooFar.hasPrefix("HTTP/1.1 400") && tooFar.contains("95 is outside 0…90 (params.rotate's min…max)"))
        let unknown = try #require(post(#"{"t":0.5,"name":"spin","value":1}"#))
        #expect(unknown.hasPrefix("HTTP/1.1 400") && unknown.contains("the script has no param 'spin'"))
        let moved = try #require(post(#"{"t":0.5,"name":"spacing","value":-5}"#))
        #expect(moved.hasPrefix("HTTP/1.1 200") && moved.contains(#""name":"spacing","step":null,"value":-5}"#)
                && moved.contains(#""name":"rotate","step":1,"value":50}"#), "\(moved)")
        #expect(play.interruptAndWait(timeout: 20) == 0)
    }

    /// `watch --param`: every run (a fresh state per save) uses the override.
    @Test func watchSetsTheOverrideInEveryRun() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("tweak.lua")
        let output = dir.appendingPathComponent("out.json")
        try Self.script.write(to: script, atomically: false, encoding: .utf8)
        let watch = try WatchProcess(["watch", "tweak.lua", "--offset", "0", "--param", "rotate=50", "-o", "out.json"],
                                     directory: dir)
        defer { watch.kill() }
        func written() -> String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        try #require(waitUntil { written().contains("\"params\": { \"rotate\": 50, \"spacing\": 10 }") },
                     "no first output; stderr: \(watch.stderr)")
        // A save that changes spacing's declared value: the override of rotate stays.
        try Self.script.replacingOccurrences(of: "value = 10,", with: "value = 20,")
            .write(to: script, atomically: false, encoding: .utf8)
        #expect(waitUntil { written().contains("\"params\": { \"rotate\": 50, \"spacing\": 20 }") },
                "stderr: \(watch.stderr)")
        #expect(watch.interruptAndWait(timeout: 20) == 0)
    }

    /// A run with params and an autoplay step validates against docs/cardlua.schema.json,
    /// and the schema refuses a params value that is not a number, a boolean or a string.
    @Test func paramsAndAutoplayOutputValidates() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = Self.script + "scenarios = { auto = { items = 5, fps = 10, steps = { { autoplay = 0.5, duration = 1 } } } }\n"
        let path = try CLI.write(source, named: "tweak.lua", in: dir)
        let result = try CLI.run(["run", path, "--scenario", "auto", "--format", "json", "--param", "spacing=3"])
        try #require(result.status == 0, "\(result.stderr)")
        let validator = SchemaValidator(root: try JSONSchemaTests.schema())
        #expect(validator.validate(try JSONValue.parse(Data(result.stdout.utf8))).isEmpty)
        let broken = result.stdout.replacingOccurrences(of: "\"spacing\": 3", with: "\"spacing\": [3]")
        #expect(broken != result.stdout)
        #expect(!validator.validate(try JSONValue.parse(Data(broken.utf8))).isEmpty)
    }
}
