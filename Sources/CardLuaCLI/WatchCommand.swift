#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CardLayout
import CardRender
import Foundation

/// `cardlua watch SCRIPT [run options]`: runs, then runs again on every save.
///
/// - With `-o FILE` each good run replaces the file atomically; an HTML page also gets its
///   live-reload sidecar (`FILE.stamp.js`, see `HTMLRenderer`), rewritten after the page,
///   so an open browser tab reloads itself with no server.
/// - Without `-o`, in a terminal, the screen is cleared and the output redrawn; into a
///   pipe, each run's output follows the last.
/// - A broken save prints a timestamp line and the error (`file:line: message`, then the
///   script's traceback) on standard error and leaves the last good output in place.
/// - Each run gets a fresh Lua state, so a limit hit once does not poison later runs.
/// - Ctrl-C ends it with status 0.
enum WatchCommand {
    static func main(_ words: [String]) throws(UsageError) -> Int32 {
        let arguments = try Arguments(words, valued: RunOptions.valuedOptions, flags: ["help"], command: "watch")
        if CardLuaCommand.printedHelp(arguments, command: "watch") { return 0 }
        let options = try RunOptions(arguments, command: "watch")
        let interrupt = InterruptFlag.install()
        var session = WatchSession(options: options)
        var watcher = FileWatcher(path: options.scriptPath)
        if watcher.exists { session.run() } else { session.reportMissing() }
        while let event = watcher.next(shouldStop: { interrupt.isRaised }) {
            switch event {
            case .changed: session.run()
            case .missing: session.reportMissing()
            }
        }
        session.stop()
        return 0
    }
}

/// The state kept between runs of `watch`.
struct WatchSession {
    let options: RunOptions
    /// Whether the output is redrawn in a terminal (no `-o`, standard output a terminal).
    let redraws: Bool
    private var goodRuns = 0
    private var failing = false

    init(options: RunOptions) {
        self.options = options
        redraws = options.outputPath == nil && Console.standardOutputIsTerminal
    }

    private var scriptName: String { (options.scriptPath as NSString).lastPathComponent }

    /// Runs the script once and shows the result, or the error (keeping the last output).
    mutating func run() {
        let started = Date()
        let timeline: Timeline
        var warnings: [String] = []
        do {
            timeline = try RunPipeline.timeline(options, warnings: &warnings)
        } catch {
            failing = true
            let kept = goodRuns == 0 ? "no output yet" : "keeping the last good output"
            Console.error("[\(Self.clock())] \(scriptName) failed — \(kept); fix it and save again")
            CardLuaCommand.report(error)
            return
        }
        // What `check` would warn about, after the status line (a redraw clears the screen).
        defer { for warning in warnings { Console.error(warning) } }
        let singleFrame = options.offset != nil && options.flingVelocity == nil && options.scenarioName == nil
        guard let path = options.outputPath else {
            let text = RunPipeline.render(timeline, format: options.format, color: redraws && Console.wantsColor,
                                          columns: redraws ? Console.columns : 80, singleFrame: singleFrame)
            if redraws {
                Console.out("\u{1B}[H\u{1B}[2J" + text)
                Console.error("[\(Self.clock())] watching \(options.scriptPath) — save to run again, Ctrl-C to stop")
            } else {
                Console.out(text)
                Console.error("[\(Self.clock())] \(scriptName) ran\(recovered)")
            }
            goodRuns += 1
            failing = false
            return
        }
        let isHTML = options.format == .html
        let stampName = HTMLRenderer.stampFileName(forHTMLFile: path)
        let text = RunPipeline.render(timeline, format: options.format, color: false, columns: 80,
                                      singleFrame: singleFrame, reloadStamp: isHTML ? stampName : nil)
        do {
            try writeAtomically(text, to: path)
            if isHTML {
                let sidecar = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(stampName).path
                try writeAtomically(HTMLRenderer.reloadStampScript(stamp: Self.stamp(of: text)), to: sidecar)
            }
        } catch {
            failing = true
            Console.error("[\(Self.clock())] cardlua: \(error)")
            return
        }
        let milliseconds = Int((Date().timeIntervalSince(started) * 1000).rounded())
        let frames = timeline.frames.count
        Console.error("[\(Self.clock())] \(scriptName) → \(path) (\(frames) frame\(frames == 1 ? "" : "s"), \(milliseconds) ms)\(recovered)")
        goodRuns += 1
        failing = false
    }

    private var recovered: String { failing ? " — recovered" : "" }

    func reportMissing() {
        Console.error("[\(Self.clock())] \(options.scriptPath): no such file — waiting for it to appear")
    }

    /// After Ctrl-C: ends the line the terminal echoed `^C` on.
    func stop() {
        Console.error("\nstopped watching \(options.scriptPath)")
    }

    /// The local time, `HH:MM:SS`.
    static func clock() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }

    /// A stamp for the live-reload sidecar: changes exactly when the page does (64-bit
    /// FNV-1a of its text).
    static func stamp(of text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
