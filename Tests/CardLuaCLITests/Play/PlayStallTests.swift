#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import CardLuaCLI
import CardServe
import Foundation
import Testing

/// A live session never stalls: no whole-run time limit, a slow script never makes the
/// server deaf, Ctrl-C ends it under load.
extension PlayTests {
    /// The whole-run limit is `run`'s. Given one anyway (0.05 s, as if `run`'s options
    /// came in), a session answers frames at page times far past it (the page's clock is
    /// the test's: 0 … 600 s) and for ten times as long in real time, never an error.
    @Test func aSessionHasNoWholeRunTimeLimit() throws {
        var options = try PlayOptions(PlayCommand.declaration.parse([CLI.script("lol.lua")]))
        #expect(options.limits.maxRunTime == 0)
        options.limits.maxRunTime = 0.05
        let playground = try Playground(options: options)
        let started = Date()
        var answers = 0
        let kinds = ["down", "move", "up", "wheel"]
        while answers < 20 || Date().timeIntervalSince(started) < 0.5 {
            let t = Double(answers) * 30, type = kinds[answers % kinds.count]
            let body = #"{"type":"\#(type)","t":\#(t),"x":\#(answers % 2 == 0 ? -40 : 25)}"#
            let response = playground.handle(HTTPRequest(method: "POST", target: "/input", body: Array(body.utf8)))
            let text = String(decoding: response.body, as: UTF8.self)
            try #require(response.status == 200, "\(text)")
            try #require(text.contains(#""error":null"#), "at t=\(t): \(text.prefix(600))")
            try #require(text.contains(#""frames":[{"#), "no frame at t=\(t)")
            answers += 1
            if answers > 100_000 { break }  // never spin forever
        }
    }

    /// A script whose frame takes ~0.2 s (a busy loop, inside every limit): while the
    /// engine computes a second of frames, the page and the event stream are answered,
    /// inputs queue (a newer move replacing a queued one), and Ctrl-C ends `play` with
    /// status 0. Margins are ten times what the server needs.
    @Test func aSlowScriptNeverMakesTheServerDeaf() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lol = try String(contentsOfFile: CLI.script("lol.lua"), encoding: .utf8)
        _ = try CLI.write(lol + """

        local lolTransform = transform
        function transform(attributes, layout)
          local x = 0
          for i = 1, \(Self.slowSpin) do x = x + i end
          return lolTransform(attributes, layout)
        end

        """, named: "slow.lua", in: directory)
        let play = try PlayServer(["slow.lua", "--max-instructions", "1000000000"], directory: directory)
        defer { play.process.kill() }
        let port = play.port

        // A second of frames (61 frames of ~0.2 s each), then inputs queued behind it.
        let frames = try #require(PendingRequest(port: port, PlayServer.postText("/frames?now=0&until=1", "{}", port: port)))
        var inputs: [PendingRequest] = []
        for (i, type) in ["down", "move", "move", "move"].enumerated() {
            let body = #"{"type":"\#(type)","t":\#(0.5 + 0.01 * Double(i)),"x":\#(-10 * i)}"#
            inputs.append(try #require(PendingRequest(port: port, PlayServer.postText("/input", body, port: port))))
        }
        #expect(!frames.isAnswered)

        // The page and the event stream answer meanwhile.
        let page = play.get("/")
        #expect(page.hasPrefix("HTTP/1.1 200") && page.contains("window.cardlua"))
        let events = try #require(PendingRequest(port: port, "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"))
        #expect(waitUntil(timeout: 10) { events.isAnswered })
        #expect(events.text.hasPrefix("HTTP/1.1 200") && events.text.contains("retry:"))
        // Still computing: the answers above did not wait for it.
        #expect(!frames.isAnswered, "the frames were done before the page was answered: not slow enough to tell")
        #expect(!inputs.contains { $0.isAnswered })

        // Ctrl-C under load.
        #expect(play.process.interruptAndWait(timeout: 10) == 0)
    }

    /// One job at a time on the engine's thread; a queued finger position is replaced by a
    /// newer one (both requests get the newer answer), other inputs keep their order.
    @Test func theEngineQueueRunsOneJobAndANewerMoveReplacesAQueuedOne() throws {
        let engine = PlayEngineQueue()
        defer { engine.stop() }
        let gate = DispatchSemaphore(value: 0)
        let log = Log()
        func answer(_ name: String) -> @Sendable () -> HTTPResponse {
            { log.add("ran " + name); return .text(name) }
        }
        func done(_ name: String) -> @Sendable (HTTPResponse) -> Void {
            { log.add(name + " got " + String(decoding: $0.body, as: UTF8.self)) }
        }
        engine.submit(key: nil, work: { gate.wait(); log.add("ran first"); return .text("first") }, done: done("first"))
        #expect(waitUntil(timeout: 10) { engine.queued == 0 })  // the first is running
        engine.submit(key: "move", work: answer("move1"), done: done("move1"))
        engine.submit(key: "move", work: answer("move2"), done: done("move2"))
        engine.submit(key: nil, work: answer("up"), done: done("up"))
        engine.submit(key: "move", work: answer("move3"), done: done("move3"))
        #expect(engine.queued == 3)
        gate.signal()
        #expect(waitUntil(timeout: 10) { log.lines.count == 9 })
        #expect(log.lines == ["ran first", "first got first", "ran move2", "move1 got move2", "move2 got move2",
                              "ran up", "up got up", "ran move3", "move3 got move3"])
    }

    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        func add(_ line: String) { lock.lock(); entries.append(line); lock.unlock() }
        var lines: [String] { lock.lock(); defer { lock.unlock() }; return entries }
    }

    /// Iterations of the fixture's busy loop per item: ~0.05–0.1 s on this machine's Lua,
    /// three or four items a frame.
    static let slowSpin = 6_000_000
}
