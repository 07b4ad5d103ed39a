// scripts/lol.lua ported by hand to UIKit, as an app developer would (`ABS` → `abs`,
// `MAXFLOAT` → `.greatestFiniteMagnitude`). One file, two uses: scripts/bench-export
// compiles it as the LoL benchmark's hand-written twin (HandWritten.swift), and the export
// proof (Tests/CardExportTests) compiles it on its own, as the check of its own harness
// that does not go through the exporter, so it must stay a self-contained file.
import UIKit

/// League of Legends skin picker, ported by hand: cards turn about y up to 35° at 200
/// points from the centre; a fling snaps to the card nearest the centre.
final class HandWrittenLolLayout: UICollectionViewFlowLayout {
    private static let activeDistance: CGFloat = 200
    private static let rotate: CGFloat = 35.0 * .pi / 180.0

    override func prepare() {
        super.prepare()
        guard let collectionView else { return }
        let size = collectionView.bounds.size
        itemSize = CGSize(width: 300 * size.width / 414, height: 500 * size.height / 736)
        scrollDirection = .horizontal
        sectionInset = UIEdgeInsets(top: 200, left: 50.0, bottom: 200, right: 50.0)
        minimumLineSpacing = 0.0
    }

    override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool { true }

    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        let attributes = (super.layoutAttributesForElements(in: rect) ?? []).map { $0.copy() as! UICollectionViewLayoutAttributes }
        applyEffect(to: attributes)
        return attributes
    }

    override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        guard let attributes = super.layoutAttributesForItem(at: indexPath)?.copy() as? UICollectionViewLayoutAttributes else {
            return nil
        }
        applyEffect(to: [attributes])
        return attributes
    }

    /// The effect on one query's attributes (copies), changed in place. The collection
    /// view's bounds are read once per query, not per card (the benchmark times this).
    func applyEffect(to attributes: [UICollectionViewLayoutAttributes]) {
        guard let visibleRect = collectionView?.bounds else { return }
        for card in attributes where card.representedElementCategory == .cell {
            let distance = visibleRect.midX - card.center.x
            var t = CATransform3DIdentity
            t.m34 = 1.0 / 600
            if abs(distance) < Self.activeDistance {
                let normalizedDistance = distance / Self.activeDistance
                let zoom = Self.rotate * normalizedDistance
                t = CATransform3DRotate(t, -zoom, 0.0, 1.0, 0.0)
            } else if distance > 0 {
                t = CATransform3DRotate(t, -Self.rotate, 0.0, 1.0, 0.0)
            } else {
                t = CATransform3DRotate(t, Self.rotate, 0.0, 1.0, 0.0)
            }
            card.transform3D = t
            card.zIndex = 1
        }
    }

    override func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint,
                                      withScrollingVelocity velocity: CGPoint) -> CGPoint {
        guard let collectionView else { return proposedContentOffset }
        var offsetAdjustment = CGFloat.greatestFiniteMagnitude
        let bounds = collectionView.bounds
        let horizontalCenter = proposedContentOffset.x + bounds.width / 2.0
        let targetRect = CGRect(x: proposedContentOffset.x, y: 0, width: bounds.width, height: bounds.height)
        for layoutAttributes in super.layoutAttributesForElements(in: targetRect) ?? [] {
            let itemHorizontalCenter = layoutAttributes.center.x
            if abs(itemHorizontalCenter - horizontalCenter) < abs(offsetAdjustment) {
                offsetAdjustment = itemHorizontalCenter - horizontalCenter
            }
        }
        return CGPoint(x: proposedContentOffset.x + offsetAdjustment, y: proposedContentOffset.y)
    }
}
