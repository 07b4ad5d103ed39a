import Foundation
import Testing

@testable import CardServe

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Real sockets on 127.0.0.1, each test with its own server on an ephemeral port.
@Suite struct LoopbackServerTests {
    @Test func getHeadAndKeepAlive() throws {
        let server = try makeServer()
        defer { server.stop() }
        #expect(server.port != 0)
        let client = try TestClient(port: server.port)
        client.send(requestText(port: server.port))
        let first = try #require(client.readResponse())
        #expect(first.status == 200 && first.text == "hello")
        #expect(first.headers["connection"] == "keep-alive")
        // Same connection, another host spelling, then HEAD.
        client.send("GET / HTTP/1.1\r\nHost: localhost:\(server.port)\r\n\r\n")
        #expect(client.readResponse()?.text == "hello")
        client.send(requestText("HEAD", port: server.port))
        let head = try #require(client.readResponse(headOnly: true))
        #expect(head.status == 200 && head.headers["content-length"] == "5")
        client.send(requestText(port: server.port, headers: ["Connection: close"]))
        #expect(client.readResponse()?.headers["connection"] == "close")
        #expect(client.waitForClose())
        #expect(fetch(server.port, requestText("GET", "/nowhere", port: server.port))?.status == 404)
        #expect(eventually { server.statistics.requests == 5 })
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try makeServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send(requestText("POST", "/echo", port: server.port, body: "one")
            + requestText("POST", "/echo", port: server.port, body: "two"))
        #expect(client.readResponse()?.text == "one")
        #expect(client.readResponse()?.text == "two")
    }

    @Test func expectContinueGets100BeforeTheBody() throws {
        let server = try makeServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        #expect(client.read(until: "\r\n\r\n") == "HTTP/1.1 100 Continue\r\n\r\n")
        client.send("body")
        #expect(client.readResponse()?.text == "body")
    }

    @Test func foreignHostIsForbidden() throws {
        let server = try makeServer()
        defer { server.stop() }
        let response = fetch(server.port, "GET / HTTP/1.1\r\nHost: evil.example:\(server.port)\r\n\r\n")
        #expect(response?.status == 403)
        #expect(fetch(server.port, "GET / HTTP/1.0\r\n\r\n")?.status == 403)  // no Host at all
    }

    @Test func foreignOriginPostIsForbiddenAndSameOriginPasses() throws {
        let server = try makeServer()
        defer { server.stop() }
        let port = server.port
        let foreign = fetch(port, requestText("POST", "/echo", port: port, headers: ["Origin: http://evil.example"], body: "x"))
        #expect(foreign?.status == 403)
        let same = fetch(port, requestText("POST", "/echo", port: port, headers: ["Origin: http://localhost:\(port)"], body: "drag"))
        #expect(same?.status == 200 && same?.text == "drag")
        let put = fetch(port, requestText("PUT", "/echo", port: port, body: "x"))
        #expect(put?.status == 405 && put?.headers["allow"] == "GET, HEAD, POST")
    }

    @Test func malformedGets400AndTheServerKeepsAnswering() throws {
        let server = try makeServer()
        defer { server.stop() }
        for bad in ["GARBAGE\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", "GET /\0 HTTP/1.1\r\n\r\n", "\u{16}\u{03}\u{01}\u{02}\u{00}\r\n"] {
            let client = try TestClient(port: server.port)
            client.send(bad)
            let response = client.readResponse()
            #expect(response?.status == 400, "\(bad.debugDescription)")
            #expect(response?.headers["connection"] == "close")
            #expect(client.waitForClose())
            #expect(fetch(server.port, requestText(port: server.port))?.status == 200)
        }
        #expect(fetch(server.port, "BREW / HTTP/1.1\r\n\r\n")?.status == 501)
        #expect(fetch(server.port, "GET / HTTP/2.0\r\n\r\n")?.status == 505)
        #expect(eventually { server.statistics.malformedRequests == 6 })
    }

    @Test func truncatedRequestGets400AtEndOfInput() throws {
        let server = try makeServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 10\r\n\r\nabc")
        client.shutdownWrite()
        #expect(client.readResponse()?.status == 400)
    }

