import CardLuaTestSupport
import Testing
@testable import CardLayout

// Rect queries against brute force, layouts of a million items, and nonsense inputs.

/// A small deterministic generator, so randomised tests replay exactly.
typealias FlowSplitMix64 = SplitMix64

/// Every item whose frame intersects `rect`, found the slow way: all items, one by one.
func flowBruteForce(_ layout: FlowLayout, _ rect: Rect) -> [LayoutAttributes] {
    var result: [LayoutAttributes] = []
    for s in 0..<layout.numberOfSections {
        for i in 0..<layout.numberOfItems(inSection: s) {
            if let a = layout.layoutAttributesForItem(at: CardIndexPath(item: i, section: s)),
               a.frame.intersects(rect) {
                result.append(a)
            }
        }
    }
    return result
}

func flowBruteForceSupplementaries(_ layout: FlowLayout, _ rect: Rect) -> [String] {
    var result: [String] = []
    for s in 0..<layout.numberOfSections {
        for kind in [SupplementaryKind.header, .footer] {
            if let f = layout.supplementaryFrame(ofKind: kind, inSection: s), f.intersects(rect) {
                result.append("\(kind)\(s)")
            }
        }
    }
    return result
}

// MARK: - Randomised queries

@Test(arguments: [false, true])
func randomisedQueriesMatchBruteForce(perItem: Bool) {
    var rng = FlowSplitMix64(seed: perItem ? 0xC0FFEE : 0xCA4D)
    func pick(_ r: ClosedRange<Double>) -> Double { Double.random(in: r, using: &rng).rounded() }
    for _ in 0..<250 {
        var c = FlowLayoutConfiguration()
        c.scrollDirection = Bool.random(using: &rng) ? .vertical : .horizontal
        c.itemSize = Size(width: pick(1...260), height: pick(1...260))
        if Int.random(in: 0..<10, using: &rng) == 0 { c.itemSize.width = 0 }
        c.minimumLineSpacing = pick(0...30)
        c.minimumInteritemSpacing = pick(0...30)
        c.sectionInset = CardEdgeInsets(top: pick(0...50), left: pick(0...50), bottom: pick(0...50), right: pick(0...50))
        if Bool.random(using: &rng) {
            c.headerReferenceSize = Size(width: pick(0...60), height: pick(0...60))
            c.footerReferenceSize = Size(width: pick(0...60), height: pick(0...60))
        }
        let viewport = Size(width: pick(0...600), height: pick(0...900))
        let counts = (0..<Int.random(in: 1...4, using: &rng)).map { _ in Int.random(in: 0...40, using: &rng) }
        let sizes = counts.map { n in (0..<n).map { _ in Size(width: pick(0...300), height: pick(0...300)) } }
        let layout = FlowLayout(configuration: c, viewportSize: viewport, numberOfItemsInSections: counts,
                                sizeForItem: perItem ? { sizes[$0.section][$0.item] } : nil)
        #expect(layout.usesPerItemSizes == perItem)
        let content = layout.collectionViewContentSize
        for q in 0..<25 {
            // Random rects, some zero-sized, some hugging frame edges (integers everywhere).
            let rect = Rect(x: pick(-100...(content.width + 100)), y: pick(-100...(content.height + 100)),
                            width: q % 5 == 0 ? 0 : pick(0...700), height: q % 7 == 0 ? 0 : pick(0...900))
            let fast = layout.layoutAttributesForElements(in: rect)
            let slow = flowBruteForce(layout, rect)
            #expect(fast == slow, "\(c) viewport \(viewport) counts \(counts) rect \(rect)")
            var streamed: [LayoutAttributes] = []
            layout.forEachItem(in: rect) { streamed.append($0) }
            #expect(streamed == fast)
            #expect(layout.supplementaryFrames(in: rect).map { "\($0.kind)\($0.section)" }
                    == flowBruteForceSupplementaries(layout, rect))
        }
        // Every item lies inside the content along the scroll axis.
        let everything = Rect(x: -1e6, y: -1e6, width: 4e6, height: 4e6)
        #expect(layout.layoutAttributesForElements(in: everything).count
                == flowBruteForce(layout, everything).count)
    }
}

