#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import CardLuaCLI
import CardLuaTestSupport
import CardServe
import Foundation
import Testing

/// `play --lan`: the token as the first segment of every request's path, the LAN address
/// as one more Host, no cookie. The LAN address is stood in by 127.0.0.2
/// (`--lan-address`): no test sends traffic off loopback.
@Suite struct PlayLANTests {
    /// `play --lan --lan-address 127.0.0.2 --port 0`: its port and token from the first
    /// line of its output (`http://127.0.0.1:PORT/t/TOKEN/`).
    final class LANPlay {
        let process: WatchProcess
        let port: UInt16
        let token: String
        let lanLine: String

        init(_ extra: [String] = [], script: String = CLI.script("lol.lua"), directory: URL) throws {
            let started = try WatchProcess(["play", script, "--port", "0", "--lan", "--lan-address", "127.0.0.2"]
                                           + extra, directory: directory)
            try #require(waitUntil { started.stdout.split(separator: "\n").count >= 3 }, "stderr: \(started.stderr)")
            let lines = started.stdout.split(separator: "\n").map(String.init)
            let first = try #require(lines[0].firstMatch(of: /^http:\/\/127\.0\.0\.1:(\d+)\/t\/([0-9a-f]{32})\/$/))
            process = started
            port = try #require(UInt16(first.1))
            token = String(first.2)
            lanLine = lines[1]
        }

        /// `/t/TOKEN` + `path`: where the page's requests go.
        func under(_ path: String) -> String { "/t/\(token)" + path }

        /// The raw answer of `GET target` sent to `address` with `headers` (only its head
        /// when `headOnly`: the event stream never ends).
        func get(_ target: String, address: String = "127.0.0.2", host: String? = nil, headers: String = "",
                 headOnly: Bool = false) -> String {
            let host = host ?? "\(address):\(port)"
            return PlayLANTests.request(address: address, port: port,
                                        "GET \(target) HTTP/1.1\r\nHost: \(host)\r\n\(headers)Connection: close\r\n\r\n",
                                        headOnly: headOnly)
        }

        /// The raw answer of `POST target` with `body`, from the LAN page's origin.
        func post(_ target: String, _ body: String, headers: String = "") -> String {
            PlayLANTests.request(address: "127.0.0.2", port: port,
                                 "POST \(target) HTTP/1.1\r\nHost: 127.0.0.2:\(port)\r\nOrigin: http://127.0.0.2:\(port)\r\n"
                                 + headers + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        }
    }

    /// Whether 127.0.0.2 can be listened on (all of 127.0.0.0/8 is loopback on Linux; on
    /// macOS only 127.0.0.1 is, unless another address is added to lo0).
    static let secondLoopback: Bool = {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_addr.s_addr = inet_addr("127.0.0.2")
        return withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }()

