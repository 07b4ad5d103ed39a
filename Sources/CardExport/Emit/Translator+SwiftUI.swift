// `cardlua export --swiftui`: the second back end. The translator's walks and its Swift
// for the script's callbacks are the UIKit export's, unchanged; this file refuses what
// SwiftUI cannot express, then assembles that Swift into a SwiftUI file: the callbacks
// run on a small file-local flow layout with UIKit's member names (so the same Swift
// compiles), and a generic view lays the cards out in a lazy stack and applies what the
// script's `transform` gave each card in `.visualEffect`. docs/export-swiftui.md states
// the mapping and its sources.

import LuaSyntax
import Foundation

extension Translator {
    /// The view's name (`LolCarousel`); the translator's class is `<view>Layout`.
    var viewName: String { String(className.dropLast("Layout".count)) }

    // MARK: - What SwiftUI cannot express

    /// Refuses, at its line, what a SwiftUI carousel cannot do (called before the last walk;
    /// the UIKit back end's own refusals still come from the walk).
    func refuseForSwiftUI() throws {
        for statement in chunk.body.statements {
            guard case let .function(name, f) = statement.kind, name.fields.isEmpty, name.method == nil else { continue }
            switch name.base {
            case "sizeForItem", "insetForSection", "referenceSizeForHeader", "referenceSizeForFooter":
                throw refuse(statement.line, "\(name.base) is not supported (the carousel's lazy stack gives every card the "
                             + "one item size and inset prepare sets, and has no headers or footers; set layout.itemSize "
                             + "and layout.sectionInset in prepare)")
            default:
                try refuseStatements(f.body.statements, in: name.base)
            }
        }
        for statement in chunk.body.statements {
            if case let .localFunction(name, f) = statement.kind { try refuseStatements(f.body.statements, in: name) }
            if case let .local(_, values) = statement.kind {
                for v in values { if case let .function(f) = v.kind { try refuseStatements(f.body.statements, in: "") } }
            }
        }
    }

    private func refuseStatements(_ statements: [LuaStatement], in function: String) throws {
        for s in statements {
            switch s.kind {
            case let .assignment(targets, values):
                for (k, target) in targets.enumerated() {
                    try refuseAssignment(target, value: k < values.count ? values[k] : nil, line: s.line, in: function)
                }
                for v in values { try refuseExpression(v, in: function) }
            case let .local(_, values):
                for v in values { try refuseExpression(v, in: function) }
            case let .call(e):
                try refuseExpression(e, in: function)
            case let .doBlock(b):
                try refuseStatements(b.statements, in: function)
            case let .whileLoop(c, b), let .repeatLoop(b, c):
                try refuseExpression(c, in: function)
                try refuseStatements(b.statements, in: function)
            case let .ifStatement(clauses, elseBlock):
                for c in clauses {
                    try refuseExpression(c.condition, in: function)
                    try refuseStatements(c.body.statements, in: function)
                }
                if let elseBlock { try refuseStatements(elseBlock.statements, in: function) }
            case let .numericFor(_, _, _, _, b), let .genericFor(_, _, b):
                try refuseStatements(b.statements, in: function)
            case let .localFunction(_, f), let .function(_, f):
                try refuseStatements(f.body.statements, in: function)
            case let .returnStatement(values):
                for v in values { try refuseExpression(v, in: function) }
            default:
                break
            }
        }
    }

    /// Elements built in an element query with their own place (`{ indexPath = …, center = … }`).
    private func refuseExpression(_ e: LuaExpression, in function: String) throws {
        switch e.kind {
        case let .table(fields):
            for field in fields {
                if case let .named(key, value) = field.kind {
                    if key == "center" { writesCenter = true }
                    if function == "layoutAttributesForElements", ["frame", "size", "bounds"].contains(key) {
                        throw refuse(field.line, Self.offTheFlow)
                    }
                    try refuseExpression(value, in: function)
                }
            }
        case let .function(f):
            try refuseStatements(f.body.statements, in: function)
        case let .call(fn, args):
            try refuseExpression(fn, in: function)
            for a in args { try refuseExpression(a, in: function) }
        case let .methodCall(object, _, args):
            try refuseExpression(object, in: function)
            for a in args { try refuseExpression(a, in: function) }
        case let .binary(_, l, r):
            try refuseExpression(l, in: function)
            try refuseExpression(r, in: function)
        case let .unary(_, x), let .parenthesized(x):
            try refuseExpression(x, in: function)
        default:
            break
        }
    }

