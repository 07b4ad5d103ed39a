import CardLayout
import CardRender
import Foundation
import Testing

/// Contract v2's optional JSON fields (`isDoubleSided`, `appearance`, `supplementary`)
/// are in the schema: real output with headers and footers, and a hand-built timeline
/// with every field, validate; wrong values do not.
@Suite struct SchemaV2Tests {
    @Test func headersAndFootersFromAScriptValidate() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("""
        function prepare(layout)
          layout.itemSize = CGSizeMake(100, 100)
          layout.headerReferenceSize = CGSizeMake(0, 40)
          layout.footerReferenceSize = CGSizeMake(0, 30)
        end

        """, named: "sections.lua", in: directory)
        let result = try CLI.run(["run", "sections.lua", "--offset", "0", "--format", "json"], directory: directory)
        try #require(result.status == 0, "\(result.stderr)")
        // Vertical, 414 wide: the header 0…40 is the only one in the first 736 points.
        #expect(result.stdout.contains("\"supplementary\": [\n        { \"kind\": \"header\", \"section\": 0, "
            + "\"frame\": { \"x\": 0, \"y\": 0, \"width\": 414, \"height\": 40 } } ] }"))
        let problems = SchemaValidator(root: try JSONSchemaTests.schema()).validate(try JSONValue.parse(Data(result.stdout.utf8)))
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }

    @Test func everyNewFieldValidatesAndWrongOnesDoNot() throws {
        var card = LayoutAttributes(indexPath: CardIndexPath(item: 0, section: 0), frame: Rect(x: 0, y: 0, width: 100, height: 80))
        card.isDoubleSided = false
        card.appearance = CardAppearance(cornerRadius: 12, shadowOpacity: 0.4, backgroundColor: CardColor(rgb: 0x102030), blurRadius: 1)
        let frame = Frame(time: 0, contentOffset: Point(x: 0, y: 0), phase: .idle, viewportSize: Size(width: 200, height: 200),
                          items: [card], supplementary: [
                              SupplementaryAttributes(kind: .header, section: 0, frame: Rect(x: 0, y: 0, width: 200, height: 20)),
                              SupplementaryAttributes(kind: .footer, section: 0, frame: Rect(x: 0, y: 180, width: 200, height: 20)),
                          ])
        let timeline = Timeline(scriptName: "v2.lua", viewportSize: frame.viewportSize, configuration: FlowLayoutConfiguration(),
                                contentSize: Size(width: 200, height: 400), framesPerSecond: 60, frames: [frame])
        let good = JSONRenderer.render(timeline)
        let schema = try JSONSchemaTests.schema()
        #expect(SchemaValidator(root: schema).validate(try JSONValue.parse(Data(good.utf8))).isEmpty)
        let mutations: [(String, String)] = [
            ("\"isDoubleSided\": false", "\"isDoubleSided\": true"),
            ("\"kind\": \"footer\"", "\"kind\": \"sidebar\""),
            ("\"blurRadius\": 1 }", "\"blurRadius\": 1, \"tint\": 2 }"),
            ("\"cornerRadius\": 12, ", ""),
            ("\"section\": 0, \"frame\": { \"x\": 0, \"y\": 180", "\"section\": -1, \"frame\": { \"x\": 0, \"y\": 180"),
        ]
        for (from, to) in mutations {
            try #require(good.contains(from), "the output no longer has \(from)")
            let bad = good.replacingOccurrences(of: from, with: to)
            #expect(!SchemaValidator(root: schema).validate(try JSONValue.parse(Data(bad.utf8))).isEmpty, "\(to) passed")
        }
    }
}
