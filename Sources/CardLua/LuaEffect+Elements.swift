import CLuaShims
import CardLayout

// Contract v2: the script's own element query (its global `layoutAttributesForElements`),
// the single-item look-up behind `layout:layoutAttributesForItem`, and the facing and
// appearance values that travel through the C output records.

extension LuaEffect {
    static let elementQueryName = "layoutAttributesForElements"

    /// Calls the script's `layoutAttributesForElements(rect, layout)`: the elements it
    /// returned (validated by the host: known items, none twice, at most
    /// ``LuaEffect/maxQueryItems``), in its order; nil when the script does not define it.
    public func layoutAttributesForElements(in rect: Rect, layout: some BaseLayoutProviding,
                                            context: ScrollContext) throws -> [LayoutAttributes]? {
        try refuseReentry()
        guard definesElementQuery else { return nil }
        setState(context)
        // run and watch's key notes: the frame's transform call decides (it follows).
        if keyNoteInterval > 0 { cardlua_set_check_mode(host, transformCalls % keyNoteInterval == 0 ? 1 : 0) }
        var count = 0
        var status = CARDLUA_OK
        let elements: [LayoutAttributes]? = query.lending(layout) {
            state.withUnsafeBufferPointer { st -> [LayoutAttributes]? in
                let records = cardlua_layout_elements(host, st.baseAddress, rect.origin.x, rect.origin.y,
                                                      rect.size.width, rect.size.height, &count, &status)
                guard status == CARDLUA_OK else { return nil }
                guard count >= 0 else { return nil }  // the script has no such function (any more)
                guard let records, count > 0 else { return [] }
                let stride = Int(CARDLUA_ELEMENT_STRIDE)
                return (0..<count).map { k in
                    let r = records + k * stride
                    var item = LayoutAttributes(indexPath: CardIndexPath(item: Int(r[1]), section: Int(r[0])),
                                                frame: Rect(x: 0, y: 0, width: 0, height: 0))
                    applyRecord(r + 2, to: &item)
                    return item
                }
            }
        }
        if status != CARDLUA_OK { throw error(status) }
        return elements
    }

    /// The starting attributes of `items` for `cardlua_transform_from`.
    func fillStarts(_ items: [LayoutAttributes]) {
        let stride = Int(CARDLUA_OUT_STRIDE)
        if starts.count < items.count * stride { starts = [Double](repeating: 0, count: items.count * stride) }
        starts.withUnsafeMutableBufferPointer { buffer in
            for (i, item) in items.enumerated() { writeStart(item, to: buffer.baseAddress! + i * stride) }
        }
    }
}

extension LayoutAttributes {
    /// Whether everything but the geometry is as a base item's (identity, alpha 1,
    /// zIndex 0, shown, double sided, no appearance): then `transform` needs no starts.
    var hasDefaultStart: Bool {
        alpha == 1 && zIndex == 0 && !isHidden && isDoubleSided && appearance == nil && transform3D == .identity
    }
}