    static let offTheFlow = "an element query that gives cards frames of their own is not supported (the stack lays "
        + "every card out in its slot at the item size, and effects do not change layout; return the flow's cards "
        + "and move them with center and transform3D)"

    private func refuseAssignment(_ target: LuaExpression, value: LuaExpression?, line: Int, in function: String) throws {
        guard case let .field(base, name) = target.kind else { return }
        if case let .name(layout) = base.kind, function == "prepare" || layout == "layout" {
            switch name {
            case "headerReferenceSize", "footerReferenceSize":
                throw refuse(line, "layout.\(name) is not supported (the carousel's stack has no headers or footers; "
                             + "put a header above the carousel in the app's view)")
            case "decelerationRate":
                guard let value, Self.isNamedDecelerationRate(value) else {
                    throw refuse(line, "a custom layout.decelerationRate is not supported (SwiftUI's ScrollView has no "
                                 + "public API for its deceleration rate; use \"normal\" or \"fast\", whose targets the "
                                 + "snapping behaviour keeps, with the system's curve)")
                }
            case "wraps":
                var used: Set<String> = []
                guard let value, case .bool(false)? = evaluateConstantly(value, used: &used, depth: 0) else {
                    throw refuse(line, "layout.wraps = true is not supported (no SwiftUI primitive scrolls endlessly: a "
                                 + "ScrollView's content has two ends; export with wrapping off\(used.isEmpty ? "" : ", e.g. --param \(used.sorted()[0])=\(parameter(used.sorted()[0]).map { parameters[$0].isBoolean } == true ? "false" : "0")"))")
                }
            case "scrollDirection":
                guard let value, Self.direction(of: value) != nil else {
                    throw refuse(line, "layout.scrollDirection set to a computed value is not supported (the carousel "
                                 + "chooses LazyHStack or LazyVStack when it is written: set \"horizontal\" or \"vertical\")")
                }
            default:
                break
            }
            return
        }
        guard function != "prepare" else { return }
        // attributes.size = …, attributes.bounds.size.width = …: a frame that changes with the offset.
        var root = target
        var path: [String] = []
        while case let .field(b, n) = root.kind { path.insert(n, at: 0); root = b }
        guard case .name = root.kind, let first = path.first else { return }
        if first == "center" { writesCenter = true }
        if first == "size" || first == "bounds" { throw refuse(line, Self.changingFrame) }
        if first == "frame" {
            if function == "layoutAttributesForElements" { throw refuse(line, Self.offTheFlow) }
            // frame = CGRectMake(x, y, a.size.width, a.size.height): a move, the size kept.
            guard path.count == 1, let value, case let .call(fn, args) = value.kind, case .name("CGRectMake") = fn.kind,
                  args.count == 4, Self.isSizeRead(args[2], "width"), Self.isSizeRead(args[3], "height") else {
                throw refuse(line, Self.changingFrame)
            }
        }
    }

    /// Whether the script moves cards off their slots (`center` written, or elements built
    /// with one): then the stack is eager (HStack), since a lazy one makes only the cards
    /// whose slots are near the visible rect, and a moved card may be drawn far from its slot.
    /// Read from the syntax tree by ``refuseForSwiftUI()``: an assignment to `x.center`
    /// (or `x.center.x`) or an element constructor with a `center` field.
    var movesCards: Bool { writesCenter }

    static let changingFrame = "a card size that changes with the offset is not supported (SwiftUI's visual effects do "
        + "not affect layout: each card keeps the size prepare gives it; scale it with a transform instead, or set "
        + "layout.itemSize in prepare)"

