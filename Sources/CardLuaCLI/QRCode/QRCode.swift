/// A QR code (ISO/IEC 18004) of a short text, for `cardlua play --lan`'s URL: byte mode,
/// error correction level M (or L), the smallest version from 1 to 10 that holds it
/// (up to 213 bytes at M), and the mask whose penalty (the standard's four rules) is
/// lowest. Written from the standard's description; `modules[row][column]` is true for
/// a dark module, without the quiet zone.
struct QRCode: Equatable {
    /// Error correction levels this encoder makes.
    enum Level: CaseIterable {
        /// ~7 % of the codewords may be restored.
        case low
        /// ~15 %.
        case medium

        /// The two bits of the format information (L 01, M 00).
        var formatBits: Int { self == .low ? 1 : 0 }
    }

    /// Why a text has no code here.
    struct TooLong: Error, Equatable {
        let bytes: Int
    }

    let version: Int
    let level: Level
    let mask: Int
    /// Dark modules, `modules[row][column]`, size × size.
    let modules: [[Bool]]
    var size: Int { modules.count }

    /// The code of `text`'s UTF-8 bytes.
    /// - Parameter mask: a mask from 0 to 7, or nil for the one the penalty rules choose.
    init(text: String, level: Level = .medium, mask forced: Int? = nil) throws(TooLong) {
        let data = Array(text.utf8)
        guard let version = (1...10).first(where: { QRCode.capacity(version: $0, level: level) >= data.count }) else {
            throw TooLong(bytes: data.count)
        }
        var grid = QRGrid(version: version)
        grid.drawFunctionPatterns()
        let codewords = QRCode.codewords(data, version: version, level: level)
        grid.place(codewords)
        let chosen = forced ?? (0..<8).min { a, b in
            QRCode.masked(grid, mask: a, level: level).penalty() < QRCode.masked(grid, mask: b, level: level).penalty()
        }!
        let done = QRCode.masked(grid, mask: chosen, level: level)
        self.version = version
        self.level = level
        self.mask = chosen
        self.modules = done.dark
    }

    /// `grid` with data modules flipped by `mask` and the format information drawn.
    static func masked(_ grid: QRGrid, mask: Int, level: Level) -> QRGrid {
        var copy = grid
        copy.applyMask(mask)
        copy.drawFormat(level: level, mask: mask)
        return copy
    }

    // MARK: Capacity and blocks

    /// Per version (index 0 is version 1): error correction codewords per block, and the
    /// data codewords of each block (group 1 then group 2), for L and for M.
    private static let blocksL: [(ec: Int, data: [Int])] = [
        (7, [19]), (10, [34]), (15, [55]), (20, [80]), (26, [108]),
        (18, [68, 68]), (20, [78, 78]), (24, [97, 97]), (30, [116, 116]), (18, [68, 68, 69, 69]),
    ]
    private static let blocksM: [(ec: Int, data: [Int])] = [
        (10, [16]), (16, [28]), (26, [44]), (18, [32, 32]), (24, [43, 43]),
        (16, [27, 27, 27, 27]), (18, [31, 31, 31, 31]), (22, [38, 38, 39, 39]),
        (22, [36, 36, 36, 37, 37]), (26, [43, 43, 43, 43, 44]),
    ]

    static func blocks(version: Int, level: Level) -> (ec: Int, data: [Int]) {
        (level == .low ? blocksL : blocksM)[version - 1]
    }

    /// Bits of the character count in byte mode.
    static func countBits(version: Int) -> Int { version < 10 ? 8 : 16 }

    /// The most bytes a version holds at a level in byte mode.
    static func capacity(version: Int, level: Level) -> Int {
        let dataBits = blocks(version: version, level: level).data.reduce(0, +) * 8
        return (dataBits - 4 - countBits(version: version)) / 8
    }

