// View modifiers the export uses, with the iOS 17 SDK's signatures (each returns
// `some View`, as there): frame, padding, background, zIndex, visualEffect, onChange,
// scrollTargetLayout, scrollTargetBehavior, scrollPosition.

/// A value the driver reads on the main actor, where the views it came from live.
struct ShimUnchecked<T>: @unchecked Sendable {
    let value: T
}

/// A view and what a modifier does to it, for the driver.
struct ShimModified<Content: View>: View, ShimPrimitive {
    let content: Content
    let wrap: @MainActor (ShimNode) -> ShimNode
    var body: Never { fatalError() }
    @MainActor func shimNode() -> ShimNode { wrap(ShimNode.of(content)) }
}

extension View {
    /// `func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View`.
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View {
        ShimModified(content: self) { .frame(width: width, height: height, alignment: alignment, content: $0) }
    }

    /// `func padding(_ insets: EdgeInsets) -> some View`.
    public func padding(_ insets: EdgeInsets) -> some View {
        ShimModified(content: self) { .padding(insets, content: $0) }
    }

    /// `func background<V>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View where V : View`.
    public func background<V>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View where V: View {
        let background = ShimUnchecked(value: content())
        return ShimModified(content: self) { .background(ShimNode.of(background.value), content: $0) }
    }

    /// `func zIndex(_ value: Double) -> some View`.
    public func zIndex(_ value: Double) -> some View {
        ShimModified(content: self) { .zIndex(value, content: $0) }
    }

    /// `func visualEffect(_ effect: @escaping @Sendable (EmptyVisualEffect, GeometryProxy) -> some VisualEffect) -> some View`.
    public func visualEffect(_ effect: @escaping @Sendable (EmptyVisualEffect, GeometryProxy) -> some VisualEffect) -> some View {
        ShimModified(content: self) { node in .visualEffect({ effect($0, $1) }, content: node) }
    }

    /// `func onChange<V>(of value: V, initial: Bool = false,
    /// _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void) -> some View where V : Equatable`.
    public func onChange<V>(of value: V, initial: Bool = false,
                            _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void) -> some View where V: Equatable {
        let run = ShimUnchecked(value: { action(value, value) })
        return ShimModified(content: self) { .onChange(initial ? run.value : {}, content: $0) }
    }

    /// `func scrollTargetLayout(isEnabled: Bool = true) -> some View`.
    public func scrollTargetLayout(isEnabled: Bool = true) -> some View {
        ShimModified(content: self) { $0 }
    }

    /// `func scrollTargetBehavior(_ behavior: some ScrollTargetBehavior) -> some View`.
    public func scrollTargetBehavior(_ behavior: some ScrollTargetBehavior) -> some View {
        let kept = ShimUnchecked(value: behavior as any ScrollTargetBehavior)
        return ShimModified(content: self) { .scrollTargetBehavior(kept.value, content: $0) }
    }

    /// `func scrollPosition(id: Binding<(some Hashable)?>) -> some View`.
    public func scrollPosition(id: Binding<(some Hashable)?>) -> some View {
        ShimModified(content: self) { $0 }
    }
}
