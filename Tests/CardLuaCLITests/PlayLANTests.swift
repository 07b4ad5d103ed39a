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

/// `play --lan`: the token on every request, the LAN address as one more Host. The LAN
/// address is stood in by 127.0.0.2 (`--lan-address`): no test sends traffic off loopback.
@Suite struct PlayLANTests {
    /// `play --lan --lan-address 127.0.0.2 --port 0`: its port and token from the first
    /// line of its output (`http://127.0.0.1:PORT/?token=T`).
    final class LANPlay {
        let process: WatchProcess
        let port: UInt16
        let token: String
        let lanLine: String

        init(_ extra: [String] = [], directory: URL) throws {
            let started = try WatchProcess(["play", CLI.script("lol.lua"), "--port", "0", "--lan", "--lan-address", "127.0.0.2"]
                                           + extra, directory: directory)
            try #require(waitUntil { started.stdout.split(separator: "\n").count >= 3 }, "stderr: \(started.stderr)")
            let lines = started.stdout.split(separator: "\n").map(String.init)
            let first = try #require(lines[0].firstMatch(of: /^http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{32})$/))
            process = started
            port = try #require(UInt16(first.1))
            token = String(first.2)
            lanLine = lines[1]
        }

        /// The raw answer of `GET target` sent to `address` with `headers`.
        func get(_ target: String, address: String = "127.0.0.2", host: String? = nil, headers: String = "") -> String {
            let host = host ?? "\(address):\(port)"
            return PlayLANTests.request(address: address, port: port,
                                        "GET \(target) HTTP/1.1\r\nHost: \(host)\r\n\(headers)Connection: close\r\n\r\n")
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

    /// One request on its own connection to `address` (a loopback one), the whole answer.
    static func request(address: String, port: UInt16, _ text: String) -> String {
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
        }
        return String(decoding: received, as: UTF8.self)
    }

    @Test(.enabled(if: PlayLANTests.secondLoopback, "127.0.0.2 is not a loopback address here"))
    func everyRequestNeedsTheToken() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let play = try LANPlay(["--cards", CLI.packageRoot.appendingPathComponent("examples/cards").path], directory: dir)
        defer { _ = play.process.interruptAndWait() }
        #expect(play.lanLine == "http://127.0.0.2:\(play.port)/?token=\(play.token)")
        // Then the QR code of that URL (no colour: standard output is not a terminal).
        let code = try QRCode(text: play.lanLine).terminalText()
        #expect(play.process.stdout.hasSuffix(play.lanLine + "\n" + code), "\(play.process.stdout)")
        // Without the token: 403, on the LAN address and on loopback, for every route.
        for target in ["/", "/state", "/events", "/cards", "/cards/0", "/export", "/nothing", "/?token=0123"] {
            #expect(play.get(target).hasPrefix("HTTP/1.1 403 "), "LAN \(target)")
            #expect(play.get(target, address: "127.0.0.1").hasPrefix("HTTP/1.1 403 "), "loopback \(target)")
        }
        // A wrong token: the last digit changed (to one it is not).
        let wrong = play.token.dropLast() + (play.token.hasSuffix("0") ? "1" : "0")
        #expect(play.get("/", headers: "Cookie: cardlua_token_\(play.port)=\(wrong)\r\n").hasPrefix("HTTP/1.1 403 "))
        // With it in the query: the page, and the cookie that carries it from then on.
        let page = play.get("/?token=\(play.token)")
        #expect(page.hasPrefix("HTTP/1.1 200 "))
        #expect(page.contains("Set-Cookie: cardlua_token_\(play.port)=\(play.token); Path=/; HttpOnly; SameSite=Strict\r\n"))
        let cookie = "Cookie: other=1; cardlua_token_\(play.port)=\(play.token)\r\n"
        #expect(play.get("/state", headers: cookie).hasPrefix("HTTP/1.1 200 "))
        #expect(play.get("/cards/0", headers: cookie).contains("Content-Type: image/svg+xml\r\n"))
        #expect(play.get("/", address: "127.0.0.1", host: "localhost:\(play.port)", headers: cookie).hasPrefix("HTTP/1.1 200 "))
        // A frame request (POST) with the cookie and the LAN origin.
        let body = "{\"type\":\"down\",\"t\":0.5}"
        let post = Self.request(address: "127.0.0.2", port: play.port,
                                "POST /input HTTP/1.1\r\nHost: 127.0.0.2:\(play.port)\r\nOrigin: http://127.0.0.2:\(play.port)\r\n"
                                + cookie + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        #expect(post.hasPrefix("HTTP/1.1 200 "), "\(post.prefix(80))")
    }

    @Test(.enabled(if: PlayLANTests.secondLoopback, "127.0.0.2 is not a loopback address here"))
    func foreignHostsAndOriginsAreRefusedEvenWithTheToken() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let play = try LANPlay(directory: dir)
        defer { _ = play.process.interruptAndWait() }
        for host in ["evil.example:\(play.port)", "127.0.0.2:1", "127.0.0.3:\(play.port)", "127.0.0.2"] {
            let answer = play.get("/?token=\(play.token)", host: host)
            #expect(answer.hasPrefix("HTTP/1.1 403 ") && answer.contains("Host must be"), "\(host)")
        }
        let body = "{\"type\":\"down\",\"t\":0.5}"
        let post = Self.request(address: "127.0.0.2", port: play.port,
                                "POST /input?token=\(play.token) HTTP/1.1\r\nHost: 127.0.0.2:\(play.port)\r\n"
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
