import CardLayout
import Foundation
import Testing

/// CollectionViewPagingLayout (amirdew, 5b40724): every ScaleTransformView and
/// StackTransformView preset, against the library's formulas written out here from
/// Lib/CollectionViewPagingLayout.swift, Lib/Scale/…, Lib/Stack/… and Lib/TransformCurve.swift.
///
/// The model: every cell's frame is the visible rect and each cell transforms its card view
/// (the example app's shapes cell: the page inset by 18% of W left and right and 6% of H top
/// and bottom, centred) from its progress p = index − offset / W. Cards are listed back to
/// front by their zPosition, ties in index order; a card UIKit does not draw (a single-sided
/// one turned away, one scaled to nothing) is left out.
@Suite struct CollectionViewPagingLayoutFidelityTests {
    /// The start, between pages 0 and 1, on page 1, between 1 and 2 off the half, on page 3,
    /// between the last two pages and the very end (20 pages of 414 pt: the last at 7866).
    static let offsets: [Double] = [0, 207, 414, 600.25, 1242, 7600, 7866]

    @Test(arguments: PagingScalePreset.allCases)
    func scalePreset(_ preset: PagingScalePreset) throws {
        try CatalogueHarness.expectFaithful("paging-scale-\(preset.rawValue)", offsets: Self.offsets) { frame in
            pagingCards(frame) { scaleLook(preset.options, progress: $0, w: $1, h: $2) }
        }
    }

    @Test(arguments: PagingStackPreset.allCases)
    func stackPreset(_ preset: PagingStackPreset) throws {
        let options = preset.options
        try CatalogueHarness.expectFaithful("paging-stack-\(preset.rawValue)", offsets: Self.offsets) { frame in
            pagingCards(frame, zPosition: { stackZPosition(options, progress: $0) }) {
                stackLook(options, progress: $0, w: $1, h: $2)
            }
        }
    }

    /// Options moved away from the preset change the picture as the library's options do:
    /// a larger minScale and a smaller translation ratio, and numberOfVisibleItems = 3 (the
    /// layout's window: only the pages around round(offset)).
    @Test func scaleOptionsOverridden() throws {
        let params: [String: ParamSetting] = ["minScale": 0.8, "translationRatioX": 0.5, "numberOfVisibleItems": 3]
        var options = PagingScalePreset.linear.options
        options.minScale = 0.8
        options.translationRatio.x = 0.5
        try CatalogueHarness.expectFaithful("paging-scale-linear", offsets: Self.offsets, params: params) { frame in
            pagingCards(frame, numberOfVisibleItems: 3) { scaleLook(options, progress: $0, w: $1, h: $2) }
        }
        let (plain, _) = try CatalogueHarness.frame("paging-scale-linear", offset: 207)
        let (tweaked, _) = try CatalogueHarness.frame("paging-scale-linear", offset: 207, params: params)
        #expect(plain.items.count == 20)
        #expect(tweaked.items.map(\.indexPath.item) == [0, 1, 2])
        let quad = { (frame: Frame) in frame.items[1].projectedQuad(contentOffset: frame.contentOffset)?.corners }
        // At p = 0.5 the linear preset's scale is 0.8 either way; only the translation moves.
        #expect(quad(plain) != quad(tweaked))
    }

    /// The 3D options: a narrower turn and a nearer eye on Cover Flow.
    @Test func rotationOptionsOverridden() throws {
        let params: [String: ParamSetting] = ["minAngle": -30, "maxAngle": 30, "m34": -0.001]
        var options = PagingScalePreset.coverFlow.options
        options.rotation3d?.minAngle = -.pi / 6
        options.rotation3d?.maxAngle = .pi / 6
        options.rotation3d?.m34 = -0.001
        try CatalogueHarness.expectFaithful("paging-scale-cover-flow", offsets: Self.offsets, params: params) { frame in
            pagingCards(frame) { scaleLook(options, progress: $0, w: $1, h: $2) }
        }
    }

