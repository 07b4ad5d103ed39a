import CardLuaTestSupport
import Foundation
import Testing

/// The header fields of `play`'s answers, over 127.0.0.1: a card image opened on its own
/// (an SVG is a document that could run script in the page's origin) is sandboxed with no
/// script; the page cannot be framed by another site; nothing is sniffed into another type.
@Suite struct PlayHeadersTests {
    /// The fields of a raw answer's head, names lower-cased, in order.
    static func fields(_ response: String) -> [(name: String, value: String)] {
        let head = response.components(separatedBy: "\r\n\r\n").first ?? ""
        return head.components(separatedBy: "\r\n").dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
    }

    static func value(_ name: String, in response: String) -> [String] {
        fields(response).filter { $0.name == name }.map(\.value)
    }

    /// A Content-Security-Policy's directives: name → its values (the name alone: []).
    static func directives(_ policy: String) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for part in policy.split(separator: ";") {
            let words = part.split(separator: " ").map(String.init)
            guard let name = words.first?.lowercased() else { continue }
            out[name] = Array(words.dropFirst())
        }
        return out
    }

    /// An SVG card holding a script: served as image/svg+xml, but sandboxed (no
    /// allow-scripts, so an opaque origin and no script) with script-src 'none', nothing
    /// loaded from anywhere but `data:` images and fonts and its own inline style.
    @Test func anSVGCardIsServedSandboxedWithoutScript() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cards = dir.appendingPathComponent("cards")
        try FileManager.default.createDirectory(at: cards, withIntermediateDirectories: true)
        let svg = "<svg xmlns='http://www.w3.org/2000/svg'><script>fetch('/export')</script></svg>"
        try Data(svg.utf8).write(to: cards.appendingPathComponent("a.svg"))
        try Data("PNG".utf8).write(to: cards.appendingPathComponent("b.png"))
        let server = try PlayServer([CLI.script("lol.lua"), "--cards", cards.path], directory: dir)
        defer { _ = server.process.interruptAndWait() }

        let answer = server.get("/cards/0")
        #expect(answer.hasPrefix("HTTP/1.1 200 ") && answer.hasSuffix(svg))
        #expect(Self.value("content-type", in: answer) == ["image/svg+xml"])
        #expect(Self.value("x-content-type-options", in: answer) == ["nosniff"])
        let policies = Self.value("content-security-policy", in: answer)
        try #require(policies.count == 1, "\(answer.prefix(600))")
        let policy = Self.directives(policies[0])
        #expect(policy["sandbox"] == [], "\(policies[0])")  // no allow-scripts, no allow-same-origin
        #expect(policy["default-src"] == ["'none'"], "\(policies[0])")
        #expect(policy["script-src"] == ["'none'"], "\(policies[0])")
        #expect(policy["img-src"] == ["data:"], "\(policies[0])")
        #expect(policy["style-src"] == ["'unsafe-inline'"], "\(policies[0])")
        #expect(policy["font-src"] == ["data:"], "\(policies[0])")
        // Every image, not only SVGs: a PNG is never sniffed into anything else.
        let png = server.get("/cards/1")
        #expect(Self.value("content-type", in: png) == ["image/png"])
        #expect(Self.value("x-content-type-options", in: png) == ["nosniff"])
        #expect(Self.value("content-security-policy", in: png) == policies)
    }

    /// The page: not sniffed, not framed by another site, not cached, and no referrer
    /// (with `--lan` its URL carries the token). JSON, text answers and refusals: not
    /// sniffed and not cached.
    @Test func thePageAndItsAnswersCarrySafeHeaders() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try PlayServer([CLI.script("lol.lua")], directory: dir)
        defer { _ = server.process.interruptAndWait() }

        let page = server.get("/")
        #expect(page.hasPrefix("HTTP/1.1 200 ") && Self.value("content-type", in: page) == ["text/html; charset=utf-8"])
        #expect(Self.value("x-content-type-options", in: page) == ["nosniff"])
        #expect(Self.value("referrer-policy", in: page) == ["no-referrer"])
        #expect(Self.value("cache-control", in: page) == ["no-store"])
        #expect(Self.value("x-frame-options", in: page) == ["DENY"])
        let policies = Self.value("content-security-policy", in: page)
        #expect(policies.count == 1 && Self.directives(policies.first ?? "")["frame-ancestors"] == ["'none'"], "\(policies)")

        for (name, answer) in [("GET /state", server.get("/state")), ("GET /export", server.get("/export")),
                               ("POST /input", server.post("/input", "{}")), ("GET /nothing", server.get("/nothing")),
                               ("GET /cards", server.get("/cards"))] {
            #expect(Self.value("x-content-type-options", in: answer) == ["nosniff"], "\(name): \(answer.prefix(300))")
            #expect(Self.value("cache-control", in: answer) == ["no-store"], "\(name): \(answer.prefix(300))")
            #expect(Self.value("referrer-policy", in: answer) == ["no-referrer"], "\(name): \(answer.prefix(300))")
        }
        #expect(Self.value("content-type", in: server.get("/state")) == ["application/json"])
    }
}
