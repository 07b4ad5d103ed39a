import CardLayout
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

    static let declaration = CommandDeclaration(
        name: "play", synopsis: "play SCRIPT|FOLDER [opts]",
        summary: "live playground in the browser: drag, flick, edit, record",
        arguments: .one("SCRIPT", missing: "the script to play", extraHint: "one script at a time"),
        options: [
            OptionSpec(.port, value: "N", summary: "port on 127.0.0.1; 0 takes any free one",
                       defaultText: String(defaultPort)),
            OptionTable.viewport,
            OptionSpec(.items, value: "N[,N…]", summary: "items per section, like 20 or 5,8,3",
                       defaultText: Scenario.defaultNumberOfItems.map(String.init).joined(separator: ",")),
            OptionTable.param,
            OptionTable.rightToLeft,
            // The real cards and the phone (LANAccess.swift).
            OptionTable.cards,
            OptionSpec(.lan, summary: "also listen on this machine's LAN address, for a phone: prints a URL with a "
                       + "secret token and its QR code; requests without the token get 403"),
        ] + OptionTable.limits.filter { $0.key != .maxRunTime },  // a live session has no whole-run limit
        hiddenOptions: [OptionSpec(.lanAddress, value: "IPV4", summary: "the address --lan listens on (tests)")],
        help: { options in """
        cardlua play — the live playground: drag and flick the cards in a browser

        USAGE: cardlua play SCRIPT [options]
               cardlua play FOLDER [options]   (a picker of the folder's scripts)

        Prints http://127.0.0.1:PORT/ and serves one page there (127.0.0.1 only) until
        Ctrl-C. The page sends input — mouse or touch drags, flicks, the wheel or trackpad,
        the ← and → keys — and the engine and the script answer with frames, exactly as
        `run` computes them: the rubber band, the script's targetContentOffset on release,
        the deceleration. A panel shows the offset, phase, last release and frame rate;
        presets and a rotate button resize the viewport. Saving the script reloads its
        effect in the open page, keeping the scroll position; a broken save shows
        file:line: message over the stage and keeps the last good effect. A slider per
        tweakable the script declares (params; a toggle for an on/off one, segments for
        one with options) runs it again with the new value, keeping
        the position; each has a reset to the script's value, Store A / Store B keep two
        sets of values to flip between, and Copy params copies a params = { … } table with
        the values on screen (min, max, step, options and labels kept), to paste over the
        script's. Export Swift shows what `export` writes, to copy or download. A wheel or
        trackpad scroll is a pan (a drag released with its velocity). Record starts a
        recording and a second press stops it: what you did in between becomes a
        scenarios = { recorded = … } block for `run --scenario recorded`.
        The script runs under run's sandbox and per-call limits; a session has no
        whole-run time limit (run's --max-run-time), it lasts as long as you play.
        --cards DIR draws the cards with your images (served from DIR, by number). --lan
        exposes the session to your network: anyone with the printed URL (its token) can
        see and drive it, read the script's Swift and the images; without the token, 403.

        \(options)
        EXAMPLES:
          cardlua play scripts/lol.lua
          cardlua play scripts/card-scale.lua --port 0 --viewport 393x852
          cardlua play scripts/effects/     # pick any catalogue effect in the page
          cardlua play scripts/lol.lua --cards examples/cards --lan
        """ },
        run: main)

    static func main(_ arguments: Arguments) throws -> Int32 {
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
