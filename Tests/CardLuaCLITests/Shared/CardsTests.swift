@testable import CardLuaCLI
import CardLayout
import CardLuaTestSupport
import CardRender
import CardServe
import Foundation
import Testing

/// `--cards DIR` (CardsFolder.swift, CardPictures): which files, in what order, on which
/// card; the static pages' embedding and its cap; `play`'s `/cards/N` and its refusals.
@Suite struct CardsTests {
    /// A folder with images among other things: b.png, a.jpg, C.webp, d.SVG, e.gif, plus
    /// a text file, a hidden image, a folder named like an image and a link to an image.
    static func folder() throws -> URL {
        let dir = try CLI.temporaryDirectory().appendingPathComponent("cards")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in [("b.png", "PNG b"), ("a.jpg", "JPEG a"), ("C.webp", "WEBP c"), ("d.SVG", "<svg/>"),
                             ("e.gif", "GIF e"), ("notes.txt", "no"), (".hidden.png", "no")] {
            try Data(text.utf8).write(to: dir.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("f.png"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("g.png").path,
                                                   withDestinationPath: dir.appendingPathComponent("b.png").path)
        return dir
    }

    @Test func takesTheImagesInNameOrder() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let folder = try CardsFolder(path: dir.path, command: "play")
        // Name order is the strings' order: upper case before lower case.
        #expect(folder.images.map(\.name) == ["C.webp", "a.jpg", "b.png", "d.SVG", "e.gif"])
        #expect(folder.images.map(\.contentType) == ["image/webp", "image/jpeg", "image/png", "image/svg+xml", "image/gif"])
    }

    @Test func picturesCycleOverTheItemsInIndexPathOrder() throws {
        let pictures = try #require(CardPictures(urls: ["a", "b", "c"]))
        let items = (0..<7).map { pictures.index(for: CardIndexPath(item: $0, section: 0), numberOfItems: [7]) }
        #expect(items == [0, 1, 2, 0, 1, 2, 0])
        // Sections 5 and 4: section 1's item 0 is the 6th item (index 5): picture 5 mod 3 = 2.
        #expect(pictures.index(for: CardIndexPath(item: 0, section: 1), numberOfItems: [5, 4]) == 2)
        #expect(pictures.index(for: CardIndexPath(item: 3, section: 1), numberOfItems: [5, 4]) == 2)  // 8 mod 3
        #expect(CardPictures(urls: []) == nil)
    }

    @Test func aBadFolderIsAUsageError() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write(try String(contentsOfFile: CLI.script("lol.lua"), encoding: .utf8), named: "fx.lua", in: dir)
        let empty = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: dir.appendingPathComponent("file.png"))
        for (arguments, message) in [
            (["run", script, "--format", "html", "--cards", dir.appendingPathComponent("missing").path], "no folder"),
            (["run", script, "--format", "html", "--cards", empty.path], "holds no image"),
            (["run", script, "--format", "html", "--cards", dir.appendingPathComponent("file.png").path], "is not a folder"),
            (["play", script, "--port", "0", "--cards", empty.path], "holds no image"),
            (["gallery", "--only", "lol", "--cards", empty.path], "holds no image"),
        ] {
            let result = try CLI.run(arguments, directory: dir)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("cardlua: --cards: ") && result.stderr.contains(message), "\(result.stderr)")
        }
    }

    /// The HTML preview embeds each image once as a data: URI and puts picture k mod 5 on
    /// item k; a `cards` folder beside the script is used without the option.
    @Test func theHTMLPreviewEmbedsTheImages() throws {
        let dir = try Self.folder()
        let root = dir.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        let script = try CLI.write(try String(contentsOfFile: CLI.script("lol.lua"), encoding: .utf8), named: "fx.lua", in: root)
        let result = try CLI.run(["run", script, "--format", "html"], directory: root)
        #expect(result.status == 0, "\(result.stderr)")
        let page = result.stdout
        #expect(page.contains(".p2{background-image:url(\"data:image/png;base64,\(Data("PNG b".utf8).base64EncodedString())\")}"))
        #expect(page.components(separatedBy: "data:image/png;base64,").count == 2)  // once
        #expect(page.contains("id=\"c6\" data-index=\"0.6\""))
        let card6 = try #require(page.components(separatedBy: "id=\"c6\"").last?.components(separatedBy: "</div>").first)
        #expect(card6.contains("<i class=\"pic p1\"></i>"))  // 6 mod 5
        // SVG output keeps the palette.
        let svg = try CLI.run(["run", script, "--format", "svg", "--offset", "0"], directory: root)
        #expect(svg.status == 0 && !svg.stdout.contains("data:image"))
        // Without a cards folder: the palette.
        try FileManager.default.removeItem(at: dir)
        let plain = try CLI.run(["run", script, "--format", "html"], directory: root)
        #expect(plain.status == 0 && !plain.stdout.contains("class=\"pic"))
    }

    @Test func embeddingIsCapped() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cards = dir.appendingPathComponent("big")
        try FileManager.default.createDirectory(at: cards, withIntermediateDirectories: true)
        let chunk = Data(count: CardsFolder.maxEmbeddedBytes / 2 + 1)
        try chunk.write(to: cards.appendingPathComponent("1.png"))
        try chunk.write(to: cards.appendingPathComponent("2.png"))
        let out = dir.appendingPathComponent("page.html")
        let result = try CLI.run(["run", CLI.script("lol.lua"), "-o", out.path, "--cards", cards.path], directory: dir)
        #expect(result.status == 2)
        #expect(result.stderr.contains("more than the 8.0 MB a page embeds"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// `GET /cards/N` answers only the listed files by number, with their content type.
    @Test func theEndpointServesOnlyTheListedFiles() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let folder = try CardsFolder(path: dir.path, command: "play")
        let ok = folder.response(to: HTTPRequest(method: "GET", target: "/cards/2"))
        #expect(ok.status == 200 && ok.body == Array("PNG b".utf8))
        #expect(ok.headers.values(for: "Content-Type") == ["image/png"])
        #expect(folder.response(to: HTTPRequest(method: "GET", target: "/cards/3")).headers.values(for: "Content-Type")
                == ["image/svg+xml"])
        for target in ["/cards/5", "/cards/-1", "/cards/b.png", "/cards/../cards/b.png", "/cards/%2e%2e/etc/passwd",
                       "/cards/1/", "/cards/01x", "/cards/", "/cards/99999999999999999999", "/cards/notes.txt"] {
            #expect(folder.response(to: HTTPRequest(method: "GET", target: target)).status == 404, "\(target)")
        }
        // A file replaced by a link after the start is not served.
        let b = dir.appendingPathComponent("b.png")
        try FileManager.default.removeItem(at: b)
        try FileManager.default.createSymbolicLink(atPath: b.path, withDestinationPath: dir.appendingPathComponent("a.jpg").path)
        #expect(folder.response(to: HTTPRequest(method: "GET", target: "/cards/2")).status == 404)
    }

    /// `play --cards`: the list and the images over HTTP; other methods and paths refused.
    @Test func playServesTheImages() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let server = try PlayServer([CLI.script("lol.lua"), "--cards", dir.path], directory: dir)
        defer { _ = server.process.interruptAndWait() }
        let list = try PlayServer.json(server.get("/cards"))
        #expect(list["images"] as? [String] == ["cards/0", "cards/1", "cards/2", "cards/3", "cards/4"])  // relative to the page
        #expect(list["sections"] as? [Int] == [20])
        let image = server.get("/cards/1")
        #expect(image.hasPrefix("HTTP/1.1 200 "))
        #expect(image.contains("Content-Type: image/jpeg\r\n") && image.hasSuffix("\r\n\r\nJPEG a"))
        for path in ["/cards/5", "/cards/../../etc/passwd", "/cards/a.jpg", "/cards/1.5"] {
            let answer = server.get(path)
            #expect(answer.hasPrefix("HTTP/1.1 404 ") || answer.hasPrefix("HTTP/1.1 400 "), "\(path): \(answer.prefix(40))")
            #expect(!answer.contains("root:"))
        }
        #expect(server.post("/cards/0", "").hasPrefix("HTTP/1.1 405 "))
    }

    /// Without images the page asks `/cards` and gets 404: the palette.
    @Test func playWithoutCardsAnswers404() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try PlayServer([CLI.script("lol.lua")], directory: dir)
        defer { _ = server.process.interruptAndWait() }
        #expect(server.get("/cards").hasPrefix("HTTP/1.1 404 "))
        #expect(server.get("/cards/0").hasPrefix("HTTP/1.1 404 "))
    }
}
