import Testing

@testable import CardServe

/// What a byte stream parses to: the requests in order, then an error, a partial
/// request, or a clean end.
struct ParseOutcome: Equatable {
    var requests: [HTTPRequest] = []
    var error: HTTPParseError?
    /// A request was begun and not finished (no error yet).
    var partial = false
}

/// Feeds `chunks` one at a time, draining `next()` after each.
func parseChunks(_ chunks: [[UInt8]], limits: HTTPRequestParser.Limits = .init()) -> ParseOutcome {
    var parser = HTTPRequestParser(limits: limits)
    var outcome = ParseOutcome()
    for chunk in chunks {
        parser.append(chunk)
        drain: while true {
            switch parser.next() {
            case .request(let request): outcome.requests.append(request)
            case .needMoreData: break drain
            case .error(let error):
                outcome.error = error
                return outcome
            }
        }
    }
    outcome.partial = parser.hasPartialRequest
    return outcome
}

func parseWhole(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> ParseOutcome {
    parseChunks([Array(text.utf8)], limits: limits)
}

/// The error a request text ends in (nil if it parses cleanly).
func parseError(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> HTTPParseError? {
    parseWhole(text, limits: limits).error
}

let host = "Host: 127.0.0.1:8080\r\n"

@Suite struct ParserTests {
    @Test func parsesAGetWithHeaders() throws {
        let outcome = parseWhole("GET /frame?t=0.5&name=a%20b+c HTTP/1.1\r\nHost: localhost:9\r\nX-Thing:  two words \t\r\n\r\n")
        #expect(outcome.error == nil && !outcome.partial)
        let request = try #require(outcome.requests.first)
        #expect(request.method == "GET")
        #expect(request.target == "/frame?t=0.5&name=a%20b+c")
        #expect(request.path == "/frame")
        #expect(request.query == "t=0.5&name=a%20b+c")
        #expect(request.queryValue("t") == "0.5")
        #expect(request.queryValue("name") == "a b c")
        #expect(request.minorVersion == 1)
        #expect(request.headers["host"] == "localhost:9")
        #expect(request.headers["X-THING"] == "two words")  // surrounding spaces and tab trimmed
        #expect(request.body.isEmpty)
        #expect(request.wantsKeepAlive)
    }

    @Test func parsesAPostBodyAndPipelinedRequests() {
        let text = "POST /input HTTP/1.1\r\n\(host)Content-Length: 11\r\n\r\nhello world"
            + "GET /a HTTP/1.0\r\nConnection: close\r\n\r\n"
            + "\r\nGET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /c"
        let outcome = parseWhole(text)
        #expect(outcome.requests.map(\.target) == ["/input", "/a", "/b"])
        #expect(outcome.requests[0].bodyText == "hello world")
        #expect(outcome.requests[1].minorVersion == 0 && !outcome.requests[1].wantsKeepAlive)
        #expect(outcome.requests[2].wantsKeepAlive)
        #expect(outcome.partial)  // "GET /c" waits for the rest
        #expect(outcome.error == nil)
    }

    @Test func keepAliveFollowsVersionAndConnection() {
        #expect(parseWhole("GET / HTTP/1.1\r\n\(host)Connection: Upgrade, CLOSE\r\n\r\n").requests[0].wantsKeepAlive == false)
        #expect(parseWhole("GET / HTTP/1.0\r\n\r\n").requests[0].wantsKeepAlive == false)
    }

    /// Each error kind, from a request that shows only that fault.
    @Test(arguments: [
        ("GARBAGE\r\n\r\n", HTTPParseError.malformedRequestLine),
        ("GET /\r\n\r\n", .malformedRequestLine),
        ("GET  / HTTP/1.1\r\n\r\n", .malformedRequestLine),
        ("GET / HTTP/1.1 \r\n\r\n", .malformedRequestLine),
        ("GET / HTTQ/1.1\r\n\r\n", .malformedRequestLine),
        ("GET / HTTP/1.10\r\n\r\n", .malformedRequestLine),
        ("G(T / HTTP/1.1\r\n\(host)\r\n", .invalidMethod),
        ("GE\u{7F}T / HTTP/1.1\r\n\r\n", .invalidMethod),
        ("BREW / HTTP/1.1\r\n\(host)\r\n", .methodNotImplemented("BREW")),
        ("get / HTTP/1.1\r\n\(host)\r\n", .methodNotImplemented("get")),
        ("GET http://evil/ HTTP/1.1\r\n\(host)\r\n", .invalidTarget),
        ("GET /a\u{7F}b HTTP/1.1\r\n\(host)\r\n", .invalidTarget),
        ("GET / HTTP/2.0\r\n\(host)\r\n", .unsupportedVersion),
        ("GET / HTTP/1.2\r\n\(host)\r\n", .unsupportedVersion),
        ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\n\(host)NoColon\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\n\(host): empty name\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\n\(host)X: a\u{01}b\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\n\(host)X: a\r\n folded\r\n\r\n", .obsoleteLineFolding),
        ("GET / HTTP/1.1\r\n\(host)X: a\r\n\tfolded\r\n\r\n", .obsoleteLineFolding),
        ("GET /\0 HTTP/1.1\r\n\r\n", .nulByte),
        ("GET / HTTP/1.1\r\n\(host)X: a\0b\r\n\r\n", .nulByte),
        ("GET / HTTP/1.1\rX\r\n", .bareCarriageReturn),
        ("GET / HTTP/1.1\r\n\(host)X: a\rb\r\n\r\n", .bareCarriageReturn),
        ("GET / HTTP/1.1\n\(host)\r\n", .bareLineFeed),
        ("GET / HTTP/1.1\r\n\(host)\n", .bareLineFeed),
        ("GET / HTTP/1.1\r\n\r\n", .missingHost),
        ("GET / HTTP/1.1\r\n\(host)\(host)\r\n", .duplicateHost),
        ("POST / HTTP/1.1\r\n\(host)Content-Length: -1\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\n\(host)Content-Length: abc\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\n\(host)Content-Length:\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\n\(host)Content-Length: +5\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\n\(host)Content-Length: 5, 5\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\n\(host)Content-Length: 99999999999999999999\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\n\(host)Content-Length: 5\r\ncontent-length: 5\r\n\r\n", .duplicateContentLength),
        ("POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n", .lengthRequired),
        ("POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", .conflictingFraming),
        ("POST / HTTP/1.1\r\n\(host)Content-Length: 65537\r\n\r\n", .bodyTooLarge),
    ])
    func rejects(_ text: String, _ expected: HTTPParseError) {
        #expect(parseError(text) == expected)
    }

    @Test func statusOfEachErrorKind() {
        // The mapping the server answers with, written out by hand from RFC 9110.
        let expected: [(HTTPParseError, Int)] = [
            (.malformedRequestLine, 400), (.invalidMethod, 400), (.methodNotImplemented("X"), 501),
            (.invalidTarget, 400), (.requestLineTooLong, 414), (.unsupportedVersion, 505),
            (.malformedHeader, 400), (.obsoleteLineFolding, 400), (.headerBlockTooLarge, 431),
            (.tooManyHeaders, 431), (.nulByte, 400), (.bareCarriageReturn, 400), (.bareLineFeed, 400),
            (.missingHost, 400), (.duplicateHost, 400), (.invalidContentLength, 400),
            (.duplicateContentLength, 400), (.lengthRequired, 411), (.conflictingFraming, 400),
            (.bodyTooLarge, 413), (.truncated, 400),
        ]
        for (error, status) in expected { #expect(error.status == status, "\(error)") }
    }

    @Test func http10NeedsNoHost() {
        #expect(parseWhole("GET / HTTP/1.0\r\n\r\n").requests.count == 1)
    }

    @Test func bodyLimitIsInclusive() {
        let body = String(repeating: "x", count: 64 * 1024)
        let outcome = parseWhole("POST / HTTP/1.1\r\n\(host)Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(outcome.requests.first?.body.count == 64 * 1024)
    }

    @Test func requestLineLimitFailsBeforeTheLineEnds() {
        let ok = "GET /" + String(repeating: "a", count: 8192 - 14) + " HTTP/1.1"  // exactly 8192
        #expect(ok.utf8.count == 8192)
        #expect(parseWhole(ok + "\r\n\(host)\r\n").requests.count == 1)
        let long = "GET /" + String(repeating: "a", count: 8192 - 13) + " HTTP/1.1"  // 8193
        #expect(parseError(long + "\r\n\(host)\r\n") == .requestLineTooLong)
        // No CRLF ever arrives: the parser refuses once the limit is passed.
        #expect(parseError("GET /" + String(repeating: "a", count: 9000)) == .requestLineTooLong)
    }

    @Test func headerBlockLimit() {
        // 16 KiB counts every header line with its CRLF and the final empty line.
        let filler = String(repeating: "v", count: 1000)
        let twenty = (0..<20).map { "X-\($0): \(filler)\r\n" }.joined()
        #expect(parseError("GET / HTTP/1.1\r\n\(host)\(twenty)\r\n") == .headerBlockTooLarge)
        // Exactly 16384 bytes: Host line (22) + final CRLF (2) + one line of 16360.
        let fill = "X: " + String(repeating: "v", count: 16360 - 5) + "\r\n"
        #expect(host.utf8.count + fill.utf8.count + 2 == 16384)
        #expect(parseWhole("GET / HTTP/1.1\r\n\(host)\(fill)\r\n").requests.count == 1)
        let over = "X: " + String(repeating: "v", count: 16360 - 4) + "\r\n"
        #expect(parseError("GET / HTTP/1.1\r\n\(host)\(over)\r\n") == .headerBlockTooLarge)
        // A header line that never ends fails too.
        #expect(parseError("GET / HTTP/1.1\r\nX: " + String(repeating: "v", count: 20000)) == .headerBlockTooLarge)
    }

    @Test func headerCountLimit() {
        let ninetyNine = (0..<99).map { "X-\($0): v\r\n" }.joined()
        #expect(parseWhole("GET / HTTP/1.1\r\n\(host)\(ninetyNine)\r\n").requests.first?.headers.count == 100)
        #expect(parseError("GET / HTTP/1.1\r\n\(host)\(ninetyNine)X-99: v\r\n\r\n") == .tooManyHeaders)
    }

    @Test func truncatedInputIsReportedAtTheEnd() {
        for text in ["GET / HTTP/1.1\r\n\(host)", "POST / HTTP/1.1\r\n\(host)Content-Length: 5\r\n\r\nabc", "GE"] {
            var parser = HTTPRequestParser()
            parser.append(Array(text.utf8))
            #expect(parser.next() == .needMoreData)
            #expect(parser.finish() == .truncated)
            #expect(parser.next() == .error(.truncated))  // the parser stays failed
        }
        var clean = HTTPRequestParser()
        clean.append(Array("GET / HTTP/1.0\r\n\r\n".utf8))
        guard case .request = clean.next() else {
            Issue.record("expected a request")
            return
        }
        #expect(clean.finish() == nil)
    }

    @Test func aFailedParserStaysFailed() {
        var parser = HTTPRequestParser()
        parser.append(Array("BAD\r\n\r\n".utf8))
        #expect(parser.next() == .error(.malformedRequestLine))
        parser.append(Array("GET / HTTP/1.0\r\n\r\n".utf8))
        #expect(parser.next() == .error(.malformedRequestLine))
        #expect(parser.hasFailed)
    }

    /// Inputs covering every state, valid and not.
    static let splitInputs: [String] = [
        "GET / HTTP/1.1\r\n\(host)\r\n",
        "POST /input HTTP/1.1\r\n\(host)Content-Length: 11\r\n\r\nhello world",
        "\r\nGET /a HTTP/1.0\r\n\r\nPOST /b HTTP/1.1\r\n\(host)Content-Length: 3\r\n\r\nxyzGET /c HTTP/1.1\r\n\(host)\r\n",
        "GET / HTTP/1.1\r\n\(host)X: a\r\n folded\r\n\r\n",
        "GET / HTTP/1.1\r\n\(host)X: a\rb\r\n\r\n",
        "GET / HTTP/1.1\r\n\(host)X: a\0b\r\n\r\n",
        "GET / HTTP/1.1\n",
        "POST / HTTP/1.1\r\n\(host)Content-Length: 65537\r\n\r\n",
        "POST / HTTP/1.1\r\n\(host)Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello",
        "BREW / HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\n\(host)Content-Length: 4\r\n\r\nab",
    ]

    @Test(arguments: splitInputs)
    func oneByteAtATimeMatchesWholeInput(_ text: String) {
        let bytes = Array(text.utf8)
        let whole = parseChunks([bytes])
        #expect(whole.requests.count + (whole.error == nil ? 0 : 1) + (whole.partial ? 1 : 0) > 0)
        #expect(parseChunks(bytes.map { [$0] }) == whole)
    }

    @Test(arguments: splitInputs)
    func everyTwoWaySplitMatchesWholeInput(_ text: String) {
        let bytes = Array(text.utf8)
        let whole = parseChunks([bytes])
        for cut in 0...bytes.count {
            #expect(parseChunks([Array(bytes[..<cut]), Array(bytes[cut...])]) == whole, "cut at \(cut)")
        }
    }

    @Test func incrementalResultsAreTheExpectedOnes() {
        // Hand-checked outcomes of three of the split inputs.
        let pipelined = parseWhole(Self.splitInputs[2])
        #expect(pipelined.requests.map(\.target) == ["/a", "/b", "/c"])
        #expect(pipelined.requests[1].bodyText == "xyz")
        #expect(parseWhole(Self.splitInputs[3]).error == .obsoleteLineFolding)
        #expect(parseWhole(Self.splitInputs[10]).partial)
    }
}

@Suite struct ParserContinueTests {
    @Test func expectsContinueOnlyWhileTheBodyIsMissing() {
        var parser = HTTPRequestParser()
        parser.append(Array("POST / HTTP/1.1\r\n\(host)Expect: 100-Continue\r\nContent-Length: 2\r\n\r\n".utf8))
        #expect(parser.next() == .needMoreData)
        #expect(parser.expectsContinue)
        parser.append(Array("ok".utf8))
        guard case .request(let request) = parser.next() else {
            Issue.record("expected a request")
            return
        }
        #expect(request.bodyText == "ok")
        #expect(!parser.expectsContinue)
        var plain = HTTPRequestParser()
        plain.append(Array("POST / HTTP/1.1\r\n\(host)Content-Length: 2\r\n\r\n".utf8))
        #expect(plain.next() == .needMoreData)
        #expect(!plain.expectsContinue)
    }
}
