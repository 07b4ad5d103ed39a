import Foundation
import Testing

/// `--items 5,8,3`, `--rtl`, scenario `items = { … }` / `rtl = true` /
/// `scrollToItem = { item, section }`, and `check` on the size callbacks, end to end.
@Suite struct SizesCLITests {
    static let horizontal = """
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(300, 500)
      layout.sectionInset = UIEdgeInsetsMake(118, 57, 118, 57)
      layout.minimumLineSpacing = 0
    end

    """

    static func run(_ source: String, _ arguments: [String]) throws -> CLI.Result {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(source, named: "effect.lua", in: directory)
        return try CLI.run(["run", "effect.lua"] + arguments, directory: directory)
    }

    @Test func itemsPerSectionAndRightToLeft() throws {
        // Sections 2 and 1: each 57 + 300·n + 57 → 714 + 414 = 1128 wide.
        let ltr = try Self.run(Self.horizontal, ["--items", "2,1", "--offset", "0", "--format", "json"])
        #expect(ltr.status == 0, "\(ltr.stderr)")
        #expect(ltr.stdout.contains("\"contentSize\": { \"width\": 1128, \"height\": 736 }"))
        #expect(!ltr.stdout.contains("layoutDirection"))
        // Right to left: the same content, mirrored; --offset counts from the left edge, so
        // at 0 the bounds show section 1's item 0 (57…357 mirrored from 771…1071).
        let rtl = try Self.run(Self.horizontal, ["--items", "2,1", "--rtl", "--offset", "0", "--format", "json"])
        #expect(rtl.status == 0, "\(rtl.stderr)")
        #expect(rtl.stdout.contains("\"layoutDirection\": \"rightToLeft\" }"))
        #expect(rtl.stdout.contains("{ \"section\": 1, \"item\": 0, \"frame\": { \"x\": 57, \"y\": 118, \"width\": 300, \"height\": 500 }"))
        // The demo right to left starts at the largest offset, 1128 − 414 = 714 (item 0 of
        // section 0 at 1128 − 57 − 300 = 771, centred: 921 − 207 = 714).
        let demo = try Self.run(Self.horizontal, ["--items", "2,1", "--rtl", "--format", "json"])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout.contains("{ \"time\": 0, \"contentOffset\": { \"x\": 714, \"y\": 0 }"))
    }

    @Test(arguments: [["--items", "5,x"], ["--items", "5,,3"], ["--items", "-1"], ["--items", "600000,500000"],
                      ["--rtl=yes"]])
    func badValuesAreUsageErrors(_ arguments: [String]) throws {
        let result = try Self.run(Self.horizontal, arguments)
        #expect(result.status == 2)
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("cardlua: --") || first.hasPrefix("cardlua: --rtl"), "\(result.stderr)")
    }

    @Test func scenarioSectionsRightToLeftAndScrollToItem() throws {
        let source = Self.horizontal + """
        scenarios = {
          s = { items = { 3, 4 }, rtl = true, steps = { { wait = 0 }, { scrollToItem = { item = 2, section = 1 }, duration = 0 } } },
          bad = { items = { 3, -1 }, steps = {} },
        }
        """
        // 7 items in two sections: 2·114 + 2100 = 2328 wide, largest offset 1914. Section
        // 1's item 2 at 1014 + 57 + 600 = 1671 unmirrored, centre 1821 → 2328 − 1821 = 507
        // mirrored: offset 507 − 207 = 300.
        let result = try Self.run(source, ["--scenario", "s", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let offsets = result.stdout.components(separatedBy: "\"contentOffset\": { \"x\": ").dropFirst()
            .compactMap { Double($0.prefix(while: { $0 != "," })) }
        #expect(offsets == [1914, 300])
        let bad = try Self.run(source, ["--scenario", "bad"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("items[2] must be a whole number of zero or more (got -1)"), "\(bad.stderr)")
    }

    @Test func checkTakesRtl() throws {
        let source = """
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          assert(layout.collectionView.effectiveUserInterfaceLayoutDirection == "rightToLeft", "left to right")
        end
        """
        #expect(try CheckTests.check(source, ["--rtl"]).status == 0)
        let plain = try CheckTests.check(source)
        #expect(plain.status == 1 && plain.stdout.contains("left to right"))
    }

    @Test func checkSuggestsAndValidatesTheSizeCallbacks() throws {
        let typo = try CheckTests.check("""
        function prepare(layout) layout.scrollDirection = "horizontal" end
        function sizeforitem(indexPath, layout) return CGSizeMake(10, 10) end
        """)
        #expect(typo.status == 0, "warnings only")
        #expect(typo.stdout.contains("effect.lua:2: warning: function 'sizeforitem' is never called by cardlua — did you mean sizeForItem?"),
                "\(typo.stdout)")
        let bad = try CheckTests.check("""
        function prepare(layout) layout.scrollDirection = "horizontal" end
        function sizeForItem(indexPath, layout)
          return CGSizeMake(10, indexPath.item == 4 and 0 or 10)
        end
        """)
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("effect.lua:3: sizeForItem: item 4: returned height = 0; it must be positive"),
                "\(bad.stdout)")
    }
}