@Test func perItemWithEqualSizesMatchesUniformExceptOnLastLines() {
    // Both modes share every rule but the last line of a section (grid columns vs packed):
    // with one size for all, every other line and every line position must agree.
    var rng = FlowSplitMix64(seed: 42)
    for _ in 0..<100 {
        var c = FlowLayoutConfiguration()
        c.scrollDirection = Bool.random(using: &rng) ? .vertical : .horizontal
        c.itemSize = Size(width: Double(Int.random(in: 10...200, using: &rng)),
                          height: Double(Int.random(in: 10...200, using: &rng)))
        c.minimumInteritemSpacing = Double(Int.random(in: 0...20, using: &rng))
        c.minimumLineSpacing = Double(Int.random(in: 0...20, using: &rng))
        let viewport = Size(width: Double(Int.random(in: 100...600, using: &rng)),
                            height: Double(Int.random(in: 100...600, using: &rng)))
        let counts = [Int.random(in: 1...60, using: &rng), Int.random(in: 1...60, using: &rng)]
        let uniform = FlowLayout(configuration: c, viewportSize: viewport, numberOfItemsInSections: counts)
        let itemSize = c.itemSize
        let perItem = FlowLayout(configuration: c, viewportSize: viewport,
                                 numberOfItemsInSections: counts) { _ in itemSize }
        expectFlowSize(perItem.collectionViewContentSize, uniform.collectionViewContentSize)
        for s in 0..<2 {
            let mainOrigin: (Rect) -> Double = { c.scrollDirection == .vertical ? $0.minY : $0.minX }
            let lastLine = mainOrigin(flowFrame(uniform, counts[s] - 1, section: s)!)
            for i in 0..<counts[s] {
                let u = flowFrame(uniform, i, section: s)!, p = flowFrame(perItem, i, section: s)!
                #expect(flowNear(mainOrigin(u), mainOrigin(p)))
                if mainOrigin(u) < lastLine { expectFlowRect(p, u) }
            }
        }
    }
}

// MARK: - A million items

@Test func millionUniformItems() {
    // 100×100 in 414: 3·100 + 2·10 = 320 ≤ 414 < 430 → 3 per row, gap (414 − 300)/2 = 57
    // → x = 0, 157, 314; rows every 110. 1_000_000 items → 333_334 rows (the last has 1).
    let layout = FlowLayout(configuration: flowConfig(item: Size(width: 100, height: 100)),
                            viewportSize: Size(width: 414, height: 736), numberOfItemsInSections: [1_000_000])
    // 333_334·100 + 333_333·10 = 36_666_730.
    expectFlowSize(layout.collectionViewContentSize, Size(width: 414, height: 36_666_730))
    #expect(layout.maximumContentOffset == Point(x: 0, y: 36_665_994))
    // Item 999_999 = row 333_333, column 0: y = 333_333·110 = 36_666_630.
    expectFlowRect(flowFrame(layout, 999_999), Rect(x: 0, y: 36_666_630, width: 100, height: 100))

    // Viewport at y = 5_000_000: rows i with i·110 + 100 > 5e6 and i·110 < 5_000_736
    // → i = 45_454 … 45_461 (8 rows, 24 items from 3·45_454 = 136_362).
    let visible = layout.layoutAttributesForElements(in: Rect(x: 0, y: 5_000_000, width: 414, height: 736))
    #expect(flowPaths(visible) == (136_362..<136_386).map { flowPath($0) })
    expectFlowRect(visible.first?.frame, Rect(x: 0, y: 4_999_940, width: 100, height: 100))
    expectFlowRect(visible.last?.frame, Rect(x: 314, y: 45_461 * 110, width: 100, height: 100))

    // The end: rows i·110 + 100 > 36_666_000 → i ≥ 333_327, through the last row 333_333:
    // 6 full rows + the lone last item = items 999_981 … 999_999.
    let end = layout.layoutAttributesForElements(in: Rect(x: 0, y: 36_666_000, width: 414, height: 736))
    #expect(flowPaths(end) == (999_981..<1_000_000).map { flowPath($0) })
}

