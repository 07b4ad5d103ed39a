/// One accepted client connection. Owned and touched only by the server's event loop
/// thread, so it needs no locking.
final class ServerConnection {
    let fd: Int32
    /// Never reused (a descriptor is): names the connection to a later ``HTTPReply``.
    let serial: Int
    var parser: HTTPRequestParser
    /// Bytes queued for the client; `outputOffset` of them already sent.
    private(set) var output: [UInt8] = []
    private(set) var outputOffset = 0
    /// The connection answered with an event stream and now only receives events.
    var isStream = false
    /// Close once `output` is sent (error, `Connection: close`, end of input).
    var closeAfterFlush = false
    /// The client closed its sending side.
    var readClosed = false
    /// Parsing stopped because too much output was queued; resumes when it drains.
    var parsingPaused = false
    /// A request was handed to work elsewhere; its answer comes through an ``HTTPReply``.
    var awaitingReply = false
    /// `100 Continue` was sent for the current request.
    var continueSent = false
    /// Last time a byte was read or written (idle timeout).
    var lastActivity: Double
    /// When the current request began (first byte, or accept for a new connection), nil
    /// between requests (header deadline).
    var requestStarted: Double?

    init(fd: Int32, serial: Int, now: Double, limits: HTTPRequestParser.Limits) {
        self.fd = fd
        self.serial = serial
        self.parser = HTTPRequestParser(limits: limits)
        self.lastActivity = now
        self.requestStarted = now
    }

    var pendingOutput: Int { output.count - outputOffset }

    func enqueue(_ bytes: [UInt8]) {
        if outputOffset > 0 && outputOffset * 2 >= output.count {
            output.removeSubrange(0..<outputOffset)
            outputOffset = 0
        }
        output.append(contentsOf: bytes)
    }

    /// Marks `count` bytes sent; drops the buffer (and large capacity) once all are.
    func consumed(_ count: Int) {
        outputOffset += count
        if outputOffset == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
            outputOffset = 0
        }
    }
}
