import CardLayout
import Foundation
import Testing

/// AnimatedCollectionViewLayout's eight animators (KelvinJin, 1.1.0, f6d163d), against
/// the formulas of `Sources/AnimatedCollectionViewLayout/Animators/*.swift` written out
/// here. The demo's flow layout: cells of the collection view's size (SnapIn: W/2 × H/4,
/// a four-row grid), no insets or spacing; the flow layout shows the cells whose frame
/// meets the visible rect. `middleOffset` p = (center.x − contentOffset.x)/W − 0.5.
@Suite struct AnimatedCollectionViewLayoutFidelityTests {
    /// One full-page cell the flow layout shows at this offset, with its middleOffset.
    struct Page {
        var item: Int
        var center: Point
        var size: Size
        var minX: Double
        var p: Double
    }

    /// The full-page cells meeting the visible rect [o, o + W) (touching edges do not
    /// meet), in index order.
    static func pages(_ frame: CatalogueFrame) -> [Page] {
        let width = frame.viewport.width, height = frame.viewport.height, o = frame.offset
        return (0..<frame.numberOfItems).compactMap { item in
            let minX = Double(item) * width
            guard minX < o + width, minX + width > o else { return nil }
            let centerX = minX + width / 2
            return Page(item: item, center: Point(x: centerX, y: height / 2), size: frame.viewport,
                        minX: minX, p: (centerX - o) / width - 0.5)
        }
    }

    /// The offsets every full-page port is compared at: the start, between two pages,
    /// on a page, an odd spot, near the end and the end (20 pages: the last rests at 19·W).
    static let offsets: [Double] = [0, 150, 207, 414, 1000.5, 7866 - 100, 7866]

    static func clamp01(_ x: Double) -> Double { min(1, max(0, x)) }

    @Test func linearCard() throws {
        try CatalogueHarness.expectFaithful("animated-linear-card", offsets: Self.offsets) { frame in
            Self.linearCard(frame, minAlpha: 0.5, itemSpacing: 0.4, scaleRate: 0.7)
        }
    }

    /// LinearCardAttributesAnimator: s = scaleRate − 0.1|p|, translation(−W·itemSpacing·p)
    /// then scale(s), alpha 1 − |p| + minAlpha (UIKit draws it clamped to 1).
    static func linearCard(_ frame: CatalogueFrame, minAlpha: Double, itemSpacing: Double,
                           scaleRate: Double) -> [ExpectedCard] {
        pages(frame).map { page in
            let s = scaleRate - 0.1 * abs(page.p)
            let tx = -(frame.viewport.width * itemSpacing * page.p)
            let transform = Transform3D.translation(x: tx, y: 0, z: 0).concatenating(.scale(x: s, y: s, z: 1))
            return ExpectedCard(item: page.item, center: page.center, size: page.size, transform: transform,
                                alpha: clamp01(1 - abs(page.p) + minAlpha))
        }
    }

    /// The options act as the source's: a smaller scaleRate makes smaller cards, a smaller
    /// itemSpacing pulls them in less, minAlpha 0 lets the side cards fade.
    @Test func linearCardOptions() throws {
        let options: [String: ParamSetting] = ["scaleRate": 0.5, "itemSpacing": 0.2, "minAlpha": 0.0]
        try CatalogueHarness.expectFaithful("animated-linear-card", offsets: Self.offsets, params: options) { frame in
            Self.linearCard(frame, minAlpha: 0, itemSpacing: 0.2, scaleRate: 0.5)
        }
        // The centred card at rest: 0.5 of the page wide instead of 0.7.
        let (frame, _) = try CatalogueHarness.frame("animated-linear-card", offset: 414, params: options)
        let card = try #require(CatalogueHarness.drawn(frame).first)
        let corners = try #require(card.projectedQuad(contentOffset: frame.contentOffset)?.corners)
        let width = (corners.map(\.x).max() ?? 0) - (corners.map(\.x).min() ?? 0)
        #expect(abs(width - 0.5 * 414) < 1e-6)
    }

    /// ParallaxAttributesAnimator moves the clipped content view by −W·speed·p while
    /// |p| < 1; what shows is the cell's frame ∩ the moved content.
    @Test func parallax() throws {
        try CatalogueHarness.expectFaithful("animated-parallax", offsets: Self.offsets) { frame in
            Self.pages(frame).map { page in
                guard abs(page.p) < 1 else {
                    return ExpectedCard(item: page.item, center: page.center, size: page.size)
                }
                let tx = -(frame.viewport.width * 0.5 * page.p)
                let contentMin = page.minX + tx, contentMax = page.minX + page.size.width + tx
                let lo = max(contentMin, page.minX), hi = min(contentMax, page.minX + page.size.width)
                return ExpectedCard(item: page.item, center: Point(x: (lo + hi) / 2, y: page.center.y),
                                    size: Size(width: hi - lo, height: page.size.height))
            }
        }
    }

    /// ZoomInOutAttributesAnimator: −1 < p ≤ 0 scales by 0.2·p + 1.
    @Test func zoomInOut() throws {
        try CatalogueHarness.expectFaithful("animated-zoom-in-out", offsets: Self.offsets) { frame in
            Self.pages(frame).map { page in
                var card = ExpectedCard(item: page.item, center: page.center, size: page.size)
                if page.p <= 0, page.p > -1 {
                    let s = 0.2 * page.p + 1
                    card.transform = .scale(x: s, y: s, z: 1)
                }
                return card
            }
        }
    }

