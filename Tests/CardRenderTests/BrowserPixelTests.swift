import CardLayout
import CardLuaTestSupport
import Foundation
import Testing

@testable import CardRender

/// A headless Chromium and python3 (which decodes the screenshots: PNG → PPM with its
/// zlib), found on `PATH`; the browser tests run only when both exist.
enum Browser {
    static func which(_ names: [String]) -> String? { TestSupport.which(names) }

    static let chromium = which(["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"])
    static let python = which(["python3"])
    static var isAvailable: Bool { chromium != nil && python != nil }

    /// Runs a program with stdout and stderr sent to files; kills it after `timeout`.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], in directory: URL,
                    timeout: TimeInterval = 60) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try TestSupport.run(URL(fileURLWithPath: executable), arguments, timeout: timeout)
        if result.timedOut { Issue.record("\(executable) timed out after \(Int(timeout)) s") }
        return (result.status, result.stdout, result.stderr)
    }

    static func chromiumArguments(profile: URL) -> [String] {
        ["--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--mute-audio",
         "--force-device-scale-factor=1", "--no-first-run", "--disable-extensions",
         "--user-data-dir=\(profile.path)"]
    }

    /// Screenshots `url` in a `width`×`height` window and decodes it.
    static func screenshot(_ url: URL, width: Int, height: Int, in directory: URL) throws -> RGBImage {
        let png = directory.appendingPathComponent("shot-\(UUID().uuidString).png")
        let profile = directory.appendingPathComponent("profile-\(UUID().uuidString)")
        // A virtual-time budget makes the screenshot wait until the page has settled (its
        // scripts run, its 3D-transformed layers composited) however loaded the machine
        // is: without it, a loaded machine could be shot before a turned card was painted.
        try run(chromium!, chromiumArguments(profile: profile) + [
            "--virtual-time-budget=1000", "--screenshot=\(png.path)", "--window-size=\(width),\(height)", url.absoluteString,
        ], in: directory)
        return try RGBImage(png: png, in: directory)
    }

    /// The DOM after the page's scripts ran for `budgetMs` of virtual time, and the
    /// browser's log (console messages included).
    static func dumpDOM(_ url: URL, budgetMs: Int, in directory: URL) throws -> (dom: String, log: String) {
        let profile = directory.appendingPathComponent("profile-\(UUID().uuidString)")
        let result = try run(chromium!, chromiumArguments(profile: profile) + [
            "--enable-logging=stderr", "--v=0", "--virtual-time-budget=\(budgetMs)", "--dump-dom", url.absoluteString,
        ], in: directory)
        return (result.stdout, result.stderr)
    }

    static func temporaryDirectory() throws -> URL { try TestSupport.temporaryDirectory(prefix: "cardrender-browser") }
}

/// An 8-bit RGB image decoded from a PNG by python3 (zlib; filters None, Sub, Up,
/// Average, Paeth; colour types RGB and RGBA, non-interlaced) via a binary PPM.
struct RGBImage {
    var width: Int
    var height: Int
    var bytes: [UInt8]

