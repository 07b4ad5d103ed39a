import CLuaShims
import CardLayout
@testable import CardLua
import Foundation
import Testing

/// The C runtime's own state and arithmetic (Sources/CLuaShims): every piece of state is
/// the state's own (none shared between effects), and no value an embedder passes in
/// reaches undefined arithmetic. Run under UndefinedBehaviorSanitizer and
/// AddressSanitizer by scripts/test, where the cases below would stop the run before
/// their fixes.
@Suite struct HostStateTests {
    static let viewport = Size(width: 400, height: 600)

    /// One frame of `effect` over `items` items (``Safety/frame(_:items:)``).
    static func frame(_ effect: LuaEffect, items: Int = 1) throws -> [LayoutAttributes] {
        try Safety.frame(effect, items: items)
    }

    // MARK: cardlua_open says why it failed

    /// A memory cap too small for the prelude is a memory limit, said by cardlua_open's
    /// status (CARDLUA_LIMIT), not read from its message's words; a prelude that does not
    /// load is an error (CARDLUA_ERROR), whatever its message says.
    @Test func openSaysWhyItFailed() throws {
        let prelude = try CheckpointTests.compiledPrelude(checkpoints: true)
        func open(_ chunk: [UInt8], memory: Int) -> (opened: Bool, status: Int32, message: String) {
            var status: Int32 = -1
            var message: UnsafePointer<CChar>?
            let host = chunk.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    cardlua_open($0.baseAddress, $0.count, memory, 100_000, &status, &message)
                }
            }
            defer { cardlua_close(host) }
            return (host != nil, status, message.map { String(cString: $0) } ?? "")
        }
        let fine = open(prelude, memory: 64 << 20)
        #expect(fine.opened && fine.status == CARDLUA_OK)
        let small = open(prelude, memory: 32 << 10)
        #expect(!small.opened && small.status == CARDLUA_LIMIT, "\(small)")
        #expect(small.message == "the memory limit is too small for the cardlua prelude")
        let none = open(prelude, memory: 0)
        #expect(!none.opened && none.status == CARDLUA_LIMIT, "\(none)")
        let broken = open(Array("not a chunk".utf8), memory: 64 << 20)
        #expect(!broken.opened && broken.status == CARDLUA_ERROR, "\(broken)")
        #expect(broken.message == "the cardlua prelude failed to load")
    }

    /// Through LuaEffect: a memory limit too small for the prelude is a `.limit` error of
    /// kind `.memory`; a prelude that fails to load (a bug, not a limit) is `.failed`.
    @Test func aMemoryCapTooSmallForThePreludeIsAMemoryLimit() throws {
        let limits = ScriptLimits(maxMemory: 32 << 10)
        #expect {
            try LuaEffect(source: "function transform(attributes) end", chunkName: "small.lua", limits: limits)
        } throws: { error in
            let error = error as? ScriptError
            return error?.kind == .limit && error?.limit == .memory
                && error?.message.contains("the memory limit is too small for the cardlua prelude") == true
        }
        #expect {
            try LuaEffect(source: "function transform(attributes) end", chunkName: "broken.lua",
                          limits: ScriptLimits(), prelude: Array("not a chunk".utf8), measuring: false)
        } throws: { error in
            let error = error as? ScriptError
            return error?.kind == .failed && error?.limit == nil
        }
    }

    // MARK: warn's unfinished line is per state

    /// Effect A's log sink, receiving A's finished warning (its line had two pieces), runs
    /// effect B, which warns in pieces too: each line starts with its own script's name
    /// and holds its own pieces. With one process-wide "line under way" flag, B's line
    /// came out without its prefix (A's unfinished state leaked into B).
    @Test func warningLinesArePerEffect() throws {
        let a = try LuaEffect(source: "function transform(attributes) warn('a1', 'a2') end", chunkName: "a.lua")
        let b = try LuaEffect(source: "function transform(attributes) warn('b1', 'b2', 'b3') end", chunkName: "b.lua")
        var linesA: [String] = [], linesB: [String] = []
        b.logSink = { linesB.append($0) }
        a.logSink = { line in
            linesA.append(line)
            _ = try? Self.frame(b)
        }
        _ = try Self.frame(a)
        _ = try Self.frame(a)
        a.logSink = nil
        #expect(linesA == ["a.lua: warning: a1a2", "a.lua: warning: a1a2"])
        #expect(linesB == ["b.lua: warning: b1b2b3", "b.lua: warning: b1b2b3"])
    }

    /// Two effects warning on two threads at once, many times: every line each receives
    /// is one of its own, whole.
    @Test func twoEffectsWarnOnTwoThreads() {
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var lines: [Int: [String]] = [:]
            var errors: [String] = []
        }
        let results = Results()
        let frames = 300
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            let name = k == 0 ? "left.lua" : "right.lua"
            let source = """
            function transform(attributes)
              local i = attributes.indexPath.item
              warn('<', '\(k)', ':', tostring(i), '|', 'piece', '|', 'end>')
            end
            """
            var received: [String] = []
            do {
                let effect = try LuaEffect(source: source, chunkName: name)
                effect.logSink = { received.append($0) }
                for _ in 0..<frames { _ = try Self.frame(effect, items: 3) }
                effect.logSink = nil
            } catch {
                results.lock.lock()
                results.errors.append("\(name): \(error)")
                results.lock.unlock()
            }
            results.lock.lock()
            results.lines[k] = received
            results.lock.unlock()
        }
        #expect(results.errors.isEmpty, "\(results.errors)")
        for k in 0..<2 {
            let name = k == 0 ? "left.lua" : "right.lua"
            let expected = (0..<frames).flatMap { _ in (0..<3).map { "\(name): warning: <\(k):\($0)|piece|end>" } }
            let lines = results.lines[k] ?? []
            #expect(lines.count == expected.count)
            #expect(lines == expected, "first difference: \(zip(lines, expected).first { $0 != $1 }.map { "\($0)" } ?? "none")")
        }
    }

    // MARK: The run time limit converts no value out of range

    /// `maxRunTime` of any size: infinity and NaN are no limit; a finite value past the
    /// largest (CARDLUA_MAX_RUN_TIME_SECONDS) is that one. Before the clamp, infinity was
    /// converted to an integer out of range (undefined: UBSan stops here), and a value
    /// just under 2⁶³ ns made a deadline that wrapped into the past, so the first frame
    /// stopped at once ("exceeded the time limit … per run").
    @Test(arguments: [Double.infinity, .nan, -.infinity, 9.2233720368e9, 1e300, .greatestFiniteMagnitude, 1e9 + 1])
    func runTimeLimitOfAnySizeIsSafe(seconds: Double) throws {
        let source = "function transform(attributes) attributes.alpha = 0.5 end"
        let effect = try LuaEffect(source: source, chunkName: "long.lua", limits: ScriptLimits(maxRunTime: seconds))
        let items = try Self.frame(effect, items: 2)
        #expect(items.map(\.alpha) == [0.5, 0.5])
    }

    /// A short run time limit still stops a run: the clamp keeps real limits.
    @Test func shortRunTimeLimitStillStops() throws {
        let source = "function transform(attributes) local x = 0 while true do x = x + 1 end end"
        let limits = ScriptLimits(maxSteps: Int.max, maxTime: 0, maxRunTime: 0.05)
        let effect = try LuaEffect(source: source, chunkName: "spin.lua", limits: limits)
        #expect {
            _ = try Self.frame(effect)
        } throws: { error in
            (error as? ScriptError)?.limit == .runTime
        }
    }

    // MARK: Constant tables are read within their bounds

    /// `cardlua_attribute_key` past the end of its table: nil, never the memory after it
    /// (AddressSanitizer reported a global-buffer-overflow before the bound).
    @Test func attributeKeyPastTheTableIsNil() {
        var count: Int32 = 0
        var writable: Int32 = 7
        while cardlua_attribute_key(count, &writable) != nil { count += 1 }
        #expect(count == Int32(ScriptConstants.attributeKeys.count))
        for index in [count, count + 1, count + 2, count + 16, count + 1000, Int32.max, -1, Int32.min] {
            writable = 7
            #expect(cardlua_attribute_key(index, &writable) == nil, "index \(index)")
            #expect(writable == 0)
        }
        #expect(cardlua_config_key(Int32(CARDLUA_CFG_COUNT)) == nil)
        #expect(cardlua_config_key(-1) == nil)
        #expect(cardlua_step_name(Int32(CARDLUA_STEP_AUTOPLAY) + 1) == nil)
        #expect(cardlua_step_name(0) == nil)
    }

    // MARK: The collector's mode is restored on every path

    /// sizeForItem runs with the generational collector; the state goes back to the
    /// incremental one after the call, also when a callback failed (the state is used
    /// again: watch, an embedder). Before, an error left it generational for good.
    @Test(arguments: [
        ("function sizeForItem(indexPath) return 50, 60 end", nil as String?),
        ("function sizeForItem(indexPath)\n  if indexPath.item == 3 then error('no size') end\n  return 50, 60\nend",
         "sized.lua:2: sizeForItem: item 3: no size"),
        ("function sizeForItem(indexPath) return 50, -1 end",
         "sized.lua:1: sizeForItem: item 0: returned height = -1; it must be positive"),
    ])
    func collectorModeIsRestoredAfterSizing(source: String, failure: String?) throws {
        let effect = try LuaEffect(source: source, chunkName: "sized.lua")
        #expect(cardlua_collector_mode(effect.host) == 0)
        var configuration = FlowLayoutConfiguration()
        try effect.prepare(&configuration, viewportSize: Self.viewport, numberOfItemsInSections: [10])
        do {
            let metrics = try effect.flowLayoutMetrics(configuration: configuration, viewportSize: Self.viewport,
                                                       numberOfItems: [10])
            #expect(failure == nil)
            #expect(metrics?.itemSizes?.count == 10)
        } catch let error as ScriptError {
            #expect(error.kind == .failed)
            #expect(error.message == failure)
        }
        #expect(cardlua_collector_mode(effect.host) == 0)
        // And the state is still usable.
        #expect(effect.definesFunction("sizeForItem"))
    }

    // MARK: The host's answers are bounded before they size a buffer

    /// The answers a host's query function gives, in turn (the last one from then on).
    final class Claims {
        let answers: [Int]
        var calls = 0
        init(_ answers: [Int]) { self.answers = answers }
    }

    /// A base-layout query function (the C door's cardlua_query_fn) that claims far more
    /// items than the most a query returns, or a negative count (first, or after the
    /// buffer grew for a first answer): a script error, or an empty answer; never a
    /// buffer sized by the claim.
    @Test(arguments: [([Int.max], "the rect meets more than 10000 items"), ([-5], nil as String?),
                      ([3, -5], nil), ([Int.min], nil)])
    func queryCountsFromTheHostAreBounded(answers: [Int], expected: String?) throws {
        let source = """
        function transform(attributes, layout)
          local all = layout:layoutAttributesForElements(CGRectMake(0, 0, 400, 600))
          attributes.zIndex = #all
        end
        """
        let effect = try LuaEffect(source: source, chunkName: "claims.lua")
        let claims = Claims(answers)
        cardlua_set_query(effect.host, { context, _, _, _, _, _, _ in
            let claims = Unmanaged<Claims>.fromOpaque(context!).takeUnretainedValue()
            defer { claims.calls += 1 }
            return claims.answers[min(claims.calls, claims.answers.count - 1)]
        }, Unmanaged.passUnretained(claims).toOpaque())
        defer { cardlua_set_query(effect.host, nil, nil) }
        do {
            let items = try withExtendedLifetime(claims) { try Self.frame(effect, items: 2) }
            #expect(expected == nil)
            #expect(items.map(\.zIndex) == [0, 0])
        } catch let error as ScriptError {
            #expect(expected != nil && error.text.contains(expected!), "\(error.message)")
        }
        #expect(claims.calls >= 1)
    }
}
