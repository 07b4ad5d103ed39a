import CardLua
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
        Console.out((playground.lan?.url(host: "127.0.0.1") ?? "http://127.0.0.1:\(server.port)/") + "\n")
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
