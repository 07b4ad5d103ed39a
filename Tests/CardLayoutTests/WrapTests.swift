import Foundation
import Testing
@testable import CardLayout

// The fixture, computed by hand: a horizontal carousel in a 400×600 viewport, items
// 200×300, minimumLineSpacing 50, top/bottom insets 150 (one item per column), no
// left/right inset. Item i spans x = 250·i … 250·i + 200; the period is
// n·(200 + 50) = 4·250 = 1000 for 4 items. Item i is centred at offset 250·i + 100 − 200.

private final class WrapEffect: Effect {
    /// Items are `widthFraction` of the viewport's width wide.
    let widthFraction: Double?
    let paging: Bool
    var proposals: [Double] = []
    /// Added to the proposal by `targetContentOffset`.
    let nudge: Double

    init(widthFraction: Double? = nil, paging: Bool = false, nudge: Double = 0) {
        self.widthFraction = widthFraction
        self.paging = paging
        self.nudge = nudge
    }

    func prepare(_ configuration: inout FlowLayoutConfiguration, viewportSize: Size) throws {
        configuration.scrollDirection = .horizontal
        configuration.itemSize = Size(width: widthFraction.map { viewportSize.width * $0 } ?? 200, height: 300)
        configuration.minimumLineSpacing = 50
        let vertical = (viewportSize.height - 300) / 2
        configuration.sectionInset = CardEdgeInsets(top: vertical, left: 0, bottom: vertical, right: 0)
        configuration.isPagingEnabled = paging
        configuration.wraps = true
    }

    func transform(_ attributes: inout [LayoutAttributes], layout: some BaseLayoutProviding, context: ScrollContext) throws {}

    func targetContentOffset(proposed: Point, velocity: Point, layout: some BaseLayoutProviding,
                             context: ScrollContext) throws -> Point {
        proposals.append(proposed.x)
        return Point(x: proposed.x + nudge, y: 0)
    }
}

private func configuration(itemWidth: Double = 200, inset: CardEdgeInsets? = nil) -> FlowLayoutConfiguration {
    var c = FlowLayoutConfiguration()
    c.scrollDirection = .horizontal
    c.itemSize = Size(width: itemWidth, height: 300)
    c.minimumLineSpacing = 50
    c.sectionInset = inset ?? CardEdgeInsets(top: 150, left: 0, bottom: 150, right: 0)
    c.wraps = true
    return c
}

private let viewport = Size(width: 400, height: 600)

private func layout(_ c: FlowLayoutConfiguration = configuration(), items: Int = 4,
                    sizes: [Double]? = nil) -> FlowLayout {
    FlowLayout(configuration: c, viewportSize: viewport, numberOfItemsInSections: [items],
               sizeForItem: sizes.map { widths in { Size(width: widths[$0.item], height: 300) } })
}

/// (item, frame x) of every item meeting the viewport at `offset`, in query order.
private func visible(_ l: FlowLayout, at offset: Double, width: Double = 400) -> [[Double]] {
    l.layoutAttributesForElements(in: Rect(x: offset, y: 0, width: width, height: 600))
        .map { [Double($0.indexPath.item), $0.frame.minX] }
}

@Suite struct WrapLayoutTests {
    @Test func periodOfACarouselIsNItemPitches() {
        #expect(layout().wrapPeriod == 1000)          // 4 × (200 + 50)
        #expect(layout(items: 7).wrapPeriod == 1750)  // 7 × 250
        // Content size stays the unrepeated content: 4·200 + 3·50.
        #expect(layout().collectionViewContentSize.width == 950)
        var unwrapped = configuration()
        unwrapped.wraps = false
        #expect(layout(unwrapped).wrapPeriod == nil)
        #expect(layout(items: 0).wrapPeriod == nil)   // nothing to repeat
    }

