import Foundation
import Testing

/// On/off and one-of params from the command line, in `play` and in `export` (issue 24
/// item 7): `--param wrap=false`, `--param style=flat`, the page's toggle and segments.
@Suite struct ParamKindsCLITests {
    static let script = """
    params = {
      zoom = { value = 2, min = 0, max = 5, label = "Viewpoint offset" },
      wrap = { value = true },
      style = { value = "cover", options = { "cover", "flat", "stack" } },
    }
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(100, 100)
    end
    function transform(attributes, layout)
      attributes.alpha = (params.wrap and 0.5 or 0) + (params.style == "flat" and 0.25 or 0)
    end

    """

    @Test func runTakesBooleansAndOptions() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write(Self.script, named: "kinds.lua", in: directory)
        let defaults = try CLI.run(["run", path, "--format", "json", "--offset", "0"])
        #expect(defaults.status == 0, "\(defaults.stderr)")
        // By name in the JSON (a machine's order), each as its JSON kind.
        #expect(defaults.stdout.contains("\n  \"params\": { \"style\": \"cover\", \"wrap\": true, \"zoom\": 2 },\n"), "\(defaults.stdout)")
        #expect(defaults.stdout.contains("\"alpha\": 0.5,"))
        let set = try CLI.run(["run", path, "--format", "json", "--offset", "0", "--param", "wrap=false", "--param", "style=flat"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("\"params\": { \"style\": \"flat\", \"wrap\": false, \"zoom\": 2 }"))
        #expect(set.stdout.contains("\"alpha\": 0.25,"))

        let cases: [([String], String)] = [
            (["run", path, "--param", "style=flt"],
             "cardlua: --param style=flt: 'flt' is not one of params.style's options (cover, flat, stack); did you mean flat?"),
            (["check", path, "--param", "wrap=0"], "cardlua: --param wrap=0: params.wrap is on/off: expected true or false (got '0')"),
            (["run", path, "--param", "zoom=true"], "cardlua: --param zoom=true: params.zoom is a number from 0 to 5: type one, like --param zoom=2 (got 'true')"),
            (["run", path, "--param", "style="],
             "cardlua: --param style=: expected a value after '=' (a number, true or false, or an option)"),
        ]
        for (arguments, expected) in cases {
            let result = try CLI.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix(expected + "\n"), "\(arguments): \(result.stderr)")
        }
        let bad = try CLI.write(Self.script.replacingOccurrences(of: #"value = "cover""#, with: #"value = "cove""#),
                                named: "bad.lua", in: directory)
        let checked = try CLI.run(["check", bad])
        #expect(checked.status == 1)
        #expect(checked.stdout.contains("bad.lua:4: params.style: value \"cove\" is not one of the options (cover, flat, stack)"),
                "\(checked.stdout)")
    }

    @Test func playShowsKindsLabelsAndOrderAndTakesTheirValues() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.script, named: "kinds.lua", in: directory)
        let play = try PlayServer(["kinds.lua", "--param", "style=stack"], directory: directory)
        defer { play.process.kill() }
        let state = play.get("/state")
        // The script's order; each param's keys in name order (PlayJSON).
        #expect(state.contains(#""params":[{"default":2,"kind":"number","label":"Viewpoint offset","max":5,"min":0,"name":"zoom","step":null,"value":2},"#
                               + #"{"default":true,"kind":"boolean","label":null,"max":0,"min":0,"name":"wrap","step":null,"value":true},"#
                               + #"{"default":"cover","kind":"options","label":null,"max":0,"min":0,"name":"style","#
                               + #""options":["cover","flat","stack"],"step":null,"value":"stack"}]"#), "\(state)")
        let toggled = play.post("/params", #"{"t":0.1,"name":"wrap","value":false}"#)
        #expect(toggled.hasPrefix("HTTP/1.1 200") && toggled.contains(#""name":"wrap","step":null,"value":false}"#), "\(toggled)")
        let segment = play.post("/params", #"{"t":0.2,"name":"style","value":"flat"}"#)
        #expect(segment.hasPrefix("HTTP/1.1 200") && segment.contains(#""name":"style","options":["cover","flat","stack"],"step":null,"value":"flat"}"#),
                "\(segment)")
        // The drawn alpha follows (0 + 0.25): the card's alpha is the 23rd number.
        let card = try #require((try PlayServer.frames(segment).first?["c"] as? [[Any]])?.first)
        #expect((card[22] as? NSNumber)?.doubleValue == 0.25, "\(card)")
        for (body, reason) in [(#"{"t":0.3,"name":"style","value":"flt"}"#, "did you mean flat?"),
                               (#"{"t":0.3,"name":"style","value":1}"#, "expected one of its options"),
                               (#"{"t":0.3,"name":"wrap","value":"on"}"#, "expected true or false")] {
            let refused = play.post("/params", body)
            #expect(refused.hasPrefix("HTTP/1.1 400") && refused.contains(reason), "\(body): \(refused)")
        }
        // Record writes what the replay needs, exactly.
        _ = play.post("/record", #"{"t":0.4,"action":"start"}"#)
        let recorded = try PlayServer.json(play.post("/record", #"{"t":0.5,"action":"stop"}"#))
        #expect((recorded["lua"] as? String)?.hasPrefix("-- recorded with --param wrap=false --param style=flat\n") == true,
                "\(recorded)")
    }

    @Test func exportBakesABooleanAndRefusesOptions() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let onOff = try CLI.write("""
        params = { wrap = { value = true, label = "Fade the far cards" } }
        function transform(attributes, layout)
          if params.wrap then attributes.alpha = 0.5 end
        end

        """, named: "switch.lua", in: directory)
        let exported = try CLI.run(["export", onOff, "--param", "wrap=false"])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("    /// On or off — Fade the far cards\n"
                                         + "    var wrap: Bool = false { didSet { invalidateLayout() } }\n"), "\(exported.stdout)")
        #expect(exported.stdout.contains("if wrap {"), "\(exported.stdout)")
        let options = try CLI.write(Self.script, named: "kinds.lua", in: directory)
        let refused = try CLI.run(["export", options])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("kinds.lua:4: export: params.style: a param with options is not supported"), "\(refused.stderr)")
    }
}
