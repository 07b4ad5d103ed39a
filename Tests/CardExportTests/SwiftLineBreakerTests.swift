@testable import CardExport
import Testing

/// The printer's line breaking, case by case: each expected layout is what the toolchain's
/// `swift-format format` makes of the same long line (run by hand on each case when it was
/// written; ExportFormatTests checks every export against swift-format itself).
@Suite struct SwiftLineBreakerTests {
    @Test("a line of 120 columns or fewer stays as it is")
    func shortLine() {
        let line = "        let x = " + String(repeating: "a", count: 104)
        #expect(line.count == 120)
        #expect(SwiftLineBreaker.breakLine(line) == [line])
    }

    @Test("a declaration's parameters go on their own lines, `)` back at its indentation")
    func declaration() {
        let line = "    private func applyScaleTransform(_ attributes: PagingScaleEaseInLayoutAttributes, _ progress: CGFloat, "
            + "_ w: CGFloat, _ h: CGFloat, _ scaleCurve: CGFloat, _ translationCurve: CGFloat) {"
        #expect(SwiftLineBreaker.breakLine(line) == [
            "    private func applyScaleTransform(",
            "        _ attributes: PagingScaleEaseInLayoutAttributes, _ progress: CGFloat, _ w: CGFloat, _ h: CGFloat,",
            "        _ scaleCurve: CGFloat, _ translationCurve: CGFloat",
            "    ) {",
        ])
    }

    @Test("a call's arguments fill lines at +4 after its `(`, `)` after the last")
    func call() {
        let line = "        attributes.shadowOffset = CGSize(width: max(shadowOffsetMinWidth, near * shadowOffsetMaxWidth), "
            + "height: max(shadowOffsetMinHeight, near * shadowOffsetMaxHeight))"
        #expect(SwiftLineBreaker.breakLine(line) == [
            "        attributes.shadowOffset = CGSize(",
            "            width: max(shadowOffsetMinWidth, near * shadowOffsetMaxWidth),",
            "            height: max(shadowOffsetMinHeight, near * shadowOffsetMaxHeight))",
        ])
    }

    @Test("an operator expression breaks after `=`")
    func assignment() {
        let line = "        var translateX: CGFloat = w * translationRatioX * translateProgress * CGFloat(progress < 0 ? -1 : 1)"
            + " - xAdjustment"
        #expect(SwiftLineBreaker.breakLine(line) == [
            "        var translateX: CGFloat =",
            "            w * translationRatioX * translateProgress * CGFloat(progress < 0 ? -1 : 1) - xAdjustment",
        ])
    }

    @Test("a one-statement body goes on its own line")
    func oneLineBody() {
        let line = "        if let visibleBounds = preparedBounds ?? collectionView?.bounds "
            + "{ transform(attributes, visibleBounds: visibleBounds) }"
        #expect(SwiftLineBreaker.breakLine(line) == [
            "        if let visibleBounds = preparedBounds ?? collectionView?.bounds {",
            "            transform(attributes, visibleBounds: visibleBounds)",
            "        }",
        ])
    }

    @Test("a condition joined by && gets a line per operand and `{` on its own line")
    func condition() {
        let line = "        while item < CGFloat(count) && origin - maxPosition <= max(100 * 2.220446049250313e-16 * "
            + "abs(origin + maxPosition), CGFloat.leastNonzeroMagnitude) {"
        #expect(SwiftLineBreaker.breakLine(line) == [
            "        while item < CGFloat(count)",
            "            && origin - maxPosition",
            "                <= max(100 * 2.220446049250313e-16 * abs(origin + maxPosition), CGFloat.leastNonzeroMagnitude)",
            "        {",
        ])
    }

    @Test("a member chained on a broken call goes back with its `)`")
    func chainedCall() {
        let line = "            attributes.transform = CGAffineTransform(translationX: translationX, y: 0)"
            + ".concatenating(CGAffineTransform(scaleX: scaleFactor, y: scaleFactor))"
        #expect(SwiftLineBreaker.breakLine(line) == [
            "            attributes.transform = CGAffineTransform(",
            "                translationX: translationX, y: 0",
            "            ).concatenating(CGAffineTransform(scaleX: scaleFactor, y: scaleFactor))",
        ])
    }

    @Test("a comment beside code that ends past the limit goes above it, wrapped between words")
    func comments() {
        let line = "    private static let activeDistance: Int = 200  // ACTIVE_DISTANCE: the original project's value "
            + "(see the seeds' README)"
        #expect(SwiftLineBreaker.breakLine(line) == [
            "    // ACTIVE_DISTANCE: the original project's value (see the seeds' README)",
            "    private static let activeDistance: Int = 200",
        ])
        let long = "    /// " + Array(repeating: "word", count: 40).joined(separator: " ")
        let wrapped = SwiftLineBreaker.breakLine(long)
        #expect(wrapped.count == 2 && wrapped.allSatisfy { $0.count <= 120 && $0.hasPrefix("    /// word") })
    }

    @Test("`//` inside a string literal is not a comment")
    func stringLiteral() {
        let line = "        let url = \"https://example.com/" + String(repeating: "a", count: 100) + "\""
        #expect(SwiftLineBreaker.splitComment(String(line.dropFirst(8))).comment == nil)
    }
}
