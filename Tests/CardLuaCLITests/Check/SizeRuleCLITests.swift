import Foundation
import Testing

/// UIKit's size rule in `check`, `run` and `play`: a card that does not fit across the
/// scroll axis between the section insets is a warning quoting UIKit's log line, at the
/// line that sets the insets (or the size, when the card alone is too big).
@Suite struct SizeRuleCLITests {
    static let uikitHeight = "The behavior of the UICollectionViewFlowLayout is not defined because: the item height must be less than the height of the UICollectionView minus the section insets top and bottom values, minus the content insets top and bottom values."
    static let uikitWidth = "The behavior of the UICollectionViewFlowLayout is not defined because: the item width must be less than the width of the UICollectionView minus the section insets left and right values, minus the content insets left and right values."

    /// The 1-based line of the first line of `path` that contains `text`.
    static func line(of text: String, in path: String) throws -> Int {
        let source = try String(contentsOfFile: path, encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        return try #require(lines.firstIndex { $0.contains(text) }) + 1
    }

    /// lol.lua: 500 + 200 + 200 = 900 > 736 at the phone; at the tablet the card is
    /// 500 · 1024 / 736 = 695.65… tall, + 400 = 1095.65… > 1024. check exercises both.
    @Test func checkWarnsAboutLoLAtBothViewports() throws {
        let path = CLI.script("lol.lua")
        let insetLine = try Self.line(of: "layout.sectionInset =", in: path)
        let result = try CLI.run(["check", path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let warnings = result.stdout.split(separator: "\n").filter { $0.contains(Self.uikitHeight) }
        #expect(warnings.count == 2, "\(result.stdout)")
        #expect(warnings.allSatisfy { $0.hasPrefix("\(path):\(insetLine): warning: ") }, "\(warnings)")
        #expect(warnings.first?.contains("at 414x736") == true, "\(warnings)")
        #expect(warnings.first?.contains("itemSize.height 500 + sectionInset.top 200 + sectionInset.bottom 200 = 900 > the collection view's height 736") == true, "\(warnings)")
        // (736 − 500) / 2 = 118.
        #expect(warnings.first?.contains("insets of at most 118 each") == true, "\(warnings)")
        #expect(warnings.last?.contains("at 768x1024") == true, "\(warnings)")
        // --strict makes it fail.
        #expect(try CLI.run(["check", path, "--strict"]).status == 1)
    }

    @Test func runAndCheckWarnAboutAVerticalFlowAndAGivenViewport() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("""
        function prepare(layout)                                  -- 1
          layout.scrollDirection = "vertical"                     -- 2
          layout.itemSize = CGSizeMake(500, 200)                  -- 3: wider than 414
          layout.sectionInset = UIEdgeInsetsMake(0, 10, 0, 10)    -- 4
        end

        """, named: "wide.lua", in: directory)
        // 500 > 414: the card alone is too wide, so the size's line.
        let run = try CLI.run(["run", "wide.lua", "--offset", "0"], directory: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains(": warning: ") }
        #expect(warnings.count == 1, "\(run.stderr)")
        #expect(warnings.first?.hasPrefix("wide.lua:3: warning: at 414x736 UIKit logs \"\(Self.uikitWidth)\"") == true, "\(run.stderr)")
        #expect(warnings.first?.contains("the card's width must be less than 414") == true, "\(run.stderr)")
        // 500 + 20 = 520 ≤ 600 at a 600-wide view: nothing there.
        let wide = try CLI.run(["run", "wide.lua", "--offset", "0", "--viewport", "600x800"], directory: directory)
        #expect(!wide.stderr.contains("warning"), "\(wide.stderr)")
        // check's third viewport, --viewport's: 500 + 20 > 510.
        let check = try CLI.run(["check", "wide.lua", "--viewport", "510x800"], directory: directory)
        #expect(check.stdout.contains("at 510x800 UIKit logs"), "\(check.stdout)")
    }

    /// Per section: insetForSection's insets for section 1 do not fit (300 + 300 + 200).
    @Test func perSectionInsetsAreCheckedPerSection() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write("""
        function prepare(layout)                                  -- 1
          layout.scrollDirection = "horizontal"                   -- 2
          layout.itemSize = CGSizeMake(100, 200)                  -- 3
        end                                                       -- 4
        function insetForSection(section, layout)                 -- 5
          if section == 1 then return UIEdgeInsetsMake(300, 0, 300, 0) end
          return UIEdgeInsetsMake(0, 0, 0, 0)
        end

        """, named: "sections.lua", in: directory)
        let run = try CLI.run(["run", "sections.lua", "--offset", "0", "--items", "3,3"], directory: directory)
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains(": warning: ") }
        #expect(warnings.count == 1, "\(run.stderr)")
        #expect(warnings.first?.hasPrefix("sections.lua:5: warning: at 414x736 in section 1 UIKit logs") == true, "\(run.stderr)")
        #expect(warnings.first?.contains("itemSize.height 200 + insetForSection's.top 300 + insetForSection's.bottom 300 = 800") == true, "\(run.stderr)")
    }

    /// The blank template fits with room to spare: no warning at all, at either viewport.
    @Test func theBlankTemplateFits() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try CLI.run(["new", "fx.lua"], directory: directory).status == 0)
        let check = try CLI.run(["check", "fx.lua", "--strict"], directory: directory)
        #expect(check.status == 0, "\(check.stdout)")
        #expect(!check.stdout.contains("UIKit logs"), "\(check.stdout)")
        // Room to spare: the card and its insets take at most 90 % of the 736 pt height.
        let json = try CLI.run(["run", "fx.lua", "--offset", "0", "--format", "json"], directory: directory)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let layout = try #require(object["layout"] as? [String: Any], "\(object.keys)")
        let item = try #require(layout["itemSize"] as? [String: Any])
        let inset = try #require(layout["sectionInset"] as? [String: Any])
        let height = try #require(item["height"] as? Double)
        let top = try #require(inset["top"] as? Double), bottom = try #require(inset["bottom"] as? Double)
        #expect(height + top + bottom <= 0.9 * 736, "\(height) + \(top) + \(bottom)")
    }

    /// play's page says it too, for the viewport on screen.
    @Test func playShowsIt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lol = try String(contentsOfFile: CLI.script("lol.lua"), encoding: .utf8)
        _ = try CLI.write(lol, named: "lol.lua", in: directory)
        let play = try PlayServer(["lol.lua"], directory: directory)
        defer { play.process.kill() }
        let state = try #require(try PlayServer.json(play.get("/state"))["state"] as? [String: Any])
        let note = state["layoutNote"] as? String ?? ""
        #expect(note.hasPrefix("lol.lua: warning: at 414x736 UIKit logs \"\(Self.uikitHeight)\""), "\(note)")
    }
}
