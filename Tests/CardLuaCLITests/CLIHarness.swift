import Foundation

/// Runs the built `cardlua` executable for end-to-end tests.
enum CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// True when the process ended by a signal (a crash), not by exit.
        var signalled: Bool
    }

    /// The `cardlua` binary beside the test bundle (the same build products folder).
    static var executable: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On macOS the test binary sits inside the .xctest bundle.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("cardlua")
    }

    /// The package root (for `scripts/…`).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static func script(_ name: String) -> String {
        packageRoot.appendingPathComponent("scripts").appendingPathComponent(name).path
    }

    /// Runs `cardlua` with `arguments`; kills it after `timeout` seconds.
    static func run(_ arguments: [String], timeout: TimeInterval = 60,
                    environment: [String: String] = [:], directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let outURL = FileManager.default.temporaryDirectory.appendingPathComponent("cardlua-out-\(UUID().uuidString)")
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("cardlua-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(2000) }
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        let out = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        return Result(status: process.terminationStatus, stdout: out, stderr: err,
                      signalled: process.terminationReason == .uncaughtSignal)
    }

    /// A temporary directory for one test, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cardlua-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes a script into `directory` and returns its path.
    static func write(_ source: String, named name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try source.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
