/// The module grid of a QR code while it is drawn (``QRCode``): the function patterns,
/// the data in the zigzag order, the mask, the format and version information, and the
/// penalty a mask is judged by. Rows and columns from the top-left, 0-based.
struct QRGrid {
    let version: Int
    let size: Int
    /// Dark modules, `dark[row][column]`.
    var dark: [[Bool]]
    /// Modules of the function patterns (never data, never masked).
    var reserved: [[Bool]]

    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        dark = Array(repeating: Array(repeating: false, count: size), count: size)
        reserved = dark
    }

    private mutating func set(_ row: Int, _ column: Int, _ isDark: Bool) {
        dark[row][column] = isDark
        reserved[row][column] = true
    }

    /// Centres of the alignment patterns on either axis (version 2 and up).
    static func alignmentCentres(version: Int) -> [Int] {
        guard version > 1 else { return [] }
        let table: [[Int]] = [
            [6, 18], [6, 22], [6, 26], [6, 30], [6, 34],
            [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
        ]
        return table[version - 2]
    }

    mutating func drawFunctionPatterns() {
        // Timing patterns: row 6 and column 6 alternate, dark on even positions.
        for i in 0..<size {
            set(6, i, i % 2 == 0)
            set(i, 6, i % 2 == 0)
        }
        // Finder patterns with their light separators, at three corners.
        for (top, left) in [(0, 0), (0, size - 7), (size - 7, 0)] {
            for dr in -1...7 {
                for dc in -1...7 {
                    let r = top + dr, c = left + dc
                    guard r >= 0, r < size, c >= 0, c < size else { continue }
                    let ring = max(abs(dr - 3), abs(dc - 3))  // 0 centre … 3 outer edge, 4 separator
                    set(r, c, ring != 2 && ring != 4)
                }
            }
        }
        // Alignment patterns, except where they would cover a finder.
        let centres = Self.alignmentCentres(version: version)
        for r in centres {
            for c in centres {
                let nearFinder = (r == 6 && c == 6) || (r == 6 && c == centres.last!) || (r == centres.last! && c == 6)
                guard !nearFinder else { continue }
                for dr in -2...2 {
                    for dc in -2...2 { set(r + dr, c + dc, max(abs(dr), abs(dc)) != 1) }
                }
            }
        }
        // The format information's places (drawn per mask) and the dark module.
        drawFormatBits(0)
        set(size - 8, 8, true)
        // Version information (7 and up): 6 bits and a BCH(18, 6) remainder.
        if version >= 7 {
            var remainder = version
            for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) & 1 == 1 ? 0x1F25 : 0) }
            let bits = version << 12 | (remainder & 0xFFF)
            for i in 0..<18 {
                let bit = (bits >> i) & 1 == 1
                let a = size - 11 + i % 3, b = i / 3
                set(b, a, bit)  // top right: 6 columns × 3 rows
                set(a, b, bit)  // bottom left: 3 rows × 6 columns
            }
        }
    }

    /// Draws the format information for a level and a mask.
    mutating func drawFormat(level: QRCode.Level, mask: Int) {
        let data = level.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) & 1 == 1 ? 0x537 : 0) }
        drawFormatBits((data << 10 | (remainder & 0x3FF)) ^ 0x5412)
    }

    /// The 15 format bits (bit 0 the least significant) in both of their places.
    private mutating func drawFormatBits(_ bits: Int) {
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        // Around the top-left finder: column 8 going down, then row 8 going left.
        for i in 0..<6 { set(i, 8, bit(i)) }
        set(7, 8, bit(6))
        set(8, 8, bit(7))
        set(8, 7, bit(8))
        for i in 9..<15 { set(8, 14 - i, bit(i)) }
        // The copy: row 8 under the top-right finder, column 8 beside the bottom-left one.
        for i in 0..<8 { set(8, size - 1 - i, bit(i)) }
        for i in 8..<15 { set(size - 15 + i, 8, bit(i)) }
    }

    /// Puts the codewords' bits, most significant first, in the data modules: pairs of
    /// columns from the right (skipping the timing column), up then down, right module
    /// first. Modules left over (the remainder bits) stay light.
    mutating func place(_ codewords: [UInt8]) {
        var index = 0
        let total = codewords.count * 8
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = ((right + 1) & 2) == 0
            for step in 0..<size {
                let row = upward ? size - 1 - step : step
                for column in [right, right - 1] where !reserved[row][column] {
                    if index < total {
                        dark[row][column] = (codewords[index >> 3] >> (7 - (index & 7))) & 1 == 1
                        index += 1
                    }
                }
            }
            right -= 2
        }
    }

    /// Whether `mask` flips the module at row i, column j.
    static func flips(_ mask: Int, _ i: Int, _ j: Int) -> Bool {
        switch mask {
        case 0: return (i + j) % 2 == 0
        case 1: return i % 2 == 0
        case 2: return j % 3 == 0
        case 3: return (i + j) % 3 == 0
        case 4: return (i / 2 + j / 3) % 2 == 0
        case 5: return (i * j) % 2 + (i * j) % 3 == 0
        case 6: return ((i * j) % 2 + (i * j) % 3) % 2 == 0
        default: return ((i + j) % 2 + (i * j) % 3) % 2 == 0
        }
    }

    mutating func applyMask(_ mask: Int) {
        for i in 0..<size {
            for j in 0..<size where !reserved[i][j] && Self.flips(mask, i, j) { dark[i][j].toggle() }
        }
    }

    /// The standard's penalty: runs of five or more of a colour in a line (3 + the
    /// length beyond 5), 2×2 blocks of a colour (3 each), the finder-like pattern
    /// 1:1:3:1:1 with four light modules on a side (40 each), and the dark share's
    /// distance from half (10 per 5 %).
    func penalty() -> Int {
        var score = 0
        let lines = (0..<size).map { r in dark[r] } + (0..<size).map { c in (0..<size).map { dark[$0][c] } }
        let finderLike: [[Bool]] = [
            [true, false, true, true, true, false, true, false, false, false, false],
            [false, false, false, false, true, false, true, true, true, false, true],
        ]
        for line in lines {
            var run = 1
            for k in 1...size {
                if k < size && line[k] == line[k - 1] {
                    run += 1
                } else {
                    if run >= 5 { score += 3 + run - 5 }
                    run = 1
                }
            }
            if size >= 11 {
                for start in 0...(size - 11) {
                    for pattern in finderLike where Array(line[start..<start + 11]) == pattern { score += 40 }
                }
            }
        }
        for r in 0..<size - 1 {
            for c in 0..<size - 1 {
                let x = dark[r][c]
                if dark[r][c + 1] == x && dark[r + 1][c] == x && dark[r + 1][c + 1] == x { score += 3 }
            }
        }
        let darkCount = dark.reduce(0) { $0 + $1.filter { $0 }.count }
        let percent = darkCount * 100 / (size * size)
        score += abs(percent - 50) / 5 * 10
        return score
    }
}
