@testable import CardLuaCLI
import Foundation
import Testing

/// The state every answer of `play` carries (``PlayState``, written by ``PlayJSON``): valid
/// JSON whatever its strings hold, the same values read back, and every field the page's
/// play.js reads, with the type it reads.
@Suite struct PlayStateTests {
    /// Everything a hand-written JSON string could get wrong: quotes, backslashes, a
    /// newline, a tab, a control character, non-ASCII (two bytes, three, four), the line
    /// separator JavaScript once refused, a closing script tag and a slash.
    static let hostile = "say \"hi\" \\ back\\slash\nnext line\ttab \u{1} é ✓ 🃏 \u{2028} </script> a/b"

    /// Every field of the state, as play.js reads it (`state.…`; Tests/browser/play_test.py
    /// reads the same through `window.cardlua.state()`) and as the panel shows it.
    static let stateFields: Set = ["time", "contentOffset", "phase", "isTracking", "viewport", "contentSize", "range",
                                   "centredItem", "items", "horizontal", "fps", "lastSnap", "params", "scriptVersion",
                                   "script", "error", "warnings", "layoutNote"]
    /// A param's fields (sliders(), toggles and segments in play.js); `options` only for that kind.
    static let paramFields: Set = ["name", "value", "default", "min", "max", "step", "kind", "label"]

