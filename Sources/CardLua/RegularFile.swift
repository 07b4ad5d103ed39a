#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way cardlua reads a user's file — a script, a `--cards` image, a file beside a
/// new script: it never waits on it and never reads more than a bound.
///
/// The file is opened with `O_NONBLOCK` (a FIFO with no writer opens at once instead of
/// waiting for one; a device does not wait for its carrier), `O_NOCTTY` and `O_CLOEXEC`,
/// and what was opened is checked with `fstat` on the descriptor — never a `stat` of the
/// path before the open, which another process could replace in between. Anything but a
/// regular file (a FIFO, a device, a socket, a folder) is refused before a byte is read.
/// At most `maxBytes + 1` bytes are read (enough to tell that a growing file is past).
///
/// Symbolic links: a path a person typed (a script on the command line, `--cards`'s own
/// folder) follows its links — a script linked from elsewhere is legitimate — and what
/// is checked is the file the link leads to, since the check is on the open descriptor.
/// A file served out of a folder by name (`play`'s picker, `--cards` images) is opened
/// with ``Links/refuse`` (`O_NOFOLLOW`: the last component must not be a link), so a
/// file swapped for a link after the folder was checked is refused, not followed out.
package enum RegularFile {
    /// Whether the last component of the path may be a symbolic link.
    package enum Links: Sendable {
        /// Follow it (a path given on the command line).
        case follow
        /// Refuse it (`O_NOFOLLOW`: a file served out of a folder).
        case refuse
    }

    /// Why a file was not read.
    package enum Failure: Error, Equatable {
        /// Nothing at the path (or a part of it is not a folder).
        case missing
        /// Not a regular file: what it is instead ("a FIFO", "a folder", "a device",
        /// "a socket", "a symbolic link").
        case notRegular(String)
        /// Longer than the bound: its size in bytes, or nil when it grew past the bound
        /// while being read.
        case tooLarge(Int?)
        /// Another error from the system (no permission, an I/O error): its `errno`.
        case unreadable(Int32)

        /// The reason as the one-line errors say it after the path ("not a regular file
        /// (a FIFO)", "no such file").
        package var reason: String {
            switch self {
            case .missing: "no such file"
            case let .notRegular(kind): "not a regular file (\(kind))"
            case let .tooLarge(bytes): bytes.map { "too large (\($0) bytes)" } ?? "too large"
            case let .unreadable(code): String(cString: strerror(code))
            }
        }
    }

    /// The bytes of the regular file at `path`, at most `maxBytes` of them.
    package static func read(path: String, maxBytes: Int, links: Links = .follow) throws(Failure) -> [UInt8] {
        let descriptor = try open(path, links: links)
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(errno) }
        if let kind = kind(of: info.st_mode) { throw .notRegular(kind) }
        if Int(info.st_size) > maxBytes { throw .tooLarge(Int(info.st_size)) }
        // Room for the size fstat gave and one byte past it (a file that grew); more only
        // as it keeps growing, never past maxBytes + 1.
        var bytes = [UInt8](repeating: 0, count: min(max(Int(info.st_size), 0), maxBytes) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                if count > maxBytes { break }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, maxBytes + 1 - bytes.count)))
            }
            let got = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { throw .unreadable(errno) }
            if got == 0 { break }
            count += got
        }
        if count > maxBytes { throw .tooLarge(nil) }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// The descriptor of `path`, opened for reading without waiting.
    private static func open(_ path: String, links: Links) throws(Failure) -> Int32 {
        var flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
        if links == .refuse { flags |= O_NOFOLLOW }
        while true {
            let descriptor = systemOpen(path, flags)
            if descriptor >= 0 { return descriptor }
            switch errno {
            case EINTR: continue
            case ENOENT, ENOTDIR: throw .missing
            case ELOOP where links == .refuse: throw .notRegular("a symbolic link")
            case ENXIO: throw .notRegular("a socket, or a device that is not there")
            case let code: throw .unreadable(code)
            }
        }
    }

    /// Nil for a regular file, else what the mode says the file is.
    private static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a folder"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "an unknown kind of file"
        }
    }
}

// The enum's own `open` and `read` hide the C functions inside it.
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
