import CardLua
import CardRender
import CardServe
import Foundation

/// `--cards DIR`: a folder of card images (PNG, JPEG, WebP, GIF, SVG, by extension), in
/// name order, drawn on the cards in turn (``CardPictures``). Without the option, a
/// folder named `cards` beside the script is used when it holds any image.
///
/// The static pages (`run --format html`, `watch`'s preview, `gallery`) embed the images
/// as `data:` URIs, so the file stays self-contained; ``maxEmbeddedBytes`` caps them.
/// `play` serves them itself at `GET /cards/N` (``response(to:)``): only the files listed
/// when it started, by number, so no name from the page ever reaches the file system.
/// SVG, text and JSON output draw no images (the SVG keeps the palette).
struct CardsFolder {
    /// One image of the folder.
    struct Image: Equatable {
        var name: String
        var path: String
        var contentType: String
        var bytes: Int

        /// The file's bytes now, read as ``RegularFile`` reads: at most ``maxFileBytes``,
        /// never waiting (a FIFO or a device put in its place is refused at once), and
        /// with `O_NOFOLLOW` — the folder was listed without following links, and a file
        /// swapped for one since is refused, not followed out of the folder. The check is
        /// on the open file, so nothing can be swapped in between.
        func read() throws(RegularFile.Failure) -> [UInt8] {
            try RegularFile.read(path: path, maxBytes: CardsFolder.maxFileBytes, links: .refuse)
        }
    }

    /// The folder as given.
    let path: String
    /// Its images, in name order.
    let images: [Image]

    /// The content type of each extension taken (lower-case).
    static let contentTypes: [String: String] = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "webp": "image/webp",
        "gif": "image/gif", "svg": "image/svg+xml",
    ]
    /// The largest image file taken (play serves it in one response).
    static let maxFileBytes = 16 << 20
    /// The most images taken from a folder.
    static let maxImages = 1000
    /// The most image bytes a static page embeds (base64 adds a third).
    static let maxEmbeddedBytes = 8 << 20

    /// The folder's images.
    /// - Throws: a usage error when `path` is not a readable folder, holds no image, or
    ///   holds one over ``maxFileBytes`` or more than ``maxImages``.
    init(path: String, command: String) throws(UsageError) {
        self.path = path
        let shown = Echo.safe(path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw UsageError("--cards: no folder '\(shown)'", command: command)
        }
        guard isFolder.boolValue else { throw UsageError("--cards: '\(shown)' is not a folder", command: command) }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
            throw UsageError("--cards: cannot read the folder '\(shown)'", command: command)
        }
        var found: [Image] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let ext = (name as NSString).pathExtension.lowercased()
            guard let type = Self.contentTypes[ext] else { continue }
            let file = (path as NSString).appendingPathComponent(name)
            // Regular files only: a link could lead out of the folder.
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
                  attributes[.type] as? FileAttributeType == .typeRegular,
                  let size = (attributes[.size] as? NSNumber)?.intValue else { continue }
            guard size <= Self.maxFileBytes else {
                throw UsageError("--cards: '\(Echo.safe(name))' is \(Self.megabytes(size)), more than the "
                                 + "\(Self.megabytes(Self.maxFileBytes)) an image may be", command: command)
            }
            found.append(Image(name: name, path: file, contentType: type, bytes: size))
        }
        guard !found.isEmpty else {
            throw UsageError("--cards: '\(shown)' holds no image (png, jpg, jpeg, webp, gif or svg)", command: command)
        }
        guard found.count <= Self.maxImages else {
            throw UsageError("--cards: '\(shown)' holds \(found.count) images, more than \(Self.maxImages)", command: command)
        }
        images = found
    }

    /// The folder `--cards` names, else a `cards` folder beside `scriptPath` that holds an
    /// image, else nil (the palette).
    static func chosen(_ option: String?, scriptPath: String?, command: String) throws(UsageError) -> CardsFolder? {
        if let option { return try CardsFolder(path: option, command: command) }
        guard let scriptPath else { return nil }
        let beside = ((scriptPath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("cards")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: beside, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        return try? CardsFolder(path: beside, command: command)
    }

    /// The pictures of a static page: each image as a `data:` URI.
    /// - Throws: a usage error when the images come to more than ``maxEmbeddedBytes`` or
    ///   one cannot be read.
    func embedded(command: String) throws(UsageError) -> CardPictures {
        let total = images.reduce(0) { $0 + $1.bytes }
        guard total <= Self.maxEmbeddedBytes else {
            throw UsageError("--cards: the images in '\(Echo.safe(path))' come to \(Self.megabytes(total)), more than the "
                             + "\(Self.megabytes(Self.maxEmbeddedBytes)) a page embeds; use fewer or smaller images", command: command)
        }
        var urls: [String] = []
        for image in images {
            let bytes: [UInt8]
            do { bytes = try image.read() } catch {
                throw UsageError("--cards: cannot read '\(Echo.safe(image.name))': \(error.reason)", command: command)
            }
            urls.append("data:\(image.contentType);base64," + Data(bytes).base64EncodedString())
        }
        return CardPictures(urls: urls)!  // images is never empty
    }

    /// The pictures of `play`'s page: `cards/0`, `cards/1`, … (``response(to:)``),
    /// relative to the page, so that under `play --lan` they carry its token prefix.
    var served: CardPictures { CardPictures(urls: images.indices.map { "cards/\($0)" })! }

    /// The policy of an image answer. Drawn as a CSS background an SVG runs no script and
    /// loads nothing; opened on its own at `/cards/N` it is a document in the page's
    /// origin. So: `sandbox` without `allow-scripts` or `allow-same-origin` (no script, an
    /// opaque origin: no cookie, no token, no engine); `script-src 'none'` (also implied by
    /// `default-src 'none'`, said outright); nothing fetched from anywhere, not even this
    /// server; only what an SVG exported by a design tool carries inside it: inline style,
    /// and `data:` images and fonts.
    static let imagePolicy = "default-src 'none'; script-src 'none'; img-src data:; font-src data:; "
        + "style-src 'unsafe-inline'; sandbox"

    /// `GET /cards/N`: image N of the folder, with its content type; 404 for anything
    /// else (a name, a path, a number out of range, a file that is no longer a regular
    /// file of at most ``maxFileBytes``: a link, a FIFO, a device — refused without
    /// waiting, ``Image/read()``).
    func response(to request: HTTPRequest) -> HTTPResponse {
        let prefix = "/cards/"
        guard request.path.hasPrefix(prefix) else { return .status(404) }
        let digits = request.path.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let n = Int(digits), images.indices.contains(n) else { return .status(404) }
        guard let bytes = try? images[n].read() else { return .status(404) }
        var response = HTTPResponse.bytes(bytes, contentType: images[n].contentType)
        response.headers.add("Cache-Control", "no-cache")
        response.headers.add("X-Content-Type-Options", "nosniff")
        response.headers.add("Content-Security-Policy", Self.imagePolicy)
        return response
    }

    /// `GET /cards`: `{"images": [url, …], "sections": [items per section]}` (the page
    /// pictures item n in index-path order with image n mod count).
    func listing(numberOfItems: [Int]) -> String {
        "{\"images\":[" + served.urls.map { "\"\($0)\"" }.joined(separator: ",") + "],\"sections\":["
            + numberOfItems.map(String.init).joined(separator: ",") + "]}"
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }
}
