import CardLayout
import CardLua
import Foundation
import Testing

/// Sections and sizes from a script: sizeForItem, insetForSection, referenceSizeForHeader/
/// Footer, collectionView.numberOfSections / :numberOfItems, negative line spacing and the
/// bounce flags. Golden frames are worked out by hand in the comments.
@Suite struct SizeCallbackTests {
    static let viewport = Size(width: 414, height: 736)

    /// prepare and the metrics, as `run` does them, for `counts`.
    static func layout(_ source: String, _ counts: [Int], viewport: Size = viewport,
                       limits: ScriptLimits = ScriptLimits()) throws -> FlowLayout {
        let effect = try LuaEffect(source: source, chunkName: "test.lua", limits: limits)
        return try ScenarioRunner(effect: effect, scriptName: "test.lua")
            .preparedLayout(viewportSize: viewport, numberOfItems: counts)
    }

    static func failure(_ source: String, _ counts: [Int], limits: ScriptLimits = ScriptLimits()) -> ScriptError? {
        do {
            _ = try layout(source, counts, limits: limits)
            return nil
        } catch let error as ScriptError {
            return error
        } catch {
            return nil
        }
    }

    static func frame(_ layout: FlowLayout, _ item: Int, _ section: Int) -> Rect? {
        layout.layoutAttributesForItem(at: CardIndexPath(item: item, section: section))?.frame
    }

    static let sections = """
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(100, 200)
      layout.minimumLineSpacing = -20
      assert(layout.collectionView.numberOfSections == 2)
      assert(layout.collectionView:numberOfItems(0) == 5 and layout.collectionView:numberOfItems(1) == 2)
    end
    function sizeForItem(indexPath, layout)
      return CGSizeMake(100 + 10 * indexPath.item, 200)
    end
    function insetForSection(section, layout)
      return UIEdgeInsetsMake(10, 20 * (section + 1), 10, 5)
    end
    function referenceSizeForHeader(section, layout)
      return CGSizeMake(30 + section, 0)
    end
    """

