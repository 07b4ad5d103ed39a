import Foundation
import Testing

/// `cardlua watch`, end to end: a real process watching a real file while the test saves,
/// breaks and fixes it, in place and by renaming a new file over it.
@Suite struct WatchTests {
    /// A valid effect whose item width is `width` (so each version's output differs).
    static func effect(width: Int) -> String {
        """
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          layout.itemSize = CGSizeMake(\(width), 300)
          layout.minimumLineSpacing = 10
        end

        function transform(attributes, layout)
          local d = math.abs(layout.collectionView.bounds.midX - attributes.center.x)
          return 1 - math.min(d, 400) / 2000
        end

        """
    }

    /// A save that does not even parse (line 3).
    static let syntaxError = """
    function prepare(layout)
      layout.itemSize = CGSizeMake(100, 100)
      layout.minimumLineSpacing = = 3
    end

    """

    /// A save that loads but fails at run time (line 3, inside transform).
    static let runtimeError = """
    function transform(attributes, layout)
      local missing = nil
      attributes.alpha = missing.value
    end

    """

    @Test func brokenSavesKeepTheLastGoodOutputAndGoodSavesRecover() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("effect.lua")
        let output = directory.appendingPathComponent("out.json")
        try Self.effect(width: 200).write(to: script, atomically: false, encoding: .utf8)

        let watch = try WatchProcess(["watch", "effect.lua", "--offset", "100", "-o", "out.json"], directory: directory)
        defer { watch.kill() }

        // 1. The first run writes the output.
        try #require(waitUntil { Self.itemWidth(in: output) == 200 }, "no first output; stderr: \(watch.stderr)")

        // 2. A save with a syntax error: the error is reported, the output stays. (Saved by
        // rename: an in-place save passes through an empty file, which the watcher waits
        // out — FileWatcherTests pins that rule without depending on the scheduler.)
        let good = try Data(contentsOf: output)
        try Self.saveByRename(Self.syntaxError, to: script)
        try #require(waitUntil { watch.stderr.contains("effect.lua:3:") }, "no error shown; stderr: \(watch.stderr)")
        #expect(watch.stderr.contains("keeping the last good output"))
        #expect(try Data(contentsOf: output) == good)

        // 3. A good save by renaming a new file over the script: recovered.
        try Self.saveByRename(Self.effect(width: 250), to: script)
        try #require(waitUntil { Self.itemWidth(in: output) == 250 }, "no recovery; stderr: \(watch.stderr)")
        // The status line follows the file's rename: wait for it too, don't race it.
        #expect(waitUntil { watch.stderr.contains("recovered") }, "\(watch.stderr)")

