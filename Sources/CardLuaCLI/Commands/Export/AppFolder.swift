import Foundation

/// Where `cardlua export --app DIR` writes: a folder that appears whole or not at all.
///
/// The files go into a fresh temporary folder beside DIR (`.NAME.cardlua-<random>`, made
/// with `mkdir`, which fails on anything already there), and that folder is renamed to
/// DIR at the end. `rename(2)` replaces only nothing or an empty folder: a folder with
/// anything in it, a file or a link at DIR is never written over (checked before any work,
/// and again, atomically, by the rename). A failure removes the temporary folder.
struct AppFolder {
    /// The folder as it will be named (with `.swiftpm`).
    let path: String

    /// The name Swift Playgrounds opens: `path`, with `.swiftpm` added when missing.
    static func named(_ given: String) -> (path: String, added: Bool) {
        var path = given
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        if path.hasSuffix(".swiftpm") { return (path, false) }
        return (path + ".swiftpm", true)
    }

    /// - Throws: when something other than nothing or an empty folder is at `path`, or
    ///   the folder it goes in does not exist.
    init(path: String) throws(OutputError) {
        self.path = path
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw OutputError(path: path, reason: "exists and is not a folder; choose another name")
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? ["?"]
            guard entries.isEmpty else {
                throw OutputError(path: path, reason: "exists and is not empty; export never writes over a folder: "
                                  + "choose another name, or remove it first")
            }
        } else if errno != ENOENT {
            throw OutputError(path: path, reason: String(cString: strerror(errno)))
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
            throw OutputError(path: path, reason: "no folder '\(Echo.safe(parent))' to put it in")
        }
    }

    /// The folder `path` goes in.
    var parent: String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// Writes `files` (relative paths, `Resources/card-000.png`) and renames the folder to
    /// ``path``; nothing is left behind when it fails.
    func write(_ files: [(path: String, bytes: [UInt8])]) throws(OutputError) {
        let temporary = try makeTemporary()
        do throws(OutputError) {
            for file in files {
                let target = (temporary as NSString).appendingPathComponent(file.path)
                let folder = (target as NSString).deletingLastPathComponent
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    try Data(file.bytes).write(to: URL(fileURLWithPath: target), options: .withoutOverwriting)
                } catch {
                    throw OutputError(path: path, reason: "cannot write \(file.path): \(error.localizedDescription)")
                }
            }
            guard rename(temporary, path) == 0 else {
                let reason = errno == ENOTEMPTY || errno == EEXIST || errno == ENOTDIR || errno == EISDIR
                    ? "appeared while the app was being written; nothing was changed"
                    : String(cString: strerror(errno))
                throw OutputError(path: path, reason: reason)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    /// A new folder beside ``path`` with a name nobody else chose.
    private func makeTemporary() throws(OutputError) -> String {
        let name = (path as NSString).lastPathComponent
        for _ in 0..<100 {
            var random = SystemRandomNumberGenerator()
            let suffix = String(random.next() as UInt64, radix: 16)
            let temporary = (parent as NSString).appendingPathComponent(
                "." + name + ".cardlua-" + String(repeating: "0", count: 16 - suffix.count) + suffix)
            if mkdir(temporary, 0o755) == 0 { return temporary }
            if errno == EEXIST || errno == EINTR { continue }
            throw OutputError(path: path, reason: String(cString: strerror(errno)))
        }
        throw OutputError(path: path, reason: "cannot create a temporary folder beside it")
    }
}
