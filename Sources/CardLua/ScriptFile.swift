import CLuaShims
import Foundation

/// Reading a script file, bounded: a file over ``maxBytes`` is refused before it is read
/// (its size from `fstat`), and no more than `maxBytes + 1` bytes are ever read (a file
/// that grows); anything but a regular file is refused unread (``RegularFile``). Parsing
/// cannot be interrupted by the budget or the clock, so the bound is what
/// keeps loading short.
package enum ScriptFile {
    /// The longest script, in bytes: 8 MiB (`CARDLUA_SCRIPT_MAX_BYTES`; the C loader
    /// refuses a longer text too). The shipped scripts are a few KiB.
    public static let maxBytes = Int(CARDLUA_SCRIPT_MAX_BYTES)

    /// The text of the script at `path`, as UTF-8; a one-line error naming the path
    /// otherwise (`big.lua: the script is 300 MiB; scripts are limited to 8 MiB`,
    /// `fifo.lua: not a regular file (a FIFO)`). Read through ``RegularFile``: never
    /// waiting on a FIFO or a device; `links` as there (a script on the command line
    /// follows its links, one served out of `play`'s folder does not).
    /// `shownAs` names the file in the errors instead of `path` (a link's path, when
    /// `path` is where it leads).
    package static func read(path: String, links: RegularFile.Links = .follow,
                             shownAs: String? = nil) throws(ScriptError) -> String {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path: path, maxBytes: maxBytes, links: links)
        } catch {
            let path = shownAs ?? path
            switch error {
            case let .tooLarge(size): throw tooLong(path: path, bytes: size)
            case .missing, .notRegular: throw ScriptError(kind: .unreadable, message: "\(path): \(error.reason)")
            case .unreadable: throw unreadable(path)
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw unreadable(shownAs ?? path) }
        return text
    }

    private static func unreadable(_ path: String) -> ScriptError {
        ScriptError(kind: .unreadable, message: "\(path): cannot read the script (not UTF-8 text, or no permission)")
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
