import CardLuaTestSupport
import Foundation

/// Layouts written by hand from scripts, as an app developer would port them: the proof's
/// own check of its harness (the UIKit module, the driver, the comparison), independent of
/// the exporter.
enum HandWrittenLayouts {
    /// Where scripts/lol.lua by hand lives: beside the benchmark that times it
    /// (scripts/bench-export), so the proof and the benchmark compile one port, not two.
    static let lolPath = TestSupport.packageRoot.appendingPathComponent("scripts/bench-export.d/HandWrittenLol.swift")

    /// scripts/lol.lua by hand, as the file reads (empty when it cannot be read: the
    /// proof then reports the case as not compiling).
    static let lol = (try? String(contentsOf: lolPath, encoding: .utf8)) ?? ""
}
