import Testing

@testable import CardServe

@Suite struct ResponseTests {
    @Test func plainResponseHasContentLength() {
        let bytes = HTTPResponse.text("hé").serialized(keepAlive: true)
        #expect(String(decoding: bytes, as: UTF8.self)
            == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 3\r\nConnection: keep-alive\r\n\r\nhé")
    }

    @Test func headKeepsTheLengthAndDropsTheBody() {
        let text = String(decoding: HTTPResponse.text("hello").serialized(headOnly: true, keepAlive: false), as: UTF8.self)
        #expect(text.hasSuffix("Content-Length: 5\r\nConnection: close\r\n\r\n"))
    }

    @Test func framingFieldsFromTheHandlerAreReplacedAndValuesCannotSplitTheHead() {
        var response = HTTPResponse.text("ab")
        response.headers.add("Content-Length", "999")
        response.headers.add("Transfer-Encoding", "chunked")
        response.headers.add("X-Evil", "a\r\nSet-Cookie: x=1")
        let text = String(decoding: response.serialized(), as: UTF8.self)
        #expect(!text.contains("999") && !text.contains("chunked"))
        #expect(text.contains("X-Evil: a  Set-Cookie: x=1\r\n") || text.contains("X-Evil: a Set-Cookie: x=1\r\n"))
        #expect(text.components(separatedBy: "\r\n").filter { $0.hasPrefix("Set-Cookie") }.isEmpty)
    }

    @Test func noContentHasNoLengthOrBody() {
        let text = String(decoding: HTTPResponse(status: 204, body: [1, 2]).serialized(), as: UTF8.self)
        #expect(text == "HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n")
    }

    @Test func eventStreamHeadHasNoLength() {
        let text = String(decoding: HTTPResponse.eventStream(initial: ServerSentEvent.retry(milliseconds: 500)).serialized(), as: UTF8.self)
        #expect(text == "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-store\r\nConnection: keep-alive\r\n\r\nretry: 500\n\n")
    }

    @Test func serverSentEventEncoding() {
        #expect(String(decoding: ServerSentEvent.encode(event: "reload", data: "a\nb\r\nc\rd"), as: UTF8.self)
            == "event: reload\ndata: a\ndata: b\ndata: c\ndata: d\n\n")
        #expect(String(decoding: ServerSentEvent.encode(data: ""), as: UTF8.self) == "data: \n\n")
        #expect(String(decoding: ServerSentEvent.encode(event: "x\ny", data: "1"), as: UTF8.self) == "event: x y\ndata: 1\n\n")
        #expect(String(decoding: ServerSentEvent.comment("heartbeat"), as: UTF8.self) == ": heartbeat\n\n")
    }

    @Test func headersLookUpAnyCase() {
        var headers = HTTPHeaders([("Content-Type", "a"), ("X-A", "1"), ("x-a", "2")])
        #expect(headers["content-type"] == "a")
        #expect(headers.values(for: "X-a") == ["1", "2"])
        headers.set("X-A", "3")
        #expect(headers.values(for: "x-a") == ["3"])
        #expect(headers.count == 2)
    }
}

@Suite struct RequestPolicyTests {
    let policy = RequestPolicy(port: 4321)

    func request(_ method: String, host: String?, origin: String? = nil) -> HTTPRequest {
        var headers = HTTPHeaders()
        if let host { headers.add("Host", host) }
        if let origin { headers.add("Origin", origin) }
        return HTTPRequest(method: method, target: "/", headers: headers)
    }

    @Test func loopbackHostsPass() {
        #expect(policy.verdict(for: request("GET", host: "127.0.0.1:4321")) == .allow)
        #expect(policy.verdict(for: request("GET", host: "LocalHost:4321")) == .allow)
        #expect(policy.verdict(for: request("HEAD", host: "localhost:4321")) == .allow)
    }

    @Test func foreignHostsAreForbidden() {
        for host in ["evil.example:4321", "127.0.0.1:4322", "127.0.0.1", "localhost", "[::1]:4321", "127.0.0.1:4321.evil"] {
            #expect(policy.verdict(for: request("GET", host: host)) == .forbiddenHost, "\(host)")
        }
        #expect(policy.verdict(for: request("GET", host: nil)) == .forbiddenHost)
        #expect(policy.rejection(for: request("GET", host: "evil:4321"))?.status == 403)
    }

    @Test func otherMethodsAreNotAllowed() {
        for method in ["PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"] {
            #expect(policy.verdict(for: request(method, host: "127.0.0.1:4321")) == .methodNotAllowed)
        }
        let response = policy.rejection(for: request("DELETE", host: "127.0.0.1:4321"))
        #expect(response?.status == 405)
        #expect(response?.headers["Allow"] == "GET, HEAD, POST")
    }

    @Test func postFromAnotherOriginIsForbidden() {
        let host = "127.0.0.1:4321"
        #expect(policy.verdict(for: request("POST", host: host)) == .allow)  // no Origin: curl
        #expect(policy.verdict(for: request("POST", host: host, origin: "http://127.0.0.1:4321")) == .allow)
        #expect(policy.verdict(for: request("POST", host: host, origin: "http://localhost:4321")) == .allow)
        for origin in ["http://evil.example", "null", "https://127.0.0.1:4321", "http://127.0.0.1:4322", "http://localhost:4321.evil"] {
            #expect(policy.verdict(for: request("POST", host: host, origin: origin)) == .forbiddenOrigin, "\(origin)")
        }
        // A GET from another origin is only reading; the browser keeps the answer from it.
        #expect(policy.verdict(for: request("GET", host: host, origin: "http://evil.example")) == .allow)
    }
}

/// A server that also listens on a LAN address (`cardlua play --lan`): that address with
/// the port is one more Host (and same-origin Origin) that passes; nothing else changes.
@Suite struct ExtraHostPolicyTests {
    let policy = RequestPolicy(port: 4321, extraHosts: ["192.168.1.20:4321"])

    func request(_ method: String, host: String, origin: String? = nil) -> HTTPRequest {
        var headers = HTTPHeaders()
        headers.add("Host", host)
        if let origin { headers.add("Origin", origin) }
        return HTTPRequest(method: method, target: "/", headers: headers)
    }

    @Test func theExtraHostPasses() {
        #expect(policy.verdict(for: request("GET", host: "192.168.1.20:4321")) == .allow)
        #expect(policy.verdict(for: request("GET", host: "127.0.0.1:4321")) == .allow)
        #expect(policy.verdict(for: request("POST", host: "192.168.1.20:4321", origin: "http://192.168.1.20:4321")) == .allow)
    }

    @Test func othersAreStillForbidden() {
        for host in ["192.168.1.21:4321", "192.168.1.20:4322", "192.168.1.20", "evil.example:4321"] {
            #expect(policy.verdict(for: request("GET", host: host)) == .forbiddenHost, "\(host)")
        }
        #expect(policy.verdict(for: request("POST", host: "192.168.1.20:4321", origin: "http://evil.example"))
                == .forbiddenOrigin)
        #expect(RequestPolicy(port: 4321).verdict(for: request("GET", host: "192.168.1.20:4321")) == .forbiddenHost)
    }

    @Test func aBadListenAddressIsRefused() {
        var configuration = LoopbackServer.Configuration()
        configuration.address = "192.168.1"
        #expect(throws: LoopbackServer.Failure.self) { _ = try LoopbackServer(configuration: configuration) { _ in .status(200) } }
    }
}
