import CardServe
import Foundation

/// The page's HTTP routes: which requests the server's loop thread answers itself, which
/// go to the engine's thread and which newer one may replace while waiting, and which
/// handler answers each path.
extension Playground {
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
            let fields = Self.fields(request.body)
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
    /// outside its min…max); `GET /scripts` and `POST /script` the folder's picker;
    /// `GET /export` the Swift of `cardlua export` for the values in use. Anything else
    /// is 404; the only files served are `--cards` images, by number (``lanAndCards(_:)``,
    /// which answers first: with `--lan`, 403 without the token, and the paths here are
    /// what follows `/t/TOKEN`).
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        let post = request.method == "POST"
        switch (request.path, post) {
        case ("/", false):
            return .html(PlayPage.html)
        case ("/events", false):
            return .eventStream(initial: Array("retry: 500\n\n".utf8))
        case ("/state", false):
            reloadIfChanged(at: session.state.time)
            return answerNow()
        case ("/frames", true):  // POST: it moves the engine's frames on (Origin-checked)
            guard let now = Self.pageTime(request.queryValue("now")), let until = Self.pageTime(request.queryValue("until")) else {
                return .status(400, message: "expected POST /frames?now=T&until=T with times in seconds")
            }
            return .json(framesAnswer(now: now, until: until))
        case ("/input", true):
            return input(request.body)
        case ("/reload", true):
            return reload(request.body)
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

    /// A request's body as a JSON object; nil when it is not one.
    static func fields(_ body: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }

    /// A time from the page (seconds on its clock): finite, not negative, and not absurdly
    /// far (frame indices stay small); nil otherwise.
    static func pageTime(_ x: Double?) -> Double? {
        guard let x, x.isFinite, x >= 0, x <= 1e7 else { return nil }
        return x
    }

    /// A time from the page written in a query (`?now=T`), as ``pageTime(_:)-(Double?)``.
    static func pageTime(_ text: String?) -> Double? {
        pageTime(text.flatMap { Double($0) })
    }
}
