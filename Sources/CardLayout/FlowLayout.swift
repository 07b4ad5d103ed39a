/// A supplementary view of a flow-layout section (`elementKindSectionHeader/Footer`).
public enum SupplementaryKind: String, Sendable {
    case header
    case footer
}

/// The base frames `UICollectionViewFlowLayout` computes, immutable once
/// built: the value to build again when the configuration, viewport or item counts change
/// (UIKit's `prepare()`).
///
/// - A *line* is a row when scrolling vertically and a column when scrolling horizontally.
///   Items fill a line while the next one fits (an exact fit stays); the first item of a
///   line is always placed.
/// - A line with one item centres it on the line, even when it overflows. A line with
///   several items is fully justified. A section's last line keeps the grid columns of a
///   full line with uniform sizes, and is packed with `minimumInteritemSpacing` with
///   per-item sizes. A lone item on a section's last line sits flush with the start when
///   a second item of its size would have fitted beside it, and is centred otherwise
///   (a single-column layout).
/// - Items are centred across the line's thickness (its thickest item).
/// - Along the scroll axis each section is: header, `sectionInset` start, the lines
///   separated by `minimumLineSpacing`, `sectionInset` end, footer. An empty section keeps
///   its header, footer and both insets, as UIKit's does.
///
/// Uniform sizes (`sizeForItem == nil`) store nothing per item: each frame is arithmetic
/// and a rect query costs O(k) for k results. Per-item sizes are laid out once in `init`
/// (O(n)); a rect query then binary-searches the line table, O(log n + k).
///
/// Thread safety: an immutable value, `Sendable`; any thread may query it.
public struct FlowLayout: Sendable {
    /// The most items laid out with per-item sizes. Beyond it `init` does not call
    /// `sizeForItem` (it could exhaust memory) and lays out with `configuration.itemSize`;
    /// `usesPerItemSizes` is then false.
    public static let maximumItemsWithPerItemSizes = 10_000_000

    /// UIKit applies the section insets to a section without items too (it still shows
    /// its header and footer, with both insets between them).
    static let emptySectionsKeepInsets = true

    public let configuration: FlowLayoutConfiguration
    public let viewportSize: Size
    /// Whether frames come from `sizeForItem` (false: `configuration.itemSize` for all).
    public let usesPerItemSizes: Bool
    /// `collectionViewContentSize`: along the scroll axis the stacked sections, across it
    /// the viewport extent.
    public let collectionViewContentSize: Size

    let axes: FlowAxes
    let uniform: UniformMetrics
    let sections: [FlowSection]
    /// Section envelopes have non-decreasing `lo` and `hi`: they can be binary searched.
    let sectionsOrdered: Bool
    let perItem: PerItemStore?
    /// The largest finite item extent, which scales the query slack.
    let extentScale: Double
    /// The repetition period and span when `configuration.wraps` (FlowLayout+Wrap.swift).
    let wrap: WrapMetrics?
    /// Right to left with `flipsHorizontallyInOppositeLayoutDirection`: the content width
    /// every frame is mirrored in (x becomes `mirrorWidth − x − width`); nil otherwise.
    let mirrorWidth: Double?
    /// Whether any section has a header or a footer.
    let hasSupplementaryViews: Bool
    /// The sections whose items do not fit across the scroll axis between the section
    /// insets, which UIKit logs as undefined behaviour (FlowLayout+SizeRule.swift).
    public let sizeRuleBreaches: [SizeRuleBreach]

