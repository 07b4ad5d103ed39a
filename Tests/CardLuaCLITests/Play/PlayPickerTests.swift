import Foundation
import Testing

/// `cardlua play FOLDER` (issue 24 item 10): the page's picker lists the folder's scripts in
/// name order; picking one keeps the item count, the viewport and the centred item; only a
/// plain name the folder lists can be picked; the watcher follows the pick.
@Suite struct PlayPickerTests {
    /// Cards 200 wide, 10 apart: item i is centred at offset 210 i + 100 − W/2.
    static let wide = """
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(200, 600)
      layout.minimumLineSpacing = 10
    end

    """
    /// Cards 100 wide, 20 apart: item i is centred at offset 120 i + 50 − W/2.
    static let narrow = """
    function prepare(layout)
      layout.scrollDirection = "horizontal"
      layout.itemSize = CGSizeMake(100, 500)
      layout.minimumLineSpacing = 20
    end

    """

    static func state(_ response: String) throws -> [String: Any] {
        try #require(try PlayServer.json(response)["state"] as? [String: Any], "\(response)")
    }

    @Test func pickingKeepsItemsViewportAndTheCentredItem() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("effects")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        _ = try CLI.write(Self.wide, named: "b-wide.lua", in: folder)
        _ = try CLI.write(Self.narrow, named: "c-narrow.lua", in: folder)
        _ = try CLI.write(Self.narrow, named: ".hidden.lua", in: folder)
        _ = try CLI.write("not a script", named: "notes.txt", in: folder)
        _ = try CLI.write(Self.narrow, named: "c.lua", in: folder.appendingPathComponent("sub"))
        let outside = try CLI.write(Self.narrow, named: "outside.lua", in: directory)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("a-link.lua").path,
                                                   withDestinationPath: outside)

        let play = try PlayServer(["effects", "--items", "12"], directory: directory)
        defer { play.process.kill() }
        let list = try PlayServer.json(play.get("/scripts"))
        // Name order; no hidden file, no other kind of file, no sub-folder, no link leading out.
        #expect(list["scripts"] as? [String] == ["b-wide.lua", "c-narrow.lua"], "\(list)")
        #expect(list["current"] as? String == "b-wide.lua" && list["folder"] as? String == "effects")

        // iPhone 15 (the resize keeps the item nearest the centre, item 1, centred), then
        // one step to the right: item 2 centred, at 210·2 + 100 − 393/2.
        let resized = try Self.state(play.post("/input", #"{"type":"resize","t":0.1,"x":393,"y":852}"#))
        #expect(resized["centredItem"] as? [Int] == [0, 1], "\(resized)")
        #expect(play.post("/input", #"{"type":"step","t":0.2,"x":1}"#).hasPrefix("HTTP/1.1 200"))
        let settled = try PlayServer.frames(play.post("/frames?now=3&until=3.1", "{}"))
        #expect(settled.last?["o"] as? [Double] == [420 + 100 - 196.5, 0], "\(settled.last ?? [:])")

        let picked = try Self.state(play.post("/script", #"{"t":3.2,"name":"c-narrow.lua"}"#))
        #expect(picked["script"] as? String == "c-narrow.lua")
        #expect(picked["items"] as? Int == 12 && picked["viewport"] as? [Double] == [393, 852], "\(picked)")
        #expect(picked["centredItem"] as? [Int] == [0, 2], "\(picked)")
        // 120·2 + 50 − 393/2: the narrow layout's own offset for item 2, not the wide one's.
        #expect((picked["contentOffset"] as? [String: Double])?["x"] == 240 + 50 - 196.5, "\(picked)")
        #expect(picked["error"] is NSNull)

        // Only a listed plain name: never a path, a hidden file, a sub-folder's or a link's.
        for name in ["../outside.lua", "sub/c.lua", ".hidden.lua", "notes.txt", "a-link.lua", "/etc/passwd",
                     "c.lua", "c-narrow.lua/", "", "effects/b-wide.lua"] {
            let body = "{\"t\":3.3,\"name\":\(String(data: try JSONEncoder().encode(name), encoding: .utf8)!)}"
            let refused = play.post("/script", body)
            #expect(refused.hasPrefix("HTTP/1.1 400") && refused.contains("is not a script of the folder"), "\(name): \(refused)")
        }
        #expect(try Self.state(play.get("/state"))["script"] as? String == "c-narrow.lua")

        // The watcher follows the pick: saving the picked script reloads it.
        let version = try #require(picked["scriptVersion"] as? Int)
        _ = try CLI.write(Self.narrow.replacingOccurrences(of: "100, 500", with: "120, 500"), named: "c-narrow.lua", in: folder)
        #expect(waitUntil(timeout: 20) {
            ((try? Self.state(play.get("/state")))?["scriptVersion"] as? Int ?? 0) > version
        }, "the picked script's save was not followed")
        #expect(play.process.interruptAndWait(timeout: 20) == 0)
    }

    @Test func aScriptPlaysAloneAndAFolderWithoutScriptsIsUsage() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(Self.wide, named: "one.lua", in: directory)
        let play = try PlayServer(["one.lua"], directory: directory)
        defer { play.process.kill() }
        let list = try PlayServer.json(play.get("/scripts"))
        #expect(list["scripts"] as? [String] == [] && list["folder"] is NSNull && list["current"] as? String == "one.lua")
        #expect(play.post("/script", #"{"t":0.1,"name":"one.lua"}"#).hasPrefix("HTTP/1.1 404"))

        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let result = try CLI.run(["play", empty.path, "--port", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("cardlua: no .lua scripts in the folder '\(empty.path)'\n"), "\(result.stderr)")
    }
}
