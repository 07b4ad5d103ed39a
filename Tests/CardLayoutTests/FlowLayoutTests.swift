import Testing
@testable import CardLayout

// Golden numbers below are computed by hand from UIKit's flow layout rules; each comment shows the
// arithmetic. Nothing here is derived from the code under test.

// MARK: - Helpers

func flowConfig(
    _ direction: ScrollDirection = .vertical, item: Size, inset: CardEdgeInsets = .zero,
    line: Double = 10, interitem: Double = 10, header: Size = .zero, footer: Size = .zero
) -> FlowLayoutConfiguration {
    var c = FlowLayoutConfiguration()
    c.scrollDirection = direction
    c.itemSize = item
    c.sectionInset = inset
    c.minimumLineSpacing = line
    c.minimumInteritemSpacing = interitem
    c.headerReferenceSize = header
    c.footerReferenceSize = footer
    return c
}

func flowNear(_ a: Double, _ b: Double) -> Bool {
    abs(a - b) <= 1e-9 * max(1, abs(b))
}

func flowFrame(_ layout: FlowLayout, _ item: Int, section: Int = 0) -> Rect? {
    layout.layoutAttributesForItem(at: CardIndexPath(item: item, section: section))?.frame
}

func expectFlowRect(_ actual: Rect?, _ expected: Rect, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let actual else {
        Issue.record("no frame, expected \(expected)", sourceLocation: sourceLocation)
        return
    }
    let same = flowNear(actual.minX, expected.minX) && flowNear(actual.minY, expected.minY)
        && flowNear(actual.width, expected.width) && flowNear(actual.height, expected.height)
    #expect(same, "\(actual) ≠ \(expected)", sourceLocation: sourceLocation)
}

func expectFlowSize(_ actual: Size, _ expected: Size, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(flowNear(actual.width, expected.width) && flowNear(actual.height, expected.height),
            "\(actual) ≠ \(expected)", sourceLocation: sourceLocation)
}

func flowPaths(_ attributes: [LayoutAttributes]) -> [CardIndexPath] { attributes.map(\.indexPath) }

func flowPath(_ item: Int, _ section: Int = 0) -> CardIndexPath { CardIndexPath(item: item, section: section) }

// MARK: - Seed and UIKit defaults

@Test func seedCheckHorizontalCarousel() {
    // Seed 000: line (column) length = 736 − 200 − 200 = 336; a 500-pt card is alone in
    // its column and centred: y = 200 + (336 − 500)/2 = 118. Columns step 300 + 0.
    let layout = FlowLayout(
        configuration: flowConfig(.horizontal, item: Size(width: 300, height: 500),
                                  inset: CardEdgeInsets(top: 200, left: 50, bottom: 200, right: 50),
                                  line: 0),
        viewportSize: Size(width: 414, height: 736), numberOfItemsInSections: [20])
    expectFlowRect(flowFrame(layout, 0), Rect(x: 50, y: 118, width: 300, height: 500))
    expectFlowRect(flowFrame(layout, 1), Rect(x: 350, y: 118, width: 300, height: 500))
    // x = 50 + 19·300 = 5750; the lone last card stays centred (single column).
    expectFlowRect(flowFrame(layout, 19), Rect(x: 5750, y: 118, width: 300, height: 500))
    // 50 + 20·300 + 50 = 6100.
    expectFlowSize(layout.collectionViewContentSize, Size(width: 6100, height: 736))
    // 6100 − 414 = 5686.
    #expect(layout.maximumContentOffset == Point(x: 5686, y: 0))
    #expect(layout.numberOfSections == 1)
    #expect(layout.numberOfItems(inSection: 0) == 20)
    #expect(layout.usesPerItemSizes == false)
    // Viewport at offset 0: x in (0, 414) meets cards 0 (50…350) and 1 (350…650).
    #expect(flowPaths(layout.layoutAttributesForElements(in: Rect(x: 0, y: 0, width: 414, height: 736)))
            == [flowPath(0), flowPath(1)])
}

