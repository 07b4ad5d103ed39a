import CardLayout

/// Numbers as JSON and tables show them: deterministic, shortest round-trip form,
/// integers without a fraction, never `-0`.
enum NumberText {
    /// A JSON number (NaN and infinities, which validation keeps out, become `null`).
    static func json(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == 0 { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A fixed number of decimals, without `-0.00`.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        guard abs(value) < 1e12 else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        let text = formatDecimals(rounded == 0 ? 0 : rounded, decimals)
        return text
    }

    /// At most `decimals` decimals, trailing zeros dropped: 289.8, 552, 0.25.
    static func short(_ value: Double, _ decimals: Int = 2) -> String {
        var text = fixed(value, decimals)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    private static func formatDecimals(_ value: Double, _ decimals: Int) -> String {
        let negative = value < 0
        var magnitude = abs(value)
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        magnitude = (magnitude * scale).rounded()
        let whole = Int64(magnitude / scale)
        let fraction = Int64(magnitude - Double(whole) * scale)
        var text = String(whole)
        if decimals > 0 {
            var digits = String(fraction)
            while digits.count < decimals { digits = "0" + digits }
            text += "." + digits
        }
        return negative ? "-" + text : text
    }
}
