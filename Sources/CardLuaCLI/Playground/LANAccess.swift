import CardServe
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `cardlua play --lan`: the session on a phone on the same network.
///
/// A second server listens on the machine's LAN address (``LANAccess/findAddress()``:
/// the first IPv4 address of an interface that is up and not loopback), at the same port.
/// Every request, on either address, must then carry the session's token — a random 128
/// bits from the system's CSPRNG, printed in the URL and its QR code — as the first
/// segment of its path: `http://HOST:PORT/t/TOKEN/` is the page, `/t/TOKEN/state` its
/// state, `/t/TOKEN/cards/0` an image, and so on (``admit(_:)`` takes the prefix off and
/// the routes are the same as without `--lan`); anything else is 403. The page asks for
/// everything by URLs relative to itself, so each of its requests — fetches, the event
/// stream, the images its style sheet draws — carries the prefix without any code of
/// its own.
///
/// No cookie carries the token: a browser sends a host's cookies to every port of that
/// host, so any other web server on the machine (or on the phone's view of it) would
/// receive it. A path is the page's own, and `Referrer-Policy: no-referrer`
/// (``PlayHeaders``) keeps it out of every request to elsewhere. Host and Origin are
/// checked as without `--lan`, the LAN address with the port being one more allowed Host.
struct LANAccess: Sendable {
    /// The address the second server listens on.
    let address: String
    /// The secret: 32 lower-case hex digits.
    let token: String
    /// The port, for the URLs.
    let port: UInt16

    init(address: String, port: UInt16, token: String = LANAccess.newToken()) {
        self.address = address
        self.port = port
        self.token = token
    }

    /// 128 random bits as hex, from `SystemRandomNumberGenerator` (getrandom/arc4random:
    /// the system's CSPRNG).
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }.joined()
    }

    /// The first IPv4 address of an interface that is up and not loopback, or nil.
    static func findAddress() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0,
                  let raw = entry.pointee.ifa_addr, raw.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            let host = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            return [24, 16, 8, 0].map { String(host >> UInt32($0) & 0xFF) }.joined(separator: ".")
        }
        return nil
    }

    /// The first segment of every path: `/t/TOKEN`.
    var prefix: String { "/t/\(token)" }

    /// The page's URL on the LAN address: the one to open on the phone.
    var url: String { url(host: address) }

    /// The page's URL on `host` (an address) at the port.
    func url(host: String) -> String { "http://\(host):\(port)\(prefix)/" }

    /// What a request is let in as.
    enum Admission {
        /// It carried the token: the request as the routes see it, the prefix taken off
        /// its path (`/t/TOKEN/state?x=1` → `/state?x=1`).
        case admitted(HTTPRequest)
        /// Answered at once: 403 without the token, or the page's URL with the slash it
        /// lacked (`/t/TOKEN` → `/t/TOKEN/`, so the page's relative URLs resolve under it).
        case answered(HTTPResponse)
    }

    /// Whether `request` carries the token as the first segment of its path; nothing
    /// else (the query, a cookie, a header) counts.
    func admit(_ request: HTTPRequest) -> Admission {
        let target = request.target
        let head = "/t/"
        guard target.hasPrefix(head) else { return .answered(Self.forbidden) }
        let rest = target.dropFirst(head.count)
        let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        guard Self.same(String(rest[..<end]), token) else { return .answered(Self.forbidden) }
        guard end < rest.endIndex, rest[end] == "/" else {
            var moved = HTTPResponse.status(302)
            moved.headers.add("Location", prefix + "/" + rest[end...])
            return .answered(moved)
        }
        var inner = request
        inner.target = String(rest[end...])
        return .admitted(inner)
    }

    static let forbidden = HTTPResponse.status(
        403, message: "Forbidden: open the URL cardlua play --lan printed (it carries the token)")

    /// Compares every character, so the time taken says nothing of how much matched.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }

    /// What `play` prints on standard output: the URL and its QR code (dark on light, two
    /// rows of modules per line with half blocks, a quiet zone of 4 around).
    func banner(color: Bool) -> String {
        var out = url + "\n"
        if let code = try? QRCode(text: url) { out += code.terminalText(color: color) }
        return out
    }
}

