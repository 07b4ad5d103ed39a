import CardExport
import CardLayout
import CardLua
import CardRender
import CardServe
import Foundation

/// `cardlua play SCRIPT [--port N] [--viewport WxH] [--items N] [limits]`: the live
/// playground. Serves one page on 127.0.0.1; the page sends input (touch, drag, release,
/// wheel, keys, resize) and the engine (``InteractiveScrollView`` around the script's
/// ``LuaEffect``) answers with frames, exactly as `run` computes them. Saving the script
/// reloads the effect in the open page; Ctrl-C ends with status 0 and frees the port.
///
/// Threads: the server's loop thread answers the page and the event stream itself and
/// hands every request that needs the engine to the engine's own thread
/// (``PlayEngineQueue``: one frame in flight, newer input replacing queued input), so a
/// slow script never makes the server deaf; the main thread only watches the file and,
/// on a save, raises a flag and pushes a `changed` event to the page, whose next request
/// (the page sends one at once) makes the engine reload.
enum PlayCommand {
    /// The port used without `--port` (documented in the help and the README).
    static let defaultPort: UInt16 = 8417

    static func main(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments(words, command: "play")
        if CardLuaCommand.printedHelp(arguments, command: "play") { return 0 }
        let options = try PlayOptions(arguments)
        let playground = try Playground(options: options)
        let engine = PlayEngineQueue()
        let server: LoopbackServer
        do {
            server = try LoopbackServer(configuration: LoopbackServer.Configuration(port: options.port)) { request, reply in
                playground.route(request, engine: engine, reply: reply)
            }
        } catch let failure as LoopbackServer.Failure {
            throw CommandFailure("cardlua play: \(failure.message)"
                                 + (options.port != 0 ? " (try --port 0 for any free port)" : ""))
        }
        let lanServer = try PlayLANServer.start(options, port: server.port, playground: playground, engine: engine)
        let interrupt = InterruptFlag.install()
        server.start()
        Console.out("http://127.0.0.1:\(server.port)/" + (playground.lan.map { "?token=\($0.token)" } ?? "") + "\n")
        if let lan = playground.lan { Console.out(lan.banner(color: Console.wantsColor)) }
        Console.error("playing \(Echo.safe(options.scriptPath))"
                      + (options.folder.map { " (the page picks the others of \(Echo.safe($0)))" } ?? "")
                      + " — save it to reload the page's effect, Ctrl-C to stop")
        // The watcher follows the script in use (a folder's picker switches it).
        var watched = playground.currentScriptPath
        var watcher = FileWatcher(path: watched)
        watcher.interval = 0.04
        while !interrupt.isRaised {
            guard let event = watcher.next(shouldStop: { interrupt.isRaised || playground.currentScriptPath != watched }) else {
                watched = playground.currentScriptPath
                watcher = FileWatcher(path: watched)
                watcher.interval = 0.04
                // Saved after the pick read it and before this watcher started: a change.
                if watched == playground.currentScriptPath, watcher.current != playground.pickedScriptStamp {
                    playground.markChanged()
                    server.broadcast(event: "changed", data: "1")
                }
                continue
            }
            guard event == .changed else { continue }
            playground.markChanged()
            server.broadcast(event: "changed", data: "1")
            lanServer?.broadcast(event: "changed", data: "1")
        }
        // The loop never waits for the engine, so this is quick even mid-frame; a frame
        // being computed is abandoned with the process.
        server.stop()
        lanServer?.stop()
        engine.stop()
        Console.error("\nstopped playing \(Echo.safe(options.folder ?? options.scriptPath))")
        return 0
    }
}

/// What `cardlua play` is asked to do.
struct PlayOptions {
    /// The script to start with: the one given, or a folder's first (``PlayFolder``).
    var scriptPath: String
    /// `cardlua play FOLDER`: the folder whose scripts the page's picker offers.
    var folder: String?
    var port = PlayCommand.defaultPort
    var viewportSize = Scenario.defaultViewportSize
    var numberOfItems: [Int]?
    var rightToLeft = false
    var limits = ScriptLimits()
    /// `--param NAME=X`: the tweakables' values at the start (the sliders move them).
    var params: [ParamOption] = []
    /// `--cards DIR` (or a `cards` folder beside the script): served at `/cards/N`.
    var cards: CardsFolder?
    /// `--lan` (and the tests' `--lan-address`): LANAccess.swift.
    var lan = false
    var lanAddress: String?

