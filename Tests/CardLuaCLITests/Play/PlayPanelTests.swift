import Foundation
import Testing

extension PlayTests {
    /// `GET /export`: the Swift `cardlua export` writes, for the values the page's
    /// sliders have now — the same text as the command with those values as --param.
    @Test func exportSwiftGivesTheExportForTheValuesInUse() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try String(contentsOfFile: CLI.script("effects/fspager-linear.lua"), encoding: .utf8)
        _ = try CLI.write(script, named: "linear.lua", in: directory)
        let play = try PlayServer(["linear.lua"], directory: directory)
        defer { play.process.kill() }

        let first = try PlayServer.json(play.get("/export"))
        let untouched = try CLI.run(["export", "linear.lua"], directory: directory)
        try #require(untouched.status == 0, "\(untouched.stderr)")
        #expect(first["swift"] as? String == untouched.stdout)
        #expect(first["className"] as? String == "LinearLayout")

        // A slider moved: the export bakes the new value in, as --param does.
        let moved = play.post("/params", "{\"t\": 0, \"name\": \"minimumScale\", \"value\": 0.75}")
        #expect(moved.hasPrefix("HTTP/1.1 200"), "\(moved)")
        let tuned = try PlayServer.json(play.get("/export"))
        let command = try CLI.run(["export", "linear.lua", "--param", "minimumScale=0.75"], directory: directory)
        try #require(command.status == 0, "\(command.stderr)")
        #expect(tuned["swift"] as? String == command.stdout)
        #expect(tuned["swift"] as? String != first["swift"] as? String)
    }

    /// `GET /export?target=swiftui`: `cardlua export --swiftui`'s view for the values in
    /// use; an unknown target is a 400.
    @Test func exportSwiftUIGivesTheViewForTheValuesInUse() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try String(contentsOfFile: CLI.script("effects/fspager-linear.lua"), encoding: .utf8)
        _ = try CLI.write(script, named: "linear.lua", in: directory)
        let play = try PlayServer(["linear.lua"], directory: directory)
        defer { play.process.kill() }
        let moved = play.post("/params", "{\"t\": 0, \"name\": \"minimumScale\", \"value\": 0.75}")
        #expect(moved.hasPrefix("HTTP/1.1 200"), "\(moved)")
        let answer = try PlayServer.json(play.get("/export?target=swiftui"))
        let command = try CLI.run(["export", "--swiftui", "linear.lua", "--param", "minimumScale=0.75"], directory: directory)
        try #require(command.status == 0, "\(command.stderr)")
        #expect(answer["swift"] as? String == command.stdout)
        #expect(answer["className"] as? String == "LinearCarousel")
        #expect(play.get("/export?target=appkit").hasPrefix("HTTP/1.1 400"))
    }

    /// A script the translator refuses gets its one line, not a crash or an empty answer.
    @Test func exportSwiftOfAnEndlessCarouselSaysWhyNot() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try String(contentsOfFile: CLI.script("wrap-carousel.lua"), encoding: .utf8)
        _ = try CLI.write(script, named: "wrap.lua", in: directory)
        let play = try PlayServer(["wrap.lua"], directory: directory)
        defer { play.process.kill() }
        let answer = try PlayServer.json(play.get("/export"))
        let error = try #require(answer["error"] as? String)
        #expect(error.hasPrefix("wrap.lua:") && error.contains(": export: "), "\(error)")
        #expect(answer["swift"] == nil)
    }
}

extension PlayTests {
    /// What check warns about, play says too: on standard error and in the page's state.
    @Test func aMisspeltCallbackIsAWarningInThePageAndOnStandardError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(RunWarningsTests.misspelt, named: "fx.lua", in: directory)
        let play = try PlayServer(["fx.lua"], directory: directory)
        defer { play.process.kill() }
        let state = try #require(try PlayServer.json(play.get("/state"))["state"] as? [String: Any])
        let warnings = state["warnings"] as? [String] ?? []
        #expect(warnings == ["fx.lua:5: warning: function 'tranform' is never called by cardlua — did you mean transform?"],
                "\(warnings)")
        #expect(waitUntil { play.process.stderr.contains("did you mean transform?") }, "\(play.process.stderr)")
    }
}

