import Foundation

/// A value that many tests share and that takes long to make (a compile, many runs),
/// made once on a thread of its own and awaited.
///
/// A `static let` would be made by the first test that reads it while every other reader
/// blocks: on a 2-core machine Swift Testing's pool has two threads, so two readers stop
/// the whole suite until the value is ready, even while its work waits on a child process
/// (`swiftc`). Awaiting this instead suspends the readers and leaves the pool's threads to
/// the other suites.
package final class OffPoolValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private let make: @Sendable () throws -> Value
    private var outcome: Result<Value, any Error>?
    private var started = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// `make` runs at the first read, once, on a thread with an 8 MiB stack (the size of
    /// the main thread's: the work may run Lua, which recurses on the C stack).
    package init(_ make: @escaping @Sendable () throws -> Value) {
        self.make = make
    }

    /// The value, or the error making it threw.
    package var result: Result<Value, any Error> {
        get async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                if outcome != nil {
                    lock.unlock()
                    continuation.resume()
                    return
                }
                waiters.append(continuation)
                let start = !started
                started = true
                lock.unlock()
                if start { startThread() }
            }
            return lock.withLock { outcome! }
        }
    }

    private func startThread() {
        let thread = Thread { [self] in
            let made = Result { try make() }
            lock.lock()
            outcome = made
            let ready = waiters
            waiters = []
            lock.unlock()
            for waiter in ready { waiter.resume() }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
