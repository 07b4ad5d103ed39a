#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CardLayout
import CardLua
import CardServe
import Foundation

/// `cardlua play FOLDER`: the scripts the page's picker offers — the `.lua` files directly
/// in the folder, in name order — and the check that a picked name is one of them. Only
/// a plain name listed there is ever opened: no path, no hidden file, nothing a symbolic
/// link leads outside the folder.
struct PlayFolder {
    let path: String

    /// The scripts' file names, in name order (read again at each call: a script added
    /// while playing shows up).
    func scripts() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { Self.isPlainName($0) && isScriptInside($0) }.sorted()
    }

    /// The path of a listed script.
    func path(of name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }

    /// `name` if it is one of ``scripts()``, else nil (a path, `..`, a hidden or unknown file).
    func validated(_ name: String) -> String? {
        guard Self.isPlainName(name), scripts().contains(name) else { return nil }
        return name
    }

    /// A file name of a script: `NAME.lua`, no separator, not hidden, short.
    static func isPlainName(_ name: String) -> Bool {
        name.hasSuffix(".lua") && name.count > 4 && name.utf8.count <= 255 && !name.hasPrefix(".")
            && !name.contains("/") && !name.contains("\\") && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// A regular file whose real path (links resolved) is inside the folder's: never a
    /// FIFO, a device, a socket or a folder, which could not be read (a FIFO without a
    /// writer would wait for one).
    private func isScriptInside(_ name: String) -> Bool {
        guard let real = realPathInside(self.path(of: name)) else { return false }
        var info = stat()
        return stat(real, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The real path of `full` (links resolved) when it is directly in the folder, else nil.
    private func realPathInside(_ full: String) -> String? {
        guard let folder = Self.realPath(path), let real = Self.realPath(full),
              (real as NSString).deletingLastPathComponent == folder else { return nil }
        return real
    }

    /// `realpath(3)`: the path with every link resolved; nil when it leads nowhere.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The text of the folder's script at `full` (``path(of:)``), checked again as it is
    /// read: a link is resolved to the file it leads to, which must still be directly in
    /// the folder, and that file is opened with `O_NOFOLLOW` (``RegularFile/Links/refuse``),
    /// so a file swapped for a link, a FIFO or a device since the check is refused at
    /// once. Errors name `full`, as a broken save's do.
    func source(of full: String) throws(ScriptError) -> String {
        guard let real = realPathInside(full) else {
            var info = stat()
            let reason = lstat(full, &info) == 0 ? "not a script of the folder (a link leading out of it)" : "no such file"
            throw ScriptError(kind: .unreadable, message: "\(full): \(reason)")
        }
        return try ScriptFile.read(path: real, links: .refuse, shownAs: full)
    }
}

extension Playground {
    /// What ``scriptsAnswer()`` answers: the picker's choices.
    struct ScriptsAnswer: Codable, Equatable {
        /// The folder's name; null when `play` was given one script.
        var folder: String?
        /// Its scripts' file names, in name order (none without a folder).
        var scripts: [String]
        /// The file name of the script in use.
        var current: String

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(folder, forKey: .folder)  // null, not left out
            try c.encode(scripts, forKey: .scripts)
            try c.encode(current, forKey: .current)
        }
    }

    /// `GET /scripts`: `{"folder": name or null, "scripts": [file names], "current": file name}`
    /// — the picker's choices (none when `play` was given one script).
    func scriptsAnswer() -> HTTPResponse {
        let current = (scriptPath as NSString).lastPathComponent
        guard let folder = options.folder else {
            return .json(PlayJSON.text(ScriptsAnswer(folder: nil, scripts: [], current: current)))
        }
        let names = PlayFolder(path: folder).scripts()
        return .json(PlayJSON.text(ScriptsAnswer(folder: (folder as NSString).lastPathComponent, scripts: names,
                                                 current: current)))
    }

    /// `POST /script` (`{"t", "name": "NAME.lua"}`): plays another script of the folder at
    /// the page's `t`, keeping the item count and the viewport, and centring the item that
    /// was centred where the new layout has it, and no last release (the old effect's). The
    /// name must be one the picker lists (400 otherwise; 404 when `play` was given one
    /// script). A script that does not load is shown as a broken save is: the last effect
    /// goes on and the next save of the picked script loads it (the watcher follows the pick).
    func pickScript(_ body: [UInt8]) -> HTTPResponse {
        guard let folder = options.folder else { return .status(404, message: "play was given one script, not a folder") }
        guard let fields = Self.fields(body), let name = fields["name"] as? String else {
            return .status(400, message: "expected a JSON object with a \"name\"")
        }
        let place = PlayFolder(path: folder)
        guard let picked = place.validated(name) else {
            return .status(400, message: "'\(Echo.safe(name))' is not a script of the folder (pick one of /scripts)")
        }
        let t = Self.pageTime(fields["t"] as? Double) ?? session.state.time
        let centred = session.state(at: max(t, session.state.time)).centredItem
        let path = place.path(of: picked)
        setScriptPath(path)
        Console.error("playing \(Echo.safe(path))")
        do {
            let fresh = try loadEffect(path)
            try session.reload(effect: fresh, at: max(t, session.state.time))
            // The last release was the old effect's: the new one's panel starts without one.
            session.forgetLastRelease()
            stepTarget = nil
            effect = fresh
            goodSource = fresh.source
            overrides = []
            version += 1
            loadError = nil
            frameError = nil
            warnings = []
            noteWarnings()
            if let centred, session.layout.layoutAttributesForItem(at: centred) != nil {
                try? session.scrollToItem(centred, animated: 0, at: max(t, session.state.time))
            }
            try? session.skipFrames(until: t)
        } catch {
            loadError = Self.message(of: error)
        }
        return answerNow()
    }
}
