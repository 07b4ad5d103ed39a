import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// Loading is bounded: a script over 8 MiB is refused before it is read whole (its size
/// from the file system) or parsed, in one line that states the bound; parsing what is
/// loaded allocates inside the state, against the memory limit (README.md, *Bounds*).
@Suite struct LoadBoundTests {
    static let bound = 8 << 20

    /// A file of `size` bytes (a hole: nothing is written) at `directory/name`.
    static func sparseFile(_ name: String, size: Int, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(ftruncate(descriptor, off_t(size)) == 0)
        return path
    }

    @Test(arguments: [(8 << 20 + 1, "8.1 MiB"), (300 << 20, "300 MiB"), (9 << 20 + 512 << 10, "9.5 MiB"),
                      (1 << 40, "1048576 MiB")])
    func fileOverTheBoundIsRefusedBeforeReading(size: Int, shown: String) throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.sparseFile("big.lua", size: size, in: directory)
        #expect {
            _ = try LuaEffect(path: path)
        } throws: { error in
            let error = error as? ScriptError
            return error?.kind == .unreadable
                && error?.message == "\(path): the script is \(shown); scripts are limited to 8 MiB"
        }
        // `cardlua check` reads through the same door.
        let diagnostics = ScriptChecker.check(path: path)
        #expect(diagnostics.map(\.message) == ["the script is \(shown); scripts are limited to 8 MiB"])
    }

    /// A script of exactly the bound loads (a comment of 8 MiB, then a transform).
    @Test func scriptAtTheBoundLoads() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tail = "\nfunction transform(attributes) attributes.alpha = 0.5 end\n"
        let text = "--" + String(repeating: "x", count: Self.bound - 2 - tail.utf8.count) + tail
        #expect(text.utf8.count == Self.bound)
        let path = try TestSupport.write(text, named: "edge.lua", in: directory)
        let effect = try LuaEffect(path: path)
        #expect(effect.definesFunction("transform"))
    }

    /// A text handed over in memory is held to the same bound, before it is copied.
    @Test func sourceOverTheBoundIsRefused() {
        let text = String(repeating: " ", count: Self.bound + 1)
        #expect {
            _ = try LuaEffect(source: text, chunkName: "memory.lua")
        } throws: { error in
            (error as? ScriptError)?.message == "memory.lua: the script is 8.1 MiB; scripts are limited to 8 MiB"
        }
    }

    /// A script that is not UTF-8, a directory and a missing file keep their messages (a
    /// directory is refused unread, as anything but a regular file is: ``RegularFile``).
    @Test func unreadableFilesKeepTheirMessages() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = directory.appendingPathComponent("latin1.lua")
        try Data([0x2d, 0x2d, 0xe9, 0x0a]).write(to: binary)
        let missing = directory.appendingPathComponent("missing.lua").path
        for (path, reason) in [(binary.path, "cannot read the script (not UTF-8 text, or no permission)"),
                               (directory.path, "not a regular file (a folder)"),
                               (missing, "no such file")] {
            #expect {
                _ = try LuaEffect(path: path)
            } throws: { error in
                (error as? ScriptError)?.message == "\(path): \(reason)"
            }
        }
    }

    /// Parsing counts against the memory limit: a 6 MiB string constant in a script is
    /// refused under a 4 MiB limit while the script loads, as a memory limit at its line.
    @Test func parsingCountsAgainstTheMemoryLimit() {
        let text = "local s = \"" + String(repeating: "y", count: 6 << 20) + "\"\nfunction transform() end\n"
        #expect {
            _ = try LuaEffect(source: text, chunkName: "constant.lua", limits: ScriptLimits(maxMemory: 4 << 20))
        } throws: { error in
            let error = error as? ScriptError
            return error?.kind == .limit && error?.limit == .memory
                && error?.message.hasPrefix("constant.lua:1: exceeded the memory limit") == true
        }
    }
}
