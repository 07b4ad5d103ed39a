import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for the live playground.
///
/// **Design: one thread, one `poll()` loop.** The playground has one user and a handful
/// of connections (the page, its event stream, a few fetches), and every request ends
/// up in the engine, which is single-threaded anyway. A single event-loop thread owns
/// every socket and every connection's state, so there are no locks on the request path
/// and the route handler is always called on that one thread, one request at a time.
/// Sockets are non-blocking; output that does not fit the socket buffer waits in memory
/// and is sent when `poll()` reports the socket writable, so one slow client cannot stall
/// the loop. Other threads talk to the loop only through `broadcast(event:data:)` and
/// `stop()`, which take a lock, queue their work and wake the loop through a socket pair.
///
/// **Limits.** At most `maxConnections` connections (event streams included); one more
/// is accepted, told 503 and closed. A request's head and body must arrive within
/// `headerTimeout` of its first byte (of the accept, for a new connection), so a client
/// that trickles bytes (slowloris) loses its slot; a connection with nothing to do is
/// closed after `idleTimeout`. Requests are parsed by `HTTPRequestParser` with its limits;
/// a bad one is answered with the error's status and the connection is closed. Every
/// request passes `RequestPolicy` (Host, method, Origin) before the handler sees it.
///
/// **Threads.** `init` binds and listens (so `port` is known at once). `run()` serves on
/// the calling thread until `stop()`; `start()` serves on a new thread. `broadcast`,
/// `stop` and `statistics` may be called from any thread. The handler runs on the loop
/// thread; while it runs nothing else is served, so it should be quick: slow work goes to
/// another thread, and the handler answers through an ``HTTPReply`` when it is done
/// (``init(configuration:deferringHandler:)``), while the loop serves everyone else. A SIGPIPE is never
/// raised: sends use `MSG_NOSIGNAL` (Linux) or `SO_NOSIGPIPE` (Darwin).
package final class LoopbackServer: @unchecked Sendable {
    // @unchecked: the mutable state below is either guarded by `condition` (marked) or
    // touched only by the loop thread (marked); the rest is immutable.

    /// How the server listens and when it gives up on clients.
    package struct Configuration: Sendable {
        /// The port on 127.0.0.1; 0 picks a free one (read it back from `port`).
        package var port: UInt16
        /// The IPv4 address to listen on, dotted (`127.0.0.1` unless set: `cardlua play
        /// --lan` runs a second server on the machine's LAN address).
        package var address = "127.0.0.1"
        /// More `Host` values (`address:port`, lower-case) the policy lets through
        /// besides `127.0.0.1:PORT` and `localhost:PORT` (``RequestPolicy/extraHosts``).
        package var extraHosts: [String] = []
        /// Most open connections, event streams included (503 beyond).
        package var maxConnections: Int
        /// Seconds a connection may sit without reading or writing a byte.
        package var idleTimeout: Double
        /// Seconds from a request's first byte (or the accept) to its last.
        package var headerTimeout: Double
        /// Seconds between heartbeat comments on event streams.
        package var heartbeatInterval: Double
        /// Request size limits.
        package var limits: HTTPRequestParser.Limits
        /// Most bytes queued for one client; an event stream that falls further behind is
        /// closed, a connection stops being read until its output drains.
        package var maxPendingOutput: Int

        /// Defaults: any free port, 64 connections, 10 s idle, 5 s per request, 15 s
        /// heartbeat, the parser's default limits, 4 MiB queued output.
        package init(port: UInt16 = 0, maxConnections: Int = 64, idleTimeout: Double = 10,
                    headerTimeout: Double = 5, heartbeatInterval: Double = 15,
                    limits: HTTPRequestParser.Limits = .init(),
                    maxPendingOutput: Int = 4 << 20) {
            self.port = port
            self.maxConnections = maxConnections
            self.idleTimeout = idleTimeout
            self.headerTimeout = headerTimeout
            self.heartbeatInterval = heartbeatInterval
            self.limits = limits
            self.maxPendingOutput = maxPendingOutput
        }
    }

    /// Counters, read with `statistics` from any thread.
    package struct Statistics: Sendable, Equatable {
        /// Connections open now (event streams included).
        package var openConnections = 0
        /// Event streams open now.
        package var openStreams = 0
        /// Connections accepted and served (not counting rejected ones).
        package var acceptedConnections = 0
        /// Connections refused with 503 because the server was full.
        package var rejectedConnections = 0
        /// Requests parsed and answered (policy refusals included).
        package var requests = 0
        /// Requests answered with a parse error.
        package var malformedRequests = 0
        /// Connections dropped because a request did not arrive in time.
        package var requestTimeouts = 0
        /// Connections closed after `idleTimeout` without activity.
        package var idleTimeouts = 0
    }

    /// The route handler: one request in, one response out, on the loop thread.
    package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse
    /// A route handler that may answer later: it returns the response, or nil after
    /// keeping the ``HTTPReply`` to send it with from any thread.
    package typealias DeferringHandler = @Sendable (HTTPRequest, HTTPReply) -> HTTPResponse?

    /// The port the server is bound to on 127.0.0.1.
    package let port: UInt16
    /// The configuration it was created with (`port` may be 0 there).
    package let configuration: Configuration
    /// The Host/method/Origin rules, for `port`.
    package let policy: RequestPolicy
    private let handler: DeferringHandler

    private enum State { case ready, running, stopping, stopped }

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var state = State.ready
    private var pendingEvents: [[UInt8]] = []
    /// Answers sent by ``HTTPReply`` and not yet given to their connections.
    private var pendingReplies: [(connection: Int, bytes: [UInt8], keepAlive: Bool)] = []
    private var stats = Statistics()
    private var loopThread: pthread_t?
    private var listenFD: Int32
    private var wakeRead: Int32
    private var wakeWrite: Int32

    // Loop thread only.
    private var connections: [Int32: ServerConnection] = [:]
    private var nextHeartbeat = 0.0
    private var acceptPausedUntil = 0.0
    private var nextSerial = 0

    /// Binds 127.0.0.1:`configuration.port` and listens; nothing is served until `run()`
    /// or `start()`.
    /// - Throws: `LoopbackServer.Failure` when the port is taken or sockets fail.
    package convenience init(configuration: Configuration = Configuration(), handler: @escaping Handler) throws {
        try self.init(configuration: configuration, deferringHandler: { request, _ in handler(request) })
    }

    /// Binds and listens as ``init(configuration:handler:)``; the handler may answer a
    /// request later through its ``HTTPReply`` (returning nil).
    package init(configuration: Configuration = Configuration(),
                deferringHandler handler: @escaping DeferringHandler) throws {
        let listener: (fd: Int32, port: UInt16)
        do {
            guard let host = Socket.ipv4(configuration.address) else {
                throw Failure(message: "not an IPv4 address: \(configuration.address)", code: EINVAL)
            }
            listener = try Socket.listen(port: configuration.port, backlog: 128, address: host)
        } catch let error as Socket.Failure {
            throw Failure(message: error.description, code: error.code)
        }
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Socket.streamType, 0, &pair) == 0 else {
            let code = errno
            close(listener.fd)
            throw Failure(message: "socketpair: \(String(cString: strerror(code)))", code: code)
        }
        Socket.configure(pair[0])
        Socket.configure(pair[1])
        self.listenFD = listener.fd
        self.wakeRead = pair[0]
        self.wakeWrite = pair[1]
        self.port = listener.port
        self.configuration = configuration
        self.policy = RequestPolicy(port: listener.port, extraHosts: configuration.extraHosts)
        self.handler = handler
    }

    deinit {
        // Only reached when the loop is not running (it holds `self`).
        if state != .stopped { closeSharedDescriptors() }
    }

    /// Why the server could not be created.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        /// What failed, with the system's message.
        package let message: String
        /// The errno value (e.g. EADDRINUSE).
        package let code: Int32
        /// The message.
        package var description: String { message }
    }

    // MARK: - Control (any thread)

    /// Moves a ready server to running; false if it was already started or stopped.
    private func beginRunning() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard state == .ready else { return false }
        state = .running
        return true
    }

    /// Serves on the calling thread until `stop()` is called (from the handler or another
    /// thread). Returns at once if the server was already started or stopped.
    package func run() {
        guard beginRunning() else { return }
        loop()
    }

    /// Serves on a new thread and returns at once.
    package func start() {
        guard beginRunning() else { return }
        let thread = Thread { [self] in self.loop() }
        thread.name = "CardServe"
        thread.start()
    }

    /// Stops serving: closes every connection and the listening socket, so the port is
    /// free when this returns. Waits for the loop to finish unless called from the
    /// handler (then the loop ends after the handler returns). Safe to call repeatedly.
    package func stop() {
        condition.lock()
        defer { condition.unlock() }
        switch state {
        case .ready:
            state = .stopped
            closeSharedDescriptors()
            condition.broadcast()
            return
        case .running:
            state = .stopping
            wakeLocked()
        case .stopping, .stopped:
            break
        }
        if let loopThread, pthread_equal(loopThread, pthread_self()) != 0 { return }
        while state != .stopped { condition.wait() }
    }

    /// Sends one event to every open event stream (see `ServerSentEvent.encode`). Safe from
    /// any thread; the loop delivers it in order with other broadcasts. Dropped when the
    /// server is not running. A stream that falls `maxPendingOutput` bytes behind is closed.
    package func broadcast(event: String? = nil, data: String) {
        let bytes = ServerSentEvent.encode(event: event, data: data)
        condition.lock()
        defer { condition.unlock() }
        guard state == .running else { return }
        pendingEvents.append(bytes)
        wakeLocked()
    }

    /// A snapshot of the counters. Safe from any thread.
    package var statistics: Statistics {
        condition.lock()
        defer { condition.unlock() }
        return stats
    }

    /// Called by ``HTTPReply/send(_:)``: queues the answer for the loop (any thread).
    func deliver(_ reply: HTTPReply, _ response: HTTPResponse) {
        let answer = response.isEventStream ? HTTPResponse.status(500) : response
        let keepAlive = reply.keepAlive && !answer.closeConnection
        let bytes = answer.serialized(headOnly: reply.headOnly, keepAlive: keepAlive)
        condition.lock()
        defer { condition.unlock() }
        guard !reply.sent, state == .running else { return }
        reply.sent = true
        pendingReplies.append((reply.connection, bytes, keepAlive))
        wakeLocked()
    }

    // MARK: - Shared helpers (caller holds `condition`)

    private func wakeLocked() {
        var byte: UInt8 = 1
        // A full pipe already means a pending wake-up; nothing else can fail here.
        _ = withUnsafeBytes(of: &byte) { Socket.send(wakeWrite, $0) }
    }

    private func closeSharedDescriptors() {
        for fd in [listenFD, wakeRead, wakeWrite] where fd >= 0 { close(fd) }
        listenFD = -1
        wakeRead = -1
        wakeWrite = -1
    }

    private func count(_ change: (inout Statistics) -> Void) {
        condition.lock()
        change(&stats)
        condition.unlock()
    }

    // MARK: - The loop (loop thread only)

    private static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    private func loop() {
        condition.lock()
        loopThread = pthread_self()
        let listenFD = self.listenFD
        let wakeRead = self.wakeRead
        condition.unlock()

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        nextHeartbeat = Self.now() + configuration.heartbeatInterval

        while true {
            condition.lock()
            let stopping = state != .running
            condition.unlock()
            if stopping { break }

            let now = Self.now()
            let open = Array(connections.values)
            var fds: [pollfd] = []
            fds.reserveCapacity(open.count + 2)
            fds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            // A negative fd is skipped by poll(): accepting pauses briefly after EMFILE.
            fds.append(pollfd(fd: now >= acceptPausedUntil ? listenFD : -1, events: Int16(POLLIN), revents: 0))
            for connection in open {
                var events: Int16 = 0
                if wantsRead(connection) { events |= Int16(POLLIN) }
                if connection.pendingOutput > 0 { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: connection.fd, events: events, revents: 0))
            }

            let ready = poll(&fds, nfds_t(fds.count), pollTimeout(now: now))
            if ready < 0 {
                if errno == EINTR { continue }
                usleep(10_000)  // should not happen; never spin
                continue
            }
            let after = Self.now()
            if fds[0].revents != 0 {
                drainWake(wakeRead, buffer)
                deliverEvents(now: after)
                deliverReplies(now: after)
            }
            if fds[1].revents != 0 { acceptConnections(listenFD, now: after, buffer: buffer) }
            for (index, connection) in open.enumerated() {
                let events = fds[index + 2].revents
                // Skip a connection closed earlier in this pass (its fd may be reused).
                guard events != 0, connections[connection.fd] === connection else { continue }
                if events & Int16(POLLNVAL) != 0 {
                    closeConnection(connection)
                    continue
                }
                if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    readFrom(connection, buffer: buffer, now: after)
                }
                if connections[connection.fd] === connection, events & Int16(POLLOUT) != 0 {
                    flush(connection, now: after)
                }
            }
            sweep(now: after)
        }

        for connection in Array(connections.values) { closeConnection(connection) }
        condition.lock()
        closeSharedDescriptors()
        pendingEvents.removeAll()
        pendingReplies.removeAll()
        state = .stopped
        condition.broadcast()
        condition.unlock()
    }

    private func wantsRead(_ c: ServerConnection) -> Bool {
        if c.readClosed || c.closeAfterFlush { return false }
        // A stream is still read, only to notice when the client goes away.
        return c.isStream || c.pendingOutput < configuration.maxPendingOutput
    }

    /// Milliseconds until the nearest deadline, at most one second.
    private func pollTimeout(now: Double) -> Int32 {
        var nearest = now + 1
        var hasStreams = false
        for c in connections.values {
            if c.awaitingReply { continue }  // no deadline (sweep); a reply wakes the loop
            if c.isStream {
                hasStreams = true
                if c.pendingOutput > 0 { nearest = min(nearest, c.lastActivity + configuration.idleTimeout) }
                continue
            }
            nearest = min(nearest, c.lastActivity + configuration.idleTimeout)
            if let started = c.requestStarted, !c.closeAfterFlush {
                nearest = min(nearest, started + configuration.headerTimeout)
            }
        }
        if hasStreams { nearest = min(nearest, nextHeartbeat) }
        if acceptPausedUntil > now { nearest = min(nearest, acceptPausedUntil) }
        return Int32(max(0, min(1000, ((nearest - now) * 1000).rounded(.up) + 1)))
    }

    private func drainWake(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) {
        while let n = Socket.receive(fd, buffer), n > 0 {}
    }

    private func deliverEvents(now: Double) {
        condition.lock()
        let events = pendingEvents
        pendingEvents.removeAll()
        condition.unlock()
        guard !events.isEmpty else { return }
        for c in connections.values where c.isStream {
            for event in events { c.enqueue(event) }
        }
        for c in Array(connections.values) where c.isStream { flush(c, now: now) }
    }

    /// Gives the answers sent through replies to their connections (those still open),
    /// then goes on with the requests pipelined behind them.
    private func deliverReplies(now: Double) {
        condition.lock()
        let replies = pendingReplies
        pendingReplies.removeAll()
        condition.unlock()
        for reply in replies {
            guard let c = connections.values.first(where: { $0.serial == reply.connection }), c.awaitingReply else {
                continue
            }
            c.awaitingReply = false
            c.lastActivity = now
            c.enqueue(reply.bytes)
            if !reply.keepAlive || c.readClosed { c.closeAfterFlush = true }
            c.requestStarted = c.parser.hasPartialRequest ? now : nil
            if c.closeAfterFlush {
                flush(c, now: now)
            } else {
                process(c, now: now)
            }
        }
    }

    private func acceptConnections(_ listenFD: Int32, now: Double, buffer: UnsafeMutableRawBufferPointer) {
        // At most a batch per wake-up, so a flood of connects cannot starve open ones.
        for _ in 0..<64 {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                // Out of descriptors: stop polling the listener for a moment instead of
                // spinning on a socket that stays readable.
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    acceptPausedUntil = now + 0.1
                }
                return
            }
            Socket.configure(fd)
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            if connections.count >= configuration.maxConnections {
                reject(fd, buffer: buffer)
                continue
            }
            nextSerial += 1
            connections[fd] = ServerConnection(fd: fd, serial: nextSerial, now: now, limits: configuration.limits)
            count {
                $0.acceptedConnections += 1
                $0.openConnections += 1
            }
        }
    }

    /// 503 to a connection over the cap, then close. Whatever the client already sent is
    /// read first, so the close is a clean FIN and not a reset that could eat the 503.
    private func reject(_ fd: Int32, buffer: UnsafeMutableRawBufferPointer) {
        _ = Socket.receive(fd, buffer)
        var response = HTTPResponse.status(503, message: "Service Unavailable: too many connections")
        response.headers.add("Retry-After", "1")
        let bytes = response.serialized(keepAlive: false)
        // Counted first, so a client that has read the 503 sees the counter too.
        count { $0.rejectedConnections += 1 }
        _ = bytes.withUnsafeBytes { Socket.send(fd, $0) }
        close(fd)
    }

    private func readFrom(_ c: ServerConnection, buffer: UnsafeMutableRawBufferPointer, now: Double) {
        // A few reads per wake-up at most, so one busy client cannot starve the others.
        for _ in 0..<4 {
            guard let n = Socket.receive(c.fd, buffer) else {
                closeConnection(c)
                return
            }
            if n < 0 { return }
            if n == 0 {
                endOfInput(c, now: now)
                return
            }
            c.lastActivity = now
            // Streams and closing connections: input is read only to be dropped.
            if c.isStream || c.closeAfterFlush { continue }
            if c.requestStarted == nil { c.requestStarted = now }
            c.parser.append(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            process(c, now: now)
            guard connections[c.fd] === c, wantsRead(c) else { return }
        }
    }

    private func endOfInput(_ c: ServerConnection, now: Double) {
        c.readClosed = true
        // The answer on its way closes the connection once sent.
        if c.awaitingReply { return }
        if c.isStream || c.closeAfterFlush {
            if c.isStream || c.pendingOutput == 0 { closeConnection(c) }
            return
        }
        process(c, now: now)
        guard connections[c.fd] === c else { return }
        if !c.closeAfterFlush, !c.parsingPaused, let error = c.parser.finish() {
            answer(c, error: error)
        }
        if c.pendingOutput == 0 && !c.parsingPaused {
            closeConnection(c)
        } else {
            c.closeAfterFlush = c.closeAfterFlush || !c.parsingPaused
            flush(c, now: now)
        }
    }

    private func answer(_ c: ServerConnection, error: HTTPParseError) {
        c.enqueue(HTTPResponse.status(error.status, message: "\(HTTPResponse.reasonPhrase(for: error.status)): \(error)")
            .serialized(keepAlive: false))
        c.closeAfterFlush = true
        c.requestStarted = nil
        count { $0.malformedRequests += 1 }
    }

    /// Parses and answers every complete request buffered on `c`, then sends.
    private func process(_ c: ServerConnection, now: Double) {
        c.parsingPaused = false
        parsing: while !c.closeAfterFlush && !c.isStream && !c.awaitingReply {
            if c.pendingOutput >= configuration.maxPendingOutput {
                c.parsingPaused = true
                break
            }
            switch c.parser.next() {
            case .needMoreData:
                c.requestStarted = c.parser.hasPartialRequest ? (c.requestStarted ?? now) : nil
                // curl waits for this before sending a larger body.
                if c.parser.expectsContinue && !c.continueSent {
                    c.enqueue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                    c.continueSent = true
                }
                break parsing
            case .error(let error):
                answer(c, error: error)
            case .request(let request):
                c.continueSent = false
                count { $0.requests += 1 }
                let headOnly = request.method == "HEAD"
                let reply = HTTPReply(server: self, connection: c.serial, headOnly: headOnly,
                                      keepAlive: request.wantsKeepAlive && !c.readClosed)
                guard let response = policy.rejection(for: request) ?? handler(request, reply) else {
                    // Answered later (deliverReplies); no deadline while the work runs.
                    c.awaitingReply = true
                    c.requestStarted = nil
                    break parsing
                }
                if response.isEventStream && !headOnly {
                    c.enqueue(response.serialized())
                    c.isStream = true
                    c.requestStarted = nil
                    count { $0.openStreams += 1 }
                } else {
                    let keepAlive = request.wantsKeepAlive && !response.closeConnection
                        && !response.isEventStream && !c.readClosed
                    c.enqueue(response.serialized(headOnly: headOnly, keepAlive: keepAlive))
                    if !keepAlive { c.closeAfterFlush = true }
                    c.requestStarted = c.parser.hasPartialRequest ? now : nil
                }
            }
        }
        flush(c, now: now)
    }

    private func flush(_ c: ServerConnection, now: Double) {
        while c.pendingOutput > 0 {
            let sent = c.output.withUnsafeBytes {
                Socket.send(c.fd, UnsafeRawBufferPointer(rebasing: $0[c.outputOffset...]))
            }
            guard let sent else {
                closeConnection(c)  // EPIPE, ECONNRESET: the client is gone
                return
            }
            if sent == 0 { break }
            c.consumed(sent)
            c.lastActivity = now
        }
        if c.isStream && c.pendingOutput > configuration.maxPendingOutput {
            closeConnection(c)  // a stream that cannot keep up
            return
        }
        guard c.pendingOutput == 0 else { return }
        if c.closeAfterFlush || (c.isStream && c.readClosed) {
            closeConnection(c)
        } else if c.parsingPaused {
            process(c, now: now)
            if connections[c.fd] === c, c.readClosed, !c.parsingPaused, c.pendingOutput == 0 {
                closeConnection(c)
            }
        }
    }

    /// Deadlines and heartbeats.
    private func sweep(now: Double) {
        for c in Array(connections.values) {
            if c.awaitingReply { continue }  // the work behind it is not the client's idling
            if c.isStream {
                if c.pendingOutput > 0 && now >= c.lastActivity + configuration.idleTimeout {
                    count { $0.idleTimeouts += 1 }
                    closeConnection(c)
                }
                continue
            }
            if let started = c.requestStarted, !c.closeAfterFlush,
                now >= started + configuration.headerTimeout
            {
                // Best effort: tell the client why, then drop it.
                count { $0.requestTimeouts += 1 }
                let bytes = HTTPResponse.status(408).serialized(keepAlive: false)
                if c.pendingOutput == 0 { _ = bytes.withUnsafeBytes { Socket.send(c.fd, $0) } }
                closeConnection(c)
            } else if now >= c.lastActivity + configuration.idleTimeout {
                count { $0.idleTimeouts += 1 }
                closeConnection(c)
            }
        }
        if now >= nextHeartbeat {
            nextHeartbeat = now + configuration.heartbeatInterval
            let beat = ServerSentEvent.comment("heartbeat")
            for c in Array(connections.values) where c.isStream {
                c.enqueue(beat)
                flush(c, now: now)
            }
        }
    }

    private func closeConnection(_ c: ServerConnection) {
        guard connections[c.fd] === c else { return }
        connections.removeValue(forKey: c.fd)
        close(c.fd)
        count {
            $0.openConnections -= 1
            if c.isStream { $0.openStreams -= 1 }
        }
    }
}
