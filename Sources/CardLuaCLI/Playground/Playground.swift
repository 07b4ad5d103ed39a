import CardExport
import CardLayout
import CardLua
import CardRender
import CardServe
import Foundation

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
    /// Every answer carries ``PlayHeaders``' fields.
    func route(_ received: HTTPRequest, engine: PlayEngineQueue, reply: HTTPReply) -> HTTPResponse? {
        let request: HTTPRequest
        switch lanAndCards(received) {
        case let .admitted(inner): request = inner
        case let .answered(answer): return PlayHeaders.added(to: answer)
        }
        switch (request.path, request.method) {
        case ("/", "GET"), ("/", "HEAD"):
            return PlayHeaders.added(to: .html(PlayPage.html))
        case ("/events", "GET"): return PlayHeaders.added(to: .eventStream(initial: Array("retry: 500\n\n".utf8)))
        default: break
        }
        engine.submit(key: Self.replaceKey(request), work: { self.handle(request) },
                      done: { reply.send(PlayHeaders.added(to: $0)) })
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
    /// (``lanAndCards(_:)``, which answers first: with `--lan`, 403 without the token, and
    /// the paths here are what follows `/t/TOKEN`).
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
            switch request.queryValue("target") {
            case nil, "uikit": return export(target: .uikit)
            case "swiftui": return export(target: .swiftui)
            default: return .status(400, message: "expected GET /export or /export?target=swiftui (or uikit)")
            }
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
    /// `GET /export?target=swiftui`: `cardlua export --swiftui`'s view instead (`className`
    /// is the view's name; errors say `export --swiftui`).
    private func export(target: ExportTarget) -> HTTPResponse {
        var values: [String: Double] = [:], switches: [String: Bool] = [:], choices: [String: String] = [:]
        for p in effect.params {
            switch p.value {
            case let .number(x): values[p.name] = x
            case let .boolean(b): switches[p.name] = b
            case let .option(text): if p.value != p.defaultValue { choices[p.name] = text }
            }
        }
        let name = target == .uikit ? Exporter.className(forFileName: scriptPath) : Exporter.viewName(forFileName: scriptPath)
        let j = Self.jsonString
        do {
            if target == .swiftui {
                try ExportCommand.checkOneCardALine(goodSource, path: scriptPath, params: values.mapValues(ParamSetting.number)
                    .merging(switches.mapValues(ParamSetting.boolean)) { a, _ in a })
            }
            let swift = try Exporter.export(source: goodSource, fileName: scriptPath, className: name, params: values,
                                            switches: switches, choices: choices, target: target)
            return .json("{\"swift\":\(j(swift)),\"className\":\(j(name))}")
        } catch let failure as RunFailure {
            return .json("{\"error\":\(j(failure.message))}")
        } catch {
            return .json("{\"error\":\(j(String(describing: error)))}")
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
        // Any other input ends a run of steps (a touch, the wheel, a resize move the content).
        var stepped: (item: CardIndexPath, until: Double)?
        defer { stepTarget = stepped }
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
                // While the previous step's scroll still runs, the next one goes on from the
                // item it was sent to, not from the item under the centre (still the old one).
                let queued = stepTarget.flatMap { t < $0.until ? $0.item : nil }
                let current = queued ?? session.state(at: t).centredItem ?? CardIndexPath(item: 0, section: 0)
                let count = session.numberOfItems.indices.contains(current.section)
                    ? session.numberOfItems[current.section] : 0
                guard count > 0 else { break }
                // Right to left the next item is on the left: ← moves forward.
                let mirrored = session.layoutDirection == .rightToLeft
                    && session.configuration.flipsHorizontallyInOppositeLayoutDirection
                    && session.configuration.scrollDirection == .horizontal
                let forward = (x < 0) == mirrored
                let item = min(max(current.item + (forward ? 1 : -1), 0), count - 1)
                let target = CardIndexPath(item: item, section: current.section)
                try session.scrollToItem(target, at: t)
                stepped = (target, t + ScrollPhysics.defaultScrollAnimationDuration)
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
            let fresh = try loadEffect(scriptPath)
            keepOverrides(in: fresh)
            try session.reload(effect: fresh, at: max(time, session.state.time))
            stepTarget = nil
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
    /// Also UIKit's size rule at the viewport on screen (a card that does not fit between
    /// the insets).
    private func layoutNote() -> String? {
        let layout = session.layout
        let sizeRule = ScriptChecker.sizeRuleWarnings(layout, insetsFromCallback: effect.definesFunction("insetForSection"))
            .map { "\((scriptPath as NSString).lastPathComponent): warning: \($0.message)" }
        let lines = ScriptChecker.linesAcross(layout)
        guard lines > 1 else { return sizeRule.first }
        return (sizeRule + [ScriptChecker.severalLinesNote(lines: lines, viewport: layout.viewportSize,
                                                           configuration: layout.configuration)]).joined(separator: "\n")
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
            stepTarget = nil
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

    /// A frame as the page gets it: the static page's frame with `"ci"`, the engine's
    /// centred item at its offset (`[section, item]` or null), as `state.centredItem` —
    /// from the flow's item positions, not the frame's cards, which an element query may
    /// all place at the centre.
    private func frameJSON(_ frame: Frame) -> String {
        var json = FrameWire.frame(frame, identity: .indexPath)
        guard json.last == "}" else { return json }
        json.removeLast()
        let centred = session.centredItem(at: frame.contentOffset)
        return json + ",\"ci\":" + (centred.map { "[\($0.section),\($0.item)]" } ?? "null") + "}"
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

    private func point(_ p: Point) -> String { "{\"x\":\(n(p.x)),\"y\":\(n(p.y))}" }

    /// A JSON number, as the frames write theirs.
    private func n(_ x: Double) -> String { FrameWire.number(x) }

    /// A JSON string literal, safe inside the page's `<script>` too.
    static func jsonString(_ text: String) -> String { JSONRenderer.stringLiteral(text) }
}