    /// `x.size.width`, `x.frame.width`, `x.bounds.size.height`…: the card's own size.
    static func isSizeRead(_ e: LuaExpression, _ dimension: String) -> Bool {
        guard case let .field(base, name) = e.kind, name == dimension else { return false }
        if case let .field(_, owner) = base.kind { return ["size", "frame", "bounds"].contains(owner) }
        return false
    }

    static func isNamedDecelerationRate(_ e: LuaExpression) -> Bool {
        switch e.kind {
        case .string(let s): ["normal", "fast"].contains(s)
        case .name(let n): ["UIScrollViewDecelerationRateNormal", "UIScrollViewDecelerationRateFast"].contains(n)
        default: false
        }
    }

    /// A literal scroll direction: true horizontal, false vertical, nil computed.
    static func direction(of e: LuaExpression) -> Bool? {
        switch e.kind {
        case .string("horizontal"), .name("UICollectionViewScrollDirectionHorizontal"): true
        case .string("vertical"), .name("UICollectionViewScrollDirectionVertical"): false
        default: nil
        }
    }

    /// Whether the script's cards scroll horizontally: the last `layout.scrollDirection` its
    /// prepare writes (UIKit's default, vertical, when it writes none).
    var scrollsHorizontally: Bool {
        var horizontal = false
        func scan(_ statements: [LuaStatement]) {
            for s in statements {
                switch s.kind {
                case let .assignment(targets, values):
                    for (k, t) in targets.enumerated() where k < values.count {
                        if case .field(_, "scrollDirection") = t.kind, let d = Self.direction(of: values[k]) { horizontal = d }
                    }
                case let .ifStatement(clauses, elseBlock):
                    clauses.forEach { scan($0.body.statements) }
                    if let elseBlock { scan(elseBlock.statements) }
                case let .doBlock(b):
                    scan(b.statements)
                default:
                    break
                }
            }
        }
        for s in chunk.body.statements {
            if case let .function(name, f) = s.kind, name.base == "prepare" { scan(f.body.statements) }
        }
        return horizontal
    }

    // MARK: - The file

    func assembleSwiftUIFile() throws -> String {
        for p in parameters where Self.viewMemberNames.contains(p.swiftName) {
            throw refuse(p.line, "params.\(p.luaName) is not supported (the view declares '\(p.swiftName)' itself; rename the param)")
        }
        let uikit = try assembleFile().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let classLine = "final class \(className): UICollectionViewFlowLayout {"
        guard let classIndex = uikit.firstIndex(of: classLine) else {
            throw refuse(1, "the UIKit assembly changed shape (no '\(classLine)'); the SwiftUI back end needs updating")
        }
        let header = uikit[..<classIndex].filter { $0.hasPrefix("///") && !$0.contains("Exported by `cardlua export`") }
        let attributes = Self.cardAttributes
        var rest: [String] = []
        var skippingSubclass = false
        for line in uikit[(classIndex + 1)...] {
            if line.hasPrefix("/// \(className)'s attributes: UIKit's") { skippingSubclass = true; continue }
            if skippingSubclass { if line == "}" { skippingSubclass = false }; continue }
            if line.contains("override class var layoutAttributesClass") { continue }
            var swift = line.replacingOccurrences(of: "UICollectionViewLayoutAttributes", with: attributes)
                .replacingOccurrences(of: className + "Attributes", with: attributes)
            // A module-level constant of closures: immutable, but not Sendable, in a class
            // that is not on the main actor as UIKit's layout is.
            if swift.hasPrefix("    private static let "), swift.contains("->") {
                swift = "    nonisolated(unsafe) " + swift.dropFirst(4)
            }
            rest.append(swift)
        }
        while rest.last == "" { rest.removeLast() }
        var out = ["import SwiftUI", ""]
        out += header
        if !header.isEmpty, header.last != "///" { out.append("///") }
        out.append(SwiftText.docComment("Exported by `cardlua export --swiftui` from \(fileName.split(separator: "/").last.map(String.init) ?? fileName), for iOS 17 and later."))
        out += viewDeclaration()
        out += ["", "/// The script's callbacks, on the flow below (UIKit's names: the same Swift as `cardlua export`'s).",
                "private final class \(className): CarouselFlowLayout {"]
        // The class body up to its end, then records and helpers as the UIKit file has them.
        var classEnd = rest.firstIndex(of: "}") ?? rest.count
        if classEnd == rest.count { classEnd = rest.count - 1 }
        out += rest[...classEnd]
        out += supportDeclarations()
        out += rest[(classEnd + 1)...]
        return SwiftLineBreaker.breakLines(tidy(out)).joined(separator: "\n") + "\n"
    }

