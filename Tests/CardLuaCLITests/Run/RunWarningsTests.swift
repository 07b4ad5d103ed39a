import Foundation
import Testing

/// What `check` warns about, `run` and `watch` say too: a misspelt callback otherwise runs
/// cleanly with flat cards.
@Suite struct RunWarningsTests {
    static let misspelt = """
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(200, 300)
    end
    function tranform(attributes, layout)
      return 0.5
    end

    """

    @Test func runWarnsAboutAMisspeltCallback() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.misspelt, named: "fx.lua", in: directory)
        let result = try CLI.run(["run", "fx.lua", "--offset", "0"], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("fx.lua:5: warning: function 'tranform' is never called by cardlua — did you mean transform?"),
                "\(result.stderr)")
        #expect(!result.stdout.contains("warning"), "the output stays clean")
    }

    @Test func theWarningIsPrintedEvenWhenTheRunFails() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let failing = Self.misspelt + "function targetContentOffset(p, v, layout)\n  return nil + 1\nend\n"
        _ = try CLI.write(failing, named: "fx.lua", in: directory)
        let result = try CLI.run(["run", "fx.lua", "--fling", "2"], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("did you mean transform?"), "\(result.stderr)")
        #expect(result.stderr.contains("fx.lua:9: targetContentOffset:"), "\(result.stderr)")
    }
}
