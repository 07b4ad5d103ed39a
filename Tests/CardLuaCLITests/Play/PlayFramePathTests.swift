import Foundation
import Testing

/// Every frame `play` draws comes from `run`'s frame path: the script's own element
/// query, the per-frame caps and `transform` — the first paint and a drag included.
extension PlayTests {
    /// icarousel-coverflow.lua answers its own `layoutAttributesForElements` (the turned
    /// cards live there): the page's first frame and a drag frame show what `run --offset`
    /// computes at the same offsets, not flat cards.
    @Test func theFirstFrameAndADragFrameAreRunsFrames() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = CLI.script("effects/icarousel-coverflow.lua")
        let play = try PlayServer([script], directory: directory)
        defer { play.process.kill() }

        let first = try #require(try PlayServer.frames(play.get("/state")).first)
        let firstOffset = try #require(first["o"] as? [Double])
        try expectSameCards(first, try runFrame(script, offset: firstOffset[0]), "first frame")
        // Not a vacuous match: the effect turns the cards beside the centre.
        let turned = (first["c"] as? [[Any]] ?? []).contains { card in
            let m = card[6..<22].compactMap { ($0 as? NSNumber)?.doubleValue }
            return m != [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        }
        #expect(turned, "every card of the first frame is flat")

        #expect(play.post("/input", #"{"type":"down","t":1}"#).hasPrefix("HTTP/1.1 200"))
        let moved = play.post("/input", #"{"type":"move","t":1.1,"x":-130}"#)
        let drag = try #require(try PlayServer.frames(moved).first)
        let dragOffset = try #require(drag["o"] as? [Double])
        #expect(dragOffset[0] != firstOffset[0], "the drag moved the content")
        #expect(drag["p"] as? String == "dragging")
        try expectSameCards(drag, try runFrame(script, offset: dragOffset[0]), "drag frame")
        #expect(play.process.interruptAndWait(timeout: 20) == 0)
    }
}
