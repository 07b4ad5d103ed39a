// The exported seeds against their native twins, per item (scripts/bench-export compiles
// this with the layouts `cardlua export` writes, against the test-only UIKit module).
//
// Per seed, at the same offsets of a 414 × 736 viewport with 20 items:
// - exported: the exported layout's layoutAttributesForElements(in:) — super's attributes
//   copied, then the translated transform on each — per item, queried many times at each
//   of eight offsets (the layout prepared once per offset);
// - UIKit part: a plain UICollectionViewFlowLayout with the same properties, invalidated
//   by every bounds change as the exported one is, its attributes copied as the export
//   copies them: what UIKit itself costs per item;
// - transform: the translated `transform` alone on the same cards (made internal for the
//   bench), per item, called as the exported query calls it: the bounds its prepare()
//   kept read once per query, then each card transformed (in a loop over the cards,
//   which costs a retain and a release per card that the query itself does not pay);
// - twin: the native Swift twin's transform (CardLayout's LeagueOfLegendsEffect, …) per
//   item on the same cards, in place, the figure the effect part is compared with;
// - hand-written: the same effect written by hand as a UIKit flow layout
//   (HandWritten.swift), its per-query effect on the same cards: what UIKit's class-based
//   attributes and the weakly held collection view, read once per query, cost a usual
//   hand-written layout.
// CPU time, the median of 7 rounds after a warm-up.
@_spi(UIKitShimDriver) import UIKit
import CardLayout
import SeedTwins
#if canImport(Glibc)
import Glibc
#endif

final class DataSource: NSObject, UICollectionViewDataSource, UICollectionViewDataSourceNumberOfSections {
    func numberOfSections(in collectionView: UICollectionView) -> Int { 1 }
    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { 20 }
    // Required, as in UIKit; the test-only collection view never asks for cells.
    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        UICollectionViewCell(frame: .zero)
    }
}

/// A flow layout with no effect that is invalidated by every bounds change, as the
/// exported layouts are: what UIKit itself does for them.
/// Its prepare() sets the same properties the exported prepare() sets, as often.
final class PlainLayout: UICollectionViewFlowLayout {
    var values: (CGSize, UICollectionView.ScrollDirection, UIEdgeInsets, CGFloat, CGFloat)?
    override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool { true }
    override func prepare() {
        super.prepare()
        guard let values else { return }
        itemSize = values.0
        scrollDirection = values.1
        sectionInset = values.2
        minimumLineSpacing = values.3
        minimumInteritemSpacing = values.4
    }
}

func cpuNanoseconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) * 1e9 + Double(t.tv_nsec)
}

/// The median over `rounds` of `body`'s nanoseconds per item (it returns the items done).
func median(rounds: Int = 7, _ body: () -> Int) -> Double {
    _ = body()
    var samples: [Double] = []
    for _ in 0..<rounds {
        let start = cpuNanoseconds()
        let items = body()
        samples.append((cpuNanoseconds() - start) / Double(max(items, 1)))
    }
    return samples.sorted()[samples.count / 2]
}

let viewport = CGSize(width: 414, height: 736)
let smoke = CommandLine.arguments.contains("--smoke")
let repeats = smoke ? 20 : 20_000

/// The exported layouts' translated `transform` and the bounds their `prepare()` keeps
/// (scripts/bench-export makes both internal). The seeds' transforms read the collection
/// view's bounds, which their caller passes in from `preparedBounds`.
@MainActor protocol Transforming: UICollectionViewFlowLayout {
    func transform(_ attributes: UICollectionViewLayoutAttributes, visibleBounds: CGRect)
    var preparedBounds: CGRect? { get }
}
extension LolLayout: Transforming {}
extension CardScaleLayout: Transforming {}
extension PhotoBrowserLayout: Transforming {}

