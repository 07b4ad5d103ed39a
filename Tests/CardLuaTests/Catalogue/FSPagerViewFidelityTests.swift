import CardLayout
import Foundation
import Testing

/// FSPagerView's nine transformers (WenchaoD, 0.8.3, f90ab7d), against
/// `Sources/FSPageViewLayout.swift` and `Sources/FSPageViewTransformer.swift` written out
/// here: FSPagerViewLayout's frames (leading spacing L = (W − w)/2, item i at
/// L + i·pitch, pitch = w + interitemSpacing, y = (H − h)/2), its element query (from
/// max(Int((minX − L)/pitch), 0) while the origin ≤ min(maxX, contentWidth − w − L)), its
/// base zIndex (count − Int(position)), then the transformer. Item sizes are the
/// example app's (TransformerExampleViewController) with the viewport as the pager.
@Suite struct FSPagerViewFidelityTests {
    /// One item FSPagerViewLayout returns, before the transformer.
    struct Slot {
        var item: Int
        var center: Point
        var size: Size
        var position: Double
        var pitch: Double
        var zIndex: Int
    }

    /// FSPagerViewLayout.layoutAttributesForElements(in: the visible rect).
    static func slots(_ frame: CatalogueFrame, itemSize: Size, spacing: Double) -> [Slot] {
        let width = frame.viewport.width, height = frame.viewport.height, n = frame.numberOfItems
        let w = itemSize.width, pitch = w + spacing
        let leading = (width - w) / 2
        let contentWidth = 2 * leading + Double(n) * w + Double(n - 1) * spacing
        let minX = max(frame.offset, 0), maxX = min(frame.offset + width, contentWidth)
        guard pitch > 0, maxX > minX else { return [] }
        let first = max(Int((minX - leading) / pitch), 0)
        let maxPosition = min(maxX, contentWidth - w - leading)
        let midX = frame.offset + width / 2
        var slots: [Slot] = []
        var item = first
        while item < n {
            let origin = leading + Double(item) * pitch
            guard origin - maxPosition <= max(100 * Double.ulpOfOne * abs(origin + maxPosition),
                                              Double.leastNonzeroMagnitude) else { break }
            let centerX = origin + w / 2
            let position = (centerX - midX) / pitch
            slots.append(Slot(item: item, center: Point(x: centerX, y: height / 2), size: itemSize,
                              position: position, pitch: pitch, zIndex: n - Int(position)))
            item += 1
        }
        return slots
    }

    /// The cards back to front: zIndex ascending, ties by item.
    static func ordered(_ cards: [(Int, ExpectedCard)]) -> [ExpectedCard] {
        cards.sorted { ($0.0, $0.1.item) < ($1.0, $1.1.item) }.map(\.1)
    }

    /// Offsets in pitches: the start, between two items, on an item, an odd spot, near
    /// the end and the end (20 items: the last rests at 19 pitches).
    static func offsets(pitch: Double) -> [Double] {
        [0, 0.5 * pitch, pitch, 2.3 * pitch, 17.6 * pitch, 19 * pitch]
    }

    static let viewport = Size(width: 414, height: 736)
    static let fullPage = viewport

    static func card(_ slot: Slot, _ transform: Transform3D = .identity, alpha: Double = 1) -> ExpectedCard {
        ExpectedCard(item: slot.item, center: slot.center, size: slot.size, transform: transform, alpha: alpha)
    }

    // MARK: crossFading, zoomOut, depth: full pages, the pager's spacing (0)

    @Test func crossFading() throws {
        try CatalogueHarness.expectFaithful("fspager-cross-fading", offsets: Self.offsets(pitch: 414)) { frame in
            Self.ordered(Self.slots(frame, itemSize: Self.fullPage, spacing: 0).map { slot in
                let t = Transform3D.translation(x: -slot.pitch * slot.position, y: 0, z: 0)
                if abs(slot.position) < 1 { return (1, Self.card(slot, t, alpha: 1 - abs(slot.position))) }
                return (Int.min, Self.card(slot, t, alpha: 0))
            })
        }
    }

