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
    static let declaration = CommandDeclaration(
        name: "watch", synopsis: "watch SCRIPT [options]", summary: "the same, again on every save; errors never end it",
        arguments: .one("SCRIPT", missing: "the script to run", extraHint: "one script at a time"),
        options: RunCommand.declaration.options,
        help: { options in """
        cardlua watch — run again on every save of the script

        USAGE: cardlua watch SCRIPT [options]

        Runs, then runs again whenever the script changes (also when an editor saves by
        renaming a new file over it). A broken save prints the error and keeps the last good
        output; the next good save recovers. With -o the file is replaced atomically, and an
        HTML preview reloads itself in the browser (through FILE.stamp.js, written beside
        it). A missing or deleted script is waited for. Ctrl-C ends.

        \(options)
        """ },
        run: main)

    static func main(_ arguments: Arguments) throws(UsageError) -> Int32 {
        let options = try RunOptions(arguments)
        let interrupt = InterruptFlag.install()
        var session = WatchSession(options: options)
        var watcher = FileWatcher(path: options.scriptPath)
        if watcher.exists { session.run() } else { session.reportMissing() }
        // A --param the script does not take is wrong usage: said once, exit 2 (a later
        // save refusing one is reported like any failed run).
        if let usage = session.firstRunUsageFailure {
            CardLuaCommand.report(usage)
            return 2
        }
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
    private var runs = 0
    /// The first run's failure when it was wrong usage (a refused `--param`).
    private(set) var firstRunUsageFailure: RunFailure?

    init(options: RunOptions) {
        self.options = options
        redraws = options.outputPath == nil && Console.standardOutputIsTerminal
    }

    private var scriptName: String { Echo.safe((options.scriptPath as NSString).lastPathComponent) }

    /// Runs the script once and shows the result, or the error (keeping the last output).
    ///
    /// The run streams into its output like `run`'s: with `-o` into a temporary file
    /// renamed over the target only when the run succeeded.
    mutating func run() {
        runs += 1
        let started = Date()
        let isHTML = options.format == .html
        let output: OutputFile
        if let path = options.outputPath {
            do {
                output = try OutputFile.open(path)
            } catch {
                failing = true
                Console.error("[\(Self.clock())] \(error)")
                return
            }
        } else {
            output = OutputFile.standardOutput()
            // Clearing the screen goes out only with the run's text (both are buffered).
            if redraws { try? output.write("\u{1B}[H\u{1B}[2J") }
        }
        output.byteLimit = options.maxOutputBytes
        let hashed = HashingOutput(output)
        let stampName = options.outputPath.map(HTMLRenderer.stampFileName(forHTMLFile:))
        let frames: Int
        var warnings: [String] = []
        do {
            frames = try RunPipeline.run(options, into: hashed, color: redraws && Console.wantsColor,
                                         columns: redraws ? Console.columns : 80,
                                         reloadStamp: isHTML ? stampName : nil, warnings: &warnings)
            try output.commit()
        } catch let error as RunFailure {
            output.discard()
            failing = true
            if error.isUsage, runs == 1 {
                firstRunUsageFailure = error
                return
            }
            let kept = goodRuns == 0 ? "no output yet" : "keeping the last good output"
            Console.error("[\(Self.clock())] \(scriptName) failed — \(kept); fix it and save again")
            CardLuaCommand.report(error)
            return
        } catch {
            output.discard()
            failing = true
            Console.error("[\(Self.clock())] \(error)")
            return
        }
        // What `check` would warn about, after the status line (a redraw clears the screen).
        defer { for warning in warnings { Console.error(warning) } }
        guard let path = options.outputPath else {
            if redraws {
                Console.error("[\(Self.clock())] watching \(Echo.safe(options.scriptPath)) — save to run again, Ctrl-C to stop")
            } else {
                Console.error("[\(Self.clock())] \(scriptName) ran\(recovered)")
            }
            goodRuns += 1
            failing = false
            return
        }
        if isHTML, let stampName {
            let sidecar = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(stampName).path
            do {
                try writeAtomically(HTMLRenderer.reloadStampScript(stamp: String(hashed.hash, radix: 16)), to: sidecar)
            } catch {
                failing = true
                Console.error("[\(Self.clock())] \(error)")
                return
            }
        }
        let milliseconds = Int((Date().timeIntervalSince(started) * 1000).rounded())
        Console.error("[\(Self.clock())] \(scriptName) → \(Echo.safe(path)) (\(frames) frame\(frames == 1 ? "" : "s"), \(milliseconds) ms)\(recovered)")
        goodRuns += 1
        failing = false
    }

    private var recovered: String { failing ? " — recovered" : "" }

    func reportMissing() {
        Console.error("[\(Self.clock())] \(Echo.safe(options.scriptPath)): no such file — waiting for it to appear")
    }

    /// After Ctrl-C: ends the line the terminal echoed `^C` on.
    func stop() {
        Console.error("\nstopped watching \(Echo.safe(options.scriptPath))")
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
        let output = HashingOutput(StringOutput())
        try? output.write(text)
        return String(output.hash, radix: 16)
    }
}

/// Passes text on and hashes it on the way (64-bit FNV-1a), for the live-reload stamp of
/// a page that was streamed rather than held.
final class HashingOutput: TextOutput {
    let inner: any TextOutput
    private(set) var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    init(_ inner: any TextOutput) { self.inner = inner }

    func write(_ text: String) throws {
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        try inner.write(text)
    }
}