    @Test func oversizedBodyGets413() throws {
        let server = try makeServer()
        defer { server.stop() }
        // Refused on the head alone: the body is never sent.
        let response = fetch(server.port, "POST /echo HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 70000\r\n\r\n")
        #expect(response?.status == 413)
        let huge = fetch(server.port, "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n\r\n")
        #expect(huge?.status == 414)
        let manyHeaders = (0..<120).map { "X-\($0): v\r\n" }.joined()
        #expect(fetch(server.port, "GET / HTTP/1.1\r\n\(manyHeaders)\r\n")?.status == 431)
        #expect(fetch(server.port, requestText(port: server.port))?.status == 200)
    }

    @Test func slowClientDoesNotBlockOthersAndIsDropped() throws {
        let server = try makeServer { $0.headerTimeout = 2 }
        defer { server.stop() }
        let slow = try TestClient(port: server.port)
        // A head of 200 bytes at one byte per 100 ms would take 20 s; the server gives it 2 s.
        let head = Array(("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Slow: " + String(repeating: "s", count: 200)).utf8)
        var dropped = false
        var servedMeanwhile = 0
        for (index, byte) in head.enumerated() {
            if !slow.send([byte]) {
                dropped = true
                break
            }
            if index % 5 == 0, fetch(server.port, requestText(port: server.port))?.status == 200 {
                servedMeanwhile += 1
            }
            if server.statistics.requestTimeouts > 0 {
                dropped = true
                break
            }
            usleep(100_000)
        }
        #expect(dropped)
        #expect(servedMeanwhile >= 1)
        #expect(server.statistics.requestTimeouts == 1)
        #expect(slow.waitForClose())
        #expect(fetch(server.port, requestText(port: server.port))?.status == 200)
        #expect(eventually { server.statistics.openConnections == 0 })
    }

    @Test func idleConnectionIsClosed() throws {
        let server = try makeServer { $0.idleTimeout = 1 }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send(requestText(port: server.port))
        #expect(client.readResponse()?.status == 200)
        #expect(client.waitForClose())
        #expect(server.statistics.idleTimeouts == 1)
    }

    @Test func aHundredConnectionsAtOnce() throws {
        let server = try makeServer {
            $0.idleTimeout = 60
            $0.headerTimeout = 60
        }
        defer { server.stop() }
        var clients: [TestClient] = []
        for _ in 0..<100 {
            let client = try TestClient(port: server.port)
            client.send(requestText(port: server.port))
            clients.append(client)
        }
        var ok = 0
        var refused = 0
        for client in clients {
            switch client.readResponse()?.status {
            case 200?: ok += 1
            case 503?, nil: refused += 1  // 503, or closed before the client read it
            default: break
            }
        }
        // The first 64 hold their keep-alive slots; the other 36 are turned away.
        #expect(ok == 64)
        #expect(ok + refused == 100)
        #expect(server.statistics.rejectedConnections == 36)
        clients.removeAll()  // closes them
        #expect(eventually { server.statistics.openConnections == 0 })
        #expect(fetch(server.port, requestText(port: server.port))?.status == 200)
    }

    @Test func clientThatVanishesMidResponseDoesNotHurtTheServer() throws {
        let server = try makeServer()
        defer { server.stop() }
        for _ in 0..<3 {
            let client = try TestClient(port: server.port)
            client.send(requestText("GET", "/big", port: server.port))
            _ = client.read(until: "\r\n\r\n")
            // Closing with 4 MiB still to come: the server's next send hits EPIPE/ECONNRESET.
        }
        #expect(eventually { server.statistics.openConnections == 0 })
        #expect(fetch(server.port, requestText(port: server.port))?.status == 200)
    }

    @Test func broadcastReachesTwoStreams() throws {
        let server = try makeServer { $0.heartbeatInterval = 600 }
        defer { server.stop() }
        let streams = try (0..<2).map { _ in try TestClient(port: server.port) }
        for stream in streams {
            stream.send(requestText("GET", "/events", port: server.port))
            let head = try #require(stream.read(until: "\r\n\r\n"))
            #expect(head.contains("Content-Type: text/event-stream"))
            #expect(!head.lowercased().contains("content-length"))
            #expect(stream.read(until: "\n\n") == ": open\n\n")
        }
        #expect(eventually { server.statistics.openStreams == 2 })
        // From another thread, as the file watcher will.
        let sent = DispatchSemaphore(value: 0)
        Thread {
            server.broadcast(event: "reload", data: "v1\nv2")
            server.broadcast(data: "second")
            sent.signal()
        }.start()
        sent.wait()
        for stream in streams {
            #expect(stream.read(until: "\n\n") == "event: reload\ndata: v1\ndata: v2\n\n")
            #expect(stream.read(until: "\n\n") == "data: second\n\n")
        }
        // Ordinary requests are still served alongside the streams.
        #expect(fetch(server.port, requestText(port: server.port))?.status == 200)
        streams.forEach { $0.shutdownWrite() }
        #expect(eventually { server.statistics.openStreams == 0 })
    }

