// UIKit's additions to IndexPath (NSIndexPath+UIKitAdditions: `init(item:section:)`,
// `item`, `section`; in the SDK's Swift overlay also `init(row:section:)` and `row`, left
// out: the emitter does not use them).
#if !canImport(Darwin)
extension IndexPath {
    /// An index path for an item of a collection view section.
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }

    /// The item within its section (the second index).
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The section (the first index).
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }
}
#endif
