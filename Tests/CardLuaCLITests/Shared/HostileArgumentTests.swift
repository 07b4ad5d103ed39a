@testable import CardLua
@testable import CardLuaCLI
import CardLuaTestSupport
import Foundation
import Testing

/// Hostile values on the command line: every message that repeats one escapes its control
/// characters and cuts it, and closest-name searches skip long words (issue 23, item 4).
/// In process: the same dispatch and report as `cardlua`, without launching it.
@Suite struct HostileArgumentTests {
    /// Sets a terminal's title, rings, clears the screen, starts a C1 sequence, breaks the
    /// line, then goes on for 120 000 bytes.
    static let hostile = "x\u{1B}]0;t\u{7}\u{1B}[2J\u{9B}31m\r\nline two\u{7F}\u{202E}"
        + String(repeating: "a", count: 120_000)

    /// A script path that exists nowhere, for the commands that need one.
    static let script = "/nonexistent-cardlua-test-dir/x.lua"

    /// A command line with ``hostile`` in it, shown in test logs by its shape only.
    struct Case: CustomTestStringConvertible, Sendable {
        var words: [String]
        var testDescription: String {
            words.map { $0.count > 40 ? "HOSTILE" : $0 }.joined(separator: " ")
        }
    }

    /// Every option that takes a value, with the hostile value, and the unknown words.
    static let cases: [Case] = {
        let h = hostile, s = script
        return [[String]]([
            ["run", s, "--offset", h], ["run", s, "--offset=" + h], ["run", s, "--fling", h],
            ["run", s, "--items", h], ["run", s, "--viewport", h], ["run", s, "--format", h],
            ["run", s, "--fps", h], ["run", s, "--max-memory", h], ["run", s, "--max-time", h],
            ["run", s, "--max-run-time", h], ["run", s, "--max-steps", h], ["run", s, "--max-instructions", h], ["run", s, "--max-output", h],
            ["run", s, "--param", h], ["run", s, "--param", "rotate=" + h], ["run", s, "--param", h + "=1"],
            ["run", s, h], ["run", s, "--rtl=" + h], ["run", s, "--" + h],
            ["watch", s, "--viewport", h], ["check", s, "--max-memory", h], ["check", s, "--param", h], ["check", s, h],
            ["play", s, "--port", h], ["play", s, "--items", h], ["play", s, "--viewport", h], ["play", s, h],
            ["bench", s, "--items", h], ["bench", s, "--repeat", h], ["bench", s, "--frames", h],
            ["bench", s, "--iterations", h], ["bench", s, "--viewport", h], ["bench", s, "--twin", h],
            ["gallery", "--only", h], ["gallery", "--only", "lol," + h], ["gallery", "--fps", h], ["gallery", h],
            ["new", "--from", h, "x.lua"], ["new", "--list", h], ["new", "a.lua", h], ["new", h + ".lua"],
            ["types", h], [h], ["help", h], ["run", "--" + h + "=1"],
            ["export", s, h], ["export", s, "--param", h], ["watch", s, h],
        ]).map(Case.init)
    }()

    /// What `cardlua` would write on standard error for `words`, and its exit status.
    static func outcome(_ words: [String]) -> (stderr: String, status: Int32) {
        do {
            let status = try CardLuaCommand.dispatch(words)
            return ("", status)
        } catch {
            let (lines, status) = CardLuaCommand.report(of: error)
            return (lines.map(Console.errorText).joined(), status)
        }
    }

    static func assertSafe(_ text: String, _ comment: Comment) {
        let bytes = Array(text.utf8)
        let body = bytes.last == 0x0A ? bytes.dropLast() : bytes[...]
        let bad = body.filter { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F || $0 == 0x1B }
        #expect(bad.isEmpty, "\(comment): control bytes \(bad)")
        // C1 controls (U+0080…U+009F) in UTF-8: C2 80…C2 9F.
        #expect(!zip(body, body.dropFirst()).contains { $0 == 0xC2 && (0x80...0x9F).contains($1) }, comment)
        #expect(bytes.count < 600, "\(comment): \(bytes.count) bytes")
    }

    @Test(arguments: cases)
    func aHostileValueComesBackEscapedAndCut(_ hostileCase: Case) {
        let shown = hostileCase.testDescription
        let (stderr, status) = Self.outcome(hostileCase.words)
        #expect(status == 2, "\(shown): \(stderr)")
        Self.assertSafe(stderr, "\(shown)")
        #expect(stderr.split(separator: "\n").count == 2, "one line and the pointer to --help: \(stderr)")
    }

    /// The script path is repeated as the user gave it, escaped: one line, exit 1.
    @Test func aMissingScriptWithControlCharactersIsOneSafeLine() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.path + "/no\nsuch\u{1B}[2J" + String(repeating: "b", count: 180) + ".lua"  // a name within NAME_MAX, a path past the cut
        for command in ["run", "play"] {
            let (stderr, status) = Self.outcome([command, path])
            #expect(status == 1, "\(command): \(stderr)")
            Self.assertSafe(stderr, "\(command)")
            #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
            #expect(stderr.contains("no such file") && stderr.contains("\\n") && stderr.contains("\\e[2J"), "\(stderr)")
        }
    }

    /// The real bytes on the real standard error, through the built `cardlua` (hang guard).
    @Test func theBuiltCommandWritesNoEscapeBytes() throws {
        for words in [["run", Self.script, "--offset", Self.hostile], ["new", "--from", Self.hostile, "x.lua"]] {
            let result = try CLI.run(words, timeout: 30)
            #expect(!result.timedOut)
            #expect(result.status == 2, "\(result.stderr)")
            Self.assertSafe(result.stderr, "\(words[0])")
        }
    }

    @Test func echoEscapesControlsAndCuts() {
        #expect(Echo.safe("a\u{1B}[2Jb\u{7}\n\t\r\u{0}\u{7F}\u{85}") == "a\\e[2Jb\\u{7}\\n\\t\\r\\u{0}\\u{7f}\\u{85}")
        #expect(Echo.safe("é日本 plain") == "é日本 plain")
        #expect(Echo.safe("line\n\tindented\u{1B}", limit: nil, keepingLines: true) == "line\n\tindented\\e")
        let long = Echo.safe(String(repeating: "z", count: 1000))
        #expect(long.unicodeScalars.count == 200 && long.hasSuffix("…"))
        #expect(Echo.safe(String(repeating: "z", count: 200)) == String(repeating: "z", count: 200))
        // An escape is never split by the cut.
        let escapes = Echo.safe(String(repeating: "\u{7}", count: 100))
        #expect(escapes.unicodeScalars.count <= 200 && escapes.hasSuffix("\\u{7}…"))
    }

    @Test func closestNamesSkipLongWords() {
        #expect(Arguments.closest(to: "rnu", in: ["run", "new"]) == "run")
        #expect(Arguments.closest(to: String(repeating: "r", count: 65), in: ["run"]) == nil)
        // The script-side search (--param names, keys): the same cap.
        #expect(Suggest.closest(to: "rotat", in: ["rotate"]) == "rotate")
        let long = String(repeating: "a", count: 64)
        #expect(Suggest.closest(to: long + "b", in: [long]) == nil)
    }
}
