// `FlowLayoutConfiguration.wraps`: the laid-out content repeats endlessly along the
// scroll axis. The base layout (repetition 0) is the ordinary flow layout; repetition k
// is the same frames shifted by k periods. docs/physics.md ("Wrap") describes it.

/// Where the repeated content sits along the scroll axis, for a layout that wraps.
struct WrapMetrics: Sendable, Hashable {
    /// The period: `end − start + minimumLineSpacing`.
    let period: Double
    /// Where the first element (item, header or footer) begins along the scroll axis.
    let start: Double
    /// Where the last element ends.
    let end: Double

    /// The period of a layout whose elements (items, headers, footers) span `start...end`
    /// along the scroll axis: the span plus one `lineSpacing`, so the gap between the last
    /// element of one repetition and the first of the next is `lineSpacing`. Nil when
    /// nothing would repeat (no element, or a period that is not a positive finite number).
    init?(start: Double, end: Double, lineSpacing: Double) {
        let period = end - start + lineSpacing
        guard start.isFinite, end.isFinite, period.isFinite, period > 0 else { return nil }
        self.period = period
        self.start = start
        self.end = end
    }

    /// The repetitions (as a range of k) whose elements may meet the open window
    /// `(lower, upper)` along the scroll axis, one of slack each side; at most
    /// ``FlowLayout/maximumRepetitionsPerQuery`` of them.
    func repetitions(meeting lower: Double, _ upper: Double) -> ClosedRange<Int>? {
        guard lower <= upper else { return nil }  // also NaN
        let bound = 1 << 52
        let first = FlowMath.clampToInt(((lower - end) / period).rounded(.down) - 1, -bound, bound)
        let last = FlowMath.clampToInt(((upper - start) / period).rounded(.up) + 1, -bound, bound)
        guard first <= last else { return nil }
        return first...min(last, first + FlowLayout.maximumRepetitionsPerQuery - 1)
    }
}

extension FlowLayout {
    /// The most repetitions one rect query of a wrapping layout walks (a rect longer than
    /// this many periods returns the items of the first ones only): a query stays bounded
    /// whatever the rect.
    public static let maximumRepetitionsPerQuery = 1_000_000

    /// The wrap period along the scroll axis, or nil when the layout does not wrap
    /// (`configuration.wraps` false, or nothing to repeat).
    ///
    /// The period is the extent from the start of the first element (item, header or
    /// footer) to the end of the last one, plus `minimumLineSpacing`: the last element of
    /// one repetition and the first of the next are `minimumLineSpacing` apart, like two
    /// lines. One section of one item per line (a carousel) has a period of
    /// n × (item extent + `minimumLineSpacing`); with per-item sizes, the sum of the
    /// extents plus n spacings. The section insets along the scroll axis before the first
    /// element and after the last are not part of it: the leading one only places
    /// repetition 0 (item 0 sits where the unwrapped layout puts it), the trailing one is
    /// dropped. Insets between a header and its items, and between sections, stay.
    public var wrapPeriod: Double? { wrap?.period }

    /// Whether the layout wraps: ``wrapPeriod`` is not nil.
    public var wraps: Bool { wrap != nil }

    /// The span of the elements along the scroll axis and the period, or nil when
    /// `configuration.wraps` is false or nothing repeats. Built once by `init`.
    static func wrapMetrics(configuration: FlowLayoutConfiguration, axes: FlowAxes, uniform: UniformMetrics,
                            sections: [FlowSection], perItem: PerItemStore?,
                            mirrorWidth: Double?) -> WrapMetrics? {
        guard configuration.wraps else { return nil }
        var lo = Double.infinity, hi = -Double.infinity
        func include(_ a: Double, _ b: Double) {
            lo = min(lo, min(a, b))
            hi = max(hi, max(a, b))
        }
        for section in sections {
            if section.headerExtent > 0 { include(section.start, section.start + section.headerExtent) }
            if section.footerExtent > 0 { include(section.footerStart, section.footerStart + section.footerExtent) }
            guard section.itemCount > 0 else { continue }
            if let perItem {
                for line in perItem.lines[section.firstLine..<(section.firstLine + section.lineCount)] {
                    include(line.lo, line.hi)
                }
            } else {
                let last = section.linesStart + Double(section.lineCount - 1) * uniform.linePitch
                include(section.linesStart, section.linesStart + uniform.itemMain)
                include(last, last + uniform.itemMain)
            }
        }
        // Right to left the span is mirrored in the content width (x becomes W − x).
        if let width = mirrorWidth { (lo, hi) = (width - hi, width - lo) }
        return WrapMetrics(start: lo, end: hi, lineSpacing: axes.lineSpacing)
    }

