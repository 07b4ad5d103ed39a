import CardLuaTestSupport
import Foundation

/// Compiles exported Swift files and the proof driver with the toolchain's `swiftc`,
/// against the `UIKit` (Tests/UIKitShim) and `CardLayout` modules this build made.
///
/// The build directory is the test binary's (`CommandLine.arguments[0]`): modules in
/// `<bin>/Modules` (SwiftPM 6) or `<bin>`, objects in `<bin>/UIKit.build` and
/// `<bin>/CardLayout.build`. scripts/test also runs the suite under AddressSanitizer
/// (`--sanitize=address`): those objects are instrumented, so the driver is linked with
/// `-sanitize=address` when an object references `__asan` (detected from its bytes).
enum SwiftCompiler {
    /// One diagnostic swiftc printed.
    struct Diagnostic: CustomStringConvertible {
        var file: String
        var line: Int
        var severity: String
        var message: String
        var description: String { "\((file as NSString).lastPathComponent):\(line): \(severity): \(message)" }
    }

    struct Outcome {
        var executable: URL?
        var diagnostics: [Diagnostic]
        var output: String
    }

    enum Failure: Error, CustomStringConvertible {
        case missing(String)
        var description: String {
            switch self { case let .missing(what): "export proof: \(what)" }
        }
    }

    /// The directory the test binary was built in.
    static var binDirectory: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents" {
            directory.deleteLastPathComponent()
        }
        return directory
    }

    static func swiftc() throws -> String {
        guard let path = TestSupport.which("swiftc") else { throw Failure.missing("no swiftc on PATH") }
        return path
    }

    /// `swiftc -swift-version 6` of `files` (main.swift among them) into `output`.
    /// `shims`: the test-only modules linked in (SwiftUI's proof adds `SwiftUI`).
    static func compile(_ files: [URL], into output: URL, timeout: TimeInterval = 600,
                        shims: [String] = ["UIKit", "CardLayout"]) throws -> Outcome {
        let (modules, objects) = try shimInputs(shims)
        // Whole-module: one frontend type-checks every file once (about 40% less CPU than
        // the per-file batches for fifty exported layouts).
        var arguments = ["-swift-version", "6", "-module-name", "ExportProof", "-Onone", "-wmo",
                         "-I", modules.path, "-o", output.path]
        if objects.contains(where: isInstrumented) { arguments.append("-sanitize=address") }
        arguments += files.map(\.path) + objects
        let result = try TestSupport.run(URL(fileURLWithPath: try swiftc()), arguments, timeout: timeout)
        let text = result.stdout + result.stderr
        let ok = result.status == 0 && !result.timedOut && FileManager.default.isExecutableFile(atPath: output.path)
        return Outcome(executable: ok ? output : nil, diagnostics: parse(text), output: text)
    }

    /// Where this build put the test-only modules' (`shims`: the `UIKit` shim's and
    /// CardLayout's unless told) interfaces, and their object files (what a program compiled
    /// against them links).
    static func shimInputs(_ shims: [String] = ["UIKit", "CardLayout"]) throws -> (modules: URL, objects: [String]) {
        let bin = binDirectory
        let fileManager = FileManager.default
        let modules = [bin.appendingPathComponent("Modules"), bin].first {
            fileManager.fileExists(atPath: $0.appendingPathComponent("UIKit.swiftmodule").path)
        }
        guard let modules else { throw Failure.missing("no UIKit.swiftmodule in \(bin.path) (build the tests first)") }
        var objects: [String] = []
        for target in shims {
            let directory = bin.appendingPathComponent("\(target).build")
            let names = (try? fileManager.contentsOfDirectory(atPath: directory.path)) ?? []
            // Only the objects of the target's current sources (SwiftPM lists them in
            // `sources`): an incremental build leaves the object of a file that moved to
            // another target, which would be linked twice or against symbols that changed.
            let current = (try? String(contentsOf: directory.appendingPathComponent("sources"), encoding: .utf8))
                .map { Set($0.split(separator: "\n").map { (String($0) as NSString).lastPathComponent + ".o" }) }
            let found = names.filter { $0.hasSuffix(".o") && current?.contains($0) != false }.sorted()
                .map { directory.appendingPathComponent($0).path }
            guard !found.isEmpty else { throw Failure.missing("no object files in \(directory.path)") }
            objects += found
        }
        return (modules, objects)
    }

    /// Whether an object file was compiled with AddressSanitizer.
    static func isInstrumented(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        return data.range(of: Data("__asan_".utf8)) != nil
    }

    /// `FILE:LINE:COL: error|warning: MESSAGE` lines.
    static func parse(_ text: String) -> [Diagnostic] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
            guard parts.count == 5, parts[0].hasSuffix(".swift"), let number = Int(parts[1]), Int(parts[2]) != nil else { return nil }
            let severity = parts[3].trimmingCharacters(in: .whitespaces)
            guard severity == "error" || severity == "warning" else { return nil }
            return Diagnostic(file: String(parts[0]), line: number, severity: severity,
                              message: parts[4].trimmingCharacters(in: .whitespaces))
        }
    }
}
