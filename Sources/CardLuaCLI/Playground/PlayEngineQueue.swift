import CardServe
import Foundation

/// The one thread `cardlua play`'s engine runs on, off the server's connection loop: the
/// page, its event stream and Ctrl-C are answered while a frame is computed.
///
/// Jobs run one at a time, in order (one frame in flight). A job with a key replaces the
/// last queued job if it has the same key (a newer finger position, a newer request for
/// frames, a newer value of the same slider): the older request gets the newer one's
/// answer, and a slow script costs the page the latest input's frames, not a backlog.
/// Only the last queued job is replaced, so inputs keep their order.
final class PlayEngineQueue: @unchecked Sendable {
    // @unchecked: `jobs` and `stopped` are guarded by `condition`.
    private struct Job {
        var key: String?
        var work: @Sendable () -> HTTPResponse
        var done: [@Sendable (HTTPResponse) -> Void]
    }

    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var stopped = false

    /// Starts the engine's thread (a large stack: the script's C calls run on it).
    init() {
        let thread = Thread { [self] in self.run() }
        thread.name = "cardlua play engine"
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Queues `work`; `done` gets its answer (or a newer job's, see the type) on the
    /// engine's thread. Dropped after ``stop()``.
    func submit(key: String?, work: @escaping @Sendable () -> HTTPResponse,
                done: @escaping @Sendable (HTTPResponse) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        if let key, let last = jobs.last, last.key == key {
            jobs[jobs.count - 1].work = work
            jobs[jobs.count - 1].done.append(done)
        } else {
            jobs.append(Job(key: key, work: work, done: [done]))
        }
        condition.signal()
    }

    /// Jobs waiting to run (not the one running).
    var queued: Int {
        condition.lock()
        defer { condition.unlock() }
        return jobs.count
    }

    /// No more jobs: the queued ones are dropped; one running finishes on its own (the
    /// process may end first). Returns at once.
    func stop() {
        condition.lock()
        stopped = true
        jobs.removeAll()
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if stopped {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            let response = job.work()
            for done in job.done { done(response) }
        }
    }
}
