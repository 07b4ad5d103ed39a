@testable import CardLua
import CardLuaTestSupport
import Foundation
import Testing

/// One owner per script function: C's tables (transform_math.c, geometry_native.c,
/// elements.c) name the transform math, the geometry constructors and IndexPath with
/// their parameters and kinds, the
/// prelude defines the globals from them, and the Lua reference
/// (Sources/CardLua/Lua/reference/) lists the same.
@Suite struct FunctionTableTests {
    /// The rows C gives a cardlua state and the rows the reference gives the stock
    /// interpreter, read through the same prelude function: the same functions, in the
    /// same order, with the same parameters and kinds, and the same names besides.
    @Test(.enabled(if: FuzzTests.stockLua != nil, "needs the lua5.4 interpreter"))
    func cAndTheReferenceListTheSameFunctions() throws {
        let ours = try LuaEffect(source: "", chunkName: "rows.lua").internalString("functionRows")
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stock = try FuzzTests.runStockLua(try TransformMathTests.stockPrelude(in: directory)
            + "\nio.write(I.functionRows())\n")
        #expect(ours == stock, "C's rows:\n\(ours)\nthe reference's:\n\(stock)")
        // The rows are the API of docs/script-api.md, as written there.
        for row in ["CGRectMake(x, y, width, height) nnnn", "CATransform3DRotate(t, angle, x, y, z) Tnnnn",
                    "CGPointApplyAffineTransform(p, t) PA", "CATransform3DIdentity() ", "IndexPath(item, section) nn"] {
            #expect(ours.split(separator: "\n").contains(Substring(row)), "\(row)")
        }
        #expect(ours.split(separator: "\n").count == 12 + 1 + 27 + 1 + 1 + 1)  // rows (4 constructors, 8 getters), then each table's names
    }

    /// The prelude does not name a function C's table names (no Lua copy, no second list),
    /// yet defines each as a global with the signature the row gives (HelperArgumentTests:
    /// their did-you-mean).
    @Test func thePreludeNamesNoneOfCsFunctions() throws {
        let rows = try LuaEffect(source: "", chunkName: "rows.lua").internalString("functionRows")
        let names = rows.split(separator: "\n").compactMap { line in
            line.firstIndex(of: "(").map { String(line[..<$0]) }
        }
        #expect(names.count == 12 + 27 + 1)
        for name in names {
            #expect(!Benchmark.preludeSource.contains("define(\"\(name)\""), "the prelude defines \(name)")
            // (IndexPath is also the name of its metatable.)
            if name != "IndexPath" {
                #expect(!Benchmark.preludeSource.contains("\"\(name)\""), "the prelude names \(name)")
            }
        }
        let types = try LuaEffect.typeDefinitions()
        #expect(types.contains("---@param angle number\n---@param x number\n---@param y number\n---@param z number\n"
                               + "---@return CATransform3D\nfunction CATransform3DMakeRotation(angle, x, y, z) end"))
        #expect(types.contains("---@type CGAffineTransform\nCGAffineTransformIdentity = nil"))
    }
}
