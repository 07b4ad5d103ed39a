#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// `cardlua play`, end to end: a real process serving on a free port, asked over a
/// plain socket, then stopped with Ctrl-C.
@Suite struct PlayTests {
    @Test func servesThePageRefusesForeignOriginsAndStopsCleanlyOnInterrupt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try String(contentsOfFile: CLI.script("lol.lua"), encoding: .utf8)
        try source.write(to: directory.appendingPathComponent("lol.lua"), atomically: false, encoding: .utf8)

        let play = try WatchProcess(["play", "lol.lua", "--port", "0"], directory: directory)
        defer { play.kill() }
        try #require(waitUntil { play.stdout.contains("\n") }, "no URL printed; stderr: \(play.stderr)")
        let line = play.stdout.split(separator: "\n")[0]
        #expect(line.hasPrefix("http://127.0.0.1:") && line.hasSuffix("/"))
        let port = try #require(UInt16(line.dropFirst("http://127.0.0.1:".count).dropLast()))

        // The page.
        let page = try #require(Self.request(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"))
        #expect(page.hasPrefix("HTTP/1.1 200"))
        #expect(page.contains("window.cardlua"))

        // A state-changing request from another site: refused before the engine sees it.
        let body = #"{"type":"down","t":1}"#
        let foreign = try #require(Self.request(port: port, "POST /input HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Origin: http://example.com\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body))
        #expect(foreign.hasPrefix("HTTP/1.1 403"))
        // A foreign Host (DNS rebinding): refused too.
        let rebound = try #require(Self.request(port: port, "GET / HTTP/1.1\r\nHost: evil.example:\(port)\r\n\r\n"))
        #expect(rebound.hasPrefix("HTTP/1.1 403"))
        // Garbage: 400, and the server still answers afterwards.
        let garbage = "not json"
        let bad = try #require(Self.request(port: port, "POST /input HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Content-Length: \(garbage.utf8.count)\r\n\r\n" + garbage))
        #expect(bad.hasPrefix("HTTP/1.1 400"))
        // The same input from the page's own origin reaches the engine: a touch, tracking.
        let own = try #require(Self.request(port: port, "POST /input HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Origin: http://127.0.0.1:\(port)\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body))
        #expect(own.hasPrefix("HTTP/1.1 200"))
        #expect(own.contains(#""isTracking":true"#))

        // Frames move the engine on, so only a POST (Origin-checked) makes them; no files.
        let get = try #require(Self.request(port: port, "GET /frames?now=1&until=2 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"))
        #expect(get.hasPrefix("HTTP/1.1 405"))
        let file = try #require(Self.request(port: port, "GET /lol.lua HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"))
        #expect(file.hasPrefix("HTTP/1.1 404"))

