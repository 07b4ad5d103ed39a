import Foundation

/// The test driver compiled with the exported layouts: for one layout class it plays a
/// recorded run as UIKit would (a `UICollectionView` of the viewport's size with a data
/// source for the item counts, the exported layout, the bounds set frame by frame with
/// `prepare()` after an invalidation) and writes what the layout answers.
///
/// Input, one event a line: `items N…` (the counts per section, first), `rtl` (right to
/// left: the collection view's effective layout direction), `frame X Y W H`
/// (the visible rect), `release X Y W H PX PY VX VY` (the visible rect at the release, the
/// proposal, the velocity in points per millisecond). Output: `frame N` and N lines
/// `section item x y w h cx cy m11…m44 alpha zIndex hidden cornerRadius shadowOpacity
/// shadowRadius shadowOffsetW shadowOffsetH red green blue alpha blurRadius doubleSided` (the
/// cells, in the layout's order; the appearance is the attributes subclass's, or its
/// defaults — CALayer's — for a layout without one, and a colour of −1s for none), then `supplementary N` and N lines `kind section x y w h m11…m44 alpha` (the
/// headers, kind 0, and footers, kind 1), or `release X Y`. Numbers are Swift's shortest round-trip spelling.
///
/// `driver CLASS INPUT OUTPUT` plays one run; `driver --jobs FILE` plays every run FILE
/// lists (`CLASS\tINPUT\tOUTPUT` a line) in one process, each with a layout and a view of
/// its own, writing each output as it finishes: one launch instead of one per run (a
/// launch of the sanitized driver costs more than most runs).
enum ProofDriver {
    /// One exported layout: its class name and what the driver must wire up.
    struct Layout {
        var className: String
        /// UICollectionViewDelegateFlowLayout methods the export declares on the layout
        /// (the app's delegate calls them): the SPI protocols the forwarding delegate adopts.
        var delegateMethods: [DelegateMethod]
        /// The export's attributes subclass (the appearance fields), if it has one.
        var attributesClass: String?
    }

    /// A UICollectionViewDelegateFlowLayout method an exported layout may declare.
    struct DelegateMethod {
        var shimProtocol: String
        var signature: String
        var call: String

        static let all = [
            DelegateMethod(shimProtocol: "UICollectionViewDelegateFlowLayoutSizeForItem",
                           signature: "sizeForItemAt indexPath: IndexPath) -> CGSize", call: "sizeForItemAt: indexPath"),
            DelegateMethod(shimProtocol: "UICollectionViewDelegateFlowLayoutInsetForSection",
                           signature: "insetForSectionAt section: Int) -> UIEdgeInsets", call: "insetForSectionAt: section"),
            DelegateMethod(shimProtocol: "UICollectionViewDelegateFlowLayoutHeaderSize",
                           signature: "referenceSizeForHeaderInSection section: Int) -> CGSize",
                           call: "referenceSizeForHeaderInSection: section"),
            DelegateMethod(shimProtocol: "UICollectionViewDelegateFlowLayoutFooterSize",
                           signature: "referenceSizeForFooterInSection section: Int) -> CGSize",
                           call: "referenceSizeForFooterInSection: section"),
        ]
    }

    /// The layout's description from its exported text.
    static func layout(className: String, exportedSource: String) -> Layout {
        let compact = exportedSource.replacingOccurrences(of: "\n", with: " ")
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            .replacingOccurrences(of: " )", with: ")")  // a long signature's `)` on its own line
        let subclass = "\(className)Attributes"
        return Layout(className: className,
                      delegateMethods: DelegateMethod.all.filter { compact.contains($0.signature) },
                      attributesClass: compact.contains("final class \(subclass): UICollectionViewLayoutAttributes")
                        ? subclass : nil)
    }

    /// The drivers' data source (this one's and MotionProof's): the item counts per section.
    static let dataSourceDeclaration = """
        final class ProofDataSource: NSObject, UICollectionViewDataSource, UICollectionViewDataSourceNumberOfSections {
            let counts: [Int]
            init(counts: [Int]) { self.counts = counts }
            func numberOfSections(in collectionView: UICollectionView) -> Int { counts.count }
            func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
                counts[section]
            }
            // Required by the protocol; the shim's collection view never asks for cells.
            func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
                UICollectionViewCell(frame: .zero)
            }
        }
        """

