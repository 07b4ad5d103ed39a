import CLuaShims
import Foundation

/// Reading a script file, bounded: a file over ``maxBytes`` is refused before it is read
/// (its size from `fstat`), and no more than `maxBytes + 1` bytes are ever read (a file
/// that grows, or one without a size, such as a pipe). Parsing cannot be interrupted by
/// the instruction budget or the clock, so the bound is what keeps loading short.
package enum ScriptFile {
    /// The longest script, in bytes: 8 MiB (`CARDLUA_SCRIPT_MAX_BYTES`; the C loader
    /// refuses a longer text too). The shipped scripts are a few KiB.
    public static let maxBytes = Int(CARDLUA_SCRIPT_MAX_BYTES)

    /// The text of the script at `path`, as UTF-8; a one-line error naming the path
    /// otherwise (`big.lua: the script is 300 MiB; scripts are limited to 8 MiB`).
    package static func read(path: String) throws(ScriptError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT || errno == ENOTDIR
                ? "no such file" : "cannot read the script (not UTF-8 text, or no permission)"
            throw ScriptError(kind: .unreadable, message: "\(path): \(reason)")
        }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > maxBytes {
            throw tooLong(path: path, bytes: Int(info.st_size))
        }
        // At most one byte past the bound: enough to tell that it is past.
        let expected = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 64 << 10
        var bytes = [UInt8](repeating: 0, count: min(max(expected, 0), maxBytes) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                if count > maxBytes { break }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, maxBytes + 1 - bytes.count)))
            }
            let got = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 && errno == EINTR { continue }
            if got < 0 {
                throw ScriptError(kind: .unreadable,
                                  message: "\(path): cannot read the script (not UTF-8 text, or no permission)")
            }
            if got == 0 { break }
            count += got
        }
        if count > maxBytes { throw tooLong(path: path, bytes: nil) }
        guard let text = String(validating: bytes[..<count], as: UTF8.self) else {
            throw ScriptError(kind: .unreadable,
                              message: "\(path): cannot read the script (not UTF-8 text, or no permission)")
        }
        return text
    }

    /// The refusal of a script of `bytes` bytes (nil: more than the bound, size unknown)
    /// named `path`.
    package static func tooLong(path: String, bytes: Int?) -> ScriptError {
        let size = bytes.map(describe) ?? "more than \(describe(maxBytes))"
        return ScriptError(kind: .unreadable,
                           message: "\(path): the script is \(size); scripts are limited to \(describe(maxBytes))")
    }

    /// A size as the refusal says it: whole MiB ("300 MiB"), or MiB rounded up to a tenth
    /// ("8.1 MiB": never shown equal to the bound it exceeds); as the C loader says it.
    static func describe(_ bytes: Int) -> String {
        let mib = 1 << 20
        if bytes % mib == 0 { return "\(bytes / mib) MiB" }
        let tenths = bytes / mib * 10 + ((bytes % mib) * 10 + mib - 1) / mib
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}
