#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CardRender
import Foundation

/// Standard output and error, and facts about the terminal.
enum Console {
    /// Writes to standard output; a closed pipe (`cardlua run | head`) is not an error.
    static func out(_ text: String) { writeAll(text, to: 1) }

    /// Writes a line to standard error.
    /// Control characters are escaped (``Echo/safe(_:limit:keepingLines:)``, newlines and
    /// tabs kept): nothing written here can drive the terminal, whatever it repeats.
    static func error(_ line: String) {
        writeAll(errorText(line), to: 2)
    }

    /// What ``error(_:)`` writes for `line`.
    static func errorText(_ line: String) -> String {
        let line = Echo.safe(line, limit: nil, keepingLines: true)
        return line.hasSuffix("\n") ? line : line + "\n"
    }

    private static func writeAll(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Console.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 {
                    if written < 0 && errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// write(2) to standard output (1) or error (2), or to the task's ``ConsoleCapture``.
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        guard let capture = ConsoleCapture.current else { return posixWrite(descriptor, bytes, count) }
        capture.append(UnsafeRawBufferPointer(start: bytes, count: count), to: descriptor)
        return count
    }

    static var standardOutputIsTerminal: Bool { ConsoleCapture.current == nil && isatty(1) != 0 }

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

/// Writes `text` to `path` whole or not at all (see ``OutputFile``).
func writeAtomically(_ text: String, to path: String) throws(OutputError) {
    let file = try OutputFile.open(path)
    do {
        try file.writeText(text)
        try file.commit()
    } catch {
        file.discard()
        throw error
    }
}

/// An output file could not be written.
struct OutputError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "\(Echo.safe(path)): \(reason)" }
}

/// Where `run`, `watch` (and `types`, `new`) write: a file given to `-o`, or standard
/// output (`-o -`, or no `-o`). Text is buffered and written in large blocks.
///
/// What happens to the path depends on what it is, like a shell's `>` but atomic where
/// it can be:
/// - a **regular file, or nothing yet**: the text goes into a new temporary file in the
///   same directory, created with `O_CREAT | O_EXCL | O_NOFOLLOW` under an unpredictable
///   name (`.NAME.cardlua-` and 16 random hex digits, another name on `EEXIST`), mode
///   0644 less the umask or the replaced file's own mode (and owner, when allowed);
///   ``commit()`` renames it over the path, so a reader never sees half a file.
///   Nothing planted at a guessable name is ever opened, and ``discard()`` (or a
///   failure) removes the temporary and leaves the old file untouched.
/// - a **symbolic link**: followed (each link in turn, like `realpath`) to what it names,
///   which is then treated as above; the link itself stays a link.
/// - a **FIFO, a character or block device, or another non-regular file**: opened for
///   writing as it is (`O_WRONLY`, no create, no truncate) and written into directly.
/// - a **directory**: an error.
/// - `-`: standard output.
final class OutputFile: TextOutput {
    private enum Mode {
        case standardOutput
        case replace(temporary: String, target: String)
        case direct

        var isStandardOutput: Bool {
            if case .standardOutput = self { return true }
            return false
        }
    }

    /// The path as given (for messages).
    let path: String
    private let mode: Mode
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var finished = false
    /// Bytes accepted so far (written or buffered).
    private var byteCount = 0
    /// Flushed when the buffer holds this much.
    private static let blockSize = 1 << 16
    /// The default of ``byteLimit``: 1 GiB (`--max-output`).
    static let defaultByteLimit = 1 << 30
    /// The most this output accepts: a longer run stops with an ``OutputError`` (and a
    /// regular file is left as it was), so no script can fill a disk.
    var byteLimit = OutputFile.defaultByteLimit

    private init(path: String, mode: Mode, descriptor: Int32) {
        self.path = path
        self.mode = mode
        self.descriptor = descriptor
        buffer.reserveCapacity(Self.blockSize)
    }

    deinit {
        if !finished { discard() }
    }

    /// Standard output; write errors (a closed pipe, `cardlua run | head`) are ignored.
    static func standardOutput() -> OutputFile {
        OutputFile(path: "-", mode: .standardOutput, descriptor: 1)
    }

    /// Opens `path` for output (see the type's description); `-` is standard output.
    static func open(_ path: String) throws(OutputError) -> OutputFile {
        if path == "-" { return standardOutput() }
        let target = try resolveLinks(path)
        var info = stat()
        if lstat(target, &info) == 0 {
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR { throw OutputError(path: path, reason: "is a directory") }
            if type != S_IFREG {
                // A FIFO or a device: write into it as it is, as `>` does.
                let fd = posixOpen(target, O_WRONLY | O_CLOEXEC | O_NOCTTY)
                guard fd >= 0 else { throw OutputError(path: path, reason: reasonForErrno()) }
                return OutputFile(path: path, mode: .direct, descriptor: fd)
            }
            return try replacing(target, path: path, permissions: mode_t(info.st_mode & 0o777),
                                 owner: (info.st_uid, info.st_gid))
        }
        guard errno == ENOENT else { throw OutputError(path: path, reason: reasonForErrno()) }
        return try replacing(target, path: path, permissions: nil, owner: nil)
    }

