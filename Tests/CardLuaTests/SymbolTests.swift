import CardLuaTestSupport
import Foundation
import Testing

/// The C runtime exports its entry points and nothing else (Sources/CLuaShims/README.md,
/// *Names and visibility*): an app that links CLuaShims beside another C library must not
/// meet a second `run_protected` or `count_hook`. Checked on the objects this build made,
/// with binutils' `nm` (the global symbols) and `readelf` (their visibility).
@Suite(.enabled(if: Binutils.found || Binutils.underCI,
                "needs binutils (nm, readelf) to read the built objects; not installed"))
struct SymbolTests {
    /// CLuaShims' object files: `CLuaShims.build/*.o` beside the test bundle.
    static func objects() throws -> [String] {
        let directory = TestSupport.builtExecutable(named: "CLuaShims.build")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return files.filter { $0.hasSuffix(".o") }.sorted().map { directory.appendingPathComponent($0).path }
    }

    /// The functions include/CLuaShims.h declares (read from the header's text, not from the
    /// objects): the public API.
    static func headerFunctions() throws -> Set<String> {
        let header = try String(contentsOf: TestSupport.packageRoot
            .appendingPathComponent("Sources/CLuaShims/include/CLuaShims.h"), encoding: .utf8)
        // Comments out, then every `name(` that starts a declaration.
        let code = header.replacingOccurrences(of: "//[^\n]*|/\\*[\\s\\S]*?\\*/", with: "",
                                               options: .regularExpression)
        let declaration = try NSRegularExpression(pattern: "^[A-Za-z_][A-Za-z0-9_ \\*]*?\\b([a-z_][a-z0-9_]*)\\(",
                                                  options: [.anchorsMatchLines])
        let names = declaration.matches(in: code, range: NSRange(code.startIndex..., in: code)).compactMap {
            Range($0.range(at: 1), in: code).map { String(code[$0]) }
        }
        return Set(names.filter { $0 != "if" && $0 != "typedef" })
    }

    /// Names starting with two underscores are the compiler's: an AddressSanitizer build adds
    /// `___asan_globals_registered` and an `__odr_asan_gen_…` for each global object.
    static func isInstrumentation(_ name: String) -> Bool { name.hasPrefix("__") }

    /// The defined global symbols of the objects, by `nm -g --defined-only`, the compiler's
    /// instrumentation left out.
    static func globalSymbols(_ objects: [String]) throws -> Set<String> {
        let nm = try #require(Binutils.nm, "nm is not installed (binutils); under CI=true every check must run")
        let result = try TestSupport.run(URL(fileURLWithPath: nm), ["-g", "--defined-only"] + objects)
        #expect(result.status == 0, "nm failed: \(result.stderr)")
        // "0000000000000000 T cardlua_open"; the "file.o:" headers and blank lines have fewer fields.
        return Set(result.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            return fields.count == 3 && !isInstrumentation(String(fields[2])) ? String(fields[2]) : nil
        })
    }

    @Test func onlyThePublicEntryPointsAreExported() throws {
        let objects = try Self.objects()
        #expect(objects.count >= 10, "CLuaShims' objects not found beside the test bundle")
        let symbols = try Self.globalSymbols(objects)
        let declared = try Self.headerFunctions()
        #expect(declared.count >= 25)
        // Every global name is cardlua_…: the header's functions, or cardlua__… (internal).
        let unprefixed = symbols.filter { !$0.hasPrefix("cardlua_") }
        #expect(unprefixed.isEmpty, "globals without the cardlua_ prefix: \(unprefixed.sorted())")
        let hidden = symbols.filter { $0.hasPrefix("cardlua__") }
        #expect(hidden.count >= 40)
        let exported = symbols.subtracting(hidden).subtracting(unprefixed)
        #expect(exported == declared,
                "exported but not in CLuaShims.h: \(exported.subtracting(declared).sorted()); declared but not defined: \(declared.subtracting(exported).sorted())")
    }

    /// The internal names are hidden (CARDLUA_INTERNAL) and the public ones are not.
    @Test func internalSymbolsAreHidden() throws {
        let readelf = try #require(Binutils.readelf, "readelf is not installed (binutils); under CI=true every check must run")
        let objects = try Self.objects()
        let result = try TestSupport.run(URL(fileURLWithPath: readelf), ["-s", "-W"] + objects)
        #expect(result.status == 0, "readelf failed: \(result.stderr)")
        // "  12: 0000000000000000   152 FUNC    GLOBAL HIDDEN     2 cardlua__charge"
        var visibility: [String: Set<String>] = [:]
        for line in result.stdout.split(separator: "\n") {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count == 8, f[4] == "GLOBAL", f[6] != "UND", !Self.isInstrumentation(String(f[7])) else { continue }
            visibility[String(f[7]), default: []].insert(String(f[5]))
        }
        #expect(visibility.count >= 60)
        for (name, seen) in visibility {
            let expected = name.hasPrefix("cardlua__") ? "HIDDEN" : "DEFAULT"
            #expect(seen == [expected], "\(name) has visibility \(seen.sorted()), not \(expected)")
        }
    }
}

/// The binutils the checks read the objects with. Under CI (CI=true) a missing tool fails
/// the run instead of skipping it, as scripts/test-tools does.
enum Binutils {
    static let underCI = ProcessInfo.processInfo.environment["CI"] == "true"
    static let nm = TestSupport.which("nm")
    static let readelf = TestSupport.which("readelf")
    static var found: Bool { nm != nil && readelf != nil }
}
