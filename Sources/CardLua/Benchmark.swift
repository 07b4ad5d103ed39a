#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Timing helpers for `cardlua bench` (BENCHMARKS.md: measure with a benchmark, never a
/// timed unit test), and what the stock-interpreter comparison needs from this module.
public enum Benchmark {
    /// CPU time of this process in nanoseconds (`CLOCK_PROCESS_CPUTIME_ID`, the clock
    /// Lua's `os.clock` reads). In-process figures use it so that other work on a shared
    /// machine does not inflate them, and so that they compare like with like against
    /// the stock interpreter.
    public static func cpuNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Wall-clock time in nanoseconds (`CLOCK_MONOTONIC`), for what happens in other
    /// processes: a cold run, watch's latency.
    public static func wallNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The median of `samples` (the mean of the middle two for an even count); NaN when
    /// there are none.
    public static func median(_ samples: [Double]) -> Double {
        guard !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// Runs `body` `warmup` times untimed, then `repeats` times; each run returns its own
    /// measurement (say, nanoseconds per item). Returns the median of the timed runs.
    public static func medianOf<E: Error>(repeats: Int, warmup: Int = 1,
                                          _ body: () throws(E) -> Double) throws(E) -> Double {
        for _ in 0..<max(0, warmup) { _ = try body() }
        var samples: [Double] = []
        samples.reserveCapacity(max(1, repeats))
        for _ in 0..<max(1, repeats) { samples.append(try body()) }
        return median(samples)
    }

    /// CPU nanoseconds `body` takes.
    @inline(__always)
    public static func cpuTime<E: Error>(_ body: () throws(E) -> Void) throws(E) -> Double {
        let start = cpuNanoseconds()
        try body()
        return Double(cpuNanoseconds() &- start)
    }

    /// The Lua prelude the scripts run on, as text: the stock-interpreter harness loads
    /// it so that both sides run the same transform math.
    public static var preludeSource: String { CardLua.preludeSource }

    /// The stock-interpreter harness (run with `lua5.4`). Arguments: the prelude's path,
    /// the script's path, a data file (`return { prepareState = {…}, state = {…},
    /// items = {…} }`: the arguments of the prelude's `I.setState` for `prepare` and for
    /// `transform`, and the items flat, `CARDLUA_IN_STRIDE` numbers each), iterations per
    /// repeat, repeats.
    /// It loads the prelude exactly as cardlua does (with inert stand-ins for the native
    /// functions), runs the script, calls `prepare`, then times plain loops that call the
    /// script's `transform` over the same items, and an empty function the same way.
    /// Prints `transform_ns N`, `empty_ns N` (medians, CPU time per item) and `sink N`.
    public static let stockHarness = #"""
    -- cardlua bench: the Lua floor. The same prelude and the same script's transform as
    -- cardlua runs, called from a plain Lua loop in the stock interpreter: no sandbox,
    -- no instruction hook, no lazy attributes, no validation, no C boundary per item.
    local preludePath, scriptPath, dataPath = arg[1], arg[2], arg[3]
    local iterations, repeats = tonumber(arg[4]), tonumber(arg[5])
    local clock, sort, type, rawset, setmetatable, getmetatable =
      os.clock, table.sort, type, rawset, setmetatable, getmetatable
    local stderr = io.stderr
    print = function(...)
      local parts = table.pack(...)
      for i = 1, parts.n do parts[i] = tostring(parts[i]) end
      stderr:write(table.concat(parts, "\t"), "\n")
    end
    local native = {
      query = function() return {} end,
      attributesIndex = function() return nil end,
      attributesNewindex = rawset,
    }
    local I = assert(loadfile(preludePath, "t"))(native)
    local data = assert(loadfile(dataPath, "t"))()
    local prepareState, state, flat = data.prepareState, data.state, data.items
    I.setState(table.unpack(prepareState))
    assert(loadfile(scriptPath, "t"))()
    local layout = I.layout
    if type(prepare) == "function" then prepare(layout) end
    I.readLayout(layout)
    I.setState(table.unpack(state))
    local transform = transform or function() end

    -- One plain attributes table per item, built before timing.
    local PointMT, SizeMT = getmetatable(I.pool.center), getmetatable(I.pool.size)
    local RectMT, IndexPathMT = getmetatable(I.pool.frame), getmetatable(I.pool.indexPath)
    local items, n = {}, #flat // 6
    for k = 0, n - 1 do
      local s, it, cx, cy, w, h = flat[k * 6 + 1], flat[k * 6 + 2], flat[k * 6 + 3], flat[k * 6 + 4], flat[k * 6 + 5], flat[k * 6 + 6]
      local a = {
        indexPath = setmetatable({ section = s, item = it, row = it }, IndexPathMT),
        center = setmetatable({ x = cx, y = cy }, PointMT),
        size = setmetatable({ width = w, height = h }, SizeMT),
        frame = setmetatable({ x = cx - w / 2, y = cy - h / 2, width = w, height = h }, RectMT),
        alpha = 1, zIndex = 0, hidden = false,
      }
      -- Absent reads a script may make: a fresh transform, the bounds.
      setmetatable(a, { __index = function(t, key)
        if key == "transform3D" then local v = I.identity3D(); rawset(t, key, v); return v
        elseif key == "transform" then return I.identityAffine()
        elseif key == "bounds" then return I.rect(0, 0, w, h)
        end
      end })
      items[k + 1] = a
    end

    -- Per item: reset what a script writes, call, keep the result. Nothing else: this
    -- is the floor, the cost of the effect's own math in the stock interpreter.
    local sink = 0
    local function loop(fn)
      local start = clock()
      for _ = 1, iterations do
        for k = 1, n do
          local a = items[k]
          a.transform3D, a.transform, a.alpha, a.zIndex, a.hidden = nil, nil, 1, 0, false
          if fn(a, layout) ~= nil then sink = sink + 1 end
        end
      end
      return (clock() - start) * 1e9 / (iterations * n)
    end
    local function median(fn)
      loop(fn) -- warm-up
      local samples = {}
      for i = 1, repeats do samples[i] = loop(fn) end
      sort(samples)
      local m = #samples // 2
      return #samples % 2 == 1 and samples[m + 1] or (samples[m] + samples[m + 1]) / 2
    end
    local empty = function() end
    io.write(string.format("transform_ns %.6f\n", median(transform)))
    io.write(string.format("empty_ns %.6f\n", median(empty)))
    io.write(string.format("sink %.17g\n", sink))
    """#
}
