#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Timing helpers for `cardlua bench` (BENCHMARKS.md: measure with a benchmark, never a
/// timed unit test), and what the stock-interpreter comparison needs from this module.
package enum Benchmark {
    /// CPU time of this process in nanoseconds (`CLOCK_PROCESS_CPUTIME_ID`, the clock
    /// Lua's `os.clock` reads). In-process figures use it so that other work on a shared
    /// machine does not inflate them, and so that they compare like with like against
    /// the stock interpreter.
    package static func cpuNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Wall-clock time in nanoseconds (`CLOCK_MONOTONIC`), for what happens in other
    /// processes: a cold run, watch's latency.
    package static func wallNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The median of `samples` (the mean of the middle two for an even count); NaN when
    /// there are none.
    package static func median(_ samples: [Double]) -> Double {
        guard !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// Runs `body` `warmup` times untimed, then `repeats` times; each run returns its own
    /// measurement (say, nanoseconds per item). Returns the median of the timed runs.
    package static func medianOf<E: Error>(repeats: Int, warmup: Int = 1,
                                          _ body: () throws(E) -> Double) throws(E) -> Double {
        for _ in 0..<max(0, warmup) { _ = try body() }
        var samples: [Double] = []
        samples.reserveCapacity(max(1, repeats))
        for _ in 0..<max(1, repeats) { samples.append(try body()) }
        return median(samples)
    }

    /// CPU nanoseconds `body` takes.
    @inline(__always)
    package static func cpuTime<E: Error>(_ body: () throws(E) -> Void) throws(E) -> Double {
        let start = cpuNanoseconds()
        try body()
        return Double(cpuNanoseconds() &- start)
    }

    /// The Lua prelude the scripts run on, as text: the stock-interpreter harness loads
    /// it (with ``referenceSource`` in place of the C functions) so that both sides run
    /// the same API.
    package static var preludeSource: String { CardLua.preludeSource }

    /// The Lua reference of the C functions the prelude installs (the transform math and
    /// the geometry constructors: Sources/CardLua/Lua/reference/), as text: one chunk that
    /// returns `{ transformMath = …, geometryMakers = … }`, the installers the stock
    /// interpreter is given in their place. cardlua itself never runs it.
    package static var referenceSource: String { CardLua.referenceSource }

    /// The stock-interpreter harness (run with `lua5.4 -E -e BOOT`, `cardlua bench
    /// --stock`). It receives the settings (iterations per repeat, repeats, the instruction
    /// budget, the memory limit), the prelude's text, the reference's (``referenceSource``),
    /// the script's name and text, and a
    /// data chunk (`return { prepareState = {…}, state = {…}, items = {…} }`: the arguments
    /// of the prelude's `I.setState` for `prepare` and for `transform`, and the items flat,
    /// `CARDLUA_IN_STRIDE` numbers each).
    /// It loads the prelude and the script as cardlua does, in `run`'s sandbox with the
    /// same limits (inert stand-ins for the native functions), calls `prepare`, then times
    /// plain loops that call the script's `transform` over the same items, and an empty
    /// function the same way.
    /// Prints `transform_ns N`, `empty_ns N` (medians, CPU time per item) and `sink N`.
    package static var stockHarness: String { benchHarnessSource }  // Sources/CardLua/Lua/bench-harness.lua
}
