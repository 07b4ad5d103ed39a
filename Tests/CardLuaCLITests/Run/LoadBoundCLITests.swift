import Foundation
import Testing

/// A script over the load bound (8 MiB), through the CLI: one line naming the bound,
/// exit 1, before the file is read (README.md, *Bounds*).
@Suite struct LoadBoundCLITests {
    /// big.lua: 300 MiB of nothing (a hole), so that the test writes no data.
    static func bigScript(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("big.lua").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(ftruncate(descriptor, off_t(300 << 20)) == 0)
        return path
    }

    @Test(arguments: [["run", "big.lua"], ["check", "big.lua"]])
    func scriptOverTheBoundIsOneLine(arguments: [String]) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try Self.bigScript(in: directory)
        let result = try CLI.run(arguments, directory: directory)
        #expect(result.status == 1)
        #expect(!result.signalled)
        let said = result.stderr + result.stdout
        #expect(said.contains("big.lua: the script is 300 MiB; scripts are limited to 8 MiB\n"), "\(said)")
        if arguments[0] == "run" {
            #expect(result.stderr == "big.lua: the script is 300 MiB; scripts are limited to 8 MiB\n")
            #expect(result.stdout.isEmpty)
        }
    }
}
