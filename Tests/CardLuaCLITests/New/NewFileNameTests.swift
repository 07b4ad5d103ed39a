@testable import CardLuaCLI
import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// `cardlua new` and a file name that holds code (issue 23, item 5): the starter's header
/// stays a comment whatever the name, and `new` refuses names with control characters.
@Suite struct NewFileNameTests {
    /// A name that ends the header's comment line and plants code after it.
    static let planted = "x\nerror('planted') while true do end --\r.lua"

    @Test(arguments: Templates.all.prefix(3).map(\.name))
    func theHeaderStaysACommentWhateverTheName(_ name: String) throws {
        let template = try #require(Templates.named(name))
        let script = Templates.script(template, fileName: Self.planted)
        let plain = Templates.script(template, fileName: "x.lua")
        // Comment lines only, as many as with a plain name.
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        let plainLines = plain.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == plainLines.count)
        #expect(lines.prefix(3).allSatisfy { $0.hasPrefix("--") })
        #expect(!script.contains("\r"))
        // It loads (the top level runs) and runs a frame as the template does.
        let effect = try LuaEffect(source: script, chunkName: "x.lua")
        let plainEffect = try LuaEffect(source: plain, chunkName: "x.lua")
        #expect(effect.definesFunction("transform") == plainEffect.definesFunction("transform"))
    }

    /// The command refuses the name: exit 2, one line, nothing written.
    @Test func newRefusesANameWithControlCharacters() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(Self.planted).path
        let (stderr, status) = HostileArgumentTests.outcome(["new", path])
        #expect(status == 2, "\(stderr)")
        HostileArgumentTests.assertSafe(stderr, "new")
        #expect(stderr.contains("control characters"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
