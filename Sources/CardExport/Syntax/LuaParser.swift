/// Parses a Lua 5.4 chunk into its syntax tree.
///
/// (Placeholder so the emitter can compile against the signature; the parser follows.)
public func parseLua(_ source: String, fileName: String) throws(ExportError) -> LuaChunk {
    throw ExportError(fileName: fileName, line: 1, message: "the Lua parser is not written yet")
}