    /// RotateInOutAttributesAnimator: |p| < 1 turns by π/4·p about z, alpha 1 − |p| + 0,
    /// zIndex = row; otherwise identity, alpha 1, zIndex 0.
    @Test func rotateInOut() throws {
        try CatalogueHarness.expectFaithful("animated-rotate-in-out", offsets: Self.offsets) { frame in
            Self.pages(frame).map { page -> (Int, ExpectedCard) in
                var card = ExpectedCard(item: page.item, center: page.center, size: page.size)
                guard abs(page.p) < 1 else { return (0, card) }
                card.transform = .rotation(angle: Double.pi / 4 * page.p, x: 0, y: 0, z: 1)
                card.alpha = Self.clamp01(1 - abs(page.p))
                return (page.item, card)
            }
            .sorted { ($0.0, $0.1.item) < ($1.0, $1.1.item) }
            .map(\.1)
        }
    }

    /// CubeAttributesAnimator on the content view layer (= the whole cell): anchor point
    /// at the inner edge, transform translation(e) with m34 = −1/500, rotated by
    /// totalAngle·p about y. A layer draws q ↦ position + (q − anchor)·M; about the cell's
    /// centre that is a shift by (0.5 − anchor.x)·w first.
    static func cube(_ frame: CatalogueFrame, perspective: Double, totalAngle: Double) -> [ExpectedCard] {
        pages(frame).map { page in
            var card = ExpectedCard(item: page.item, center: page.center, size: page.size)
            guard abs(page.p) < 1 else { return card }
            let w = page.size.width
            let anchorX: Double = page.p > 0 ? 0 : 1
            let e = page.p > 0 ? -w / 2 : w / 2
            var layerTransform = Transform3D.translation(x: e, y: 0, z: 0)
            layerTransform.m34 = perspective
            layerTransform = Transform3D.rotation(angle: totalAngle * page.p, x: 0, y: 1, z: 0)
                .concatenating(layerTransform)
            card.transform = Transform3D.translation(x: (0.5 - anchorX) * w, y: 0, z: 0).concatenating(layerTransform)
            return card
        }
    }

    @Test func cube() throws {
        try CatalogueHarness.expectFaithful("animated-cube", offsets: Self.offsets) { frame in
            Self.cube(frame, perspective: -1.0 / 500, totalAngle: Double.pi / 2)
        }
    }

    /// A smaller totalAngle turns the faces less; a weaker perspective flattens them.
    @Test func cubeOptions() throws {
        try CatalogueHarness.expectFaithful("animated-cube", offsets: Self.offsets,
                                            params: ["totalAngle": 0.5, "perspective": -0.001]) { frame in
            Self.cube(frame, perspective: -0.001, totalAngle: 0.5)
        }
    }

    /// CrossFadeAttributesAnimator: frame.origin = contentOffset, alpha = 1 − |p|.
    @Test func crossFade() throws {
        try CatalogueHarness.expectFaithful("animated-cross-fade", offsets: Self.offsets) { frame in
            Self.pages(frame).map { page in
                ExpectedCard(item: page.item,
                             center: Point(x: frame.offset + page.size.width / 2, y: page.size.height / 2),
                             size: page.size, alpha: 1 - abs(page.p))
            }
        }
    }

    /// PageAttributesAnimator: scale(0.2·min(p, 0) + 1) then translation(p < 0 ?
    /// contentOffset.x − origin.x : 0), zIndex = row.
    @Test func page() throws {
        try CatalogueHarness.expectFaithful("animated-page", offsets: Self.offsets) { frame in
            Self.pages(frame).map { page in
                let s = 0.2 * min(page.p, 0) + 1
                let tx = page.p < 0 ? frame.offset - page.minX : 0
                return ExpectedCard(item: page.item, center: page.center, size: page.size,
                                    transform: Transform3D.scale(x: s, y: s, z: 1)
                                        .concatenating(.translation(x: tx, y: 0, z: 0)))
            }
        }
    }

    /// SnapInAttributesAnimator on the demo's W/2 × H/4 grid (column-major, four rows):
    /// e = (minX − o − W)/w; −1 < e < 0: translation((1 − |e|³)·w/4) then scale(0.8 − 0.2e),
    /// alpha |e|.
    @Test func snapIn() throws {
        // 20 items = 5 columns of 207 points: content 1035, the last offset 621.
        try CatalogueHarness.expectFaithful("animated-snap-in", offsets: [0, 100, 207, 300.25, 414, 500, 621]) { frame in
            let width = frame.viewport.width, w = width / 2, h = frame.viewport.height / 4
            return (0..<frame.numberOfItems).compactMap { item in
                let column = Double(item / 4), row = Double(item % 4)
                let minX = column * w
                guard minX < frame.offset + width, minX + w > frame.offset else { return nil }
                var card = ExpectedCard(item: item, center: Point(x: minX + w / 2, y: row * h + h / 2),
                                        size: Size(width: w, height: h))
                let e = (minX - frame.offset - width) / w
                if e < 0, e > -1 {
                    let tx = (1 - pow(abs(e), 3)) * w / 4
                    let s = 0.8 - e * 0.2
                    card.transform = Transform3D.translation(x: tx, y: 0, z: 0).concatenating(.scale(x: s, y: s, z: 1))
                    card.alpha = abs(e)
                }
                return card
            }
        }
    }
}
