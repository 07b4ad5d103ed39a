import CardServe

/// The header fields every answer of `play` carries beside its own (a field the answer
/// already has is kept).
///
/// - `X-Content-Type-Options: nosniff`: a browser takes each answer as the type it is
///   labelled, never sniffs a card image or a JSON answer into HTML or script.
/// - `Referrer-Policy: no-referrer`: with `--lan` every URL of the page carries the
///   session's token in its path; no request the page makes passes it on.
/// - `Cache-Control: no-store`: the page, the state and the frames are live; nothing is
///   kept on disk (a card image keeps its own `no-cache`, ``CardsFolder``).
/// - The page only: `Content-Security-Policy: frame-ancestors 'none'` and
///   `X-Frame-Options: DENY` (older browsers), so no other site can show the playground
///   in a frame and trick clicks onto it. No further policy on the page: its own script
///   and style are inline, so a script policy would add nothing but `'unsafe-inline'`.
enum PlayHeaders {
    static func added(to response: HTTPResponse) -> HTTPResponse {
        var headers = response.headers
        func fallback(_ name: String, _ value: String) {
            if !headers.contains(name) { headers.add(name, value) }
        }
        fallback("X-Content-Type-Options", "nosniff")
        fallback("Referrer-Policy", "no-referrer")
        fallback("Cache-Control", "no-store")
        if headers["Content-Type"]?.hasPrefix("text/html") == true {
            fallback("Content-Security-Policy", "frame-ancestors 'none'")
            fallback("X-Frame-Options", "DENY")
        }
        var answer = response
        answer.headers = headers
        return answer
    }
}
