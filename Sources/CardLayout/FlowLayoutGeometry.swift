// Internal building blocks of `FlowLayout`: the configuration resolved onto the scroll
// axis ("main") and the axis across it ("cross"), per-section geometry, the per-item
// store, and the small numeric helpers the rect queries use.

/// The flow configuration resolved onto the scroll axis (*main*) and the line axis
/// (*cross*): a line is a row when scrolling vertically and a column when scrolling
/// horizontally, as UIKit's flow layout does.
struct FlowAxes: Sendable {
    /// Tolerance of the "does the next item fit" comparison, so that an exact fit stays.
    static let fitEpsilon = 1e-9

    let isVertical: Bool
    /// The viewport extent across the scroll axis (width when vertical).
    let viewportCross: Double
    /// The inset before each line on the cross axis (left when vertical, top when horizontal).
    let crossStart: Double
    /// Available line length: viewport extent across the scroll axis minus both insets on it.
    let lineLength: Double
    /// Inset before the first line along the scroll axis (top when vertical).
    let insetMainStart: Double
    /// Inset after the last line along the scroll axis (bottom when vertical).
    let insetMainEnd: Double
    let lineSpacing: Double
    let interitemSpacing: Double
    /// Header extent along the scroll axis; 0 means no header (negative and NaN count as 0).
    let headerExtent: Double
    /// Footer extent along the scroll axis, like `headerExtent`.
    let footerExtent: Double

    init(configuration c: FlowLayoutConfiguration, viewportSize: Size) {
        isVertical = c.scrollDirection == .vertical
        let inset = c.sectionInset
        if isVertical {
            viewportCross = viewportSize.width
            crossStart = inset.left
            lineLength = viewportSize.width - inset.left - inset.right
            insetMainStart = inset.top
            insetMainEnd = inset.bottom
            headerExtent = FlowAxes.nonNegative(c.headerReferenceSize.height)
            footerExtent = FlowAxes.nonNegative(c.footerReferenceSize.height)
        } else {
            viewportCross = viewportSize.height
            crossStart = inset.top
            lineLength = viewportSize.height - inset.top - inset.bottom
            insetMainStart = inset.left
            insetMainEnd = inset.right
            headerExtent = FlowAxes.nonNegative(c.headerReferenceSize.width)
            footerExtent = FlowAxes.nonNegative(c.footerReferenceSize.width)
        }
        lineSpacing = c.minimumLineSpacing
        interitemSpacing = c.minimumInteritemSpacing
    }

    private static func nonNegative(_ x: Double) -> Double { x > 0 ? x : 0 }

    @inline(__always) func main(_ s: Size) -> Double { isVertical ? s.height : s.width }
    @inline(__always) func cross(_ s: Size) -> Double { isVertical ? s.width : s.height }

    /// The rect's interval along the scroll axis.
    @inline(__always) func mainInterval(_ r: Rect) -> (lower: Double, upper: Double) {
        isVertical ? (r.minY, r.maxY) : (r.minX, r.maxX)
    }

    /// The rect's interval across the scroll axis.
    @inline(__always) func crossInterval(_ r: Rect) -> (lower: Double, upper: Double) {
        isVertical ? (r.minX, r.maxX) : (r.minY, r.maxY)
    }

    @inline(__always)
    func rect(main: Double, cross: Double, mainExtent: Double, crossExtent: Double) -> Rect {
        isVertical
            ? Rect(x: cross, y: main, width: crossExtent, height: mainExtent)
            : Rect(x: main, y: cross, width: mainExtent, height: crossExtent)
    }

    /// Whether an item of cross extent `next` still fits on a line already `used` long
    /// (an exact fit stays). NaN never fits.
    @inline(__always) func fits(used: Double, next: Double) -> Bool {
        used + interitemSpacing + next <= lineLength + FlowAxes.fitEpsilon
    }

    /// Cross origin of an item alone on a line: centred on the line, even when the
    /// leftover is negative, as UIKit does.
    @inline(__always) func centredCross(itemCross w: Double) -> Double {
        crossStart + (lineLength - w) / 2
    }
}

/// The uniform item size resolved onto the axes, and how many items a line holds.
struct UniformMetrics: Sendable {
    let itemMain: Double
    let itemCross: Double
    /// Distance from one line to the next: item extent along the scroll axis + line spacing.
    let linePitch: Double
    /// Whether a second item fits beside the first. Decides where a lone item on a
    /// section's last line sits: flush with the start (first grid column) when it does,
    /// centred when it does not (a single-column layout).
    let secondFits: Bool
    /// Items per full line; nil when a line never fills (item extent + spacing ≤ 0 while
    /// a second item fits): then each section is a single line.
    let capacity: Int?

    /// Beyond this many items per line, capacity is capped (a degenerate, sub-ulp pitch).
    static let capacityCap = Double(1 << 52)