        // Ctrl-C: status 0, and the port is free again.
        #expect(play.interruptAndWait(timeout: 20) == 0)
        #expect(Self.canBind(port: port))
    }

    @Test func aPortInUseIsReportedNotACrash() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let holder = try #require(Self.listeningSocket())
        defer { close(holder.fd) }
        let result = try CLI.run(["play", CLI.script("lol.lua"), "--port", String(holder.port)])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cardlua play:"))
    }

    /// A script that fails while making frames (an error, or a limit) is shown in the
    /// answer as `file:line: message`; the server keeps answering.
    @Test func scriptErrorsDuringFramesAreAnsweredNotFatal() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lol = try String(contentsOfFile: CLI.script("lol.lua"), encoding: .utf8)
        let lines = lol.split(separator: "\n", omittingEmptySubsequences: false).count
        // Past offset 100 the transform fails on the first line after lol.lua's own text;
        // past 1000 it loops until the time limit.
        let script = lol + """

        local lolTransform = transform
        function transform(attributes, layout)
          if layout.collectionView.bounds.minX > 1000 then while true do end end
          if layout.collectionView.bounds.minX > 100 then error("too far") end
          return lolTransform(attributes, layout)
        end

        """
        try script.write(to: directory.appendingPathComponent("fails.lua"), atomically: false, encoding: .utf8)
        let play = try WatchProcess(["play", "fails.lua", "--port", "0", "--max-time", "0.3"], directory: directory)
        defer { play.kill() }
        try #require(waitUntil { play.stdout.contains("\n") }, "no URL printed; stderr: \(play.stderr)")
        let port = try #require(UInt16(play.stdout.split(separator: "\n")[0].dropFirst("http://127.0.0.1:".count).dropLast()))
        func input(_ body: String) -> String {
            Self.request(port: port, "POST /input HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body) ?? ""
        }
        #expect(input(#"{"type":"down","t":1}"#).contains(#""error":null"#))
        let failed = input(#"{"type":"move","t":1.1,"x":-200}"#)
        #expect(failed.hasPrefix("HTTP/1.1 200"))
        #expect(failed.contains("fails.lua:\(lines + 4): ") && failed.contains("too far"))
        let limited = input(#"{"type":"move","t":1.2,"x":-1200}"#)
        #expect(limited.hasPrefix("HTTP/1.1 200"))
        #expect(limited.contains("fails.lua:\(lines + 3):"))
        // Still serving (the limit discarded the Lua state, so the script started again
        // and the finger was cancelled); back inside the good range frames come again.
        _ = input(#"{"type":"up","t":1.25}"#)
        let back = input(#"{"type":"wheel","t":1.3,"x":-100000}"#)
        #expect(back.contains(#""o":[0,0]"#))
        #expect(back.contains(#""error":null"#))
        #expect(play.interruptAndWait(timeout: 20) == 0)
    }

    /// The page's frames carry the headers and footers (`"s"`) and the same not-drawn
    /// flags as the static preview (2: a corner behind the eye — item 0 is pushed 700 pt
    /// towards an eye at 600).
    @Test func framesCarryHeadersAndFlags() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("""
        function prepare(layout)
          layout.itemSize = CGSizeMake(100, 100)
          layout.headerReferenceSize = CGSizeMake(0, 40)
        end
        function transform(attributes, layout)
          if attributes.indexPath.item == 0 then
            local t = CATransform3DIdentity
            t.m34 = -1 / 600
            attributes.transform3D = CATransform3DTranslate(t, 0, 0, 700)
          end
        end

        """, named: "sections.lua", in: directory)
        let play = try WatchProcess(["play", "sections.lua", "--port", "0"], directory: directory)
        defer { play.kill() }
        try #require(waitUntil { play.stdout.contains("\n") }, "no URL printed; stderr: \(play.stderr)")
        let port = try #require(UInt16(play.stdout.split(separator: "\n")[0].dropFirst("http://127.0.0.1:".count).dropLast()))
        let state = Self.request(port: port, "GET /state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n") ?? ""
        #expect(state.contains(#""s":[[0,0,0,0,414,40]]"#), "\(state.suffix(400))")
        #expect(state.contains(#"[0,0,"#) && state.contains(#",1,0,2],[0,1,"#), "item 0 flagged, item 1 not")
        #expect(play.interruptAndWait(timeout: 20) == 0)
    }

    /// What Record writes: a drag step with the release velocity it measured. `run`
    /// releases with that velocity (not the drag's own speed), and lol.lua's rule then
    /// centres the item nearest the proposal: item k rests at 300k + 200 − 207.
    @Test func aRecordedDragReleasesWithItsVelocity() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try String(contentsOfFile: CLI.script("lol.lua"), encoding: .utf8) + """

        scenarios = { recorded = { steps = { { drag = 300, duration = 0.2, velocity = 1.5 } } } }

        """
        let path = try CLI.write(source, named: "recorded.lua", in: directory)
        let result = try CLI.run(["run", path, "--scenario", "recorded", "--format", "json"])
        try #require(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let snap = try #require((json["snaps"] as? [[String: Any]])?.first)
        let velocity = try #require((snap["velocity"] as? [String: Double])?["x"])
        let proposed = try #require((snap["proposedContentOffset"] as? [String: Double])?["x"])
        let target = try #require((snap["targetContentOffset"] as? [String: Double])?["x"])
        #expect(velocity == 1.5)
        #expect(proposed > 300)  // it went on past the finger's lift
        let k = ((proposed + 207 - 200) / 300).rounded()
        #expect(abs(target - (300 * k + 200 - 207)) < 1e-9)
        // A velocity that is not a number is a script error with its line.
        let lol = try String(contentsOfFile: CLI.script("lol.lua"), encoding: .utf8)
        let bad = try CLI.write(lol + "\nscenarios = { recorded = { steps = { { drag = 10, velocity = \"fast\" } } } }\n", named: "bad.lua", in: directory)
        let failed = try CLI.run(["run", bad, "--scenario", "recorded"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("velocity must be a finite number"))
    }

    /// Sends `text` and reads until the server closes or a full response has arrived (by
    /// Content-Length); nil when the connection fails.
    static func request(port: UInt16, _ text: String) -> String? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
            let response = String(decoding: received, as: UTF8.self)
            if let end = response.range(of: "\r\n\r\n") {
                let head = response[..<end.lowerBound].lowercased()
                if let field = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                   let length = Int(field.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)),
                   received.count >= response.utf8.distance(from: response.utf8.startIndex, to: end.upperBound) + length {
                    break
                }
            }
        }
        return String(decoding: received, as: UTF8.self)
    }

    static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Whether a listener could take `port` now (SO_REUSEADDR, so connections left in
    /// TIME_WAIT do not count, a listener still does).
    static func canBind(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return bound == 0 && listen(fd, 1) == 0
    }

    /// A listening socket on a free port (held by the test).
    static func listeningSocket() -> (fd: Int32, port: UInt16)? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = loopback(0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { close(fd); return nil }
        return (fd, UInt16(bigEndian: address.sin_port))
    }
}
