#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CardLua
@testable import CardLuaCLI
import CardServe
import Foundation
import Testing

/// A FIFO, a folder or a link where a script or a card image should be (issue "Trustworthy,
/// round 4", item 5): one clean error, at once — never a command that waits for a writer,
/// never a `play` route that goes deaf. Every FIFO is made in a temporary directory, and
/// every command runs with a hang guard, so a regression fails instead of hanging.
@Suite struct SpecialFileTests {
    /// Generous: what is checked is that the command ended, not how fast.
    static let guardSeconds: TimeInterval = 60

    static func fifo(_ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try #require(mkfifo(path, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        return path
    }

    /// Puts a FIFO at `path` in one step (a rename over it, as an editor saves).
    static func replaceWithFIFO(_ path: String, in directory: URL) throws {
        let made = try fifo(".swap-\(UUID().uuidString)", in: directory)
        try #require(rename(made, path) == 0)
    }

    /// Runs `body` on a thread of its own and waits at most ``guardSeconds`` for it: nil
    /// when it did not end (the thread is left blocked; the test fails instead of hanging).
    static func withinGuard<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
        let done = DispatchSemaphore(value: 0)
        let box = Box<T>()
        Thread.detachNewThread {
            box.value = body()
            done.signal()
        }
        guard done.wait(timeout: .now() + guardSeconds) == .success else { return nil }
        return box.value
    }

    final class Box<T>: @unchecked Sendable { var value: T? }

    // MARK: the reader

    @Test func theReaderRefusesAnythingButARegularFile() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = try Self.fifo("f.lua", in: dir)
        let file = try CLI.write("-- a script\n", named: "s.lua", in: dir)
        let link = dir.appendingPathComponent("link.lua").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        func read(_ path: String, _ max: Int = 100, _ links: RegularFile.Links = .follow) -> Result<[UInt8], RegularFile.Failure>? {
            Self.withinGuard { Result { () throws(RegularFile.Failure) in try RegularFile.read(path: path, maxBytes: max, links: links) } }
        }
        #expect(read(fifo) == .failure(.notRegular("a FIFO")))
        #expect(read(dir.path) == .failure(.notRegular("a folder")))
        #expect(read(dir.appendingPathComponent("none.lua").path) == .failure(.missing))
        #expect(read(file) == .success(Array("-- a script\n".utf8)))
        #expect(read(file, 12) == .success(Array("-- a script\n".utf8)))
        #expect(read(file, 11) == .failure(.tooLarge(12)))
        // A link: followed for a path given on the command line, refused out of a folder.
        #expect(read(link) == .success(Array("-- a script\n".utf8)))
        #expect(read(link, 100, .refuse) == .failure(.notRegular("a symbolic link")))
        #expect(RegularFile.Failure.notRegular("a FIFO").reason == "not a regular file (a FIFO)")
    }

    // MARK: the commands

    /// `run`, `check`, `export`, `bench`, `play` given a FIFO (or a folder) as the script:
    /// the one line `FILE: not a regular file (a FIFO)`, status 1, at once.
    @Test func commandsGivenAFIFOEndWithOneLine() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Self.fifo("f.lua", in: dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("d.lua"), withIntermediateDirectories: true)
        for words in [["run", "f.lua"], ["run", "f.lua", "--format", "html", "-o", "out.html"], ["export", "f.lua"],
                      ["bench", "f.lua"], ["play", "f.lua", "--port", "0"]] {
            let result = try CLI.run(words, timeout: Self.guardSeconds, directory: dir)
            #expect(!result.timedOut, "\(words) hung")
            #expect(result.status == 1 && result.stderr == "f.lua: not a regular file (a FIFO)\n",
                    "\(words): \(result.status) \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.html").path))
        let check = try CLI.run(["check", "f.lua"], timeout: Self.guardSeconds, directory: dir)
        #expect(!check.timedOut && check.status == 1 && check.stdout.contains("not a regular file (a FIFO)"),
                "\(check.stdout) \(check.stderr)")
        let folder = try CLI.run(["run", "d.lua"], timeout: Self.guardSeconds, directory: dir)
        #expect(folder.status == 1 && folder.stderr == "d.lua: not a regular file (a folder)\n", "\(folder.stderr)")
    }

    /// A script given as a link on the command line is the file it leads to.
    @Test func aLinkedScriptRuns() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("function transform(a) a.alpha = 0.5 end\n", named: "real.lua", in: dir)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.lua").path, withDestinationPath: script)
        let result = try CLI.run(["run", "link.lua", "--format", "json"], timeout: Self.guardSeconds, directory: dir)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// `watch` on a FIFO reports the error and keeps watching (Ctrl-C ends it).
    @Test func watchReportsAFIFOAndGoesOn() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Self.fifo("f.lua", in: dir)
        let watch = try WatchProcess(["watch", "f.lua", "-o", "out.json"], directory: dir)
        defer { watch.kill() }
        #expect(waitUntil(timeout: Self.guardSeconds) { watch.stderr.contains("f.lua: not a regular file (a FIFO)") },
                "\(watch.stderr)")
        #expect(watch.interruptAndWait(timeout: Self.guardSeconds) == 0)
    }

    /// `new` beside a FIFO named like its definitions or `.luarc.json`: left alone, unread.
    @Test func newLeavesFIFOsBesideItAlone() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Self.fifo("cardlua.d.lua", in: dir)
        _ = try Self.fifo(".luarc.json", in: dir)
        let result = try CLI.run(["new", "fx.lua"], timeout: Self.guardSeconds, directory: dir)
        #expect(!result.timedOut && result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("left cardlua.d.lua alone: it is not cardlua's"), "\(result.stdout)")
        #expect(result.stdout.contains("left .luarc.json alone: it exists"), "\(result.stdout)")
    }

    /// The watcher sees a FIFO put in the script's place as a change (so the reload reports
    /// it), without opening it.
    @Test func theWatcherSeesAFIFOAsAChange() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("-- v1\n", named: "s.lua", in: dir)
        var watcher = FileWatcher(path: script)
        try Self.replaceWithFIFO(script, in: dir)
        let deadline = Date().addingTimeInterval(Self.guardSeconds)
        #expect(watcher.next(shouldStop: { Date() > deadline }) == .changed)
        #expect(watcher.current?.isRegular == false)
    }

    // MARK: play

    /// A script that loads (the picker tests' wide cards).
    static let script = PlayPickerTests.wide

    static func state(_ response: String) throws -> [String: Any] { try PlayPickerTests.state(response) }

    /// `play FOLDER` whose first script by name is a FIFO starts with the next one; the
    /// FIFO is not listed, and picking it is refused at once.
    @Test func playSkipsAFIFOInTheFolder() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("effects")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try Self.fifo("a.lua", in: folder)
        _ = try CLI.write(Self.script, named: "b.lua", in: folder)
        _ = try CLI.write(Self.script, named: "c.lua", in: folder)
        let play = try PlayServer(["effects"], directory: dir)
        defer { play.process.kill() }
        let list = try PlayServer.json(play.get("/scripts"))
        #expect(list["scripts"] as? [String] == ["b.lua", "c.lua"] && list["current"] as? String == "b.lua", "\(list)")
        let refused = play.post("/script", #"{"t":0.1,"name":"a.lua"}"#)
        #expect(refused.hasPrefix("HTTP/1.1 400 ") && refused.contains("is not a script of the folder"), "\(refused.prefix(120))")
        #expect(try Self.state(play.get("/state"))["script"] as? String == "b.lua")
    }

    /// The script in use replaced by a FIFO: the reload shows the error, the last good
    /// effect goes on, and every route keeps answering; a good save recovers.
    @Test(arguments: [false, true])
    func playKeepsAnsweringWhenTheScriptBecomesAFIFO(fromFolder: Bool) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("effects")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = try CLI.write(Self.script, named: "b.lua", in: folder)
        _ = try CLI.write(Self.script, named: "c.lua", in: folder)
        let play = try PlayServer([fromFolder ? "effects" : "effects/b.lua"], directory: dir)
        defer { play.process.kill() }
        let version = try #require(try Self.state(play.get("/state"))["scriptVersion"] as? Int)
        try Self.replaceWithFIFO(script, in: folder)
        var seen: [String: Any] = [:]
        #expect(waitUntil(timeout: Self.guardSeconds) {
            seen = (try? Self.state(play.get("/state"))) ?? [:]
            return seen["error"] as? String == "effects/b.lua: not a regular file (a FIFO)"
        }, "\(seen)")
        #expect(play.get("/").hasPrefix("HTTP/1.1 200 "))
        #expect(play.get("/scripts").hasPrefix("HTTP/1.1 200 "))
        #expect(play.get("/export").hasPrefix("HTTP/1.1 200 "))
        #expect(play.post("/input", #"{"type":"down","t":0.5}"#).hasPrefix("HTTP/1.1 200 "))
        #expect(play.post("/reload", #"{"t":0.6}"#).hasPrefix("HTTP/1.1 200 "))
        if fromFolder {
            // The FIFO is no longer listed; the other script can still be picked.
            #expect(try PlayServer.json(play.get("/scripts"))["scripts"] as? [String] == ["c.lua"])
            #expect(try Self.state(play.post("/script", #"{"t":0.7,"name":"c.lua"}"#))["script"] as? String == "c.lua")
        } else {
            // A good save in its place loads again.
            try FileManager.default.removeItem(atPath: script)
            _ = try CLI.write(Self.script, named: "b.lua", in: folder)
            #expect(waitUntil(timeout: Self.guardSeconds) {
                seen = (try? Self.state(play.get("/state"))) ?? [:]
                return seen["error"] is NSNull && (seen["scriptVersion"] as? Int ?? 0) > version
            }, "\(seen)")
        }
        #expect(play.process.interruptAndWait(timeout: Self.guardSeconds) == 0)
    }

    // MARK: --cards

    /// A FIFO named like an image is not taken; an image replaced by one is refused (404)
    /// at once and the others are still served.
    @Test func cardsNeverWaitOnAFIFO() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cards = dir.appendingPathComponent("cards")
        try FileManager.default.createDirectory(at: cards, withIntermediateDirectories: true)
        _ = try CLI.write("<svg xmlns='http://www.w3.org/2000/svg'/>", named: "a.svg", in: cards)
        _ = try Self.fifo("b.svg", in: cards)
        let c = try CLI.write("<svg xmlns='http://www.w3.org/2000/svg'><g/></svg>", named: "c.svg", in: cards)
        let play = try PlayServer([CLI.script("lol.lua"), "--cards", cards.path], directory: dir)
        defer { play.process.kill() }
        #expect(try PlayServer.json(play.get("/cards"))["images"] as? [String] == ["cards/0", "cards/1"])
        #expect(play.get("/cards/1").hasPrefix("HTTP/1.1 200 "))
        try Self.replaceWithFIFO(c, in: cards)
        let answer = play.get("/cards/1")
        #expect(answer.hasPrefix("HTTP/1.1 404 "), "\(answer.prefix(80))")
        #expect(play.get("/cards/0").hasPrefix("HTTP/1.1 200 "))
        #expect(play.get("/state").hasPrefix("HTTP/1.1 200 "))

        // The static page's embedding: a clean usage error naming the file.
        let folder = try CardsFolder(path: cards.path, command: "run")
        let a = cards.appendingPathComponent("a.svg").path
        try Self.replaceWithFIFO(a, in: cards)
        let embedded = Self.withinGuard { () -> String in
            do {
                _ = try folder.embedded(command: "run")
                return "embedded"
            } catch {
                return String(describing: error)
            }
        }
        #expect(embedded == "--cards: cannot read 'a.svg': not a regular file (a FIFO)", "\(embedded ?? "hung")")
        #expect(Self.withinGuard { folder.response(to: HTTPRequest(method: "GET", target: "/cards/0")).status } == 404)
    }
}
