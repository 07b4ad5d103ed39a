import Testing
@testable import CardLayout

/// UIKit's size rule: an item taller (horizontal flow) or wider (vertical flow) than the
/// collection view minus the section insets on that axis is undefined behaviour, which
/// UIKit logs. The golden numbers are the sums worked out by hand beside them.
@Suite struct SizeRuleTests {
    static func horizontal(item: Size, inset: CardEdgeInsets) -> FlowLayoutConfiguration {
        var c = FlowLayoutConfiguration()
        c.scrollDirection = .horizontal
        c.itemSize = item
        c.sectionInset = inset
        c.minimumLineSpacing = 0
        return c
    }

    /// lol.lua's numbers: 500 + 200 + 200 = 900 > 736.
    @Test func theLoLSeedBreaksItAcrossAHorizontalFlow() throws {
        let c = Self.horizontal(item: Size(width: 300, height: 500),
                                inset: CardEdgeInsets(top: 200, left: 50, bottom: 200, right: 50))
        let layout = FlowLayout(configuration: c, viewportSize: Size(width: 414, height: 736),
                                numberOfItemsInSections: [20])
        let breach = try #require(layout.sizeRuleBreaches.first)
        #expect(layout.sizeRuleBreaches.count == 1)
        #expect(breach == FlowLayout.SizeRuleBreach(section: 0, horizontal: true, itemExtent: 500,
                                                    viewportExtent: 736, insetStart: 200, insetEnd: 200))
        #expect(breach.needed == 900)
    }

    /// 368 + 184 + 184 = 736: an exact fit is no breach; 552 + 92 + 92 = 736 neither.
    @Test func anExactFitOrLessIsNone() {
        for (item, inset) in [(368.0, 184.0), (552, 92), (100, 0)] {
            let c = Self.horizontal(item: Size(width: 290, height: item),
                                    inset: CardEdgeInsets(top: inset, left: 62, bottom: inset, right: 62))
            let layout = FlowLayout(configuration: c, viewportSize: Size(width: 414, height: 736),
                                    numberOfItemsInSections: [20])
            #expect(layout.sizeRuleBreaches.isEmpty, "item \(item), insets \(inset)")
        }
    }

    /// Vertical: the width counts, with the left and right insets: 400 + 10 + 10 = 420 > 414.
    @Test func aVerticalFlowChecksTheWidth() throws {
        var c = FlowLayoutConfiguration()
        c.scrollDirection = .vertical
        c.itemSize = Size(width: 400, height: 900)  // taller than the view: fine along the scroll
        c.sectionInset = CardEdgeInsets(top: 0, left: 10, bottom: 0, right: 10)
        let layout = FlowLayout(configuration: c, viewportSize: Size(width: 414, height: 736),
                                numberOfItemsInSections: [5])
        let breach = try #require(layout.sizeRuleBreaches.first)
        #expect(breach == FlowLayout.SizeRuleBreach(section: 0, horizontal: false, itemExtent: 400,
                                                    viewportExtent: 414, insetStart: 10, insetEnd: 10))
        #expect(FlowLayout.sizeRuleMessage(horizontal: false).contains(
            "the item width must be less than the width of the UICollectionView minus the section insets left and right values, minus the content insets left and right values."))
    }

    /// Per section: section 1's insets (300 + 300 + 200 = 800 > 736) break it, section 0's
    /// (0 + 200 + 0) and the empty section 2's do not; per item: item 3 of section 0
    /// (750 > 736) does.
    @Test func perSectionInsetsAndPerItemSizes() throws {
        let c = Self.horizontal(item: Size(width: 100, height: 200), inset: .zero)
        let insets = FlowLayout(configuration: c, viewportSize: Size(width: 414, height: 736),
                                numberOfItemsInSections: [3, 3, 0],
                                metrics: FlowLayoutMetrics(sectionInsets: [
                                    .zero, CardEdgeInsets(top: 300, left: 0, bottom: 300, right: 0),
                                    CardEdgeInsets(top: 400, left: 0, bottom: 400, right: 0),
                                ]))
        #expect(insets.sizeRuleBreaches.map(\.section) == [1])
        #expect(insets.sizeRuleBreaches.first?.needed == 800)

        var sizes = [Size](repeating: Size(width: 100, height: 200), count: 6)
        sizes[3] = Size(width: 100, height: 750)
        let perItem = FlowLayout(configuration: c, viewportSize: Size(width: 414, height: 736),
                                 numberOfItemsInSections: [6], metrics: FlowLayoutMetrics(itemSizes: sizes))
        #expect(perItem.sizeRuleBreaches.map(\.itemExtent) == [750])
    }
}
