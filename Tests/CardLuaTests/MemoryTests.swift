import CardLayout
import CardLua
import Foundation
import Testing

/// A million per-item calls leave the process' resident memory flat.
///
/// Other suites run in parallel in this process and move its RSS, so the measurement
/// runs in a child: this test binary again, filtered to this test, with
/// CARDLUA_RSS_CHILD=1. Linux only (/proc/self/statm).
@Suite struct MemoryTests {
    static let childFlag = "CARDLUA_RSS_CHILD"
    static let itemCalls = 1_000_000
    static let batch = 1000
    static let warmUpBatches = 100
    /// Allowed growth after warm-up: the Lua heap breathes with its collector, malloc
    /// keeps some pages; a leak of even 8 bytes per call would add 7 MiB.
    static let slack = 4 << 20

    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/statm"), "needs /proc/self/statm"))
    func residentMemoryStaysFlatOverAMillionItemCalls() throws {
        if ProcessInfo.processInfo.environment[Self.childFlag] == "1" {
            try Self.measure()
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing",
                             "--filter", "MemoryTests/residentMemoryStaysFlatOverAMillionItemCalls"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.childFlag] = "1"
        // Under AddressSanitizer, freed memory waits in a quarantine and would show as
        // growth; the child measures without one (the option is ignored otherwise).
        let asan = environment["ASAN_OPTIONS"].map { $0 + ":" } ?? ""
        environment["ASAN_OPTIONS"] = asan + "quarantine_size_mb=0:thread_local_quarantine_size_kb=0"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let report = text.split(separator: "\n").filter { $0.contains("RSS") }.joined(separator: "\n")
        #expect(process.terminationReason == .exit && process.terminationStatus == 0,
                "the isolated measurement failed:\n\(text.suffix(3000))")
        #expect(!report.isEmpty, "no RSS report from the child:\n\(text.suffix(3000))")
        print(report)
    }

    /// In the child: transform over batches of 1000 items, 10⁶ item calls in all.
    static func measure() throws {
        let source = """
        local ROTATE = 35 * math.pi / 180
        function prepare(layout)
          layout.itemSize = { width = 10, height = 10 }
          layout.minimumLineSpacing = 0
          layout.minimumInteritemSpacing = 0
        end
        function transform(attributes, layout)
          local distance = layout.collectionView.bounds.midX - attributes.center.x
          local t = CATransform3DIdentity
          t.m34 = 1.0 / 600
          t = CATransform3DRotate(t, -ROTATE * distance / 200, 0, 1, 0)
          attributes.transform3D = t
          attributes.zIndex = attributes.indexPath.item % 7
          attributes.alpha = 1 - math.abs(distance) / 1000
          if attributes.indexPath.item % 3 == 0 then return 0.9 end
        end
        """
        let effect = try LuaEffect(source: source, chunkName: "soak.lua")
        let viewport = Size(width: 400, height: 250)
        var configuration = FlowLayoutConfiguration()
        try effect.prepare(&configuration, viewportSize: viewport)
        let layout = FlowLayout(configuration: configuration, viewportSize: viewport,
                                numberOfItemsInSections: [batch])
        let bounds = Rect(origin: .zero, size: viewport)
        let base = layout.layoutAttributesForElements(in: bounds)
        #expect(base.count == batch)
        let context = ScrollContext(bounds: bounds, contentSize: layout.collectionViewContentSize)
        var calls = 0
        var warm = 0, middle = 0, luaWarm = 0
        let batches = itemCalls / batch
        for index in 0..<batches {
            var attributes = base
            try effect.transform(&attributes, layout: layout, context: context)
            calls += attributes.count
            if index == warmUpBatches - 1 {
                warm = residentBytes() ?? 0
                luaWarm = effect.memoryInUse
            }
            if index == batches / 2 { middle = residentBytes() ?? 0 }
        }
        let end = residentBytes() ?? 0
        let mib = { (bytes: Int) in String(format: "%.2f MiB", Double(bytes) / 1_048_576) }
        print("RSS after warm-up (\(warmUpBatches * batch) calls): \(mib(warm)); half-way: \(mib(middle)); "
              + "after \(calls) item calls: \(mib(end)); growth \(mib(end - warm)); "
              + "Lua heap \(mib(luaWarm)) -> \(mib(effect.memoryInUse))")
        #expect(calls == itemCalls)
        #expect(warm > 0)
        #expect(end - warm <= slack, "RSS grew by \(mib(end - warm)) over \(itemCalls - warmUpBatches * batch) item calls")
        #expect(effect.memoryInUse < 4 * max(luaWarm, 1 << 20))
    }
}
