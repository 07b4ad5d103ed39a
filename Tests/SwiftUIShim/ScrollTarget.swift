// Scroll targets (iOS 17 SDK): `protocol ScrollTargetBehavior { func updateTarget(_ target:
// inout ScrollTarget, context: TargetContext); typealias TargetContext =
// ScrollTargetBehaviorContext }`, `struct ScrollTarget { var rect: CGRect; var anchor:
// UnitPoint? }`, `ScrollTargetBehaviorContext`'s `originalTarget`, `velocity: CGVector`,
// `contentSize`, `containerSize`, `axes` (all get-only), and `PagingScrollTargetBehavior`.

public protocol ScrollTargetBehavior {
    func updateTarget(_ target: inout ScrollTarget, context: Self.TargetContext)
    typealias TargetContext = ScrollTargetBehaviorContext
}

public struct ScrollTarget {
    public var rect: CGRect
    public var anchor: UnitPoint?
}

@available(*, unavailable)
extension ScrollTarget: Sendable {}

public struct ScrollTargetBehaviorContext {
    public let originalTarget: ScrollTarget
    public let velocity: CGVector
    public let contentSize: CGSize
    public let containerSize: CGSize
    public let axes: Axis.Set
}

@available(*, unavailable)
extension ScrollTargetBehaviorContext: Sendable {}

/// `public struct PagingScrollTargetBehavior : ScrollTargetBehavior` and `.paging`. Here a
/// page is the container's size, rounded to the nearest page (the driver does not prove
/// the system's paging rule: it proves the script's targets).
public struct PagingScrollTargetBehavior: ScrollTargetBehavior, Sendable {
    public init() {}
    public func updateTarget(_ target: inout ScrollTarget, context: TargetContext) {
        let w = max(context.containerSize.width, 1), h = max(context.containerSize.height, 1)
        target.rect.origin = CGPoint(x: (target.rect.minX / w).rounded() * w, y: (target.rect.minY / h).rounded() * h)
    }
}

extension ScrollTargetBehavior where Self == PagingScrollTargetBehavior {
    public static var paging: PagingScrollTargetBehavior { PagingScrollTargetBehavior() }
}
