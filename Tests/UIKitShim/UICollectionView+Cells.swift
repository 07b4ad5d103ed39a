// UICollectionView's cell registration and reuse. Signatures from the iOS 17 SDK
// (UIKit/UICollectionView.h as Swift imports it): `open func register(_ cellClass: AnyClass?,
// forCellWithReuseIdentifier identifier: String)`, `open func dequeueReusableCell(
// withReuseIdentifier identifier: String, for indexPath: IndexPath) -> UICollectionViewCell`,
// `open func register(_ viewClass: AnyClass?, forSupplementaryViewOfKind elementKind: String,
// withReuseIdentifier identifier: String)`, `open func dequeueReusableSupplementaryView(ofKind
// elementKind: String, withReuseIdentifier identifier: String, for indexPath: IndexPath) ->
// UICollectionReusableView`.
// Declared in an extension (UICollectionView.swift keeps the layout's side): they are not
// overridden by apps, so `public` is what code that calls them sees.

/// The classes registered, per collection view, by reuse identifier.
@MainActor private var registeredCellClasses: [ObjectIdentifier: [String: AnyClass]] = [:]

extension UICollectionView {
    /// Registers the class `dequeueReusableCell(withReuseIdentifier:for:)` makes; nil
    /// unregisters the identifier.
    public func register(_ cellClass: AnyClass?, forCellWithReuseIdentifier identifier: String) {
        registeredCellClasses[ObjectIdentifier(self), default: [:]][identifier] = cellClass
    }

    /// UIKit makes a cell of the registered class (through the Objective-C runtime, with
    /// `initWithFrame:`) or reuses one. Swift on Linux cannot make an instance from a
    /// metatype with a non-`required` initializer, and no test dequeues a cell (the app
    /// sources are type-checked, not run): here it traps, as UIKit raises for an
    /// identifier never registered.
    public func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath)
        -> UICollectionViewCell
    {
        let registered = registeredCellClasses[ObjectIdentifier(self)]?[identifier] != nil
        fatalError("dequeueReusableCell(\(identifier)): \(registered ? "the test-only UIKit makes no cells" : "not registered")")
    }
}

extension UICollectionView {
    /// Registers the class of the supplementary views of a kind (headers, footers).
    public func register(
        _ viewClass: AnyClass?, forSupplementaryViewOfKind elementKind: String, withReuseIdentifier identifier: String
    ) {
        registeredCellClasses[ObjectIdentifier(self), default: [:]][elementKind + "/" + identifier] = viewClass
    }

    /// Traps, as ``dequeueReusableCell(withReuseIdentifier:for:)`` does.
    public func dequeueReusableSupplementaryView(
        ofKind elementKind: String, withReuseIdentifier identifier: String, for indexPath: IndexPath
    ) -> UICollectionReusableView {
        fatalError("dequeueReusableSupplementaryView(\(elementKind), \(identifier)): the test-only UIKit makes no views")
    }
}
