// The test-only `UIKit` module: the slice of UIKit, QuartzCore and CoreGraphics that
// `cardlua export` emits (docs/export.md lists it), declared with the iOS 17 SDK's Swift
// signatures and isolation and implemented over CardLayout, so that the export tests can
// compile an exported layout on Linux and drive it as UIKit would.
//
// Rules this module keeps:
// - Every public declaration exists in the iOS SDK with this spelling, type, isolation and
//   `open`-ness (each file names where its signatures come from). A declaration UIKit lacks
//   would let exported code compile here and fail in Xcode: a defect.
// - Three deliberate deviations, all stricter or invisible to exported code, are noted where
//   they are made: `UICollectionViewLayoutAttributes.init()` is `required` (UIKit makes
//   `layoutAttributesClass` instances through the Objective-C runtime), the optional
//   protocol methods are modelled with `@_spi(UIKitShimDriver)` protocols (Linux Swift has
//   no `@objc optional`), and `dequeueReusableCell(withReuseIdentifier:for:)` hands out a
//   plain `UICollectionViewCell` (the collection view never asks its data source for cells).
// - What only the test driver needs (setting the collection view's layout
//   direction, asking a delegate for an optional method) is `@_spi(UIKitShimDriver)`:
//   exported code, which imports plain `UIKit`, cannot see it.
@_exported import Foundation