    /// One request on its own connection to `address` (a loopback one), the whole answer
    /// (or its head only, up to the blank line).
    static func request(address: String, port: UInt16, _ text: String, headOnly: Bool = false) -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_port = port.bigEndian
        sa.sin_addr.s_addr = inet_addr(address)
        precondition(address.hasPrefix("127."), "tests talk to loopback only")
        let connected = withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return "" }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else { return "" }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {  // Connection: close — the server ends the answer by closing
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
            if headOnly, String(decoding: received, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    @Test(.enabled(if: PlayLANTests.secondLoopback, "127.0.0.2 is not a loopback address here"))
    func everyRequestNeedsTheToken() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let play = try LANPlay(["--cards", CLI.packageRoot.appendingPathComponent("examples/cards").path], directory: dir)
        defer { _ = play.process.interruptAndWait() }
        #expect(play.lanLine == "http://127.0.0.2:\(play.port)/t/\(play.token)/")
        // Then the QR code of that URL (no colour: standard output is not a terminal).
        let code = try QRCode(text: play.lanLine).terminalText()
        #expect(play.process.stdout.hasSuffix(play.lanLine + "\n" + code), "\(play.process.stdout)")
        // Without the token in the path: 403, on the LAN address and on loopback, for every
        // route — the token in the query or in a cookie (as before) counts for nothing.
        let wrong = play.token.dropLast() + (play.token.hasSuffix("0") ? "1" : "0")  // the last digit changed
        let cookie = "Cookie: cardlua_token_\(play.port)=\(play.token)\r\n"
        for target in ["/", "/state", "/events", "/cards", "/cards/0", "/export", "/nothing", "/?token=\(play.token)",
                       "/t/\(wrong)/", "/t/\(wrong)/state", "/t/\(play.token.dropLast())/", "/t/\(play.token)0/",
                       "/t//state", "/x/t/\(play.token)/", "/T/\(play.token)/", "//t/\(play.token)/"] {
            for address in ["127.0.0.2", "127.0.0.1"] {
                let answer = play.get(target, address: address)
                #expect(answer.hasPrefix("HTTP/1.1 403 ") && !answer.contains(play.token), "\(address) \(target)")
            }
        }
        for target in ["/", "/state", "/cards/0"] {
            #expect(play.get(target, headers: cookie).hasPrefix("HTTP/1.1 403 "), "cookie only: \(target)")
        }
        // With it: the page and every route under /t/TOKEN/, no cookie set.
        var answers: [String] = []
        let page = play.get(play.under("/"))
        answers.append(page)
        #expect(page.hasPrefix("HTTP/1.1 200 ") && page.contains("Content-Type: text/html"))
        for target in ["/state", "/scripts", "/export", "/cards", "/state?x=1"] {
            let answer = play.get(play.under(target))
            answers.append(answer)
            #expect(answer.hasPrefix("HTTP/1.1 200 "), "\(target): \(answer.prefix(80))")
        }
        let image = play.get(play.under("/cards/0"))
        answers.append(image)
        #expect(image.hasPrefix("HTTP/1.1 200 ") && image.contains("Content-Type: image/svg+xml\r\n"))
        let events = play.get(play.under("/events"), headOnly: true)
        answers.append(events)
        #expect(events.hasPrefix("HTTP/1.1 200 ") && events.contains("text/event-stream"), "\(events.prefix(80))")
        let local = play.get(play.under("/"), address: "127.0.0.1", host: "localhost:\(play.port)")
        answers.append(local)
        #expect(local.hasPrefix("HTTP/1.1 200 "))
        #expect(play.get(play.under("/nothing")).hasPrefix("HTTP/1.1 404 "))
        // The page's URL without its slash: sent to the one with it (the page's relative
        // URLs resolve under it).
        let bare = play.get(play.under(""))
        answers.append(bare)
        #expect(bare.hasPrefix("HTTP/1.1 302 ") && bare.contains("\r\nLocation: /t/\(play.token)/\r\n"), "\(bare.prefix(200))")
        // A frame request (POST) with the LAN origin.
        let post = play.post(play.under("/input"), "{\"type\":\"down\",\"t\":0.5}")
        answers.append(post)
        #expect(post.hasPrefix("HTTP/1.1 200 "), "\(post.prefix(80))")
        #expect(play.post("/input", "{\"type\":\"down\",\"t\":0.6}", headers: cookie).hasPrefix("HTTP/1.1 403 "))
        // No answer ever sets a cookie: a browser would send it to every port of the host.
        for answer in answers {
            let head = answer.components(separatedBy: "\r\n\r\n")[0].lowercased()
            #expect(!head.contains("set-cookie"), "\(head)")
        }
    }

    /// The page works under the LAN URL: every request it makes is by a URL relative to
    /// itself (so under /t/TOKEN/, with the token), and each of those routes answers there.
    @Test(.enabled(if: PlayLANTests.secondLoopback, "127.0.0.2 is not a loopback address here"))
    func thePageAsksEverythingUnderItsOwnURL() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("effects")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.script("effects/icarousel-cylinder.lua"),
                                         toPath: folder.appendingPathComponent("a.lua").path)
        try FileManager.default.copyItem(atPath: CLI.script("lol.lua"), toPath: folder.appendingPathComponent("b.lua").path)
        let play = try LANPlay(["--cards", CLI.packageRoot.appendingPathComponent("examples/cards").path],
                               script: "effects", directory: dir)
        defer { _ = play.process.interruptAndWait() }
        let page = play.get(play.under("/"))
        #expect(page.hasPrefix("HTTP/1.1 200 "))
        // No request to an absolute path: fetch, EventSource and the image URLs.
        for absolute in [#"fetch(""#, #"fetch('/"#, #"EventSource(""#, #"EventSource('/"#, #"src="/"#, #"href="/"#] {
            #expect(!page.contains(absolute + (absolute.hasSuffix("\"") ? "/" : "")), "the page asks \(absolute)…")
        }
        // The routes the page names (here("/x") and enqueued paths), each asked under the prefix.
        let named = Set(page.matches(of: /(?:here\(|path: )"\/([a-z]+)/).map { String($0.1) })
        #expect(named == ["cards", "export", "scripts", "events", "state", "input", "params", "frames", "reload", "record",
                          "script"],
                "\(named.sorted())")
        let bodies = ["input": #"{"type":"down","t":0.5}"#, "params": #"{"t":0.6,"name":"spacing","value":2}"#,
                      "frames": "{}", "reload": #"{"t":0.65}"#, "record": #"{"t":0.7,"action":"start"}"#, "script": #"{"t":0.8,"name":"b.lua"}"#]
        for route in named.sorted() {
            let target = play.under("/" + route + (route == "frames" ? "?now=1&until=1.1" : ""))
            let answer = bodies[route].map { play.post(target, $0) } ?? play.get(target, headOnly: route == "events")
            #expect(answer.hasPrefix("HTTP/1.1 200 "), "\(route): \(answer.prefix(120))")
        }
        // The card images the listing gives resolve under the page's URL too.
        let list = try PlayServer.json(play.get(play.under("/cards")))
        let first = try #require((list["images"] as? [String])?.first)
        #expect(first == "cards/0")
        #expect(play.get(play.under("/" + first)).hasPrefix("HTTP/1.1 200 "))
    }

    @Test(.enabled(if: PlayLANTests.secondLoopback, "127.0.0.2 is not a loopback address here"))
    func foreignHostsAndOriginsAreRefusedEvenWithTheToken() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let play = try LANPlay(directory: dir)
        defer { _ = play.process.interruptAndWait() }
        for host in ["evil.example:\(play.port)", "127.0.0.2:1", "127.0.0.3:\(play.port)", "127.0.0.2"] {
            let answer = play.get(play.under("/"), host: host)
            #expect(answer.hasPrefix("HTTP/1.1 403 ") && answer.contains("Host must be"), "\(host)")
        }
        let body = "{\"type\":\"down\",\"t\":0.5}"
        let post = Self.request(address: "127.0.0.2", port: play.port,
                                "POST \(play.under("/input")) HTTP/1.1\r\nHost: 127.0.0.2:\(play.port)\r\n"
                                + "Origin: http://evil.example\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        #expect(post.hasPrefix("HTTP/1.1 403 ") && post.contains("cross-origin"), "\(post.prefix(80))")
    }

    /// Without `--lan`: loopback only, no token asked, nothing on 127.0.0.2.
    @Test func withoutLANNothingChanges() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try PlayServer([CLI.script("lol.lua")], directory: dir)
        defer { _ = server.process.interruptAndWait() }
        #expect(server.process.stdout == "http://127.0.0.1:\(server.port)/\n")
        let page = server.get("/")
        #expect(page.hasPrefix("HTTP/1.1 200 ") && !page.contains("Set-Cookie"))
        #expect(server.get("/state").hasPrefix("HTTP/1.1 200 "))
        #expect(Self.request(address: "127.0.0.2", port: server.port,
                             "GET / HTTP/1.1\r\nHost: 127.0.0.2:\(server.port)\r\nConnection: close\r\n\r\n") == "")
    }

    @Test func badLANOptionsAreUsageErrors() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (extra, message) in [(["--lan-address", "127.0.0.2"], "--lan-address needs --lan"),
                                 (["--lan", "--lan-address", "127.0.0"], "expected an IPv4 address"),
                                 (["--lan", "--lan-address", "127.0.0.256"], "expected an IPv4 address")] {
            let result = try CLI.run(["play", CLI.script("lol.lua"), "--port", "0"] + extra, timeout: 20, directory: dir)
            #expect(result.status == 2 && result.stderr.contains(message), "\(extra): \(result.stderr)")
        }
        // Not in the help: a testing option.
        let help = try CLI.run(["play", "--help"])
        #expect(help.stdout.contains("--lan ") && !help.stdout.contains("--lan-address"))
    }

    /// The LAN address found is an IPv4 address off loopback (or none, on a machine
    /// without a network); nothing is sent to it.
    @Test func theLANAddressIsNotLoopback() throws {
        guard let address = LANAccess.findAddress() else { return }
        let parts = address.split(separator: ".").compactMap { UInt8($0) }
        #expect(parts.count == 4 && parts[0] != 127, "\(address)")
    }

    @Test func tokensAreRandomAndComparedWhole() {
        let a = LANAccess.newToken(), b = LANAccess.newToken()
        #expect(a.count == 32 && a != b && a.allSatisfy { $0.isHexDigit })
        #expect(LANAccess.same(a, a) && !LANAccess.same(a, b) && !LANAccess.same(a, String(a.dropLast())))
    }
}
