// Contract v2: the layout's own element query (Effect.layoutAttributesForElements) and the
// single-item look-up a script's `layout:layoutAttributesForItem` needs.

extension Effect {
    /// Not overridden: the frame shows the base attributes meeting the visible rect.
    public func layoutAttributesForElements(in rect: Rect, layout: some BaseLayoutProviding,
                                            context: ScrollContext) throws -> [LayoutAttributes]? {
        nil
    }
}

/// A layout that can answer for one item, on screen or not (`layoutAttributesForItem(at:)`),
/// and say how many there are: what a script's `layout:layoutAttributesForItem(indexPath)`
/// asks. ``FlowLayout`` conforms; a host's ``BaseLayoutProviding`` layout may conform too
/// (without it, the script's single-item query is an error).
///
/// Called synchronously, on the effect's thread, while a callback runs: it must not call
/// back into the effect.
public protocol ItemLayoutProviding {
    /// The item's base attributes, or nil when the layout has no such item.
    func baseLayoutAttributesForItem(at indexPath: CardIndexPath) -> LayoutAttributes?
    /// The number of sections.
    var numberOfSections: Int { get }
    /// The number of items in `section` (0 outside the valid range).
    func numberOfItems(inSection section: Int) -> Int
}

extension FlowLayout: ItemLayoutProviding {
    public func baseLayoutAttributesForItem(at indexPath: CardIndexPath) -> LayoutAttributes? {
        layoutAttributesForItem(at: indexPath)
    }
}

extension SimulatedScrollView {
    /// The elements an effect's query returned, bounded like a base frame and ordered by
    /// index path (the order `transform` is promised), ties kept as returned.
    static func ordered(_ elements: [LayoutAttributes], scenarioName: String, time: Double,
                        offset: Double) throws -> [LayoutAttributes] {
        guard elements.count <= Scenario.maxItemsPerFrame else {
            throw ScenarioError.tooManyItemsInFrame(scenario: scenarioName, time: time,
                                                    offset: offset, limit: Scenario.maxItemsPerFrame)
        }
        func before(_ a: LayoutAttributes, _ b: LayoutAttributes) -> Bool {
            (a.indexPath.section, a.indexPath.item) < (b.indexPath.section, b.indexPath.item)
        }
        if zip(elements, elements.dropFirst()).allSatisfy({ !before($1, $0) }) { return elements }
        return elements.enumerated().sorted { x, y in
            before(x.element, y.element) || (!before(y.element, x.element) && x.offset < y.offset)
        }.map(\.element)
    }
}
