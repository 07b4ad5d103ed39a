// `VisualEffect` and the effects the export applies: signatures from the iOS 17 SDK
// (`transformEffect(_ transform: ProjectionTransform) -> some VisualEffect`,
// `opacity(_ opacity: Double)`, `blur(radius: CGFloat, opaque: Bool = false)`), and
// `ProjectionTransform` with its init from a `CATransform3D`.

/// `public protocol VisualEffect : Sendable, Animatable` (Animatable left out here).
public protocol VisualEffect: Sendable {}

/// One effect as the driver reads it back.
@_spi(SwiftUIShimDriver) public enum ShimEffectStep: Sendable {
    case projection(ProjectionTransform)
    case opacity(Double)
    case blur(CGFloat)
}

/// Effects that list their steps, first applied first.
protocol ShimEffectSteps {
    var steps: [ShimEffectStep] { get }
}

/// `public struct EmptyVisualEffect : VisualEffect { public init() }`.
public struct EmptyVisualEffect: VisualEffect, ShimEffectSteps {
    public init() {}
    var steps: [ShimEffectStep] { [] }
}

/// What every effect method returns: the steps so far and the new one.
struct ShimEffect: VisualEffect, ShimEffectSteps {
    let steps: [ShimEffectStep]
}

extension VisualEffect {
    private var stepsSoFar: [ShimEffectStep] { (self as? ShimEffectSteps)?.steps ?? [] }

    /// `func transformEffect(_ transform: ProjectionTransform) -> some VisualEffect`.
    public func transformEffect(_ transform: ProjectionTransform) -> some VisualEffect {
        ShimEffect(steps: stepsSoFar + [.projection(transform)])
    }

    /// `func opacity(_ opacity: Double) -> some VisualEffect`.
    public func opacity(_ opacity: Double) -> some VisualEffect {
        ShimEffect(steps: stepsSoFar + [.opacity(opacity)])
    }

    /// `func blur(radius: CGFloat, opaque: Bool = false) -> some VisualEffect`.
    public func blur(radius: CGFloat, opaque: Bool = false) -> some VisualEffect {
        ShimEffect(steps: stepsSoFar + [.blur(radius)])
    }
}

/// `@frozen public struct ProjectionTransform`: a 3×3 matrix acting on row vectors
/// (x, y, 1), `m13`, `m23` the projective column, `m31`, `m32` the translation.
public struct ProjectionTransform: Equatable, Sendable {
    public var m11: CGFloat = 1, m12: CGFloat = 0, m13: CGFloat = 0
    public var m21: CGFloat = 0, m22: CGFloat = 1, m23: CGFloat = 0
    public var m31: CGFloat = 0, m32: CGFloat = 0, m33: CGFloat = 1

    public init() {}

    /// `init(_ m: CATransform3D)`: the rows and columns that act on the z = 0 plane
    /// (m11 m12 m14 / m21 m22 m24 / m41 m42 m44), as the SDK's inlinable body takes them.
    public init(_ m: CATransform3D) {
        m11 = m.m11; m12 = m.m12; m13 = m.m14
        m21 = m.m21; m22 = m.m22; m23 = m.m24
        m31 = m.m41; m32 = m.m42; m33 = m.m44
    }
}
