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
