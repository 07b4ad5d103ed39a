/// An incremental HTTP/1.1 request parser: bytes in, requests or a typed error out. No I/O.
///
/// Feed bytes as they arrive with `append(_:)`, then call `next()` until it answers
/// `.needMoreData`. Requests may be pipelined: bytes after one request stay buffered for
/// the next. Once `next()` reports an error the parser is spent and repeats that error
/// (the connection cannot be resynchronised and must be closed). At end of input,
/// `finish()` reports `.truncated` if a request was begun but not completed.
///
/// Strict on purpose, since anything a browser sends parses and anything ambiguous is a
/// smuggling risk: lines end in CRLF (a bare CR or LF is an error), NUL bytes are errors,
/// folded header lines are refused, bodies need exactly one plain `Content-Length` (no
/// `Transfer-Encoding`), HTTP/1.1 needs exactly one `Host`. The parser is a value type;
/// one per connection.
package struct HTTPRequestParser: Sendable {
    /// Size limits; every check happens as bytes arrive, so an oversized request is refused
    /// before it is buffered whole.
    package struct Limits: Sendable, Equatable {
        /// Longest request line, without its CRLF (414 beyond).
        package var requestLine: Int
        /// Largest header block, in bytes including each line's CRLF and the final empty
        /// line (431 beyond).
        package var headerBlock: Int
        /// Most header fields (431 beyond).
        package var headerCount: Int
        /// Largest body (413 beyond).
        package var body: Int

        /// 8 KiB request line, 16 KiB header block, 100 fields, 64 KiB body.
        package init(requestLine: Int = 8 * 1024, headerBlock: Int = 16 * 1024,
                    headerCount: Int = 100, body: Int = 64 * 1024) {
            self.requestLine = requestLine
            self.headerBlock = headerBlock
            self.headerCount = headerCount
            self.body = body
        }
    }

    /// What `next()` found.
    package enum Output: Sendable, Equatable {
        /// A complete request (removed from the buffer).
        case request(HTTPRequest)
        /// No complete request yet; append more bytes.
        case needMoreData
        /// The input is not a valid request; the parser stays failed.
        case error(HTTPParseError)
    }

    /// The limits this parser enforces.
    package let limits: Limits

    private enum State: Sendable {
        case requestLine
        case headers
        case body(Int)
    }

    private var buffer: [UInt8] = []
    /// First unconsumed byte in `buffer`.
    private var start = 0
    /// Where the search for the next CRLF resumes (bytes before it are checked).
    private var scan = 0
    private var state: State = .requestLine
    private var failure: HTTPParseError?
    private var emptyLinesSkipped = 0
    // The request being assembled.
    private var method = ""
    private var target = ""
    private var minorVersion = 1
    private var headers = HTTPHeaders()
    private var headerBytes = 0

    /// A parser with the given limits (default: 8 KiB / 16 KiB / 100 / 64 KiB).
    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Adds received bytes to the buffer. Cheap; parsing happens in `next()`.
    package mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        guard failure == nil else { return }
        buffer.append(contentsOf: bytes)
    }

    /// Whether part of a request has arrived but not all of it (any unconsumed byte or a
    /// request line already read). Drives the server's header deadline.
    package var hasPartialRequest: Bool {
        if case .requestLine = state { return buffer.count > start }
        return true
    }

    /// Whether the head of the current request is in, it asked for `Expect: 100-continue`
    /// and its body has not fully arrived: the server should send `100 Continue` (once).
    package var expectsContinue: Bool {
        guard case .body(let length) = state, buffer.count - start < length else { return false }
        return headers.hasToken("100-continue", in: "Expect")
    }

    /// Whether the parser has failed; it then repeats its error.
    package var hasFailed: Bool { failure != nil }

    /// The input has ended: `.truncated` if a request was begun and not finished (or the
    /// earlier error if the parser had failed), nil if the input ended cleanly between
    /// requests.
    package mutating func finish() -> HTTPParseError? {
        if let failure { return failure }
        if hasPartialRequest { return fail(.truncated) }
        return nil
    }

    /// Parses one whole message at once: the request, `.needMoreData` if it is
    /// incomplete, or the error.
    package static func parse<Bytes: Sequence>(_ bytes: Bytes, limits: Limits = Limits()) -> Output
    where Bytes.Element == UInt8 {
        var parser = HTTPRequestParser(limits: limits)
        parser.append(bytes)
        return parser.next()
    }

    /// The next complete request from the buffered bytes, `.needMoreData`, or the error.
    package mutating func next() -> Output {
        if let failure { return .error(failure) }
        while true {
            switch state {
            case .requestLine:
                switch nextLine(limit: limits.requestLine, tooLong: .requestLineTooLong) {
                case .failure(let error): return .error(error)
                case .success(nil): return .needMoreData
                case .success(let line?):
                    if line.isEmpty {
                        // RFC 9112 §2.2: ignore a few empty lines before a request.
                        emptyLinesSkipped += 1
                        if emptyLinesSkipped > 8 { return .error(fail(.malformedRequestLine)) }
                        compact()
                        continue
                    }
                    if let error = readRequestLine(line) { return .error(fail(error)) }
                    state = .headers
                }
            case .headers:
                let remaining = limits.headerBlock - headerBytes - 2
                switch nextLine(limit: max(0, remaining), tooLong: .headerBlockTooLarge) {
                case .failure(let error): return .error(error)
                case .success(nil): return .needMoreData
                case .success(let line?):
                    headerBytes += line.count + 2
                    if headerBytes > limits.headerBlock { return .error(fail(.headerBlockTooLarge)) }
                    if line.isEmpty {
                        switch bodyLength() {
                        case .failure(let error): return .error(fail(error))
                        case .success(let length): state = .body(length)
                        }
                        continue
                    }
                    if let error = readHeaderLine(line) { return .error(fail(error)) }
                }
            case .body(let length):
                guard buffer.count - start >= length else { return .needMoreData }
                let body = Array(buffer[start..<(start + length)])
                start += length
                scan = start
                let request = HTTPRequest(
                    method: method, target: target, minorVersion: minorVersion,
                    headers: headers, body: body)
                reset()
                return .request(request)
            }
        }
    }

    // MARK: - Lines

    /// The next CRLF-terminated line (without CRLF), nil if it has not fully arrived.
    /// Every byte is checked once as it is scanned: NUL, bare CR and bare LF fail at once,
    /// and a line longer than `limit` fails without waiting for its end.
    private mutating func nextLine(limit: Int, tooLong: HTTPParseError) -> Result<ArraySlice<UInt8>?, HTTPParseError> {
        var i = scan
        while i < buffer.count {
            // Checked before each byte so the first fault found does not depend on how
            // the input was split.
            if i - start > limit { return .failure(fail(tooLong)) }
            let b = buffer[i]
            if b == 0 { return .failure(fail(.nulByte)) }
            if b == 0x0A { return .failure(fail(.bareLineFeed)) }
            if b == 0x0D {
                guard i + 1 < buffer.count else { break }
                guard buffer[i + 1] == 0x0A else { return .failure(fail(.bareCarriageReturn)) }
                let line = buffer[start..<i]
                start = i + 2
                scan = start
                return .success(line)
            }
            i += 1
        }
        scan = i
        if scan - start > limit { return .failure(fail(tooLong)) }
        return .success(nil)
    }

    // MARK: - Request line and headers

    private mutating func readRequestLine(_ line: ArraySlice<UInt8>) -> HTTPParseError? {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { return .malformedRequestLine }
        let (m, t, v) = (parts[0], parts[1], parts[2])

        guard m.allSatisfy(Self.isTokenByte) else { return .invalidMethod }
        let methodName = String(decoding: m, as: UTF8.self)
        guard Self.knownMethods.contains(methodName) else { return .methodNotImplemented(methodName) }

        guard t.first == UInt8(ascii: "/"), t.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .invalidTarget
        }

        let version = Array(v)
        let digit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard version.count == 8, version[0..<5].elementsEqual("HTTP/".utf8),
            digit(version[5]), version[6] == UInt8(ascii: "."), digit(version[7])
        else { return .malformedRequestLine }
        guard version[5] == UInt8(ascii: "1"), version[7] <= UInt8(ascii: "1") else {
            return .unsupportedVersion
        }

        method = methodName
        target = String(decoding: t, as: UTF8.self)
        minorVersion = Int(version[7] - UInt8(ascii: "0"))
        return nil
    }

    private mutating func readHeaderLine(_ line: ArraySlice<UInt8>) -> HTTPParseError? {
        if line.first == 0x20 || line.first == 0x09 { return .obsoleteLineFolding }
        guard headers.count < limits.headerCount else { return .tooManyHeaders }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .malformedHeader }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else { return .malformedHeader }
        var value = line[(colon + 1)...]
        while let f = value.first, f == 0x20 || f == 0x09 { value = value.dropFirst() }
        while let l = value.last, l == 0x20 || l == 0x09 { value = value.dropLast() }
        // Field values: visible ASCII, space, tab and obs-text; no other control byte.
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            return .malformedHeader
        }
        headers.add(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
        return nil
    }

    private func bodyLength() -> Result<Int, HTTPParseError> {
        let hosts = headers.values(for: "Host")
        if hosts.count > 1 { return .failure(.duplicateHost) }
        if hosts.isEmpty && minorVersion == 1 { return .failure(.missingHost) }

        let lengths = headers.values(for: "Content-Length")
        let hasTransferEncoding = headers.contains("Transfer-Encoding")
        if hasTransferEncoding { return .failure(lengths.isEmpty ? .lengthRequired : .conflictingFraming) }
        if lengths.count > 1 { return .failure(.duplicateContentLength) }
        guard let text = lengths.first else { return .success(0) }
        // Plain digits only: no sign, no list, no spaces; 18 digits cannot overflow Int.
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.count <= 18,
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return .failure(.invalidContentLength) }
        let length = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        if length > limits.body { return .failure(.bodyTooLarge) }
        return .success(length)
    }

    // MARK: - State

    private mutating func fail(_ error: HTTPParseError) -> HTTPParseError {
        failure = error
        buffer = []
        start = 0
        scan = 0
        return error
    }

    private mutating func reset() {
        state = .requestLine
        method = ""
        target = ""
        minorVersion = 1
        headers = HTTPHeaders()
        headerBytes = 0
        emptyLinesSkipped = 0
        compact()
    }

    /// Drops consumed bytes once they dominate the buffer (amortised O(1) per byte).
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            start = 0
            scan = 0
        } else if start > 4096 && start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            scan -= start
            start = 0
        }
    }

    /// The methods of RFC 9110 plus PATCH; other tokens get 501.
    static let knownMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
    ]

    /// tchar of RFC 9110 §5.6.2.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(b)
        }
    }
}