    /// The stack's options: a two-card stack, a wider pop and faster fading.
    @Test func stackOptionsOverridden() throws {
        let params: [String: ParamSetting] = ["maxStackSize": 2, "popAngle": 36, "alphaFactor": 0.5]
        var options = PagingStackPreset.transparent.options
        options.maxStackSize = 2
        options.popAngle = .pi / 5
        options.alphaFactor = 0.5
        try CatalogueHarness.expectFaithful("paging-stack-transparent", offsets: Self.offsets, params: params) { frame in
            pagingCards(frame, zPosition: { stackZPosition(options, progress: $0) }) {
                stackLook(options, progress: $0, w: $1, h: $2)
            }
        }
    }

    /// Shadows, blur and facing, which the harness does not compare: ScaleTransformView's
    /// shadow grows towards the centre (radius max(2, (1 − |p|)·13), offset height
    /// max(2, (1 − |p|)·6), opacity max(0.1, (1 − |p|)·0.1)); its blur is |p|·ratio of the
    /// full blur, which the port takes as 30 points; rotation3d makes the card single-sided;
    /// StackTransformView's shadow is constant; the cylinders have none.
    @Test func appearance() throws {
        let (coverFlow, _) = try CatalogueHarness.frame("paging-scale-cover-flow", offset: 207)
        let card0 = try #require(coverFlow.items.first { $0.indexPath.item == 0 })   // p = −0.5
        let card2 = try #require(coverFlow.items.first { $0.indexPath.item == 2 })   // p = 1.5
        #expect(card0.isDoubleSided == false)
        #expect(card0.appearance?.shadowOpacity == 0.1)
        #expect(abs((card0.appearance?.shadowRadius ?? 0) - 6.5) < 1e-12)
        #expect(abs((card0.appearance?.shadowOffset.height ?? 0) - 3) < 1e-12)
        #expect(card0.appearance?.shadowOffset.width == 0)
        #expect(card2.appearance?.shadowRadius == 2)
        #expect(card2.appearance?.shadowOffset.height == 2)

        let (cylinder, _) = try CatalogueHarness.frame("paging-scale-cylinder", offset: 207)
        #expect(cylinder.items.allSatisfy { ($0.appearance?.shadowOpacity ?? 0) == 0 && !$0.isDoubleSided })

        let (blur, _) = try CatalogueHarness.frame("paging-scale-blur", offset: 207)
        let blurs = blur.items.prefix(4).map { $0.appearance?.blurRadius ?? 0 }   // p = −0.5, 0.5, 1.5, 2.5
        for (got, want) in zip(blurs, [3.0, 3, 9, 15]) { #expect(abs(got - want) < 1e-9) }
        #expect(blur.items.allSatisfy { $0.isDoubleSided })

        // Reverse: at page 3 card i has p' = 3 − i; blur = clamp(p'/7, 0, 1)·0.08 of 30 pt.
        let (stackBlur, _) = try CatalogueHarness.frame("paging-stack-blur", offset: 1242)
        let stackBlurs = stackBlur.items.prefix(5).map { $0.appearance?.blurRadius ?? 0 }
        for (got, want) in zip(stackBlurs, [3.0 / 7 * 2.4, 2.0 / 7 * 2.4, 1.0 / 7 * 2.4, 0, 0]) {
            #expect(abs(got - want) < 1e-9)
        }
        let (transparent, _) = try CatalogueHarness.frame("paging-stack-transparent", offset: 600)
        #expect(transparent.items.allSatisfy {
            $0.appearance?.shadowOpacity == 0.1 && $0.appearance?.shadowRadius == 10
                && $0.appearance?.shadowOffset == Size(width: 0, height: 0)
        })
        let (vortex, _) = try CatalogueHarness.frame("paging-stack-vortex", offset: 600)
        #expect(vortex.items.allSatisfy { ($0.appearance?.shadowOpacity ?? 0) == 0 })
    }
}

// MARK: - The layout (Lib/CollectionViewPagingLayout.swift)

