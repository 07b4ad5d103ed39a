#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import CardLuaCLI
import Foundation
import Testing

/// `-o`: what happens to the path (regular file, link, FIFO, planted temporaries), `-o -`,
/// and failures that must leave nothing behind. Everything in a temporary directory.
@Suite struct OutputTests {
    static func lstatMode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode : nil
    }

    static func contents(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }

    /// What the same run prints on standard output (the reference bytes).
    static func reference(_ arguments: [String]) throws -> String {
        let result = try CLI.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// Runs `/bin/sh -c command arguments…`; standard output discarded.
    static func shell(_ command: String, _ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Names in `directory` that look like our temporaries.
    static func temporaries(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".cardlua-") }
    }

    /// A FIFO gets the bytes written into it and stays a FIFO (it used to be replaced by
    /// a regular file, which as root also happened to device nodes).
    @Test func fifoIsWrittenIntoAndStaysAFifo() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let arguments = ["run", CLI.script("lol.lua"), "--offset", "150", "--format", "json"]
        let expected = try Self.reference(arguments)
        #expect(expected.utf8.count < 16_384)   // fits in the pipe: the writer never waits for us
        // A reader that never blocks: opened before the writer, read after it is gone.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let result = try CLI.run(arguments + ["-o", fifo], timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(reader, &chunk, chunk.count)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(Self.lstatMode(fifo).map { $0 & S_IFMT } == S_IFIFO)
        #expect(try Self.temporaries(in: directory).isEmpty)
    }

    /// A symbolic link is followed: the link stays a link and what it names gets the
    /// output; a link to nothing yet creates its target.
    @Test func symlinkIsFollowedAndKept() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let real = directory.appendingPathComponent("real.json").path
        let link = directory.appendingPathComponent("link.json").path
        try "old".write(toFile: real, atomically: false, encoding: .utf8)
        #expect(symlink("real.json", link) == 0)
        let arguments = ["run", CLI.script("lol.lua"), "--offset", "150", "--format", "json"]
        let expected = try Self.reference(arguments)
        let result = try CLI.run(arguments + ["-o", link])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.lstatMode(link).map { $0 & S_IFMT } == S_IFLNK)
        #expect(Self.contents(real) == expected)

        let dangling = directory.appendingPathComponent("dangling.json").path
        #expect(symlink("sub/../new.json", dangling) == 0)   // "sub" does not exist: resolved as a path
        try FileManager.default.createDirectory(atPath: directory.appendingPathComponent("sub").path,
                                                withIntermediateDirectories: false)
        let second = try CLI.run(arguments + ["-o", dangling])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(Self.lstatMode(dangling).map { $0 & S_IFMT } == S_IFLNK)
        #expect(Self.contents(directory.appendingPathComponent("new.json").path) == expected)
        #expect(try Self.temporaries(in: directory).isEmpty)
    }

    /// Symbolic links planted at would-be temporary names are never opened. The old
    /// writer used `.NAME.cardlua-PID` (here: this process's id) and wrote through it,
    /// overwriting the victim; a plausible spread of other names is planted too.
    @Test func plantedTemporaryLinksAreNeverFollowed() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let victim = directory.appendingPathComponent("victim").path
        try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
        var planted = [".out.json.cardlua-\(getpid())", ".out.json.tmp", ".out.json.cardlua"]
        planted += (0..<200).map { ".out.json.cardlua-\(getpid() + Int32($0) + 1)" }
        planted += (0..<16).map { ".out.json.cardlua-" + String(repeating: String($0, radix: 16), count: 16) }
        for name in planted {
            #expect(symlink(victim, directory.appendingPathComponent(name).path) == 0)
        }
        let out = directory.appendingPathComponent("out.json").path
        try writeAtomically("new content\n", to: out)
        #expect(Self.contents(victim) == "precious")
        #expect(Self.contents(out) == "new content\n")
        #expect(Self.lstatMode(out).map { $0 & S_IFMT } == S_IFREG)
        // Only the planted names remain; each is still a link to the untouched victim.
        #expect(Set(try Self.temporaries(in: directory)) == Set(planted.filter { $0.contains(".cardlua-") }))
    }

    /// A replaced file keeps its mode; a new one is 0644 less the umask.
    @Test func replacedFileKeepsItsMode() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.txt").path
        try "old".write(toFile: out, atomically: false, encoding: .utf8)
        #expect(chmod(out, 0o600) == 0)
        try writeAtomically("new", to: out)
        #expect(Self.contents(out) == "new")
        #expect(Self.lstatMode(out).map { $0 & 0o777 } == 0o600)

        let fresh = directory.appendingPathComponent("fresh.txt").path
        let mask = umask(0o022)
        umask(mask)
        try writeAtomically("x", to: fresh)
        #expect(Self.lstatMode(fresh).map { $0 & 0o777 } == 0o644 & ~mask)
    }

    /// `-o -` is standard output, not a file named "-".
    @Test func dashIsStandardOutput() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["run", CLI.script("lol.lua"), "--fling", "2", "--format", "json"]
        let expected = try Self.reference(arguments)
        let result = try CLI.run(arguments + ["-o", "-"], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == expected)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("-").path))
    }

    /// A run that fails part-way (the script, or the disk: a file-size limit hit while
    /// streaming) leaves the previous file as it was and no temporary behind.
    @Test func failedRunsLeaveThePreviousFileAndNoTemporaries() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.json").path
        try "previous".write(toFile: out, atomically: false, encoding: .utf8)
        // The demo's JSON is far over 64 KiB, so the failure at t > 5 s comes after several
        // blocks went into the temporary file.
        let lol = try String(contentsOfFile: CLI.script("lol.lua"), encoding: .utf8)
        let script = try CLI.write(lol + """

            local turn = transform
            function transform(a, layout)
              if layout.time > 5 then error("late failure") end
              return turn(a, layout)
            end
            """, named: "late.lua", in: directory)
        let late = try CLI.run(["run", script, "--format", "json", "-o", out])
        #expect(late.status == 1)
        #expect(late.stderr.contains("late failure"), "\(late.stderr)")
        #expect(Self.contents(out) == "previous")
        #expect(try Self.temporaries(in: directory).isEmpty)

        // A write that fails: a 64 KiB file-size limit (SIGXFSZ ignored, so write fails
        // with EFBIG) while the 800 KB demo JSON streams.
        let limited = try Self.shell("trap '' XFSZ; ulimit -f 64; exec \"$0\" \"$@\"",
                                     [CLI.executable.path, "run", CLI.script("lol.lua"), "--format", "json", "-o", out])
        #expect(limited.status == 1, "\(limited.stderr)")
        #expect(limited.stderr.hasPrefix("\(out): "), "\(limited.stderr)")
        #expect(Self.contents(out) == "previous")
        #expect(try Self.temporaries(in: directory).isEmpty)
    }

    /// What cannot be written is reported as `PATH: reason`, exit 1, before the script runs.
    @Test func unwritablePathsAreReported() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("no/such/dir/out.json").path
        let a = try CLI.run(["run", CLI.script("lol.lua"), "-o", missing])
        #expect(a.status == 1 && a.stderr.hasPrefix("\(missing): "), "\(a.stderr)")
        let b = try CLI.run(["run", CLI.script("lol.lua"), "-o", directory.path])
        #expect(b.status == 1 && b.stderr == "\(directory.path): is a directory\n", "\(b.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// Output is bounded (`--max-output`, 1G by default): a run that would write more
    /// stops with exit 1 and one line, the previous file untouched, no temporary left.
    @Test func outputBeyondItsLimitFailsAndLeavesThePreviousFile() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // 100 s at 10 fps of idle frames: 1,000 frames, about 5 MB of JSON, far more than
        // 100K (at 60 fps the run that fits wrote 31 MB, past a minute under the sanitizers).
        let script = try CLI.write("scenarios = { long = { fps = 10, steps = { { wait = 100 } } } }\n",
                                   named: "long.lua", in: directory)
        let target = directory.appendingPathComponent("out.json").path
        try "previous".write(toFile: target, atomically: false, encoding: .utf8)
        let result = try CLI.run(["run", script, "--scenario", "long", "--format", "json",
                                  "-o", target, "--max-output", "100K"])
        #expect(result.status == 1)
        #expect(result.stderr == "\(target): the output would exceed 100K (--max-output)\n", "\(result.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "previous")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["long.lua", "out.json"])
        let usage = try CLI.run(["run", script, "--max-output", "lots"])
        #expect(usage.status == 2 && usage.stderr.contains("--max-output"))
        // Within the limit the same run succeeds.
        let fits = try CLI.run(["run", script, "--scenario", "long", "--format", "json", "-o", target])
        #expect(fits.status == 0, "\(fits.stderr)")
    }
}
