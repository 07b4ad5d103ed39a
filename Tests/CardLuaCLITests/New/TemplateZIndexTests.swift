import Foundation
import Testing

/// The blank template stacks the card nearest the centre on top, also when a neighbour
/// is a hair under one pitch away (where `-math.floor(distance)` gave it the centre
/// card's zIndex, and the later index path drew it over the centre card).
@Suite struct TemplateZIndexTests {
    @Test func theCentredCardIsOnTopAtAnyOffset() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #require(try CLI.run(["new", "fx.lua"], directory: directory).status == 0)
        // Cards 289.8 wide, 16 apart: a pitch of 305.8. At offset 0.001 item 0 is 0.001 pt
        // from the centre (0.0000033 pitches), item 1 305.799 pt (0.9999967 pitches).
        for offset in ["0.001", "152.8", "305.799"] {
            let run = try CLI.run(["run", "fx.lua", "--offset", offset, "--format", "json"], directory: directory)
            try #require(run.status == 0, "\(run.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let frame = try #require((json["frames"] as? [[String: Any]])?.first)
            let items = try #require(frame["items"] as? [[String: Any]])
            let centre = (Double(offset) ?? 0) + 207
            func distance(_ item: [String: Any]) -> Double {
                abs(((item["center"] as? [String: Double])?["x"] ?? 0) - centre)
            }
            let sorted = items.sorted { distance($0) < distance($1) }
            let nearest = try #require(sorted.first), next = try #require(sorted.dropFirst().first)
            let z = { (item: [String: Any]) in item["zIndex"] as? Int ?? .min }
            #expect(z(nearest) > z(next), "at \(offset): \(z(nearest)) vs \(z(next))")
        }
    }
}