/// What one page's card looks like at its progress.
private struct PageLook {
    var transform: Transform3D
    var alpha = 1.0
    var isDoubleSided = true
    /// Scaled to nothing: UIKit draws nothing.
    var isEmpty = false
}

/// The pages `layoutAttributesForElements(in:)` lays out: `numberOfVisibleItems` (nil: all)
/// around round(offset in pages), shifted back inside 0..<n at either end.
private func pagingWindow(scrollOffset: Double, numberOfItems n: Int, numberOfVisibleItems: Int?) -> Range<Int> {
    let count = numberOfVisibleItems ?? n
    let mid = count / 2
    let current = Int(scrollOffset.rounded())   // Swift's round: halves away from zero
    var start = current - mid, end = current + mid
    if count % 2 != 0 {
        if current < mid { start -= 1 } else { end += 1 }
    }
    let startOutOfBounds = max(0, -start), endOutOfBounds = max(0, end - n)
    return max(0, start - endOutOfBounds)..<min(n, end + startOutOfBounds)
}

/// The cards the library draws at `frame`, back to front.
private func pagingCards(_ frame: CatalogueFrame, numberOfVisibleItems: Int? = nil,
                         zPosition: (Double) -> Int = { -Int(abs($0.rounded())) },
                         look: (_ progress: Double, _ w: Double, _ h: Double) -> PageLook) -> [ExpectedCard] {
    let width = frame.viewport.width, height = frame.viewport.height
    let scrollOffset = frame.offset / max(width, 1)
    let card = Size(width: width * (1 - 2 * 0.18), height: height * (1 - 2 * 0.06))
    let center = Point(x: frame.offset + width / 2, y: height / 2)   // the visible rect's centre
    var cards: [(z: Int, card: ExpectedCard)] = []
    for index in pagingWindow(scrollOffset: scrollOffset, numberOfItems: frame.numberOfItems,
                              numberOfVisibleItems: numberOfVisibleItems) {
        let progress = Double(index) - scrollOffset
        let page = look(progress, card.width, card.height)
        // UIKit's facing rule for a single-sided layer, as every cardlua renderer applies it.
        var facing = LayoutAttributes(indexPath: CardIndexPath(item: index, section: 0),
                                      frame: Rect(x: 0, y: 0, width: card.width, height: card.height),
                                      transform3D: page.transform)
        facing.isDoubleSided = page.isDoubleSided
        guard !page.isEmpty, !facing.isBackFaceHidden else { continue }
        cards.append((zPosition(progress), ExpectedCard(item: index, center: center, size: card,
                                                        transform: page.transform, alpha: page.alpha)))
    }
    return cards.sorted { ($0.z, $0.card.item) < ($1.z, $1.card.item) }.map(\.card)
}

/// TransformCurve.computeFromLinear(progress:).
private enum Curve {
    case linear, easeIn, easeOut

    func callAsFunction(_ x: Double) -> Double {
        switch self {
        case .linear: x
        case .easeIn: log10(1 + x * 9)
        case .easeOut: 1 - log10(1 + (9 - x * 9))
        }
    }
}

/// CGFloat.interpolate(in:out:) (Lib/Utilities/CGFloat+Interpolate.swift).
private func interpolate(_ value: Double, _ lower: Double, _ upper: Double,
                         out outLower: Double = 0, _ outUpper: Double = 1) -> Double {
    var current = value
    if current > upper { current = upper }
    if current < lower { current = lower }
    return outLower + abs(current - lower) / abs(upper - lower) * abs(outUpper - outLower)
}

// MARK: - ScaleTransformView (Lib/Scale/…)

/// ScaleTransformViewOptions with the init's defaults (the numbers that shape the card).
private struct ScaleOptions {
    struct Rotation3d { var angle, minAngle, maxAngle, x, y, z, m34: Double }
    struct Translation3d { var ratios, minRatios, maxRatios: (Double, Double, Double) }

