/// What a `UICollectionViewDelegateFlowLayout` answers per item and per section, for a
/// ``FlowLayout``: each array, when given, replaces the configuration's single value
/// (`itemSize`, `sectionInset`, `headerReferenceSize`, `footerReferenceSize`).
///
/// An effect returns it from ``Effect/flowLayoutMetrics(configuration:viewportSize:numberOfItems:)``
/// (a script's `sizeForItem`, `insetForSection`, `referenceSizeForHeader`,
/// `referenceSizeForFooter`); nil there, or nil arrays here, keep the uniform path, whose
/// frames are arithmetic (O(1) per item, nothing stored per item).
public struct FlowLayoutMetrics: Hashable, Sendable {
    /// `collectionView(_:layout:sizeForItemAt:)`: one size per item, flat in index-path
    /// order (every item of section 0, then section 1, …). Nil: `configuration.itemSize`.
    public var itemSizes: [Size]?
    /// `collectionView(_:layout:insetForSectionAt:)`, one per section. Nil: `configuration.sectionInset`.
    public var sectionInsets: [CardEdgeInsets]?
    /// `collectionView(_:layout:referenceSizeForHeaderInSection:)`, one per section. Nil:
    /// `configuration.headerReferenceSize`.
    public var headerReferenceSizes: [Size]?
    /// `collectionView(_:layout:referenceSizeForFooterInSection:)`, one per section. Nil:
    /// `configuration.footerReferenceSize`.
    public var footerReferenceSizes: [Size]?

    public init(itemSizes: [Size]? = nil, sectionInsets: [CardEdgeInsets]? = nil,
                headerReferenceSizes: [Size]? = nil, footerReferenceSizes: [Size]? = nil) {
        self.itemSizes = itemSizes
        self.sectionInsets = sectionInsets
        self.headerReferenceSizes = headerReferenceSizes
        self.footerReferenceSizes = footerReferenceSizes
    }

    /// Whether any section-level value is given (the per-section geometry path).
    var hasSectionValues: Bool {
        sectionInsets != nil || headerReferenceSizes != nil || footerReferenceSizes != nil
    }

    /// The configuration section `s` is laid out with: its own inset and reference sizes
    /// where given (a missing entry keeps the configuration's).
    func configuration(_ base: FlowLayoutConfiguration, section s: Int) -> FlowLayoutConfiguration {
        var c = base
        if let insets = sectionInsets, insets.indices.contains(s) { c.sectionInset = insets[s] }
        if let headers = headerReferenceSizes, headers.indices.contains(s) { c.headerReferenceSize = headers[s] }
        if let footers = footerReferenceSizes, footers.indices.contains(s) { c.footerReferenceSize = footers[s] }
        return c
    }
}

extension FlowLayout {
    /// Lays out with per-item and per-section metrics (`UICollectionViewDelegateFlowLayout`).
    ///
    /// `metrics.itemSizes`, when given, must hold one size per item (a shorter array
    /// leaves the rest at `configuration.itemSize`). Per-section values are O(sections);
    /// without item sizes each section stays uniform (arithmetic frames).
    public init(configuration: FlowLayoutConfiguration, viewportSize: Size,
                numberOfItemsInSections counts: [Int], metrics: FlowLayoutMetrics?) {
        var sizeForItem: ((CardIndexPath) -> Size)?
        if let sizes = metrics?.itemSizes {
            // Flat index of each section's first item.
            var starts: [Int] = []
            starts.reserveCapacity(counts.count)
            var total = 0
            for n in counts {
                starts.append(total)
                total = total.addingReportingOverflow(max(n, 0)).partialValue
            }
            let fallback = configuration.itemSize
            sizeForItem = { indexPath in
                let i = starts[indexPath.section] + indexPath.item
                return i < sizes.count ? sizes[i] : fallback
            }
        }
        self.init(configuration: configuration, viewportSize: viewportSize, numberOfItemsInSections: counts,
                  sizeForItem: sizeForItem, perItemLimit: FlowLayout.maximumItemsWithPerItemSizes,
                  sectionMetrics: metrics?.hasSectionValues == true ? metrics : nil)
    }
}