    init(_ arguments: Arguments) throws(UsageError) {
        let command = "play"
        guard let script = arguments.positional.first else {
            throw UsageError("missing the script to play (cardlua play SCRIPT)", command: command)
        }
        if arguments.positional.count > 1 {
            throw UsageError("unexpected argument '\(Echo.safe(arguments.positional[1]))' (one script at a time)", command: command)
        }
        scriptPath = script
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: script, isDirectory: &isFolder), isFolder.boolValue {
            guard let first = PlayFolder(path: script).scripts().first else {
                throw UsageError("no .lua scripts in the folder '\(Echo.safe(script))'", command: command)
            }
            folder = script
            scriptPath = PlayFolder(path: script).path(of: first)
        }
        let v = arguments.values
        if let text = v["port"] {
            guard let n = UInt16(text) else {
                throw UsageError("--port: expected a port number from 0 to 65535 (got '\(Echo.safe(text))')", command: command)
            }
            port = n
        }
        if let text = v["viewport"] { viewportSize = try RunOptions.parseViewport(text, command: command) }
        if let text = v["items"] { numberOfItems = try RunOptions.parseItems(text, command: command) }
        rightToLeft = arguments.flags.contains("rtl")
        limits = try RunOptions.limits(v, command: command)
        // A live session has no whole-run limit (run's --max-run-time): it lasts as long
        // as the page is open; the per-call limits apply to every answer.
        limits.maxRunTime = 0
        params = try ParamOption.parse(arguments, command: command)
        cards = try CardsFolder.chosen(v["cards"], scriptPath: script, command: command)
        (lan, lanAddress) = try PlayLANServer.options(arguments, command: command)
    }
}

