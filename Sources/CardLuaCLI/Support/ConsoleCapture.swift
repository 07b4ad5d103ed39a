import Foundation

/// Standard output and error of one in-process run of the command, for tests: inside
/// ``Console/capturing(_:)`` what ``Console`` and standard output's ``OutputFile`` would
/// write to descriptors 1 and 2 is kept here instead (what Lua's `print` and `warn` write
/// from C still goes to the process's standard error).
///
/// A task-local, not a global, so that tests running side by side each see their own.
final class ConsoleCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var outBytes: [UInt8] = []
    private var errorBytes: [UInt8] = []

    /// What was written to standard output.
    var standardOutput: String { lock.withLock { String(decoding: outBytes, as: UTF8.self) } }
    /// What was written to standard error.
    var standardError: String { lock.withLock { String(decoding: errorBytes, as: UTF8.self) } }

    /// Keeps `bytes` written to `descriptor` (1 or 2).
    func append(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        lock.withLock {
            if descriptor == 2 { errorBytes.append(contentsOf: bytes) } else { outBytes.append(contentsOf: bytes) }
        }
    }

    /// The capture of the running task, if any.
    @TaskLocal static var current: ConsoleCapture?
}

extension Console {
    /// Runs `body` with standard output and error captured (``ConsoleCapture``) and not a
    /// terminal: a test's way to run a command in process and see what a user would see.
    static func capturing<T>(_ body: () throws -> T) rethrows -> (result: T, capture: ConsoleCapture) {
        let capture = ConsoleCapture()
        let result = try ConsoleCapture.$current.withValue(capture) { try body() }
        return (result, capture)
    }
}