extension PlayTests {
    /// A tall viewport turns a one-row carousel into a grid, as UIKit's flow does: the
    /// panel says why, and what keeps one row.
    @Test func theGridATallViewportMakesIsExplained() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("""
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          layout.itemSize = CGSizeMake(260, 380)
        end

        """, named: "tall.lua", in: directory)
        let phone = try PlayServer(["tall.lua"], directory: directory)
        defer { phone.process.kill() }
        let one = try #require(try PlayServer.json(phone.get("/state"))["state"] as? [String: Any])
        #expect(one["layoutNote"] is NSNull, "one row at 414×736: \(String(describing: one["layoutNote"]))")

        let pad = try PlayServer(["tall.lua", "--viewport", "820x1180"], directory: directory)
        defer { pad.process.kill() }
        let state = try #require(try PlayServer.json(pad.get("/state"))["state"] as? [String: Any])
        // 3 · 380 + 2 · 10 ≤ 1180: three rows.
        #expect(state["layoutNote"] as? String == "horizontal flow lays out 3 rows at 820×1180: itemSize.height 380 ≤ (1180 − insets 0)/2; raise sectionInset.top/bottom to keep one row")
    }
}

extension PlayTests {
    /// The item `run` marks under the centre (`▼`) at `offset`: the label of the card whose
    /// span in the strip holds the marker's column.
    static func runCentredItem(_ script: String, offset: Int, in directory: URL) throws -> Int? {
        let result = try CLI.run(["run", script, "--offset", String(offset)], directory: directory)
        try #require(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        guard let marker = lines.firstIndex(where: { $0.contains("▼") && $0.allSatisfy { $0 == " " || $0 == "▼" } }),
              marker + 1 < lines.count, let column = lines[marker].firstIndex(of: "▼") else { return nil }
        let strip = lines[marker + 1]
        var start = column, end = column
        while start > 0, strip[start] != "[" { start -= 1 }
        while end < strip.count - 1, strip[end] != "]" { end += 1 }
        return Int(String(strip[start...end].filter(\.isNumber)))
    }

    /// Ports whose own element query puts every card at the bounds' centre: the page's
    /// centred item is the engine's (each frame's `ci`, as `state.centredItem`), the item
    /// `run` marks at the same offset — not the first card of the frame.
    @Test func theCentredItemIsTheEnginesForCardsAllAtTheCentre() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["icarousel-coverflow.lua", "paging-stack-vortex.lua"] {
            let script = try String(contentsOfFile: CLI.script("effects/" + name), encoding: .utf8)
            _ = try CLI.write(script, named: name, in: directory)
        }
        let coverflow = try PlayServer(["icarousel-coverflow.lua"], directory: directory)
        defer { coverflow.process.kill() }
        var t = 0.1
        var last = 0
        for offset in [1600, 1800, 2000] {
            // The wheel moves the content by its delta at once.
            let answer = try PlayServer.json(coverflow.post("/input", "{\"type\":\"wheel\",\"t\":\(t),\"x\":\(offset - last)}"))
            let state = try #require(answer["state"] as? [String: Any])
            let frame = try #require((answer["frames"] as? [[String: Any]])?.first)
            #expect(frame["o"] as? [Double] == [Double(offset), 0], "\(frame["o"] ?? "")")
            let run = try #require(try Self.runCentredItem("icarousel-coverflow.lua", offset: offset, in: directory))
            #expect(run == offset / 200, "run marks item \(run) at \(offset)")  // item i centred at 200 i
            #expect(frame["ci"] as? [Int] == [0, run], "at \(offset): \(frame["ci"] ?? "none")")
            #expect(state["centredItem"] as? [Int] == [0, run], "at \(offset): \(state["centredItem"] ?? "none")")
            last = offset
            t += 0.1
        }