    /// main.swift for `layouts`.
    static func mainSource(for layouts: [Layout]) -> String {
        var text = """
        // The export proof's driver (generated by Tests/CardExportTests/Proof/ProofDriver.swift).
        @_spi(UIKitShimDriver) import UIKit

        \(dataSourceDeclaration)

        final class ProofPlainDelegate: NSObject, UICollectionViewDelegateFlowLayout {}

        /// The appearance an export's attributes subclass carries (CALayer's names).
        @MainActor protocol ProofAppearance: AnyObject {
            var cornerRadius: CGFloat { get }
            var shadowOpacity: CGFloat { get }
            var shadowRadius: CGFloat { get }
            var shadowOffset: CGSize { get }
            var backgroundColor: UIColor? { get }
            var blurRadius: CGFloat { get }
            var isDoubleSided: Bool { get }
        }


        """
        for layout in layouts where !layout.delegateMethods.isEmpty {
            text += "final class \(layout.className)ProofDelegate: NSObject, UICollectionViewDelegateFlowLayout"
            text += layout.delegateMethods.map { ", " + $0.shimProtocol }.joined() + " {\n"
            for method in layout.delegateMethods {
                text += "    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout, \(method.signature) {\n"
                text += "        (collectionViewLayout as! \(layout.className)).collectionView(collectionView, layout: collectionViewLayout, \(method.call))\n"
                text += "    }\n"
            }
            text += "}\n\n"
        }
        for layout in layouts {
            if let subclass = layout.attributesClass { text += "extension \(subclass): ProofAppearance {}\n" }
        }
        text += "\n"
        text += "let registry: [String: @MainActor () -> (UICollectionViewFlowLayout, any UICollectionViewDelegate)] = [\n"
        for layout in layouts {
            let delegate = layout.delegateMethods.isEmpty ? "ProofPlainDelegate()" : "\(layout.className)ProofDelegate()"
            text += "    \"\(layout.className)\": { (\(layout.className)(), \(delegate)) },\n"
        }
        if layouts.isEmpty { text += "    :\n" }
        text += "]\n"
        text += """

        func number(_ value: CGFloat) -> String { "\\(Double(value))" }

        /// The appearance fields of a cell's attributes (CALayer's defaults without a subclass).
        @MainActor func appearance(_ a: UICollectionViewLayoutAttributes) -> [CGFloat] {
            guard let s = a as? ProofAppearance else { return [0, 0, 3, 0, -3, -1, -1, -1, -1, 0, 1] }
            let rgba = s.backgroundColor?.cgColor.components ?? [-1, -1, -1, -1]
            return [s.cornerRadius, s.shadowOpacity, s.shadowRadius, s.shadowOffset.width, s.shadowOffset.height]
                + rgba + [s.blurRadius, s.isDoubleSided ? 1 : 0]
        }

        @MainActor func play(_ className: String, input inputPath: String, output outputPath: String) throws {
        guard let make = registry[className] else {
            print("driver: no layout \\(className)")
            exit(2)
        }
        let input = try String(contentsOfFile: inputPath, encoding: .utf8)
        let (layout, delegate) = make()
        var dataSource = ProofDataSource(counts: [])
        var view: UICollectionView?
        var rightToLeft = false
        var output = ""
        for line in input.split(separator: "\\n") {
            let fields = line.split(separator: " ")
            if fields[0] == "items" {
                dataSource = ProofDataSource(counts: fields.dropFirst().map { Int(String($0))! })
                continue
            }
            if fields[0] == "rtl" {
                rightToLeft = true
                continue
            }
            let n = fields.dropFirst().map { CGFloat(Double(String($0))!) }
            let bounds = CGRect(x: n[0], y: n[1], width: n[2], height: n[3])
            if view == nil {
                // As an app's: shown at offset 0 first, prepared there.
                let created = UICollectionView(frame: CGRect(origin: .zero, size: bounds.size), collectionViewLayout: layout)
                created.dataSource = dataSource
                created.delegate = delegate
                if rightToLeft { created.setEffectiveUserInterfaceLayoutDirection(.rightToLeft) }
                created.layoutIfNeeded()
                view = created
            }
            let collectionView = view!
            collectionView.bounds = bounds
            collectionView.layoutIfNeeded()
            if fields[0] == "release" {
                let target = layout.targetContentOffset(forProposedContentOffset: CGPoint(x: n[4], y: n[5]),
                                                        withScrollingVelocity: CGPoint(x: n[6], y: n[7]))
                output += "release \\(number(target.x)) \\(number(target.y))\\n"
                continue
            }
            let cells = (layout.layoutAttributesForElements(in: collectionView.bounds) ?? [])
                .filter { $0.representedElementCategory == .cell }
            output += "frame \\(cells.count)\\n"
            for a in cells {
                let t = a.transform3D
                let values = [a.frame.minX, a.frame.minY, a.frame.width, a.frame.height, a.center.x, a.center.y,
                              t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                              t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44, a.alpha]
                output += "\\(a.indexPath.section) \\(a.indexPath.item) " + values.map(number).joined(separator: " ")
                output += " \\(a.zIndex) \\(a.isHidden ? 1 : 0) " + appearance(a).map(number).joined(separator: " ") + "\\n"
            }
            let views = (layout.layoutAttributesForElements(in: collectionView.bounds) ?? [])
                .filter { $0.representedElementCategory == .supplementaryView }
            output += "supplementary \\(views.count)\\n"
            for a in views {
                let t = a.transform3D
                let kind = a.representedElementKind == UICollectionView.elementKindSectionHeader ? 0 : 1
                let values = [a.frame.minX, a.frame.minY, a.frame.width, a.frame.height,
                              t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                              t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44, a.alpha]
                output += "\\(kind) \\(a.indexPath.section) " + values.map(number).joined(separator: " ") + "\\n"
            }
        }
        try output.write(toFile: outputPath, atomically: true, encoding: .utf8)
        }

        let arguments = CommandLine.arguments
        if arguments.count == 3 && arguments[1] == "--jobs" {
            for job in try String(contentsOfFile: arguments[2], encoding: .utf8).split(separator: "\\n") {
                let words = job.split(separator: "\\t").map(String.init)
                try play(words[0], input: words[1], output: words[2])
            }
        } else if arguments.count == 4 {
            try play(arguments[1], input: arguments[2], output: arguments[3])
        } else {
            print("usage: driver CLASS INPUT OUTPUT | driver --jobs FILE")
            exit(2)
        }

        """
        return text
    }

    /// The driver's input for a recorded run.
    static func input(for record: LuaRecord) -> String {
        var text = "items " + record.numberOfItems.map(String.init).joined(separator: " ") + "\n"
        if record.rightToLeft { text += "rtl\n" }
        for event in record.events {
            switch event {
            case let .frame(b):
                text += "frame \(b.origin.x) \(b.origin.y) \(b.size.width) \(b.size.height)\n"
            case let .release(b, p, v):
                text += "release \(b.origin.x) \(b.origin.y) \(b.size.width) \(b.size.height) \(p.x) \(p.y) \(v.x) \(v.y)\n"
            }
        }
        return text
    }
}
