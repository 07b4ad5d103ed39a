#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CardExport
import CardLua
import Foundation

/// `cardlua new FILE [--from NAME]`, `cardlua new --list`: writes a starter script
/// that runs as it is, the LuaCATS definitions (`cardlua.d.lua`) beside it, and a
/// `.luarc.json` pointing the Lua language server at them. Never overwrites the script or
/// a `.luarc.json`; refreshes a `cardlua.d.lua` that cardlua wrote.
enum NewCommand {
    static let definitionsFileName = "cardlua.d.lua"

    /// `new --list`: every template, one line each — its name, what it looks like and
    /// where it comes from — in aligned columns.
    static func listing() -> String {
        let width = Templates.all.map(\.name.count).max() ?? 0
        return Templates.all.map { template in
            template.name + String(repeating: " ", count: width - template.name.count) + "  "
                + template.summary + "  (" + template.source + ")\n"
        }.joined()
    }

    static let declaration = CommandDeclaration(
        name: "new", synopsis: "new FILE [--from NAME]", summary: "start an effect script (plus editor definitions)",
        arguments: .one("FILE", missing: "the file to write", extraHint: "one file at a time"),
        argumentsWith: (.list, .none("--list takes no file")),
        options: [
            OptionSpec(.from, value: "NAME",
                       summary: "the template or catalogue effect to start from (see --list)",
                       defaultText: Templates.all[0].name),
            OptionSpec(.list, summary: "print every NAME with what it looks like and its source"),
        ],
        help: { options in """
        cardlua new — start an effect script

        USAGE: cardlua new FILE [--from NAME]
               cardlua new --list

        Writes a commented starter script that runs as it is, and a .luarc.json beside it
        that points the Lua language server at the cardlua definitions (cardlua.d.lua,
        written next to it). Without --from: blank, all three callbacks doing what UIKit
        does. NAME is one of the seeds (lol, card-scale, photo-browser), the contract-v2
        examples (stacked-deck, paging-layout, wrap-carousel) or a catalogue effect: the
        field's carousels ported faithfully (icarousel-coverflow, fspager-ferris-wheel, …);
        --list prints them all. Never overwrites the script or a .luarc.json; brings a
        cardlua.d.lua that cardlua wrote up to date.

        \(options)
        """ },
        run: main)