    /// `forEachItem(in:)` of a wrapping layout: every repetition meeting the rect, in
    /// order along the scroll axis, each in section and item order, frames shifted by
    /// k × period. O(k) for k results (plus O(log n) per repetition with per-item sizes).
    func forEachRepeatedItem(in rect: Rect, _ wrap: WrapMetrics,
                             _ body: (LayoutAttributes) throws -> Void) rethrows {
        let m = axes.mainInterval(rect)
        guard let ks = wrap.repetitions(meeting: m.lower, m.upper) else { return }
        // A rect over many repetitions of which none holds an item (it passes between
        // the items across the scroll axis) must not walk them all: one full repetition
        // tells (every whole repetition holds the same items).
        if ks.count > 4, !hasItem(inFullRepetitionAcross: rect, wrap) { return }
        for k in ks {
            try forEachItem(in: rect, repetition: k, wrap, body)
        }
    }

    /// The items of repetition `k` meeting `rect`: the base layout queried with the rect
    /// moved back by k periods (widened by a rounding margin), each frame moved forward and
    /// tested against `rect` itself.
    private func forEachItem(in rect: Rect, repetition k: Int, _ wrap: WrapMetrics,
                             _ body: (LayoutAttributes) throws -> Void) rethrows {
        let shift = Double(k) * wrap.period
        let m = axes.mainInterval(rect)
        let margin = 1e-9 * (1 + abs(m.lower) + abs(m.upper) + abs(shift) + extentScale)
        let lower = m.lower - shift - margin, upper = m.upper - shift + margin
        let c = axes.crossInterval(rect)
        let window = axes.rect(main: lower, cross: c.lower, mainExtent: upper - lower,
                               crossExtent: c.upper - c.lower)
        let offset = axes.point(main: shift)
        try forEachBaseItem(in: window) { base in
            var attributes = base
            attributes.center = Point(x: base.center.x + offset.x, y: base.center.y + offset.y)
            if attributes.frame.intersects(rect) { try body(attributes) }
        }
    }

    private func hasItem(inFullRepetitionAcross rect: Rect, _ wrap: WrapMetrics) -> Bool {
        let c = axes.crossInterval(rect)
        let margin = 1e-9 * (1 + abs(wrap.start) + abs(wrap.end))
        let window = axes.rect(main: wrap.start - margin, cross: c.lower,
                               mainExtent: wrap.end - wrap.start + 2 * margin, crossExtent: c.upper - c.lower)
        do {
            try forEachBaseItem(in: window) { _ in throw EnumerationStopped() }
        } catch {
            return true
        }
        return false
    }

    /// Header and footer frames of every repetition meeting `rect` (see
    /// ``supplementaryFrames(in:)``), in order along the scroll axis.
    func repeatedSupplementaryFrames(in rect: Rect, _ wrap: WrapMetrics)
        -> [(kind: SupplementaryKind, section: Int, frame: Rect)]
    {
        var result: [(kind: SupplementaryKind, section: Int, frame: Rect)] = []
        let m = axes.mainInterval(rect)
        guard let ks = wrap.repetitions(meeting: m.lower, m.upper) else { return result }
        let c = axes.crossInterval(rect)
        // Headers span the viewport across the scroll axis: a rect that misses it misses them all.
        guard c.lower < axes.viewportCross, c.upper > 0 else { return result }
        for k in ks {
            let shift = Double(k) * wrap.period
            let margin = 1e-9 * (1 + abs(m.lower) + abs(m.upper) + abs(shift))
            let window = axes.rect(main: m.lower - shift - margin, cross: c.lower,
                                   mainExtent: m.upper - m.lower + 2 * margin, crossExtent: c.upper - c.lower)
            let offset = axes.point(main: shift)
            for element in baseSupplementaryFrames(in: window) {
                var frame = element.frame
                frame.origin = Point(x: frame.minX + offset.x, y: frame.minY + offset.y)
                if frame.intersects(rect) { result.append((element.kind, element.section, frame)) }
            }
        }
        return result
    }
}

extension FlowAxes {
    /// A point with `main` on the scroll axis and 0 across it.
    @inline(__always) func point(main: Double) -> Point {
        isVertical ? Point(x: 0, y: main) : Point(x: main, y: 0)
    }
}
