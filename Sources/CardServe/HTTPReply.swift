/// The answer to one request, given later: a route handler that cannot answer at once
/// (its work runs on another thread) keeps this and calls ``send(_:)`` once, from any
/// thread. Until then the connection waits (requests pipelined behind it wait too) while
/// the server goes on serving every other connection.
///
/// A reply sent after its client went away, after the server stopped, or a second time is
/// dropped.
package final class HTTPReply: @unchecked Sendable {
    // @unchecked: immutable but for `sent`, which `server` guards with its lock.
    weak var server: LoopbackServer?
    /// The connection's serial number in its server (never reused, unlike descriptors).
    let connection: Int
    let headOnly: Bool
    let keepAlive: Bool
    var sent = false

    init(server: LoopbackServer, connection: Int, headOnly: Bool, keepAlive: Bool) {
        self.server = server
        self.connection = connection
        self.headOnly = headOnly
        self.keepAlive = keepAlive
    }

    /// Answers the request with `response` (a plain response; an event stream cannot be
    /// sent later and is answered 500).
    package func send(_ response: HTTPResponse) {
        server?.deliver(self, response)
    }
}
