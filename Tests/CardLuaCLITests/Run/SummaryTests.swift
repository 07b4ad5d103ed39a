@testable import CardLuaCLI
import CardRender
import Foundation
import Testing

/// `cardlua run`'s text for a person, streaming end to end, and captions that say what
/// really happened.
@Suite struct SummaryTests {
    /// The demo's text fits one screen: the steps, three releases with velocity →
    /// proposed → target, the resting frame; every frame only with `--frames`.
    @Test func demoSummaryFitsOneScreen() throws {
        let result = try CLI.run(["run", CLI.script("lol.lua")])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 40, "\(result.stdout)")
        #expect(result.stdout.contains("scenario demo: 604 frames at 60 fps"))
        // The demo's eight steps, numbered.
        #expect(result.stdout.contains("  1. jump to 0\n  2. wait 0.2 s\n"))
        #expect(result.stdout.contains("  8. wait 0.3 s\n"))
        let releases = lines.filter { $0.contains("release: velocity") && $0.contains(" → proposed ") && $0.contains(" → target ") }
        #expect(releases.count == 3)
        // The fling of the README (item 3 centred: 1100 − 207 = 893) is the first target.
        #expect(releases.first?.hasSuffix("→ target 893.00") == true)
        #expect(result.stdout.contains("\nat rest, t=10.050s  offset (5686.00, 0.00)  idle\n"))
        #expect(!result.stdout.contains("t=0.217s"))

        let every = try CLI.run(["run", CLI.script("lol.lua"), "--frames"])
        #expect(every.status == 0)
        #expect(every.stdout.contains("\nt=0.217s  offset (9.88, 0.00)  dragging\n"))
        #expect(every.stdout.hasSuffix("\n604 frames\n"))
        #expect(every.stdout.split(separator: "\n").count > 1000)
        let verbose = try CLI.run(["run", CLI.script("lol.lua"), "--verbose"])
        #expect(verbose.stdout == every.stdout)
        let help = try CLI.run(["run", "--help"])
        #expect(help.stdout.contains("--frames"))
    }

    /// card-scale.lua has no `targetContentOffset`: its releases rest where the physics
    /// put them, and neither the text nor the SVG caption calls that a snap.
    @Test func noSnapRuleIsNotCalledASnap() throws {
        let text = try CLI.run(["run", CLI.script("card-scale.lua")])
        #expect(text.status == 0)
        #expect(text.stdout.contains("(no snap rule)") && !text.stdout.contains("→ target"))
        let svg = try CLI.run(["run", CLI.script("card-scale.lua"), "--format", "svg"])
        #expect(svg.stdout.contains("rests at (") && !svg.stdout.contains("snap →"))
        let lol = try CLI.run(["run", CLI.script("lol.lua"), "--format", "svg"])
        #expect(lol.stdout.contains("snap → (893, 0)") && !lol.stdout.contains("rests at"))
    }

    /// A TextOutput that fails on its `limit`-th write.
    final class FailingOutput: TextOutput {
        struct Full: Error {}
        var writes = 0
        let limit: Int
        init(limit: Int) { self.limit = limit }
        func write(_ text: String) throws {
            writes += 1
            if writes == limit { throw Full() }
        }
    }

    /// The pipeline streams: JSON of a 60 001-frame run goes out frame by frame, so an
    /// output failing at its 10th write stops the run there (the old pipeline built every
    /// frame before writing a byte).
    @Test func pipelineStreamsFrameByFrame() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try CLI.write("scenarios = { long = { steps = { { wait = 1000 } } } }\n",
                                   named: "long.lua", in: directory)
        var arguments = try RunCommand.declaration.parse([script, "--scenario", "long", "--format", "json"])
        let options = try RunOptions(arguments)
        let output = FailingOutput(limit: 10)
        var warnings: [String] = []
        #expect(throws: RunFailure.self) {
            try RunPipeline.run(options, into: output, color: false, columns: 80, warnings: &warnings)
        }
        #expect(output.writes == 10)
        // The same run into a string has every frame (the header, one write per frame, the end).
        arguments = try RunCommand.declaration.parse([script, "--scenario", "long", "--format", "json", "--fps", "1"])
        let collected = StringOutput()
        let frames = try RunPipeline.run(try RunOptions(arguments), into: collected, color: false, columns: 80,
                                         warnings: &warnings)
        #expect(frames == 1001)
        #expect(collected.text.components(separatedBy: "\"phase\": \"idle\"").count - 1 == 1001)
    }

    /// The animated SVG holds at most 2 000 frames: 2 401 frames are thinned to every
    /// second one (1 200) plus the last.
    @Test func animatedSVGOfALongRunIsBounded() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try CLI.write("scenarios = { long = { fps = 60, steps = { { wait = 40 } } } }\n",
                                   named: "long.lua", in: directory)
        let result = try CLI.run(["run", script, "--scenario", "long", "--format", "svg"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("<title>long.lua · 1201 frames · "), "\(result.stdout.prefix(600))")
    }
}