    /// The file-local attributes class (short: it replaces UIKit's name in lines already broken).
    static let cardAttributes = "CardAttributes"

    /// Members of the view a param must not be named like.
    static let viewMemberNames: Set<String> = ["items", "position", "card", "body", "contentOffset", "init"]

    private var setsZIndex: Bool { scriptNames.contains("zIndex") }
    private var setsBlur: Bool { scriptNames.contains("blurRadius") }
    private var hasOwnQuery: Bool { callbacks.contains("layoutAttributesForElements") }
    private var tunable: [ScriptParameter] { parameters.filter { !$0.isConstant } }

    private func viewDeclaration() -> [String] {
        let v = viewName, horizontal = scrollsHorizontally
        var lines = [
            "struct \(v)<Item: Identifiable, Card: View>: View {",
            "    /// The items, one card each, in this order.",
            "    var items: [Item]",
            "    /// The item SwiftUI reports as the scroll position (`scrollPosition(id:)`); setting it scrolls there.",
            "    var position: Binding<Item.ID?>?",
            "    /// Draws an item's card; the carousel gives it the item size the script's prepare sets.",
            "    var card: (Item) -> Card",
        ]
        for p in tunable {
            if p.isBoolean {
                lines.append("    " + SwiftText.docComment("On or off" + (p.comment.map { " — " + $0 } ?? "")))
                lines.append("    var \(p.swiftName): Bool = \(p.value != 0 ? "true" : "false")" + parameterNote(p))
            } else {
                var doc = "\(SwiftText.double(p.min))…\(SwiftText.double(p.max))"
                if let s = p.step { doc += ", step \(SwiftText.double(s))" }
                if let c = p.comment { doc += " — " + c }
                lines.append("    " + SwiftText.docComment(doc))
                lines.append("    var \(p.swiftName): CGFloat = \(SwiftText.double(p.value))" + parameterNote(p))
            }
        }
        let setupArguments = (["containerSize: container.size", "numberOfItems: items.count"]
            + tunable.map { "\($0.swiftName): \($0.swiftName)" }).joined(separator: ", ")
        let lazy = movesCards ? "" : "Lazy"
        let stack = horizontal ? "\(lazy)HStack(alignment: .top" : "\(lazy)VStack(alignment: .leading"
        let across = horizontal ? "height: container.size.height, alignment: .top" : "width: container.size.width, alignment: .leading"
        lines += [
            "    /// The scroll view's content offset, read back from the content's frame: the depth order",
            "    /// and the snapping rule read it, as the script's code reads the collection view's bounds.",
            "    @State private var contentOffset = CGPoint.zero",
            "",
            "    /// A carousel of `items`, each drawn by `card`; `position`, when given, follows the item scrolled to.",
            "    init(items: [Item], position: Binding<Item.ID?>? = nil, @ViewBuilder card: @escaping (Item) -> Card) {",
            "        self.items = items",
            "        self.position = position",
            "        self.card = card",
            "    }",
            "",
            "    var body: some View {",
            "        GeometryReader { container in",
            "            let setup = CarouselSetup(\(setupArguments))",
            "            let flow = \(className).flow(for: setup)",
            "            ScrollView(\(horizontal ? ".horizontal" : ".vertical")) {",
            "                \(stack), spacing: flow.spacing) {",
            "                    ForEach(Array(items.enumerated()), id: \\.element.id) { index, item in",
            "                        card(item)",
            "                            .frame(width: flow.itemSize.width, height: flow.itemSize.height)",
            "                            // The script's transform\(setsBlur ? ", alpha and blur" : " and alpha"): effects, which do not change layout.",
            "                            .visualEffect { content, proxy in",
            "                                let look = \(className).look(",
            "                                    ofItem: index, frameInScrollView: proxy.frame(in: .scrollView), setup: setup)",
            "                                return content.transformEffect(look.projection).opacity(look.opacity)\(setsBlur ? ".blur(radius: look.blurRadius)" : "")",
            "                            }",
        ]
        if setsZIndex {
            lines += [
                "                            // zIndex is not a visual effect: the depth order follows the offset read back.",
                "                            .zIndex(\(className).look(ofItem: index, contentOffset: contentOffset, setup: setup).zIndex)",
            ]
        }
        lines += [
            "                    }",
            "                }",
            "                .padding(flow.padding)",
            "                .frame(\(across))",
            "                .background {",
            "                    GeometryReader { content in",
            "                        Color.clear.onChange(of: content.frame(in: .scrollView).origin, initial: true) { _, origin in",
            "                            contentOffset = CGPoint(x: -origin.x, y: -origin.y)",
            "                        }",
            "                    }",
            "                }",
            "                .scrollTargetLayout()",
            "            }",
            "            .scrollTargetBehavior(CarouselSnapping(setup: setup, contentOffset: contentOffset))",
            "            .scrollPosition(id: position ?? .constant(nil))",
            "        }",
            "    }",
            "}",
        ]
        return lines
    }