    /// Lays out `numberOfItemsInSections.count` sections.
    ///
    /// - Parameters:
    ///   - configuration: the flow properties (scroll direction, item size, spacings,
    ///     insets, header and footer reference sizes).
    ///   - viewportSize: the collection view's bounds size.
    ///   - numberOfItemsInSections: items per section (negative counts count as 0).
    ///   - sizeForItem: nil for the uniform `configuration.itemSize` (no per-item storage:
    ///     every frame is arithmetic, O(1) per item, rect query O(k)); non-nil for per-item
    ///     sizes, like `UICollectionViewDelegateFlowLayout.sizeForItemAt`: called once per
    ///     item, in index-path order, during `init` and never kept; O(n) preparation,
    ///     O(log n + k) rect queries.
    public init(configuration: FlowLayoutConfiguration, viewportSize: Size,
                numberOfItemsInSections: [Int], sizeForItem: ((CardIndexPath) -> Size)? = nil) {
        self.init(configuration: configuration, viewportSize: viewportSize,
                  numberOfItemsInSections: numberOfItemsInSections, sizeForItem: sizeForItem,
                  perItemLimit: FlowLayout.maximumItemsWithPerItemSizes, sectionMetrics: nil)
    }

    /// `init` with an adjustable per-item limit (for tests).
    init(configuration: FlowLayoutConfiguration, viewportSize: Size,
         numberOfItemsInSections: [Int], sizeForItem: ((CardIndexPath) -> Size)?,
         perItemLimit: Int, sectionMetrics: FlowLayoutMetrics? = nil) {
        self.configuration = configuration
        self.viewportSize = viewportSize
        let axes = FlowAxes(configuration: configuration, viewportSize: viewportSize)
        self.axes = axes
        self.uniform = UniformMetrics(axes: axes, itemSize: configuration.itemSize)
        let counts = numberOfItemsInSections.map { max($0, 0) }
        // Per-section insets and reference sizes: each section gets its own axes (the
        // uniform configuration's when no metrics are given: nothing more per section).
        let uniformAxes = axes
        func axesOf(_ s: Int) -> FlowAxes {
            guard let sectionMetrics else { return uniformAxes }
            return FlowAxes(configuration: sectionMetrics.configuration(configuration, section: s),
                            viewportSize: viewportSize)
        }

        var perItemTotal = 0
        var perItemFits = sizeForItem != nil
        if perItemFits {
            for n in counts {
                let (sum, overflow) = perItemTotal.addingReportingOverflow(n)
                if overflow || sum > perItemLimit { perItemFits = false; break }
                perItemTotal = sum
            }
        }

        var sections: [FlowSection] = []
        sections.reserveCapacity(counts.count)
        var contentMain = 0.0
        if perItemFits, let sizeForItem {
            var store = PerItemStore(frames: [], lines: [], linesOrdered: true, crossOrdered: true,
                                     extentScale: 0)
            store.frames.reserveCapacity(perItemTotal)
            for (s, n) in counts.enumerated() {
                let section = FlowLayout.layOutPerItemSection(
                    s, count: n, start: contentMain, axes: axesOf(s), store: &store, sizeForItem: sizeForItem)
                sections.append(section)
                contentMain = section.end
            }
            self.perItem = store
            self.extentScale = store.extentScale
            self.usesPerItemSizes = true
        } else {
            for (s, n) in counts.enumerated() {
                let sectionAxes = axesOf(s)
                let section = FlowLayout.layOutUniformSection(
                    count: n, start: contentMain, axes: sectionAxes,
                    uniform: sectionMetrics == nil ? uniform : UniformMetrics(axes: sectionAxes, itemSize: configuration.itemSize))
                sections.append(section)
                contentMain = section.end
            }
            self.perItem = nil
            self.extentScale = FlowMath.extentScale(uniform.itemMain, uniform.itemCross)
            self.usesPerItemSizes = false
        }
        self.sections = sections
        self.sizeRuleBreaches = FlowLayout.sizeRuleBreaches(configuration: configuration, sections: sections,
                                                            perItem: perItem, axesOf: axesOf)

        var ordered = true
        for i in sections.indices.dropFirst()
        where !(sections[i - 1].lo <= sections[i].lo && sections[i - 1].hi <= sections[i].hi) {
            ordered = false
            break
        }
        self.sectionsOrdered = ordered

        let main = max(0, contentMain)  // never negative (NaN counts as 0)
        self.collectionViewContentSize = axes.isVertical
            ? Size(width: viewportSize.width, height: main)
            : Size(width: main, height: viewportSize.height)
        self.mirrorWidth = configuration.layoutDirection == .rightToLeft
            && configuration.flipsHorizontallyInOppositeLayoutDirection
            ? collectionViewContentSize.width : nil
        self.hasSupplementaryViews = sections.contains { $0.headerExtent > 0 || $0.footerExtent > 0 }
        // After the mirror: a right-to-left layout repeats its mirrored span.
        self.wrap = FlowLayout.wrapMetrics(configuration: configuration, axes: axes, uniform: uniform,
                                           sections: sections, perItem: perItem,
                                           mirrorWidth: axes.isVertical ? nil : mirrorWidth)
    }

