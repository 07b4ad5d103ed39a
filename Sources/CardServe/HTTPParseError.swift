/// Why a request could not be parsed, each with the status the server answers before it
/// closes the connection.
package enum HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request line is not `METHOD SP TARGET SP HTTP/x.y` (400).
    case malformedRequestLine
    /// The method is not a token (400).
    case invalidMethod
    /// The method is a token but not an HTTP method this server knows (501).
    case methodNotImplemented(String)
    /// The target is not an origin-form path of visible ASCII (400).
    case invalidTarget
    /// The request line is longer than the limit (414).
    case requestLineTooLong
    /// A well-formed version other than HTTP/1.0 or HTTP/1.1 (505).
    case unsupportedVersion
    /// A header line is not `name: value` with a token name and a printable value (400).
    case malformedHeader
    /// A header line starts with a space or tab (obsolete line folding, 400).
    case obsoleteLineFolding
    /// The header block is larger than the limit (431).
    case headerBlockTooLarge
    /// More header fields than the limit (431).
    case tooManyHeaders
    /// A NUL byte in the request head (400).
    case nulByte
    /// A CR not followed by LF (400).
    case bareCarriageReturn
    /// An LF not preceded by CR (400).
    case bareLineFeed
    /// An HTTP/1.1 request without `Host` (400).
    case missingHost
    /// More than one `Host` field (400).
    case duplicateHost
    /// `Content-Length` is not a plain decimal number (negative, empty, a list, …) (400).
    case invalidContentLength
    /// More than one `Content-Length` field (400).
    case duplicateContentLength
    /// `Transfer-Encoding` without `Content-Length`: chunked bodies are not accepted,
    /// the client must send a length (411).
    case lengthRequired
    /// Both `Transfer-Encoding` and `Content-Length` (request smuggling shape, 400).
    case conflictingFraming
    /// The declared body is larger than the limit (413).
    case bodyTooLarge
    /// The connection ended in the middle of a request (400).
    case truncated

    /// The HTTP status code this error is answered with.
    package var status: Int {
        switch self {
        case .methodNotImplemented: return 501
        case .requestLineTooLong: return 414
        case .unsupportedVersion: return 505
        case .headerBlockTooLarge, .tooManyHeaders: return 431
        case .lengthRequired: return 411
        case .bodyTooLarge: return 413
        default: return 400
        }
    }

    /// A short English explanation, used in the error response's body.
    package var description: String {
        switch self {
        case .malformedRequestLine: return "malformed request line"
        case .invalidMethod: return "invalid method"
        case .methodNotImplemented(let m): return "method not implemented: \(m)"
        case .invalidTarget: return "invalid request target"
        case .requestLineTooLong: return "request line too long"
        case .unsupportedVersion: return "unsupported HTTP version"
        case .malformedHeader: return "malformed header field"
        case .obsoleteLineFolding: return "obsolete line folding"
        case .headerBlockTooLarge: return "header block too large"
        case .tooManyHeaders: return "too many header fields"
        case .nulByte: return "NUL byte in request head"
        case .bareCarriageReturn: return "CR not followed by LF"
        case .bareLineFeed: return "LF not preceded by CR"
        case .missingHost: return "missing Host"
        case .duplicateHost: return "duplicate Host"
        case .invalidContentLength: return "invalid Content-Length"
        case .duplicateContentLength: return "duplicate Content-Length"
        case .lengthRequired: return "Transfer-Encoding is not accepted; send Content-Length"
        case .conflictingFraming: return "both Transfer-Encoding and Content-Length"
        case .bodyTooLarge: return "body too large"
        case .truncated: return "connection closed mid-request"
        }
    }
}
