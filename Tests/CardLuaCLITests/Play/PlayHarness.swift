#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// `cardlua play --port 0` in the background, asked over loopback.
final class PlayServer {
    let process: WatchProcess
    let port: UInt16

    init(_ arguments: [String], directory: URL) throws {
        let started = try WatchProcess(["play"] + arguments + ["--port", "0"], directory: directory)
        try #require(waitUntil { started.stdout.contains("\n") }, "no URL printed; stderr: \(started.stderr)")
        let line = started.stdout.split(separator: "\n")[0]
        let number = UInt16(line.dropFirst("http://127.0.0.1:".count).dropLast())
        process = started
        port = try #require(number)
    }

    /// The raw response to `GET path`.
    func get(_ path: String) -> String {
        PlayTests.request(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n") ?? ""
    }

    /// The raw response to `POST path` with `body`.
    func post(_ path: String, _ body: String) -> String {
        PlayTests.request(port: port, Self.postText(path, body, port: port)) ?? ""
    }

    static func postText(_ path: String, _ body: String, port: UInt16) -> String {
        "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n" + body
    }

    /// The JSON body of an answer, as an object.
    static func json(_ response: String) throws -> [String: Any] {
        let body = try #require(response.range(of: "\r\n\r\n").map { String(response[$0.upperBound...]) })
        return try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    }

    /// The frames of an answer (`{"state", "frames"}`).
    static func frames(_ response: String) throws -> [[String: Any]] {
        try #require(try json(response)["frames"] as? [[String: Any]])
    }
}

/// A request sent on its own connection whose answer is looked at later (it may take long).
final class PendingRequest {
    private let fd: Int32
    private var received: [UInt8] = []

    init?(port: UInt16, _ text: String) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = PlayTests.loopback(port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let bytes = Array(text.utf8)
        guard connected == 0, bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else {
            close(fd)
            return nil
        }
    }

    deinit { close(fd) }

    /// Whether any of the answer has arrived (without waiting).
    var isAnswered: Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return !received.isEmpty
    }

    var text: String { String(decoding: received, as: UTF8.self) }
}

/// `cardlua run SCRIPT --offset X --format json`'s one frame.
func runFrame(_ script: String, offset: Double, extra: [String] = []) throws -> [String: Any] {
    let result = try CLI.run(["run", script, "--offset", String(offset), "--format", "json"] + extra)
    try #require(result.status == 0, "\(result.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    return try #require((json["frames"] as? [[String: Any]])?.first)
}

/// Expects a frame `play` answered (`{"o", "c": [[section, item, left, top, w, h, m11 … m44,
/// alpha, zIndex, flags, …]]}`) to show the cards of `run`'s frame: the same items in the
/// same order (z order), places, transforms, alpha (clamped as drawn), zIndex and hidden.
func expectSameCards(_ play: [String: Any], _ run: [String: Any], _ what: String) throws {
    let offset = try #require(play["o"] as? [Double])
    let cards = try #require(play["c"] as? [[Any]])
    let items = try #require(run["items"] as? [[String: Any]])
    let runOffset = try #require(run["contentOffset"] as? [String: Double])
    #expect(offset == [runOffset["x"]!, runOffset["y"]!], "\(what): offsets")
    #expect(cards.count == items.count, "\(what): \(cards.count) cards, run has \(items.count)")
    func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(b)) }
    for (card, item) in zip(cards, items) {
        let numbers = card.prefix(25).compactMap { ($0 as? NSNumber)?.doubleValue }
        try #require(numbers.count == 25, "\(what): card \(card)")
        let frame = try #require(item["frame"] as? [String: Double])
        let matrix = try #require(item["transform3D"] as? [Double])
        let id = "\(what): item \(item["item"]!)"
        #expect(Int(numbers[0]) == item["section"] as? Int && Int(numbers[1]) == item["item"] as? Int, "\(id): order")
        #expect(close(numbers[2], frame["x"]! - offset[0]) && close(numbers[3], frame["y"]! - offset[1]), "\(id): place")
        #expect(zip(numbers[6..<22], matrix).allSatisfy { close($0, $1) },
                "\(id): transform \(Array(numbers[6..<22])) run \(matrix)")
        let alpha = try #require(item["alpha"] as? Double)
        #expect(close(numbers[22], min(max(alpha, 0), 1)), "\(id): alpha")
        #expect(Int(numbers[23]) == item["zIndex"] as? Int, "\(id): zIndex")
        #expect((Int(numbers[24]) & 1 == 1) == (item["hidden"] as? Bool), "\(id): hidden")
    }
}
