import CLuaShims
import CardLayout

/// Sections and sizes: the item counts a script sees (`layout.collectionView.numberOfSections`,
/// `collectionView:numberOfItems(section)`) and its `UICollectionViewDelegateFlowLayout`
/// callbacks (`sizeForItem`, `insetForSection`, `referenceSizeForHeader`,
/// `referenceSizeForFooter`), each called for every item or section in one protected
/// call (Sources/CLuaShims/sizes.c).
extension LuaEffect {
    /// The script callbacks that give per-item and per-section metrics.
    public static let metricsCallbacks = ["sizeForItem", "insetForSection", "referenceSizeForHeader",
                                          "referenceSizeForFooter"]

    /// Hands the item counts to the script, then `prepare`.
    public func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size,
                        numberOfItemsInSections counts: [Int]) throws {
        try setItemCounts(counts)
        try prepare(&configuration, viewportSize: viewportSize)
    }

    /// What `layout.collectionView.numberOfSections` and `numberOfItems(section)` answer
    /// from now on (negative counts count as 0).
    public func setItemCounts(_ counts: [Int]) throws(ScriptError) {
        let status = counts.withUnsafeBufferPointer { c in
            cardlua_set_item_counts(host, c.baseAddress, c.count)
        }
        if status != CARDLUA_OK { throw error(status) }
    }

    /// The script's `sizeForItem` for every item and `insetForSection`,
    /// `referenceSizeForHeader`, `referenceSizeForFooter` for every section; nil when it
    /// defines none of them (the uniform path). Values are checked in C: finite, at most
    /// 10¹⁵, item sizes positive, the rest zero or more.
    public func flowLayoutMetrics(configuration: FlowLayoutConfiguration, viewportSize: Size,
                                  numberOfItems counts: [Int]) throws -> FlowLayoutMetrics? {
        try refuseReentry()
        let defined = Self.metricsCallbacks.map { definesFunction($0) }
        guard defined.contains(true) else { return nil }
        setState(ScrollContext(bounds: Rect(origin: .zero, size: viewportSize), contentSize: viewportSize))
        let sectionCount = counts.count
        var metrics = FlowLayoutMetrics()
        var total = 0
        for n in counts { total = total.addingReportingOverflow(max(n, 0)).partialValue }
        // Past the per-item limit FlowLayout lays out uniformly anyway: no call for nothing.
        if defined[0], total >= 0, total <= FlowLayout.maximumItemsWithPerItemSizes {
            var buffer = [Double](repeating: 0, count: max(2 * total, 1))
            let status = buffer.withUnsafeMutableBufferPointer { out in
                counts.withUnsafeBufferPointer { c in
                    state.withUnsafeBufferPointer { s in
                        cardlua_item_sizes(host, s.baseAddress, c.baseAddress, c.count, out.baseAddress)
                    }
                }
            }
            if status != CARDLUA_OK { throw error(status) }
            metrics.itemSizes = (0..<total).map { Size(width: buffer[2 * $0], height: buffer[2 * $0 + 1]) }
        }
        func perSection(_ name: String, stride: Int) throws(ScriptError) -> [Double] {
            var buffer = [Double](repeating: 0, count: max(stride * sectionCount, 1))
            let status = buffer.withUnsafeMutableBufferPointer { out in
                state.withUnsafeBufferPointer { s in
                    cardlua_section_metrics(host, s.baseAddress, name, sectionCount, out.baseAddress)
                }
            }
            if status != CARDLUA_OK { throw error(status) }
            return buffer
        }
        if defined[1] {
            let b = try perSection("insetForSection", stride: 4)
            metrics.sectionInsets = (0..<sectionCount).map {
                CardEdgeInsets(top: b[4 * $0], left: b[4 * $0 + 1], bottom: b[4 * $0 + 2], right: b[4 * $0 + 3])
            }
        }
        if defined[2] {
            let b = try perSection("referenceSizeForHeader", stride: 2)
            metrics.headerReferenceSizes = (0..<sectionCount).map { Size(width: b[2 * $0], height: b[2 * $0 + 1]) }
        }
        if defined[3] {
            let b = try perSection("referenceSizeForFooter", stride: 2)
            metrics.footerReferenceSizes = (0..<sectionCount).map { Size(width: b[2 * $0], height: b[2 * $0 + 1]) }
        }
        return metrics
    }
}