    // MARK: - Preparation

    /// Places the header, insets and footer of a section whose lines span `content` along
    /// the scroll axis (`nil` for a section without items).
    private static func frameSection(count: Int, start: Double, content: Double?,
                                     axes: FlowAxes) -> FlowSection {
        let keepsInsets = content != nil || emptySectionsKeepInsets
        let linesStart = start + axes.headerExtent + (keepsInsets ? axes.insetMainStart : 0)
        let footerStart = linesStart + (content ?? 0) + (keepsInsets ? axes.insetMainEnd : 0)
        let end = footerStart + axes.footerExtent
        return FlowSection(
            itemCount: count, start: start, linesStart: linesStart, footerStart: footerStart,
            end: end, lo: min(start, footerStart), hi: max(start + axes.headerExtent, end),
            lineCount: 0, capacity: 1, firstColumnCross: axes.crossStart, columnPitch: 0,
            firstItem: 0, firstLine: 0, headerExtent: axes.headerExtent, footerExtent: axes.footerExtent)
    }

    private static func layOutUniformSection(count n: Int, start: Double, axes: FlowAxes,
                                             uniform u: UniformMetrics) -> FlowSection {
        guard n > 0 else { return frameSection(count: 0, start: start, content: nil, axes: axes) }
        let c = u.capacity(forSectionOf: n)
        let lineCount = (n - 1) / c + 1
        let lastLineOffset = Double(lineCount - 1) * u.linePitch
        var section = frameSection(count: n, start: start, content: lastLineOffset + u.itemMain,
                                   axes: axes)
        section.lineCount = lineCount
        section.capacity = c
        if c >= 2 {
            // Full lines are justified: first flush with the start, last flush with the end.
            // Every line, the last included, uses these grid columns.
            let gap = (axes.lineLength - Double(c) * u.itemCross) / Double(c - 1)
            section.columnPitch = u.itemCross + gap
            section.firstColumnCross = axes.crossStart
        } else {
            // One item per line. A lone item is centred, unless a second one would have
            // fitted (a never-filling line holding a single item): then it sits at the start.
            section.columnPitch = 0
            section.firstColumnCross = u.secondFits
                ? axes.crossStart : axes.centredCross(itemCross: u.itemCross)
        }
        let first = section.linesStart, last = section.linesStart + lastLineOffset
        section.lo = min(section.lo, min(first, last) + min(0, u.itemMain))
        section.hi = max(section.hi, max(first, last) + max(0, u.itemMain))
        return section
    }