@Test func manyPerItemSizes() {
    // Horizontal, 400×400, spacings 10. Widths cycle 100, 200, 300; heights 300 so each
    // column holds one card (300 + 10 + 300 > 400), centred: y = (400 − 300)/2 = 50.
    // Closed form: x(i) = (i / 3)·630 + [0, 110, 320][i % 3]  (630 = 100+200+300 + 3·10).
    let n = 1_000_000
    let widths: [Double] = [100, 200, 300], offsets: [Double] = [0, 110, 320]
    let layout = FlowLayout(configuration: flowConfig(.horizontal, item: Size(width: 1, height: 1)),
                            viewportSize: Size(width: 400, height: 400), numberOfItemsInSections: [n]) {
        Size(width: widths[$0.item % 3], height: 300)
    }
    func x(_ i: Int) -> Double { Double(i / 3) * 630 + offsets[i % 3] }
    #expect(layout.usesPerItemSizes)
    // Last item 999_999: 333_333·630 = 209_999_790, width 100 → content 209_999_890.
    expectFlowSize(layout.collectionViewContentSize, Size(width: 209_999_890, height: 400))
    expectFlowRect(flowFrame(layout, n - 1), Rect(x: 209_999_790, y: 50, width: 100, height: 300))
    // 500_002 = 3·166_667 + 1: x = 166_667·630 + 110 = 105_000_320, width 200.
    expectFlowRect(flowFrame(layout, 500_002), Rect(x: 105_000_320, y: 50, width: 200, height: 300))

    for origin in [0.0, 12_345.0, 100_000_000, 209_999_700] {
        let rect = Rect(x: origin, y: 0, width: 400, height: 400)
        // Expected by the closed form: x < maxX and x + w > minX (y always overlaps).
        let first = max(0, Int(origin / 630) * 3 - 3)
        let expected = (first..<min(n, first + 12)).filter {
            x($0) < rect.maxX && x($0) + widths[$0 % 3] > rect.minX
        }
        let got = layout.layoutAttributesForElements(in: rect)
        #expect(flowPaths(got) == expected.map { flowPath($0) })
        #expect(!got.isEmpty)
    }
}

// MARK: - Nonsense inputs

