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
/// bits from the system's CSPRNG, printed in the URL and its QR code — as `?token=` (the
/// first load; the page answer sets it as a cookie) or as that cookie (the page's own
/// fetches, its event stream, its images); anything else is 403. Host and Origin are
/// checked as without `--lan`, the LAN address with the port being one more allowed Host.
struct LANAccess: Sendable {
    /// The address the second server listens on.
    let address: String
    /// The secret: 32 lower-case hex digits.
    let token: String
    /// The port, for the cookie's name (cookies are per host, not per port).
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

    /// The URL to open on the phone.
    var url: String { "http://\(address):\(port)/?token=\(token)" }

    /// The cookie that carries the token after the first load.
    var cookieName: String { "cardlua_token_\(port)" }

    /// Nil when `request` carries the token (in the query or the cookie), else 403.
    func refusal(for request: HTTPRequest) -> HTTPResponse? {
        if let given = request.queryValue("token"), Self.same(given, token) { return nil }
        for header in request.headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName else { continue }
                if Self.same(parts[1].trimmingCharacters(in: .whitespaces), token) { return nil }
            }
        }
        return .status(403, message: "Forbidden: open the URL cardlua play --lan printed (it carries the token)")
    }

    /// `response` with the cookie set, when `request` brought the token in its query.
    func remembering(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard request.queryValue("token") != nil else { return response }
        var response = response
        response.headers.add("Set-Cookie", "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict")
        return response
    }

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