    private func supportDeclarations() -> [String] {
        let layout = className, attributes = Self.cardAttributes
        let horizontal = scrollsHorizontally
        var setupFields = ["    /// The scroll view's size (the collection view's bounds' size).",
                           "    var containerSize: CGSize",
                           "    var numberOfItems: Int"]
        for p in tunable { setupFields.append("    var \(p.swiftName): \(p.isBoolean ? "Bool" : "CGFloat")") }
        let paramCopies = tunable.map { "        layout.\($0.swiftName) = setup.\($0.swiftName)" }
        let padding = horizontal
            ? "EdgeInsets(top: cross, leading: layout.sectionInset.left, bottom: 0, trailing: layout.sectionInset.right)"
            : "EdgeInsets(top: layout.sectionInset.top, leading: cross, bottom: layout.sectionInset.bottom, trailing: 0)"
        let itemQuery = hasOwnQuery
            ? ["        // The script's own query decides which cards show: one it leaves out is hidden, as in UIKit.",
               "        let shown = layout.layoutAttributesForElements(in: layout.collectionView?.bounds ?? .zero) ?? []",
               "        let attributes = shown.first { $0.representedElementCategory == .cell && $0.indexPath == indexPath }"]
            : ["        let attributes = layout.layoutAttributesForItem(at: indexPath)"]
        var lines: [String] = ["", "extension \(layout) {"]
        lines += [
            "    /// A layout for `setup` with the collection view's bounds at `contentOffset`, prepared as",
            "    /// UIKit prepares one after a bounds change.",
            "    fileprivate static func prepared(_ setup: CarouselSetup, contentOffset: CGPoint) -> \(layout) {",
            "        let layout = \(layout)()",
        ]
        lines += paramCopies
        lines += [
            "        let bounds = CGRect(origin: contentOffset, size: setup.containerSize)",
            "        layout.collectionView = CarouselCollectionView(bounds: bounds, numberOfItems: setup.numberOfItems, layout: layout)",
            "        layout.prepare()",
            "        return layout",
            "    }",
            "",
            "    /// What the stack needs: the item size, the spacing and the padding that puts each card",
            "    /// where UIKit's flow puts it (a line holds one card, centred across it).",
            "    fileprivate static func flow(for setup: CarouselSetup) -> CarouselFlow {",
            "        let layout = prepared(setup, contentOffset: .zero)",
            "        let cross = layout.baseFrame(ofItem: 0).\(horizontal ? "minY" : "minX")",
            "        return CarouselFlow(",
            "            itemSize: layout.itemSize, spacing: layout.minimumLineSpacing,",
            "            padding: \(padding))",
            "    }",
            "",
            "    /// One card's look from its frame in the scroll view, which gives the content offset.",
            "    fileprivate static func look(ofItem item: Int, frameInScrollView frame: CGRect, setup: CarouselSetup) -> CardLook {",
            "        let slot = prepared(setup, contentOffset: .zero).baseFrame(ofItem: item)",
            "        return look(ofItem: item, contentOffset: CGPoint(x: slot.minX - frame.minX, y: slot.minY - frame.minY), setup: setup)",
            "    }",
            "",
            "    /// One card's look at a content offset: the script's attributes for it, as effects.",
            "    fileprivate static func look(ofItem item: Int, contentOffset: CGPoint, setup: CarouselSetup) -> CardLook {",
            "        let layout = prepared(setup, contentOffset: contentOffset)",
            "        let indexPath = IndexPath(item: item, section: 0)",
        ]
        lines += itemQuery
        lines += [
            "        return CardLook(attributes, slot: layout.baseFrame(ofItem: item))",
            "    }",
            "}",
            "",
            "/// What a card's look depends on besides the offset: the container and the params.",
            "private struct CarouselSetup: Equatable {",
        ]
        lines += setupFields
        lines += [
            "}",
            "",
            "/// The stack's metrics, from the script's prepare.",
            "private struct CarouselFlow {",
            "    var itemSize: CGSize",
            "    var spacing: CGFloat",
            "    var padding: EdgeInsets",
            "}",
            "",
            "/// A card's attributes as SwiftUI effects.",
            "private struct CardLook {",
            "    /// The attributes' transform3D about their centre (UIKit's anchorPoint 0.5, 0.5), moved",
            "    /// from the card's slot to their center: a ProjectionTransform, which acts on the card's",
            "    /// own coordinates (origin top left) and keeps the rows that act on its plane.",
            "    var projection = ProjectionTransform()",
            "    /// alpha, 0 when hidden (or when the script's own query leaves the card out).",
            "    var opacity: Double = 0",
            "    var zIndex: Double = 0",
            "    var blurRadius: CGFloat = 0",
            "",
            "    init(_ attributes: \(attributes)?, slot: CGRect) {",
            "        guard let attributes else { return }",
            "        let size = attributes.size",
            "        let toCentre = CATransform3DMakeTranslation(-size.width / 2, -size.height / 2, 0)",
            "        let fromCentre = CATransform3DMakeTranslation(attributes.center.x - slot.minX, attributes.center.y - slot.minY, 0)",
            "        projection = ProjectionTransform(CATransform3DConcat(CATransform3DConcat(toCentre, attributes.transform3D), fromCentre))",
            "        opacity = attributes.isHidden ? 0 : Double(attributes.alpha)",
            "        zIndex = Double(attributes.zIndex)",
            "        blurRadius = attributes.blurRadius",
            "    }",
            "}",
            "",
            "/// The script's targetContentOffset as SwiftUI's scroll target behaviour.",
            "private struct CarouselSnapping: ScrollTargetBehavior {",
            "    var setup: CarouselSetup",
            "    var contentOffset: CGPoint",
            "",
            "    func updateTarget(_ target: inout ScrollTarget, context: TargetContext) {",
            "        let layout = \(layout).prepared(setup, contentOffset: contentOffset)",
            "        if layout.collectionView?.isPagingEnabled == true {",
            "            // isPagingEnabled: pages of the container's size, as UIKit's, which then asks no layout.",
            "            PagingScrollTargetBehavior.paging.updateTarget(&target, context: context)",
            "            return",
            "        }",
            "        // target.rect.origin is UIKit's proposed content offset; UIKit's velocity is in points",
            "        // per millisecond, SwiftUI's in points per second.",
            "        let velocity = CGPoint(x: context.velocity.dx / 1000, y: context.velocity.dy / 1000)",
            "        target.rect.origin = layout.targetContentOffset(",
            "            forProposedContentOffset: target.rect.origin, withScrollingVelocity: velocity)",
            "    }",
            "}",
        ]
        lines += flowBase()
        return lines
    }

