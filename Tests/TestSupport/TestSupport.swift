import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the test targets share: the package root, temporary directories and scripts,
/// finding programs, and running a process with its output captured and a hang guard.
package enum TestSupport {
    /// The package root (this file is Tests/TestSupport/TestSupport.swift).
    package static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `scripts/NAME` in the package, as a path.
    package static func script(_ name: String) -> String {
        packageRoot.appendingPathComponent("scripts").appendingPathComponent(name).path
    }

    /// A fresh directory under the system's temporary folder; the caller removes it.
    package static func temporaryDirectory(prefix: String = "cardlua-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `text` to `directory/name` and returns its path.
    @discardableResult
    package static func write(_ text: String, named name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The first of `names` found as an executable on `PATH`, or nil.
    package static func which(_ names: String...) -> String? { which(names) }

    /// The first of `names` found as an executable on `PATH`, or nil.
    package static func which(_ names: [String]) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for name in names {
            for directory in path.split(separator: ":") {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// A product of this build (the `cardlua` binary): beside the test bundle.
    package static func builtExecutable(named name: String) -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On macOS the test binary sits inside the .xctest bundle.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent(name)
    }

    /// How a process ended and what it wrote.
    package struct ProcessResult: Sendable {
        package var status: Int32
        package var stdout: String
        package var stderr: String
        /// True when the process ended by a signal (a crash, or the hang guard), not by exit.
        package var signalled: Bool
        /// True when it outlived its timeout and was stopped.
        package var timedOut: Bool

        package init(status: Int32, stdout: String, stderr: String, signalled: Bool = false, timedOut: Bool = false) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
            self.signalled = signalled
            self.timedOut = timedOut
        }
    }

    /// How long a launched process may take before it counts as hung: ten minutes, far
    /// above what any command the tests launch takes under the test command's sanitizers
    /// on a loaded two-core machine (a 6,000-frame JSON run went past one minute with
    /// three test runs side by side), so that only a hang reaches it.
    package static let hangGuard: TimeInterval = 600

    /// Runs `executable` with `arguments`, standard input empty and standard output and
    /// error sent to files (no pipe to fill up). After `timeout` seconds, a hang guard,
    /// it is terminated (then killed).
    package static func run(_ executable: URL, _ arguments: [String], directory: URL? = nil,
                           environment: [String: String] = [:],
                           timeout: TimeInterval = hangGuard) throws -> ProcessResult {
        let files = try temporaryDirectory(prefix: "cardlua-process")
        defer { try? FileManager.default.removeItem(at: files) }
        let outURL = files.appendingPathComponent("stdout"), errURL = files.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL), errHandle = try FileHandle(forWritingTo: errURL)
        defer { try? outHandle.close(); try? errHandle.close() }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(2000) }
        let timedOut = process.isRunning
        if timedOut {
            process.terminate()
            let grace = Date().addingTimeInterval(0.5)
            while process.isRunning && Date() < grace { usleep(2000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus,
                             stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                             stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
                             signalled: process.terminationReason == .uncaughtSignal, timedOut: timedOut)
    }
}
