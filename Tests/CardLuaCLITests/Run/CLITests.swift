import Foundation
import Testing

/// `cardlua run` end to end: the contracts of README.md and docs/json.md, and the bad-input promises.
@Suite struct CLITests {
    @Test func helpAndVersion() throws {
        let help = try CLI.run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("run SCRIPT [options]"))
        let runHelp = try CLI.run(["run", "--help"])
        #expect(runHelp.status == 0 && runHelp.stdout.contains("--viewport WxH"))
        let version = try CLI.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("cardlua "))
    }

    /// `--offset 150 --format json` is the JSON of docs/json.md with the seed's numbers.
    @Test func lolJSONAtOffset150() throws {
        let result = try CLI.run(["run", CLI.script("lol.lua"), "--offset", "150", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["cardlua"] as? Int == 1)
        #expect(json["script"] as? String == "lol.lua")
        let viewport = try #require(json["viewport"] as? [String: Double])
        #expect(viewport == ["width": 414, "height": 736])
        let layout = try #require(json["layout"] as? [String: Any])
        #expect(layout["scrollDirection"] as? String == "horizontal")
        #expect(layout["itemSize"] as? [String: Double] == ["width": 300, "height": 500])
        #expect(layout["sectionInset"] as? [String: Double] == ["top": 200, "left": 50, "bottom": 200, "right": 50])
        #expect(layout["minimumLineSpacing"] as? Double == 0)
        #expect(layout["minimumInteritemSpacing"] as? Double == 10)
        #expect(json["contentSize"] as? [String: Double] == ["width": 6100, "height": 736])
        let frames = try #require(json["frames"] as? [[String: Any]])
        #expect(frames.count == 1)
        let frame = frames[0]
        #expect(frame["time"] as? Double == 0)
        #expect(frame["phase"] as? String == "idle")
        #expect(frame["contentOffset"] as? [String: Double] == ["x": 150, "y": 0])
        let items = try #require(frame["items"] as? [[String: Any]])
        // Visible rect 150…564 meets items 0 (50…350) and 1 (350…650).
        #expect(items.map { $0["item"] as? Int } == [0, 1])
        for item in items {
            let index = try #require(item["item"] as? Int)
            let f = try #require(item["frame"] as? [String: Double])
            #expect(f == ["x": 50 + 300 * Double(index), "y": 118, "width": 300, "height": 500])
            #expect(item["center"] as? [String: Double] == ["x": 200 + 300 * Double(index), "y": 368])
            // The seed's closed form: θ = −35° · d/200 with d = 357 − centre.
            let distance = 357 - (200 + 300 * Double(index))
            let theta = -35 * Double.pi / 180 * distance / 200
            let m = try #require(item["transform3D"] as? [Double])
            let expected = [cos(theta), 0, -sin(theta), -sin(theta) / 600, 0, 1, 0, 0,
                            sin(theta), 0, cos(theta), cos(theta) / 600, 0, 0, 0, 1]
            #expect(m.count == 16)
            for (a, b) in zip(m, expected) { #expect(abs(a - b) < 1e-12) }
            #expect(item["alpha"] as? Double == 1)
            #expect(item["zIndex"] as? Int == 1)
            #expect(item["hidden"] as? Bool == false)
        }
        #expect((json["snaps"] as? [Any])?.isEmpty == true)
    }

    /// The README's first command: the demo prints the LoL frames.
    @Test func demoPrintsFrames() throws {
        let result = try CLI.run(["run", CLI.script("lol.lua")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("lol.lua: 414x736 viewport, horizontal, item 300x500, content 6100x736"))
        #expect(result.stdout.contains("dragging") && result.stdout.contains("decelerating"))
        #expect(result.stdout.contains("release: velocity"))
    }

    @Test func flingComesToRestWithACardCentred() throws {
        let result = try CLI.run(["run", CLI.script("lol.lua"), "--fling", "2", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let frames = try #require(json["frames"] as? [[String: Any]])
        let offsets = frames.compactMap { ($0["contentOffset"] as? [String: Double])?["x"] }
        #expect(offsets.count == frames.count && offsets.count > 10)
        // Slowing down: never moving back, steps shrinking at the end.
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 <= $1 })
        // proposed where the fling stops, (2 − 0.01)·0.998/0.002 = 993.01 → nearest centre to
        // 993.01 + 207 is item 3's 1100 → 893.
        #expect(offsets.last == 893)
        let snaps = try #require(json["snaps"] as? [[String: Any]])
        #expect(snaps.count == 1)
        #expect(abs(((snaps[0]["proposedContentOffset"] as? [String: Double])?["x"] ?? 0) - 993.01) < 1e-9)
        #expect((snaps[0]["targetContentOffset"] as? [String: Double])?["x"] == 893)
    }

    @Test func outputFileIsWrittenWhole() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("frame.json").path
        let result = try CLI.run(["run", CLI.script("card-scale.lua"), "--offset", "0", "-o", path])
        #expect(result.status == 0 && result.stdout.isEmpty)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("{") && text.contains("\"script\": \"card-scale.lua\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["frame.json"])
    }

    @Test func sameRunTwiceIsByteIdentical() throws {
        let a = try CLI.run(["run", CLI.script("photo-browser.lua"), "--format", "json"])
        let b = try CLI.run(["run", CLI.script("photo-browser.lua"), "--format", "json"])
        #expect(a.status == 0 && a.stdout == b.stdout && !a.stdout.isEmpty)
    }

    static let usageCases: [[String]] = [
        ["run", "SCRIPT", "--viewport", "0x0"],
        ["run", "SCRIPT", "--viewport", "abc"],
        ["run", "SCRIPT", "--items", "-3"],
        ["run", "SCRIPT", "--fps", "0"],
        ["run", "SCRIPT", "--fling", "fast"],
        ["run", "SCRIPT", "--format", "pdf"],
        ["run", "SCRIPT", "--ofset", "3"],
        ["run"],
        ["frobnicate"],
    ]

    @Test(arguments: usageCases)
    func wrongUsageExitsTwoWithOneClearLine(arguments: [String]) throws {
        let result = try CLI.run(arguments.map { $0 == "SCRIPT" ? CLI.script("lol.lua") : $0 })
        #expect(result.status == 2)
        #expect(!result.signalled)
        #expect(result.stderr.hasPrefix("cardlua: "))
        #expect(!result.stderr.contains("Fatal error") && result.stdout.isEmpty)
    }

    static let scriptFailures: [(source: String, expected: String)] = [
        ("function transform(a)\n  return 1 +\nend\n", "bad.lua:3: unexpected symbol near 'end'"),
        ("function transform(a)\n  if a.indexPath.item == 3 then error('boom') end\nend\n", "bad.lua:2: transform: item 3: boom"),
        ("function transform(a)\n  return 'x'\nend\n", "bad.lua:2: transform: item 0: returned a string"),
        ("function transform(a)\n  return { m11 = 0/0 }\nend\n", "bad.lua:1: transform: item 0: the returned transform.m11 is NaN"),
        ("function prepare(l)\n  l.itemSize = { width = -1, height = 5 }\nend\n", "bad.lua:2: prepare: layout.itemSize.width must be positive"),  // the assignment's line
        ("function prepare(l)\n  local x = l.nothing.here\nend\n", "bad.lua:2: prepare: attempt to index a nil value (field 'nothing')"),
        ("function targetContentOffset(p, v)\n  return 0/0\nend\n", "bad.lua:1: targetContentOffset: returned y = NaN"),
    ]

    @Test(arguments: 0..<scriptFailures.count)
    func brokenScriptExitsOneWithFileAndLine(index: Int) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (source, expected) = Self.scriptFailures[index]
        let path = try CLI.write(source, named: "bad.lua", in: directory)
        // 200 default items (50×50) are longer than the viewport, so the fling scrolls and
        // asks targetContentOffset (content that fits does not move, as in UIKit).
        let result = try CLI.run(["run", "bad.lua", "--fling", "1", "--items", "200"], directory: directory)
        #expect(result.status == 1)
        #expect(!result.signalled)
        #expect(result.stderr.hasPrefix(expected), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        _ = path
    }

    @Test func missingScript() throws {
        let result = try CLI.run(["run", "/nonexistent/effect.lua"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("/nonexistent/effect.lua: no such file"))
    }

    @Test func failedRunLeavesNoOutputFile() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try CLI.write("function transform() error('no') end", named: "e.lua", in: directory)
        let out = directory.appendingPathComponent("out.svg").path
        let result = try CLI.run(["run", script, "-o", out])
        #expect(result.status == 1)
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