    static let decoder = #"""
    import struct, sys, zlib
    data = open(sys.argv[1], "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    assert depth == 8 and interlace == 0 and ctype in (2, 6), (depth, ctype, interlace)
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    out, prev, i = bytearray(), bytearray(stride), 0
    for y in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if bpp == 3:
            out += line
        else:
            del line[3::4]
            out += line
    open(sys.argv[2], "wb").write(b"P6\n%d %d\n255\n" % (w, h) + bytes(out))
    """#

    init(png: URL, in directory: URL) throws {
        let ppm = png.deletingPathExtension().appendingPathExtension("ppm")
        let result = try Browser.run(Browser.python!, ["-c", RGBImage.decoder, png.path, ppm.path], in: directory)
        guard result.status == 0 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: result.stderr])
        }
        let data = [UInt8](try Data(contentsOf: ppm))
        // Header "P6\n<w> <h>\n255\n" as written above.
        var fields: [String] = [], current = "", index = 0
        while fields.count < 4 && index < data.count {
            let byte = data[index]; index += 1
            if byte == 0x0A || byte == 0x20 {
                if !current.isEmpty { fields.append(current); current = "" }
            } else {
                current.append(Character(UnicodeScalar(byte)))
            }
        }
        width = Int(fields[1]) ?? 0
        height = Int(fields[2]) ?? 0
        bytes = Array(data[index...])
        guard bytes.count == width * height * 3 else { throw CocoaError(.fileReadCorruptFile) }
    }

    func pixel(_ x: Int, _ y: Int) -> Palette.Color {
        let i = (y * width + x) * 3
        return Palette.Color(red: bytes[i], green: bytes[i + 1], blue: bytes[i + 2])
    }
}

func colorsClose(_ a: Palette.Color, _ b: Palette.Color, tolerance: Int) -> Bool {
    abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
        && abs(Int(a.blue) - Int(b.blue)) <= tolerance
}

/// The distance from `p` to the segment `a`–`b`.
func segmentDistance(_ p: Point, _ a: Point, _ b: Point) -> Double {
    let dx = b.x - a.x, dy = b.y - a.y
    let length2 = dx * dx + dy * dy
    let t = length2 > 0 ? min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / length2, 0), 1) : 0
    let qx = a.x + t * dx - p.x, qy = a.y + t * dy - p.y
    return (qx * qx + qy * qy).squareRoot()
}

// Skipped unless `chromium` (or chromium-browser, google-chrome) and python3 are on PATH.
@Suite(.serialized, .enabled(if: Browser.isAvailable, "needs chromium and python3 on PATH"))
struct BrowserPixelTests {
    let frame = RenderFixtures.frame
    var timeline: Timeline { RenderFixtures.timeline([frame]) }

    @Test func htmlAndSVGAgreeWithTheProjection() throws {
        let directory = try Browser.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let svgFile = directory.appendingPathComponent("frame.svg")
        let htmlFile = directory.appendingPathComponent("frame.html")
        try SVGRenderer.render(frame: frame, timeline: timeline).write(to: svgFile, atomically: true, encoding: .utf8)
        try HTMLRenderer.render(timeline: timeline).write(to: htmlFile, atomically: true, encoding: .utf8)
        let (w, h) = (Int(RenderFixtures.viewport.width), Int(RenderFixtures.viewport.height))
        let svg = try Browser.screenshot(svgFile, width: w, height: h, in: directory)
        let html = try Browser.screenshot(htmlFile, width: w, height: h, in: directory)
        try #require(svg.width == w && svg.height == h && html.width == w && html.height == h)

        let centreFill = Palette.fill(for: CardIndexPath(item: 1, section: 0))
        for (name, image) in [("svg", svg), ("html", html)] {
            // The centre card, just below its label at the viewport centre.
            #expect(colorsClose(image.pixel(200, 195), centreFill, tolerance: 2), "\(name) centre \(image.pixel(200, 195))")
            // Background far from every card.
            #expect(colorsClose(image.pixel(200, 20), Palette.background, tolerance: 2), "\(name) background")
            #expect(colorsClose(image.pixel(250, 280), Palette.background, tolerance: 2), "\(name) background")
            // Where the turned card reaches under the centre card, the centre card wins.
            #expect(colorsClose(image.pixel(140, 195), centreFill, tolerance: 2), "\(name) overlap")
            // The turned card on its own, and the translucent card over the background.
            #expect(colorsClose(image.pixel(60, 200), Palette.fill(for: CardIndexPath(item: 0, section: 0)), tolerance: 2), "\(name) turned")
            let translucent = Palette.fill(for: CardIndexPath(item: 2, section: 0)).blended(over: Palette.background, alpha: 0.6)
            #expect(colorsClose(image.pixel(360, 200), translucent, tolerance: 3), "\(name) translucent \(image.pixel(360, 200))")
        }

        // The two renderings agree on a grid, away from edges and labels.
        let cards = RenderCard.drawn(in: frame)
        var compared = 0, mismatches: [String] = []
        for y in stride(from: 3, to: h, by: 6) {
            for x in stride(from: 3, to: w, by: 6) {
                let p = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                if x < 5 || y < 5 || x > w - 6 || y > h - 6 { continue }
                let nearEdge = cards.contains { card in
                    let c = card.quad.corners
                    return (0..<4).contains { segmentDistance(p, c[$0], c[($0 + 1) % 4]) < 4 }
                }
                let nearLabel = cards.contains { card in
                    abs(p.x - card.labelCenter.x) < card.labelFontSize * 1.2 + 4
                        && abs(p.y - card.labelCenter.y) < card.labelFontSize * 0.9 + 4
                }
                if nearEdge || nearLabel { continue }
                compared += 1
                if !colorsClose(svg.pixel(x, y), html.pixel(x, y), tolerance: 3) {
                    mismatches.append("(\(x), \(y)): svg \(svg.pixel(x, y).hex) html \(html.pixel(x, y).hex)")
                }
            }
        }
        #expect(compared > 1500)
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(compared): \(mismatches.prefix(8))")
    }

    @Test func htmlPlayerRunsAndReadsItsFragment() throws {
        let directory = try Browser.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let timeline = RenderFixtures.carousel(frames: 12, cards: 5)
        let file = directory.appendingPathComponent("player.html")
        try HTMLRenderer.render(timeline: timeline, frameIndex: 2).write(to: file, atomically: true, encoding: .utf8)
        let (dom, log) = try Browser.dumpDOM(URL(string: file.absoluteString + "#frame=5")!, budgetMs: 200, in: directory)
        // `#count` is filled only by the script.
        #expect(dom.contains("<span id=\"count\">6 / 12</span>"), "\(log.suffix(2000))")
        #expect(dom.contains("t = 0.083 s · offset (272.73, 0) · decelerating"))
        #expect(!log.contains("Uncaught"), "\(log)")
    }

    @Test func keyboardStepsAndToggles() throws {
        let directory = try Browser.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("keys.html")
        // Keys pressed by a script after the player's: → → → (5), shift+→ (15), ← (14), space.
        let presses = """
        <script>
        (function () {
          function key(k, shift) {
            document.dispatchEvent(new KeyboardEvent("keydown", { key: k, shiftKey: !!shift, bubbles: true, cancelable: true }));
          }
          key("ArrowRight"); key("ArrowRight"); key("ArrowRight"); key("ArrowRight", true); key("ArrowLeft");
          var root = document.documentElement;
          root.setAttribute("data-after-keys", document.getElementById("count").textContent + " " + location.hash);
          key(" ");
          root.setAttribute("data-button", document.getElementById("play").textContent);
        })();
        </script>
        </body>
        """
        let page = HTMLRenderer.render(timeline: RenderFixtures.carousel(frames: 30, cards: 6), frameIndex: 2)
            .replacingOccurrences(of: "</body>", with: presses)
        try page.write(to: file, atomically: true, encoding: .utf8)
        let (dom, log) = try Browser.dumpDOM(file, budgetMs: 100, in: directory)
        #expect(dom.contains("data-after-keys=\"15 / 30 #frame=14\""), "\(dom.prefix(400))")
        #expect(dom.contains("data-button=\"❚❚\""))
        #expect(!log.contains("Uncaught"), "\(log)")
    }

    @Test func playsAtTheTimelinesRealSpeed() throws {
        let directory = try Browser.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("play.html")
        // Headless Chromium under a virtual time budget runs requestAnimationFrame only
        // once; a timer-driven stand-in (which virtual time does advance) shows that
        // playback follows the clock: at 60 fps the frame shown is the time played × 60.
        // The stand-in records how much page time had passed at its last tick, so the
        // check holds however far a loaded machine lets the budget run.
        let shim = "<head><script>var firstTick = null;"
            + "window.requestAnimationFrame = function (f) { return setTimeout(function () {"
            + " var now = performance.now(); if (firstTick === null) firstTick = now; f(now);"
            + " document.documentElement.setAttribute('data-played', String(now - firstTick)); }, 16); };</script>"
        let page = HTMLRenderer.render(timeline: RenderFixtures.carousel(frames: 120, cards: 6))
            .replacingOccurrences(of: "<head>", with: shim)
        try page.write(to: file, atomically: true, encoding: .utf8)
        let (dom, log) = try Browser.dumpDOM(URL(string: file.absoluteString + "#frame=0&playing")!,
                                             budgetMs: 1000, in: directory)
        let marker = "<span id=\"count\">"
        let count = try #require(dom.range(of: marker).map { dom[$0.upperBound...].prefix { $0 != " " } })
        let shown = try #require(Int(count))
        let playedMarker = "data-played=\""
        let played = try #require(dom.range(of: playedMarker).flatMap {
            Double(dom[$0.upperBound...].prefix { $0 != "\"" }) })
        #expect(played > 300, "the player ran for \(played) ms of page time")
        // One tick (16 ms) of slack each way, plus the frame counter's own rounding.
        let expected = played * 60 / 1000
        #expect(abs(Double(shown) - expected) <= 3, "frame \(shown) after \(played) ms (expected ≈ \(expected))")
        #expect(!log.contains("Uncaught"), "\(log)")
    }

    @Test func liveReloadReloadsWhenTheStampChanges() throws {
        let directory = try Browser.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("preview.html")
        let stamp = HTMLRenderer.stampFileName(forHTMLFile: file.path)
        try HTMLRenderer.render(timeline: RenderFixtures.carousel(frames: 12, cards: 5), frameIndex: 4,
                                reloadStampFile: stamp).write(to: file, atomically: true, encoding: .utf8)
        // A sidecar whose stamp changes after its first load, as if the page had been
        // rewritten meanwhile; it records how the page was loaded.
        let sidecar = """
        var n = (+sessionStorage.getItem("loads") || 0) + 1; sessionStorage.setItem("loads", String(n));
        window.cardluaReloadStamp = n === 1 ? "first" : "second";
        document.documentElement.setAttribute("data-loads", String(n));
        document.documentElement.setAttribute("data-navigation", performance.getEntriesByType("navigation")[0].type);
        document.documentElement.setAttribute("data-hash", location.hash);

        """
        try sidecar.write(to: directory.appendingPathComponent(stamp), atomically: true, encoding: .utf8)
        let (dom, log) = try Browser.dumpDOM(file, budgetMs: 3000, in: directory)
        #expect(dom.contains("data-navigation=\"reload\""), "\(dom.prefix(300)) \(log.suffix(1500))")
        #expect(dom.contains("data-hash=\"#frame=4\""))
        #expect(dom.contains("<span id=\"count\">5 / 12</span>"))
        #expect(!log.contains("Uncaught"), "\(log)")
    }
}
