import CardLuaTestSupport
import Foundation

/// Runs the built `cardlua` executable for end-to-end tests (on CardLuaTestSupport).
enum CLI {
    typealias Result = TestSupport.ProcessResult

    /// The `cardlua` binary beside the test bundle (the same build products folder).
    static var executable: URL { TestSupport.builtExecutable(named: "cardlua") }

    /// The package root (for `scripts/…`).
    static var packageRoot: URL { TestSupport.packageRoot }

    static func script(_ name: String) -> String { TestSupport.script(name) }

    /// Runs `cardlua` with `arguments` (colour off); kills it after `timeout` seconds.
    static func run(_ arguments: [String], timeout: TimeInterval = 60,
                    environment: [String: String] = [:], directory: URL? = nil) throws -> Result {
        try TestSupport.run(executable, arguments, directory: directory,
                            environment: environment.merging(["NO_COLOR": "1"]) { given, _ in given },
                            timeout: timeout)
    }

    /// A temporary directory for one test, removed by the caller.
    static func temporaryDirectory() throws -> URL { try TestSupport.temporaryDirectory() }

    /// Writes a script into `directory` and returns its path.
    static func write(_ source: String, named name: String, in directory: URL) throws -> String {
        try TestSupport.write(source, named: name, in: directory)
    }
}
