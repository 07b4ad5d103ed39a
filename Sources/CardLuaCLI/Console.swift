#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Standard output and error, and facts about the terminal.
enum Console {
    /// Writes to standard output; a closed pipe (`cardlua run | head`) is not an error.
    static func out(_ text: String) { writeAll(text, to: 1) }

    /// Writes a line to standard error.
    static func error(_ line: String) {
        writeAll(line.hasSuffix("\n") ? line : line + "\n", to: 2)
    }

    private static func writeAll(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 {
                    if written < 0 && errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    static var standardOutputIsTerminal: Bool { isatty(1) != 0 }

    /// Colour when standard output is a terminal and `NO_COLOR` is unset (no-color.org).
    static var wantsColor: Bool {
        guard standardOutputIsTerminal else { return false }
        if let value = ProcessInfo.processInfo.environment["NO_COLOR"], !value.isEmpty { return false }
        return ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// The terminal's width, or `COLUMNS`, or 80.
    static var columns: Int {
        var size = winsize()
        if standardOutputIsTerminal, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let n = Int(text), n > 0 { return n }
        return 80
    }
}

/// Writes `text` to `path` whole or not at all: into a temporary file beside it, then
/// renamed over it, so a reader (a browser, `watch`) never sees half a file.
func writeAtomically(_ text: String, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent()
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).cardlua-\(getpid())")
    do {
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw OutputError(path: path, reason: reason)
        }
    } catch let error as OutputError {
        throw error
    } catch {
        try? FileManager.default.removeItem(at: temporary)
        throw OutputError(path: path, reason: "cannot write (\((error as NSError).localizedDescription))")
    }
}

/// An output file could not be written.
struct OutputError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "\(path): \(reason)" }
}