    static func main(_ arguments: Arguments) throws -> Int32 {
        if arguments.isSet(.list) {
            Console.out(listing())
            return 0
        }
        let path = arguments.argument
        // The name goes into the starter's header, the report and the next commands a user
        // types: a newline or an escape in it could only do harm.
        if Echo.safe(path, limit: nil) != path {
            throw UsageError("'\(Echo.safe(path))': a file name with control characters (a newline, an escape…) "
                             + "is refused; choose a plain name", command: declaration.name)
        }
        let templateName = arguments.value(.from) ?? "blank"
        guard let template = Templates.named(templateName) else {
            let names = Templates.all.map(\.name)
            var message = "--from: no template '\(Echo.safe(templateName))'"
            if let guess = Arguments.closest(to: templateName, in: Set(names)) { message += "; did you mean '\(guess)'?" }
            message += " (cardlua new --list shows all \(names.count))"
            throw UsageError(message, command: declaration.name)
        }

        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        let fileManager = FileManager.default
        let exists = CommandFailure("cardlua: \(Echo.safe(path)) already exists; cardlua new never overwrites a file (choose another name)")
        if fileManager.fileExists(atPath: path) { throw exists }
        do {
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cardlua: \(Echo.safe(directory.path)): cannot create the folder (\((error as NSError).localizedDescription))")
        }
        let definitions: String
        do {
            definitions = try LuaEffect.typeDefinitions() + "\n"
        } catch {
            throw CommandFailure("cardlua: \(error.message)")
        }

        let script = Templates.script(template, fileName: url.lastPathComponent)
        switch createExclusively(path, contents: script) {
        case .created: break
        case .exists:
            throw exists
        case .failed(let reason):
            throw CommandFailure("cardlua: \(Echo.safe(path)): \(reason)")
        }
        var report = "wrote \(path) (from the \(template.name) template)\n"

        let definitionsPath = sibling(of: path, named: definitionsFileName)
        // Whether cardlua.d.lua beside the script holds cardlua's definitions afterwards.
        var definitionsAreCardlua = true
        // Read without waiting (a FIFO or a device there is left alone, as a file that
        // is not cardlua's is), and bounded.
        let found = Self.text(at: definitionsPath)
        if case let .text(existing) = found {
            if existing == definitions {
                report += "kept \(definitionsPath) (up to date)\n"
            } else if existing.hasPrefix("---@meta cardlua") {
                do {
                    try writeAtomically(definitions, to: definitionsPath)
                    report += "updated \(definitionsPath) (the cardlua API definitions)\n"
                } catch {
                    definitionsAreCardlua = false
                    report += "could not update \(definitionsPath): \(error)\n"
                }
            } else {
                definitionsAreCardlua = false
                report += "left \(definitionsPath) alone: it is not cardlua's (write the definitions elsewhere with cardlua types -o FILE)\n"
            }
        } else if found == .other {
            definitionsAreCardlua = false
            report += "left \(definitionsPath) alone: it is not cardlua's (write the definitions elsewhere with cardlua types -o FILE)\n"
        } else {
            switch createExclusively(definitionsPath, contents: definitions) {
            case .created: report += "wrote \(definitionsPath) (the cardlua API definitions, for your editor)\n"
            case .exists:
                definitionsAreCardlua = false
                report += "left \(definitionsPath) alone: it appeared meanwhile\n"
            case .failed(let reason):
                definitionsAreCardlua = false
                report += "could not write \(definitionsPath): \(reason)\n"
            }
        }

        let luarcPath = sibling(of: path, named: ".luarc.json")
        switch createExclusively(luarcPath, contents: Templates.luarc) {
        case .created:
            report += "wrote \(luarcPath) (points the Lua language server at \(definitionsFileName))\n"
        case .exists:
            // Say what is true of the file that is there: advice to add the definitions only
            // when it does not list them already, and only when they are cardlua's.
            if Self.luarcLists(definitionsFileName, at: luarcPath) {
                report += "kept \(luarcPath) (it already points the Lua language server at \(definitionsFileName))\n"
            } else if definitionsAreCardlua {
                report += "left \(luarcPath) alone: it exists; to get completion, add \"\(definitionsFileName)\" to its \"workspace.library\"\n"
            } else {
                report += "left \(luarcPath) alone: it exists; to get completion, write the definitions with "
                    + "cardlua types -o FILE and add FILE to its \"workspace.library\"\n"
            }
        case .failed(let reason):
            report += "could not write \(luarcPath): \(reason)\n"
        }

        let name = path
        let layoutName = Exporter.className(forFileName: (path as NSString).lastPathComponent)
        report += """

        next:
          cardlua play \(name)    (then open the URL it prints: drag the cards, edit, save)
          cardlua run \(name)
          cardlua watch \(name) -o preview.html    (then open preview.html in a browser)
          cardlua check \(name)
          cardlua export \(name) -o \(layoutName).swift    (the layout as Swift, for your iOS app)

        """
        Console.out(report)
        return 0
    }

    /// Whether the `.luarc.json` at `path` lists `library` in its workspace library, in
    /// either spelling LuaLS reads (`"workspace.library"` or `"workspace": {"library"}`).
    static func luarcLists(_ library: String, at path: String) -> Bool {
        guard case let .text(text) = text(at: path),
              let settings = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return false }
        let nested = (settings["workspace"] as? [String: Any])?["library"]
        let entries = ((settings["workspace.library"] as? [Any]) ?? []) + ((nested as? [Any]) ?? [])
        return entries.contains { entry in
            guard let text = entry as? String else { return false }
            return text == library || text == "./" + library
        }
    }

    /// What is at a path beside the new script.
    enum Found: Equatable {
        /// Nothing.
        case nothing
        /// A regular file of UTF-8 text, at most a script's size (``ScriptFile/maxBytes``).
        case text(String)
        /// Anything else: a FIFO, a device, a folder, a file too large, unreadable or not text.
        case other
    }

    /// What is at `path`, read as ``RegularFile`` reads (never waiting on it).
    static func text(at path: String) -> Found {
        do {
            let bytes = try RegularFile.read(path: path, maxBytes: ScriptFile.maxBytes)
            return String(validating: bytes, as: UTF8.self).map(Found.text) ?? .other
        } catch {
            return error == .missing ? .nothing : .other
        }
    }

    /// `name` in the folder of `path`, spelled the way `path` was (relative stays relative).
    static func sibling(of path: String, named name: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
    }

    enum CreateResult: Equatable {
        case created
        case exists
        case failed(String)
    }

    /// Creates `path` with `contents`, failing if anything is already there (O_EXCL, so
    /// that no race can make it overwrite a file).
    static func createExclusively(_ path: String, contents: String) -> CreateResult {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        if descriptor < 0 {
            return errno == EEXIST ? .exists : .failed(String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var text = contents
        let failure: String? = text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += written
            }
            return nil
        }
        if let failure {
            unlink(path)
            return .failed(failure)
        }
        return .created
    }
}