    static func sample() -> PlayState {
        PlayState(
            time: 1.25, contentOffset: .init(x: 12.5, y: -3), phase: "decelerating", isTracking: false,
            viewport: [414, 736], contentSize: [3000, 736], range: [0, 2586], centredItem: [0, 4], items: 20,
            horizontal: true, fps: 60,
            lastSnap: .init(time: 1, proposedContentOffset: .init(x: 900.5, y: 0), velocity: .init(x: -1.234, y: 0),
                            targetContentOffset: .init(x: 893, y: 0)),
            params: [
                .init(name: "rotate", value: .number(35.5), default: .number(35), min: -90, max: 90, step: 0.5, kind: "number", label: hostile,
                      options: nil),
                .init(name: "wrap", value: .boolean(false), default: .boolean(true), min: 0, max: 0, step: nil, kind: "boolean", label: nil,
                      options: nil),
                .init(name: "style", value: .option(hostile), default: .option("flat"), min: 0, max: 0, step: nil, kind: "options", label: nil,
                      options: ["flat", hostile]),
            ],
            scriptVersion: 3, script: "quo\"te \\ é.lua", error: hostile, warnings: [hostile, "fx.lua:5: warning: plain"],
            layoutNote: nil)
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func theStateDecodesBackToTheSameValues() throws {
        let state = Self.sample()
        let text = PlayJSON.text(state)
        #expect(try JSONDecoder().decode(PlayState.self, from: Data(text.utf8)) == state, "\(text)")
    }

    /// Read by another parser than the decoder: every field present (null where there is
    /// none), each of the type play.js takes, the strings exactly as they were.
    @Test func theStateCarriesEveryFieldThePageReads() throws {
        let text = PlayJSON.text(Self.sample())
        let state = try Self.object(text)
        #expect(Set(state.keys) == Self.stateFields)
        #expect(state["time"] as? Double == 1.25 && state["fps"] as? Double == 60)
        #expect(state["contentOffset"] as? [String: Double] == ["x": 12.5, "y": -3])
        #expect(state["phase"] as? String == "decelerating" && state["isTracking"] as? Bool == false)
        #expect(state["viewport"] as? [Double] == [414, 736] && state["contentSize"] as? [Double] == [3000, 736])
        #expect(state["range"] as? [Double] == [0, 2586] && state["centredItem"] as? [Int] == [0, 4])
        #expect(state["items"] as? Int == 20 && state["scriptVersion"] as? Int == 3 && state["horizontal"] as? Bool == true)
        #expect(state["script"] as? String == "quo\"te \\ é.lua")
        #expect(state["error"] as? String == Self.hostile)
        #expect(state["warnings"] as? [String] == [Self.hostile, "fx.lua:5: warning: plain"])
        #expect(state["layoutNote"] is NSNull, "present, null")
        let snap = try #require(state["lastSnap"] as? [String: Any])
        #expect(Set(snap.keys) == ["time", "proposedContentOffset", "velocity", "targetContentOffset"])
        #expect(snap["velocity"] as? [String: Double] == ["x": -1.234, "y": 0])
        #expect(snap["targetContentOffset"] as? [String: Double] == ["x": 893, "y": 0])

        let params = try #require(state["params"] as? [[String: Any]])
        #expect(params.map { $0["name"] as? String } == ["rotate", "wrap", "style"], "the script's order")
        #expect(Set(params[0].keys) == Self.paramFields && Set(params[1].keys) == Self.paramFields)
        #expect(Set(params[2].keys) == Self.paramFields.union(["options"]))
        #expect(params[0]["label"] as? String == Self.hostile && params[0]["step"] as? Double == 0.5)
        #expect(params[1]["label"] is NSNull && params[1]["step"] is NSNull)
        #expect(params[2]["value"] as? String == Self.hostile && params[2]["options"] as? [String] == ["flat", Self.hostile])
        // The value's JSON type is the kind's: a number, true / false, a string.
        #expect(text.contains(#""name":"rotate","step":0.5,"value":35.5}"#), "\(text)")
        #expect(text.contains(#""name":"wrap","step":null,"value":false}"#), "\(text)")
    }

    /// Numbers as the frames write theirs (FrameWire.number): whole ones without `.0`, the
    /// shortest text that reads back the same double, and NaN, the infinities (a wrapping
    /// layout's range) and −0 as 0, which JSON has.
    @Test func numbersAreWrittenAsTheFramesWriteThem() throws {
        var state = Self.sample()
        state.time = -0.0
        state.fps = .nan
        state.range = [-.infinity, .infinity]
        state.viewport = [0.1 + 0.2, 1e-7]
        state.contentOffset = .init(x: 1e21, y: -2)
        state.params = [.init(name: "n", value: .number(.infinity), default: .number(-.infinity), min: -.infinity, max: 2, step: .nan, kind: "number",
                              label: nil, options: nil)]
        let text = PlayJSON.text(state)
        for fragment in [#""time":0,"#, #""fps":0,"#, #""range":[0,0]"#, #""viewport":[0.30000000000000004,1e-07]"#,
                         #""contentOffset":{"x":1e+21,"y":-2}"#,
                         #"{"default":0,"kind":"number","label":null,"max":2,"min":0,"name":"n","step":0,"value":0}"#] {
            #expect(text.contains(fragment), "\(fragment) in \(text)")
        }
        for (x, written) in [(0.1 + 0.2, "0.30000000000000004"), (1e-7, "1e-07"), (1e21, "1e+21"), (-2, "-2"),
                             (414, "414"), (123456.789, "123456.789"), (-0.0, "0"), (.nan, "0")] {
            state.time = x
            #expect(PlayJSON.text(state).contains("\"time\":\(written),"), "\(x)")
        }
    }

    /// A real session's answer, with a file name and an error that hold quotes, a
    /// backslash, a newline and non-ASCII: valid JSON, the state as the playground has it.
    @Test func aPlaygroundsAnswerIsJSONWhateverItsNamesAndErrorsHold() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = "say \"hi\" \\ é ✓.lua"
        let path = try CLI.write(RunWarningsTests.misspelt, named: name, in: directory)
        let playground = try Playground(options: PlayOptions(PlayCommand.declaration.parse([path])))

        func answered() throws -> (state: PlayState, frames: [[String: Any]]) {
            let text = playground.answer(frames: [playground.frameNow()].compactMap { $0 })
            let answer = try Self.object(text)
            #expect(Set(answer.keys) == ["state", "frames"])
            let state = try #require(answer["state"] as? [String: Any])
            #expect(Set(state.keys) == Self.stateFields)
            struct Answer: Decodable { var state: PlayState }
            return (try JSONDecoder().decode(Answer.self, from: Data(text.utf8)).state,
                    try #require(answer["frames"] as? [[String: Any]]))
        }
        let first = try answered()
        #expect(first.state == playground.pageState())
        #expect(first.state.script == name)
        #expect(first.state.error == nil && first.state.scriptVersion == 1)
        #expect(first.state.warnings.count == 1 && first.state.warnings == playground.warnings, "\(first.state.warnings)")
        #expect(first.state.warnings.first?.contains("did you mean transform?") == true)
        #expect(first.frames.count == 1 && first.frames[0]["ci"] is [Int], "\(first.frames)")

        // A broken save: its error names the file and says what the script said.
        _ = try CLI.write("error(\"say \\\"no\\\" \\\\ ü\\nline two\")\n", named: name, in: directory)
        playground.markChanged()
        playground.reloadIfChanged(at: 0)
        let broken = try answered()
        let error = try #require(broken.state.error)
        #expect(error == playground.error)
        #expect(error.contains(#"say "no" \ ü"#) && error.contains("line two"), "\(error)")
        #expect(broken.state.script == name && broken.state.scriptVersion == 1, "the last good effect goes on")
    }

    /// The other answers: Export Swift (the error alone when there is one), Record, the
    /// picker's list (its folder null, not left out, for one script).
    @Test func theOtherAnswersAreJSONWithTheirFields() throws {
        let exported = try Self.object(PlayJSON.text(Playground.ExportAnswer(swift: Self.hostile, className: "FxLayout")))
        #expect(exported as? [String: String] == ["swift": Self.hostile, "className": "FxLayout"])
        let refused = try Self.object(PlayJSON.text(Playground.ExportAnswer(error: Self.hostile)))
        #expect(refused as? [String: String] == ["error": Self.hostile])
        let recorded = try Self.object(PlayJSON.text(Playground.RecordAnswer(lua: Self.hostile)))
        #expect(recorded as? [String: String] == ["lua": Self.hostile])
        let alone = try Self.object(PlayJSON.text(Playground.ScriptsAnswer(folder: nil, scripts: [], current: Self.hostile)))
        #expect(Set(alone.keys) == ["folder", "scripts", "current"] && alone["folder"] is NSNull)
        #expect(alone["scripts"] as? [String] == [] && alone["current"] as? String == Self.hostile)
        let folder = try Self.object(PlayJSON.text(Playground.ScriptsAnswer(folder: "fx é", scripts: ["a.lua", "b.lua"],
                                                                            current: "a.lua")))
        #expect(folder["folder"] as? String == "fx é" && folder["scripts"] as? [String] == ["a.lua", "b.lua"])
    }
}
