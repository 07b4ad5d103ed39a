/// Layouts written by hand from scripts, as an app developer would port them: the proof's
/// own check of its harness (the UIKit module, the driver, the comparison), independent of
/// the exporter.
enum HandWrittenLayouts {
    /// scripts/lol.lua by hand (`ABS` → `abs`, `MAXFLOAT` → `.greatestFiniteMagnitude`).
    static let lol = """
    import UIKit

    /// League of Legends skin picker, ported by hand.
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
            super.layoutAttributesForElements(in: rect)?.map { transformed($0.copy() as! UICollectionViewLayoutAttributes) }
        }

        override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
            (super.layoutAttributesForItem(at: indexPath)?.copy() as? UICollectionViewLayoutAttributes).map(transformed)
        }

        private func transformed(_ attributes: UICollectionViewLayoutAttributes) -> UICollectionViewLayoutAttributes {
            guard let collectionView, attributes.representedElementCategory == .cell else { return attributes }
            let visibleRect = collectionView.bounds
            let distance = visibleRect.midX - attributes.center.x
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
            attributes.transform3D = t
            attributes.zIndex = 1
            return attributes
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

    """
}
