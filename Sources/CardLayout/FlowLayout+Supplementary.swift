extension FlowLayout {
    /// The headers and footers meeting `rect`, as a frame carries them
    /// (``Frame/supplementary``): by section, a header before its footer. Costs nothing
    /// when the layout has neither (no reference extent on the scroll axis).
    public func supplementaryAttributes(in rect: Rect) -> [SupplementaryAttributes] {
        supplementaryFrames(in: rect).map { SupplementaryAttributes(kind: $0.kind, section: $0.section, frame: $0.frame) }
    }
}