    var minScale = 0.75, maxScale = 1.0, scaleRatio = 0.25
    var translationRatio = (x: 0.93, y: 0.36)
    var minTranslationRatio: (x: Double, y: Double)? = (-5, -5)
    var maxTranslationRatio: (x: Double, y: Double)? = (5, 5)
    var scaleCurve = Curve.linear, translationCurve = Curve.linear
    var rotation3d: Rotation3d?
    var translation3d: Translation3d?
}

/// ScaleTransformViewOptions.Layout (Lib/Scale/ScaleTransformViewOptions+Layout.swift).
enum PagingScalePreset: String, CaseIterable, Sendable {
    case invertedCylinder = "inverted-cylinder", cylinder, coverFlow = "cover-flow", rotary, linear
    case easeIn = "ease-in", easeOut = "ease-out", blur

    fileprivate var options: ScaleOptions {
        var o = ScaleOptions()
        switch self {
        case .blur, .linear:
            (o.minScale, o.scaleRatio, o.translationRatio) = (0.6, 0.4, (0.66, 0.2))
            o.maxTranslationRatio = (2, 0)
        case .easeIn, .easeOut:
            (o.minScale, o.scaleRatio, o.translationRatio) = (0.6, 0.4, (0.66, 0.2))
            if self == .easeIn { o.scaleCurve = .easeIn } else { o.translationCurve = .easeIn }
        case .rotary:
            (o.minScale, o.scaleRatio, o.translationRatio) = (0, 0.4, (0.1, 0.1))
            (o.minTranslationRatio, o.maxTranslationRatio) = ((-1, 0), (1, 1))
            o.rotation3d = .init(angle: .pi / 15, minAngle: -.pi / 3, maxAngle: .pi / 3, x: 0, y: 0, z: 1, m34: -0.004)
            o.translation3d = .init(ratios: (0.9, 0.1, 0), minRatios: (-3, -0.8, -0.3), maxRatios: (3, 0.8, -0.3))
        case .cylinder, .invertedCylinder, .coverFlow:
            (o.scaleRatio, o.translationRatio, o.minTranslationRatio, o.maxTranslationRatio) = (0, (0, 0), (0, 0), (0, 0))
            switch self {
            case .cylinder:
                (o.minScale, o.maxScale) = (0.55, 0.55)
                o.rotation3d = .init(angle: .pi / 4, minAngle: -.pi, maxAngle: .pi, x: 0, y: 1, z: 0,
                                     m34: -0.000_4 - 0.8 * 0.000_2)
                o.translation3d = .init(ratios: (0, 0, 0), minRatios: (0, 0, 1.25), maxRatios: (0, 0, 1.25))
            case .invertedCylinder:
                (o.minScale, o.maxScale) = (1.2, 1.2)
                o.rotation3d = .init(angle: .pi / 3, minAngle: -.pi, maxAngle: .pi, x: 0, y: -1, z: 0, m34: -0.002)
                o.translation3d = .init(ratios: (0.1, 0, 0), minRatios: (-0.05, 0, 0.86), maxRatios: (0.05, 0, -0.86))
            default:
                (o.minScale, o.maxScale) = (0.7, 0.7)
                o.rotation3d = .init(angle: .pi / 1.65, minAngle: -.pi / 3, maxAngle: .pi / 3, x: 0, y: -1, z: 0,
                                     m34: -0.000_5)
                o.translation3d = .init(ratios: (0.1, 0, -0.7), minRatios: (-0.1, 0, -3), maxRatios: (0.1, 0, 0))
            }
        }
        return o
    }
}

