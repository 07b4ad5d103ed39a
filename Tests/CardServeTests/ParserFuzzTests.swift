import Testing

@testable import CardServe

/// SplitMix64: a fixed seed gives the same inputs on every run and platform.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
}

@Suite struct ParserFuzzTests {
    static let corpus: [String] = [
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
        "GET /frame?t=1.5&x=%41 HTTP/1.1\r\nHost: localhost:1\r\nAccept: */*\r\nConnection: keep-alive\r\n\r\n",
        "POST /input HTTP/1.1\r\nHost: 127.0.0.1:9\r\nOrigin: http://127.0.0.1:9\r\nContent-Length: 13\r\n\r\n{\"drag\":12.5}",
        "HEAD /index.html HTTP/1.0\r\nUser-Agent: fuzz\r\n\r\n",
        "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nokGET /b HTTP/1.1\r\nHost: h\r\n\r\n",
        // Near the small limits below: six fields, about 240 bytes of header block.
        "GET /near/the/limits HTTP/1.1\r\nHost: 127.0.0.1:65535\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64)\r\n"
            + "Accept: text/html,application/xhtml+xml\r\nAccept-Language: en-GB,en;q=0.9\r\n"
            + "Referer: http://127.0.0.1:65535/\r\nCookie: a=b\r\n\r\n",
    ]
    static let interesting: [UInt8] = Array("\r\n\0: \t/?%-0123456789HTTP/1.1GETPOSTContent-Length".utf8) + [0x7F, 0x80, 0xFF]

    static func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0...rng.below(4) {
            let at = rng.below(bytes.count + 1)
            switch rng.below(8) {
            case 0 where !bytes.isEmpty:  // flip bits
                let i = min(at, bytes.count - 1)
                bytes[i] ^= UInt8(truncatingIfNeeded: 1 << rng.below(8))
            case 1:  // insert an interesting byte
                bytes.insert(interesting[rng.below(interesting.count)], at: at)
            case 2 where !bytes.isEmpty:  // delete a run
                let end = min(bytes.count, at + 1 + rng.below(8))
                bytes.removeSubrange(min(at, bytes.count - 1)..<end)
            case 3 where !bytes.isEmpty:  // duplicate a run
                let start = min(at, bytes.count - 1)
                let end = min(bytes.count, start + 1 + rng.below(40))
                bytes.insert(contentsOf: Array(bytes[start..<end]), at: end)
            case 4:  // truncate
                bytes = Array(bytes[..<at])
            case 5:  // random bytes
                let run = (0..<rng.below(16)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                bytes.insert(contentsOf: run, at: at)
            case 6:  // a header that stresses the framing rules
                let headers = ["Content-Length: 3\r\n", "Content-Length: -7\r\n", "Transfer-Encoding: chunked\r\n",
                               "Host: x\r\n", " folded\r\n", "X:\u{01}\r\n", "Content-Length: 70000\r\n"]
                bytes.insert(contentsOf: Array(headers[rng.below(headers.count)].utf8), at: at)
            default:  // replace a byte with a random one
                if !bytes.isEmpty { bytes[min(at, bytes.count - 1)] = UInt8(truncatingIfNeeded: rng.next()) }
            }
        }
        return bytes
    }

    /// Random cut points, so the incremental paths are exercised too.
    static func split(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        var i = 0
        while i < bytes.count {
            let n = 1 + rng.below(12)
            chunks.append(Array(bytes[i..<min(bytes.count, i + n)]))
            i += n
        }
        return chunks
    }

    @Test func mutatedRequestsOnlyEverParseOrFailWithATypedError() {
        var rng = SplitMix64(state: 0xC0FFEE)
        var requests = 0
        var errors = 0
        var kinds = Set<String>()
        let small = HTTPRequestParser.Limits(requestLine: 64, headerBlock: 256, headerCount: 6, body: 16)
        for round in 0..<4000 {
            let base = Array(Self.corpus[rng.below(Self.corpus.count)].utf8)
            let input: [UInt8] = round % 10 == 9
                ? (0..<rng.below(300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }  // pure garbage
                : Self.mutate(base, &rng)
            // Small limits every third round, so the limit paths are hit often.
            let limits = round % 3 == 0 ? small : HTTPRequestParser.Limits()
            let whole = parseChunks([input], limits: limits)
            let pieces = parseChunks(Self.split(input, &rng), limits: limits)
            #expect(pieces == whole, "round \(round): incremental parse differs")
            for request in whole.requests {
                #expect(HTTPRequestParser.knownMethods.contains(request.method))
                #expect(request.target.hasPrefix("/"))
                #expect(request.minorVersion == 0 || request.minorVersion == 1)
                #expect(request.body.count == Int(request.headers["Content-Length"] ?? "0"))
                #expect(request.body.count <= limits.body)
                #expect(request.headers.count <= limits.headerCount)
            }
            requests += whole.requests.count
            errors += whole.error == nil ? 0 : 1
            if let error = whole.error { kinds.insert("\(error.status) \(error)".components(separatedBy: ":")[0]) }
        }
        // The mutations keep enough requests intact and break enough of them.
        #expect(requests > 500)
        #expect(errors > 1000)
        #expect(kinds.count >= 16)  // most error kinds are reached (18 of 21 with this seed)
    }
}
