import Foundation
import Testing
@testable import CardLayout

// Sections with their own insets and header/footer sizes, negative line spacing, right to
// left. Every golden number is worked out by hand in the comment beside it (UIKit's flow
// rules: docs/script-api.md), never taken from the code under test.

private func near(_ a: Rect?, _ b: Rect, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance
        && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}

private func frame(_ layout: FlowLayout, _ item: Int, _ section: Int) -> Rect? {
    layout.layoutAttributesForItem(at: CardIndexPath(item: item, section: section))?.frame
}

/// An effect that sets a configuration and answers fixed metrics.
private final class MetricsEffect: Effect {
    let configure: (inout FlowLayoutConfiguration) -> Void
    let metrics: FlowLayoutMetrics?
    var countsSeen: [[Int]] = []

    init(metrics: FlowLayoutMetrics? = nil, _ configure: @escaping (inout FlowLayoutConfiguration) -> Void) {
        self.configure = configure
        self.metrics = metrics
    }

    func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws { configure(&configuration) }
    func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size,
                 numberOfItemsInSections: [Int]) throws {
        countsSeen.append(numberOfItemsInSections)
        configure(&configuration)
    }
    func flowLayoutMetrics(configuration: FlowLayoutConfiguration, viewportSize: Size,
                           numberOfItems: [Int]) throws -> FlowLayoutMetrics? { metrics }
    func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding, context: ScrollContext) throws {}
    func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                             context: ScrollContext) throws -> Point { proposed }
}

@Suite struct SectionsAndSizesTests {
    /// Vertical, 300 pt wide, items 100×50, spacings 10. Section 0: inset (5, 10, 15, 10),
    /// header 30 high; section 1: inset (20, 50, 0, 50), footer 40 high.
    private func twoSections(perItem: Bool = false) -> FlowLayout {
        var c = FlowLayoutConfiguration()
        c.itemSize = Size(width: 100, height: 50)
        let metrics = FlowLayoutMetrics(
            itemSizes: perItem ? Array(repeating: Size(width: 100, height: 50), count: 5) : nil,
            sectionInsets: [CardEdgeInsets(top: 5, left: 10, bottom: 15, right: 10),
                            CardEdgeInsets(top: 20, left: 50, bottom: 0, right: 50)],
            headerReferenceSizes: [Size(width: 0, height: 30), .zero],
            footerReferenceSizes: [.zero, Size(width: 0, height: 40)])
        return FlowLayout(configuration: c, viewportSize: Size(width: 300, height: 1000),
                          numberOfItemsInSections: [3, 2], metrics: metrics)
    }

    @Test(arguments: [false, true])
    func perSectionInsetsHeadersAndFooters(perItem: Bool) throws {
        let layout = twoSections(perItem: perItem)
        #expect(layout.usesPerItemSizes == perItem)
        // Section 0: header (0, 0, 300, 30); lines from 30 + 5 = 35; line length
        // 300 − 20 = 280 holds 2 items (100 + 10 + 100 ≤ 280 < 320), justified: gap 80,
        // x = 10 and 190; the last line's lone item at the first column, x = 10, y = 35 + 60.
        #expect(layout.supplementaryFrame(ofKind: .header, inSection: 0) == Rect(x: 0, y: 0, width: 300, height: 30))
        #expect(layout.supplementaryFrame(ofKind: .footer, inSection: 0) == nil)
        #expect(near(frame(layout, 0, 0), Rect(x: 10, y: 35, width: 100, height: 50)))
        #expect(near(frame(layout, 1, 0), Rect(x: 190, y: 35, width: 100, height: 50)))
        #expect(near(frame(layout, 2, 0), Rect(x: 10, y: 95, width: 100, height: 50)))
        // Lines end at 145, + bottom 15: section 1 starts at 160 (no header), lines at
        // 160 + 20 = 180; line length 300 − 100 = 200 holds one item (210 > 200), centred:
        // x = 50 + (200 − 100)/2 = 100; y = 180, 240.
        #expect(layout.supplementaryFrame(ofKind: .header, inSection: 1) == nil)
        #expect(near(frame(layout, 0, 1), Rect(x: 100, y: 180, width: 100, height: 50)))
        #expect(near(frame(layout, 1, 1), Rect(x: 100, y: 240, width: 100, height: 50)))
        // Lines end at 290, bottom 0: the footer (0, 290, 300, 40); content 330 high.
        #expect(near(layout.supplementaryFrame(ofKind: .footer, inSection: 1), Rect(x: 0, y: 290, width: 300, height: 40)))
        #expect(layout.collectionViewContentSize == Size(width: 300, height: 330))
        // A rect query over the boundary (y 140…185) finds section 0's item 2 (95…145) and
        // section 1's item 0 (180…230); y 280…300 meets only section 1's footer.
        let hits = layout.layoutAttributesForElements(in: Rect(x: 0, y: 140, width: 300, height: 45)).map(\.indexPath)
        #expect(hits == [CardIndexPath(item: 2, section: 0), CardIndexPath(item: 0, section: 1)])
        let views = layout.supplementaryFrames(in: Rect(x: 0, y: 280, width: 300, height: 20))
        #expect(views.count == 1 && views[0].kind == .footer && views[0].section == 1)
    }