@Test func uikitDefaultsVerticalGrid() {
    // Defaults: 50×50, spacings 10. Width 320: 5·50 + 4·10 = 290 ≤ 320, 6·50 + 5·10 = 350 > 320
    // → 5 per row; justified gap (320 − 250)/4 = 17.5 → x = 0, 67.5, 135, 202.5, 270.
    let layout = FlowLayout(configuration: FlowLayoutConfiguration(),
                            viewportSize: Size(width: 320, height: 480), numberOfItemsInSections: [12])
    let xs: [Double] = [0, 67.5, 135, 202.5, 270]
    for i in 0..<10 {
        expectFlowRect(flowFrame(layout, i), Rect(x: xs[i % 5], y: Double(i / 5) * 60, width: 50, height: 50))
    }
    // Last row (items 10, 11) keeps the grid columns: x = 0, 67.5 at y = 2·60.
    expectFlowRect(flowFrame(layout, 10), Rect(x: 0, y: 120, width: 50, height: 50))
    expectFlowRect(flowFrame(layout, 11), Rect(x: 67.5, y: 120, width: 50, height: 50))
    // 3·50 + 2·10 = 170.
    expectFlowSize(layout.collectionViewContentSize, Size(width: 320, height: 170))
    #expect(layout.maximumContentOffset == Point(x: 0, y: 0))
}

// MARK: - Lines

@Test func exactFitStaysOnTheLine() {
    // 3·120 + 2·20 = 400 = line length exactly → 3 per row at x = 0, 140, 280.
    let config = flowConfig(item: Size(width: 120, height: 50), interitem: 20)
    let uniform = FlowLayout(configuration: config, viewportSize: Size(width: 400, height: 600),
                             numberOfItemsInSections: [4])
    let perItem = FlowLayout(configuration: config, viewportSize: Size(width: 400, height: 600),
                             numberOfItemsInSections: [4]) { _ in Size(width: 120, height: 50) }
    for layout in [uniform, perItem] {
        expectFlowRect(flowFrame(layout, 0), Rect(x: 0, y: 0, width: 120, height: 50))
        expectFlowRect(flowFrame(layout, 1), Rect(x: 140, y: 0, width: 120, height: 50))
        expectFlowRect(flowFrame(layout, 2), Rect(x: 280, y: 0, width: 120, height: 50))
        // Item 3 starts row 2 at y = 50 + 10, alone on the last line, a second would fit → x = 0.
        expectFlowRect(flowFrame(layout, 3), Rect(x: 0, y: 60, width: 120, height: 50))
    }

    // The same fit with insets: 440 − 15 − 25 = 400 → x = 15, 155, 295.
    let inset = FlowLayout(
        configuration: flowConfig(item: Size(width: 120, height: 50),
                                  inset: CardEdgeInsets(top: 0, left: 15, bottom: 0, right: 25), interitem: 20),
        viewportSize: Size(width: 440, height: 600), numberOfItemsInSections: [3])
    expectFlowRect(flowFrame(inset, 0), Rect(x: 15, y: 0, width: 120, height: 50))
    expectFlowRect(flowFrame(inset, 1), Rect(x: 155, y: 0, width: 120, height: 50))
    expectFlowRect(flowFrame(inset, 2), Rect(x: 295, y: 0, width: 120, height: 50))

    // A hair too narrow (399.99): only 2 fit, justified: x = 0 and 399.99 − 120 = 279.99.
    let tight = FlowLayout(configuration: config, viewportSize: Size(width: 399.99, height: 600),
                           numberOfItemsInSections: [3])
    expectFlowRect(flowFrame(tight, 0), Rect(x: 0, y: 0, width: 120, height: 50))
    expectFlowRect(flowFrame(tight, 1), Rect(x: 279.99, y: 0, width: 120, height: 50))
    expectFlowRect(flowFrame(tight, 2), Rect(x: 0, y: 60, width: 120, height: 50))
}

