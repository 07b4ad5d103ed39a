import CardLayout
import CardLua
import Foundation

/// The engine behind the page: the session (``InteractiveScrollView`` around the
/// script's ``LuaEffect``) and what the page has set in it. ``route(_:engine:reply:)``
/// runs on the server's loop thread; ``handle(_:)`` and everything it calls on the
/// engine's thread (or a test's), one request at a time; ``markChanged()`` on any thread.
///
/// By concern: the routes (Playground+Routes.swift), what comes before them
/// (Playground+Access.swift: `--lan`, `--cards`), the page's input and frames
/// (Playground+Input.swift), a save's reload and the restart after a limit
/// (Playground+Reload.swift), the sliders (Playground+Params.swift), Export Swift
/// (Playground+Export.swift), Record (Playground+Record.swift), the folder's picker
/// (PlayPicker.swift) and the state every answer carries (Playground+Answer.swift,
/// PlayState.swift).
final class Playground: @unchecked Sendable {
    let options: PlayOptions
    /// The script in use: the one given, or the one picked from the folder (the engine's
    /// thread writes it; the main thread's watcher reads ``currentScriptPath``).
    private(set) var scriptPath: String
    private var pickedStamp: FileStamp?
    private let pathLock = NSLock()
    /// The script's limits in a live session: the per-call ones only. A whole-run limit
    /// is `run`'s (a run ends); a session lasts as long as the page is open.
    let limits: ScriptLimits
    var effect: LuaEffect
    var session: InteractiveScrollView
    /// Good loads of the script so far (1 after the start).
    var version = 1
    /// The latest broken save's error; nil once a save loads.
    var loadError: String?
    /// The latest error while making frames (or releasing); nil once frames come again.
    var frameError: String?
    /// What the page shows over the stage.
    var error: String? { loadError ?? frameError }
    /// What `check` would warn about in the script in use (a misspelt callback or field,
    /// a dropped transform): in the page under the stage, and on standard error once per
    /// load.
    var warnings: [String] = []
    /// The source of the effect in use, to start it again after a limit (a limit
    /// discards the Lua state).
    var goodSource: String
    /// Seconds of frames an input's answer carries ahead of its time. Short: frames made
    /// ahead are lost when a new input comes before their time (the engine moves on from
    /// the last frame made), which shows as a hitch of at most this long.
    let lookahead = 0.12
    /// Frames are never asked for further than this past the page's present.
    let maxAhead = 1.0
    private let changeLock = NSLock()
    private var changed = false
    /// The tweakables' values set from outside (`--param`, the page's sliders): set in
    /// every fresh effect (a save, a slider, a restart after a limit).
    var overrides: [(name: String, value: ParamSetting)] = []
    /// With `--lan`: the token every request must carry (set before the servers start).
    var lan: LANAccess?
    /// The item the latest ← / → step scrolls to, and when that scroll ends: a step made
    /// before then goes on from this item. Any other input, a reload, a pick or a slider
    /// forgets it.
    var stepTarget: (item: CardIndexPath, until: Double)?

    init(options: PlayOptions) throws {
        self.options = options
        scriptPath = options.scriptPath
        var limits = options.limits
        limits.maxRunTime = 0
        self.limits = limits
        do {
            effect = try Self.loadEffect(scriptPath, folder: options.folder, limits: limits)
        } catch {
            throw RunFailure(message: RunPipeline.shown(error.message, path: scriptPath), details: error.details)
        }
        do {
            overrides = try LuaEffect.parseParams(options.params.overrides, against: effect.params)
            try effect.setParams(overrides)
        } catch {
            throw RunFailure(message: ParamOption.message(error, in: options.params), details: "", isUsage: true)
        }
        goodSource = effect.source  // the text that loaded (read once, within the load bound)
        session = try InteractiveScrollView(
            effect: effect, viewportSize: options.viewportSize,
            numberOfItems: options.numberOfItems ?? Scenario.defaultNumberOfItems,
            layoutDirection: options.rightToLeft ? .rightToLeft : .leftToRight)
        noteWarnings()
    }

    /// The script at `path` loaded: one of `folder`'s read as the picker serves it
    /// (``PlayFolder/source(of:)``: still in the folder, no link swapped in, a regular
    /// file), a script given alone read as `run` reads it (its links followed). Neither
    /// ever waits on a FIFO or a device: it is a load error, shown as a broken save.
    static func loadEffect(_ path: String, folder: String?, limits: ScriptLimits) throws(ScriptError) -> LuaEffect {
        let source = if let folder { try PlayFolder(path: folder).source(of: path) } else { try ScriptFile.read(path: path) }
        return try LuaEffect(source: source, chunkName: path, limits: limits)
    }

    func loadEffect(_ path: String) throws(ScriptError) -> LuaEffect {
        try Self.loadEffect(path, folder: options.folder, limits: limits)
    }

    /// The script in use, from any thread (the watcher follows it).
    var currentScriptPath: String {
        pathLock.lock()
        defer { pathLock.unlock() }
        return scriptPath
    }

    /// The file's stamp when it was picked, taken before it was read: a watcher that
    /// starts following it later sees a save made in between as a change.
    var pickedScriptStamp: FileStamp? {
        pathLock.lock()
        defer { pathLock.unlock() }
        return pickedStamp
    }

    /// Switches the script in use (the picker's, on the engine's thread), before it is read.
    func setScriptPath(_ path: String) {
        let stamp = FileStamp.of(path)
        pathLock.lock()
        scriptPath = path
        pickedStamp = stamp
        pathLock.unlock()
    }

    /// Called from the watcher's thread: the script was saved. Only a flag; the reload
    /// itself happens on the engine's thread (``reloadIfChanged(at:)``).
    func markChanged() {
        changeLock.lock()
        changed = true
        changeLock.unlock()
    }

    /// Whether the script was saved since the last call.
    func takeChanged() -> Bool {
        changeLock.lock()
        defer { changeLock.unlock() }
        let was = changed
        changed = false
        return was
    }

    /// An error as the page shows it: a script's `file:line: message`, else its description.
    static func message(of error: any Error) -> String {
        if let script = error as? ScriptError { return script.message }
        return String(describing: error)
    }
}
