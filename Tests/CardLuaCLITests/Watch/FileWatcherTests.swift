@testable import CardLuaCLI
import Testing

/// `FileWatcher`'s rules, on a scripted file and a clock the test owns: no scheduler, no
/// file system, so every run sees the same sequence.
@Suite struct FileWatcherTests {
    /// A stamp that differs from another by its size and modification time.
    static func stamp(size: Int64, at time: Int) -> FileStamp {
        FileStamp(device: 1, inode: 7, size: size, modifiedSeconds: time, modifiedNanoseconds: 0,
                  changedSeconds: time, changedNanoseconds: 0)
    }

    /// A file whose stamp is a function of the watcher's own clock.
    final class ScriptedFile {
        var clock = 0.0
        let versions: [(until: Double, stamp: FileStamp?)]
        init(_ versions: [(until: Double, stamp: FileStamp?)]) { self.versions = versions }
        func stamp() -> FileStamp? { versions.first { clock < $0.until }?.stamp ?? versions.last?.stamp ?? nil }
        func watcher() -> FileWatcher {
            FileWatcher(path: "effect.lua", stamp: { _ in self.stamp() }, pause: { self.clock += $0 })
        }
    }

    @Test func anInPlaceSaveIsReportedOnceFilledNotWhileEmpty() {
        let old = Self.stamp(size: 120, at: 1), truncated = Self.stamp(size: 0, at: 2), saved = Self.stamp(size: 95, at: 3)
        // Truncated at 0.1 s, written 0.6 s later: far longer than `settle`, as when the
        // writer is descheduled on a loaded machine.
        let file = ScriptedFile([(0.1, old), (0.7, truncated), (.infinity, saved)])
        var watcher = file.watcher()
        #expect(watcher.next(shouldStop: { false }) == .changed)
        #expect(watcher.current == saved, "the empty moment in between must not be reported")
        #expect(file.clock >= 0.7)
    }

    @Test func aFileThatStaysEmptyIsReportedAfterTheGrace() {
        let old = Self.stamp(size: 120, at: 1), emptied = Self.stamp(size: 0, at: 2)
        let file = ScriptedFile([(0.1, old), (.infinity, emptied)])
        var watcher = file.watcher()
        #expect(watcher.next(shouldStop: { false }) == .changed)
        #expect(watcher.current == emptied)
        #expect(file.clock >= 0.1 + watcher.emptyGrace)
    }

    @Test func aNonEmptySaveSettlesWithoutTheGrace() {
        let old = Self.stamp(size: 120, at: 1), saved = Self.stamp(size: 130, at: 2)
        let file = ScriptedFile([(0.1, old), (.infinity, saved)])
        var watcher = file.watcher()
        #expect(watcher.next(shouldStop: { false }) == .changed)
        #expect(watcher.current == saved)
        #expect(file.clock < 0.1 + watcher.emptyGrace / 2)
    }

    @Test func aVanishedFileIsMissingAfterTwoPolls() {
        let old = Self.stamp(size: 120, at: 1)
        let file = ScriptedFile([(0.1, old), (.infinity, nil)])
        var watcher = file.watcher()
        #expect(watcher.next(shouldStop: { false }) == .missing)
        #expect(!watcher.exists)
    }
}
