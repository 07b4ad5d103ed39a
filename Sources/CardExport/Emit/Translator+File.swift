// The assembled file: the class with its params, constants, methods and overrides, then the
// records, the attributes subclass and the helpers.

import LuaSyntax
import Foundation

extension Translator {
    func assembleFile() throws -> String {
        var out: [String] = ["import UIKit", ""]
        if !chunk.headerComment.isEmpty {
            for h in chunk.headerComment.compactMap(SwiftText.scriptComment) { out.append(SwiftText.docComment(h)) }
            out.append("///")
        }
        out.append(SwiftText.docComment("Exported by `cardlua export` from \(fileName.split(separator: "/").last.map(String.init) ?? fileName), for iOS 15 and later."))
        out.append("final class \(className): UICollectionViewFlowLayout {")
        var body: [String] = []
        // params: stored properties that invalidate the layout
        if !parameters.isEmpty {
            for p in parameters {
                if p.isBoolean {  // on/off: a Bool that invalidates the layout
                    body.append("    " + SwiftText.docComment("On or off" + (p.comment.map { " — " + $0 } ?? "")))
                    let value = p.value != 0 ? "true" : "false"
                    if p.isConstant {
                        body.append("    /// Fixed at export: `layout.wraps` depends on it and UIKit's flow layout does not wrap.")
                        body.append("    let \(p.swiftName) = \(value)")
                    } else {
                        body.append("    var \(p.swiftName): Bool = \(value) { didSet { invalidateLayout() } }" + parameterNote(p))
                    }
                    continue
                }
                var doc = "\(SwiftText.double(p.min))…\(SwiftText.double(p.max))"
                if let s = p.step { doc += ", step \(SwiftText.double(s))" }
                if let c = p.comment { doc += " — " + c }
                body.append("    " + SwiftText.docComment(doc))
                if p.isConstant {
                    body.append("    /// Fixed at export: `layout.wraps` depends on it and UIKit's flow layout does not wrap.")
                    body.append("    let \(p.swiftName): CGFloat = \(SwiftText.double(p.value))")
                } else {
                    body.append("    var \(p.swiftName): CGFloat = \(SwiftText.double(p.value)) { didSet { invalidateLayout() } }" + parameterNote(p))
                }
            }
        }
        let hasQuery = callbacks.contains("layoutAttributesForElements"), hasTransform = callbacks.contains("transform")
        let keepsBounds = hasTransform && transformReadsBounds
        if keepsBounds {
            // The script's prepare (if any) stores them first thing (Translator+TopLevel).
            body += ["",
                     "    /// The collection view's bounds when UIKit last called `prepare()`. Every bounds change",
                     "    /// invalidates this layout and UIKit prepares it again before its next query, so",
                     "    /// these are the bounds of every query until then, read without a weak load per query.",
                     "    private var \(Self.preparedBounds): CGRect?"]
        }
        if hasQuery {
            let shown = Self.shownElements
            body += ["",
                     "    /// The element query's answer for the visible rect, transformed, and the bounds it is",
                     "    /// for: `layoutAttributesForItem(at:)` reads each shown item from it rather than running",
                     "    /// the query again per item. Dropped by `prepare()` (a param, the data or the bounds",
                     "    /// changed).",
                     "    private var \(shown): (bounds: CGRect, elements: [\(attributesClassName)])?"]
        }
        if (keepsBounds || hasQuery) && !callbacks.contains("prepare") {
            body += ["",
                     "    override func prepare() {",
                     "        super.prepare()"]
            if keepsBounds { body.append("        \(Self.preparedBounds) = collectionView?.bounds") }
            if hasQuery { body.append("        \(Self.shownElements) = nil") }
            body.append("    }")
        }
        for member in members {
            if member.count == 1, member[0].hasPrefix("@callback:") {
                let name = String(member[0].dropFirst("@callback:".count))
                body.append("")
                body += callbackMembers[name] ?? []
                continue
            }
            let isStatic = member.contains { $0.hasPrefix("private static let") || $0.hasPrefix("private var") || $0.hasPrefix("// scenarios") }
            if isStatic {
                // A member's value may span lines (an array of closures): each is indented.
                var m = member.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
                if m.first == "" && body.last == "" { m.removeFirst() }
                body += m.map { $0.isEmpty ? "" : "    " + $0 }
            } else {
                body.append("")
                body += member.drop(while: { $0.isEmpty })
            }
        }
        let attrs = attributesClassName
        let vb = Self.visibleBounds
        body.append("")
        body.append("    override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool { true }")
        if hasQuery || hasTransform || usesAppearance {
            body.append("")
            body.append("    override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {")
            if hasTransform && !hasQuery {
                // One pass, a plain loop: each copy is transformed while the query holds its only
                // reference, so calling into it costs no retain and release (a second loop over
                // the copied array pays both per element), and no closure runs per element (a
                // main-actor closure given to `map` checks its executor on every call in Swift 6).
                if transformReadsBounds {
                    body.append("        // The bounds prepare() read (the collection view's only before the first prepare()).")
                    body.append("        let \(vb) = \(Self.preparedBounds) ?? collectionView?.bounds")
                }
                body.append("        // Super's attributes are UIKit's own: each is copied, then changed.")
                body.append("        let base = super.layoutAttributesForElements(in: rect) ?? []")
                body.append("        var elements: [UICollectionViewLayoutAttributes] = []")
                body.append("        elements.reserveCapacity(base.count)")
                body.append("        for item in base {")
                body.append("            // Headers and footers keep super's attributes: the script turns cells only.")
                body.append("            guard item.representedElementCategory == .cell else {")
                body.append("                elements.append(item)")
                body.append("                continue")
                body.append("            }")
                body.append("            let element = item.copy() as! \(attrs)")
                body.append(transformReadsBounds ? "            if let \(vb) { transform(element, \(vb): \(vb)) }"
                                                 : "            transform(element)")
                body.append("            elements.append(element)")
                body.append("        }")
                body.append("        return elements")
                body.append("    }")
            } else {
                if hasQuery {
                    body.append("        let elements = elementQuery(in: rect)")
                } else {
                    body.append("        let elements = (super.layoutAttributesForElements(in: rect) ?? []).map { $0.copy() as! \(attrs) }")
                }
                if hasTransform && transformReadsBounds {
                    body.append("        // The bounds prepare() read (the collection view's only before the first prepare()).")
                    body.append("        guard let \(vb) = \(Self.preparedBounds) ?? collectionView?.bounds else { return elements }")
                    body.append("        // Headers and footers keep super's attributes: the script turns cells only.")
                    body.append("        for element in elements where element.representedElementCategory == .cell {")
                    body.append("            transform(element, \(vb): \(vb))")
                    body.append("        }")
                } else if hasTransform {
                    body.append("        // Headers and footers keep super's attributes: the script turns cells only.")
                    body.append("        for element in elements where element.representedElementCategory == .cell {")
                    body.append("            transform(element)")
                    body.append("        }")
                }
                body.append("        return elements")
                body.append("    }")
            }
            body.append("")
            body.append("    override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {")
            if hasQuery {
                body.append("        // The element query's answer for a shown item; the base attributes for any other.")
                body.append("        if let collectionView, let element = shownElement(at: indexPath, in: collectionView.bounds) {")
                body.append("            return element")
                body.append("        }")
            }
            body.append("        guard let base = super.layoutAttributesForItem(at: indexPath) else { return nil }")
            body.append("        let attributes = base.copy() as! \(attrs)")
            if hasTransform && transformReadsBounds {
                body.append("        if let \(vb) = \(Self.preparedBounds) ?? collectionView?.bounds { transform(attributes, \(vb): \(vb)) }")
            } else if hasTransform {
                body.append("        transform(attributes)")
            }
            body.append("        return attributes")
            body.append("    }")
        }
        if hasQuery {
            let shown = Self.shownElements
            body.append("")
            body.append("    /// The cell at `indexPath` among the element query's answer for `bounds`, which is made")
            body.append("    /// (and transformed) once for those bounds.")
            body.append("    private func shownElement(at indexPath: IndexPath, in bounds: CGRect) -> \(attrs)? {")
            body.append("        if \(shown)?.bounds != bounds {")
            body.append("            let elements = elementQuery(in: bounds)")
            if hasTransform {
                body.append("            for element in elements where element.representedElementCategory == .cell {")
                body.append("                transform(element\(transformReadsBounds ? ", \(vb): bounds" : ""))")
                body.append("            }")
            }
            body.append("            \(shown) = (bounds, elements)")
            body.append("        }")
            body.append("        return \(shown)?.elements.first { $0.representedElementCategory == .cell && $0.indexPath == indexPath }")
            body.append("    }")
        }
        if usesAttributesForItem {
            body.append("")
            body.append("    /// `layout:layoutAttributesForItem(…)`: any item's base attributes, copied before they are")
            body.append("    /// changed. An index path the data source no longer has (it changed under the layout)")
            body.append("    /// gets a hidden cell's attributes, not a crash.")
            body.append("    private func attributesForItem(at indexPath: IndexPath) -> \(attrs) {")
            body.append("        guard let base = super.layoutAttributesForItem(at: indexPath) else {")
            body.append("            let missing = \(attrs)(forCellWith: indexPath)")
            body.append("            missing.isHidden = true")
            body.append("            return missing")
            body.append("        }")
            body.append("        return base.copy() as! \(attrs)")
            body.append("    }")
        }
        if usesUpdateProperty {
            let u = Self.updateProperty
            body.append("")
            body.append("    /// Sets a flow-layout property only when its value changes: UIKit invalidates the layout on every set.")
            body.append("    private func \(u)<Value: Equatable>(_ property: ReferenceWritableKeyPath<\(className), Value>, to value: Value) {")
            body.append("        if self[keyPath: property] != value { self[keyPath: property] = value }")
            body.append("    }")
        }
        if usesOffsetOnAxis {
            body.append("")
            body.append("    /// A number from the script's targetContentOffset: the offset on the scroll axis (the other coordinate is the proposal's).")
            body.append("    private func offsetOnScrollAxis(_ offset: CGFloat, proposed: CGPoint) -> CGPoint {")
            body.append("        scrollDirection == .horizontal ? CGPoint(x: offset, y: proposed.y) : CGPoint(x: proposed.x, y: offset)")
            body.append("    }")
        }
        if let flips = flipsHorizontally {
            body.append("")
            body.append("    override var flipsHorizontallyInOppositeLayoutDirection: Bool { \(flips) }")
        }
        if usesAppearance {
            body.append("")
            body.append("    override class var layoutAttributesClass: AnyClass { \(attrs).self }")
        }
        out += body
        out.append("}")
        // records
        var written: Set<Int> = []
        for (i, _) in records.enumerated() {
            let root = recordRoot(i)
            guard !written.contains(root) else { continue }
            written.insert(root)
            let r = records[root]
            if r.fields.isEmpty { continue }
            out.append("")
            out.append("/// A record of the script (a Lua table with fixed keys; shared, as a table is).")
            out.append("private final class \(r.name) {")
            var initParameters: [String] = []
            var initBody: [String] = []
            for f in r.fields {
                let t = try swiftType(f.type, line: 1)
                let n = fieldName(f.name)
                let note = n == SwiftText.name(f.name) ? "" : "  // " + f.name
                if hasDefault(f.type) {
                    out.append("    var \(n): \(t) = \(defaultValue(f.type))" + note)
                } else if case .optional = f.type {
                    out.append("    var \(n): \(t) = nil" + note)
                } else {
                    out.append("    var \(n): \(t)! = nil" + note)
                }
                if r.constructorFields.contains(f.name) {
                    let d = hasDefault(f.type) ? defaultValue(f.type) : "nil"
                    let pt = hasDefault(f.type) ? t : (t.hasSuffix("?") ? t : t + "?")
                    // The label is the field's name (a keyword bare), the parameter inside is `n`.
                    initParameters.append("\(SwiftText.parameterLabel(n)): \(pt) = \(d)")
                    initBody.append("        self.\(n) = \(n)")
                }
            }
            out.append("")
            out.append("    init(\(initParameters.joined(separator: ", "))) {")
            out += initBody
            out.append("    }")
            out.append("}")
        }
        if usesAppearance { out += attributesSubclass() }
        out += motionMembers()  // Translator+Motion.swift
        for h in helpers.sorted() {
            out.append("")
            out += (SwiftText.helpers[h] ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        return SwiftLineBreaker.breakLines(tidy(out)).joined(separator: "\n") + "\n"
    }

    /// `  // name` beside a param the name table renamed (the script's name).
    func parameterNote(_ p: ScriptParameter) -> String {
        p.swiftName == SwiftText.name(p.luaName) ? "" : "  // params." + p.luaName
    }

    /// One blank line at most between members, none just inside a brace, no trailing blanks.
    func tidy(_ lines: [String]) -> [String] {
        var result: [String] = []
        for line in lines {
            var l = line
            while l.last == " " { l.removeLast() }
            if l.isEmpty, result.last == "" || result.last?.hasSuffix("{") == true { continue }
            if l.trimmingCharacters(in: .whitespaces) == "}", result.last == "" { result.removeLast() }
            result.append(l)
        }
        return result
    }

    func attributesSubclass() -> [String] {
        let n = attributesClassName
        return [
            "",
            "/// \(className)'s attributes: UIKit's, plus the appearance the script sets (CALayer's names).",
            "final class \(n): UICollectionViewLayoutAttributes {",
            "    // Plain values, nonisolated: NSObject's isEqual(_:) (below) is nonisolated and must read",
            "    // them wherever UIKit compares attributes, without a main-actor check that traps off",
            "    // the main thread (and without MainActor.assumeIsolated, which needs iOS 17).",
            "    nonisolated(unsafe) var cornerRadius: CGFloat = 0",
            "    nonisolated(unsafe) var shadowOpacity: CGFloat = 0",
            "    nonisolated(unsafe) var shadowRadius: CGFloat = 3",
            "    nonisolated(unsafe) var shadowOffset = CGSize(width: 0, height: -3)",
            "    nonisolated(unsafe) var backgroundColor: UIColor?",
            "    nonisolated(unsafe) var blurRadius: CGFloat = 0",
            "    nonisolated(unsafe) var isDoubleSided = true",
            "",
            "    override func copy(with zone: NSZone? = nil) -> Any {",
            "        let copy = super.copy(with: zone) as! \(n)",
            "        copy.cornerRadius = cornerRadius",
            "        copy.shadowOpacity = shadowOpacity",
            "        copy.shadowRadius = shadowRadius",
            "        copy.shadowOffset = shadowOffset",
            "        copy.backgroundColor = backgroundColor",
            "        copy.blurRadius = blurRadius",
            "        copy.isDoubleSided = isDoubleSided",
            "        return copy",
            "    }",
            "",
            "    nonisolated override func isEqual(_ object: Any?) -> Bool {",
            "        guard let other = object as? \(n), super.isEqual(object) else { return false }",
            "        return cornerRadius == other.cornerRadius && shadowOpacity == other.shadowOpacity",
            "            && shadowRadius == other.shadowRadius && shadowOffset == other.shadowOffset",
            "            && backgroundColor == other.backgroundColor && blurRadius == other.blurRadius",
            "            && isDoubleSided == other.isDoubleSided",
            "    }",
            "",
            "    /// Gives a cell this appearance: call it from the cell's `apply(_ layoutAttributes:)`",
            "    /// with the cell itself (`(layoutAttributes as? \(n))?.apply(to: self)`): UIKit turns",
            "    /// the cell's layer, so `isDoubleSided` must be set there to hide a card turned away.",
            "    /// `blurRadius` is left to the app (a `UIVisualEffectView` over the cell, say).",
            "    func apply(to view: UIView) {",
            "        view.layer.cornerRadius = cornerRadius",
            "        view.layer.shadowOpacity = Float(shadowOpacity)",
            "        view.layer.shadowRadius = shadowRadius",
            "        view.layer.shadowOffset = shadowOffset",
            "        view.layer.isDoubleSided = isDoubleSided",
            "        if let backgroundColor { view.backgroundColor = backgroundColor }",
            "    }",
            "}",
        ]
    }
}
