import CardExport
import CardLayout
import Foundation

/// `cardlua export --app DIR SCRIPT [--cards FOLDER] [--param k=v …] [--class NAME]`: an
/// iOS app to open in Xcode or Swift Playgrounds and run on a phone, with the exported
/// layout in a `UICollectionView` (docs/export.md, "Try it on a phone").
///
/// DIR gets `.swiftpm` when it lacks it (Swift Playgrounds opens only such folders; a note
/// on standard error says so). The folder is written whole or not at all (``AppFolder``):
/// an existing non-empty DIR is refused before any work, a script that does not run or
/// that the translator refuses fails exactly as `cardlua export` fails, and nothing is
/// written then.
enum ExportApp {
    /// The most image bytes copied into an app.
    static let maxImageBytes = 256 << 20

    static func main(_ arguments: Arguments, folder: String) throws -> Int32 {
        let command = ExportCommand.declaration.name
        if arguments.value(.output) != nil {
            throw UsageError("-o cannot be combined with --app (the app is the folder DIR)", command: command)
        }
        let path = arguments.argument
        let params = try ParamOption.parse(arguments)
        let givenClass = try arguments.value(.className).map { name throws(UsageError) in
            try ExportCommand.checkedClassName(name)
        }
        if let givenClass, AppSources.typeNames.contains(givenClass) {
            throw UsageError("--class: '\(givenClass)' is a type of the app --app writes; choose another name, "
                             + "like \(givenClass)Layout", command: command)
        }
        let (target, added) = AppFolder.named(folder)
        let app = try AppFolder(path: target)
        let cards = try CardsFolder.chosen(arguments.value(.cards), scriptPath: path, command: command)
        let images = try cards.map { folder throws(UsageError) in try copiedImages(of: folder, command: command) } ?? []

        let swift = try ExportCommand.exportedSwift(path, params: params, className: givenClass)
        let className = givenClass ?? Exporter.className(forFileName: path)
        var appName = ((target as NSString).lastPathComponent as NSString).deletingPathExtension
        if appName.isEmpty { appName = "CardCarousel" }
        let sources = AppSources(
            appName: appName, className: className,
            features: AppSources.features(ofLayout: swift, className: className),
            // The demo `cardlua run SCRIPT` runs, the one export ran: its items per section.
            numberOfItems: Scenario.defaultNumberOfItems,
            imageNames: images.map(\.name),
            scriptName: (path as NSString).lastPathComponent)
        var files = sources.files.map { (path: $0.name, bytes: Array($0.text.utf8)) }
        files.append((path: className + ".swift", bytes: Array(swift.utf8)))
        files += images.map { (path: "Resources/" + $0.name, bytes: $0.bytes) }
        if added { Console.error("cardlua: writing \(target) (Swift Playgrounds opens a folder named NAME.swiftpm)") }
        try app.write(files)
        return 0
    }

    /// The folder's images as the app's resources: `card-000.png`, `card-001.jpg`, … in
    /// the folder's name order (the extension lower-cased).
    /// - Throws: for an SVG (`UIImage(named:)` reads none), an image that cannot be read,
    ///   or more than ``maxImageBytes`` in all.
    static func copiedImages(of folder: CardsFolder, command: String) throws(UsageError)
        -> [(name: String, bytes: [UInt8])]
    {
        let total = folder.images.reduce(0) { $0 + $1.bytes }
        guard total <= maxImageBytes else {
            throw UsageError("--cards: the images in '\(Echo.safe(folder.path))' come to "
                             + "\(CardsFolder.megabytes(total)), more than the \(CardsFolder.megabytes(maxImageBytes)) "
                             + "an app takes; use fewer or smaller images", command: command)
        }
        var out: [(name: String, bytes: [UInt8])] = []
        for (n, image) in folder.images.enumerated() {
            guard image.contentType != "image/svg+xml" else {
                throw UsageError("--cards: '\(Echo.safe(image.name))' is an SVG, which UIImage(named:) does not read; "
                                 + "convert it to PNG, or move it out of the folder", command: command)
            }
            let bytes: [UInt8]
            do { bytes = try image.read() } catch {
                throw UsageError("--cards: cannot read '\(Echo.safe(image.name))': \(error.reason)", command: command)
            }
            let ext = (image.name as NSString).pathExtension.lowercased()
            out.append((name: "card-" + String(format: "%03d", n) + "." + ext, bytes: bytes))
        }
        return out
    }
}