        // 4. A runtime error saved by rename: reported with its line and traceback; output kept.
        let second = try Data(contentsOf: output)
        let errorsBefore = watch.stderr.components(separatedBy: "failed").count
        try Self.saveByRename(Self.runtimeError, to: script)
        try #require(waitUntil { watch.stderr.components(separatedBy: "failed").count > errorsBefore },
                     "no error shown; stderr: \(watch.stderr)")
        try #require(waitUntil { watch.stderr.contains("script traceback:") })
        #expect(watch.stderr.contains("effect.lua:3: transform: item"))
        #expect(try Data(contentsOf: output) == second)

        // 5. Fixed in place.
        try Self.effect(width: 320).write(to: script, atomically: false, encoding: .utf8)
        try #require(waitUntil { Self.itemWidth(in: output) == 320 }, "no recovery; stderr: \(watch.stderr)")

        // Ctrl-C ends it cleanly, leaving no temporary files behind.
        let status = try #require(watch.interruptAndWait())
        #expect(status == 0, "stderr: \(watch.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left == ["effect.lua", "out.json"])
    }

    @Test func htmlPreviewGetsALiveReloadStampThatChangesWithThePage() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("effect.lua")
        let page = directory.appendingPathComponent("preview.html")
        let stamp = directory.appendingPathComponent("preview.html.stamp.js")
        try Self.effect(width: 200).write(to: script, atomically: false, encoding: .utf8)

        let watch = try WatchProcess(["watch", "effect.lua", "--offset", "0", "-o", "preview.html"], directory: directory)
        defer { watch.kill() }
        try #require(waitUntil { FileManager.default.fileExists(atPath: stamp.path) }, "stderr: \(watch.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("preview.html.stamp.js"), "the page must poll its sidecar")
        let first = try String(contentsOf: stamp, encoding: .utf8)
        #expect(first.hasPrefix("window.cardluaReloadStamp = "))

        // A broken save changes neither the page nor the stamp (saved by rename, as in
        // brokenSavesKeepTheLastGoodOutputAndGoodSavesRecover).
        try Self.saveByRename(Self.runtimeError, to: script)
        try #require(waitUntil { watch.stderr.contains("effect.lua:3:") }, "stderr: \(watch.stderr)")
        #expect(try String(contentsOf: stamp, encoding: .utf8) == first)
        #expect(try String(contentsOf: page, encoding: .utf8) == html)

        // A good save rewrites both, and the stamp changes.
        try Self.saveByRename(Self.effect(width: 260), to: script)
        try #require(waitUntil { (try? String(contentsOf: stamp, encoding: .utf8)) != first }, "stderr: \(watch.stderr)")
        #expect(try String(contentsOf: page, encoding: .utf8) != html)
        #expect(watch.interruptAndWait() == 0)
    }

    @Test func aLimitErrorDoesNotPoisonTheNextRun() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("effect.lua")
        let output = directory.appendingPathComponent("out.json")
        try "function transform(a)\n  while true do end\nend\n".write(to: script, atomically: false, encoding: .utf8)

        let watch = try WatchProcess(["watch", "effect.lua", "--offset", "0", "-o", "out.json",
                                      "--max-steps", "100000"], directory: directory)
        defer { watch.kill() }
        try #require(waitUntil { watch.stderr.contains("exceeded the budget of") }, "stderr: \(watch.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(watch.stderr.contains("no output yet"))

        try Self.effect(width: 180).write(to: script, atomically: false, encoding: .utf8)
        try #require(waitUntil { Self.itemWidth(in: output) == 180 }, "stderr: \(watch.stderr)")
        #expect(watch.interruptAndWait() == 0)
    }

    @Test func aMissingScriptIsWaitedFor() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.json")
        let watch = try WatchProcess(["watch", "later.lua", "--offset", "0", "-o", "out.json"], directory: directory)
        defer { watch.kill() }
        try #require(waitUntil { watch.stderr.contains("waiting for it to appear") }, "stderr: \(watch.stderr)")
        try Self.effect(width: 150).write(to: directory.appendingPathComponent("later.lua"), atomically: true, encoding: .utf8)
        try #require(waitUntil { Self.itemWidth(in: output) == 150 }, "stderr: \(watch.stderr)")

        // Deleted: reported, and watched for again.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("later.lua"))
        try #require(waitUntil { watch.stderr.components(separatedBy: "waiting for it to appear").count == 3 },
                     "stderr: \(watch.stderr)")
        #expect(Self.itemWidth(in: output) == 150)
        #expect(watch.interruptAndWait() == 0)
    }

    @Test func withoutAnOutputFileEachRunGoesToStandardOutput() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("effect.lua")
        try Self.effect(width: 200).write(to: script, atomically: false, encoding: .utf8)
        let watch = try WatchProcess(["watch", "effect.lua", "--offset", "0", "--format", "json"], directory: directory)
        defer { watch.kill() }
        try #require(waitUntil { watch.stdout.contains("\"cardlua\"") }, "stderr: \(watch.stderr)")
        try Self.effect(width: 230).write(to: script, atomically: false, encoding: .utf8)
        try #require(waitUntil { watch.stdout.components(separatedBy: "\"cardlua\"").count == 3 }, "stderr: \(watch.stderr)")
        #expect(!watch.stdout.contains("\u{1B}["), "no screen clearing into a pipe")
        #expect(watch.interruptAndWait() == 0)
    }

    @Test func wrongUsageIsStatus2() throws {
        let result = try CLI.run(["watch"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("missing the script"))
        let typo = try CLI.run(["watch", "x.lua", "--ofset", "3"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("did you mean --offset"))
    }

    // MARK: Helpers

    /// Saves like editors that write a new file and rename it over the old one.
    static func saveByRename(_ text: String, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).swp")
        try text.write(to: temporary, atomically: false, encoding: .utf8)
        guard rename(temporary.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// The item width recorded in a JSON output file, if it is there and complete.
    static func itemWidth(in url: URL) -> Double? {
        guard let data = try? Data(contentsOf: url),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let layout = json["layout"] as? [String: Any],
              let size = layout["itemSize"] as? [String: Double] else { return nil }
        return size["width"]
    }
}

/// Polls `condition` until it holds or `timeout` seconds pass; whether it held.
func waitUntil(timeout: TimeInterval = 45, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}

/// `cardlua` running in the background, its output collected in files.
final class WatchProcess {
    private let process = Process()
    private let outURL: URL
    private let errURL: URL

    init(_ arguments: [String], directory: URL) throws {
        process.executableURL = CLI.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("cardlua-watch-\(UUID().uuidString)")
        outURL = base.appendingPathExtension("out")
        errURL = base.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }

    var stdout: String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

    /// Sends SIGINT (Ctrl-C) and waits; the exit status, or nil if it did not end in time
    /// or ended by a signal.
    func interruptAndWait(timeout: TimeInterval = 10) -> Int32? {
        process.interrupt()
        guard waitUntil(timeout: timeout, { !process.isRunning }) else { return nil }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    /// Ends it at once if it is still running.
    func kill() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