@Test func singleItemLinesAreCentredEvenWhenOverflowing() {
    // Line length 300 − 20 − 30 = 250; a 500-wide item: x = 20 + (250 − 500)/2 = −105.
    let inset = CardEdgeInsets(top: 0, left: 20, bottom: 0, right: 30)
    let wide = FlowLayout(configuration: flowConfig(item: Size(width: 500, height: 100), inset: inset),
                          viewportSize: Size(width: 300, height: 600), numberOfItemsInSections: [3])
    for i in 0..<3 {  // rows at y = i·(100 + 10); the last one too (single column)
        expectFlowRect(flowFrame(wide, i), Rect(x: -105, y: Double(i) * 110, width: 500, height: 100))
    }
    // 200-wide: 200 + 10 + 200 > 250 → one per row, x = 20 + (250 − 200)/2 = 45.
    let narrow = FlowLayout(configuration: flowConfig(item: Size(width: 200, height: 100), inset: inset),
                            viewportSize: Size(width: 300, height: 600), numberOfItemsInSections: [2])
    expectFlowRect(flowFrame(narrow, 0), Rect(x: 45, y: 0, width: 200, height: 100))
    expectFlowRect(flowFrame(narrow, 1), Rect(x: 45, y: 110, width: 200, height: 100))
}

@Test func lastLineWithUniformSizesKeepsTheGridColumns() {
    // Line length 400 − 10 − 10 = 380; 4·80 + 3·10 = 350 ≤ 380 < 5·80 + 4·10 = 440 → 4 per
    // row; gap (380 − 320)/3 = 20 → columns x = 10, 110, 210, 310; rows every 80 + 10.
    let config = flowConfig(item: Size(width: 80, height: 80),
                            inset: CardEdgeInsets(top: 0, left: 10, bottom: 0, right: 10))
    let nine = FlowLayout(configuration: config, viewportSize: Size(width: 400, height: 800),
                          numberOfItemsInSections: [9])
    // A lone last item sits in the first column, flush with the inset.
    expectFlowRect(flowFrame(nine, 8), Rect(x: 10, y: 180, width: 80, height: 80))
    let seven = FlowLayout(configuration: config, viewportSize: Size(width: 400, height: 800),
                           numberOfItemsInSections: [7])
    // Items 4, 5, 6 at the grid's first three columns (not re-justified to 10, 160, 310).
    expectFlowRect(flowFrame(seven, 4), Rect(x: 10, y: 90, width: 80, height: 80))
    expectFlowRect(flowFrame(seven, 5), Rect(x: 110, y: 90, width: 80, height: 80))
    expectFlowRect(flowFrame(seven, 6), Rect(x: 210, y: 90, width: 80, height: 80))
    // A section shorter than one line uses the same columns.
    let two = FlowLayout(configuration: config, viewportSize: Size(width: 400, height: 800),
                         numberOfItemsInSections: [2])
    expectFlowRect(flowFrame(two, 0), Rect(x: 10, y: 0, width: 80, height: 80))
    expectFlowRect(flowFrame(two, 1), Rect(x: 110, y: 0, width: 80, height: 80))
    expectFlowSize(two.collectionViewContentSize, Size(width: 400, height: 80))
}

