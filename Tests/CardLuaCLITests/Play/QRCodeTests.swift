@testable import CardLuaCLI
import CardLuaTestSupport
import Foundation
import Testing

/// `play --lan`'s QR encoder (QRCode.swift, QRGrid.swift): Reed–Solomon and the format
/// and version bits against the standard's own examples, the penalty against sums done
/// by hand, and whole symbols against Debian's `qrencode` (an independent encoder).
@Suite struct QRCodeTests {
    /// ISO/IEC 18004's worked example (annex I): "01234567" in version 1-M has these 16 data
    /// codewords and these 10 error correction codewords.
    @Test func reedSolomonMatchesTheStandardsExample() {
        let data: [UInt8] = [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11]
        let ec = ReedSolomon.remainder(data, generator: ReedSolomon.generator(degree: 10))
        #expect(ec == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
    }

    /// The format bits of level M, mask 5 (the standard's table: 100000011001110), read
    /// back from the modules beside the top-left finder.
    @Test func formatInformationIsTheStandardsValue() throws {
        let code = try QRCode(text: "cardlua", level: .medium, mask: 5)
        let m = code.modules
        // Bits 14…9 along row 8 (columns 0…5), then 8 (column 7), 7 (row 8 column 8), 6 (row 7).
        let cells = [(8, 0), (8, 1), (8, 2), (8, 3), (8, 4), (8, 5), (8, 7), (8, 8), (7, 8),
                     (5, 8), (4, 8), (3, 8), (2, 8), (1, 8), (0, 8)]
        let read = cells.map { m[$0.0][$0.1] ? "1" : "0" }.joined()
        #expect(read == "100000011001110")
    }

    /// Version 7's version information is 000111110010010100 (the standard's table),
    /// bottom-left block read column by column: bit i at row size-11+i%3, column i/3.
    @Test func versionInformationIsTheStandardsValue() throws {
        let text = String(repeating: "x", count: 110)  // 110 bytes: version 7 at M (6 holds 106)
        let code = try QRCode(text: text)
        #expect(code.version == 7)
        var bits = 0
        for i in 0..<18 where code.modules[code.size - 11 + i % 3][i / 3] { bits |= 1 << i }
        #expect(bits == 0b000111110010010100)
    }

    @Test func versionsGrowWithTheText() throws {
        // Byte capacities at M (the standard's table): 14, 26, 42, 62, 84, 106, 122, 152, 180, 213.
        let capacities = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213]
        for (k, capacity) in capacities.enumerated() {
            #expect(try QRCode(text: String(repeating: "a", count: capacity)).version == k + 1)
            if k < 9 { #expect(try QRCode(text: String(repeating: "a", count: capacity + 1)).version == k + 2) }
        }
        #expect(throws: QRCode.TooLong(bytes: 214)) { _ = try QRCode(text: String(repeating: "a", count: 214)) }
    }

    /// An all-light 21×21 grid: 42 lines each one run of 21 (3 + 16), 400 2×2 blocks (3
    /// each), no finder-like pattern, 0 % dark (10 steps of 5 % from half: 100).
    @Test func penaltyOfAnEmptyGrid() {
        let grid = QRGrid(version: 1)
        #expect(grid.penalty() == 42 * 19 + 400 * 3 + 100)
    }

    /// A checkerboard: no runs, no blocks, no finder-like pattern, 221 of 441 dark (50 %).
    @Test func penaltyOfACheckerboard() {
        var grid = QRGrid(version: 1)
        for r in 0..<21 { for c in 0..<21 { grid.dark[r][c] = (r + c) % 2 == 0 } }
        #expect(grid.penalty() == 0)
    }

    @Test func theChosenMaskHasTheLowestPenalty() throws {
        let text = "http://127.0.0.2:8417/?token=0123456789abcdef0123456789abcdef"
        let chosen = try QRCode(text: text)
        let penalties = try (0..<8).map { mask in
            var grid = QRGrid(version: chosen.version)
            grid.dark = try QRCode(text: text, mask: mask).modules
            return grid.penalty()
        }
        #expect(penalties[chosen.mask] == penalties.min())
        #expect(penalties.firstIndex(of: penalties.min()!) == chosen.mask)
    }

    /// The terminal text is the code: two module rows a line, light modules as blocks.
    @Test func terminalTextReadsBackAsTheModules() throws {
        let code = try QRCode(text: "http://192.168.1.20:8417/?token=abc")
        let lines = code.terminalText().split(separator: "\n").map { Array($0) }
        let total = code.size + 8
        #expect(lines.count == (total + 1) / 2)
        for r in 0..<code.size {
            for c in 0..<code.size {
                let row = r + 4, ch = lines[row / 2][c + 4]
                let light = row % 2 == 0 ? (ch == "█" || ch == "▀") : (ch == "█" || ch == "▄")
                #expect(light == !code.modules[r][c], "row \(r) column \(c)")
            }
        }
        #expect(code.terminalText(color: true).hasPrefix("\u{1B}[97;40m"))
    }

    /// Whole symbols against `qrencode -8` (byte mode) at L and M for versions 1 to 10:
    /// the same modules under the mask qrencode chose (read from its format bits).
    @Test(.enabled(if: TestSupport.which("qrencode") != nil, "qrencode is not installed (scripts/bootstrap --test)"))
    func symbolsMatchQrencode() throws {
        let qrencode = try #require(TestSupport.which("qrencode"))
        var sameMask = 0, cases = 0
        for level in QRCode.Level.allCases {
            for length in [5, 20, 40, 60, 80, 100, 118, 150, 175, 200] {
                var text = "http://127.0.0.1:8417/?token="
                var generator = SplitMix64(seed: UInt64(length))
                while text.utf8.count < length { text += String(UInt8.random(in: 0...15, using: &generator), radix: 16) }
                text = String(text.prefix(length))
                guard QRCode.capacity(version: 10, level: level) >= text.utf8.count else { continue }
                let result = try TestSupport.run(URL(fileURLWithPath: qrencode),
                                                 ["-8", "-l", level == .low ? "L" : "M", "-m", "0", "-t", "ASCII", "-o", "-", text])
                #expect(result.status == 0, "\(result.stderr)")
                let theirs = result.stdout.split(separator: "\n").map { line in
                    stride(from: 0, to: line.count, by: 2).map { Array(line)[$0] == "#" }
                }
                // Their format bits (row 8, columns 0…5): level and mask after the XOR.
                let cells = [(8, 0), (8, 1), (8, 2), (8, 3), (8, 4)]
                let top = cells.reduce(0) { $0 << 1 | (theirs[$1.0][$1.1] ? 1 : 0) } ^ (0x5412 >> 10)
                let mask = top & 7
                #expect(top >> 3 == level.formatBits, "level bits of \(text)")
                let ours = try QRCode(text: text, level: level, mask: mask)
                #expect(ours.modules == theirs, "\(level) \(text.utf8.count) bytes, version \(ours.version), mask \(mask)")
                cases += 1
                if try QRCode(text: text, level: level).mask == mask { sameMask += 1 }
            }
        }
        #expect(cases == 20)
        // Mask choice: both follow the standard's rules; ties and the finder-like rule's
        // reading may differ, so most, not all, must agree.
        #expect(sameMask * 2 > cases, "the same mask in \(sameMask) of \(cases)")
    }
}
