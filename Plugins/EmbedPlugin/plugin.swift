// Embeds a target's non-Swift text (the Lua prelude, the templates, the page's JS/CSS)
// in its code at build time. The target keeps a list, `embed.list`, in a folder of its
// own (at any depth: Lua/, Playground/Page/); the embed-text tool turns the files each
// list names into `Embedded-FOLDER.swift`. The command runs again only when the list or
// one of its files changes.
import Foundation
import PackagePlugin

@main
struct EmbedPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        // Targets keep SwiftPM's default place, Sources/NAME (directoryURL needs tools 6.1).
        let root = context.package.directoryURL
        let folder = root.appendingPathComponent("Sources").appendingPathComponent(target.name)
        return try Self.lists(under: folder).map { relative in
            let list = folder.appendingPathComponent(relative)
            // Named by the list's folder, path and all (Playground/Page: Embedded-Playground-Page),
            // so that two folders of the same name never write the same file.
            let name = (relative as NSString).deletingLastPathComponent.replacingOccurrences(of: "/", with: "-")
            let output = context.pluginWorkDirectoryURL.appendingPathComponent("Embedded-\(name).swift")
            return .buildCommand(
                displayName: "Embedding the text files of \(target.name)",
                executable: try context.tool(named: "EmbedText").url,
                arguments: [output.path, list.path, root.path],
                inputFiles: [list] + Self.files(in: list, root: root),
                outputFiles: [output])
        }
    }

    /// The `embed.list` files in the folders below `folder` (not in `folder` itself), as
    /// paths relative to it, in name order.
    static func lists(under folder: URL) -> [String] {
        let paths = FileManager.default.subpaths(atPath: folder.path) ?? []
        return paths.filter { $0.hasSuffix("/embed.list") }.sorted()
    }

    /// The files `list` names (every word after an entry's first that is not a comment);
    /// a folder (`…/`) stands for itself, so that adding or removing a file reruns the
    /// command, and for each of its `.lua` files.
    static func files(in list: URL, root: URL) -> [URL] {
        guard let text = try? String(contentsOf: list, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").flatMap { line -> [URL] in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = words.first, !first.hasPrefix("#") else { return [] }
            let continued = line.first == " " || line.first == "\t"
            return words.dropFirst(continued ? 0 : 1).flatMap { word -> [URL] in
                // `luac:NAME` is another entry's value compiled, not a file.
                if word.hasPrefix("luac:") { return [] }
                let url = root.appendingPathComponent(String(word))
                guard word.hasSuffix("/") else { return [url] }
                let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
                return [url] + names.filter { $0.hasSuffix(".lua") }.map { url.appendingPathComponent($0) }
            }
        }
    }
}