    @Test func offsetJustBelowZeroShowsTheLastItemAtNegativeX() {
        // Rect −60…340: item 3 of repetition −1 spans −250…−50; items 0 and 1 follow.
        #expect(visible(layout(), at: -60) == [[3, -250], [0, 0], [1, 250]])
        // Rect −300…100: item 2 of repetition −1 ends exactly at −300 (touching, not meeting).
        #expect(visible(layout(), at: -300) == [[3, -250], [0, 0]])
        // Rect −1300…−900: item 3 two periods back (750 − 2000), item 0 one period back;
        // item 2 two periods back ends exactly at −1300.
        #expect(visible(layout(), at: -1300) == [[3, -1250], [0, -1000]])
    }

    @Test func offsetBeyondOnePeriodShowsItemZeroAgain() {
        // Rect 1100…1500: item 0 at 0 + 1000 → 1000…1200, item 1 at 1250; item 2 starts at 1500.
        #expect(visible(layout(), at: 1100) == [[0, 1000], [1, 1250]])
        // Rect 90000…90400: 90000 = 90 periods; item 0 at 90000, item 1 at 90250.
        #expect(visible(layout(), at: 90000) == [[0, 90000], [1, 90250]])
    }

    @Test func aViewportWiderThanAPeriodShowsAnItemTwice() {
        // Rect 0…1100: items 0–3 of repetition 0, then item 0 again at 1000.
        #expect(visible(layout(), at: 0, width: 1100) == [[0, 0], [1, 250], [2, 500], [3, 750], [0, 1000]])
        var seen: [Double] = []
        layout().forEachItem(in: Rect(x: 0, y: 0, width: 1100, height: 600)) { seen.append($0.frame.minX) }
        #expect(seen == [0, 250, 500, 750, 1000])
    }

    @Test func perItemSizesPeriodIsTheSumOfExtentsAndSpacings() {
        // Widths 100, 200, 300 with 50 between: 600 + 3·50 = 750.
        let l = layout(items: 3, sizes: [100, 200, 300])
        #expect(l.wrapPeriod == 750)
        // Item 2 spans 400…700; rect 700…800 meets only item 0 of repetition 1 (750…850).
        #expect(visible(l, at: 700, width: 100) == [[0, 750]])
        // Rect −100…0: item 2 of repetition −1 spans −350…−50.
        #expect(visible(l, at: -100, width: 100) == [[2, -350]])
    }

    @Test func outerInsetsAreNotPartOfThePeriodButHeadersAre() {
        // Left inset 100, right 70: items at 100 + 250·i, period still 4·250.
        let inset = CardEdgeInsets(top: 150, left: 100, bottom: 150, right: 70)
        let l = layout(configuration(inset: inset))
        #expect(l.wrapPeriod == 1000)
        #expect(visible(l, at: -200) == [[3, -150], [0, 100]])
        // A 40-wide header: header 0…40, inset 100, items 140…1090; period 1090 + 50.
        var c = configuration(inset: inset)
        c.headerReferenceSize = Size(width: 40, height: 0)
        let headed = layout(c)
        #expect(headed.wrapPeriod == 1140)
        let headers = headed.supplementaryFrames(in: Rect(x: 1100, y: 0, width: 100, height: 600))
        #expect(headers.map(\.frame.minX) == [1140])
    }

    @Test func verticalLayoutsWrapAlongY() {
        // The fixture turned: 600×400 viewport, items 300×200, left/right insets 150.
        var c = FlowLayoutConfiguration()
        c.scrollDirection = .vertical
        c.itemSize = Size(width: 300, height: 200)
        c.minimumLineSpacing = 50
        c.sectionInset = CardEdgeInsets(top: 0, left: 150, bottom: 0, right: 150)
        c.wraps = true
        let l = FlowLayout(configuration: c, viewportSize: Size(width: 600, height: 400), numberOfItemsInSections: [4])
        #expect(l.wrapPeriod == 1000)
        let shown = l.layoutAttributesForElements(in: Rect(x: 0, y: -60, width: 600, height: 400))
        #expect(shown.map { [Double($0.indexPath.item), $0.frame.minX, $0.frame.minY] }
                == [[3, 150, -250], [0, 150, 0], [1, 150, 250]])
    }

    @Test func queriesStayBoundedOverHugeRects() {
        let l = layout()
        // Millions of periods: the limited query stops past its limit.
        #expect(l.layoutAttributesForElements(in: Rect(x: -1e9, y: 0, width: 2e9, height: 600), limit: 10) == nil)
        // A rect across the scroll axis that misses every item (y 460…600, items at 150…450)
        // meets none, however long.
        #expect(l.layoutAttributesForElements(in: Rect(x: -1e12, y: 460, width: 2e12, height: 140)).isEmpty)
    }
}

