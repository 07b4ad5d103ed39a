// UICollectionView's supplementary-view registration and reuse (cells: UICollectionView.swift).
// Signatures from the iOS 17 SDK (UIKit/UICollectionView.h as Swift imports it): `open func
// register(_ viewClass: AnyClass?, forSupplementaryViewOfKind elementKind: String,
// withReuseIdentifier identifier: String)`, `open func dequeueReusableSupplementaryView(ofKind
// elementKind: String, withReuseIdentifier identifier: String, for indexPath: IndexPath) ->
// UICollectionReusableView`. Declared in an extension: apps call them, and do not override them.

/// The classes registered for supplementary views, per collection view, by kind and identifier.
@MainActor private var registeredViewClasses: [ObjectIdentifier: [String: AnyClass]] = [:]

extension UICollectionView {
    /// Registers the class of the supplementary views of a kind (headers, footers).
    public func register(
        _ viewClass: AnyClass?, forSupplementaryViewOfKind elementKind: String, withReuseIdentifier identifier: String
    ) {
        registeredViewClasses[ObjectIdentifier(self), default: [:]][elementKind + "/" + identifier] = viewClass
    }

    /// UIKit makes a view of the registered class (through the Objective-C runtime) or
    /// reuses one; the test-only UIKit asks no data source for views, and Swift on Linux
    /// cannot make an instance from a metatype without a `required` initializer: it traps.
    public func dequeueReusableSupplementaryView(
        ofKind elementKind: String, withReuseIdentifier identifier: String, for indexPath: IndexPath
    ) -> UICollectionReusableView {
        let registered = registeredViewClasses[ObjectIdentifier(self)]?[elementKind + "/" + identifier] != nil
        fatalError("dequeueReusableSupplementaryView(\(elementKind), \(identifier)): "
            + (registered ? "the test-only UIKit makes no views" : "not registered"))
    }
}
