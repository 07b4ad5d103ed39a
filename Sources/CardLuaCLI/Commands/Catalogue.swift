import Foundation

/// The effect catalogue: the field's carousels ported as scripts (scripts/effects/),
/// embedded in the binary so that `cardlua new --from NAME` and `cardlua gallery` need
/// no files beside it.
///
/// Each script names itself in its first two lines, which are all this reads:
///
///     -- icarousel-coverflow: the centre card flat between two tilted side stacks
///     -- Source: iCarousel, 1.8.3 (c9e043e), iCarousel/iCarousel.m, iCarouselTypeCoverFlow
///
/// The library (the text before the first comma of `Source:`) is the effect's group.
enum Catalogue {
    /// One ported effect.
    struct Entry {
        /// The name for `--from`: the file name without `.lua`.
        var name: String
        /// The first line's text after `NAME:`.
        var summary: String
        /// The `Source:` line's text.
        var source: String
        /// The library: `source` up to its first comma.
        var library: String
        /// The script.
        var text: String
    }

    /// Every entry, grouped by library in the order the libraries first appear in
    /// ``libraryOrder`` (then any other library, by name), by name within a group.
    static let effects: [Entry] = {
        let entries = catalogueEffects.map { entry(file: $0.file, text: $0.text) }
        func rank(_ library: String) -> Int { libraryOrder.firstIndex(of: library) ?? libraryOrder.count }
        return entries.sorted { (rank($0.library), $0.library, $0.name) < (rank($1.library), $1.library, $1.name) }
    }()

    /// The libraries in the order `new --list` and the gallery show them.
    static let libraryOrder = [
        "iCarousel", "AnimatedCollectionViewLayout", "CollectionViewPagingLayout", "FSPagerView", "Gemini",
        "UPCarouselFlowLayout", "CarLensCollectionViewLayout", "Apple's LineLayout sample",
    ]

    /// Reads the header of one script. A script without one still lists (by its file name)
    /// so that a missing header shows in `new --list` rather than hiding the effect; the
    /// catalogue tests require every header.
    static func entry(file: String, text: String) -> Entry {
        let name = file.hasSuffix(".lua") ? String(file.dropLast(4)) : file
        let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        var summary = "", source = ""
        if let first = lines.first, first.hasPrefix("-- \(name):") {
            summary = first.dropFirst(4 + name.count).trimmingCharacters(in: .whitespaces)
        }
        if lines.count > 1, lines[1].hasPrefix("-- Source:") {
            source = lines[1].dropFirst(10).trimmingCharacters(in: .whitespaces)
        }
        let library = source.split(separator: ",", maxSplits: 1).first.map(String.init) ?? ""
        return Entry(name: name, summary: summary, source: source, library: library.isEmpty ? "other" : library, text: text)
    }
}
