// `@State` and `Binding` (iOS 17 SDK): `@propertyWrapper struct State<Value> :
// DynamicProperty { init(wrappedValue:); var wrappedValue: Value { get nonmutating set };
// var projectedValue: Binding<Value> { get } }`, `@propertyWrapper @dynamicMemberLookup
// struct Binding<Value> { var wrappedValue: Value { get nonmutating set };
// static func constant(_ value: Value) -> Binding<Value> }`.

/// `public protocol DynamicProperty`.
public protocol DynamicProperty {}

final class ShimBox<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

@propertyWrapper public struct State<Value>: DynamicProperty {
    let box: ShimBox<Value>
    public init(wrappedValue value: Value) { box = ShimBox(value) }
    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }
    public var projectedValue: Binding<Value> { Binding(get: { box.value }, set: { box.value = $0 }) }
}

@propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
    let get: () -> Value
    let set: (Value) -> Void
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }
    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }
    public static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        Binding<Subject>(get: { get()[keyPath: keyPath] }, set: { var v = get(); v[keyPath: keyPath] = $0; set(v) })
    }
}