/// The engine behind the page. ``route(_:engine:reply:)`` runs on the server's loop
/// thread; ``handle(_:)`` and everything it calls on the engine's thread (or a test's),
/// one request at a time; ``markChanged()`` on any thread.
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
    private var error: String? { loadError ?? frameError }
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

    init(options: PlayOptions) throws {
        self.options = options
        scriptPath = options.scriptPath
        var limits = options.limits
        limits.maxRunTime = 0
        self.limits = limits
        do {
            effect = try LuaEffect(path: scriptPath, limits: limits)
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
    /// itself happens on the loop thread.
    func markChanged() {
        changeLock.lock()
        changed = true
        changeLock.unlock()
    }

    private func takeChanged() -> Bool {
        changeLock.lock()
        defer { changeLock.unlock() }
        let was = changed
        changed = false
        return was
    }

    // MARK: Routes

    /// On the server's loop thread: the page and the event stream are answered at once;
    /// everything else goes to the engine's thread and is answered from there (nil).
    func route(_ request: HTTPRequest, engine: PlayEngineQueue, reply: HTTPReply) -> HTTPResponse? {
        if let answer = lanAndCards(request) { return answer }
        switch (request.path, request.method) {
        case ("/", "GET"), ("/", "HEAD"): return lan?.remembering(.html(PlayPage.html), for: request) ?? .html(PlayPage.html)
        case ("/events", "GET"): return .eventStream(initial: Array("retry: 500\n\n".utf8))
        default: break
        }
        engine.submit(key: Self.replaceKey(request), work: { self.handle(request) }, done: { reply.send($0) })
        return nil
    }

    /// Requests a newer one may replace while they wait (``PlayEngineQueue``): a finger
    /// position, a request for more frames, a value of one slider.
    static func replaceKey(_ request: HTTPRequest) -> String? {
        guard request.method == "POST" else { return nil }
        switch request.path {
        case "/frames": return "frames"
        case "/input", "/params":
            let fields = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any]
            if request.path == "/input" { return fields?["type"] as? String == "move" ? "move" : nil }
            return (fields?["name"] as? String).map { "params:" + $0 }
        default: return nil
        }
    }

    /// The routes (the server has already checked Host, method and, for POST, Origin):
    /// `GET /` the page; `GET /events` the event stream (`changed` on a save);
    /// `GET /state` the state and the frame at the latest event; `POST /input` one input
    /// (`{"type": "down"|"move"|"up"|"wheel"|"step"|"resize", "t", "x", "y"}`, page-clock
    /// seconds, finger translation or velocity, wheel delta, ±1, or a size) answered with
    /// the state and its frames; `POST /frames?now=T&until=T` more frames of a motion;
    /// `POST /reload` reloads a saved script at the page's `t`; `POST /record` the
    /// recorded scenario as Lua; `POST /params` (`{"t", "name", "value"}`, a slider)
    /// runs the script again in a fresh state with that tweakable set, keeping the
    /// position (400 with the reason for a name the script does not declare or a value
    /// outside its min…max); `GET /export` the Swift of `cardlua export` for the values in
    /// use. Anything else is 404; the only files served are `--cards` images, by number
    /// (``lanAndCards(_:)``, which answers first: with `--lan`, 403 without the token).
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        let post = request.method == "POST"
        switch (request.path, post) {
        case ("/", false):
            return .html(PlayPage.html)
        case ("/events", false):
            return .eventStream(initial: Array("retry: 500\n\n".utf8))
        case ("/state", false):
            reloadIfChanged(at: session.state.time)
            return .json(answer(frames: [frameNow()].compactMap { $0 }))
        case ("/frames", true):  // POST: it moves the engine's frames on (Origin-checked)
            guard let now = number(request.queryValue("now")), let until = number(request.queryValue("until")) else {
                return .status(400, message: "expected POST /frames?now=T&until=T with times in seconds")
            }
            return .json(framesAnswer(now: now, until: until))
        case ("/input", true):
            return input(request.body)
        case ("/reload", true):
            // At the page's present (`{"t": …}`), so a motion in progress stops where it shows.
            let fields = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any]
            let t = number((fields?["t"] as? Double).map { String($0) }) ?? session.state.time
            reloadIfChanged(at: t)
            try? session.skipFrames(until: t)
            return .json(answer(frames: [frameNow()].compactMap { $0 }))
        case ("/params", true):
            return setParam(request.body)
        case ("/scripts", false):
            return scriptsAnswer()
        case ("/script", true):
            return pickScript(request.body)
        case ("/export", false):
            return export()
        case ("/record", true):
            return record(request.body)
        case ("/", true), ("/events", true), ("/state", true):
            return .status(405, message: "use GET")
        case ("/export", true), ("/scripts", true):
            return .status(405, message: "use GET")
        case ("/script", false):
            return .status(405, message: "use POST")
        case ("/input", false), ("/frames", false), ("/reload", false), ("/record", false), ("/params", false):
            return .status(405, message: "use POST")
        default:
            return .status(404)
        }
    }

    /// `GET /export`: the Swift `cardlua export` writes for the effect in use, with the
    /// values its sliders have now baked in: `{"swift": …, "className": …}`, or
    /// `{"error": "file:line: export: …"}` for a script the translator does not take.
    private func export() -> HTTPResponse {
        var values: [String: Double] = [:], switches: [String: Bool] = [:], choices: [String: String] = [:]
        for p in effect.params {
            switch p.value {
            case let .number(x): values[p.name] = x
            case let .boolean(b): switches[p.name] = b
            case let .option(text): if p.value != p.defaultValue { choices[p.name] = text }
            }
        }
        let name = Exporter.className(forFileName: scriptPath)
        let j = Self.jsonString
        do {
            let swift = try Exporter.export(source: goodSource, fileName: scriptPath, className: name, params: values,
                                            switches: switches, choices: choices)
            return .json("{\"swift\":\(j(swift)),\"className\":\(j(name))}")
        } catch {
            return .json("{\"error\":\(j(error.description))}")
        }
    }

    /// `POST /record`: `{"t", "action": "start"}` starts recording at the page's `t`;
    /// `{"t", "action": "stop"}` (or no action) answers `{"lua": …}`, what happened since
    /// the start (since the page opened or the script was saved without one) as a
    /// `scenarios` block, rounded (0.001 s, 0.01 pt, 0.001 pt/ms).
    private func record(_ body: [UInt8]) -> HTTPResponse {
        let fields = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        let t = (fields?["t"] as? Double).flatMap { $0.isFinite && $0 >= 0 && $0 <= 1e7 ? $0 : nil }
            ?? session.state.time
        if fields?["action"] as? String == "start" {
            do {
                try session.skipFrames(until: t)
                try session.startRecording(at: t)
            } catch {
                return .status(400, message: String(describing: error))
            }
            return .json(answer(frames: [frameNow()].compactMap { $0 }))
        }
        var block = ScenarioLuaFormatter.scenariosBlock([Self.rounded(session.recordedScenario(named: "recorded"))])
        let set = effect.params.filter { $0.value != $0.defaultValue }
        if !set.isEmpty {  // the replay needs the same values
            block = "-- recorded with " + set.map { "--param \($0.name)=\($0.value)" }
                .joined(separator: " ") + "\n" + block
        }
        return .json("{\"lua\":\(Self.jsonString(block))}")
    }

    /// A recording as a person reads it: seconds to 0.001, points to 0.01, velocities to
    /// 0.001 pt/ms (the page sends drags and velocities on that grid already, so the
    /// replay makes the same releases); waits that round to nothing dropped.
    static func rounded(_ scenario: Scenario) -> Scenario {
        func r(_ x: Double, _ places: Double) -> Double {
            let k = pow(10, places)
            let y = (x * k).rounded() / k
            return y == 0 ? 0 : y  // no -0
        }
        var copy = scenario
        copy.steps = scenario.steps.compactMap { step -> ScenarioStep? in
            switch step {
            case let .jump(offset): return .jump(offset: r(offset, 2))
            case let .drag(distance, seconds, velocity):
                return .drag(by: r(distance, 2), duration: r(seconds, 3), velocity: velocity.map { r($0, 3) })
            case let .fling(velocity): return .fling(velocity: r(velocity, 3))
            case let .wait(seconds): return r(seconds, 3) > 0 ? .wait(duration: r(seconds, 3)) : nil
            case let .scrollToItem(indexPath, seconds): return .scrollToItem(indexPath, duration: r(seconds, 3))
            case let .autoplay(interval, seconds): return .autoplay(interval: r(interval, 3), duration: r(seconds, 3))
            case .resize: return step
            }
        }
        return copy
    }

    /// A time from the page: finite, not negative, and not absurdly far (frame indices stay small).
    private func number(_ text: String?) -> Double? {
        guard let text, let x = Double(text), x.isFinite, x >= 0, x <= 1e7 else { return nil }
        return x
    }

    private func input(_ body: [UInt8]) -> HTTPResponse {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)),
              let fields = object as? [String: Any], let type = fields["type"] as? String else {
            return .status(400, message: "expected a JSON object with a \"type\"")
        }
        func value(_ key: String) -> Double? {
            guard let x = fields[key] as? Double else { return nil }
            return x.isFinite && abs(x) <= 1e7 ? x : nil
        }
        guard let t = value("t"), t >= 0 else { return .status(400, message: "\"t\": expected seconds from 0 to 1e7") }
        reloadIfChanged(at: t)
        let x = value("x") ?? 0, y = value("y") ?? 0
        do {
            var ahead = false
            switch type {
            case "down":
                try session.touchDown(at: t)
            case "move":
                try session.drag(to: Point(x: x, y: y), at: t)
            case "up":
                try session.release(velocity: Point(x: x, y: y), at: t)
                ahead = true
            case "wheel":
                try session.scroll(byWheel: Point(x: x, y: y), at: t)
            case "step":
                let state = session.state(at: t)
                let current = state.centredItem ?? CardIndexPath(item: 0, section: 0)
                let count = session.numberOfItems.indices.contains(current.section)
                    ? session.numberOfItems[current.section] : 0
                guard count > 0 else { break }
                // Right to left the next item is on the left: ← moves forward.
                let mirrored = session.layoutDirection == .rightToLeft
                    && session.configuration.flipsHorizontallyInOppositeLayoutDirection
                    && session.configuration.scrollDirection == .horizontal
                let forward = (x < 0) == mirrored
                let item = min(max(current.item + (forward ? 1 : -1), 0), count - 1)
                try session.scrollToItem(CardIndexPath(item: item, section: current.section), at: t)
                ahead = true
            case "resize":
                guard x > 0, y > 0 else { return .status(400, message: "resize: expected positive x and y") }
                try session.resize(to: Size(width: x, height: y), at: t)
                ahead = true
            default:
                return .status(400, message: "unknown input type '\(type)'")
            }
            // The page shows the present: frames before it are not wanted any more.
            try session.skipFrames(until: t)
            var frames = [try makeFrameNow()]
            if ahead { frames += try session.frames(until: t + lookahead) }
            frameError = nil
            return .json(answer(frames: frames))
        } catch let failure as InteractiveScrollView.InputError {
            return .status(400, message: failure.description)
        } catch {
            failed(error)
            return .json(answer(frames: []))
        }
    }

    private func framesAnswer(now: Double, until: Double) -> String {
        do {
            try session.skipFrames(until: max(0, now - 1.5 / session.framesPerSecond))
            let frames = try session.frames(until: min(until, now + maxAhead))
            frameError = nil
            return answer(frames: frames)
        } catch {
            failed(error)
            return answer(frames: [])
        }
    }

    /// Reloads the script if it was saved since the last request: a good load replaces
    /// the effect (the scroll position is kept), a broken one leaves the last good effect
    /// and shows its error.
    private func reloadIfChanged(at time: Double) {
        guard takeChanged() else { return }
        do {
            let fresh = try LuaEffect(path: scriptPath, limits: limits)
            keepOverrides(in: fresh)
            try session.reload(effect: fresh, at: max(time, session.state.time))
            effect = fresh
            goodSource = fresh.source
            version += 1
            loadError = nil
            frameError = nil
            noteWarnings()
        } catch {
            loadError = Self.message(of: error)
        }
    }

    /// Why the viewport shows several rows of a horizontal carousel (or columns of a
    /// vertical one) — a tall preset does that, as UIKit's flow does — and what keeps one.
    private func layoutNote() -> String? {
        let layout = session.layout
        let lines = ScriptChecker.linesAcross(layout)
        guard lines > 1 else { return nil }
        return ScriptChecker.severalLinesNote(lines: lines, viewport: layout.viewportSize,
                                              configuration: layout.configuration)
    }

    /// The warnings of the script just loaded: kept for the page, printed when new.
    func noteWarnings() {
        let found = ScriptChecker.warnings(after: effect, path: scriptPath)
            .map { $0.formatted(file: scriptPath) }
        for warning in found where !warnings.contains(warning) { Console.error(warning) }
        warnings = found
    }

    /// An error while making frames: shown; after a limit (which discards the Lua state)
    /// the last good script starts again in a fresh state at the same position.
    private func failed(_ error: any Error) {
        frameError = Self.message(of: error)
        guard let script = error as? ScriptError, script.kind == .limit else { return }
        if let fresh = try? LuaEffect(source: goodSource, chunkName: scriptPath, limits: limits),
           (try? fresh.setParams(overrides)) != nil,
           (try? session.reload(effect: fresh, at: session.state.time)) != nil {
            effect = fresh
        }
    }

    /// Sets the saved script's overrides in `fresh`, keeping those it still declares
    /// with the same kind (a number clamped to its min…max, an option still listed): a
    /// save never fails because of a control.
    private func keepOverrides(in fresh: LuaEffect) {
        let kept: [(name: String, value: ParamSetting)] = overrides.compactMap { set in
            guard let param = fresh.params.first(where: { $0.name == set.name }) else { return nil }
            switch (param.kind, set.value) {
            case let (.number, .number(x)): return (set.name, .number(min(max(x, param.minimum), param.maximum)))
            case (.boolean, .boolean): return set
            case let (.options(options), .option(text)): return options.contains(text) ? set : nil
            default: return nil
            }
        }
        if (try? fresh.setParams(kept)) != nil { overrides = kept }
    }

    /// `POST /params`: a control moved. The script in use runs again, in a fresh state,
    /// with the new value (a number, true / false, or an option's string, as the param's
    /// kind takes it); the scroll position is kept (as on a save).
    private func setParam(_ body: [UInt8]) -> HTTPResponse {
        guard let fields = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
              let name = fields["name"] as? String else {
            return .status(400, message: "expected a JSON object with a \"name\" and a \"value\"")
        }
        let value: ParamSetting
        switch (effect.params.first { $0.name == name }?.kind, fields["value"]) {
        case let (.boolean?, flag as Bool): value = .boolean(flag)
        case let (.options?, text as String): value = .option(text)
        case let (.number?, x as Double), let (nil, x as Double): value = .number(x)
        case (.boolean?, _): return .status(400, message: "params.\(name) is on/off: expected true or false as the value")
        case (.options?, _): return .status(400, message: "params.\(name): expected one of its options (a string) as the value")
        default: return .status(400, message: "params.\(name): expected a finite number as the value")
        }
        var next = overrides.filter { $0.name != name }
        next.append((name, value))
        do {
            try LuaEffect.checkParams([(name, value)], against: effect.params)
        } catch {
            return .status(400, message: error.text)
        }
        let t = (fields["t"] as? Double).flatMap { $0.isFinite && $0 >= 0 && $0 <= 1e7 ? $0 : nil } ?? session.state.time
        do {
            let fresh = try LuaEffect(source: goodSource, chunkName: scriptPath, limits: limits)
            try fresh.setParams(next)
            try session.reload(effect: fresh, at: max(t, session.state.time))
            try session.skipFrames(until: t)
            effect = fresh
            overrides = next
            frameError = nil
        } catch let refused as ParamOverrideError {
            return .status(400, message: refused.text)
        } catch {
            failed(error)
        }
        return .json(answer(frames: [frameNow()].compactMap { $0 }))
    }

    /// The frame at the latest event, made now (the engine's own frames start after it),
    /// as every frame is made. Nil (and the error kept) when the script fails.
    func frameNow() -> Frame? {
        do {
            return try makeFrameNow()
        } catch {
            failed(error)
            return nil
        }
    }

    /// The session's own frame at the latest event: the same frame path as `run`'s (the
    /// script's element query, the per-frame caps, `transform`), never a shortcut of its own.
    private func makeFrameNow() throws -> Frame {
        try session.frameAtLatestEvent()
    }

    static func message(of error: any Error) -> String {
        if let script = error as? ScriptError { return script.message }
        return String(describing: error)
    }

    // MARK: JSON

    /// `{"state": {…}, "frames": [frame, …]}` where a frame is
    /// `{"t", "o": [x, y], "p", "v": [w, h], "c": [[section, item, left, top, width, height,
    /// m11 … m44, alpha, zIndex, flags, appearance?], …], "s"?: [[kind, section, left, top,
    /// width, height], …]}` (left/top relative to the viewport; flags, the appearance —
    /// only when set — and the headers and footers — only when there are any — as in
    /// the static page's data, `HTMLRenderer.timelineJSON`).
    func answer(frames: [Frame]) -> String {
        let s = session.state
        var out = "{\"state\":{\"time\":\(n(s.time)),\"contentOffset\":\(point(s.contentOffset))"
        out += ",\"phase\":\"\(s.phase.rawValue)\",\"isTracking\":\(s.isTracking)"
        out += ",\"viewport\":[\(n(s.viewportSize.width)),\(n(s.viewportSize.height))]"
        out += ",\"contentSize\":[\(n(s.contentSize.width)),\(n(s.contentSize.height))]"
        out += ",\"range\":[\(n(s.contentOffsetRange.lowerBound)),\(n(s.contentOffsetRange.upperBound))]"
        out += ",\"centredItem\":" + (s.centredItem.map { "[\($0.section),\($0.item)]" } ?? "null")
        out += ",\"items\":\(session.numberOfItems.reduce(0, +))"
        out += ",\"horizontal\":\(session.configuration.scrollDirection == .horizontal)"
        out += ",\"fps\":\(n(session.framesPerSecond))"
        out += ",\"lastSnap\":"
        if let snap = s.lastSnap {
            out += "{\"time\":\(n(snap.time)),\"proposedContentOffset\":\(point(snap.proposedContentOffset))"
            out += ",\"velocity\":\(point(snap.velocity)),\"targetContentOffset\":\(point(snap.targetContentOffset))}"
        } else {
            out += "null"
        }
        out += ",\"params\":[" + effect.params.map(paramJSON).joined(separator: ",") + "]"
        out += ",\"scriptVersion\":\(version),\"script\":\(Self.jsonString((scriptPath as NSString).lastPathComponent))"
        out += ",\"error\":" + (error.map(Self.jsonString) ?? "null")
        out += ",\"warnings\":[" + warnings.map(Self.jsonString).joined(separator: ",") + "]"
        out += ",\"layoutNote\":" + (layoutNote().map(Self.jsonString) ?? "null") + "}"
        out += ",\"frames\":[" + frames.map(frameJSON).joined(separator: ",") + "]}"
        return out
    }

    /// A tweakable in the state, in the script's order: `{"name", "value", "min", "max",
    /// "step", "kind": "number"|"boolean"|"options", "label", "options"?}` (value a number,
    /// true / false, or a string; min, max and step 0, 0 and null for the other kinds;
    /// label null when the script gives none; options only for that kind).
    private func paramJSON(_ p: ScriptParam) -> String {
        let value: String = switch p.value {
        case let .number(x): n(x)
        case let .boolean(b): b ? "true" : "false"
        case let .option(text): Self.jsonString(text)
        }
        var out = "{\"name\":\(Self.jsonString(p.name)),\"value\":\(value),\"min\":\(n(p.minimum)),\"max\":\(n(p.maximum))"
            + ",\"step\":" + (p.step.map(n) ?? "null") + ",\"kind\":\"\(p.kind.name)\""
            + ",\"label\":" + (p.label.map(Self.jsonString) ?? "null")
        if case let .options(options) = p.kind { out += ",\"options\":[" + options.map(Self.jsonString).joined(separator: ",") + "]" }
        return out + "}"
    }

    private func frameJSON(_ f: Frame) -> String {
        var s = "{\"t\":\(n(f.time)),\"o\":[\(n(f.contentOffset.x)),\(n(f.contentOffset.y))],\"p\":\"\(f.phase.rawValue)\""
        s += ",\"v\":[\(n(f.viewportSize.width)),\(n(f.viewportSize.height))],\"c\":["
        var first = true
        for a in f.items {
            let r = a.frame
            if !first { s += "," }
            first = false
            s += "[\(a.indexPath.section),\(a.indexPath.item),\(n(r.minX - f.contentOffset.x)),\(n(r.minY - f.contentOffset.y))"
            s += ",\(n(r.width)),\(n(r.height))"
            for field in a.transform3D.fields { s += "," + n(field) }
            let alpha = a.alpha.isFinite ? min(max(a.alpha, 0), 1) : 1
            // Flags as the static page's: 1 hidden, 2 a corner at or behind the eye, 4 the
            // back toward the eye while not double-sided.
            var flags = a.isHidden ? 1 : 0
            if a.projectedQuad(contentOffset: f.contentOffset) == nil { flags |= 2 }
            if a.isBackFaceHidden { flags |= 4 }
            s += ",\(n(alpha)),\(a.zIndex),\(flags)"
            if let look = a.appearance { s += "," + HTMLRenderer.appearanceJSON(look, size: a.size) }
            s += "]"
        }
        s += "]"
        if !f.supplementary.isEmpty {
            s += ",\"s\":[" + f.supplementary.map { x in
                "[\(x.kind == .footer ? 1 : 0),\(x.section),\(n(x.frame.minX - f.contentOffset.x)),"
                    + "\(n(x.frame.minY - f.contentOffset.y)),\(n(x.frame.width)),\(n(x.frame.height))]"
            }.joined(separator: ",") + "]"
        }
        return s + "}"
    }

    private func point(_ p: Point) -> String { "{\"x\":\(n(p.x)),\"y\":\(n(p.y))}" }

    /// A JSON number; NaN and infinities (which JSON lacks) as 0.
    private func n(_ x: Double) -> String {
        guard x.isFinite else { return "0" }
        if x == x.rounded(), abs(x) < 1e15 { return String(Int(x)) }
        return String(x)
    }

    /// A JSON string literal, safe inside the page's `<script>` too.
    static func jsonString(_ text: String) -> String { JSONRenderer.stringLiteral(text) }
}

/// The page, put together from the embedded files (Play/embed.list).
enum PlayPage {
    static let html = playPageTemplate
        .replacingOccurrences(of: "/*{{style}}*/", with: playStyle + CardPictures.css)
        .replacingOccurrences(of: "//{{script}}", with: playScript)
}