    static func zoomOut(_ frame: CatalogueFrame, spacing: Double, minimumScale: Double,
                        minimumAlpha: Double) -> [ExpectedCard] {
        ordered(slots(frame, itemSize: fullPage, spacing: spacing).map { slot in
            let p = slot.position
            guard p >= -1, p <= 1 else { return (slot.zIndex, card(slot, alpha: 0)) }
            let s = max(minimumScale, 1 - abs(p))
            let vertMargin = slot.size.height * (1 - s) / 2
            let horzMargin = slot.pitch * (1 - s) / 2
            let tx = p < 0 ? horzMargin - vertMargin * 2 : -horzMargin + vertMargin * 2
            let alpha = minimumAlpha + (s - minimumScale) / (1 - minimumScale) * (1 - minimumAlpha)
            let t = Transform3D.scale(x: s, y: s, z: 1).concatenating(.translation(x: tx, y: 0, z: 0))
            return (slot.zIndex, card(slot, t, alpha: alpha))
        })
    }

    @Test func zoomOut() throws {
        try CatalogueHarness.expectFaithful("fspager-zoom-out", offsets: Self.offsets(pitch: 414)) { frame in
            Self.zoomOut(frame, spacing: 0, minimumScale: 0.85, minimumAlpha: 0.6)
        }
    }

    /// The options act as the source's: minimumScale 0.5 lets the pages shrink further,
    /// interitemSpacing 20 spreads them (a pitch of 434), minimumAlpha 0.2 fades them more.
    @Test func zoomOutOptions() throws {
        let options: [String: ParamSetting] = ["minimumScale": 0.5, "minimumAlpha": 0.2, "interitemSpacing": 20]
        try CatalogueHarness.expectFaithful("fspager-zoom-out", offsets: Self.offsets(pitch: 434), params: options) { frame in
            Self.zoomOut(frame, spacing: 20, minimumScale: 0.5, minimumAlpha: 0.2)
        }
        // Half way between two pages both are at scale 0.5 (default: 0.85).
        let (frame, _) = try CatalogueHarness.frame("fspager-zoom-out", offset: 217, params: options)
        for card in CatalogueHarness.drawn(frame) where card.alpha > 0 {
            #expect(abs(card.transform3D.m11 - 0.5) < 1e-9)
        }
    }

    @Test func depth() throws {
        try CatalogueHarness.expectFaithful("fspager-depth", offsets: Self.offsets(pitch: 414)) { frame in
            Self.ordered(Self.slots(frame, itemSize: Self.fullPage, spacing: 0).map { slot in
                let p = slot.position
                if p >= -1, p <= 0 { return (1, Self.card(slot)) }
                guard p > 0, p < 1 else { return (0, Self.card(slot, alpha: 0)) }
                let s = 0.5 + (1 - 0.5) * (1 - abs(p))
                let t = Transform3D.scale(x: s, y: s, z: 1).concatenating(.translation(x: slot.pitch * -p, y: 0, z: 0))
                return (0, Self.card(slot, t, alpha: 1 - p))
            })
        }
    }

    // MARK: overlap, linear: the example's 0.6 × 0.75 of the pager

    static func overlapOrLinear(_ frame: CatalogueFrame, factor: Double, minimumScale: Double = 0.65,
                                minimumAlpha: Double = 0.6) -> [ExpectedCard] {
        let size = Size(width: frame.viewport.width * 0.6, height: frame.viewport.height * 0.75)
        return ordered(slots(frame, itemSize: size, spacing: size.width * -minimumScale * factor).map { slot in
            let p = abs(slot.position)
            let s = max(1 - (1 - minimumScale) * p, minimumScale)
            let alpha = min(1, max(0, minimumAlpha + (1 - p) * (1 - minimumAlpha)))
            return (Int((1 - p) * 10), card(slot, .scale(x: s, y: s, z: 1), alpha: alpha))
        })
    }

    @Test func overlap() throws {
        let pitch = 414 * 0.6 * (1 - 0.65 * 0.6)
        try CatalogueHarness.expectFaithful("fspager-overlap", offsets: Self.offsets(pitch: pitch)) { frame in
            Self.overlapOrLinear(frame, factor: 0.6)
        }
    }

    @Test func linear() throws {
        let pitch = 414 * 0.6 * (1 - 0.65 * 0.2)
        try CatalogueHarness.expectFaithful("fspager-linear", offsets: Self.offsets(pitch: pitch)) { frame in
            Self.overlapOrLinear(frame, factor: 0.2)
        }
    }