    @Test func threeSectionsStackTheirOwnHeaders() {
        // Horizontal, 200 high, items 50×50; insets 75 top and bottom, 5 left and right;
        // headers 10, 20 and 30 wide; line spacing 10.
        var c = FlowLayoutConfiguration()
        c.scrollDirection = .horizontal
        c.itemSize = Size(width: 50, height: 50)
        c.sectionInset = CardEdgeInsets(top: 75, left: 5, bottom: 75, right: 5)
        let metrics = FlowLayoutMetrics(headerReferenceSizes: [Size(width: 10, height: 0), Size(width: 20, height: 0),
                                                               Size(width: 30, height: 0)])
        let layout = FlowLayout(configuration: c, viewportSize: Size(width: 400, height: 200),
                                numberOfItemsInSections: [1, 2, 0], metrics: metrics)
        // Line length 200 − 150 = 50: one item per column, centred: y = 75.
        // Section 0: header 0…10, item at 10 + 5 = 15, ends 15 + 50 + 5 = 70.
        #expect(near(frame(layout, 0, 0), Rect(x: 15, y: 75, width: 50, height: 50)))
        // Section 1: header 70…90, items at 95 and 95 + 60 = 155; ends 155 + 50 + 5 = 210.
        #expect(layout.supplementaryFrame(ofKind: .header, inSection: 1) == Rect(x: 70, y: 0, width: 20, height: 200))
        #expect(near(frame(layout, 0, 1), Rect(x: 95, y: 75, width: 50, height: 50)))
        #expect(near(frame(layout, 1, 1), Rect(x: 155, y: 75, width: 50, height: 50)))
        // Section 2, empty: header 210…240, both insets: ends 250.
        #expect(layout.supplementaryFrame(ofKind: .header, inSection: 2) == Rect(x: 210, y: 0, width: 30, height: 200))
        #expect(layout.collectionViewContentSize.width == 250)
    }

