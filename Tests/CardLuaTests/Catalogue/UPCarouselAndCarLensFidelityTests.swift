import CardLayout
import Foundation
import Testing

/// UPCarouselFlowLayout and CarLensCollectionViewLayout, against their sources' formulas
/// written out here (UPCarouselFlowLayout.swift; CarLensCollectionViewLayout.swift and
/// CarLensCollectionViewCell.swift).
@Suite struct UPCarouselAndCarLensFidelityTests {
    static let width = 414.0, height = 736.0

    /// UPCarousel with a 200 × 200 item: insets centre the ends (107 left), line spacing
    /// from the spacing mode; ratio = (D − min(|W/2 − (cx − offset)|, D))/D, D = w + spacing;
    /// alpha and scale run from the side values to 1, zIndex = Int(alpha · 10), centre.y
    /// moves by (1 − ratio) · shift. Drawn by zIndex, then index.
    static func upCarousel(_ frame: CatalogueFrame, sideScale: Double = 0.6, sideAlpha: Double = 0.6,
                           shift: Double = 0, overlap: Double? = nil) -> [ExpectedCard] {
        let w = 200.0
        let xInset = (width - w) / 2
        let scaledItemOffset = (w - w * sideScale) / 2
        let lineSpacing = overlap.map { xInset - ($0 + scaledItemOffset) } ?? 40 - scaledItemOffset
        let maxDistance = w + lineSpacing
        var cards: [(z: Int, card: ExpectedCard)] = []
        for item in 0..<frame.numberOfItems {
            let x = xInset + w / 2 + Double(item) * (w + lineSpacing)
            guard x + w / 2 > frame.offset, x - w / 2 < frame.offset + width else { continue }
            let distance = min(abs(width / 2 - (x - frame.offset)), maxDistance)
            let ratio = (maxDistance - distance) / maxDistance
            let alpha = ratio * (1 - sideAlpha) + sideAlpha
            let scale = ratio * (1 - sideScale) + sideScale
            let card = ExpectedCard(item: item, center: Point(x: x, y: height / 2 + (1 - ratio) * shift),
                                    size: Size(width: w, height: w), transform: .scale(x: scale, y: scale, z: 1), alpha: alpha)
            cards.append((Int(alpha * 10), card))
        }
        return cards.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }.map(\.element.card)
    }

    @Test func upCarousel() throws {
        try CatalogueHarness.expectFaithful("upcarousel", offsets: [0, 100, 200, 333.25, 3700]) { Self.upCarousel($0) }
    }

    @Test func upCarouselTheDemosOverlapAndAShift() throws {
        // .overlap(visibleOffset: 30) spaces the items by 107 − (30 + 40) = 37, the demo's
        // sideItemAlpha 0.4 fades the sides more, and sideItemShift lowers them.
        let params: [String: ParamSetting] = ["spacingMode": 1, "visibleOffset": 30, "sideItemAlpha": 0.4, "sideItemShift": 20]
        try CatalogueHarness.expectFaithful("upcarousel", offsets: [0, 100, 237, 333.25, 4000], params: params) {
            Self.upCarousel($0, sideAlpha: 0.4, shift: 20, overlap: 30)
        }
        // On item 2, 30 points of each shrunk neighbour show at the screen's edges.
        let (frame, configuration) = try CatalogueHarness.frame("upcarousel", offset: 474, params: params)
        #expect(configuration.minimumLineSpacing == 37)
        #expect(frame.items.map(\.indexPath.item) == [1, 2, 3])
        let left = try #require(frame.items.first?.projectedQuad(contentOffset: frame.contentOffset)?.corners)
        let right = try #require(frame.items.last?.projectedQuad(contentOffset: frame.contentOffset)?.corners)
        #expect(abs((left.map(\.x).max() ?? 0) - 30) < 1e-9)
        #expect(abs((right.map(\.x).min() ?? 0) - (Self.width - 30)) < 1e-9)
    }

    /// CarLens: (W − 60) × H cells 20 apart after the 30-point inset (the source's
    /// contentInset); progress = clamp((D − |min(W/2 − (cx − offset), D)|)/D, 0, 1),
    /// D = w + spacing; drawn: the cell's card view (the cell below its 200-point top
    /// view), moved up by topViewHeight − progress · topViewHeight.
    static func carLens(_ frame: CatalogueFrame, spacing: Double = 20, top: Double = 200) -> [ExpectedCard] {
        let w = width - 60
        let maxDistance = w + spacing
        return (0..<frame.numberOfItems).compactMap { item in
            let x = 30 + w / 2 + Double(item) * (w + spacing)
            guard x + w / 2 > frame.offset, x - w / 2 < frame.offset + width else { return nil }
            let d = min(width / 2 - (x - frame.offset), maxDistance)
            let progress = min(1, max(0, (maxDistance - abs(d)) / maxDistance))
            return ExpectedCard(item: item, center: Point(x: x, y: top + (height - top) / 2), size: Size(width: w, height: height - top),
                                transform: .translation(x: 0, y: -(top - progress * top), z: 0))
        }
    }

    @Test func carLens() throws {
        try CatalogueHarness.expectFaithful("carlens", offsets: [0, 187, 374, 500, 7000]) { Self.carLens($0) }
    }

    @Test func carLensSpacingAndTopView() throws {
        try CatalogueHarness.expectFaithful("carlens", offsets: [0, 197, 394, 500, 7000],
                                            params: ["minimumSpacing": 40, "topViewHeight": 100]) {
            Self.carLens($0, spacing: 40, top: 100)
        }
    }

    /// UPCarousel snaps as its source does: to the card nearest the proposal's centre among
    /// those on screen at the release (layoutAttributesForElements(in: collectionView.bounds)),
    /// so a fast fling lands at most on a card that was visible.
    @Test func upCarouselSnapsAmongTheCardsOnScreenAsTheSourceDoes() throws {
        let effect = try CatalogueHarness.effect("upcarousel")
        let runner = ScenarioRunner(effect: effect, scriptName: "upcarousel.lua")
        let timeline = try runner.run(Scenario(name: "fling", steps: [.jump(offset: 0), .fling(velocity: 8)]))
        let snap = try #require(timeline.snaps.first)
        // Fast deceleration (0.99): the proposal is (8 − 0.01)·0.99/0.01 = 791.01 ahead.
        #expect(abs(snap.proposedContentOffset.x - 7.99 * 0.99 / 0.01) < 1e-9)
        // On screen at 0 (0…414): items 0 and 1, centred at 207 and 407 (pitch 200). The
        // nearer to 791.01 + 207 is item 1: floor(407 − 207) = 200.
        #expect(snap.targetContentOffset.x == 200)
    }

    /// With snapInProposedRect (UPCarousel's declared improvement, off by default) and in
    /// CarLens, the snap looks in the proposed rect: the card nearest where the fling stops.
    @Test func snapsLookWhereTheFlingStops() throws {
        for (name, pitch, first) in [("upcarousel", 200.0, 207.0), ("carlens", 374.0, 207.0)] {
            let effect = try CatalogueHarness.effect(name, params: name == "upcarousel" ? ["snapInProposedRect": 1] : [:])
            let runner = ScenarioRunner(effect: effect, scriptName: "\(name).lua")
            let timeline = try runner.run(Scenario(name: "fling", steps: [.jump(offset: 0), .fling(velocity: 20)]))
            let snap = try #require(timeline.snaps.first)
            let proposed = snap.proposedContentOffset.x
            // The nearest centre to proposed + W/2, by closed form, far beyond the first screen.
            let nearest = ((proposed + Self.width / 2 - first) / pitch).rounded()
            #expect(proposed > 1000, "\(name): the fling goes far (\(proposed))")
            #expect(snap.targetContentOffset.x == first + nearest * pitch - Self.width / 2, "\(name): \(snap.targetContentOffset.x)")
        }
    }
}