        // Pages of the viewport's width, 414 apart: at 1600 page 3.86 (4 nearest), 1800 4.35,
        // 2000 4.83 (5); on a page, the page itself, as `run` marks it.
        let vortex = try PlayServer(["paging-stack-vortex.lua"], directory: directory)
        defer { vortex.process.kill() }
        t = 0.1
        last = 0
        for (offset, item) in [(1600, 4), (1800, 4), (2000, 5), (2070, 5), (2484, 6)] {
            let answer = try PlayServer.json(vortex.post("/input", "{\"type\":\"wheel\",\"t\":\(t),\"x\":\(offset - last)}"))
            let state = try #require(answer["state"] as? [String: Any])
            let frame = try #require((answer["frames"] as? [[String: Any]])?.first)
            #expect(frame["ci"] as? [Int] == [0, item], "at \(offset): \(frame["ci"] ?? "none")")
            #expect(state["centredItem"] as? [Int] == [0, item], "at \(offset): \(state["centredItem"] ?? "none")")
            if offset % 414 == 0 {
                #expect(try Self.runCentredItem("paging-stack-vortex.lua", offset: offset, in: directory) == item)
            }
            last = offset
            t += 0.1
        }
    }

    /// Four → presses 50 ms apart move four items: a press while the previous one's scroll
    /// runs goes on from the item that scroll is going to, not the one still under the centre.
    @Test func fourQuickStepsMoveFourItems() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(PlayPickerTests.wide, named: "wide.lua", in: directory)  // item i centred at 210 i + 100 − 207
        let play = try PlayServer(["wide.lua", "--items", "12"], directory: directory)
        defer { play.process.kill() }
        let start = try #require(try PlayPickerTests.state(play.get("/state"))["centredItem"] as? [Int])
        for t in [0.1, 0.15, 0.2, 0.25] {
            #expect(play.post("/input", "{\"type\":\"step\",\"t\":\(t),\"x\":1}").hasPrefix("HTTP/1.1 200"))
        }
        let settled = try PlayServer.frames(play.post("/frames?now=3&until=3.1", "{}"))
        let item = start[1] + 4
        #expect(settled.last?["o"] as? [Double] == [Double(210 * item + 100 - 207), 0], "\(settled.last ?? [:])")
        #expect(settled.last?["ci"] as? [Int] == [0, item], "\(settled.last ?? [:])")
        // Back: one ← after the scrolls end goes on from the centred item.
        #expect(play.post("/input", #"{"type":"step","t":3.2,"x":-1}"#).hasPrefix("HTTP/1.1 200"))
        let back = try PlayServer.frames(play.post("/frames?now=6&until=6.1", "{}"))
        #expect(back.last?["ci"] as? [Int] == [0, item - 1], "\(back.last ?? [:])")
    }
}

extension PlayPickerTests {
    /// The last release is the effect's: a pick starts the new effect's panel without the
    /// old one's.
    @Test func pickingForgetsTheLastRelease() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("effects")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try CLI.write(Self.wide, named: "a-wide.lua", in: folder)
        _ = try CLI.write(Self.narrow, named: "b-narrow.lua", in: folder)
        let play = try PlayServer(["effects"], directory: directory)
        defer { play.process.kill() }
        #expect(play.post("/input", #"{"type":"down","t":0.1}"#).hasPrefix("HTTP/1.1 200"))
        #expect(play.post("/input", #"{"type":"move","t":0.2,"x":-150}"#).hasPrefix("HTTP/1.1 200"))
        let released = try Self.state(play.post("/input", #"{"type":"up","t":0.3,"x":-1}"#))
        #expect(released["lastSnap"] is [String: Any], "\(released)")
        _ = play.post("/frames?now=3&until=3.1", "{}")
        let picked = try Self.state(play.post("/script", #"{"t":3.2,"name":"b-narrow.lua"}"#))
        #expect(picked["script"] as? String == "b-narrow.lua")
        #expect(picked["lastSnap"] is NSNull, "\(picked["lastSnap"] ?? "")")
        #expect(try Self.state(play.get("/state"))["lastSnap"] is NSNull)
    }
}