/// applyScaleAndTranslation then applyCATransform3D, on a w × h card.
private func scaleLook(_ o: ScaleOptions, progress: Double, w: Double, h: Double) -> PageLook {
    var scale = 1 - o.scaleCurve(abs(progress)) * o.scaleRatio
    scale = min(max(scale, o.minScale), o.maxScale)
    var xAdjustment = (1 - scale) * w / 2
    if progress > 0 { xAdjustment *= -1 }
    let yAdjustment = (1 - scale) * h / 2
    let translateProgress = o.translationCurve(abs(progress))
    var translateX = w * o.translationRatio.x * translateProgress * (progress < 0 ? -1 : 1) - xAdjustment
    var translateY = h * o.translationRatio.y * abs(translateProgress) - yAdjustment
    if let low = o.minTranslationRatio {
        translateX = max(translateX, w * low.x)
        translateY = max(translateY, h * low.y)
    }
    if let high = o.maxTranslationRatio {
        translateX = min(translateX, w * high.x)
        translateY = min(translateY, h * high.y)
    }
    // CGAffineTransform.identity.translatedBy(x:y:).scaledBy(x:y:): the scale acts first.
    var t = Transform3D.scale(x: scale, y: scale, z: 1).concatenating(.translation(x: translateX, y: translateY, z: 0))
    var look = PageLook(transform: t, isEmpty: scale == 0)
    if let r = o.rotation3d {
        t.m34 = r.m34
        let angle = min(max(r.angle * progress, r.minAngle), r.maxAngle)
        t = Transform3D.rotation(angle: angle, x: r.x, y: r.y, z: r.z).concatenating(t)
        look.isDoubleSided = false   // Rotation3dOptions.isDoubleSided's default
    }
    if let r = o.translation3d {
        let x = min(max(r.ratios.0 * progress * w, r.minRatios.0 * w), r.maxRatios.0 * w)
        let y = min(max(r.ratios.1 * abs(progress) * h, r.minRatios.1 * h), r.maxRatios.1 * h)
        let z = min(max(r.ratios.2 * abs(progress) * w, r.minRatios.2 * w), r.maxRatios.2 * w)
        t = Transform3D.translation(x: x, y: y, z: z).concatenating(t)
    }
    look.transform = t
    return look
}

// MARK: - StackTransformView (Lib/Stack/…)

/// StackTransformViewOptions with the init's defaults (maxSpacing nil in every preset).
private struct StackOptions {
    var scaleFactor = 0.15
    var minScale: Double? = 0
    var maxScale: Double? = 1
    var maxStackSize = 3
    var spacingFactor = 0.03
    var alphaFactor = 0.0
    var bottomStackAlphaSpeedFactor = 0.9
    var topStackAlphaSpeedFactor = 0.3
    var perspectiveRatio = 0.0
    var stackRotateAngel = 0.0
    var popAngle = Double.pi / 7
    var popOffsetRatio = (width: -1.3, height: 0.3)
    var stackPosition = (x: 0.0, y: -1.0)
    var reverse = false
}

/// StackTransformViewOptions.Layout (Lib/Stack/StackTransformViewOptions+Layout.swift).
enum PagingStackPreset: String, CaseIterable, Sendable {
    case transparent, perspective, rotary, vortex, reverse, blur

    fileprivate var options: StackOptions {
        var o = StackOptions()
        switch self {
        case .transparent:
            (o.scaleFactor, o.minScale, o.maxStackSize, o.alphaFactor) = (0.12, 0, 4, 0.2)
            (o.bottomStackAlphaSpeedFactor, o.topStackAlphaSpeedFactor) = (10, 0.1)
            (o.popAngle, o.popOffsetRatio) = (.pi / 10, (-1.45, 0.3))
        case .perspective:
            (o.scaleFactor, o.minScale, o.maxStackSize, o.spacingFactor, o.alphaFactor) = (0.1, 0.2, 6, 0.08, 0)
            o.perspectiveRatio = 0.3
            (o.popAngle, o.popOffsetRatio, o.stackPosition) = (.pi / 10, (-1.45, 0.3), (1, 0))
        case .rotary:
            (o.scaleFactor, o.minScale, o.maxStackSize, o.spacingFactor, o.alphaFactor) = (-0.03, 0.2, 3, 0.01, 0.1)
            o.stackRotateAngel = .pi / 16
            (o.popAngle, o.popOffsetRatio, o.stackPosition) = (.pi / 4, (-1.45, 0.4), (0, 1))
        case .vortex:
            (o.scaleFactor, o.minScale, o.maxScale, o.maxStackSize) = (-0.15, 0.2, nil, 4)
            (o.spacingFactor, o.alphaFactor, o.topStackAlphaSpeedFactor, o.perspectiveRatio) = (0, 0.4, 1, -0.3)
            (o.popAngle, o.popOffsetRatio, o.stackPosition) = (.pi, (0, 0), (0, 1))
        case .reverse:
            (o.scaleFactor, o.maxScale, o.maxStackSize, o.spacingFactor) = (0.1, nil, 4, 0.08)
            (o.popAngle, o.popOffsetRatio, o.stackPosition, o.reverse) = (-.pi / 4, (1.45, 0.4), (-1, -0.2), true)
        case .blur:
            (o.scaleFactor, o.maxScale, o.maxStackSize, o.spacingFactor) = (0.1, nil, 7, 0.06)
            (o.topStackAlphaSpeedFactor, o.perspectiveRatio) = (0.1, 0.04)
            (o.popAngle, o.popOffsetRatio, o.stackPosition, o.reverse) = (-.pi / 4, (1.45, 0.4), (-1, 0), true)
        }
        return o
    }
}

