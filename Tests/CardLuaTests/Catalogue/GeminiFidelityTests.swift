import CardLayout
import Foundation
import Testing

/// Gemini's animations (shoheiyokoyama/Gemini, GeminiAnimationModel.swift) with the example
/// app's configurations, against the source's formulas written out here: every transform
/// starts from Gemini's identity with m34 = +1/1000, Core Animation's helpers compose as
/// `CATransform3DRotate(t, …) = rotation · t` (row vectors), and a layer turns about its
/// anchor point, which about the centre is `translate(−a) · T · translate(a)`.
@Suite struct GeminiFidelityTests {
    static let width = 414.0, height = 736.0

    /// Gemini's `transform3DIdentity`.
    static var geminiIdentity: Transform3D {
        var t = Transform3D.identity
        t.m34 = 1.0 / 1000
        return t
    }

    static func rotate(_ t: Transform3D, degrees: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        Transform3D.rotation(angle: degrees * .pi / 180, x: x, y: y, z: z).concatenating(t)
    }

    static func scaled(_ t: Transform3D, _ s: Double) -> Transform3D {
        Transform3D.scale(x: s, y: s, z: 1).concatenating(t)
    }

    /// `t` about the anchor at (ax, ay) from the layer's centre.
    static func about(_ t: Transform3D, ax: Double, ay: Double) -> Transform3D {
        Transform3D.translation(x: -ax, y: -ay, z: 0).concatenating(t).concatenating(.translation(x: ax, y: ay, z: 0))
    }

    /// Penner's easing equations as EasingFunction.swift states them (t, b, c, d), in
    /// GeminiEasing's order.
    static func penner(_ index: Int, _ t0: Double) -> Double {
        let b = 0.0, c = 1.0, d = 1.0
        var t = t0
        switch index {
        case 0: return c * t / d + b
        case 1: t /= d; return c * t * t + b
        case 2: t /= d; return -c * t * (t - 2) + b
        case 3: t /= d / 2; if t < 1 { return c / 2 * t * t + b }; t -= 1; return -c / 2 * (t * (t - 2) - 1) + b
        case 4: t /= d; return c * t * t * t + b
        case 5: t = t / d - 1; return c * (t * t * t + 1) + b
        case 6: t /= d / 2; if t < 1 { return c / 2 * t * t * t + b }; t -= 2; return c / 2 * (t * t * t + 2) + b
        case 7: t /= d; return c * t * t * t * t + b
        case 8: t = t / d - 1; return -c * (t * t * t * t - 1) + b
        case 9: t /= d / 2; if t < 1 { return c / 2 * t * t * t * t + b }; t -= 2; return -c / 2 * (t * t * t * t - 2) + b
        case 10: t /= d; return c * t * t * t * t * t + b
        case 11: t = t / d - 1; return c * (t * t * t * t * t + 1) + b
        case 12: t /= d / 2; if t < 1 { return c / 2 * t * t * t * t * t + b }; t -= 2; return c / 2 * (t * t * t * t * t + 2) + b
        case 13: return -c * cos(t / d * (.pi / 2)) + c + b
        case 14: return c * sin(t / d * (.pi / 2)) + b
        case 15: return -c / 2 * (cos(.pi * t / d) - 1) + b
        case 16: return c * pow(2, 10 * (t / d - 1)) + b
        case 17: return c * (-pow(2, -10 * t / d) + 1) + b
        case 18: t /= d / 2; if t < 1 { return c / 2 * pow(2, 10 * (t - 1)) + b }; t -= 1; return c / 2 * (-pow(2, -10 * t) + 2) + b
        case 19: t /= d; return -c * (sqrt(1 - t * t) - 1) + b
        case 20: t = t / d - 1; return c * sqrt(1 - t * t) + b
        default: t /= d / 2; if t < 1 { return -c / 2 * (sqrt(1 - t * t) - 1) + b }; t -= 2; return c / 2 * (sqrt(1 - t * t) + 1) + b
        }
    }

    /// GeminiEasing.value(withRatio:) of the clamped distance ratio of a card.
    static func easedRatio(centerX: Double, cardWidth: Double, offset: Double, easing: Int = 0) -> Double {
        let raw = (centerX - (offset + width / 2)) / (width / 2 + cardWidth / 2)
        let ratio = raw < 0 ? max(-1, raw) : min(1, raw)
        return ratio < 0 ? -penner(easing, -ratio) : penner(easing, ratio)
    }

