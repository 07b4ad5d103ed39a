import CardLayout
import CardLuaTestSupport
import Foundation

/// The compile-and-compare proof: Swift layouts (exported or hand-written) compiled in
/// one `swiftc` invocation with the driver, each replaying its script's recorded Lua runs.
enum ExportProof {
    /// One layout to prove: its Swift, and the Lua runs it must reproduce.
    struct Case {
        /// The script, as named in messages (`scripts/lol.lua`).
        var script: String
        var className: String
        var swift: String
        /// Named runs (`demo`, `random`) of the script.
        var runs: [(name: String, record: LuaRecord)]
    }

    /// What became of each case, by class name.
    struct Report {
        /// Errors and warnings swiftc reported in the case's file (a warning fails too:
        /// the export must compile cleanly in Swift 6 mode).
        var diagnostics: [String: [String]] = [:]
        /// Mismatches with the Lua run (empty list: not run).
        var mismatches: [String: [String]] = [:]
        /// Classes that compiled cleanly and matched every run.
        var passed: Set<String> = []
        /// swiftc's output when the driver did not build at all.
        var buildFailure: String?

        func problems(of className: String) -> [String] {
            (diagnostics[className] ?? []) + (mismatches[className] ?? [])
        }
    }

    /// Compiles every case at once and replays each run through the compiled driver.
    static func prove(_ cases: [Case]) throws -> Report {
        var report = Report()
        let directory = try TestSupport.temporaryDirectory(prefix: "cardlua-export-proof")
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String: URL] = [:]
        for c in cases {
            let url = directory.appendingPathComponent("\(c.className).swift")
            try c.swift.write(to: url, atomically: true, encoding: .utf8)
            files[c.className] = url
        }
        var included = cases
        var executable: URL?
        // One invocation when everything compiles; files with errors are left out and the
        // rest compiled again (at most twice more).
        for _ in 0..<3 {
            let layouts = included.map { ProofDriver.layout(className: $0.className, exportedSource: $0.swift) }
            let main = directory.appendingPathComponent("main.swift")
            try ProofDriver.mainSource(for: layouts).write(to: main, atomically: true, encoding: .utf8)
            let outcome = try SwiftCompiler.compile(included.compactMap { files[$0.className] } + [main],
                                                    into: directory.appendingPathComponent("driver"))
            var failing = Set<String>()
            for diagnostic in outcome.diagnostics {
                let name = ((diagnostic.file as NSString).lastPathComponent as NSString).deletingPathExtension
                guard files[name] != nil else { continue }
                report.diagnostics[name, default: []].append(diagnostic.description)
                if diagnostic.severity == "error" { failing.insert(name) }
            }
            if let built = outcome.executable {
                executable = built
                break
            }
            if failing.isEmpty {
                report.buildFailure = outcome.output
                return report
            }
            included.removeAll { failing.contains($0.className) }
        }
        guard let executable else {
            report.buildFailure = "the driver did not build after leaving out the files with errors"
            return report
        }
        // Every run in one launch of the driver; a run it did not get to (a layout that
        // crashed it) is launched on its own, for its own status and message.
        func runFiles(_ c: Case, _ run: String) -> (input: URL, output: URL) {
            let stem = "\(c.className)-\(run)"
            return (directory.appendingPathComponent(stem + ".in"), directory.appendingPathComponent(stem + ".out"))
        }
        var jobs = ""
        for c in included {
            for run in c.runs {
                let (input, output) = runFiles(c, run.name)
                try ProofDriver.input(for: run.record).write(to: input, atomically: true, encoding: .utf8)
                jobs += "\(c.className)\t\(input.path)\t\(output.path)\n"
            }
        }
        let jobsFile = directory.appendingPathComponent("jobs")
        try jobs.write(to: jobsFile, atomically: true, encoding: .utf8)
        _ = try TestSupport.run(executable, ["--jobs", jobsFile.path])
        for c in included {
            var problems: [String] = []
            for run in c.runs {
                let (input, output) = runFiles(c, run.name)
                var text = try? String(contentsOf: output, encoding: .utf8)
                var result = TestSupport.ProcessResult(status: 0, stdout: "", stderr: "")
                if text == nil {
                    result = try TestSupport.run(executable, [c.className, input.path, output.path], timeout: 120)
                    text = result.status == 0 ? try? String(contentsOf: output, encoding: .utf8) : nil
                }
                guard let text else {
                    problems.append("\(c.script) (\(run.name)): the compiled layout failed (status \(result.status)\(result.signalled ? ", a signal" : "")): \(result.stdout.suffix(400))\(result.stderr.suffix(800))")
                    continue
                }
                problems += ProofComparison.mismatches(script: "\(c.script) (\(run.name))", answers: run.record.answers,
                                                       driverOutput: text)
            }
            report.mismatches[c.className] = problems
            if problems.isEmpty && (report.diagnostics[c.className] ?? []).isEmpty { report.passed.insert(c.className) }
        }
        return report
    }
}