    /// The final sequence: data codewords then error correction codewords, each
    /// interleaved across the blocks.
    static func codewords(_ data: [UInt8], version: Int, level: Level) -> [UInt8] {
        let (ecLength, dataLengths) = blocks(version: version, level: level)
        let capacityBits = dataLengths.reduce(0, +) * 8
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> i) & 1 == 1) }
        }
        append(0b0100, 4)  // byte mode
        append(data.count, countBits(version: version))
        for byte in data { append(Int(byte), 8) }
        append(0, min(4, capacityBits - bits.count))  // the terminator, as much as fits
        while bits.count % 8 != 0 { bits.append(false) }
        var bytes: [UInt8] = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while bytes.count < capacityBits / 8 {
            bytes.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        var blocks: [[UInt8]] = []
        var start = 0
        for length in dataLengths {
            blocks.append(Array(bytes[start..<start + length]))
            start += length
        }
        let divisor = ReedSolomon.generator(degree: ecLength)
        let corrections = blocks.map { ReedSolomon.remainder($0, generator: divisor) }
        var out: [UInt8] = []
        for i in 0..<(dataLengths.max() ?? 0) { for block in blocks where i < block.count { out.append(block[i]) } }
        for i in 0..<ecLength { for block in corrections { out.append(block[i]) } }
        return out
    }

    // MARK: Terminal

    /// The code as text: two rows of modules per line in half blocks (▀ ▄ █), with a
    /// quiet zone of 4 modules. The blocks are the light modules, so on a terminal with
    /// light text on a dark background it reads as dark on light; `color` sets white
    /// on black with escape codes, so it reads so on any terminal.
    func terminalText(color: Bool = false) -> String {
        let quiet = 4, total = size + 2 * quiet
        func light(_ row: Int, _ column: Int) -> Bool {
            let r = row - quiet, c = column - quiet
            guard r >= 0, r < size, c >= 0, c < size else { return true }
            return !modules[r][c]
        }
        var out = ""
        for row in stride(from: 0, to: total, by: 2) {
            if color { out += "\u{1B}[97;40m" }
            for column in 0..<total {
                let top = light(row, column), bottom = row + 1 < total ? light(row + 1, column) : false
                out += top && bottom ? "█" : top ? "▀" : bottom ? "▄" : " "
            }
            out += color ? "\u{1B}[0m\n" : "\n"
        }
        return out
    }
}

/// Reed–Solomon error correction over GF(256) with the QR polynomial x⁸+x⁴+x³+x²+1.
enum ReedSolomon {
    /// a·b in GF(256) (Russian peasant multiplication, reduced by 0x11D).
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var x = Int(a), y = Int(b), product = 0
        while y != 0 {
            if y & 1 != 0 { product ^= x }
            x <<= 1
            if x & 0x100 != 0 { x ^= 0x11D }
            y >>= 1
        }
        return UInt8(product)
    }

    /// The generator polynomial ∏ (x − αⁱ), i < degree, α = 2: its coefficients after
    /// the leading 1, highest power first.
    static func generator(degree: Int) -> [UInt8] {
        var poly: [UInt8] = [1]  // highest power first, leading 1 included
        var root: UInt8 = 1
        for _ in 0..<degree {
            var next = [UInt8](repeating: 0, count: poly.count + 1)
            for (i, c) in poly.enumerated() {
                next[i] ^= c                          // c·x
                next[i + 1] ^= multiply(c, root)      // c·root (minus is plus in GF(2⁸))
            }
            poly = next
            root = multiply(root, 2)
        }
        return Array(poly.dropFirst())
    }

    /// The remainder of data(x)·x^degree divided by the generator: the error correction
    /// codewords.
    static func remainder(_ data: [UInt8], generator: [UInt8]) -> [UInt8] {
        var rest = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ rest[0]
            rest.removeFirst()
            rest.append(0)
            for i in rest.indices { rest[i] ^= multiply(generator[i], factor) }
        }
        return rest
    }
}