    /// The cards of a one-row horizontal flow (first centre, pitch, card size) whose frame
    /// meets the visible rect, in index order, each given its transform and alpha.
    static func row(_ frame: CatalogueFrame, firstCenterX: Double, pitch: Double, size: Size,
                    _ look: (Double) -> (Transform3D, Double)) -> [ExpectedCard] {
        (0..<frame.numberOfItems).compactMap { item in
            let x = firstCenterX + Double(item) * pitch
            guard x + size.width / 2 > frame.offset, x - size.width / 2 < frame.offset + width else { return nil }
            let (t, alpha) = look(x)
            return ExpectedCard(item: item, center: Point(x: x, y: height / 2), size: size, transform: t, alpha: alpha)
        }
    }

    /// cube: full-screen pages (W × H, no insets or spacing), rotY(e · −cubeDegree) about
    /// the edge that faces the centre; alpha (a − 1)|e| + 1.
    static func cube(_ frame: CatalogueFrame, degree: Double = 90, alpha: Double = 1) -> [ExpectedCard] {
        row(frame, firstCenterX: width / 2, pitch: width, size: Size(width: width, height: height)) { x in
            let e = easedRatio(centerX: x, cardWidth: width, offset: frame.offset)
            let t = rotate(geminiIdentity, degrees: e * -degree, 0, 1, 0)
            let anchor = e > 0 ? -width / 2 : (e < 0 ? width / 2 : 0)   // anchorPoint (0|1, 0.5)
            return (about(t, ax: anchor, ay: 0), (alpha - 1) * abs(e) + 1)
        }
    }

    @Test func cube() throws {
        try CatalogueHarness.expectFaithful("gemini-cube", offsets: [0, 150, 414, 621, 1000.25, 7700]) { Self.cube($0) }
    }

    @Test func cubeDegreeAndAlpha() throws {
        // cubeDegree 45: the faces meet at a flatter angle; alpha(0.5): half-turned faces fade.
        try CatalogueHarness.expectFaithful("gemini-cube", offsets: [0, 150, 414, 621, 3000], params: ["cubeDegree": 45, "alpha": 0.5]) {
            Self.cube($0, degree: 45, alpha: 0.5)
        }
        let (turned, _) = try CatalogueHarness.frame("gemini-cube", offset: 207, params: ["cubeDegree": 45])
        let (full, _) = try CatalogueHarness.frame("gemini-cube", offset: 207)
        #expect(turned.items[0].transform3D != full.items[0].transform3D)
    }

    /// circleRotation: 200 × 350 cards, 10 apart after a 50-point inset, centred
    /// vertically; R = max(W/2 + w/2, radius), θ = asin(distance/R); clockwise: rotZ(−θ),
    /// up by R(1 − cos θ), about the top edge's middle; anticlockwise: the mirror, about the
    /// bottom edge's middle; then the scale (1 by default).
    static func circle(_ frame: CatalogueFrame, radius: Double = 450, clockwise: Bool = true) -> [ExpectedCard] {
        let w = 200.0, h = 350.0
        return row(frame, firstCenterX: 50 + w / 2, pitch: w + 10, size: Size(width: w, height: h)) { x in
            let distance = x - (frame.offset + width / 2)
            let r = max(width / 2 + w / 2, radius)
            let theta = asin(distance / r)
            let lift = r * (1 - cos(theta))
            let rotation = Transform3D.rotation(angle: clockwise ? -theta : theta, x: 0, y: 0, z: 1).concatenating(geminiIdentity)
            let translation = Transform3D.translation(x: 0, y: clockwise ? -lift : lift, z: 0).concatenating(geminiIdentity)
            let scale = scaled(geminiIdentity, 1)
            let t = rotation.concatenating(translation).concatenating(scale)
            return (about(t, ax: 0, ay: clockwise ? -h / 2 : h / 2), 1)
        }
    }

    @Test func circleRotation() throws {
        try CatalogueHarness.expectFaithful("gemini-circle-rotation", offsets: [0, 105, 153, 1000.5, 3800]) { Self.circle($0) }
    }

