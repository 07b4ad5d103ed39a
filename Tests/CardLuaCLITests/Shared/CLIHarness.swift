@testable import CardLuaCLI
import CardLuaTestSupport
import Foundation

/// Runs the built `cardlua` executable for end-to-end tests (on CardLuaTestSupport), or
/// the same command in this process.
enum CLI {
    typealias Result = TestSupport.ProcessResult

    /// The `cardlua` binary beside the test bundle (the same build products folder).
    static var executable: URL { TestSupport.builtExecutable(named: "cardlua") }

    /// The package root (for `scripts/…`).
    static var packageRoot: URL { TestSupport.packageRoot }

    static func script(_ name: String) -> String { TestSupport.script(name) }

    /// Runs `cardlua` with `arguments` (colour off); kills it after `timeout` seconds.
    static func run(_ arguments: [String], timeout: TimeInterval = TestSupport.hangGuard,
                    environment: [String: String] = [:], directory: URL? = nil) throws -> Result {
        try TestSupport.run(executable, arguments, directory: directory,
                            environment: environment.merging(["NO_COLOR": "1"]) { given, _ in given },
                            timeout: timeout)
    }

    /// Runs the command `cardlua` would run with `arguments` (what main.swift calls,
    /// ``CardLuaCommand/main(_:)``) in this process, its standard output and error
    /// captured (never a terminal: no colour): the exit status and the lines a user would
    /// see, without launching a process. Paths must be absolute (no working directory of
    /// its own), and what Lua's `print` and `warn` write (from C) is not captured: tests
    /// of those, and of what only a process shows (a signal, a hang guard), use ``run``.
    static func runInProcess(_ arguments: [String]) -> Result {
        let (status, capture) = Console.capturing { CardLuaCommand.main(arguments) }
        return Result(status: status, stdout: capture.standardOutput, stderr: capture.standardError)
    }

    /// A temporary directory for one test, removed by the caller.
    static func temporaryDirectory() throws -> URL { try TestSupport.temporaryDirectory() }

    /// Writes a script into `directory` and returns its path.
    static func write(_ source: String, named name: String, in directory: URL) throws -> String {
        try TestSupport.write(source, named: name, in: directory)
    }
}
