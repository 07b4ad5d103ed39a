import Foundation

/// One slot per task of a `DispatchQueue.concurrentPerform`, each written by its own
/// thread and read once all have finished: the gallery's demos and their JSON.
package final class ConcurrentSlots<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value?]

    package init(count: Int) { values = Array(repeating: nil, count: count) }

    /// The value set for `index`, or nil while its task has not set one.
    package subscript(index: Int) -> Value? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return values[index]
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            values[index] = newValue
        }
    }
}
