#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What tells one version of a file from the next, read with one `stat(2)`: the device and
/// inode (an editor that saves by renaming a new file over the old one changes these),
/// the size, and the modification and status-change times to the nanosecond, and whether
/// it is a regular file. A `stat` never opens the file, so a FIFO or a device put in the
/// script's place is seen without waiting on it: a change like any other, whose reading
/// (``RegularFile``) then refuses it with its one-line error.
struct FileStamp: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
    var changedSeconds: Int
    var changedNanoseconds: Int
    /// False for a FIFO, a device, a socket or a folder in the file's place.
    var isRegular = true

    /// The stamp of the file at `path` now, or nil when there is none.
    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec, changed = info.st_ctimespec
        #else
        let modified = info.st_mtim, changed = info.st_ctim
        #endif
        return FileStamp(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                         modifiedSeconds: Int(modified.tv_sec), modifiedNanoseconds: Int(modified.tv_nsec),
                         changedSeconds: Int(changed.tv_sec), changedNanoseconds: Int(changed.tv_nsec),
                         isRegular: (info.st_mode & S_IFMT) == S_IFREG)
    }
}

/// Watches one file by polling its ``FileStamp``: portable (no inotify or kqueue), and it
/// sees every way an editor saves — in place, by truncating and writing, or by writing a
/// new file and renaming it over the old one — because it follows the path, not an open
/// file.
struct FileWatcher {
    /// What happened to the file.
    enum Event: Equatable {
        /// It changed (or appeared) and has settled: read it now.
        case changed
        /// It is gone (for two polls in a row, so a rename-over save in progress is not
        /// mistaken for a deletion).
        case missing
    }

    let path: String
    /// Seconds between polls.
    var interval: Double = 0.05
    /// Seconds a changed file must stay the same before it counts as saved (an editor's
    /// truncate-then-write shows as two changes).
    var settle: Double = 0.015
    /// Seconds a file that became empty must stay empty before it counts as saved.
    ///
    /// A save in place truncates the file and then writes it: on a loaded machine the
    /// writer can be descheduled between the two for longer than ``settle``, and running
    /// the empty file in between (a valid, blank effect) would replace the last output
    /// with a blank carousel — and, for a broken save, report success before the error.
    /// Nobody saves an empty script on purpose and then minds a second's wait.
    var emptyGrace: Double = 1.0
    /// Reads a path's stamp (``FileStamp/of(_:)``; tests pass a scripted sequence).
    var stamp: (String) -> FileStamp? = FileStamp.of
    /// Waits this many seconds (`nanosleep`; tests pass a clock of their own).
    var pause: (Double) -> Void = FileWatcher.sleep(seconds:)

    /// The stamp of the version last reported (nil: no file).
    private(set) var current: FileStamp?

    init(path: String) {
        self.path = path
        current = FileStamp.of(path)
    }

    /// A watcher that reads stamps and waits through the given functions (for tests).
    init(path: String, stamp: @escaping (String) -> FileStamp?, pause: @escaping (Double) -> Void) {
        self.path = path
        self.stamp = stamp
        self.pause = pause
        current = stamp(path)
    }

    /// Whether the file exists, as of the last poll.
    var exists: Bool { current != nil }

    /// Waits for the next change; nil once `shouldStop` says so (checked every poll).
    mutating func next(shouldStop: () -> Bool) -> Event? {
        var missingPolls = 0
        while !shouldStop() {
            pause(interval)
            let now = stamp(path)
            if now == current { missingPolls = 0; continue }
            guard now != nil else {
                missingPolls += 1
                if missingPolls >= 2 {
                    current = nil
                    return .missing
                }
                continue
            }
            guard let settled = settledStamp() else { continue }
            current = settled
            return .changed
        }
        return nil
    }

    /// The file's stamp once two reads in a row agree (a few tries at most), and, when the
    /// file is empty, once it has stayed empty for ``emptyGrace`` (or filled up); nil if it
    /// vanished meanwhile. (A FIFO or a device has no size to wait for: only a regular
    /// file that is empty gets the grace.)
    private func settledStamp() -> FileStamp? {
        guard var settled = stamp(path) else { return nil }
        var waitedEmpty = 0.0
        var tries = 0
        func empty(_ stamp: FileStamp) -> Bool { stamp.isRegular && stamp.size == 0 }
        while tries < 20 || (empty(settled) && waitedEmpty < emptyGrace) {
            pause(settle)
            if empty(settled) { waitedEmpty += settle }
            tries += 1
            guard let again = stamp(path) else { return nil }
            if again == settled {
                if !empty(settled) || waitedEmpty >= emptyGrace { break }
                continue
            }
            settled = again
            waitedEmpty = 0
        }
        return settled
    }

    private static func sleep(seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

/// Ctrl-C (and SIGTERM, SIGHUP) as a flag the watch loop polls, so that it ends between
/// runs, cleanly. A second signal before the loop notices ends the process at once.
final class InterruptFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    private var sources: [any DispatchSourceSignal] = []

    /// Whether a signal has arrived.
    var isRaised: Bool {
        lock.lock()
        defer { lock.unlock() }
        return raised
    }

    /// Raises the flag; returns whether it was already raised.
    fileprivate func raise() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let was = raised
        raised = true
        return was
    }

    /// Catches SIGINT, SIGTERM and SIGHUP from now on.
    static func install() -> InterruptFlag {
        let flag = InterruptFlag()
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                if flag.raise() { _exit(130) }
            }
            source.resume()
            flag.sources.append(source)
        }
        return flag
    }
}