@Test func perItemSizesJustifyPackAndCentreAcrossTheLine() {
    // Width 400, interitem 10, line spacing 20.
    let sizes = [Size(width: 100, height: 40), Size(width: 150, height: 80), Size(width: 100, height: 60),
                 Size(width: 200, height: 50), Size(width: 180, height: 30),
                 Size(width: 50, height: 20), Size(width: 60, height: 70)]
    let layout = FlowLayout(configuration: flowConfig(item: Size(width: 1, height: 1), line: 20),
                            viewportSize: Size(width: 400, height: 800),
                            numberOfItemsInSections: [sizes.count]) { sizes[$0.item] }
    #expect(layout.usesPerItemSizes)
    // Row 1: 100 +10+ 150 +10+ 100 = 370 ≤ 400; +10+ 200 > 400 → items 0–2, widths sum 350,
    // justified gap (400 − 350)/2 = 25 → x = 0, 125, 300. Thickness 80, each centred:
    // y = (80 − 40)/2 = 20, 0, (80 − 60)/2 = 10.
    expectFlowRect(flowFrame(layout, 0), Rect(x: 0, y: 20, width: 100, height: 40))
    expectFlowRect(flowFrame(layout, 1), Rect(x: 125, y: 0, width: 150, height: 80))
    expectFlowRect(flowFrame(layout, 2), Rect(x: 300, y: 10, width: 100, height: 60))
    // Row 2 at y = 80 + 20 = 100: 200 +10+ 180 = 390 ≤ 400; +10+ 50 > 400 → items 3, 4;
    // gap 400 − 380 = 20 → x = 0, 220. Thickness 50 → y = 100, 100 + (50 − 30)/2 = 110.
    expectFlowRect(flowFrame(layout, 3), Rect(x: 0, y: 100, width: 200, height: 50))
    expectFlowRect(flowFrame(layout, 4), Rect(x: 220, y: 110, width: 180, height: 30))
    // Last row at y = 100 + 50 + 20 = 170, packed from the start: x = 0, 50 + 10 = 60.
    // Thickness 70 → y = 170 + (70 − 20)/2 = 195, 170.
    expectFlowRect(flowFrame(layout, 5), Rect(x: 0, y: 195, width: 50, height: 20))
    expectFlowRect(flowFrame(layout, 6), Rect(x: 60, y: 170, width: 60, height: 70))
    // 170 + 70 = 240.
    expectFlowSize(layout.collectionViewContentSize, Size(width: 400, height: 240))
}

@Test func perItemLoneItems() {
    // Width 400, spacing 10. 300 +10+ 350 > 400 → item 0 alone, centred: (400 − 300)/2 = 50.
    // 350 +10+ 100 > 400 → item 1 alone, centred: (400 − 350)/2 = 25.
    // Item 2 alone on the last line; a second 100 would fit (100 + 10 + 100 ≤ 400) → x = 0.
    let sizes = [Size(width: 300, height: 50), Size(width: 350, height: 50), Size(width: 100, height: 50)]
    let layout = FlowLayout(configuration: flowConfig(item: Size(width: 1, height: 1)),
                            viewportSize: Size(width: 400, height: 800),
                            numberOfItemsInSections: [3]) { sizes[$0.item] }
    expectFlowRect(flowFrame(layout, 0), Rect(x: 50, y: 0, width: 300, height: 50))
    expectFlowRect(flowFrame(layout, 1), Rect(x: 25, y: 60, width: 350, height: 50))
    expectFlowRect(flowFrame(layout, 2), Rect(x: 0, y: 120, width: 100, height: 50))
    // A last item of 250: 250 + 10 + 250 > 400, a single column → centred: (400 − 250)/2 = 75.
    let wide = [Size(width: 300, height: 50), Size(width: 250, height: 50)]
    let single = FlowLayout(configuration: flowConfig(item: Size(width: 1, height: 1)),
                            viewportSize: Size(width: 400, height: 800),
                            numberOfItemsInSections: [2]) { wide[$0.item] }
    expectFlowRect(flowFrame(single, 1), Rect(x: 75, y: 60, width: 250, height: 50))
}

@Test func horizontalColumnsJustifyAlongTheHeight() {
    // Column length 400 − 20 − 30 = 350; 3·110 + 2·10 = 350 (exact fit) → 3 per column,
    // gap (350 − 330)/2 = 10 → y = 20, 140, 260. Columns at x = 5 + i·(100 + 15).
    let layout = FlowLayout(
        configuration: flowConfig(.horizontal, item: Size(width: 100, height: 110),
                                  inset: CardEdgeInsets(top: 20, left: 5, bottom: 30, right: 7), line: 15),
        viewportSize: Size(width: 300, height: 400), numberOfItemsInSections: [7])
    let ys: [Double] = [20, 140, 260]
    for i in 0..<6 {
        expectFlowRect(flowFrame(layout, i), Rect(x: 5 + Double(i / 3) * 115, y: ys[i % 3], width: 100, height: 110))
    }
    // The lone last item sits in the first grid row of its column.
    expectFlowRect(flowFrame(layout, 6), Rect(x: 235, y: 20, width: 100, height: 110))
    // 5 + 3·100 + 2·15 + 7 = 342.
    expectFlowSize(layout.collectionViewContentSize, Size(width: 342, height: 400))
    // 342 − 300 = 42.
    #expect(layout.maximumContentOffset == Point(x: 42, y: 0))
}