    private static func layOutPerItemSection(
        _ s: Int, count n: Int, start: Double, axes: FlowAxes, store: inout PerItemStore,
        sizeForItem: (CardIndexPath) -> Size
    ) -> FlowSection {
        let firstItem = store.frames.count
        let firstLine = store.lines.count
        for item in 0..<n {
            let size = sizeForItem(CardIndexPath(item: item, section: s))
            store.frames.append(Rect(origin: .zero, size: size))
            store.extentScale = max(store.extentScale, FlowMath.extentScale(size.width, size.height))
        }
        let end = firstItem + n
        var lineStart = start + axes.headerExtent + axes.insetMainStart
        var contentEnd = lineStart
        var i = firstItem
        while i < end {
            // Fill the line while the next item fits; the first item is always placed.
            let firstSize = store.frames[i].size
            var used = axes.cross(firstSize)
            var sumCross = used
            var thickness = axes.main(firstSize)
            var k = i + 1
            while k < end {
                let next = store.frames[k].size
                let w = axes.cross(next)
                guard axes.fits(used: used, next: w) else { break }
                used += axes.interitemSpacing + w
                sumCross += w
                thickness = max(thickness, axes.main(next))
                k += 1
            }
            let m = k - i
            let isLastLine = k == end
            // Cross origin of the first item and the step after each item.
            var x: Double
            var gap: Double
            if m == 1 {
                let w = axes.cross(firstSize)
                x = isLastLine && axes.fits(used: w, next: w)
                    ? axes.crossStart : axes.centredCross(itemCross: w)
                gap = 0
            } else if isLastLine {
                x = axes.crossStart  // packed from the start
                gap = axes.interitemSpacing
            } else {
                x = axes.crossStart  // justified: equal gaps, last item flush with the end
                gap = (axes.lineLength - sumCross) / Double(m - 1)
            }
            var lo = Double.infinity, hi = -Double.infinity
            var previousCross: (lo: Double, hi: Double)? = nil
            for j in i..<k {
                let size = store.frames[j].size
                let h = axes.main(size), w = axes.cross(size)
                let y = lineStart + (thickness - h) / 2  // centred across the line's thickness
                store.frames[j] = axes.rect(main: y, cross: x, mainExtent: h, crossExtent: w)
                lo = min(lo, min(y, y + h))
                hi = max(hi, max(y, y + h))
                if let p = previousCross, !(p.lo <= x && p.hi <= x + w) { store.crossOrdered = false }
                previousCross = (x, x + w)
                x += w + gap
            }
            if store.lines.count > firstLine {
                let p = store.lines[store.lines.count - 1]
                if !(p.lo <= lo && p.hi <= hi) { store.linesOrdered = false }
            }
            store.lines.append(FlowLine(lo: lo, hi: hi, firstItem: i, endItem: k))
            contentEnd = lineStart + thickness
            lineStart += thickness + axes.lineSpacing
            i = k
        }
        let linesStart = start + axes.headerExtent + axes.insetMainStart
        var section = frameSection(count: n, start: start,
                                   content: n > 0 ? contentEnd - linesStart : nil, axes: axes)
        section.firstItem = firstItem
        section.firstLine = firstLine
        section.lineCount = store.lines.count - firstLine
        for line in store.lines[firstLine...] {
            section.lo = min(section.lo, line.lo)
            section.hi = max(section.hi, line.hi)
        }
        return section
    }

    // MARK: - Counts

    /// The number of sections.
    public var numberOfSections: Int { sections.count }