    @Test func sizesInsetsAndHeadersFromTheScript() throws {
        let layout = try Self.layout(Self.sections, [5, 2])
        #expect(layout.usesPerItemSizes)
        // Section 0: header 0…30; lines from 30 + 20 = 50; line length 736 − 20 = 716 holds
        // 3 items 200 high (620 ≤ 716 < 830), justified: gap (716 − 600)/2 = 58, y = 10,
        // 268, 526. Column thickness 120 (widths 100, 110, 120), each centred across it:
        // x = 60, 55, 50. Next column at 50 + 120 − 20 = 150 (the spacing is −20): items 3
        // and 4 (130, 140 wide), the last line packed: y = 10, 220; thickness 140: x = 155, 150.
        let expected: [(Int, Rect)] = [
            (0, Rect(x: 60, y: 10, width: 100, height: 200)), (1, Rect(x: 55, y: 268, width: 110, height: 200)),
            (2, Rect(x: 50, y: 526, width: 120, height: 200)), (3, Rect(x: 155, y: 10, width: 130, height: 200)),
            (4, Rect(x: 150, y: 220, width: 140, height: 200)),
        ]
        for (item, rect) in expected { #expect(Self.frame(layout, item, 0) == rect, "item \(item)") }
        // Lines end at 150 + 140 = 290, + right inset 5: section 1 at 295, header 31 wide,
        // lines at 295 + 31 + 40 = 366: items 100 and 110 wide, thickness 110: x = 371, 366.
        #expect(layout.supplementaryFrame(ofKind: .header, inSection: 1) == Rect(x: 295, y: 0, width: 31, height: 736))
        #expect(Self.frame(layout, 0, 1) == Rect(x: 371, y: 10, width: 100, height: 200))
        #expect(Self.frame(layout, 1, 1) == Rect(x: 366, y: 220, width: 110, height: 200))
        // Content: 366 + 110 + 5 = 481.
        #expect(layout.collectionViewContentSize.width == 481)
        // The overlap of the two columns (150…170): x 160…165 meets items 1 (55…165), 2
        // (50…170), 3 (155…285) and 4 (150…290), not item 0 (60…160 only touches it).
        let hits = layout.layoutAttributesForElements(in: Rect(x: 160, y: 0, width: 5, height: 736)).map(\.indexPath.item)
        #expect(hits == [1, 2, 3, 4])
    }

    @Test func aMillionSizesInOneCall() throws {
        let source = """
        function prepare(layout)
          layout.scrollDirection = "horizontal"
        end
        function sizeForItem(indexPath, layout)
          return CGSizeMake(50 + indexPath.item % 7, 100)
        end
        """
        let n = 1_000_000
        let layout = try Self.layout(source, [n])
        #expect(layout.usesPerItemSizes)
        // Columns of 6 items 100 high (6·100 + 5·10 = 650 ≤ 736 < 760), justified: gap
        // (736 − 600)/5 = 27.2. Column 0: widths 50…55, thickness 55: item 0 at x = 2.5.
        #expect(Self.frame(layout, 0, 0) == Rect(x: 2.5, y: 0, width: 50, height: 100))
        // Column 1 (items 6…11: widths 56, 50, 51, 52, 53, 54) at 55 + 10 = 65, thickness 56:
        // item 7 (50 wide) at x = 65 + 3, y = 127.2.
        let seven = try #require(Self.frame(layout, 7, 0))
        #expect(seven.minX == 68 && abs(seven.minY - 127.2) < 1e-9 && seven.width == 50)
        // The last column holds 1 000 000 − 6·166 666 = 4 items, packed: item 999 999 at
        // y = 3·110 = 330, x = the sum of every earlier column's thickness + spacing,
        // centred across its own (widths of items 999 996…999 999).
        var x = 0.0
        for column in 0..<166_666 {
            x += Double((0..<6).map { 50 + (column * 6 + $0) % 7 }.max()!) + 10
        }
        let lastWidths = (999_996..<n).map { Double(50 + $0 % 7) }
        let last = try #require(Self.frame(layout, n - 1, 0))
        #expect(abs(last.minX - (x + (lastWidths.max()! - lastWidths[3]) / 2)) < 1e-6)
        #expect(last.minY == 330 && last.width == lastWidths[3])
        #expect(abs(layout.collectionViewContentSize.width - (x + lastWidths.max()!)) < 1e-6)
    }

    /// The short form: a size callback may return the numbers themselves (`return w, h`;
    /// insets `return top, left, bottom, right`), with the same frames as the values.
    @Test func numbersInsteadOfValuesGiveTheSameLayout() throws {
        let short = Self.sections
            .replacingOccurrences(of: "return CGSizeMake(100 + 10 * indexPath.item, 200)",
                                  with: "return 100 + 10 * indexPath.item, 200")
            .replacingOccurrences(of: "return UIEdgeInsetsMake(10, 20 * (section + 1), 10, 5)",
                                  with: "return 10, 20 * (section + 1), 10, 5")
            .replacingOccurrences(of: "return CGSizeMake(30 + section, 0)", with: "return 30 + section, 0")
        #expect(!short.contains("return CGSizeMake") && !short.contains("return UIEdgeInsetsMake"))
        let layout = try Self.layout(short, [5, 2])
        // The frames worked out in sizesInsetsAndHeadersFromTheScript.
        #expect(Self.frame(layout, 1, 0) == Rect(x: 55, y: 268, width: 110, height: 200))
        #expect(Self.frame(layout, 4, 0) == Rect(x: 150, y: 220, width: 140, height: 200))
        #expect(layout.supplementaryFrame(ofKind: .header, inSection: 1) == Rect(x: 295, y: 0, width: 31, height: 736))
        #expect(Self.frame(layout, 1, 1) == Rect(x: 366, y: 220, width: 110, height: 200))
        #expect(layout.collectionViewContentSize.width == 481)
    }

    @Test func badShortFormsAreOneLineErrors() throws {
        let prefix = "function prepare(layout) layout.scrollDirection = \"horizontal\" end\n"
        let alone = try #require(Self.failure(prefix + "function sizeForItem(ip)\n  return 80\nend", [2]))
        #expect(alone.message == "test.lua:3: sizeForItem: item 0: returned nothing as the height after 1 number; "
                + "expected 2 numbers (width, height) or a CGSize")
        let word = try #require(Self.failure(prefix + "function sizeForItem(ip)\n  return 80, 'tall'\nend", [2]))
        #expect(word.message == "test.lua:3: sizeForItem: item 0: returned a string as the height after 1 number; "
                + "expected 2 numbers (width, height) or a CGSize")
        let zero = try #require(Self.failure(prefix + """
        function sizeForItem(ip)
          if ip.item == 3 then return 0, 10 end
          return 10, 10
        end
        """, [5]))
        #expect(zero.message == "test.lua:3: sizeForItem: item 3: returned width = 0; it must be positive")
        let nan = try #require(Self.failure(prefix + "function sizeForItem(ip)\n  return 1, 0/0\nend", [1]))
        #expect(nan.message == "test.lua:3: sizeForItem: item 0: returned height = NaN")
        let huge = try #require(Self.failure(prefix + "function referenceSizeForHeader(s)\n  return 2e15, 0\nend", [1]))
        #expect(huge.message == "test.lua:3: referenceSizeForHeader: section 0: returned width = 2e+15, "
                + "beyond the largest magnitude allowed (1e15)")
        let three = try #require(Self.failure(prefix + "function insetForSection(s)\n  return 1, 2, 3\nend", [1]))
        #expect(three.message == "test.lua:3: insetForSection: section 0: returned nothing as the right after 3 numbers; "
                + "expected 4 numbers (top, left, bottom, right) or a UIEdgeInsets")
        let negative = try #require(Self.failure(prefix + "function insetForSection(s)\n  return 0, -4, 0, 0\nend", [1]))
        #expect(negative.message == "test.lua:3: insetForSection: section 0: returned left = -4; it must be zero or more")
    }

    @Test func badSizesAreOneLineErrors() throws {
        let prefix = "function prepare(layout) layout.scrollDirection = \"horizontal\" end\n"
        // Line 2 defines sizeForItem; a bad value is reported at the line of its `return`.
        let word = try #require(Self.failure(prefix + "function sizeForItem(ip)\n  return 'big'\nend", [3]))
        #expect(word.message == "test.lua:3: sizeForItem: item 0: returned a string; expected a CGSize")
        let negative = try #require(Self.failure(prefix + """
        function sizeForItem(ip)
          if ip.section == 1 and ip.item == 2 then return CGSizeMake(-5, 10) end
          return CGSizeMake(10, 10)
        end
        """, [3, 4]))
        #expect(negative.message == "test.lua:3: sizeForItem: item 2: section 1: returned width = -5; it must be positive")
        #expect(negative.callback == "sizeForItem" && negative.item == 2)
        let nan = try #require(Self.failure(prefix + "function sizeForItem(ip)\n  return { width = 1, height = 0/0 }\nend", [1]))
        #expect(nan.message == "test.lua:3: sizeForItem: item 0: returned height = NaN")
        let missing = try #require(Self.failure(prefix + "function sizeForItem(ip)\n  return { width = 1 }\nend", [1]))
        #expect(missing.message == "test.lua:3: sizeForItem: item 0: returned a CGSize whose height is missing; expected a number")
        // An error inside the callback keeps its own line.
        let inside = try #require(Self.failure(prefix + "function sizeForItem(ip)\n  return ip.nothing.width\nend", [1]))
        #expect(inside.message.hasPrefix("test.lua:3: sizeForItem: item 0: "))
        let inset = try #require(Self.failure(prefix + "function insetForSection(s)\n  if s == 1 then return end\n  return UIEdgeInsetsMake(0, 0, 0, 0)\nend", [1, 1]))
        #expect(inset.message == "test.lua:3: insetForSection: section 1: returned nothing; expected a UIEdgeInsets")
        let footer = try #require(Self.failure(prefix + "function referenceSizeForFooter(s)\n  return CGSizeMake(-1, 0)\nend", [1]))
        #expect(footer.message == "test.lua:3: referenceSizeForFooter: section 0: returned width = -1; it must be zero or more")
        // numberOfItems outside the sections, at the line that asked.
        let outside = try #require(Self.failure("function prepare(layout)\n  local n = layout.collectionView:numberOfItems(3)\nend", [5, 8, 3]))
        #expect(outside.message == "test.lua:2: prepare: numberOfItems: no section 3 (the collection view has 3 sections: 0 to 2)")
    }

    @Test func theBudgetIsPerItem() throws {
        // 300 instructions or so per item: far below a budget of 20 000 each, far above it
        // for the whole million… a loop that never ends still stops, named.
        let honest = """
        function sizeForItem(ip)
          local s = 0
          for i = 1, 50 do s = s + i end
          return CGSizeMake(10 + s % 3, 10)
        end
        """
        let limits = ScriptLimits(maxSteps: 20_000)
        #expect(try Self.layout(honest, [20_000], limits: limits).usesPerItemSizes)
        let forever = "function sizeForItem(ip)\n  while true do end\nend"
        let error = try #require(Self.failure(forever, [3], limits: limits))
        #expect(error.kind == .limit && error.limit == .instructions && error.callback == "sizeForItem")
    }

    @Test func negativeLineSpacingIsAccepted() throws {
        let layout = try Self.layout("""
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          layout.itemSize = CGSizeMake(100, 100)
          layout.minimumLineSpacing = -40
        end
        """, [3], viewport: Size(width: 250, height: 100))
        // Item k at x = 60k (pitch 100 − 40); content 2·60 + 100 = 220.
        #expect(Self.frame(layout, 2, 0) == Rect(x: 120, y: 0, width: 100, height: 100))
        #expect(layout.collectionViewContentSize.width == 220)
        let bad = try #require(Self.failure("function prepare(layout) layout.minimumInteritemSpacing = -1 end", [3]))
        #expect(bad.text.contains("layout.minimumInteritemSpacing must be zero or more"))
    }

    // MARK: Bounce flags from a script

    /// One 200-pt card (it fits the 414-pt viewport) and `flags` set on the collection view.
    private func fitting(_ flags: String, _ steps: [ScenarioStep]) throws -> [Double] {
        let effect = try LuaEffect(source: """
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          layout.itemSize = CGSizeMake(200, 200)
          \(flags)
        end
        """, chunkName: "test.lua")
        let scenario = Scenario(name: "fits", numberOfItems: [1], steps: steps)
        return try ScenarioRunner(effect: effect, scriptName: "t").run(scenario).frames.map(\.contentOffset.x)
    }

    @Test func fittingContentMovesOnlyWithAlwaysBounce() throws {
        let steps: [ScenarioStep] = [.drag(by: 100, duration: 0.5), .fling(velocity: 3)]
        for flags in ["", "layout.collectionView.alwaysBounceVertical = true",
                      "layout.collectionView.alwaysBounceHorizontal = true; layout.collectionView.bounces = false"] {
            #expect(try fitting(flags, steps).allSatisfy { $0 == 0 }, "\(flags)")
        }
        let xs = try fitting("layout.collectionView.alwaysBounceHorizontal = true", steps)
        // 100 pt pulled: (1 − 1/(100·0.55/414 + 1))·414 = 48.5501…
        #expect(abs(xs[30] - 48.5501066) < 1e-6)
        #expect(xs.last == 0 && xs.max()! > 48.56)
    }

    @Test func withoutBouncesTheContentStopsAtTheEdges() throws {
        // Ten 200×700 cards (one per column: 700 + 10 + 700 > 736), spacing 10 by default:
        // content 10·200 + 9·10 = 2090, largest offset 2090 − 414 = 1676. A drag back from 0
        // and a fast fling stay in 0…1676.
        let effect = try LuaEffect(source: """
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          layout.itemSize = CGSizeMake(200, 700)
          layout.collectionView.bounces = false
        end
        """, chunkName: "test.lua")
        let scenario = Scenario(name: "edges", numberOfItems: [10], steps: [
            .drag(by: -100, duration: 0.5), .fling(velocity: -3), .jump(offset: 1500), .fling(velocity: 20),
        ])
        let xs = try ScenarioRunner(effect: effect, scriptName: "t").run(scenario).frames.map(\.contentOffset.x)
        #expect(xs.allSatisfy { $0 >= 0 && $0 <= 1676 })
        #expect(xs[1...30].allSatisfy { $0 == 0 })
        #expect(xs.last == 1676)
        // With bounces (the default) the same fling overshoots the end first.
        let bouncing = try LuaEffect(source: """
        function prepare(layout)
          layout.scrollDirection = "horizontal"
          layout.itemSize = CGSizeMake(200, 700)
        end
        """, chunkName: "test.lua")
        let ys = try ScenarioRunner(effect: bouncing, scriptName: "t").run(scenario).frames.map(\.contentOffset.x)
        #expect(ys.contains { $0 > 1676 } && ys.contains { $0 < 0 })
    }
}