@Test func horizontalPerItemCentresAcrossColumnThickness() {
    // Column length 300, spacing 10 both ways.
    let sizes = [Size(width: 80, height: 100), Size(width: 60, height: 120),
                 Size(width: 100, height: 200), Size(width: 40, height: 50)]
    let layout = FlowLayout(configuration: flowConfig(.horizontal, item: Size(width: 1, height: 1)),
                            viewportSize: Size(width: 500, height: 300),
                            numberOfItemsInSections: [4]) { sizes[$0.item] }
    // Column 1: 100 +10+ 120 = 230 ≤ 300; +10+ 200 > 300 → items 0, 1; heights sum 220, gap 80
    // → y = 0, 180. Thickness 80 → x = 0, (80 − 60)/2 = 10.
    expectFlowRect(flowFrame(layout, 0), Rect(x: 0, y: 0, width: 80, height: 100))
    expectFlowRect(flowFrame(layout, 1), Rect(x: 10, y: 180, width: 60, height: 120))
    // Column 2 at x = 80 + 10 = 90: 200 +10+ 50 = 260 ≤ 300, last → packed: y = 0, 210.
    // Thickness 100 → x = 90, 90 + (100 − 40)/2 = 120.
    expectFlowRect(flowFrame(layout, 2), Rect(x: 90, y: 0, width: 100, height: 200))
    expectFlowRect(flowFrame(layout, 3), Rect(x: 120, y: 210, width: 40, height: 50))
    // 90 + 100 = 190.
    expectFlowSize(layout.collectionViewContentSize, Size(width: 190, height: 300))
}

// MARK: - Sections, headers, footers

@Test func verticalSectionsWithHeadersFootersAndInsets() {
    // Header height 40 (its width is ignored), footer 25; insets t10 l15 b20 r15; 60×60 items;
    // interitem 10, line 5. Line length 320 − 30 = 290: 4·60 + 3·10 = 270 ≤ 290 < 340
    // → 4 per row, gap (290 − 240)/3 = 50/3, column pitch 60 + 50/3 = 230/3.
    let layout = FlowLayout(
        configuration: flowConfig(item: Size(width: 60, height: 60),
                                  inset: CardEdgeInsets(top: 10, left: 15, bottom: 20, right: 15),
                                  line: 5, interitem: 10,
                                  header: Size(width: 999, height: 40), footer: Size(width: 0, height: 25)),
        viewportSize: Size(width: 320, height: 480), numberOfItemsInSections: [5, 0, 3])
    let pitch = 230.0 / 3
    // Section 0: header 0…40, rows at 40 + 10 = 50 and 50 + 60 + 5 = 115, lines end 175,
    // footer at 175 + 20 = 195…220.
    for i in 0..<4 {
        expectFlowRect(flowFrame(layout, i, section: 0), Rect(x: 15 + Double(i) * pitch, y: 50, width: 60, height: 60))
    }
    expectFlowRect(flowFrame(layout, 4, section: 0), Rect(x: 15, y: 115, width: 60, height: 60))
    // Section 1 (empty): header 220…260, both insets (10 + 20), footer 290…315.
    // Section 2: header 315…355, row at 365, footer at 365 + 60 + 20 = 445…470.
    for i in 0..<3 {
        expectFlowRect(flowFrame(layout, i, section: 2), Rect(x: 15 + Double(i) * pitch, y: 365, width: 60, height: 60))
    }
    expectFlowSize(layout.collectionViewContentSize, Size(width: 320, height: 470))
    #expect(layout.numberOfSections == 3)
    #expect(layout.numberOfItems(inSection: 1) == 0)
    #expect(layout.numberOfItems(inSection: 3) == 0)
    #expect(layout.layoutAttributesForItem(at: flowPath(0, 1)) == nil)

    let expected: [(SupplementaryKind, Int, Rect)] = [
        (.header, 0, Rect(x: 0, y: 0, width: 320, height: 40)),
        (.footer, 0, Rect(x: 0, y: 195, width: 320, height: 25)),
        (.header, 1, Rect(x: 0, y: 220, width: 320, height: 40)),
        (.footer, 1, Rect(x: 0, y: 290, width: 320, height: 25)),
        (.header, 2, Rect(x: 0, y: 315, width: 320, height: 40)),
        (.footer, 2, Rect(x: 0, y: 445, width: 320, height: 25)),
    ]
    let all = layout.supplementaryFrames(in: Rect(x: 0, y: 0, width: 320, height: 470))
    #expect(all.count == expected.count)
    for (got, want) in zip(all, expected) {
        #expect(got.kind == want.0 && got.section == want.1)
        expectFlowRect(got.frame, want.2)
        expectFlowRect(layout.supplementaryFrame(ofKind: want.0, inSection: want.1), want.2)
    }
    // y 250…260 meets only section 1's header (220…260).
    let one = layout.supplementaryFrames(in: Rect(x: 0, y: 250, width: 320, height: 10))
    #expect(one.map(\.kind) == [.header] && one.map(\.section) == [1])
    // y 100…400: section 0's rows (50…110 and 115…175) and section 2's row (365…425).
    #expect(flowPaths(layout.layoutAttributesForElements(in: Rect(x: 0, y: 100, width: 320, height: 300)))
            == [flowPath(0), flowPath(1), flowPath(2), flowPath(3), flowPath(4), flowPath(0, 2), flowPath(1, 2), flowPath(2, 2)])
}

