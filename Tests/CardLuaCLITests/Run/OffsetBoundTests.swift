@testable import CardLuaCLI
import CardLayout
import CardLuaTestSupport
@testable import CardRender
import Foundation
import Testing

/// Offsets a double cannot resolve are refused, with the bound named (issue 23, item 6):
/// an endless carousel at 1e20 used to exit 0 with no cards.
@Suite struct OffsetBoundTests {
    static func options(_ words: [String]) throws(UsageError) -> RunOptions {
        try RunOptions(RunCommand.declaration.parse(words))
    }

    @Test func anOffsetBeyondTheBoundIsAUsageErrorNamingIt() throws {
        for text in ["1e20", "-1e20", "1.0000000001e15", "1e300"] {
            let error = #expect(throws: UsageError.self) { try Self.options(["x.lua", "--offset", text]) }
            #expect(error?.message.contains("1e15") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("1e+300.00") == false)
        }
        #expect(try Self.options(["x.lua", "--offset", "999999999999999"]).offset == 999_999_999_999_999)
        #expect(try Self.options(["x.lua", "--offset", "-1e15"]).offset == -1e15)
        // Through the command's own report: exit 2.
        let (stderr, status) = HostileArgumentTests.outcome(["run", CLI.script("wrap-carousel.lua"), "--offset", "1e20"])
        #expect(status == 2 && stderr.contains("1e15"), "\(stderr)")
    }

    /// The bound is the one the Lua host puts on a script's numbers (1e15).
    @Test func theBoundIsTheHostsMagnitudeBound() {
        #expect(Scenario.maximumMagnitude == 1e15)
        #expect(Scenario.maximumMagnitudeText == "1e15")
    }

    /// One frame of a run, in process (JSON).
    static func run(_ words: [String]) throws(RunFailure) -> String {
        let options: RunOptions
        do { options = try Self.options(words + ["--format", "json"]) } catch {
            throw RunFailure(message: error.message, details: "", isUsage: true)
        }
        let output = StringOutput()
        var warnings: [String] = []
        try RunPipeline.run(options, into: output, color: false, columns: 80, warnings: &warnings)
        return output.text
    }

    /// A scenario step's offset or distance beyond the bound: the scenario's error (exit 1),
    /// naming the bound.
    @Test(arguments: ["{ jump = 1e20 }", "{ jump = 0 }, { drag = -1e20, duration = 0.5 }"])
    func aScenarioStepBeyondTheBoundIsRefused(_ steps: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try String(contentsOfFile: CLI.script("wrap-carousel.lua"), encoding: .utf8)
            + "\nscenarios = { far = { steps = { \(steps) } } }\n"
        let path = try CLI.write(source, named: "far.lua", in: directory)
        #expect {
            _ = try Self.run([path, "--scenario", "far"])
        } throws: { error in
            guard let failure = error as? RunFailure else { return false }
            return !failure.isUsage && failure.message.contains("within ±1e15") && failure.message.contains("far.lua:")
        }
    }

    /// An endless carousel's fling that would carry the offset past the bound stops at the
    /// frame that would pass it, naming the bound (it used to go on with frames a double
    /// could not place).
    @Test func aWrappingFlingPastTheBoundIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLI.write("""
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          layout.itemSize = CGSizeMake(240, 340)
          layout.wraps = true
        end
        """, named: "endless.lua", in: directory)
        #expect {
            _ = try Self.run([path, "--fling", "1e13"])
        } throws: { error in
            guard let failure = error as? RunFailure else { return false }
            return !failure.isUsage && failure.message.contains("(fling): offset must be within ±1e15")
        }
        _ = try Self.run([path, "--fling", "1e11"])  // 5e13 points away: fine
    }

    /// Just inside the bound, the frame is made, at that exact offset.
    @Test func anOffsetJustInsideTheBoundRuns() throws {
        let json = try Self.run([CLI.script("card-scale.lua"), "--offset", "999999999999999"])
        #expect(json.contains("\"contentOffset\": { \"x\": 999999999999999, \"y\": 0 }"), "\(json.suffix(300))")
    }

    /// Numbers too large for decimals are printed in their round-trip form.
    @Test func largeNumbersAreNotGivenDecimalsAfterAnExponent() {
        #expect(RenderSupport.fixed(1e300, 2) == "1e+300")
        #expect(RenderSupport.fixed(-1e20, 2) == "-1e+20")
        #expect(RenderSupport.fixed(999_999_999_999_999, 2) == "999999999999999.00")
        #expect(RenderSupport.fixed(12.5, 2) == "12.50")
    }
}
