@testable import CardLuaCLI
import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// `cardlua bench` and the stock interpreter (issue 23, item 7): opt-in with `--stock`,
/// and then sandboxed as `run` is, limited, and confined to a process that dies with
/// `cardlua` and leaves nothing behind.
@Suite(.enabled(if: TestSupport.which("lua5.4") != nil, "needs the lua5.4 interpreter"))
struct BenchSandboxTests {
    static let lua = TestSupport.which("lua5.4") ?? "lua5.4"

    /// A script whose top level writes a file and runs a command, where it can.
    static func hostile(in directory: URL) -> String {
        """
        local f = io and io.open("\(directory.path)/planted.txt", "w")
        if f then f:write("x") f:close() end
        if os and os.execute then os.execute("touch '\(directory.path)/executed.txt'") end
        function transform(attributes, layout) return 1 end
        """
    }

    static func leftovers(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { !["hostile.lua", "tmp"].contains($0) }.sorted()
    }

    @Test func withoutStockNothingRunsInTheStockInterpreter() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try CLI.write(Self.hostile(in: directory), named: "hostile.lua", in: directory)
        let result = try CLI.run(["bench", script, "--smoke"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("stock lua5.4"))
        #expect(try Self.leftovers(in: directory) == [])
    }

    /// With --stock the script runs there, but in run's sandbox: no file, no command, and
    /// no temporary file left (TMPDIR is the test's folder).
    @Test func withStockTheScriptRunsInRunsSandbox() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let temporary = directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let script = try CLI.write(Self.hostile(in: directory), named: "hostile.lua", in: directory)
        let result = try CLI.run(["bench", script, "--smoke", "--stock", "--lua", Self.lua], timeout: 120,
                                 environment: ["TMPDIR": temporary.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("hostile: per card, stock lua5.4"), "\(result.stdout)")
        #expect(try Self.leftovers(in: directory) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }

    /// In process: the harness on `source`, through the built `cardlua` as the wrapper.
    static func measure(_ source: String, timeLimit: Double = 60) throws -> StockInterpreter.Result {
        var options = BenchCommand.Options()
        options.smoke = true
        options.batch = 20
        options.repeats = 1
        let setup = try BenchCommand.Setup(effect: LuaEffect(source: "", chunkName: "empty.lua"), options: options)
        var stock = StockInterpreter(path: lua)
        stock.wrapper = CLI.executable.path
        stock.timeLimit = timeLimit
        return try stock.measure(script: nil, source: source, setup: setup, options: options)
    }

    static func failure(_ source: String, timeLimit: Double = 60) -> String {
        do {
            _ = try measure(source, timeLimit: timeLimit)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func anEndlessLoopEndsWithTheBudgetError() {
        let top = Self.failure("while true do end")
        #expect(top.contains("empty.lua:1: exceeded the budget of 10000000 steps"), "\(top)")
        // Caught by the script's own pcall, the limit still ends the run.
        let caught = Self.failure("function transform() while true do pcall(function() while true do end end) end end")
        #expect(caught.contains("exceeded the budget of"), "\(caught)")
    }

    @Test func theSandboxHasRunsGlobalsOnly() throws {
        let source = """
        for _, name in ipairs({ "io", "os", "debug", "package", "load", "loadfile", "dofile", "require",
                                "collectgarbage" }) do
          assert(_G[name] == nil, name .. " is reachable")
        end
        assert(string.dump == nil and ("").dump == nil, "string.dump is reachable")
        assert(getmetatable("") == false, "the string metatable is visible")
        assert(not pcall(setmetatable, {}, { __gc = function() end }), "a finalizer was accepted")
        function transform() end
        """
        _ = try Self.measure(source)
    }

    /// Doubling a string is one instruction per step, so the harness's heap check (on the
    /// count hook) comes too late: the address-space limit of the exec wrapper stops it,
    /// in a build under AddressSanitizer too (the wrapper sets it last, just before exec).
    @Test func memoryIsLimited() {
        let message = Self.failure("local s = 'x' while true do s = s .. s end")
        #expect(message.contains("memory"), "\(message)")
    }

    /// C work the budget cannot see (a stock pattern that backtracks for hours): the time
    /// limit stops the process.
    @Test func theTimeLimitStopsWhatTheBudgetCannotSee() {
        let message = Self.failure("string.find(string.rep('a', 40), '.-.-.-.-.-.-.-.-.-.-x')", timeLimit: 1)
        #expect(message.contains("did not finish") && message.contains("within 1 s"), "\(message)")
    }

    /// Tweakables read inside a callback are numbers there too (issue 26, item 1).
    @Test func paramsReadAsNumbersInCallbacks() throws {
        let result = try Self.measure("""
        params = { tilt = { value = 8, min = 0, max = 45 } }
        function transform(attributes) attributes.alpha = 1 - params.tilt / 100 end
        """)
        #expect(result.transform >= 0)
    }

    /// Killing `cardlua` (SIGKILL: no handler runs) kills the stock process it started.
    @Test func theStockProcessDiesWithCardlua() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Endless only where the layout query answers nothing: in the stock harness.
        let script = try CLI.write("""
        function transform(attributes, layout)
          local cards = layout:layoutAttributesForElements(layout.collectionView.bounds)
          if #cards == 0 then string.find(string.rep("a", 40), ".-.-.-.-.-.-.-.-.-.-x") end
          return 1
        end
        """, named: "slow.lua", in: directory)
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["bench", script, "--smoke", "--stock", "--lua", Self.lua]
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) }; process.waitUntilExit() }

        // The stuck stock interpreter: a process working in the test's folder (not cardlua)
        // that has used a second of CPU time (the smoke counts' normal stock runs take
        // milliseconds).
        func stockProcess() -> pid_t? {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            for entry in entries {
                guard let pid = pid_t(entry), pid != process.processIdentifier,
                      let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/cwd"),
                      cwd == directory.resolvingSymlinksInPath().path || cwd == directory.path,
                      let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                      let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 13,
                      let user = Int(fields[11]), let system = Int(fields[12]),
                      user + system >= Int(sysconf(Int32(_SC_CLK_TCK))) else { continue }
                return pid
            }
            return nil
        }
        var stock: pid_t?
        let started = Date()
        while stock == nil && process.isRunning && Date().timeIntervalSince(started) < 60 {
            stock = stockProcess()
            usleep(20_000)
        }
        let child = try #require(stock, "the stock interpreter never started")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let killed = Date()
        while kill(child, 0) == 0, Date().timeIntervalSince(killed) < 20 {
            // A zombie (reaped by init soon) no longer runs: count it as gone.
            if let state = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
               state.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") == true { break }
            usleep(20_000)
        }
        let state = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8)
        let alive = kill(child, 0) == 0
            && state?.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") != true
        #expect(!alive, "the stock process \(child) outlived cardlua")
    }
}