@Test func horizontalSectionsWithHeadersAndFooters() {
    // Header width 30, footer 20 (their heights ignored); insets left 5, right 6; 100×300
    // items fill the 300-pt column alone; line spacing 10.
    let layout = FlowLayout(
        configuration: flowConfig(.horizontal, item: Size(width: 100, height: 300),
                                  inset: CardEdgeInsets(top: 0, left: 5, bottom: 0, right: 6),
                                  header: Size(width: 30, height: 999), footer: Size(width: 20, height: 0)),
        viewportSize: Size(width: 400, height: 300), numberOfItemsInSections: [2, 1])
    // Section 0: header 0…30, columns at 35 and 145, lines end 245, footer 251…271.
    expectFlowRect(flowFrame(layout, 0), Rect(x: 35, y: 0, width: 100, height: 300))
    expectFlowRect(flowFrame(layout, 1), Rect(x: 145, y: 0, width: 100, height: 300))
    expectFlowRect(layout.supplementaryFrame(ofKind: .header, inSection: 0), Rect(x: 0, y: 0, width: 30, height: 300))
    expectFlowRect(layout.supplementaryFrame(ofKind: .footer, inSection: 0), Rect(x: 251, y: 0, width: 20, height: 300))
    // Section 1: header 271…301, column at 306, footer at 406 + 6 = 412…432.
    expectFlowRect(flowFrame(layout, 0, section: 1), Rect(x: 306, y: 0, width: 100, height: 300))
    expectFlowRect(layout.supplementaryFrame(ofKind: .header, inSection: 1), Rect(x: 271, y: 0, width: 30, height: 300))
    expectFlowRect(layout.supplementaryFrame(ofKind: .footer, inSection: 1), Rect(x: 412, y: 0, width: 20, height: 300))
    expectFlowSize(layout.collectionViewContentSize, Size(width: 432, height: 300))
    #expect(layout.maximumContentOffset == Point(x: 32, y: 0))
}

@Test func zeroReferenceSizesAddNoSupplementaries() {
    let layout = FlowLayout(configuration: flowConfig(item: Size(width: 50, height: 50),
                                                      header: Size(width: 100, height: 0)),
                            viewportSize: Size(width: 320, height: 480), numberOfItemsInSections: [3, 3])
    #expect(layout.supplementaryFrames(in: Rect(x: -1000, y: -1000, width: 5000, height: 5000)).isEmpty)
    #expect(layout.supplementaryFrame(ofKind: .header, inSection: 0) == nil)
    // Sections just stack: 1 row of 50 each.
    expectFlowSize(layout.collectionViewContentSize, Size(width: 320, height: 100))
}

