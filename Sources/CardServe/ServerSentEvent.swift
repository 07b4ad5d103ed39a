/// Encoding of Server-Sent Events messages (the `text/event-stream` format).
package enum ServerSentEvent {
    /// One event: an optional `event:` line, one `data:` line per line of `data` (CRLF, CR
    /// and LF all split lines), and the blank line that ends the event. CR and LF in
    /// `event` are replaced by spaces so a name cannot inject fields.
    ///
    /// `encode(event: "reload", data: "a\nb")` is `"event: reload\ndata: a\ndata: b\n\n"`.
    package static func encode(event: String? = nil, data: String) -> [UInt8] {
        var text = ""
        if let event {
            text += "event: " + String(event.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? " " : $0 }) + "\n"
        }
        var line = ""
        for ch in data {
            if ch == "\r\n" || ch == "\r" || ch == "\n" {
                text += "data: " + line + "\n"
                line = ""
            } else {
                line.append(ch)
            }
        }
        text += "data: " + line + "\n\n"
        return Array(text.utf8)
    }

    /// A comment line (ignored by `EventSource`), used as a heartbeat so idle proxies and
    /// the page can tell the stream is alive.
    package static func comment(_ text: String = "") -> [UInt8] {
        let flat = String(text.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? " " : $0 })
        return Array((":" + (flat.isEmpty ? "" : " " + flat) + "\n\n").utf8)
    }

    /// A `retry:` field telling `EventSource` how long to wait before reconnecting.
    package static func retry(milliseconds: Int) -> [UInt8] {
        Array("retry: \(max(0, milliseconds))\n\n".utf8)
    }
}
