import CLuaShims
import CardLua
import Foundation
import Testing

/// The watchdog (Sources/CLuaShims/watchdog.c): the time limits enforced from a thread of
/// the host's, so that a loop that meets no checkpoint (as one the scanner missed would)
/// still ends, with the usual one-line time-limit message at the line it was running.
/// The loops come from `cardlua_skip_checkpoints`, which loads a script as it is while
/// the state keeps the count hook off: nothing but the watchdog can stop them. The tests
/// wait for the call to come back (a condition, with a hang guard far above any machine's
/// slowness); they assert no duration.
@Suite struct WatchdogTests {
    /// A host from the prelude as the build compiles it (with checkpoints), a budget far
    /// too large to matter and no time limit until the test sets one.
    static func open() throws -> OpaquePointer {
        let chunk = try CheckpointTests.compiledPrelude(checkpoints: true)
        var failure: UnsafePointer<CChar>?
        let host = try #require(chunk.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                cardlua_open($0.baseAddress, $0.count, 64 << 20, 1 << 50, nil, &failure)
            }
        })
        cardlua_set_time_limit(host, 0)
        return host
    }

    /// A host handed to the thread that runs the call (the test waits for it).
    struct Handle: @unchecked Sendable { let host: OpaquePointer }

    /// Loads `script` on a thread of its own and waits for it; nil if it never came back
    /// (the thread is then left spinning: the test has failed).
    static func load(_ script: String, into host: OpaquePointer) -> Int32? {
        let handle = Handle(host: host)
        let done = DispatchSemaphore(value: 0)
        final class Box: @unchecked Sendable { var status: Int32 = -1 }
        let box = Box()
        Thread {
            box.status = cardlua_load_script(handle.host, script, script.utf8.count, "spin.lua")
            done.signal()
        }.start()
        return done.wait(timeout: .now() + 600) == .success ? box.status : nil
    }

    static let spin = "local n = 0\nwhile true do n = n + 1 end\n"

    /// The loop ends at the call's time limit, or, with no per-call limit, at the run's
    /// deadline: with the usual message, at its line.
    @Test(arguments: [true, false])
    func aLoopWithoutCheckpointsEndsAtATimeLimit(perCall: Bool) throws {
        let host = try Self.open()
        #expect(cardlua_counts_on_checkpoints(host) == 1)
        cardlua_skip_checkpoints(host, 1)
        if perCall { cardlua_set_time_limit(host, 0.2) } else { cardlua_set_run_time_limit(host, 0.2) }
        guard let status = Self.load(Self.spin, into: host) else {
            Issue.record("the loop did not end")
            return
        }
        defer { cardlua_close(host) }
        let error = cardlua_last_error(host)
        #expect(status == CARDLUA_LIMIT)
        #expect(error.limit == (perCall ? CARDLUA_LIMIT_TIME : CARDLUA_LIMIT_RUN_TIME))
        #expect(error.line == 2)
        let text = String(cString: error.text)
        #expect(text.hasPrefix("exceeded the time limit of 0.2 s per \(perCall ? "call" : "run")"), "\(text)")
    }

    /// A loop that meets no checkpoint inside a coroutine (which has a hook of its own, not
    /// the main thread's that the watchdog arms) ends at the time limit too, made by either
    /// of the sandbox's makers, nested or not: each new coroutine watches the clock.
    @Test(arguments: [
        "local co = coroutine.create(function()\n  local n = 0 while true do n = n + 1 end\nend)\ncoroutine.resume(co)\n",
        "coroutine.wrap(function()\n  local n = 0 while true do n = n + 1 end\nend)()\n",
        "coroutine.wrap(function()\n  local n = 0 coroutine.wrap(function() while true do n = n + 1 end end)()\nend)()\n",
    ])
    func aLoopInACoroutineEndsAtTheTimeLimit(_ script: String) throws {
        let host = try Self.open()
        cardlua_skip_checkpoints(host, 1)
        cardlua_set_time_limit(host, 0.2)
        guard let status = Self.load(script, into: host) else {
            Issue.record("the loop in the coroutine did not end")
            return
        }
        defer { cardlua_close(host) }
        let error = cardlua_last_error(host)
        #expect(status == CARDLUA_LIMIT)
        #expect(error.limit == CARDLUA_LIMIT_TIME)
        let text = String(cString: error.text)
        #expect(text.hasPrefix("exceeded the time limit of 0.2 s per call"), "\(text)")
    }

    /// The time between calls is no call's: short calls far apart, each well inside the
    /// limit, all succeed, and the hook stays off (the watchdog armed nothing).
    @Test func timeBetweenCallsIsNotCounted() throws {
        let host = try Self.open()
        defer { cardlua_close(host) }
        cardlua_set_time_limit(host, 0.3)
        let script = "function transform(attributes) end\n"
        #expect(cardlua_load_script(host, script, script.utf8.count, "quiet.lua") == CARDLUA_OK)
        for _ in 0..<3 {
            usleep(400_000)  // longer than the limit, outside any call
            #expect(cardlua_has_function(host, "transform") == 1)
        }
        #expect(cardlua_counts_on_checkpoints(host) == 1)
    }

    /// Hosts made and closed one after another, each with a sleeping watchdog: closing
    /// joins its thread before the state goes (AddressSanitizer sees any use after free).
    @Test func closingStopsTheWatchdog() throws {
        for _ in 0..<40 {
            let host = try Self.open()
            cardlua_set_time_limit(host, 0.05)
            let script = "x = 1\n"
            #expect(cardlua_load_script(host, script, script.utf8.count, "quiet.lua") == CARDLUA_OK)
            cardlua_close(host)
        }
    }
}