    init(axes: FlowAxes, itemSize: Size) {
        itemMain = axes.main(itemSize)
        itemCross = axes.cross(itemSize)
        linePitch = itemMain + axes.lineSpacing
        let w = itemCross, s = axes.interitemSpacing
        secondFits = axes.fits(used: w, next: w)
        if !secondFits {
            capacity = 1
        } else if w + s > 0 {
            // The k-th further item fits while k·(w + s) ≤ L + ε − w (closed form of the
            // greedy fill, so no per-item loop).
            let q = (axes.lineLength + FlowAxes.fitEpsilon - w) / (w + s)
            let k = q >= UniformMetrics.capacityCap ? UniformMetrics.capacityCap : q.rounded(.down)
            capacity = max(2, Int(k) + 1)
        } else {
            capacity = nil
        }
    }

    /// Items per full line in a section of `count` items.
    func capacity(forSectionOf count: Int) -> Int {
        capacity ?? max(count, 1)
    }
}

/// One section's geometry along the scroll axis, plus what each mode needs to find its
/// items. Sections stack: header, inset start, lines, inset end, footer.
struct FlowSection: Sendable {
    var itemCount: Int
    /// Where the section (its header) begins along the scroll axis.
    var start: Double
    /// Where the first line begins.
    var linesStart: Double
    /// Where the footer begins.
    var footerStart: Double
    /// Where the section (its footer) ends; the next section begins here.
    var end: Double
    /// Envelope along the scroll axis of everything in the section (items, header, footer).
    var lo: Double
    var hi: Double
    var lineCount: Int

    // Uniform sizes.
    /// Items per full line.
    var capacity: Int
    /// Cross origin of the first grid column.
    var firstColumnCross: Double
    /// Distance between grid columns (item extent + justified gap); 0 for one column.
    var columnPitch: Double

    // Per-item sizes.
    /// Flat index of the section's first item in `PerItemStore.frames`.
    var firstItem: Int
    /// Index of the section's first line in `PerItemStore.lines`.
    var firstLine: Int

    /// This section's header and footer extents along the scroll axis (its own with
    /// per-section reference sizes); 0: none.
    var headerExtent: Double
    var footerExtent: Double
}

/// One line of a per-item layout: its items and their envelope along the scroll axis.
struct FlowLine: Sendable {
    var lo: Double
    var hi: Double
    var firstItem: Int
    var endItem: Int
}

/// Per-item sizes: every frame computed once, plus a line table for the rect queries.
struct PerItemStore: Sendable {
    var frames: [Rect]
    var lines: [FlowLine]
    /// Within every section, line envelopes have non-decreasing `lo` and `hi` (true for
    /// non-negative sizes and spacings): the line table can be binary searched.
    var linesOrdered: Bool
    /// Within every line, item cross intervals have non-decreasing starts and ends.
    var crossOrdered: Bool
    /// The largest finite |width| or |height| of any item.
    var extentScale: Double
}

enum FlowMath {
    /// `x` truncated to an Int within `lo...hi`; NaN gives `lo`. Never traps.
    @inline(__always) static func clampToInt(_ x: Double, _ lo: Int, _ hi: Int) -> Int {
        if !(x > Double(lo)) { return lo }
        if x >= Double(hi) { return hi }
        return Int(x)
    }

    /// Slack added to a query window `(a, b)` so that rounding never hides an item: a
    /// frame is rebuilt from centre and size, which moves its edges by a few ulps of
    /// |position| + |extent|. The exact `Rect.intersects` test decides membership.
    @inline(__always) static func slack(_ a: Double, _ b: Double, extentScale: Double) -> Double {
        1e-12 * (1 + (a.isFinite ? abs(a) : 0) + (b.isFinite ? abs(b) : 0) + 2 * extentScale)
    }

    /// The larger finite |extent| of the two (0 when neither is finite).
    @inline(__always) static func extentScale(_ x: Double, _ y: Double) -> Double {
        max(x.isFinite ? abs(x) : 0, y.isFinite ? abs(y) : 0)
    }

    /// Indices `i` in `0..<count` whose interval `[origin + i·step, … + extent)` may meet
    /// the open window `(lower, upper)`: a small superset (one index of slack each side).
    /// A zero or non-finite step gives every index (degenerate layouts only).
    static func candidates(origin: Double, step: Double, extent: Double, count: Int,
                           lower: Double, upper: Double) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        guard step.isFinite, step != 0 else { return 0..<count }
        // Interval meets the window ⇔ lower − extent < origin + i·step < upper.
        var lo = (lower - extent - origin) / step
        var hi = (upper - origin) / step
        if step < 0 { swap(&lo, &hi) }
        let first = clampToInt(lo.rounded(.down), 0, count)
        let last = clampToInt(hi.rounded(.up), -1, count - 1)
        return first <= last ? first..<(last + 1) : 0..<0
    }
}
