/// One parsed HTTP/1.x request: what `HTTPRequestParser` produces and a route handler reads.
package struct HTTPRequest: Sendable, Equatable {
    /// The method token as sent, case-sensitive (`GET`, `HEAD`, `POST`, …).
    package var method: String
    /// The request target as sent: an origin-form path with an optional query (`/a/b?x=1`).
    package var target: String
    /// The minor HTTP version: 0 for HTTP/1.0, 1 for HTTP/1.1.
    package var minorVersion: Int
    /// The header fields in the order received.
    package var headers: HTTPHeaders
    /// The body (exactly `Content-Length` bytes; empty without one).
    package var body: [UInt8]

    /// A request built in code (tests, or a handler calling another).
    package init(
        method: String, target: String, minorVersion: Int = 1,
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
        self.body = body
    }

    /// The target without its query: `/frame` for `/frame?t=1`.
    package var path: String {
        if let q = target.firstIndex(of: "?") { return String(target[..<q]) }
        return target
    }

    /// The raw query after `?`, or nil when there is none.
    package var query: String? {
        guard let q = target.firstIndex(of: "?") else { return nil }
        return String(target[target.index(after: q)...])
    }

    /// The query as name/value pairs in order, `+` read as a space and `%XX` decoded
    /// (a malformed escape is kept literally). `a&b=1` gives `[("a", ""), ("b", "1")]`.
    package var queryItems: [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.formDecode(parts[0])
            let value = parts.count > 1 ? Self.formDecode(parts[1]) : ""
            return (name, value)
        }
    }

    /// The first query value called `name`, decoded, or nil.
    package func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The body read as UTF-8 (invalid sequences replaced).
    package var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Whether the client lets the connection stay open after the response: HTTP/1.1
    /// unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    package var wantsKeepAlive: Bool {
        if headers.hasToken("close", in: "Connection") { return false }
        if minorVersion == 0 { return headers.hasToken("keep-alive", in: "Connection") }
        return true
    }

    private static func formDecode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            let b = utf8[i]
            if b == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else if b == UInt8(ascii: "%"), i + 2 < utf8.count,
                let hi = hexValue(utf8[i + 1]), let lo = hexValue(utf8[i + 2])
            {
                bytes.append(hi << 4 | lo)
                i += 2
            } else {
                bytes.append(b)
            }
            i += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
