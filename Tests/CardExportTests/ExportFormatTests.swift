import CardExport
import CardLuaTestSupport
import Foundation
import Testing

/// Exported Swift reads as its users write it: every export passes the toolchain's
/// `swift-format lint --strict` with the repository's `.swift-format` (swift-format's
/// default rules, 4-space indentation, 120 columns — Xcode's defaults), checked by
/// swift-format itself, not by the exporter's own idea of the style.
@Suite struct ExportFormatTests {
    /// The toolchain's swift-format: on PATH, or beside `swiftc` (Swift 6 toolchains ship it).
    static func swiftFormat() -> String? {
        if let found = TestSupport.which("swift-format") { return found }
        guard let swiftc = TestSupport.which("swiftc") else { return nil }
        let beside = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("swift-format").path
        return FileManager.default.isExecutableFile(atPath: beside) ? beside : nil
    }

    /// `swift-format lint --strict` of `files` (name → Swift) in one run: its findings, one per line.
    static func lint(_ files: [(name: String, swift: String)]) throws -> String {
        let tool = try #require(swiftFormat(), "no swift-format in the toolchain (it ships with Swift 6)")
        let directory = try TestSupport.temporaryDirectory(prefix: "cardlua-export-format")
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for file in files {
            let url = directory.appendingPathComponent(file.name + ".swift")
            try file.swift.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        let configuration = TestSupport.packageRoot.appendingPathComponent(".swift-format").path
        let result = try TestSupport.run(URL(fileURLWithPath: tool),
                                         ["lint", "--strict", "--configuration", configuration] + paths)
        let findings = (result.stdout + result.stderr).split(separator: "\n")
            .map { $0.replacingOccurrences(of: directory.path + "/", with: "") }
        #expect(result.status == 0 || !findings.isEmpty, "swift-format failed without a finding")
        return findings.joined(separator: "\n")
    }

    @Test("the repository's .swift-format is swift-format's defaults at 4 spaces and 120 columns")
    func configuration() throws {
        let text = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent(".swift-format"), encoding: .utf8)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["lineLength"] as? Int == 120)
        #expect((json["indentation"] as? [String: Any])?["spaces"] as? Int == 4)
        #expect(json["rules"] == nil, "no rule is switched off: the defaults hold")
    }

    @Test("every shipped script's export passes swift-format lint --strict")
    func shippedExports() throws {
        let files = ExportProofTests.exports.compactMap { export in
            (try? export.result.get()).map { (name: export.className, swift: $0) }
        }
        #expect(files.count >= ExportProofTests.minimumExported)
        let findings = try Self.lint(files)
        #expect(findings.isEmpty, "\(findings.prefix(4000))")
    }

    @Test("the exports of the hostile-name, sections, sizes and tuned corpora pass it too")
    func corpusExports() throws {
        var files: [(name: String, swift: String)] = []
        for hostile in HostileCorpus.cases + SectionsCorpus.cases {
            files.append((hostile.className, try Exporter.export(source: hostile.source, fileName: hostile.fileName,
                                                                 className: hostile.className, params: [:])))
        }
        for sized in SizesCorpus.cases {
            files.append((sized.className, try Exporter.export(source: sized.source, fileName: sized.fileName,
                                                               className: sized.className, params: [:])))
        }
        for tuned in ExportProofTests.tunedCases {
            let source = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent(tuned.script), encoding: .utf8)
            files.append((tuned.className, try Exporter.export(source: source, fileName: tuned.script,
                                                               className: tuned.className, params: tuned.params,
                                                               switches: tuned.switches)))
        }
        let findings = try Self.lint(files)
        #expect(findings.isEmpty, "\(findings.prefix(4000))")
    }

    @Test("the oracle is awake: a line the exporter would never write is a finding")
    func lintCatchesALongLine() throws {
        let long = "let total = " + (1...40).map { "value\($0)" }.joined(separator: " + ") + "\n"
        let findings = try Self.lint([(name: "Long", swift: long)])
        #expect(findings.contains("[LineLength]"))
    }
}