@Test func emptySectionsKeepHeaderFooterAndInsets() {
    // UIKit keeps an empty section's insets: 0 items → header 30 + 10 + 20 + footer 5 = 65.
    let layout = FlowLayout(
        configuration: flowConfig(item: Size(width: 50, height: 50),
                                  inset: CardEdgeInsets(top: 10, left: 0, bottom: 20, right: 0),
                                  header: Size(width: 0, height: 30), footer: Size(width: 0, height: 5)),
        viewportSize: Size(width: 320, height: 480), numberOfItemsInSections: [0, 0])
    expectFlowSize(layout.collectionViewContentSize, Size(width: 320, height: 130))
    expectFlowRect(layout.supplementaryFrame(ofKind: .footer, inSection: 0), Rect(x: 0, y: 60, width: 320, height: 5))
    expectFlowRect(layout.supplementaryFrame(ofKind: .header, inSection: 1), Rect(x: 0, y: 65, width: 320, height: 30))
    #expect(layout.layoutAttributesForElements(in: Rect(x: 0, y: 0, width: 320, height: 130)).isEmpty)
}

// MARK: - Attributes and lookups

@Test func baseAttributesAreUntransformed() {
    let uniform = FlowLayout(configuration: FlowLayoutConfiguration(),
                             viewportSize: Size(width: 320, height: 480), numberOfItemsInSections: [30])
    let perItem = FlowLayout(configuration: FlowLayoutConfiguration(),
                             viewportSize: Size(width: 320, height: 480), numberOfItemsInSections: [30]) {
        Size(width: 20 + Double($0.item), height: 40)
    }
    for layout in [uniform, perItem] {
        let all = layout.layoutAttributesForElements(in: Rect(x: 0, y: 0, width: 320, height: 480))
        #expect(!all.isEmpty)
        for a in all {
            #expect(a.transform3D == .identity && a.alpha == 1 && a.zIndex == 0 && a.isHidden == false)
            #expect(layout.layoutAttributesForItem(at: a.indexPath) == a)
        }
        #expect(layout.layoutAttributesForItem(at: flowPath(30)) == nil)
        #expect(layout.layoutAttributesForItem(at: flowPath(-1)) == nil)
        #expect(layout.layoutAttributesForItem(at: flowPath(0, 1)) == nil)
        #expect(layout.layoutAttributesForItem(at: flowPath(0, -1)) == nil)
        #expect(layout.numberOfItems(inSection: -1) == 0)
    }
}

@Test func sizeForItemIsCalledOncePerItemInOrder() {
    final class Log { var calls: [CardIndexPath] = [] }
    let log = Log()
    let layout = FlowLayout(configuration: FlowLayoutConfiguration(),
                            viewportSize: Size(width: 320, height: 480), numberOfItemsInSections: [2, 0, 3]) {
        log.calls.append($0)
        return Size(width: 50, height: 50)
    }
    _ = layout.layoutAttributesForElements(in: Rect(x: 0, y: 0, width: 320, height: 480))
    _ = layout.layoutAttributesForItem(at: flowPath(1, 2))
    #expect(log.calls == [flowPath(0), flowPath(1), flowPath(0, 2), flowPath(1, 2), flowPath(2, 2)])
}

@Test func forEachItemMatchesTheArrayAndRethrows() throws {
    struct Stop: Error {}
    let layout = FlowLayout(configuration: FlowLayoutConfiguration(),
                            viewportSize: Size(width: 320, height: 480), numberOfItemsInSections: [40])
    let rect = Rect(x: 10, y: 30, width: 200, height: 100)
    var seen: [LayoutAttributes] = []
    layout.forEachItem(in: rect) { seen.append($0) }
    #expect(seen == layout.layoutAttributesForElements(in: rect))
    var count = 0
    #expect(throws: Stop.self) {
        try layout.forEachItem(in: rect) { _ in
            count += 1
            if count == 2 { throw Stop() }
        }
    }
    #expect(count == 2)
}