/// One item as an output record (CARDLUA_OUT_*), every slot set: a transform's start.
private func writeStart(_ item: LayoutAttributes, to o: UnsafeMutablePointer<Double>) {
    o[Int(CARDLUA_OUT_CENTER_X)] = item.center.x
    o[Int(CARDLUA_OUT_CENTER_Y)] = item.center.y
    o[Int(CARDLUA_OUT_WIDTH)] = item.size.width
    o[Int(CARDLUA_OUT_HEIGHT)] = item.size.height
    let t = item.transform3D
    let m = [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
             t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
    for k in 0..<16 { o[Int(CARDLUA_OUT_M11) + k] = m[k] }
    o[Int(CARDLUA_OUT_ALPHA)] = item.alpha
    o[Int(CARDLUA_OUT_ZINDEX)] = Double(item.zIndex)
    o[Int(CARDLUA_OUT_HIDDEN)] = item.isHidden ? 1 : 0
    o[Int(CARDLUA_OUT_CHANGED)] = 1
    let extras = !item.isDoubleSided || item.appearance != nil
    o[Int(CARDLUA_OUT_EXTRAS)] = extras ? 1 : 0
    guard extras else { return }
    let a = item.appearance ?? CardAppearance()
    o[Int(CARDLUA_OUT_DOUBLE_SIDED)] = item.isDoubleSided ? 1 : 0
    o[Int(CARDLUA_OUT_APPEARANCE)] = item.appearance != nil ? 1 : 0
    o[Int(CARDLUA_OUT_CORNER_RADIUS)] = a.cornerRadius
    o[Int(CARDLUA_OUT_SHADOW_OPACITY)] = a.shadowOpacity
    o[Int(CARDLUA_OUT_SHADOW_RADIUS)] = a.shadowRadius
    o[Int(CARDLUA_OUT_SHADOW_OFFSET_W)] = a.shadowOffset.width
    o[Int(CARDLUA_OUT_SHADOW_OFFSET_H)] = a.shadowOffset.height
    o[Int(CARDLUA_OUT_BACKGROUND)] = a.backgroundColor.map { Double($0.rgb) } ?? -1
    o[Int(CARDLUA_OUT_BLUR_RADIUS)] = a.blurRadius
}

/// An element's output record (every v1 slot written) onto `item`.
private func applyRecord(_ o: UnsafePointer<Double>, to item: inout LayoutAttributes) {
    item.center = Point(x: o[Int(CARDLUA_OUT_CENTER_X)], y: o[Int(CARDLUA_OUT_CENTER_Y)])
    item.size = Size(width: o[Int(CARDLUA_OUT_WIDTH)], height: o[Int(CARDLUA_OUT_HEIGHT)])
    let m = o + Int(CARDLUA_OUT_M11)
    item.transform3D = Transform3D(
        m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7],
        m31: m[8], m32: m[9], m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15])
    item.alpha = o[Int(CARDLUA_OUT_ALPHA)]
    item.zIndex = Int(o[Int(CARDLUA_OUT_ZINDEX)])
    item.isHidden = o[Int(CARDLUA_OUT_HIDDEN)] != 0
    if o[Int(CARDLUA_OUT_EXTRAS)] != 0 { applyExtras(o, to: &item) }
}

/// The facing and appearance slots of an output record (CARDLUA_OUT_EXTRAS set) onto `item`.
private func applyExtras(_ o: UnsafePointer<Double>, to item: inout LayoutAttributes) {
    item.isDoubleSided = o[Int(CARDLUA_OUT_DOUBLE_SIDED)] != 0
    guard o[Int(CARDLUA_OUT_APPEARANCE)] != 0 else {
        item.appearance = nil
        return
    }
    let background = o[Int(CARDLUA_OUT_BACKGROUND)]
    item.appearance = CardAppearance(
        cornerRadius: o[Int(CARDLUA_OUT_CORNER_RADIUS)], shadowOpacity: o[Int(CARDLUA_OUT_SHADOW_OPACITY)],
        shadowRadius: o[Int(CARDLUA_OUT_SHADOW_RADIUS)],
        shadowOffset: Size(width: o[Int(CARDLUA_OUT_SHADOW_OFFSET_W)], height: o[Int(CARDLUA_OUT_SHADOW_OFFSET_H)]),
        backgroundColor: background >= 0 ? CardColor(rgb: UInt32(background)) : nil,
        blurRadius: o[Int(CARDLUA_OUT_BLUR_RADIUS)])
}

/// `transform`'s output record `o` (offset into `out`), extras set, onto `item`.
func readExtras(_ out: UnsafeBufferPointer<Double>, at o: Int, into item: inout LayoutAttributes) {
    applyExtras(out.baseAddress! + o, to: &item)
}

extension LayoutQuery {
    /// One item for the script's `layout:layoutAttributesForItem` (cardlua_item_fn).
    func lookUp(section: Int, item: Int, base: UnsafeMutablePointer<Double>?,
                sections: UnsafeMutablePointer<Int>?, items: UnsafeMutablePointer<Int>?) -> Int32 {
        let lookup: (any ItemLayoutProviding)?
        if let flow { lookup = flow.pointee } else { lookup = other as? any ItemLayoutProviding }
        guard let lookup else { return -1 }
        let count = lookup.numberOfSections
        sections?.pointee = count
        items?.pointee = section >= 0 && section < count ? lookup.numberOfItems(inSection: section) : -1
        guard let found = lookup.baseLayoutAttributesForItem(at: CardIndexPath(item: item, section: section)) else {
            return 0
        }
        if let base { writeBase(found, to: base) }
        return 1
    }
}

/// Called from C (inside a protected Lua call): one item's base attributes. Touches no
/// Lua and cannot fail.
let itemQueryCallback: cardlua_item_fn = { context, section, item, base, sections, items in
    guard let context else { return -1 }
    return Unmanaged<LayoutQuery>.fromOpaque(context).takeUnretainedValue()
        .lookUp(section: section, item: item, base: base, sections: sections, items: items)
}