@MainActor func measure(name: String, layout: some Transforming, twin: any Effect,
                        handWritten: some HandWrittenEffect) -> [String] {
    let dataSource = DataSource()
    let view = UICollectionView(frame: CGRect(origin: .zero, size: viewport), collectionViewLayout: layout)
    view.dataSource = dataSource
    view.layoutIfNeeded()
    let horizontal = layout.scrollDirection == .horizontal
    let extent = horizontal ? layout.collectionViewContentSize.width - viewport.width
                            : layout.collectionViewContentSize.height - viewport.height
    let offsets = (0..<8).map { CGFloat($0) * max(extent, 0) / 7 }
    func rect(_ offset: CGFloat) -> CGRect {
        CGRect(origin: horizontal ? CGPoint(x: offset, y: 0) : CGPoint(x: 0, y: offset), size: viewport)
    }

    // Each offset's bounds are set once, then queried many times: the layout is prepared
    // once per offset (UIKit prepares an invalidated layout before it queries it), so what
    // repeats is the query, the copies and the transforms.
    let exported = median {
        var items = 0
        for offset in offsets {
            let r = rect(offset)
            view.bounds = r
            view.layoutIfNeeded()
            for _ in 0..<repeats / offsets.count { items += layout.layoutAttributesForElements(in: r)?.count ?? 0 }
        }
        return items
    }

    // UIKit's part: the same flow layout without the effect, invalidated on every bounds
    // change as the exported one asks to be (shouldInvalidateLayout → true), its
    // attributes copied as the export copies them.
    let plain = PlainLayout()
    plain.values = (layout.itemSize, layout.scrollDirection, layout.sectionInset, layout.minimumLineSpacing,
                    layout.minimumInteritemSpacing)
    let plainView = UICollectionView(frame: CGRect(origin: .zero, size: viewport), collectionViewLayout: plain)
    plainView.dataSource = dataSource
    plainView.layoutIfNeeded()
    let uikit = median {
        var items = 0
        for offset in offsets {
            let r = rect(offset)
            plainView.bounds = r
            plainView.layoutIfNeeded()
            for _ in 0..<repeats / offsets.count {
                items += (plain.layoutAttributesForElements(in: r) ?? []).map { $0.copy() as! UICollectionViewLayoutAttributes }.count
            }
        }
        return items
    }

    // The twin: CardLayout's base attributes at the same offsets, transformed.
    var configuration = FlowLayoutConfiguration()
    try! twin.prepare(&configuration, viewportSize: Size(width: 414, height: 736), numberOfItemsInSections: [20])
    let flow = FlowLayout(configuration: configuration, viewportSize: Size(width: 414, height: 736),
                          numberOfItemsInSections: [20])
    let frames = offsets.map { offset -> (ScrollContext, [LayoutAttributes]) in
        let r = rect(offset)
        let bounds = Rect(x: Double(r.minX), y: Double(r.minY), width: 414, height: 736)
        return (ScrollContext(bounds: bounds, contentSize: flow.collectionViewContentSize),
                flow.layoutAttributesForElements(in: bounds))
    }
    // The twin transforms its arrays in place, made once as the exported side's cards are:
    // the effect alone, without a copy of its input (the exported side's copies are in
    // the UIKit part, not in its transform), offset by offset as the exported side goes.
    var arrays = frames.map { $0.1 }
    let native = median {
        var items = 0
        for i in frames.indices {
            for _ in 0..<repeats / frames.count {
                try! twin.transform(&arrays[i], layout: flow, context: frames[i].0)
                items += arrays[i].count
            }
        }
        return items
    }
    // The translated transform alone, on the same items at the same offsets.
    let cards = offsets.map { offset -> (CGRect, [UICollectionViewLayoutAttributes]) in
        let r = rect(offset)
        view.bounds = r
        view.layoutIfNeeded()
        return (r, layout.layoutAttributesForElements(in: r) ?? [])
    }
    let effect = median {
        var items = 0
        for (r, attributes) in cards {
            view.bounds = r
            view.layoutIfNeeded()
            for _ in 0..<repeats / cards.count {
                // As the exported layoutAttributesForElements(in:) does it: the bounds prepare()
                // kept, then each card. (This loop over an array pays a retain and a release
                // per card that the query, transforming each copy it holds, does not.)
                guard let visibleBounds = layout.preparedBounds ?? layout.collectionView?.bounds else { continue }
                for a in attributes { layout.transform(a, visibleBounds: visibleBounds) }
                items += attributes.count
            }
        }
        return items
    }
    // The hand-written UIKit layout's effect, on its own copies of the same cards.
    let handView = UICollectionView(frame: CGRect(origin: .zero, size: viewport), collectionViewLayout: handWritten)
    handView.dataSource = dataSource
    handView.layoutIfNeeded()
    let handCards = offsets.map { offset -> (CGRect, [UICollectionViewLayoutAttributes]) in
        let r = rect(offset)
        handView.bounds = r
        handView.layoutIfNeeded()
        return (r, handWritten.layoutAttributesForElements(in: r) ?? [])
    }
    let hand = median {
        var items = 0
        for (r, attributes) in handCards {
            handView.bounds = r
            for _ in 0..<repeats / handCards.count {
                handWritten.applyEffect(to: attributes)
                items += attributes.count
            }
        }
        return items
    }
    // The hand-written layout must be the same effect: its cards equal the exported ones.
    for ((_, mine), (_, theirs)) in zip(handCards, cards) {
        precondition(mine.count == theirs.count, "\(name): the hand-written layout shows other cards")
        for (a, b) in zip(mine, theirs) {
            let d = [a.transform3D.m11 - b.transform3D.m11, a.transform3D.m22 - b.transform3D.m22,
                     a.transform3D.m13 - b.transform3D.m13, a.transform3D.m31 - b.transform3D.m31,
                     a.transform3D.m33 - b.transform3D.m33, a.transform3D.m34 - b.transform3D.m34,
                     a.center.x - b.center.x, CGFloat(a.zIndex - b.zIndex)].map { abs($0) }.max()!
            precondition(d < 1e-9, "\(name): the hand-written layout differs from the exported one by \(d)")
        }
    }
    func ns(_ x: Double) -> String { String(format: "%.1f", x) }
    func ratio(_ x: Double) -> String { String(format: "%.2f×", x) }
    return [name, ns(exported), ns(uikit), ns(effect), ns(native), ratio(effect / native), ns(hand), ratio(effect / hand)]
}

@MainActor func main() {
    let rows = [
        measure(name: "lol", layout: LolLayout(), twin: LeagueOfLegendsEffect(), handWritten: HandWrittenLolLayout()),
        measure(name: "card-scale", layout: CardScaleLayout(), twin: CardScaleEffect(),
                handWritten: HandWrittenCardScaleLayout()),
        measure(name: "photo-browser", layout: PhotoBrowserLayout(), twin: PhotoBrowserEffect(),
                handWritten: HandWrittenPhotoBrowserLayout()),
    ]
    let header = ["seed", "exported ns/item", "UIKit part", "transform", "native twin", "transform / twin",
                  "hand-written", "transform / hand"]
    let widths = [14, 17, 11, 10, 12, 17, 13, 17]
    func line(_ cells: [String]) -> String {
        zip(cells, widths).enumerated().map { i, pair in
            i == 0 ? pair.0.padding(toLength: pair.1, withPad: " ", startingAt: 0)
                   : String(repeating: " ", count: max(0, pair.1 - pair.0.count)) + pair.0
        }.joined(separator: " ")
    }
    print(line(header))
    for row in rows { print(line(row)) }
    if smoke { print("smoke run: tiny counts, the figures mean nothing") }
}

MainActor.assumeIsolated { main() }
