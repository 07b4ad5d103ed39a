// The seeds' effects as a developer writes them by hand for UIKit, from the scripts'
// formulas (scripts/lol.lua in HandWrittenLol.swift, card-scale.lua, photo-browser.lua;
// the SeedTwins module's SeedEffects.swift): UICollectionViewFlowLayout subclasses on
// UIKit's class-based attributes, reading the collection view once per query, not per
// card, and transforming the copies in a second loop (the common idiom, and what the
// exporter wrote until it kept the bounds from prepare() and fused the loops; see
// docs/benchmark-history.md). The benchmark's second twin: what the same effect costs a usual UIKit
// layout, beside the struct twin given its visible rect.
import UIKit

/// A hand-written layout's effect on one query's attributes (copies), changed in place.
@MainActor protocol HandWrittenEffect: UICollectionViewFlowLayout {
    func applyEffect(to attributes: [UICollectionViewLayoutAttributes])
}

/// Invalidated by every bounds change, as the exported layouts are.
class HandWrittenLayout: UICollectionViewFlowLayout {
    override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool { true }
}

/// The League of Legends picker: its own file (HandWrittenLol.swift), which the export
/// proof compiles on its own too.
extension HandWrittenLolLayout: HandWrittenEffect {}

/// The card layout: each card scaled by |cos(distance / width · π/4)|.
final class HandWrittenCardScaleLayout: HandWrittenLayout, HandWrittenEffect {
    override func prepare() {
        super.prepare()
        guard let collectionView else { return }
        let size = collectionView.bounds.size
        let cellWidth = size.width * 0.7
        let margin = (size.width - cellWidth) / 2
        scrollDirection = .horizontal
        sectionInset = UIEdgeInsets(top: 0, left: margin, bottom: 0, right: margin)
        minimumLineSpacing = (size.width - cellWidth) / 7
        itemSize = CGSize(width: cellWidth, height: size.height * 0.75)
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        let attributes = (super.layoutAttributesForElements(in: rect) ?? []).map { $0.copy() as! UICollectionViewLayoutAttributes }
        applyEffect(to: attributes)
        return attributes
    }

    func applyEffect(to attributes: [UICollectionViewLayoutAttributes]) {
        guard let bounds = collectionView?.bounds else { return }
        let centerX = bounds.minX + bounds.width / 2
        for card in attributes {
            let scale = abs(cos(abs(card.center.x - centerX) / bounds.width * (.pi / 4)))
            card.transform = CGAffineTransform(scaleX: scale, y: scale)
        }
    }
}

/// The photo browser: scale = 1 − distance / (W/2) · 0.3.
final class HandWrittenPhotoBrowserLayout: HandWrittenLayout, HandWrittenEffect {
    override func prepare() {
        super.prepare()
        guard let collectionView else { return }
        let size = collectionView.bounds.size
        let side = size.width * 0.6
        let inset = (size.width - side) / 2
        let vertical = max(0, (size.height - side) / 2)
        scrollDirection = .horizontal
        itemSize = CGSize(width: side, height: side)
        sectionInset = UIEdgeInsets(top: vertical, left: inset, bottom: vertical, right: inset)
        minimumLineSpacing = 20
    }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        let attributes = (super.layoutAttributesForElements(in: rect) ?? []).map { $0.copy() as! UICollectionViewLayoutAttributes }
        applyEffect(to: attributes)
        return attributes
    }

    func applyEffect(to attributes: [UICollectionViewLayoutAttributes]) {
        guard let bounds = collectionView?.bounds else { return }
        let half = bounds.width * 0.5
        for card in attributes {
            let scale = 1 - abs(card.center.x - bounds.minX - half) / half * 0.3
            card.transform = CGAffineTransform(scaleX: scale, y: scale)
        }
    }
}
