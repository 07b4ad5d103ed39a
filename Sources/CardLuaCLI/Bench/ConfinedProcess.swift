#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CardLua
import Foundation

/// Runs a program that executes someone else's code (`bench --stock`: the stock `lua5.4`
/// on the user's script) so that it cannot outlive or outgrow `cardlua`:
///
/// - it runs in a **process group of its own**, killed whole when the time limit passes;
/// - it **dies with `cardlua`**: it is started through `cardlua` itself in a small exec
///   wrapper mode (``wrapperArgument``) that, on Linux, asks the kernel for SIGKILL when
///   its parent dies (`prctl(PR_SET_PDEATHSIG)`, kept across `execve`), checks that the
///   parent is still the one that started it (it may have died before the request), then
///   sets its limits and `exec`s the program. Killing `cardlua` in any way, SIGKILL
///   included, kills the program;
/// - **resource limits**: an address-space limit (`RLIMIT_AS`), a CPU-time limit
///   (`RLIMIT_CPU`), no core files, output files of bounded size (`RLIMIT_FSIZE`);
/// - **nothing on disk**: its standard input, output and error are temporary files
///   unlinked as soon as they are opened, so no path is left behind on any exit, however
///   `cardlua` ends.
enum ConfinedProcess {
    /// The first argument that makes `cardlua` the exec wrapper (see main.swift). Not a
    /// command: nobody types it.
    static let wrapperArgument = "__cardlua-confined-exec"

    /// What a confined run gave.
    struct Outcome {
        /// The exit status, or 128 + the signal that ended it.
        var status: Int32
        var standardOutput: String
        var standardError: String
        /// It outlived its time limit and was killed.
        var timedOut: Bool
    }

    /// Starts `program` with `arguments`, `input` on its standard input; waits at most
    /// `timeLimit` seconds (then kills its process group). `memoryLimit`: bytes of address
    /// space.
    /// `wrapper`: a `cardlua` executable (this one, unless a test runs this in process).
    static func run(_ program: String, _ arguments: [String], input: String,
                    wrapper: String = BenchProcesses.executable,
                    timeLimit: Double, memoryLimit: Int) throws -> Outcome {
        let stdin = try anonymousFile()
        defer { close(stdin) }
        let stdout = try anonymousFile(), stderr = try anonymousFile()
        defer { close(stdout); close(stderr) }
        try writeAll(input, to: stdin)
        lseek(stdin, 0, SEEK_SET)

        let cpuSeconds = Int(timeLimit.rounded(.up)) + 1
        let wrapper = [wrapper, wrapperArgument, String(getpid()), String(memoryLimit),
                       String(cpuSeconds), program] + arguments
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)  // a group of its own, killed whole
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = wrapper.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, wrapper[0], &actions, &attributes, argv, environ)
        guard started == 0 else {
            throw BenchError(description: "could not start \(Echo.safe(program)): \(String(cString: strerror(started)))")
        }

        // Poll until it ends or the time is up; the group is killed while the child is
        // still unreaped (its id cannot have been reused yet).
        let deadline = Benchmark.wallNanoseconds() + UInt64(timeLimit * 1e9)
        var timedOut = false
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { break }
            if Benchmark.wallNanoseconds() > deadline {
                timedOut = true
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                break
            }
            usleep(2000)
        }
        return Outcome(status: BenchProcesses.exitCode(status), standardOutput: readAll(stdout),
                       standardError: readAll(stderr), timedOut: timedOut)
    }

    /// The wrapper mode: `cardlua __cardlua-confined-exec PARENT MEMORY CPU PROGRAM ARGS…`.
    /// Never returns: `exec`s PROGRAM, or exits 125 (the parent is gone) or 127.
    static func execWrapper(_ arguments: [String]) -> Never {
        guard arguments.count >= 4, let parent = pid_t(arguments[0]), let memory = Int(arguments[1]),
              let cpu = Int(arguments[2]) else { _exit(127) }
        #if os(Linux)
        // prctl is variadic in C, so Swift cannot call it directly: through its address,
        // with the five integer arguments of PR_SET_PDEATHSIG.
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        if let symbol = dlsym(nil, "prctl") {  // nil: RTLD_DEFAULT on glibc
            _ = unsafeBitCast(symbol, to: Prctl.self)(1 /* PR_SET_PDEATHSIG */, UInt(SIGKILL), 0, 0, 0)
        }
        #endif
        // The parent may have died before the request: then nobody waits for this.
        guard getppid() == parent else { _exit(125) }
        #if os(Linux)
        func limit(_ resource: __rlimit_resource, _ value: Int, hard: Int? = nil) {
            var bound = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(hard ?? value))
            _ = setrlimit(__rlimit_resource_t(resource.rawValue), &bound)
        }
        #else
        func limit(_ resource: Int32, _ value: Int, hard: Int? = nil) {
            var bound = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(hard ?? value))
            _ = setrlimit(resource, &bound)
        }
        #endif
        limit(RLIMIT_CPU, cpu, hard: cpu + 1)
        limit(RLIMIT_CORE, 0)
        limit(RLIMIT_FSIZE, 16 << 20)
        signal(SIGPIPE, SIG_DFL)
        // Everything exec and its failure need is made before the address-space limit:
        // under AddressSanitizer (the test command's build) this wrapper is instrumented,
        // and its allocator maps fresh memory for any allocation, which the limit would
        // refuse. Between the limit and exec nothing allocates, so the limit holds in
        // every build; the new program starts with it.
        let program = arguments[3]
        let argv: [UnsafeMutablePointer<CChar>?] = Array(arguments[3...]).map { strdup($0) } + [nil]
        // Not `program`: a Swift string passed as a C string may be copied.
        guard let path = argv[0] else { _exit(127) }
        let failure = Array("cardlua: cannot run \(Echo.safe(program)): ".utf8)
        limit(RLIMIT_AS, memory)
        execv(path, argv)
        let reason = strerror(errno)
        failure.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
        if let reason { _ = write(2, reason, strlen(reason)) }
        _ = write(2, "\n", 1)
        _exit(127)
    }

    /// A new temporary file, already unlinked: only the descriptor knows it.
    private static func anonymousFile() throws -> Int32 {
        var template = Array((NSTemporaryDirectory() + "/cardlua-confined-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw BenchError(description: "cannot create a temporary file: \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }

    private static func writeAll(_ text: String, to fd: Int32) throws {
        var text = text
        let failure: Int32? = text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return errno }
                offset += n
            }
            return nil
        }
        if let failure { throw BenchError(description: "cannot write a temporary file: \(String(cString: strerror(failure)))") }
    }

    /// The whole file behind `fd`, from its start (at most 16 MiB, as RLIMIT_FSIZE allows).
    private static func readAll(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while bytes.count < 16 << 20 {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += chunk[..<n]
            offset += off_t(n)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