    @Test func streamsGetHeartbeats() throws {
        let server = try makeServer { $0.heartbeatInterval = 0.1 }
        defer { server.stop() }
        let stream = try TestClient(port: server.port)
        stream.send(requestText("GET", "/events", port: server.port))
        #expect(stream.read(until: ": heartbeat\n\n") != nil)
    }

    @Test func streamsCountAgainstTheConnectionCap() throws {
        let server = try makeServer { $0.maxConnections = 2 }
        defer { server.stop() }
        let streams = try (0..<2).map { _ in try TestClient(port: server.port) }
        for stream in streams {
            stream.send(requestText("GET", "/events", port: server.port))
            #expect(stream.read(until: ": open\n\n") != nil)
        }
        let third = fetch(server.port, requestText(port: server.port))
        #expect(third == nil || third?.status == 503)
        #expect(server.statistics.rejectedConnections == 1)
    }

    @Test func stopClosesEverythingAndFreesThePort() throws {
        let server = try makeServer()
        let client = try TestClient(port: server.port)
        client.send(requestText(port: server.port))
        #expect(client.readResponse()?.status == 200)
        let stream = try TestClient(port: server.port)
        stream.send(requestText("GET", "/events", port: server.port))
        #expect(stream.read(until: ": open\n\n") != nil)
        server.stop()
        #expect(server.statistics.openConnections == 0)
        #expect(client.waitForClose())
        #expect(stream.waitForClose())
        server.stop()  // again: no effect
        server.broadcast(data: "after stop")  // dropped, no crash
        // The same port binds again at once.
        let again = try LoopbackServer(configuration: .init(port: server.port)) { _ in .text("again") }
        again.start()
        #expect(fetch(again.port, requestText(port: again.port))?.text == "again")
        again.stop()
        // A server that never started stops too, and frees its port.
        let idle = try LoopbackServer { _ in .status(404) }
        let idlePort = idle.port
        idle.stop()
        let rebound = try LoopbackServer(configuration: .init(port: idlePort)) { _ in .status(404) }
        rebound.stop()
    }

    @Test func runServesOnTheCallingThreadUntilTheHandlerStopsIt() throws {
        final class Box: @unchecked Sendable { var server: LoopbackServer? }
        let box = Box()
        let server = try LoopbackServer { request in
            if request.path == "/quit" { box.server?.stop() }  // returns at once on the loop thread
            return .text(request.path)
        }
        box.server = server
        let finished = DispatchSemaphore(value: 0)
        Thread {
            server.run()
            finished.signal()
        }.start()
        #expect(fetch(server.port, requestText("GET", "/a", port: server.port))?.text == "/a")
        _ = fetch(server.port, requestText("GET", "/quit", port: server.port))
        #expect(finished.wait(timeout: .now() + TestClient.hangGuard) == .success)
        #expect((try? TestClient(port: server.port)) == nil)  // nothing listens any more
        box.server = nil
    }

    @Test func aThousandRequestsLeaveNoConnectionOpen() throws {
        let server = try makeServer()
        defer { server.stop() }
        // 500 on their own connections (closed by the server), 500 on 5 kept-alive ones.
        for _ in 0..<500 {
            #expect(fetch(server.port, requestText(port: server.port, headers: ["Connection: close"]))?.status == 200)
        }
        var kept = try (0..<5).map { _ in try TestClient(port: server.port) }
        for round in 0..<100 {
            for client in kept {
                client.send(requestText("POST", "/echo", port: server.port, body: "r\(round)"))
                #expect(client.readResponse()?.text == "r\(round)")
            }
        }
        #expect(server.statistics.openConnections == 5)
        kept.removeAll()
        #expect(eventually { server.statistics.openConnections == 0 })
        let stats = server.statistics
        #expect(stats.requests == 1000)
        #expect(stats.acceptedConnections == 505)
        #expect(stats.openStreams == 0)
    }
}
