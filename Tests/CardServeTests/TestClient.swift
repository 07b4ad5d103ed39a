import Foundation

@testable import CardServe

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking loopback client for the server tests. Every socket has send and receive
/// timeouts of `hangGuard` seconds, so a broken server fails a test instead of hanging it.
final class TestClient {
    static let hangGuard = 20.0

    let fd: Int32
    private var buffer: [UInt8] = []

    /// A response as the client saw it.
    struct Response {
        var status: Int
        var headers: [String: String]  // lower-cased names
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    init(port: UInt16) throws {
        let fd = socket(AF_INET, Socket.streamType, 0)
        guard fd >= 0 else { throw Socket.Failure(operation: "socket", code: errno) }
        var timeout = timeval(tv_sec: Int(Self.hangGuard), tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = Socket.loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw Socket.Failure(operation: "connect", code: code)
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends everything; false once the peer is gone.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                rawSend(fd, $0.baseAddress! + offset, bytes.count - offset)
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Half-closes: the server sees end of input.
    func shutdownWrite() { _ = shutdown(fd, Int32(SHUT_WR)) }

    /// Reads more bytes into the buffer; false at end of stream, error or timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            buffer += chunk[0..<n]
            return true
        }
    }

    /// Everything up to and including `marker`, or nil if the stream ends first.
    func read(until marker: String) -> String? {
        let needle = Array(marker.utf8)
        while true {
            if let range = find(needle) {
                let text = String(decoding: buffer[..<range], as: UTF8.self)
                buffer.removeSubrange(..<range)
                return text
            }
            guard fill() else { return nil }
        }
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for i in 0...(buffer.count - needle.count) where buffer[i..<(i + needle.count)].elementsEqual(needle) {
            return i + needle.count
        }
        return nil
    }

    /// One response (head and `Content-Length` body), nil if the stream ends first.
    /// `headOnly` for answers to HEAD.
    func readResponse(headOnly: Bool = false) -> Response? {
        guard let head = read(until: "\r\n\r\n") else { return nil }
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headOnly ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < length { guard fill() else { return nil } }
        let body = Array(buffer[..<length])
        buffer.removeSubrange(..<length)
        return Response(status: status, headers: headers, body: body)
    }

    /// Whether the server has closed the connection: end of stream or reset, after any
    /// bytes already buffered (which are dropped).
    func waitForClose() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { continue }
            if n < 0 && errno == EINTR { continue }
            if n == 0 { return true }
            return errno == ECONNRESET || errno == EPIPE
        }
    }
}

// `send` is shadowed by `TestClient.send` inside the class.
private func rawSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    send(fd, bytes, count, Socket.sendFlags)
}

/// A GET (or any method) request text with the Host a browser on `port` would send.
func requestText(_ method: String = "GET", _ target: String = "/", port: UInt16,
                 headers: [String] = [], body: String = "") -> String {
    var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
    for header in headers { text += header + "\r\n" }
    if !body.isEmpty { text += "Content-Length: \(body.utf8.count)\r\n" }
    return text + "\r\n" + body
}

/// One request on a new connection.
func fetch(_ port: UInt16, _ raw: String, headOnly: Bool = false) -> TestClient.Response? {
    guard let client = try? TestClient(port: port), client.send(raw) else { return nil }
    return client.readResponse(headOnly: headOnly)
}

/// Polls `condition` every 5 ms until it holds or `TestClient.hangGuard` passes.
func eventually(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(TestClient.hangGuard)
    while Date() < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}

/// A started server with the test routes; stopped by the caller.
///
/// Routes: `/` → "hello"; `/echo` → the body; `/big` → 4 MiB; `/events` → an event stream
/// that opens with `: open`.
func makeServer(_ configure: (inout LoopbackServer.Configuration) -> Void = { _ in }) throws -> LoopbackServer {
    var configuration = LoopbackServer.Configuration()
    configure(&configuration)
    let server = try LoopbackServer(configuration: configuration) { request in
        switch request.path {
        case "/": return .text("hello")
        case "/echo": return .bytes(request.body, contentType: "application/octet-stream")
        case "/big": return .bytes([UInt8](repeating: 0x61, count: 4 << 20), contentType: "text/plain")
        case "/events": return .eventStream(initial: ServerSentEvent.comment("open"))
        default: return .status(404)
        }
    }
    server.start()
    return server
}
