#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CardLayout
import CardLua
import Foundation

/// A failure of the benchmark's own machinery (not of the script).
struct BenchError: Error, CustomStringConvertible {
    var description: String
}

/// The stock `lua5.4` interpreter: the Lua floor. It runs `Benchmark.stockHarness`, which
/// loads the same prelude and the same script and calls `transform` in a plain Lua loop
/// over the same items as cardlua does, timing with `os.clock` (CPU time, like ours).
struct StockInterpreter {
    let path: String
    /// The program that confines it (``ConfinedProcess``): this `cardlua`.
    var wrapper = BenchProcesses.executable
    /// The most a stock run may take, wall clock.
    var timeLimit = StockInterpreter.defaultTimeLimit

    /// `explicit` (a path, or a name looked up on PATH), else `lua5.4` on PATH.
    static func find(_ explicit: String?) -> StockInterpreter? {
        let name = explicit ?? "lua5.4"
        if name.contains("/") {
            return FileManager.default.isExecutableFile(atPath: name) ? StockInterpreter(path: name) : nil
        }
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
            .split(separator: ":")
        for directory in directories {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return StockInterpreter(path: candidate) }
        }
        return nil
    }

    /// Nanoseconds per item (medians) of the script's transform and of an empty function.
    struct Result {
        var transform: Double
        var empty: Double
    }

    /// The sandbox's limits (the same as `cardlua bench` gives its own effects; the
    /// harness enforces them, BenchProcesses' wrapper the time and address space).
    static let limits = ScriptLimits()
    /// The most a stock run may take by default, wall clock: `run`'s default for a whole run.
    static let defaultTimeLimit = ScriptLimits.defaultRunTime
    /// The address space of the stock process: the script's memory limit and room for
    /// the interpreter and the harness's items (about 2 KiB each).
    static func addressSpace(items: Int) -> Int { limits.maxMemory + (256 << 20) + items * 4096 }

    /// Reads standard input (a line of lengths, then the parts end to end) and runs its
    /// first part, the harness, on the others. Passed with `-e`; `-E` keeps LUA_INIT out.
    static let boot = """
        local b = io.read("a") local head, at = b:match("^([%d ]+)\\n()") local parts = {} \
        for len in head:gmatch("%d+") do parts[#parts + 1] = b:sub(at, at + len - 1) at = at + len end \
        assert(load(parts[1], "=bench-harness", "t"))(table.unpack(parts, 2))
        """

    /// Runs the harness on `script` (a path) or on `source`, sandboxed, in a confined
    /// process (``ConfinedProcess``).
    func measure(script: String?, source: String?, setup: BenchCommand.Setup,
                 options: BenchCommand.Options) throws -> Result {
        let text: String
        if let script {
            do { text = try ScriptFile.read(path: script) } catch { throw BenchError(description: error.message) }
        } else {
            text = source ?? ""
        }
        let name = script ?? "empty.lua"
        let limits = Self.limits
        let settings = "\(options.callsPerRepeat) \(options.repeats) \(limits.maxSteps) \(limits.maxMemory)"
        let parts = [Benchmark.stockHarness, settings, Benchmark.preludeSource, Benchmark.referenceSource, name, text,
                     Self.dataFile(setup)]
        let input = parts.map { String($0.utf8.count) }.joined(separator: " ") + "\n" + parts.joined()
        let outcome = try ConfinedProcess.run(path, ["-E", "-e", Self.boot], input: input, wrapper: wrapper,
                                              timeLimit: timeLimit,
                                              memoryLimit: Self.addressSpace(items: setup.items.count))
        let shown = Echo.safe(script ?? "the empty transform")
        if outcome.timedOut {
            throw BenchError(description: "the stock interpreter (\(Echo.safe(path))) did not finish \(shown) within "
                             + "\(OptionTable.number(timeLimit)) s and was stopped")
        }
        guard outcome.status == 0 else {
            throw BenchError(description: "the stock interpreter (\(Echo.safe(path))) failed on \(shown) "
                             + "(exit \(outcome.status)):\n\(outcome.standardError)")
        }
        var values: [String: Double] = [:]
        for line in outcome.standardOutput.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
        }
        guard let transform = values["transform_ns"], let empty = values["empty_ns"] else {
            throw BenchError(description: "the stock interpreter printed no figures:\n\(outcome.standardOutput)\(outcome.standardError)")
        }
        return Result(transform: transform, empty: empty)
    }

    /// `return { prepareState = {…}, state = {…}, items = {…} }` for the harness.
    static func dataFile(_ setup: BenchCommand.Setup) -> String {
        // I.setState's arguments, as the host passes them: seven numbers, three booleans.
        func state(_ c: ScrollContext) -> String {
            ([c.bounds.origin.x, c.bounds.origin.y, c.bounds.size.width, c.bounds.size.height,
              c.contentSize.width, c.contentSize.height, c.time].map(number)
             + [c.isTracking, c.isDragging, c.isDecelerating].map { $0 ? "true" : "false" })
                .joined(separator: ", ")
        }
        var text = "return {\n  prepareState = { \(state(setup.viewportContext)) },\n"
        text += "  state = { \(state(setup.context)) },\n  items = {\n"
        for item in setup.items {
            let fields = [Double(item.indexPath.section), Double(item.indexPath.item), item.center.x, item.center.y,
                          item.size.width, item.size.height]
            text += "    " + fields.map(number).joined(separator: ", ") + ",\n"
        }
        return text + "  },\n}\n"
    }

    private static func number(_ x: Double) -> String { String(format: "%.17g", x) }
}