    /// The number of items in `section` (0 outside the valid range).
    public func numberOfItems(inSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].itemCount : 0
    }

    /// The largest content offset on each axis: `max(0, contentSize − viewportSize)`.
    public var maximumContentOffset: Point {
        Point(x: max(0, collectionViewContentSize.width - viewportSize.width),
              y: max(0, collectionViewContentSize.height - viewportSize.height))
    }

    // MARK: - Items

    /// Base attributes of one item (identity transform, alpha 1, zIndex 0, not hidden),
    /// or nil when the index path is outside the layout.
    public func layoutAttributesForItem(at indexPath: CardIndexPath) -> LayoutAttributes? {
        guard sections.indices.contains(indexPath.section) else { return nil }
        let section = sections[indexPath.section]
        guard indexPath.item >= 0, indexPath.item < section.itemCount else { return nil }
        if let perItem {
            return mirrored(LayoutAttributes(indexPath: indexPath,
                                             frame: perItem.frames[section.firstItem + indexPath.item]))
        }
        let c = section.capacity
        return mirrored(uniformAttributes(indexPath.section, section,
                                          line: indexPath.item / c, column: indexPath.item % c))
    }

    /// An item as shown: mirrored across the content width right to left (its centre's x
    /// becomes `mirrorWidth − x`, so its frame's x is `mirrorWidth − x − width`).
    @inline(__always)
    private func mirrored(_ attributes: LayoutAttributes) -> LayoutAttributes {
        guard let w = mirrorWidth else { return attributes }
        var a = attributes
        a.center.x = w - a.center.x
        return a
    }

    /// A rect mirrored across the content width (right to left), or itself.
    @inline(__always)
    private func mirrored(_ rect: Rect) -> Rect {
        guard let w = mirrorWidth else { return rect }
        return Rect(x: w - rect.origin.x - rect.size.width, y: rect.origin.y,
                    width: rect.size.width, height: rect.size.height)
    }

    /// The one formula for a uniform item's frame (queries and single look-ups share it,
    /// so they agree to the last bit).
    @inline(__always)
    private func uniformAttributes(_ s: Int, _ section: FlowSection, line: Int, column: Int)
        -> LayoutAttributes
    {
        let main = section.linesStart + Double(line) * uniform.linePitch
        let cross = section.firstColumnCross + Double(column) * section.columnPitch
        return LayoutAttributes(
            indexPath: CardIndexPath(item: line * section.capacity + column, section: s),
            frame: axes.rect(main: main, cross: cross,
                             mainExtent: uniform.itemMain, crossExtent: uniform.itemCross))
    }

    /// Base attributes of every item whose untransformed frame intersects `rect`
    /// (`Rect.intersects`), ordered by section then item. A layout that wraps returns every
    /// repetition meeting the rect, in order along the scroll axis (each in section and
    /// item order), frames shifted by k × ``wrapPeriod``: an item may come more than once.
    public func layoutAttributesForElements(in rect: Rect) -> [LayoutAttributes] {
        var result: [LayoutAttributes] = []
        // One allocation for a carousel's screenful (every frame asks), not one per doubling.
        result.reserveCapacity(4)
        forEachItem(in: rect) { result.append($0) }
        return result
    }

    /// `layoutAttributesForElements(in:)`, or nil when more than `limit` items meet the
    /// rect: enumeration stops at the first item past the limit, so neither the work nor
    /// the array grows with a rect that meets millions of items.
    public func layoutAttributesForElements(in rect: Rect, limit: Int) -> [LayoutAttributes]? {
        let (items, complete) = firstItems(in: rect, limit: limit)
        return complete ? items : nil
    }

    /// The first `limit` items that meet `rect`, and whether they are all of them.
    func firstItems(in rect: Rect, limit: Int) -> (items: [LayoutAttributes], complete: Bool) {
        var result: [LayoutAttributes] = []
        result.reserveCapacity(4)
        do {
            try forEachItem(in: rect) { item in
                guard result.count < limit else { throw EnumerationStopped() }
                result.append(item)
            }
        } catch {
            return (result, false)
        }
        return (result, true)
    }

    /// Calls `body` with the same items as `layoutAttributesForElements(in:)`, in the same
    /// order, without building an array (the per-frame hot path).
    public func forEachItem(in rect: Rect, _ body: (LayoutAttributes) throws -> Void) rethrows {
        if let wrap {
            try forEachRepeatedItem(in: rect, wrap, body)
        } else {
            try forEachBaseItem(in: rect, body)
        }
    }

    /// The items of the laid-out content itself (repetition 0 of a layout that wraps).
    func forEachBaseItem(in rect: Rect, _ body: (LayoutAttributes) throws -> Void) rethrows {
        // Right to left the windows come from the rect mirrored into the unmirrored
        // layout; each item is mirrored back before the exact test against `rect`.
        let query = mirrored(rect)
        let m = axes.mainInterval(query), c = axes.crossInterval(query)
        let mainSlack = FlowMath.slack(m.lower, m.upper, extentScale: extentScale)
        let crossSlack = FlowMath.slack(c.lower, c.upper, extentScale: extentScale)
        let a = m.lower - mainSlack, b = m.upper + mainSlack
        let ca = c.lower - crossSlack, cb = c.upper + crossSlack

        try forEachSection(overlapping: a, b) { s, section in
            guard section.itemCount > 0 else { return }
            if let perItem {
                try forEachPerItem(perItem, s, section, rect, a, b, ca, cb, body)
            } else {
                try forEachUniform(s, section, rect, a, b, ca, cb, body)
            }
        }
    }

    /// Calls `body` with every section whose extent along the scroll axis meets the open
    /// interval (a, b), in order; with `sectionsOrdered` a binary search finds the first
    /// and the walk stops at the first section past b.
    private func forEachSection(overlapping a: Double, _ b: Double,
                                _ body: (Int, FlowSection) throws -> Void) rethrows {
        var s = firstCandidateSection(above: a)
        while s < sections.count {
            let section = sections[s]
            if !(section.lo < b) {
                if sectionsOrdered { break }
                s += 1
                continue
            }
            if section.hi > a { try body(s, section) }
            s += 1
        }
    }

    private func forEachUniform(
        _ s: Int, _ section: FlowSection, _ rect: Rect,
        _ a: Double, _ b: Double, _ ca: Double, _ cb: Double,
        _ body: (LayoutAttributes) throws -> Void
    ) rethrows {
        let lines = FlowMath.candidates(
            origin: section.linesStart, step: uniform.linePitch, extent: uniform.itemMain,
            count: section.lineCount, lower: a, upper: b)
        for line in lines {
            let inLine = line == section.lineCount - 1
                ? section.itemCount - line * section.capacity : section.capacity
            let columns = FlowMath.candidates(
                origin: section.firstColumnCross, step: section.columnPitch,
                extent: uniform.itemCross, count: inLine, lower: ca, upper: cb)
            for column in columns {
                let attributes = mirrored(uniformAttributes(s, section, line: line, column: column))
                if attributes.frame.intersects(rect) { try body(attributes) }
            }
        }
    }

    private func forEachPerItem(
        _ store: PerItemStore, _ s: Int, _ section: FlowSection, _ rect: Rect,
        _ a: Double, _ b: Double, _ ca: Double, _ cb: Double,
        _ body: (LayoutAttributes) throws -> Void
    ) rethrows {
        let lineEnd = section.firstLine + section.lineCount
        var l = section.firstLine
        if store.linesOrdered {
            // First line whose envelope ends after the window starts.
            var hi = lineEnd
            while l < hi {
                let mid = l + (hi - l) / 2
                if store.lines[mid].hi > a { hi = mid } else { l = mid + 1 }
            }
        }
        while l < lineEnd {
            let line = store.lines[l]
            if !(line.lo < b) {
                if store.linesOrdered { break }
                l += 1
                continue
            }
            if line.hi > a {
                var i = line.firstItem
                if store.crossOrdered, line.endItem - line.firstItem > 8 {
                    var hi = line.endItem
                    while i < hi {
                        let mid = i + (hi - i) / 2
                        if axes.crossInterval(store.frames[mid]).upper > ca { hi = mid } else { i = mid + 1 }
                    }
                }
                while i < line.endItem {
                    let frame = store.frames[i]
                    if store.crossOrdered, !(axes.crossInterval(frame).lower < cb) { break }
                    let attributes = mirrored(LayoutAttributes(
                        indexPath: CardIndexPath(item: i - section.firstItem, section: s), frame: frame))
                    if attributes.frame.intersects(rect) { try body(attributes) }
                    i += 1
                }
            }
            l += 1
        }
    }

    /// The first section that may reach past `a` along the scroll axis.
    private func firstCandidateSection(above a: Double) -> Int {
        guard sectionsOrdered else { return 0 }
        var lo = 0, hi = sections.count
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if sections[mid].hi > a { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    // MARK: - Headers and footers

    /// The frame of a section's header or footer: the full viewport extent across the
    /// scroll axis, its reference extent along it. Nil when that extent is 0 (no view,
    /// as in UIKit) or the section does not exist.
    public func supplementaryFrame(ofKind kind: SupplementaryKind, inSection section: Int) -> Rect? {
        guard sections.indices.contains(section) else { return nil }
        return supplementaryFrame(kind, sections[section])
    }

    private func supplementaryFrame(_ kind: SupplementaryKind, _ section: FlowSection) -> Rect? {
        switch kind {
        case .header:
            guard section.headerExtent > 0 else { return nil }
            return mirrored(axes.rect(main: section.start, cross: 0,
                                      mainExtent: section.headerExtent, crossExtent: axes.viewportCross))
        case .footer:
            guard section.footerExtent > 0 else { return nil }
            return mirrored(axes.rect(main: section.footerStart, cross: 0,
                                      mainExtent: section.footerExtent, crossExtent: axes.viewportCross))
        }
    }

    /// Header and footer frames (only those with a non-zero reference extent) that
    /// intersect `rect`, ordered by section, a header before its footer (a layout that
    /// wraps: every repetition, as ``layoutAttributesForElements(in:)``).
    public func supplementaryFrames(in rect: Rect) -> [(kind: SupplementaryKind, section: Int, frame: Rect)] {
        if let wrap { return repeatedSupplementaryFrames(in: rect, wrap) }
        return baseSupplementaryFrames(in: rect)
    }

    func baseSupplementaryFrames(in rect: Rect) -> [(kind: SupplementaryKind, section: Int, frame: Rect)] {
        var result: [(kind: SupplementaryKind, section: Int, frame: Rect)] = []
        guard hasSupplementaryViews else { return result }
        let m = axes.mainInterval(mirrored(rect))
        let slack = FlowMath.slack(m.lower, m.upper, extentScale: axes.viewportCross)
        let a = m.lower - slack, b = m.upper + slack
        forEachSection(overlapping: a, b) { s, section in
            if let frame = supplementaryFrame(.header, section), frame.intersects(rect) {
                result.append((.header, s, frame))
            }
            if let frame = supplementaryFrame(.footer, section), frame.intersects(rect) {
                result.append((.footer, s, frame))
            }
        }
        return result
    }
}

/// Thrown by a `forEachItem` body to stop the enumeration early.
struct EnumerationStopped: Error {}

/// A layout that answers a script's base-layout query, `layout:layoutAttributesForElements(rect)`:
/// the untransformed attributes of the items meeting a rect. ``FlowLayout`` conforms; an app
/// conforms its own layout (for instance one returning `super.layoutAttributesForElements(in:)`
/// of a `UICollectionViewFlowLayout` subclass, converted).
///
/// Called synchronously, on the effect's thread, while a callback runs: it must not call
/// back into the effect.
public protocol BaseLayoutProviding {
    /// Base attributes of the items whose frame meets `rect`, ordered by section then item.
    /// May stop after `limit` items (more than `limit` is a script error anyway). May be
    /// called more than once for one script query (the first time, a buffer grows).
    func baseLayoutAttributes(in rect: Rect, limit: Int) -> [LayoutAttributes]
}

extension BaseLayoutProviding {
    /// Every base item whose frame meets `rect` (`super.layoutAttributesForElements(in:)`).
    public func baseLayoutAttributes(in rect: Rect) -> [LayoutAttributes] {
        baseLayoutAttributes(in: rect, limit: .max)
    }
}

extension FlowLayout: BaseLayoutProviding {
    public func baseLayoutAttributes(in rect: Rect, limit: Int) -> [LayoutAttributes] {
        firstItems(in: rect, limit: limit).items
    }
}