    @Test func circleRotationAnticlockwiseWithAnotherRadius() throws {
        try CatalogueHarness.expectFaithful("gemini-circle-rotation", offsets: [0, 105, 153, 1000.5, 3800],
                                            params: ["rotateDirection": 1, "circleRadius": 800]) {
            Self.circle($0, radius: 800, clockwise: false)
        }
        // A radius below W/2 + w/2 is raised to it (max), so 100 and 300 draw the same.
        let (small, _) = try CatalogueHarness.frame("gemini-circle-rotation", offset: 105, params: ["circleRadius": 100])
        let (bound, _) = try CatalogueHarness.frame("gemini-circle-rotation", offset: 105, params: ["circleRadius": 300])
        #expect(small.items.map(\.transform3D) == bound.items.map(\.transform3D))
    }

    /// roll, pitch and yaw: Concat(scale(1 − 0.3|e|), rot(degree)) about the centre, the
    /// degree signed by the effect.
    static func attitude(_ frame: CatalogueFrame, firstCenterX: Double, pitch: Double, size: Size,
                         axis: (Double, Double, Double), degree: Double = 90, easing: Int = 0,
                         sign: @escaping (Double) -> Double) -> [ExpectedCard] {
        row(frame, firstCenterX: firstCenterX, pitch: pitch, size: size) { x in
            let e = easedRatio(centerX: x, cardWidth: size.width, offset: frame.offset, easing: easing)
            let s = 1 - (1 - 0.7) * abs(e)
            let t = scaled(geminiIdentity, s).concatenating(rotate(geminiIdentity, degrees: sign(e * degree), axis.0, axis.1, axis.2))
            return (t, 1)
        }
    }

    /// roll and pitch: (W − 60) × (H − 100) cards 30 apart after a 30-point inset.
    static let tallCard = Size(width: width - 60, height: height - 100)

    @Test func roll() throws {
        try CatalogueHarness.expectFaithful("gemini-roll", offsets: [0, 192, 384, 500, 7000]) {
            Self.attitude($0, firstCenterX: 30 + Self.tallCard.width / 2, pitch: Self.tallCard.width + 30,
                          size: Self.tallCard, axis: (0, 1, 0)) { $0 }                  // rollUp
        }
    }

    @Test func rollSineWaveEasedOut() throws {
        try CatalogueHarness.expectFaithful("gemini-roll", offsets: [0, 192, 384, 500, 7000],
                                            params: ["rollEffect": 2, "easing": 8]) {
            Self.attitude($0, firstCenterX: 30 + Self.tallCard.width / 2, pitch: Self.tallCard.width + 30,
                          size: Self.tallCard, axis: (0, 1, 0), easing: 8) { abs($0) }  // sineWave
        }
    }

    @Test func pitch() throws {
        try CatalogueHarness.expectFaithful("gemini-pitch", offsets: [0, 192, 384, 500, 7000]) {
            Self.attitude($0, firstCenterX: 30 + Self.tallCard.width / 2, pitch: Self.tallCard.width + 30,
                          size: Self.tallCard, axis: (1, 0, 0)) { -$0 }                 // pitchUp
        }
    }

    /// yaw: (W − 50)² cards 80 apart after a 25-point inset, centred vertically.
    static let square = Size(width: width - 50, height: width - 50)

    @Test func yaw() throws {
        try CatalogueHarness.expectFaithful("gemini-yaw", offsets: [0, 222, 444, 600, 8000]) {
            Self.attitude($0, firstCenterX: 25 + Self.square.width / 2, pitch: Self.square.width + 80,
                          size: Self.square, axis: (0, 0, 1)) { $0 }                    // yawUp
        }
    }

    @Test func yawUsesItsOwnDegree() throws {
        // The source reads pitchDegree (90) here; the port uses yawDegree, so 30 turns less.
        try CatalogueHarness.expectFaithful("gemini-yaw", offsets: [0, 222, 444, 600, 8000], params: ["yawDegree": 30, "yawEffect": 1]) {
            Self.attitude($0, firstCenterX: 25 + Self.square.width / 2, pitch: Self.square.width + 80,
                          size: Self.square, axis: (0, 0, 1), degree: 30) { -$0 }       // yawDown
        }
    }

