import CardLuaTestSupport
import Foundation
import Testing

/// `scripts/test-tools`, the test command's check for the tools its checks need: under CI
/// a missing one fails the run; locally it is said loudly and the run goes on.
@Suite struct TestToolsTests {
    /// Runs the script with an empty PATH (so no tool is found) and `environment`.
    static func runWithNoTools(_ environment: [String: String]) throws -> TestSupport.ProcessResult {
        let empty = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: empty) }
        let script = TestSupport.packageRoot.appendingPathComponent("scripts/test-tools").path
        var base = ["PATH": empty.path, "CARDLUA_PYTHON": empty.appendingPathComponent("python3").path]
        base.merge(environment) { $1 }
        return try TestSupport.run(URL(fileURLWithPath: "/bin/bash"), [script], environment: base)
    }

    @Test func underCIAMissingToolFailsTheRun() throws {
        let result = try Self.runWithNoTools(["CI": "true"])
        #expect(result.status == 1)
        for tool in ["luacheck", "lua5.4", "python3-selenium", "qrencode"] {
            #expect(result.stderr.contains(tool), "\(result.stderr)")
        }
    }

    @Test func locallyAMissingToolIsSkippedLoudly() throws {
        let result = try Self.runWithNoTools(["CI": "false"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("SKIPPED"), "\(result.stdout)")
        #expect(result.stdout.contains("luacheck"))
    }
}
