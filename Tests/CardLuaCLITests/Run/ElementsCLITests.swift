import CardLuaTestSupport
import Foundation
import Testing

/// Contract v2 through the command: the element query's frames, and its errors as one
/// line with exit status 1 (run) or a diagnostic (check).
@Suite struct ElementsCLITests {
    static let badList = """
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(200, 300)
    end
    function layoutAttributesForElements(rect, layout)
      local all = layout:layoutAttributesForElements(rect)
      all[#all + 1] = layout:layoutAttributesForItem(IndexPath(0))
      return all
    end

    """

    /// The deck at offset 746: cards 0 and 1 are shown although their frames are off
    /// screen, pinned at the visible centre (953).
    @Test func theDeckShowsThePassedCards() throws {
        let result = try CLI.run(["run", CLI.script("stacked-deck.lua"), "--offset", "746", "--format", "json"])
        try #require(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let frames = try #require(json["frames"] as? [[String: Any]])
        let items = try #require(frames.first?["items"] as? [[String: Any]])
        #expect(items.compactMap { $0["item"] as? Int } == [0, 1, 2, 3, 4])
        let first = try #require(items.first?["center"] as? [String: Double])
        #expect(first["x"] == 953 && first["y"] == 368)
        #expect(items.first?["zIndex"] as? Int == -3)
    }

    @Test func aDuplicateIsOneLineAndExitOne() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.badList, named: "twice.lua", in: directory)
        let result = try CLI.run(["run", "twice.lua", "--offset", "0"], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").first
                == "twice.lua:8: layoutAttributesForElements: item 0: returned twice in section 0 (elements 1 and 5 of the list)")
        #expect(result.stdout.isEmpty)
    }

    @Test func anUnknownItemAndAWrongTypeAreOneLineAndExitOne() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // (the default viewport, 414 × 736, shows four items: two per column)
        let unknown = Self.badList.replacingOccurrences(
            of: "all[#all + 1] = layout:layoutAttributesForItem(IndexPath(0))", with: "all[1].indexPath = IndexPath(0, 1)")
        _ = try CLI.write(unknown, named: "unknown.lua", in: directory)
        let result = try CLI.run(["run", "unknown.lua", "--offset", "0"], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").first
                == "unknown.lua:8: layoutAttributesForElements: item 0: not in the layout: there is no section 1 (the layout has 1 section)")

        let typed = Self.badList.replacingOccurrences(
            of: "all[#all + 1] = layout:layoutAttributesForItem(IndexPath(0))", with: "all[1].zIndex = 1.5")
        _ = try CLI.write(typed, named: "typed.lua", in: directory)
        let wrong = try CLI.run(["run", "typed.lua", "--offset", "0"], directory: directory)
        #expect(wrong.status == 1)
        #expect(wrong.stderr.split(separator: "\n").first
                == "typed.lua:8: layoutAttributesForElements: item 0: attributes.zIndex is 1.5, expected a whole number from -2147483648 to 2147483647; use math.floor(…) to make it one")
    }

    /// The new keys come from the one list: a misspelling on `attributes` or on an element
    /// query's table is a warning with a "did you mean", from check and from run.
    @Test func misspelledAppearanceKeysGetASuggestion() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("""
        function transform(attributes)
          attributes.cornerRadus = 3
        end
        function layoutAttributesForElements(rect, layout)
          local all = layout:layoutAttributesForElements(rect)
          for _, a in ipairs(all) do a.shadowOpactiy = 0.2 end
          return all
        end

        """, named: "typo.lua", in: directory)
        let first = "typo.lua:2: warning: attributes.cornerRadus is not a field of attributes; cardlua ignores it (first written for item 0) — did you mean cornerRadius?"
        let second = "typo.lua:6: warning: attributes.shadowOpactiy is not a field of attributes; cardlua ignores it (first written for item 0) — did you mean shadowOpacity?"
        let check = try CLI.run(["check", "typo.lua"], directory: directory)
        #expect(check.status == 0, "warnings only")
        #expect(check.stdout.contains(first) && check.stdout.contains(second), "\(check.stdout)")
        let run = try CLI.run(["run", "typo.lua", "--offset", "0"], directory: directory)
        #expect(run.status == 0)
        #expect(run.stderr.contains(first) && run.stderr.contains(second), "\(run.stderr)")
    }

    /// `check` calls the element query on its sample frames.
    @Test func checkReportsTheElementQuerysError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.badList, named: "twice.lua", in: directory)
        let result = try CLI.run(["check", "twice.lua"], directory: directory)
        #expect(result.status == 1)
        #expect(result.stdout.contains("twice.lua:8: layoutAttributesForElements: item 0: returned twice in section 0")
                || result.stderr.contains("twice.lua:8: layoutAttributesForElements: item 0: returned twice in section 0"))
        let good = try CLI.run(["check", CLI.script("stacked-deck.lua")])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
    }
}
