import Foundation
import Testing

@testable import CardServe

/// A handler that answers later (``HTTPReply``): the loop serves other connections
/// meanwhile, and the answer, when sent from another thread, reaches the right connection
/// with the requests pipelined behind it in order.
@Suite struct DeferredReplyTests {
    final class Held: @unchecked Sendable {
        private let lock = NSLock()
        private var replies: [HTTPReply] = []
        func add(_ reply: HTTPReply) { lock.lock(); replies.append(reply); lock.unlock() }
        func take() -> HTTPReply? {
            lock.lock()
            defer { lock.unlock() }
            return replies.isEmpty ? nil : replies.removeFirst()
        }
        var count: Int { lock.lock(); defer { lock.unlock() }; return replies.count }
    }

    @Test func aDeferredAnswerDoesNotHoldUpOtherConnections() throws {
        let held = Held()
        let server = try LoopbackServer(deferringHandler: { request, reply in
            if request.path == "/slow" {
                held.add(reply)
                return nil
            }
            return .text("now " + request.path)
        })
        server.start()
        defer { server.stop() }

        // A slow request with a quick one pipelined behind it on the same connection.
        let slow = try TestClient(port: server.port)
        slow.send(requestText("GET", "/slow", port: server.port) + requestText("GET", "/after", port: server.port))
        #expect(eventually { held.count == 1 })
        // Another connection is answered while the slow one waits.
        #expect(fetch(server.port, requestText(port: server.port))?.text == "now /")
        #expect(held.count == 1, "the pipelined request waits behind the slow one")

        // Answered from another thread: the slow answer first, then the one behind it.
        let reply = try #require(held.take())
        Thread.detachNewThread { reply.send(.text("later")) }
        #expect(slow.readResponse()?.text == "later")
        #expect(slow.readResponse()?.text == "now /after")
        // A second send is dropped (the connection still works).
        reply.send(.text("again"))
        slow.send(requestText("GET", "/third", port: server.port))
        #expect(slow.readResponse()?.text == "now /third")
    }

    @Test func aReplyAfterItsClientLeftClosesTheConnection() throws {
        let held = Held()
        let server = try LoopbackServer(deferringHandler: { _, reply in
            held.add(reply)
            return nil
        })
        server.start()
        defer { server.stop() }
        do {
            let client = try TestClient(port: server.port)
            client.send(requestText("GET", "/slow", port: server.port))
            #expect(eventually { held.count == 1 })
        }  // closed: the connection waits for its answer (a client that only shut down
        // its sending side still reads it), then goes
        try #require(held.take()).send(.text("late"))
        #expect(eventually { server.statistics.openConnections == 0 })
        // Still serving.
        let next = try TestClient(port: server.port)
        next.send(requestText("GET", "/", port: server.port))
        #expect(eventually { held.count == 1 })
        try #require(held.take()).send(.text("fine"))
        #expect(next.readResponse()?.text == "fine")
    }
}