@Test func degenerateInputsNeverCrash() {
    let everything = Rect(x: -1e9, y: -1e9, width: 4e9, height: 4e9)

    // No sections, and negative counts.
    let none = FlowLayout(configuration: FlowLayoutConfiguration(), viewportSize: Size(width: 320, height: 480),
                          numberOfItemsInSections: [])
    expectFlowSize(none.collectionViewContentSize, Size(width: 320, height: 0))
    #expect(none.layoutAttributesForElements(in: everything).isEmpty)
    #expect(none.numberOfSections == 0)
    let negative = FlowLayout(configuration: FlowLayoutConfiguration(), viewportSize: Size(width: 320, height: 480),
                              numberOfItemsInSections: [-5, 2])
    #expect(negative.numberOfItems(inSection: 0) == 0)
    #expect(negative.layoutAttributesForElements(in: everything).count == 2)

    // Zero viewport: line length 0, every 50×50 item alone and centred at (0 − 50)/2 = −25.
    let zero = FlowLayout(configuration: FlowLayoutConfiguration(), viewportSize: .zero,
                          numberOfItemsInSections: [5])
    expectFlowRect(flowFrame(zero, 4), Rect(x: -25, y: 4 * 60, width: 50, height: 50))
    #expect(zero.layoutAttributesForElements(in: everything).count == 5)

    // Zero-width items with zero spacing never fill a line: one row of 1000, justified over
    // 400 (first at 0, last at 400), no endless loop.
    let thin = FlowLayout(configuration: flowConfig(item: Size(width: 0, height: 10), interitem: 0),
                          viewportSize: Size(width: 400, height: 400), numberOfItemsInSections: [1000])
    expectFlowRect(flowFrame(thin, 0), Rect(x: 0, y: 0, width: 0, height: 10))
    expectFlowRect(flowFrame(thin, 999), Rect(x: 400, y: 0, width: 0, height: 10))
    expectFlowSize(thin.collectionViewContentSize, Size(width: 400, height: 10))
    #expect(thin.layoutAttributesForElements(in: Rect(x: 100, y: 0, width: 1, height: 10)).count
            == flowBruteForce(thin, Rect(x: 100, y: 0, width: 1, height: 10)).count)
    let thinPerItem = FlowLayout(configuration: flowConfig(item: Size(width: 1, height: 1), interitem: 0),
                                 viewportSize: Size(width: 400, height: 400), numberOfItemsInSections: [1000]) { _ in
        Size(width: 0, height: 10)
    }
    // One line, the section's last: packed at x = 0.
    expectFlowRect(flowFrame(thinPerItem, 999), Rect(x: 0, y: 0, width: 0, height: 10))

    // Negative sizes and spacings, NaN and infinite viewports: any numbers, no trap.
    for item in [Size(width: -50, height: -50), Size(width: .nan, height: 10), Size(width: 10, height: .infinity)] {
        for viewport in [Size(width: 320, height: 480), Size(width: .nan, height: -1), Size(width: .infinity, height: 0)] {
            for spacing in [-30.0, 0, .nan] {
                let c = flowConfig(item: item, line: spacing, interitem: spacing,
                                   header: Size(width: -5, height: -5), footer: Size(width: .nan, height: .nan))
                for sizes in [nil, { (_: CardIndexPath) in item }] as [((CardIndexPath) -> Size)?] {
                    let layout = FlowLayout(configuration: c, viewportSize: viewport,
                                            numberOfItemsInSections: [7, 0, 3], sizeForItem: sizes)
                    _ = layout.layoutAttributesForElements(in: Rect(x: 0, y: 0, width: 320, height: 480))
                    _ = layout.layoutAttributesForElements(in: Rect(x: .nan, y: 0, width: .infinity, height: 1))
                    _ = layout.supplementaryFrames(in: everything)
                    _ = layout.layoutAttributesForItem(at: flowPath(6))
                    _ = layout.maximumContentOffset
                }
            }
        }
    }
}

@Test func hugeUniformCounts() {
    // 100×1 items in a 100-wide viewport, spacings 0: one per row (100 + 0 + 100 > 100), y = i.
    let n = 1 << 40
    let layout = FlowLayout(configuration: flowConfig(item: Size(width: 100, height: 1), line: 0, interitem: 0),
                            viewportSize: Size(width: 100, height: 100), numberOfItemsInSections: [n, Int.max])
    expectFlowSize(layout.collectionViewContentSize, Size(width: 100, height: Double(n) + Double(Int.max)))
    expectFlowRect(flowFrame(layout, n - 1), Rect(x: 0, y: Double(n - 1), width: 100, height: 1))
    // y in (2^39 + 0.5, 2^39 + 2.5) meets rows 2^39, 2^39 + 1 and 2^39 + 2.
    let half = 1 << 39
    let got = layout.layoutAttributesForElements(in: Rect(x: 0, y: Double(half) + 0.5, width: 100, height: 2))
    #expect(flowPaths(got) == [flowPath(half), flowPath(half + 1), flowPath(half + 2)])
    // The second section starts at y = 2^40.
    let second = layout.layoutAttributesForElements(in: Rect(x: 0, y: Double(n), width: 100, height: 2))
    #expect(flowPaths(second) == [flowPath(0, 1), flowPath(1, 1)])
    #expect(layout.layoutAttributesForItem(at: flowPath(Int.max - 1, 1)) != nil)
}

@Test func perItemLimitFallsBackToUniformSizes() {
    // Above the limit sizeForItem is never called: uniform 50×50 defaults in 320 → 5 a row.
    let layout = FlowLayout(configuration: FlowLayoutConfiguration(), viewportSize: Size(width: 320, height: 480),
                            numberOfItemsInSections: [8, 8], sizeForItem: { _ in
                                Issue.record("sizeForItem called above the limit")
                                return Size(width: 1, height: 1)
                            }, perItemLimit: 10)
    #expect(layout.usesPerItemSizes == false)
    expectFlowRect(flowFrame(layout, 7, section: 1), Rect(x: 135, y: 110 + 60, width: 50, height: 50))
}