/// StackTransformView.zPosition(progress:).
private func stackZPosition(_ o: StackOptions, progress: Double) -> Int {
    let z = -Int(progress.rounded())
    return o.reverse ? -z : z
}

/// applyScale, applyAlpha and applyRotation, on a w × h card.
private func stackLook(_ o: StackOptions, progress: Double, w: Double, h: Double) -> PageLook {
    let p = o.reverse ? -progress : progress
    var scale = 1 - p * o.scaleFactor
    if let low = o.minScale { scale = max(low, scale) }
    if let high = o.maxScale { scale = min(high, scale) }
    let stackSize = Double(o.maxStackSize)
    let perspectiveProgress = Curve.easeOut(interpolate(p, 0, stackSize)) * o.perspectiveRatio
    let translateX = w * o.spacingFactor * -max(p, 0) * -o.stackPosition.x
    let translateY = h * o.spacingFactor * -max(p, 0) * -o.stackPosition.y
    var yAdjustment = ((scale - 1) * h) / 2 + perspectiveProgress * h
    yAdjustment *= -o.stackPosition.y
    var xAdjustment = ((scale - 1) * w) / 2 + perspectiveProgress * w
    xAdjustment *= -o.stackPosition.x
    if p < 0 {
        xAdjustment -= w * o.popOffsetRatio.width * p
        yAdjustment -= h * o.popOffsetRatio.height * p
    }

    var alpha = 1.0
    if p >= stackSize - 1 {
        alpha = 1 - interpolate(p, stackSize - 1, stackSize - 1 + o.bottomStackAlphaSpeedFactor)
    } else if p < 0 {
        alpha = interpolate(p, -1, -1 + o.topStackAlphaSpeedFactor)
    }
    if alpha > 0, p >= 0 { alpha -= p * o.alphaFactor }

    var angle = 0.0
    if p <= 0 {
        angle = -interpolate(abs(p), 0, 1, out: 0, abs(o.popAngle))
        if o.popAngle < 0 { angle *= -1 }
    } else {
        let whole = Int(p)
        angle = -abs(p - Double(whole)) * o.stackRotateAngel * 2 + o.stackRotateAngel
        if whole % 2 == 0 { angle *= -1 }
        if p < 1 { angle += interpolate(1 - p, 0, 1, out: 0, o.stackRotateAngel) }
    }
    // .translatedBy(x:y:).scaledBy(x:y:).rotated(by:): rotation, then scale, then translation.
    let t = Transform3D.rotation(angle: angle, x: 0, y: 0, z: 1)
        .concatenating(.scale(x: scale, y: scale, z: 1))
        .concatenating(.translation(x: translateX + xAdjustment, y: translateY + yAdjustment, z: 0))
    return PageLook(transform: t, alpha: min(max(alpha, 0), 1))   // UIKit draws alpha within 0…1
}