    @Test func negativeLineSpacingOverlapsAndQueriesFindEveryItem() {
        // Horizontal, 100 high, items 100×100, line spacing −40: one item per column,
        // item k at x = 60k; 5 items: content 4·60 + 100 = 340.
        for perItem in [false, true] {
            var c = FlowLayoutConfiguration()
            c.scrollDirection = .horizontal
            c.itemSize = Size(width: 100, height: 100)
            c.minimumLineSpacing = -40
            let layout = FlowLayout(configuration: c, viewportSize: Size(width: 250, height: 100),
                                    numberOfItemsInSections: [5],
                                    metrics: perItem ? FlowLayoutMetrics(itemSizes: Array(repeating: c.itemSize, count: 5)) : nil)
            for k in 0..<5 { #expect(near(frame(layout, k, 0), Rect(x: 60 * Double(k), y: 0, width: 100, height: 100))) }
            #expect(layout.collectionViewContentSize.width == 340)
            // x 125…135 meets item 1 (60…160) and item 2 (120…220), not 0 (…100) or 3 (180…).
            let hits = layout.layoutAttributesForElements(in: Rect(x: 125, y: 0, width: 10, height: 100)).map(\.indexPath.item)
            #expect(hits == [1, 2])
            // x 170…190: items 1 (…160)? no; 2 (120…220) and 3 (180…280).
            let more = layout.layoutAttributesForElements(in: Rect(x: 170, y: 0, width: 20, height: 100)).map(\.indexPath.item)
            #expect(more == [2, 3])
        }
    }

    @Test func rightToLeftMirrorsHorizontalFrames() {
        // Horizontal, items 300×500, insets 57 left/right, header 20 wide, 3 items, line
        // spacing 0: content 20 + 57 + 900 + 57 = 1034. Unmirrored item k at
        // x = 77 + 300k; mirrored x = 1034 − (77 + 300k) − 300 = 657 − 300k. The header
        // (0…20) mirrors to x = 1014.
        for perItem in [false, true] {
            var c = FlowLayoutConfiguration()
            c.scrollDirection = .horizontal
            c.itemSize = Size(width: 300, height: 500)
            c.sectionInset = CardEdgeInsets(top: 118, left: 57, bottom: 118, right: 57)
            c.minimumLineSpacing = 0
            c.headerReferenceSize = Size(width: 20, height: 0)
            c.layoutDirection = .rightToLeft
            let layout = FlowLayout(configuration: c, viewportSize: Size(width: 414, height: 736),
                                    numberOfItemsInSections: [3],
                                    metrics: perItem ? FlowLayoutMetrics(itemSizes: Array(repeating: c.itemSize, count: 3)) : nil)
            #expect(layout.collectionViewContentSize.width == 1034)
            for k in 0..<3 { #expect(near(frame(layout, k, 0), Rect(x: 657 - 300 * Double(k), y: 118, width: 300, height: 500))) }
            #expect(near(layout.supplementaryFrame(ofKind: .header, inSection: 0), Rect(x: 1014, y: 0, width: 20, height: 736)))
            // x 600…700 meets item 0 (657…957) and item 1 (357…657).
            let hits = layout.layoutAttributesForElements(in: Rect(x: 600, y: 0, width: 100, height: 736)).map(\.indexPath.item)
            #expect(hits == [0, 1])
            #expect(layout.supplementaryFrames(in: Rect(x: 1020, y: 0, width: 5, height: 5)).count == 1)
            // Without flipsHorizontallyInOppositeLayoutDirection nothing mirrors.
            c.flipsHorizontallyInOppositeLayoutDirection = false
            let plain = FlowLayout(configuration: c, viewportSize: Size(width: 414, height: 736), numberOfItemsInSections: [3])
            #expect(near(frame(plain, 0, 0), Rect(x: 77, y: 118, width: 300, height: 500)))
        }
    }

    @Test func rightToLeftMirrorsRowsOfAVerticalFlow() {
        // Vertical, 300 wide, items 100×50, spacing 10: 2 per row, justified x = 0 and 200;
        // the last row's lone item at x = 0. Mirrored (x → 300 − x − 100): 200, 0, 200.
        var c = FlowLayoutConfiguration()
        c.itemSize = Size(width: 100, height: 50)
        c.layoutDirection = .rightToLeft
        let layout = FlowLayout(configuration: c, viewportSize: Size(width: 300, height: 500), numberOfItemsInSections: [3])
        #expect(near(frame(layout, 0, 0), Rect(x: 200, y: 0, width: 100, height: 50)))
        #expect(near(frame(layout, 1, 0), Rect(x: 0, y: 0, width: 100, height: 50)))
        #expect(near(frame(layout, 2, 0), Rect(x: 200, y: 60, width: 100, height: 50)))
    }

    @Test func rightToLeftScenariosStartAtTheLargestOffset() throws {
        // The horizontal flow above without a header: content 57 + 900 + 57 = 1014, largest
        // offset 1014 − 414 = 600.
        let effect = MetricsEffect { c in
            c.scrollDirection = .horizontal
            c.itemSize = Size(width: 300, height: 500)
            c.sectionInset = CardEdgeInsets(top: 118, left: 57, bottom: 118, right: 57)
            c.minimumLineSpacing = 0
        }
        var scenario = Scenario(name: "rtl", numberOfItems: [3], steps: [.wait(duration: 0)])
        scenario.layoutDirection = .rightToLeft
        let runner = ScenarioRunner(effect: effect, scriptName: "t")
        let timeline = try runner.run(scenario)
        #expect(timeline.configuration.layoutDirection == .rightToLeft)
        #expect(timeline.frames.first?.contentOffset.x == 600)
        // Item 0 on the right: its frame 657…957 shows in the bounds 600…1014.
        #expect(timeline.frames.first?.items.first.map { near($0.frame, Rect(x: 657, y: 118, width: 300, height: 500)) } == true)
        // A jump keeps UIKit's meaning (from the content's left edge), scrollToItem mirrors:
        // item 2 (57…357) centred: 207 − 207 = 0.
        scenario.steps = [.jump(offset: 100), .scrollToItem(CardIndexPath(item: 2, section: 0), duration: 0)]
        let moved = try runner.run(scenario)
        #expect(moved.frames.map(\.contentOffset.x) == [100, 0])
        // The demo starts at item 0 (the largest offset) and its fast fling goes left, to 0.
        let demo = try runner.runDemo(viewportSize: Scenario.defaultViewportSize, numberOfItems: [3],
                                      framesPerSecond: 60, layoutDirection: .rightToLeft)
        #expect(demo.frames.first?.contentOffset.x == 600)
        #expect(demo.frames.last?.contentOffset.x == 0)
        #expect(effect.countsSeen.allSatisfy { $0 == [3] } && !effect.countsSeen.isEmpty)
    }

    @Test func aLiveSessionRightToLeftStartsAtItemZeroAndRecordsIt() throws {
        // The same carousel as above: largest offset 600, item 0 there.
        let effect = MetricsEffect { c in
            c.scrollDirection = .horizontal
            c.itemSize = Size(width: 300, height: 500)
            c.sectionInset = CardEdgeInsets(top: 118, left: 57, bottom: 118, right: 57)
            c.minimumLineSpacing = 0
        }
        let session = try InteractiveScrollView(effect: effect, numberOfItems: [1, 2], layoutDirection: .rightToLeft)
        // Sections 1 and 2 items: 414 + 714 = 1128 wide, largest offset 714.
        #expect(session.state(at: 0).contentOffset.x == 714)
        #expect(session.configuration.layoutDirection == .rightToLeft)
        let recorded = session.recordedScenario()
        #expect(recorded.layoutDirection == .rightToLeft && recorded.numberOfItems == [1, 2])
        // How such a recording is written as Lua: ScenarioLuaFormatterTests.
    }

    @Test func metricsFromTheEffectReachTheLayout() throws {
        let effect = MetricsEffect(metrics: FlowLayoutMetrics(itemSizes: [Size(width: 10, height: 20), Size(width: 30, height: 20)])) { c in
            c.itemSize = Size(width: 100, height: 100)
        }
        var scenario = Scenario(name: "m", numberOfItems: [1, 1], steps: [])
        scenario.viewportSize = Size(width: 300, height: 300)
        let timeline = try ScenarioRunner(effect: effect, scriptName: "t").run(scenario)
        // Vertical, 300 wide: each section's lone item (last line, a second would fit) at
        // x = 0; section 0's line 20 high: section 1 starts at 20.
        let items = try #require(timeline.frames.first?.items)
        #expect(items.map(\.frame) == [Rect(x: 0, y: 0, width: 10, height: 20), Rect(x: 0, y: 20, width: 30, height: 20)])
        #expect(effect.countsSeen == [[1, 1]])
    }
}
