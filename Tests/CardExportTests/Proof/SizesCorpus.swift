/// Scripts whose layout the delegate shapes, which no shipped script does: per-item sizes
/// (`sizeForItem`), per-section insets (`insetForSection`) and header sizes over two
/// sections, so that the exported `UICollectionViewDelegateFlowLayout` methods, called by
/// the app's delegate, lay out every item where the engine does — in both directions.
enum SizesCorpus {
    /// Three widths and two heights of card, insets that grow with the section, headers,
    /// and a transform that scales and fades the cards with their distance from the centre.
    static let sized = """
    -- Per-item sizes and per-section insets over two sections.
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.minimumLineSpacing = 12
      layout.minimumInteritemSpacing = 8
    end

    function sizeForItem(indexPath, layout)
      return CGSizeMake(120 + 30 * (indexPath.item % 3), 200 + 20 * indexPath.section)
    end

    function insetForSection(section, layout)
      return UIEdgeInsetsMake(40 + 10 * section, 30, 40, 20 + 15 * section)
    end

    function referenceSizeForHeader(section, layout)
      return CGSizeMake(60 + 20 * section, 736)
    end

    function transform(attributes, layout)
      local bounds = layout.collectionView.bounds
      local d = (attributes.center.x - bounds.midX) / bounds.width
      local s = 1 - math.min(math.abs(d), 1) * 0.3
      attributes.transform3D = CATransform3DMakeScale(s, s, 1)
      attributes.alpha = 1 - math.min(math.abs(d), 1) * 0.4
      attributes.zIndex = -math.floor(math.abs(d) * 10)
    end
    """

    /// The same cards scrolling vertically, with their own shadow and colour.
    static let vertical = """
    -- Per-item sizes scrolling down, with an appearance.
    function prepare(layout)
      layout.scrollDirection = "vertical"
      layout.minimumLineSpacing = 10
      layout.sectionInset = UIEdgeInsetsMake(20, 16, 20, 16)
    end

    function sizeForItem(indexPath, layout)
      return CGSizeMake(180 + 40 * (indexPath.item % 2), 90 + 25 * (indexPath.item % 4))
    end

    function transform(attributes, layout)
      local bounds = layout.collectionView.bounds
      local d = math.abs(attributes.center.y - bounds.midY) / bounds.height
      attributes.alpha = 1 - math.min(d, 1) * 0.5
      attributes.shadowOpacity = 0.2 + 0.3 * math.min(d, 1)
      attributes.shadowOffset = CGSizeMake(0, 2 + 4 * d)
      attributes.backgroundColor = "#3366cc"
      attributes.isDoubleSided = false
    end
    """

    static let cases: [(name: String, fileName: String, className: String, source: String, items: [Int])] = [
        ("per-item sizes and section insets", "sizes-sections.lua", "SizesSectionsLayout", sized, [6, 9]),
        ("per-item sizes, vertical, with an appearance", "sizes-vertical.lua", "SizesVerticalLayout", vertical, [14]),
    ]
}