@Suite struct WrapScrollTests {
    private func run(_ effect: WrapEffect, _ steps: [ScenarioStep], fps: Double = 60) throws -> Timeline {
        try ScenarioRunner(effect: effect, scriptName: "wrap")
            .run(Scenario(name: "wrap", viewportSize: viewport, numberOfItems: [4], framesPerSecond: fps,
                          steps: steps))
    }

    @Test func flingBackwardsFromZeroEndsAtANegativeTargetUnclamped() throws {
        let effect = WrapEffect()
        let timeline = try run(effect, [.jump(offset: 0), .fling(velocity: -2)])
        // x_stop = 0 + (−2 + 0.01)·0.998/0.002 = −1.99·499 = −993.01.
        let expected = -993.01
        #expect(abs(effect.proposals[0] - expected) < 1e-9)
        #expect(abs(timeline.snaps[0].targetContentOffset.x - expected) < 1e-9)
        #expect(abs(timeline.frames.last!.contentOffset.x - expected) < 1e-9)
        // No bounce: the content only ever moves backwards.
        let offsets = timeline.frames.map(\.contentOffset.x)
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $1 <= $0 })
        #expect(timeline.frames.last!.phase == .idle)
    }

    @Test func theEffectGetsUnboundedProposalsAndItsAnswerIsUsed() throws {
        let effect = WrapEffect(nudge: 7)
        let timeline = try run(effect, [.jump(offset: 90000), .fling(velocity: 3),
                                        .jump(offset: -3000), .fling(velocity: -1)])
        // 90000 + 2.99·499 = 91492.01, answered + 7; −3000 − 0.99·499 = −3494.01.
        #expect(abs(effect.proposals[0] - 91492.01) < 1e-9)
        #expect(abs(effect.proposals[1] - -3494.01) < 1e-9)
        #expect(abs(timeline.snaps[0].targetContentOffset.x - 91499.01) < 1e-9)
        #expect(abs(timeline.frames.last!.contentOffset.x - -3487.01) < 1e-9)
    }

    @Test func scrollToItemTakesTheShorterWayRound() throws {
        // Item 3 centred at 650; item 0 centres at −100 + 1000k: 900 is 250 ahead, −100 is 750 behind.
        let timeline = try run(WrapEffect(), [.jump(offset: 650), .scrollToItem(CardIndexPath(item: 0, section: 0),
                                                                                  duration: 0.2)])
        #expect(timeline.frames.last!.contentOffset.x == 900)
        let offsets = timeline.frames.map(\.contentOffset.x)
        #expect(offsets.allSatisfy { $0 >= 650 && $0 <= 900 })
        // From 400, item 0 is 500 either way (−100 or 900): the tie goes forward.
        let tie = try run(WrapEffect(), [.jump(offset: 400), .scrollToItem(CardIndexPath(item: 0, section: 0),
                                                                             duration: 0)])
        #expect(tie.frames.last!.contentOffset.x == 900)
        // From −1350 (item 3 of repetition −2), item 2 centres at 400 − 2000 = −1600 (250 back)
        // or at −600 (750 ahead): back.
        let back = try run(WrapEffect(), [.jump(offset: -1350), .scrollToItem(CardIndexPath(item: 2, section: 0),
                                                                                duration: 0)])
        #expect(back.frames.last!.contentOffset.x == -1600)
    }

    @Test func pagingIsUnboundedMultiplesOfTheViewport() throws {
        let effect = WrapEffect(paging: true)
        // Each fast release turns one 400-pt page: 0 → −400 → −800, then 5 pages forward one by one.
        var steps: [ScenarioStep] = [.jump(offset: 0), .fling(velocity: -1), .fling(velocity: -1)]
        let t1 = try run(effect, steps)
        #expect(t1.snaps.map(\.targetContentOffset.x) == [-400, -800])
        #expect(t1.frames.last!.contentOffset.x == -800)
        #expect(effect.proposals.isEmpty)   // paging never asks the effect
        steps = [.jump(offset: 2000), .fling(velocity: 1)]
        #expect(try run(effect, steps).frames.last!.contentOffset.x == 2400)
    }

    @Test func resizeKeepsTheCentredItemInItsRepetition() throws {
        // Items half the viewport wide. At 400: 200 wide, item 3 of repetition −2 centred at
        // 850 − 2000 = −1150, offset −1350. At 600×600: 300 wide, pitch 350, period 1400, item 3
        // centred at 1200 − 2800 = −1600, offset −1600 − 300 = −1900.
        let timeline = try run(WrapEffect(widthFraction: 0.5), [.jump(offset: -1350), .resize(Size(width: 600,
                                                                                                    height: 600))])
        #expect(timeline.frames.last!.contentOffset.x == -1900)
        #expect(timeline.frames.last!.items.contains { $0.indexPath.item == 3 && $0.center.x == -1600 })
    }

    @Test func dragsDoNotRubberBand() throws {
        // 30 frames over 0.5 s at 60 fps, 1:1 with the finger: frame k at −500·k/30.
        let timeline = try run(WrapEffect(), [.jump(offset: 0), .drag(by: -500, duration: 0.5, velocity: 0)])
        let dragging = timeline.frames.filter { $0.phase == .dragging }.map(\.contentOffset.x)
        #expect(dragging.count == 30)
        #expect(abs(dragging[14] - -250) < 1e-9)
        #expect(dragging.last == -500)
        #expect(timeline.frames.last!.contentOffset.x == -500)   // no spring back to 0
    }

    @Test func liveSessionsHaveNoEdges() throws {
        let live = try InteractiveScrollView(effect: WrapEffect(), viewportSize: viewport, numberOfItems: [4])
        try live.touchDown(at: 0)
        try live.drag(to: Point(x: 500, y: 0), at: 0.1)       // finger right: content to −500
        #expect(live.state.contentOffset.x == -500)
        try live.release(velocity: Point(x: 2, y: 0), at: 0.1)  // content velocity −2
        // −500 − 1.99·499 = −1493.01, no clamp.
        #expect(abs(live.lastSnap!.targetContentOffset.x - -1493.01) < 1e-9)
        #expect(abs(live.state(at: 10).contentOffset.x - -1493.01) < 1e-9)
        try live.scroll(byWheel: Point(x: -5000, y: 0), at: 11)
        #expect(abs(live.state.contentOffset.x - -6493.01) < 1e-9)
    }

    @Test func theDemoCrossesTheSeamBothWays() throws {
        let timeline = try ScenarioRunner(effect: WrapEffect(), scriptName: "wrap")
            .runDemo(viewportSize: viewport, numberOfItems: [4])
        let offsets = timeline.frames.map(\.contentOffset.x)
        // Backwards past 0 and forwards past one period (1000) later on.
        let lowest = try #require(offsets.indices.min { offsets[$0] < offsets[$1] })
        #expect(offsets[lowest] < 0)
        #expect(offsets[lowest...].contains { $0 > 1000 })
        #expect(timeline.snaps.count == 4)
        // Item 3 shows at a negative x in some frame.
        #expect(timeline.frames.contains { $0.items.contains { $0.indexPath.item == 3 && $0.frame.minX < 0 } })
    }
}
