import CardLuaTestSupport
import Foundation
import Testing

@testable import CardLua

/// The hand-written scan behind `check`'s dropped-result warnings, against the regular
/// expressions it replaced (written here as the reference: the same rules, found by ICU).
@Suite struct DroppedResultScannerTests {
    /// The reference: every call the pattern finds on a line, as (start, receiver, method,
    /// function).
    static func referenceCalls(_ line: String) -> [DroppedResultScanner.Call] {
        let pattern = #"(?:^|;|\bthen\b|\bdo\b|\belse\b)\s*(?:([A-Za-z_][\w.]*)\s*:\s*(rotate|scale|translate|concat|invert)|((?:CATransform3D|CGAffineTransform)\w+))\s*\("#
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: line, range: NSRange(line.startIndex..., in: line)).compactMap { match in
            func group(_ k: Int) -> Range<String.Index>? { Range(match.range(at: k), in: line) }
            guard let start = (group(1) ?? group(3))?.lowerBound else { return nil }
            return DroppedResultScanner.Call(
                start: line.unicodeScalars[..<start].count,
                receiver: group(1).map { String(line[$0]) }, method: group(2).map { String(line[$0]) },
                function: group(3).map { String(line[$0]) })
        }
    }

    static func referenceContinues(_ line: String) -> Bool {
        let regex = try! NSRegularExpression(pattern: #"(?:[=,(\[{+\-*/%^<>~]|\.\.|\b(?:and|or|not|return|local|in))\s*$"#)
        return regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
    }

    static let tricky = [
        "t:rotate(0.5, 0, 1, 0)", "  CATransform3DScale(t, 2, 2, 1)", "x = 1; t:scale(2, 2, 1); u:invert()",
        "if a then t:scale(2) end", "if a then t : rotate (1) else CGAffineTransformInvert(t) end",
        "while true do self.t.m:concat(u) end", "elseif b then t:translate(1, 0, 0) end", "repeat t:rotate(1) until x",
        "t = t:translate(1, 0, 0)", "local u = t:concat(t); t = u", "thenx:rotate(1)", "undo:rotate(1)", "do:rotate(1)",
        "then t:rotate(1)", ";t:rotate(1)", "; ; t:rotate(1)", "1else t:rotate(1)", "t:rotateX(1)", "t:rotate",
        "CATransform3D(1)", "CATransform3DIdentity", "CATransform3DRotate (t, 1, 0, 0, 1)",
        "x:scale(1) t:scale(2); y:scale(3)", "a.b.c:invert()", "_t:invert();", "9t:invert()", "é:rotate(1)",
        "then\tt:rotate(1)", "else;t:rotate(1)", "t:rotate(1)t:rotate(2)", "doé t:rotate(1)", "do t:rotate(CATransform3DScale(u, 1))",
        "", ";", "then", "t:", "CGAffineTransformMakeScale(2, 2)", "print(t:rotate(1))", "x = {t:rotate(1)}",
    ]

    @Test func findsWhatTheRegularExpressionFinds() throws {
        for line in Self.tricky {
            #expect(DroppedResultScanner.calls(in: line) == Self.referenceCalls(line), "\(line)")
        }
        // Every line of every script in the repository.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var lines = 0
        for folder in ["scripts", "scripts/effects"] {
            let directory = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".lua") {
                let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
                for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    let line = String(raw)
                    lines += 1
                    #expect(DroppedResultScanner.calls(in: line) == Self.referenceCalls(line), "\(name): \(line)")
                    #expect(DroppedResultScanner.continues(line) == Self.referenceContinues(line), "\(name): \(line)")
                }
            }
        }
        #expect(lines > 5000)
    }

    /// Lines made of random pieces of Lua, with a fixed seed.
    @Test func agreesOnRandomLines() {
        let pieces = ["t", ":", "rotate", "scale", "invert", "(", ")", " ", "\t", ";", "then", "do", "else", "end",
                      "CATransform3D", "CGAffineTransform", "Scale", "x", ".", "=", ",", "..", "and", "in", "1", "_",
                      "é", "local", "return", "-", "{", "~", "not"]
        var generator = SplitMix64(seed: 0x5eed)
        for _ in 0..<4000 {
            let count = 1 + generator.below(12)
            let line = (0..<count).map { _ in generator.pick(pieces) }.joined()
            #expect(DroppedResultScanner.calls(in: line) == Self.referenceCalls(line), "\(line)")
            #expect(DroppedResultScanner.continues(line) == Self.referenceContinues(line), "\(line)")
        }
    }

    /// The line helpers against the Foundation calls they replaced.
    @Test func lineHelpersAgreeWithFoundation() {
        var generator = SplitMix64(seed: 0xc0de)
        let pieces = ["-", "--", " ", "\t", "\u{00A0}", "x", ":", "CATransform3D", "CGAffine", "Transform", "é", "\"", "e\u{301}", "\r"]
        var lines = Self.tricky + ["-- all comment", "x = 1 -- note", "  \t ", "\u{2003}", "a-b", "a - -b", "--[[ x ]] t:rotate(1)"]
        for _ in 0..<3000 {
            lines.append((0..<(1 + generator.below(10))).map { _ in generator.pick(pieces) }.joined())
        }
        for line in lines {
            let raw = Substring(line)
            let reference = raw.range(of: "--").map { String(raw[..<$0.lowerBound]) } ?? String(raw)
            #expect(DroppedResultScanner.code(of: raw) == reference, "\(line)")
            #expect(DroppedResultScanner.isBlank(line) == line.trimmingCharacters(in: .whitespaces).isEmpty, "\(line)")
            let holds = line.contains("CATransform3D") || line.contains("CGAffineTransform") || line.contains(":")
            #expect(DroppedResultScanner.mayHoldCall(line) == holds, "\(line)")
        }
    }

    @Test func continuationRules() {
        for line in ["x = a +", "f(a,", "t = ", "s = s ..", "local", "return", "if a and", "for k in", "x = not "] {
            #expect(DroppedResultScanner.continues(line) && Self.referenceContinues(line), "\(line)")
        }
        for line in ["x = a", "f(a)", "island", "band", "return_", "", "  ", "x = 1."] {
            #expect(!DroppedResultScanner.continues(line) && !Self.referenceContinues(line), "\(line)")
        }
    }
}