    /// The slice of UICollectionViewFlowLayout, UICollectionView and their attributes the
    /// script's Swift uses, for one section laid out one card a line.
    private func flowBase() -> [String] {
        let attributes = Self.cardAttributes
        return [
            "",
            "/// The collection view the script's code reads: its bounds (the visible rect), items and flags.",
            "private final class CarouselCollectionView {",
            "    /// `UIScrollView.DecelerationRate`'s two named rates; SwiftUI's deceleration is the system's.",
            "    enum DecelerationRate { case normal, fast }",
            "",
            "    var bounds: CGRect",
            "    let items: Int",
            "    weak var layout: CarouselFlowLayout?",
            "    var isPagingEnabled = false",
            "    var bounces = true",
            "    var alwaysBounceHorizontal = false",
            "    var alwaysBounceVertical = false",
            "    var decelerationRate = DecelerationRate.normal",
            "",
            "    init(bounds: CGRect, numberOfItems: Int, layout: CarouselFlowLayout) {",
            "        self.bounds = bounds",
            "        self.items = numberOfItems",
            "        self.layout = layout",
            "    }",
            "",
            "    var contentOffset: CGPoint { bounds.origin }",
            "    var contentSize: CGSize { layout?.collectionViewContentSize ?? .zero }",
            "    var numberOfSections: Int { 1 }",
            "    func numberOfItems(inSection section: Int) -> Int { section == 0 ? items : 0 }",
            "}",
            "",
            "/// UICollectionViewLayoutAttributes' fields the script's code reads and writes.",
            "private final class \(attributes) {",
            "    enum Category { case cell }",
            "",
            "    var indexPath: IndexPath",
            "    var center = CGPoint.zero",
            "    var size = CGSize.zero",
            "    var transform3D = CATransform3DIdentity",
            "    var alpha: CGFloat = 1",
            "    var zIndex = 0",
            "    var isHidden = false",
            "    let representedElementCategory = Category.cell",
            "    // The appearance fields: kept for the script's code; only blurRadius becomes an effect",
            "    // (style corners, shadows and backgrounds on the card view).",
            "    var cornerRadius: CGFloat = 0",
            "    var shadowOpacity: CGFloat = 0",
            "    var shadowRadius: CGFloat = 3",
            "    var shadowOffset = CGSize(width: 0, height: -3)",
            "    var backgroundColor: UIColor?",
            "    var blurRadius: CGFloat = 0",
            "    var isDoubleSided = true",
            "",
            "    init(forCellWith indexPath: IndexPath) {",
            "        self.indexPath = indexPath",
            "    }",
            "",
            "    /// As UIKit's: the untransformed centre and size (setting it sets both).",
            "    var frame: CGRect {",
            "        get {",
            "            CGRect(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height)",
            "        }",
            "        set {",
            "            center = CGPoint(x: newValue.midX, y: newValue.midY)",
            "            size = newValue.size",
            "        }",
            "    }",
            "",
            "    var bounds: CGRect {",
            "        get { CGRect(origin: .zero, size: size) }",
            "        set { size = newValue.size }",
            "    }",
            "",
            "    var transform: CGAffineTransform {",
            "        get { CATransform3DGetAffineTransform(transform3D) }",
            "        set { transform3D = CATransform3DMakeAffineTransform(newValue) }",
            "    }",
            "",
            "    func copy() -> Any {",
            "        let copy = \(attributes)(forCellWith: indexPath)",
            "        copy.center = center",
            "        copy.size = size",
            "        copy.transform3D = transform3D",
            "        copy.alpha = alpha",
            "        copy.zIndex = zIndex",
            "        copy.isHidden = isHidden",
            "        copy.cornerRadius = cornerRadius",
            "        copy.shadowOpacity = shadowOpacity",
            "        copy.shadowRadius = shadowRadius",
            "        copy.shadowOffset = shadowOffset",
            "        copy.backgroundColor = backgroundColor",
            "        copy.blurRadius = blurRadius",
            "        copy.isDoubleSided = isDoubleSided",
            "        return copy",
            "    }",
            "}",
            "",
            "/// UICollectionViewFlowLayout's members the script's code uses, with UIKit's defaults, for",
            "/// one section laid out one card a line: a card is centred across its line, as UIKit",
            "/// centres a line's only item.",
            "private class CarouselFlowLayout {",
            "    enum ScrollDirection { case vertical, horizontal }",
            "",
            "    var collectionView: CarouselCollectionView?",
            "    var itemSize = CGSize(width: 50, height: 50)",
            "    var estimatedItemSize = CGSize.zero",
            "    var scrollDirection = ScrollDirection.vertical",
            "    var sectionInset = UIEdgeInsets.zero",
            "    var minimumLineSpacing: CGFloat = 10",
            "    var minimumInteritemSpacing: CGFloat = 10",
            "",
            "    required init() {}",
            "",
            "    func prepare() {}",
            "",
            "    func invalidateLayout() {}",
            "",
            "    /// UIKit's flow layout's: mirrored right to left (SwiftUI mirrors a horizontal stack itself).",
            "    var flipsHorizontallyInOppositeLayoutDirection: Bool { true }",
            "",
            "    func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool { false }",
            "",
            "    /// The card's slot, before the script's transform.",
            "    final func baseFrame(ofItem item: Int) -> CGRect {",
            "        let bounds = collectionView?.bounds.size ?? .zero",
            "        let pitch = CGFloat(item) * ((scrollDirection == .horizontal ? itemSize.width : itemSize.height) + minimumLineSpacing)",
            "        if scrollDirection == .horizontal {",
            "            let line = bounds.height - sectionInset.top - sectionInset.bottom",
            "            let y = sectionInset.top + (line - itemSize.height) / 2",
            "            return CGRect(x: sectionInset.left + pitch, y: y, width: itemSize.width, height: itemSize.height)",
            "        }",
            "        let line = bounds.width - sectionInset.left - sectionInset.right",
            "        let x = sectionInset.left + (line - itemSize.width) / 2",
            "        return CGRect(x: x, y: sectionInset.top + pitch, width: itemSize.width, height: itemSize.height)",
            "    }",
            "",
            "    var collectionViewContentSize: CGSize {",
            "        let count = collectionView?.numberOfItems(inSection: 0) ?? 0",
            "        let bounds = collectionView?.bounds.size ?? .zero",
            "        let main = scrollDirection == .horizontal ? itemSize.width : itemSize.height",
            "        let lines = count == 0 ? 0 : CGFloat(count) * main + CGFloat(count - 1) * minimumLineSpacing",
            "        if scrollDirection == .horizontal {",
            "            return CGSize(width: sectionInset.left + lines + sectionInset.right, height: bounds.height)",
            "        }",
            "        return CGSize(width: bounds.width, height: sectionInset.top + lines + sectionInset.bottom)",
            "    }",
            "",
            "    func layoutAttributesForItem(at indexPath: IndexPath) -> \(attributes)? {",
            "        baseAttributes(at: indexPath)",
            "    }",
            "",
            "    /// As UIKit's: the cards whose slots meet `rect` (not through the overridable methods).",
            "    func layoutAttributesForElements(in rect: CGRect) -> [\(attributes)]? {",
            "        let count = collectionView?.numberOfItems(inSection: 0) ?? 0",
            "        return (0..<count).compactMap { item in",
            "            baseFrame(ofItem: item).intersects(rect) ? baseAttributes(at: IndexPath(item: item, section: 0)) : nil",
            "        }",
            "    }",
            "",
            "    private final func baseAttributes(at indexPath: IndexPath) -> \(attributes)? {",
            "        guard indexPath.section == 0, indexPath.item >= 0,",
            "            indexPath.item < collectionView?.numberOfItems(inSection: 0) ?? 0",
            "        else { return nil }",
            "        let attributes = \(attributes)(forCellWith: indexPath)",
            "        attributes.frame = baseFrame(ofItem: indexPath.item)",
            "        return attributes",
            "    }",
            "",
            "    func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint, withScrollingVelocity velocity: CGPoint) -> CGPoint {",
            "        proposedContentOffset",
            "    }",
            "}",
        ]
    }
}