    /// minimumScale also sets the proposed spacing (−w·minimumScale·0.6): at 0.3 the cards
    /// overlap less (a pitch of 0.82·w instead of 0.61·w) and shrink down to 0.3 of their
    /// size; minimumAlpha 0.1 fades the far ones (below zero past |p| = 1.11, which UIKit
    /// clamps to 0).
    @Test func overlapOptions() throws {
        let pitch = 414 * 0.6 * (1 - 0.3 * 0.6)
        try CatalogueHarness.expectFaithful("fspager-overlap", offsets: Self.offsets(pitch: pitch),
                                            params: ["minimumScale": 0.3, "minimumAlpha": 0.1]) { frame in
            Self.overlapOrLinear(frame, factor: 0.6, minimumScale: 0.3, minimumAlpha: 0.1)
        }
    }

    // MARK: coverFlow: 220 × 170

    @Test func coverFlow() throws {
        let size = Size(width: 220, height: 170)
        let spacing = -220 * sin(Double.pi * 3 / 16)
        try CatalogueHarness.expectFaithful("fspager-coverflow", offsets: Self.offsets(pitch: 220 + spacing)) { frame in
            Self.ordered(Self.slots(frame, itemSize: size, spacing: spacing).map { slot in
                let q = min(max(-slot.position, -1), 1)
                let rotation = sin(q * Double.pi / 2) * Double.pi / 4 * 1.5
                let tz = -slot.pitch * 0.5 * abs(q)
                var perspective = Transform3D.identity
                perspective.m34 = -0.002
                // CATransform3DRotate then CATransform3DTranslate: each applies before the last.
                let t = Transform3D.translation(x: 0, y: 0, z: tz)
                    .concatenating(.rotation(angle: rotation, x: 0, y: 1, z: 0))
                    .concatenating(perspective)
                return (100 - Int(abs(q)), Self.card(slot, t))
            })
        }
    }

    // MARK: ferrisWheel, invertedFerrisWheel: 180 × 140, spacing −0.15·w

    static func ferris(_ frame: CatalogueFrame, inverted: Bool, minimumAlpha: Double = 0.6) -> [ExpectedCard] {
        let size = Size(width: 180, height: 140)
        return ordered(slots(frame, itemSize: size, spacing: -180 * 0.15).map { slot in
            let p = slot.position
            let alpha = abs(p) < 0.5 ? 1 : minimumAlpha
            guard p >= -5, p <= 5 else { return (0, card(slot, alpha: alpha)) }
            let sign: Double = inverted ? -1 : 1
            let radius = slot.pitch * 14 / (2 * Double.pi)
            let ty = radius * sign
            let rotation = p * (2 * Double.pi / 14) * sign
            // translatedBy / rotated(by:) put the new step before the transform so far.
            let t = Transform3D.translation(x: 0, y: -ty, z: 0)
                .concatenating(.rotation(angle: rotation, x: 0, y: 0, z: 1))
                .concatenating(.translation(x: -p * slot.pitch, y: ty, z: 0))
            return (Int(4 - abs(p) * 10), card(slot, t, alpha: alpha))
        })
    }

    @Test func ferrisWheel() throws {
        try CatalogueHarness.expectFaithful("fspager-ferris-wheel", offsets: Self.offsets(pitch: 153)) { frame in
            Self.ferris(frame, inverted: false)
        }
    }

    @Test func invertedFerrisWheel() throws {
        try CatalogueHarness.expectFaithful("fspager-inverted-ferris-wheel", offsets: Self.offsets(pitch: 153)) { frame in
            Self.ferris(frame, inverted: true)
        }
    }

    /// The wheel's hub is R = pitch·14/2π below the centre: at one pitch out a card has
    /// turned 2π/14 about it, so its centre is R·sin(2π/14) across and R·(1 − cos) lower.
    @Test func ferrisWheelGeometry() throws {
        let (frame, _) = try CatalogueHarness.frame("fspager-ferris-wheel", offset: 153 * 5)
        let card = try #require(CatalogueHarness.drawn(frame).first { $0.indexPath.item == 6 })
        let corners = try #require(card.projectedQuad(contentOffset: frame.contentOffset)?.corners)
        let cx = corners.map(\.x).reduce(0, +) / 4, cy = corners.map(\.y).reduce(0, +) / 4
        let radius = 153 * 14 / (2 * Double.pi), theta = 2 * Double.pi / 14
        #expect(abs(cx - (207 + radius * sin(theta))) < 1e-6)
        #expect(abs(cy - (368 + radius * (1 - cos(theta)))) < 1e-6)
    }

    // MARK: cubic: 0.9 × 0.9 of the pager, spacing 0

