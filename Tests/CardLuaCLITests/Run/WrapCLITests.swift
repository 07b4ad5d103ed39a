import Foundation
import Testing

/// `layout.wraps = true` end to end: a script through `cardlua run`, its JSON.
@Suite struct WrapCLITests {
    static func json(at path: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
    }

    static func snaps(_ document: [String: Any]) throws -> [(proposed: Double, target: Double)] {
        let snaps = try #require(document["snaps"] as? [[String: Any]])
        return try snaps.map { snap in
            let proposed = try #require(snap["proposedContentOffset"] as? [String: Double])
            let target = try #require(snap["targetContentOffset"] as? [String: Double])
            return (try #require(proposed["x"]), try #require(target["x"]))
        }
    }

    @Test func wrapCarouselCrossesTheSeamBackwards() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("seam.json")
        let result = try CLI.run(["run", CLI.script("wrap-carousel.lua"), "--scenario", "seam-backward",
                                  "-o", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(text.contains("\"isPagingEnabled\": false, \"wraps\": true }"))
        let document = try Self.json(at: output)
        // 414-wide viewport, cards 240 + 20: card i centred at 207 + 260·i, period 8·260 = 2080.
        // A fling of −6 pt/ms at the fast rate proposes −5.99·0.99/0.01 = −593.01 (centre
        // −386.01); the nearest card centre is card 6 one period back, 207 + 1560 − 2080 = −313,
        // so the target is −313 − 207 = −520.
        let snap = try #require(try Self.snaps(document).first)
        #expect(abs(snap.proposed - -593.01) < 1e-9)
        #expect(snap.target == -520)
        let frames = try #require(document["frames"] as? [[String: Any]])
        let last = try #require(frames.last?["items"] as? [[String: Any]])
        let shown = last.compactMap { item -> [Double]? in
            guard let index = item["item"] as? Double, let frame = item["frame"] as? [String: Double],
                  let x = frame["x"] else { return nil }
            return [index, x]
        }
        // At −520 (rect −520…−106): cards 5, 6, 7 of the previous repetition, at 87 + 260·i − 2080.
        #expect(shown == [[5, -693], [6, -433], [7, -173]])
    }

    @Test func aScriptSeesRepetitionsAndUnboundedProposals() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = """
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          layout.itemSize = CGSizeMake(200, 300)
          layout.minimumLineSpacing = 50
          layout.sectionInset = UIEdgeInsetsMake(150, 0, 150, 0)
          layout.wraps = true
        end

        -- Period 4 × 250 = 1000. Rect −1100…200 meets card 3 two periods back (−1250),
        -- cards 0–3 one period back and card 0: six, the first card 3 at −1250.
        function targetContentOffset(proposed, velocity, layout)
          local list = layout:layoutAttributesForElements(CGRectMake(-1100, 0, 1300, 600))
          if #list == 6 and list[1].indexPath.item == 3 and list[1].frame.origin.x == -1250
             and list[6].indexPath.item == 0 and list[6].frame.origin.x == 0 then
            return proposed.x + 7
          end
          return 0
        end

        scenarios = {
          far = { viewport = "400x600", items = 4, steps = { { jump = 90000 }, { fling = 3 },
                                                            { jump = -3000 }, { fling = -1 } } },
        }
        """
        let script = try CLI.write(source, named: "w.lua", in: directory)
        let output = directory.appendingPathComponent("far.json")
        let result = try CLI.run(["run", script, "--scenario", "far", "-o", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let snaps = try Self.snaps(try Self.json(at: output))
        try #require(snaps.count == 2)
        // 90000 + 2.99·499 = 91492.01 and −3000 − 0.99·499 = −3494.01, neither clamped; each + 7.
        #expect(abs(snaps[0].proposed - 91492.01) < 1e-9)
        #expect(abs(snaps[0].target - 91499.01) < 1e-9)
        #expect(abs(snaps[1].proposed - -3494.01) < 1e-9)
        #expect(abs(snaps[1].target - -3487.01) < 1e-9)
    }
}
