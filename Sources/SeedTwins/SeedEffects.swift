import CardLayout
import Foundation

/// Native Swift twins of the three seed effects (`scripts/lol.lua`, `card-scale.lua`,
/// `photo-browser.lua`), written straight from the seed articles. Tests compare the Lua
/// ports against them, and the benchmark measures the Lua effect against them: a module
/// of their own, used by those two only and kept out of the CardLayout library.
public enum SeedEffects {}

/// Seed 000, the League of Legends skin picker: cards turn about y with distance from
/// the centre, up to 35° at 200 points, perspective m34 = +1/600 (reversed, as the seed
/// has it); nearest-centre snapping.
public final class LeagueOfLegendsEffect: Effect {
    public static let activeDistance = 200.0
    public static let rotation = 35.0 * Double.pi / 180.0

    public init() {}

    public func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws {
        configuration.itemSize = Size(width: 300 * viewportSize.width / 414, height: 500 * viewportSize.height / 736)
        configuration.scrollDirection = .horizontal
        configuration.sectionInset = CardEdgeInsets(top: 200, left: 50, bottom: 200, right: 50)
        configuration.minimumLineSpacing = 0
    }

    public func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding,
                          context: ScrollContext) throws {
        for i in attributes.indices {
            attributes[i].transform3D = Self.transform3D(distance: context.bounds.midX - attributes[i].center.x)
            attributes[i].zIndex = 1
        }
    }

    /// The seed's matrix for a card `distance` points left of the centre.
    public static func transform3D(distance: Double) -> Transform3D {
        var t = Transform3D.identity
        t.m34 = 1.0 / 600
        if abs(distance) < activeDistance {
            return t.rotated(by: -rotation * (distance / activeDistance), x: 0, y: 1, z: 0)
        }
        return t.rotated(by: distance > 0 ? -rotation : rotation, x: 0, y: 1, z: 0)
    }

    public func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                                    context: ScrollContext) throws -> Point {
        let width = context.bounds.width
        let horizontalCenter = proposed.x + width / 2
        let targetRect = Rect(x: proposed.x, y: 0, width: width, height: context.bounds.height)
        var adjustment = Double(Float.greatestFiniteMagnitude)  // MAXFLOAT
        for item in layout.baseLayoutAttributes(in: targetRect)
        where abs(item.center.x - horizontalCenter) < abs(adjustment) {
            adjustment = item.center.x - horizontalCenter
        }
        return Point(x: proposed.x + adjustment, y: proposed.y)
    }
}

/// Seed 002, the card layout: cards 0.7 W × 0.75 H, scaled by |cos(distance / W · π/4)|;
/// no snapping.
public final class CardScaleEffect: Effect {
    public init() {}

    public func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws {
        let cellWidth = viewportSize.width * 0.7
        let margin = (viewportSize.width - cellWidth) / 2
        configuration.scrollDirection = .horizontal
        configuration.sectionInset = CardEdgeInsets(top: 0, left: margin, bottom: 0, right: margin)
        configuration.minimumLineSpacing = (viewportSize.width - cellWidth) / 7
        configuration.itemSize = Size(width: cellWidth, height: viewportSize.height * 0.75)
    }

    public func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding,
                          context: ScrollContext) throws {
        let centerX = context.contentOffset.x + context.bounds.width / 2
        for i in attributes.indices {
            let scale = Self.scale(distance: abs(attributes[i].center.x - centerX), width: context.bounds.width)
            attributes[i].setTransform(.scale(x: scale, y: scale))
        }
    }

    /// The seed's scale for a card `distance` points from the centre.
    public static func scale(distance: Double, width: Double) -> Double {
        abs(cos(distance / width * (Double.pi / 4)))
    }

    public func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                                    context: ScrollContext) throws -> Point {
        proposed
    }
}

/// Seed 004, the photo browser: scale = 1 − distance / (W/2) · 0.3; snapping to the
/// nearest centre around super's target, clamped at 0. The item size is the port's
/// choice (the seed sets none): squares 0.6 W wide in one row (top and bottom insets
/// leave room for one per column), insets letting the ends reach the centre, 20 points
/// apart.
public final class PhotoBrowserEffect: Effect {
    public init() {}

    public func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws {
        let side = viewportSize.width * 0.6
        let inset = (viewportSize.width - side) / 2
        let vertical = max(0, (viewportSize.height - side) / 2)
        configuration.scrollDirection = .horizontal
        configuration.itemSize = Size(width: side, height: side)
        configuration.sectionInset = CardEdgeInsets(top: vertical, left: inset, bottom: vertical, right: inset)
        configuration.minimumLineSpacing = 20
    }

    public func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding,
                          context: ScrollContext) throws {
        for i in attributes.indices {
            let offset = abs(attributes[i].center.x - context.contentOffset.x - context.bounds.width * 0.5)
            let scale = Self.scale(distance: offset, width: context.bounds.width)
            attributes[i].setTransform(.scale(x: scale, y: scale))
        }
    }

    /// The seed's scale for a card `distance` points from the centre.
    public static func scale(distance: Double, width: Double) -> Double {
        1 - distance / (width * 0.5) * 0.3
    }

    public func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                                    context: ScrollContext) throws -> Point {
        var target = proposed  // super's answer
        let width = context.bounds.width
        let rect = Rect(x: target.x, y: 0, width: width, height: context.bounds.height)
        var minOffset = Double(Float.greatestFiniteMagnitude)
        for item in layout.baseLayoutAttributes(in: rect) {
            let offset = item.center.x - target.x - width * 0.5
            if abs(offset) < abs(minOffset) { minOffset = offset }
        }
        target.x += minOffset
        if target.x < 0 { target.x = 0 }
        return target
    }
}