    /// scale: (W − 80) × (H − 400) cards 40 apart after a 40-point inset, eased out
    /// (quartic); scaleUp 1 − 0.25|e| or scaleDown 0.75 + 0.25|e|.
    static func scale(_ frame: CatalogueFrame, down: Bool = false) -> [ExpectedCard] {
        let size = Size(width: width - 80, height: height - 400)
        return row(frame, firstCenterX: 40 + size.width / 2, pitch: size.width + 40, size: size) { x in
            let e = easedRatio(centerX: x, cardWidth: size.width, offset: frame.offset, easing: 8)
            let s = down ? 0.75 + (1 - 0.75) * abs(e) : 1 - (1 - 0.75) * abs(e)
            return (scaled(geminiIdentity, s), 1)
        }
    }

    @Test func scale() throws {
        try CatalogueHarness.expectFaithful("gemini-scale", offsets: [0, 187, 374, 500.5, 6700]) { Self.scale($0) }
    }

    @Test func scaleDown() throws {
        try CatalogueHarness.expectFaithful("gemini-scale", offsets: [0, 187, 374, 500.5, 6700], params: ["scaleEffect": 1]) {
            Self.scale($0, down: true)
        }
    }

    /// The example's UICollectionViewPagingFlowLayout (roll, pitch, yaw, scale): page =
    /// w + spacing (384 for roll); |v| > 0.2 pt/ms turns to ceil/floor of the release's
    /// page, slower rounds it. A release exactly on a page (only a scenario can do that)
    /// still turns one page.
    @Test func pagingFlowLayout() throws {
        let cases: [([ScenarioStep], Double)] = [
            ([.jump(offset: 0), .drag(by: 250, duration: 1)], 384),         // 0.25 pt/ms: ceil(0.65)
            ([.jump(offset: 0), .drag(by: 150, duration: 1)], 0),           // 0.15 pt/ms: round(0.39)
            ([.jump(offset: 0), .drag(by: 250, duration: 1, velocity: 0.1)], 384), // round(0.65)
            ([.jump(offset: 768), .drag(by: -100, duration: 0.4)], 384),    // -0.25 pt/ms: floor(1.74)
            ([.jump(offset: 768), .fling(velocity: 5)], 1152),              // on page 2: the next
            ([.jump(offset: 768), .fling(velocity: -5)], 384),
        ]
        for (steps, target) in cases {
            let runner = ScenarioRunner(effect: try CatalogueHarness.effect("gemini-roll"), scriptName: "gemini-roll.lua")
            let timeline = try runner.run(Scenario(name: "paging", steps: steps))
            let snap = try #require(timeline.snaps.last)
            #expect(snap.targetContentOffset.x == target, "\(steps)")
            #expect(timeline.frames.last?.contentOffset.x == target, "\(steps)")
        }
    }

    /// UIAppearanceAnimatable: the cube's black shadowView (fadeIn: |e|, fadeOut: 1 − |e|)
    /// darkens the card's colour; cornerRadius(r) gives r·|e| (unset: the image cell's 5).
    @Test func appearance() throws {
        let (atRest, _) = try CatalogueHarness.frame("gemini-cube", offset: 0)
        #expect(atRest.items[0].appearance?.backgroundColor == nil)                 // fadeIn, e = 0: no shade
        let (fadedOut, _) = try CatalogueHarness.frame("gemini-cube", offset: 0, params: ["shadowEffect": 4])
        #expect(fadedOut.items[0].appearance?.backgroundColor?.rgb == 0)            // fadeOut, e = 0: black
        let (halfway, _) = try CatalogueHarness.frame("gemini-cube", offset: 207)     // e = -0.5 and 0.5
        for card in halfway.items {
            let rgb = try #require(card.appearance?.backgroundColor?.rgb)
            #expect([rgb >> 16, (rgb >> 8) & 0xFF, rgb & 0xFF].allSatisfy { $0 <= 128 }, "half shaded: \(rgb)")
        }
        let (rounded, _) = try CatalogueHarness.frame("gemini-roll", offset: 192, params: ["cornerRadius": 20])
        #expect(rounded.items.map { $0.appearance?.cornerRadius } == [10, 10])      // |e| = 0.5
        let (cell, _) = try CatalogueHarness.frame("gemini-roll", offset: 192)
        #expect(cell.items.map { $0.appearance?.cornerRadius } == [5, 5])
    }
}