    /// A fresh temporary beside `target`, to be renamed over it.
    private static func replacing(_ target: String, path: String, permissions: mode_t?,
                                  owner: (uid_t, gid_t)?) throws(OutputError) -> OutputFile {
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        for _ in 0..<100 {
            var random = SystemRandomNumberGenerator()
            let suffix = String(random.next() as UInt64, radix: 16)
            let temporary = directory + "." + name + ".cardlua-" + String(repeating: "0", count: 16 - suffix.count) + suffix
            // O_EXCL | O_NOFOLLOW: never open what someone planted at this name.
            let fd = posixOpen(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd < 0 {
                if errno == EEXIST || errno == EINTR { continue }
                throw OutputError(path: path, reason: reasonForErrno())
            }
            if let permissions, fchmod(fd, permissions) != 0 {
                let reason = reasonForErrno()
                close(fd)
                unlink(temporary)
                throw OutputError(path: path, reason: reason)
            }
            // Keep the replaced file's owner where allowed (as root); elsewhere a no-op or refused.
            if let owner, owner.0 != geteuid() || owner.1 != getegid() { _ = fchown(fd, owner.0, owner.1) }
            return OutputFile(path: path, mode: .replace(temporary: temporary, target: target), descriptor: fd)
        }
        throw OutputError(path: path, reason: "cannot create a temporary file beside it")
    }

    /// Follows symbolic links (the last component, then whatever each link names) to the
    /// path that is finally written; a link to nothing yet gives the missing path.
    static func resolveLinks(_ path: String) throws(OutputError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var bytes = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &bytes, bytes.count - 1)
            guard count >= 0 else { throw OutputError(path: path, reason: reasonForErrno()) }
            let destination = String(decoding: bytes[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if destination.hasPrefix("/") {
                current = destination
            } else if let slash = current.lastIndex(of: "/") {
                current = String(current[...slash]) + destination
            } else {
                current = destination
            }
        }
        throw OutputError(path: path, reason: String(cString: strerror(ELOOP)))
    }

    func write(_ text: String) throws {
        try writeText(text)
    }

    /// Appends `text` to the buffer, writing the buffer out when it is full.
    func writeText(_ text: String) throws(OutputError) {
        var text = text
        byteCount += text.utf8.count
        guard byteCount <= byteLimit else {
            throw OutputError(path: path, reason: "the output would exceed \(OptionTable.byteSize(byteLimit)) (--max-output)")
        }
        text.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= Self.blockSize { try flush() }
    }

    private func flush() throws(OutputError) {
        defer { buffer.removeAll(keepingCapacity: true) }
        let failure: Int32? = buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = mode.isStandardOutput ? Console.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    : posixWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return written < 0 ? errno : EIO }
                offset += written
            }
            return nil
        }
        if let failure {
            if case .standardOutput = mode { return }   // a closed pipe is not an error
            throw OutputError(path: path, reason: String(cString: strerror(failure)))
        }
    }

    /// Writes what is buffered and, for a regular file, renames the temporary over the
    /// path. On failure the temporary is removed and the path left as it was.
    func commit() throws(OutputError) {
        guard !finished else { return }
        do {
            try flush()
        } catch {
            discard()
            throw error
        }
        finished = true
        switch mode {
        case .standardOutput:
            return
        case .direct:
            if close(descriptor) != 0 && errno != EINTR {
                throw OutputError(path: path, reason: reasonForErrno())
            }
        case let .replace(temporary, target):
            let closed = close(descriptor)
            let reason = closed != 0 && errno != EINTR ? reasonForErrno() : nil
            if reason == nil && rename(temporary, target) == 0 { return }
            let why = reason ?? reasonForErrno()
            unlink(temporary)
            throw OutputError(path: path, reason: why)
        }
    }

    /// Gives up: nothing more is written, a temporary is removed (the path keeps its old
    /// content).
    func discard() {
        guard !finished else { return }
        finished = true
        buffer.removeAll()
        switch mode {
        case .standardOutput:
            return
        case .direct:
            close(descriptor)
        case let .replace(temporary, _):
            close(descriptor)
            unlink(temporary)
        }
    }
}

private func reasonForErrno() -> String {
    String(cString: strerror(errno))
}

// The class's own `open` and `write` hide the C functions inside it.
private func posixOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    open(path, flags, mode)
}

private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