/// Measurements across processes: a cold `cardlua run`, and watch's latency.
enum BenchProcesses {
    /// This executable's path.
    static var executable: String {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 { return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// Starts `arguments` (the first is the program) with standard input, output and
    /// error on /dev/null. Returns the process id, or nil.
    static func spawn(_ arguments: [String]) -> pid_t? {
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        return status == 0 ? pid : nil
    }

    /// Waits for `pid`; its exit status, or 128 + the signal that ended it.
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return exitCode(status)
    }

    static func exitCode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// `cardlua run SCRIPT` (the built-in demo, text to /dev/null), end to end, wall clock.
    static func coldRun(_ script: String, _ options: BenchCommand.Options, table: inout BenchTable) {
        let runs = options.smoke ? 2 : 21
        let arguments = [executable, "run", script]
        var samples: [Double] = []
        for index in 0...runs {  // the first run warms the file cache, untimed
            let start = Benchmark.wallNanoseconds()
            guard let pid = spawn(arguments) else {
                table.missing("cold cardlua run \(Echo.safe(script)) (demo)", reason: "could not start \(executable)")
                return
            }
            let status = wait(pid)
            let elapsed = Double(Benchmark.wallNanoseconds() - start)
            guard status == 0 else {
                table.missing("cold cardlua run \(Echo.safe(script)) (demo)", reason: "the run failed (exit \(status))")
                return
            }
            if index > 0 { samples.append(elapsed) }
        }
        let median = Benchmark.median(samples)
        table.row("cold cardlua run \(Echo.safe(script)) (the demo), end to end", ns: median, unit: .msWall,
                  target: Target(limit: 80_000_000, what: "ns", value: median),
                  note: "median of \(runs) runs")
    }

    /// `cardlua watch SCRIPT -o out.json` on a copy of the script: the time from writing
    /// the script to the output file being replaced, wall clock. Edits alternate between
    /// a version that changes the output (every card's zIndex) and the original.
    static func watchLatency(_ script: String, _ options: BenchCommand.Options, table: inout BenchTable) {
        let what = "watch: save to output (\(Echo.safe(script)), json)"
        guard let original = try? ScriptFile.read(path: script) else {
            table.missing(what, reason: "cannot read \(Echo.safe(script))")
            return
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("cardlua-watch-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            table.missing(what, reason: "cannot make a temporary directory")
            return
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let scriptPath = directory.appendingPathComponent((script as NSString).lastPathComponent).path
        let outputPath = directory.appendingPathComponent("out.json").path
        let changed = original + "\n" + benchEditSource  // Templates/bench-edit.lua
        guard write(original, to: scriptPath) else {
            table.missing(what, reason: "cannot write the script's copy")
            return
        }
        guard let pid = spawn([executable, "watch", scriptPath, "-o", outputPath]) else {
            table.missing(what, reason: "could not start \(executable)")
            return
        }
        var running = true  // never signal a process id once it is reaped: it may be reused
        defer {
            if running {
                kill(pid, SIGTERM)
                _ = wait(pid)
            }
        }
        // The first output, or the watcher's early exit (no watch command in this build).
        let patience: UInt64 = options.smoke ? 10_000_000_000 : 30_000_000_000
        let firstDeadline = Benchmark.wallNanoseconds() + patience
        while stamp(outputPath) == nil {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                running = false
                table.missing(what, reason: "`cardlua watch` exited at once (status \(exitCode(status))): not available in this build")
                return
            }
            if Benchmark.wallNanoseconds() > firstDeadline {
                table.missing(what, reason: "no first output within \(patience / 1_000_000_000) s")
                return
            }
            usleep(500)
        }
        let edits = options.smoke ? 1 : 10
        var samples: [Double] = []
        for edit in 1...edits {
            usleep(300_000)  // let the watcher settle, and file times move on
            let before = stamp(outputPath)
            let start = Benchmark.wallNanoseconds()
            guard write(edit % 2 == 1 ? changed : original, to: scriptPath) else { break }
            let deadline = start + patience / 3
            var seen = false
            while Benchmark.wallNanoseconds() < deadline {
                if let now = stamp(outputPath), now != before { seen = true; break }
                usleep(200)
            }
            guard seen else {
                table.missing(what, reason: "the output did not change within \(patience / 3_000_000_000) s of a save")
                return
            }
            samples.append(Double(Benchmark.wallNanoseconds() - start))
        }
        table.row(what, ns: Benchmark.median(samples), unit: .msWall, note: "median of \(samples.count) saves")
    }

    /// Inode, size and modification time of a file: changes when it is replaced.
    private static func stamp(_ path: String) -> [Int]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if os(Linux)
        let time = [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
        #else
        let time = [Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec)]
        #endif
        return [Int(info.st_ino), Int(info.st_size)] + time
    }

    /// Writes in place (truncate, then one write), as many editors save.
    private static func write(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var text = text
        return text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }
}
