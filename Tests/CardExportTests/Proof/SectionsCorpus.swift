/// Scripts with headers and footers (`referenceSizeForHeader`, `referenceSizeForFooter`),
/// which no shipped script has: the engine turns cells only, so in the exported layout
/// every header and footer must keep super's attributes (its frame, the identity, alpha 1)
/// while the cells beside it turn and fade. Proved like the shipped scripts, on both of
/// the export's query paths: super's attributes transformed in one pass, and the script's
/// own element query (with appearance, so the attributes subclass is the one in use).
enum SectionsCorpus {
    /// Cards that shrink, turn and fade away from the centre, between a header and a footer
    /// (the fade through `CGPointApplyAffineTransform`).
    static let turning = """
    -- Headers and footers beside turning cards.
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(200, 300)
      layout.minimumLineSpacing = 20
      layout.sectionInset = UIEdgeInsetsMake(0, 40, 0, 40)
    end

    function referenceSizeForHeader(section, layout)
      return CGSizeMake(120, 736)
    end

    function referenceSizeForFooter(section, layout)
      return CGSizeMake(90, 736)
    end

    function transform(attributes, layout)
      local bounds = layout.collectionView.bounds
      local distance = (attributes.center.x - bounds.midX) / bounds.width
      local t = CATransform3DIdentity
      t.m34 = -1 / 500
      t = CATransform3DRotate(t, distance * 0.8, 0, 1, 0)
      attributes.transform3D = CATransform3DScale(t, 1 - math.abs(distance) * 0.2, 1 - math.abs(distance) * 0.2, 1)
      local stretched = CGPointApplyAffineTransform(CGPointMake(distance, 1), CGAffineTransformMake(2, 0.5, 0.25, 1, 0.1, 0))
      attributes.alpha = 1 - math.min(math.abs(stretched.x) / 2 + math.abs(stretched.y - 1) / 10, 1) * 0.5
      attributes.zIndex = math.tointeger(10) - math.floor(math.abs(distance) * 5 + 0.5)
    end
    """

    /// The same with the script's own element query and a corner radius.
    static let ownQuery = """
    -- Headers and footers beside cards from the script's own element query.
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(180, 260)
      layout.minimumLineSpacing = 10
    end

    function referenceSizeForHeader(section, layout)
      return CGSizeMake(100, 736)
    end

    function referenceSizeForFooter(section, layout)
      return CGSizeMake(100, 736)
    end

    function layoutAttributesForElements(rect, layout)
      return layout:layoutAttributesForElements(rect)
    end

    function transform(attributes, layout)
      local distance = attributes.center.x - layout.collectionView.bounds.midX
      attributes.transform = CGAffineTransformMakeScale(1 - math.min(math.abs(distance) / 1000, 0.5), 1)
      attributes.alpha = 0.75
      attributes.cornerRadius = 12
    end
    """

    static let cases: [(name: String, fileName: String, className: String, source: String)] = [
        ("headers and footers", "sections-turning.lua", "SectionsTurningLayout", turning),
        ("headers and footers (own query)", "sections-own-query.lua", "SectionsOwnQueryLayout", ownQuery),
    ]
}