    @Test func cubic() throws {
        let size = Size(width: 414 * 0.9, height: 736 * 0.9)
        try CatalogueHarness.expectFaithful("fspager-cubic", offsets: Self.offsets(pitch: size.width)) { frame in
            Self.ordered(Self.slots(frame, itemSize: size, spacing: 0).map { slot in
                let p = slot.position
                guard p > -1, p < 1 else { return (slot.zIndex, Self.card(slot, alpha: 0)) }
                let direction: Double = p < 0 ? 1 : -1
                let half = direction * slot.size.width * 0.5
                var perspective = Transform3D.identity
                perspective.m34 = -0.002
                let t = Transform3D.translation(x: -half, y: 0, z: 0)
                    .concatenating(.rotation(angle: p * Double.pi / 2, x: 0, y: 1, z: 0))
                    .concatenating(perspective)
                var card = Self.card(slot, t)
                card.center.x += half
                return (Int((1 - p) * 10), card)
            })
        }
    }

    // MARK: paging: FSPagerViewLayout.targetContentOffset

    /// The source's rule, given the release: decelerationDistance 0 (automatic) rounds
    /// the proposal to a pitch, biased 0.35 of a pitch along a fling of |v| ≥ 0.3 pt/ms;
    /// N ≥ 1 goes from the offset at release to the next pitch (ceil / floor, N − 1 more),
    /// or rounds the proposal when slower; then 0 … contentWidth − pitch.
    static func target(proposed: Double, velocity: Double, current: Double, pitch: Double,
                       distance: Int, contentWidth: Double) -> Double {
        var target: Double
        if distance == 0 {
            target = abs(velocity) >= 0.3
                ? (proposed / pitch + 0.35 * (velocity >= 0 ? 1 : -1)).rounded() * pitch
                : (proposed / pitch).rounded() * pitch
        } else if velocity >= 0.3 {
            target = (current / pitch + Double(distance - 1)).rounded(.up) * pitch
        } else if velocity <= -0.3 {
            target = (current / pitch - Double(distance - 1)).rounded(.down) * pitch
        } else {
            target = (proposed / pitch).rounded() * pitch
        }
        return min(contentWidth - pitch, max(0, target))
    }

    /// Releases at `offset` with each velocity; the port's target must be the source's
    /// for the proposal cardlua's physics made, and the content must rest there.
    static func expectPaging(_ name: String, offset: Double, velocities: [Double], pitch: Double, distance: Int,
                             contentWidth: Double, params: [String: ParamSetting] = [:]) throws {
        for velocity in velocities {
            let effect = try CatalogueHarness.effect(name, params: params)
            let timeline = try ScenarioRunner(effect: effect, scriptName: "\(name).lua")
                .run(Scenario(name: "paging", viewportSize: viewport, numberOfItems: [20],
                              steps: [.jump(offset: offset), .fling(velocity: velocity)]))
            let snap = try #require(timeline.snaps.first)
            let want = target(proposed: snap.proposedContentOffset.x, velocity: velocity, current: offset,
                              pitch: pitch, distance: distance, contentWidth: contentWidth)
            #expect(abs(snap.targetContentOffset.x - want) < 1e-9, "\(name) v \(velocity): target")
            #expect(abs((timeline.frames.last?.contentOffset.x ?? .nan) - want) < 1e-6, "\(name) v \(velocity): rest")
        }
    }

    @Test func pagingAutomatic() throws {
        // Cover flow: 220-point cards, pitch 220·(1 − sin(3π/16)), the example's automatic distance.
        let pitch = 220 - 220 * sin(Double.pi * 3 / 16)
        let contentWidth = (414 - 220) + 20 * 220 + 19 * (pitch - 220)
        try Self.expectPaging("fspager-coverflow", offset: 3.2 * pitch, velocities: [0.1, -0.2, 0.35, -0.5, 1.5, -2, 30],
                              pitch: pitch, distance: 0, contentWidth: contentWidth)
    }

    @Test func pagingOneItem() throws {
        // Cubic: pitch = 0.9·414, decelerationDistance 1 (the example's): a flick turns one
        // page from where the finger lifted, however fast; 3 turns three.
        let pitch = 414 * 0.9
        let contentWidth = 414 - pitch + 20 * pitch
        try Self.expectPaging("fspager-cubic", offset: 4.3 * pitch, velocities: [0.1, 0.5, -0.5, 5, -5],
                              pitch: pitch, distance: 1, contentWidth: contentWidth)
        try Self.expectPaging("fspager-cubic", offset: 4.3 * pitch, velocities: [5, -5],
                              pitch: pitch, distance: 3, contentWidth: contentWidth,
                              params: ["decelerationDistance": 3])
    }
}
