/// A response a route handler returns: a status, header fields and a body, or the start of
/// a Server-Sent Events stream.
///
/// The server frames every response itself: a plain response always carries
/// `Content-Length` (never chunked), an event stream carries none and stays open. Fields the
/// framing owns (`Content-Length`, `Transfer-Encoding`, `Connection`, `Keep-Alive`) are
/// dropped from `headers`; a handler that wants the connection closed after its response
/// sets `closeConnection`.
package struct HTTPResponse: Sendable, Equatable {
    /// The status code, e.g. 200.
    package var status: Int
    /// Header fields, in order. CR, LF and NUL in names or values are replaced by spaces
    /// when the response is written, so a value cannot split the header block.
    package var headers: HTTPHeaders
    /// The body of a plain response; for an event stream, bytes sent right after the head
    /// (e.g. a first event or a `retry:` line made with `ServerSentEvent`).
    package var body: [UInt8]
    /// Whether this response opens a Server-Sent Events stream: the connection stays open
    /// and receives `LoopbackServer.broadcast(event:data:)` and heartbeats until either side
    /// closes it.
    package var isEventStream: Bool
    /// Close the connection after this response even if the client would keep it open.
    package var closeConnection: Bool

    /// A plain response.
    package init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
                closeConnection: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.isEventStream = false
        self.closeConnection = closeConnection
    }

    /// A UTF-8 text response (`text/plain` unless another type is given).
    package static func text(_ text: String, status: Int = 200,
                            contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", contentType)]),
                     body: Array(text.utf8))
    }

    /// An HTML page.
    package static func html(_ html: String, status: Int = 200) -> HTTPResponse {
        text(html, status: status, contentType: "text/html; charset=utf-8")
    }

    /// A JSON document (the caller encodes it).
    package static func json(_ json: String, status: Int = 200) -> HTTPResponse {
        text(json, status: status, contentType: "application/json")
    }

    /// Raw bytes with a content type.
    package static func bytes(_ body: [UInt8], contentType: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", contentType)]), body: body)
    }

    /// A short plain-text answer for a status: its reason phrase, or `message`.
    package static func status(_ status: Int, message: String? = nil) -> HTTPResponse {
        text((message ?? reasonPhrase(for: status)) + "\n", status: status)
    }

    /// The start of a Server-Sent Events stream (`text/event-stream`, `Cache-Control:
    /// no-store`); `initial` is sent right after the head.
    package static func eventStream(initial: [UInt8] = [], headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var response = HTTPResponse(status: 200, headers: headers, body: initial)
        response.isEventStream = true
        if !response.headers.contains("Content-Type") {
            response.headers.add("Content-Type", "text/event-stream; charset=utf-8")
        }
        if !response.headers.contains("Cache-Control") { response.headers.add("Cache-Control", "no-store") }
        return response
    }

    /// The standard reason phrase of a status code ("Unknown" for codes without one here).
    package static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 411: return "Length Required"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 422: return "Unprocessable Content"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Unknown"
        }
    }

    /// The bytes on the wire: status line, fields, framing, blank line and body.
    /// - Parameters:
    ///   - headOnly: answer to HEAD: the same head (with the full body's length), no body.
    ///   - keepAlive: whether the connection stays open afterwards (`Connection:` field).
    package func serialized(headOnly: Bool = false, keepAlive: Bool = true) -> [UInt8] {
        let code = (100...999).contains(status) ? status : 500
        var head = "HTTP/1.1 \(code) \(Self.reasonPhrase(for: code))\r\n"
        let framing: Set<String> = ["content-length", "transfer-encoding", "connection", "keep-alive"]
        for field in headers where !framing.contains(field.name.lowercased()) {
            head += Self.clean(field.name) + ": " + Self.clean(field.value) + "\r\n"
        }
        // No body is allowed with 1xx, 204 and 304, so no length either.
        let bodyless = code < 200 || code == 204 || code == 304
        if isEventStream && !headOnly {
            head += "Connection: keep-alive\r\n"
        } else if !bodyless {
            head += "Content-Length: \(body.count)\r\n"
        }
        if !(isEventStream && !headOnly) {
            head += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if !headOnly && !bodyless { bytes += body }
        return bytes
    }

    private static func clean(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else { return text }
        return String(text.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" || $0 == "\0" ? " " : $0 })
    }
}
