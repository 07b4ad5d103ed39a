import CardLuaTestSupport
import Foundation
import LuaSyntax
import Testing

/// The Lua 5.4 parser: grouping by precedence and associativity, every statement form,
/// literals, comments and lines, syntax errors as Lua reports them, the nesting cap, and
/// every shipped script.
@Suite struct LuaParserTests {
    // MARK: - Helpers

    /// The one expression of `return EXPR`.
    private func expression(_ source: String) throws -> LuaExpression {
        let chunk = try parseLua("return \(source)", fileName: "test.lua")
        guard case .returnStatement(let values) = chunk.body.statements.first?.kind, values.count == 1 else {
            throw LuaSyntaxError(fileName: "test.lua", line: 0, message: "not one returned expression")
        }
        return values[0]
    }

    /// The syntax error `source` raises, or nil if it parses.
    private func syntaxError(_ source: String) -> LuaSyntaxError? {
        do {
            _ = try parseLua(source, fileName: "bad.lua")
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Precedence and associativity

    @Test(arguments: [
        ("1 + 2 * 3", "(+ 1 (* 2 3))"),
        ("1 * 2 + 3", "(+ (* 1 2) 3)"),
        ("1 - 2 - 3", "(- (- 1 2) 3)"),
        ("a / b * c", "(* (/ a b) c)"),
        ("a // b % c * d", "(* (% (// a b) c) d)"),
        ("a .. b .. c", "(.. a (.. b c))"),
        ("2 ^ 3 ^ 2", "(^ 2 (^ 3 2))"),
        ("-2 ^ 2", "(neg (^ 2 2))"),
        ("2 ^ -3", "(^ 2 (neg 3))"),
        ("-x ^ -y ^ z", "(neg (^ x (neg (^ y z))))"),
        ("- - x", "(neg (neg x))"),
        ("not a == b", "(== (not a) b)"),
        ("not not a", "(not (not a))"),
        ("#t + 1", "(+ (len t) 1)"),
        ("#t.items", "(len (. t items))"),
        ("~a ~ b", "(~ (bnot a) b)"),
        ("a or b and c", "(or a (and b c))"),
        ("a and b or c and d", "(or (and a b) (and c d))"),
        ("a or b or c", "(or (or a b) c)"),
        ("a < b == c", "(== (< a b) c)"),
        ("a + b < c + d and e", "(and (< (+ a b) (+ c d)) e)"),
        ("a | b ~ c & d << e .. f + g", "(| a (~ b (& c (<< d (.. e (+ f g))))))"),
        ("a + b .. c + d", "(.. (+ a b) (+ c d))"),
        ("a .. b == c .. d", "(== (.. a b) (.. c d))"),
        ("a >> b << c", "(<< (>> a b) c)"),
        ("a & b | c & d", "(| (& a b) (& c d))"),
        ("(a + b) * c", "(* (paren (+ a b)) c)"),
        ("a ~= b >= c", "(>= (~= a b) c)"),
        ("x * -y ^ 2", "(* x (neg (^ y 2)))"),
        ("a.b.c:d(1)[2]", "([] (: (. (. a b) c) d 1) 2)"),
        ("f(a, b)(c)", "(call (call f a b) c)"),
        ("f{1} .. g'x'", "(.. (call f {1}) (call g \"x\"))"),
        ("t[i + 1].x", "(. ([] t (+ i 1)) x)"),
    ])
    func groupsAsLuaDoes(source: String, expected: String) throws {
        #expect(render(try expression(source)) == expected)
    }

    /// The whole tree, lines included, for one statement written by hand.
    @Test func buildsTheTreeOfAStatementWithItsLines() throws {
        let chunk = try parseLua("\nlocal x <const> = -1 +\n  2 * t.y", fileName: "tree.lua")
        let number: (String, Int64, Int) -> LuaExpression = { text, value, line in
            LuaExpression(.number(LuaNumber(text: text, isInteger: true, value: Double(value), integerValue: value)),
                          line: line)
        }
        let product = LuaExpression(
            .binary(.multiply, number("2", 2, 3),
                    LuaExpression(.field(base: LuaExpression(.name("t"), line: 3), name: "y"), line: 3)),
            line: 3)
        let sum = LuaExpression(.binary(.add, LuaExpression(.unary(.negate, number("1", 1, 2)), line: 2), product),
                                line: 2)
        let expected = LuaStatement(.local(names: [LuaLocalName(name: "x", attribute: .const)], values: [sum]),
                                    line: 2, isPrecededByBlankLine: true)
        #expect(chunk == LuaChunk(headerComment: [], body: LuaBlock(statements: [expected])))
    }

    // MARK: - Statements

    @Test func parsesEveryStatementForm() throws {
        let source = """
            local a, b <close> = 1
            a, t.x, t[1] = 1, 2, 3
            f(1)
            o:m "s"
            do local c = 1 end
            while a < 3 do a = a + 1; break end
            repeat local d = a until d > 3
            if a then f() elseif b then g() else h() end
            for i = 10, 1, -1 do end
            for k, v in pairs(t) do end
            function a.b.c:m(x, ...) return self, ... end
            local function l() return end
            goto skip
            ::skip::
            return a, b
            """
        let chunk = try parseLua(source, fileName: "all.lua")
        let statements = chunk.body.statements
        #expect(statements.map(\.line) == Array(1...15))
        #expect(statements[0].kind == .local(
            names: [LuaLocalName(name: "a"), LuaLocalName(name: "b", attribute: .close)],
            values: [LuaExpression(.number(LuaNumber(text: "1", isInteger: true, value: 1, integerValue: 1)), line: 1)]))
        guard case .assignment(let targets, let values) = statements[1].kind else { Issue.record("assignment"); return }
        #expect(targets.map(render) == ["a", "(. t x)", "([] t 1)"])
        #expect(values.count == 3)
        guard case .call(let call) = statements[2].kind else { Issue.record("call"); return }
        #expect(render(call) == "(call f 1)")
        guard case .call(let method) = statements[3].kind else { Issue.record("method call"); return }
        #expect(render(method) == "(: o m \"s\")")
        guard case .doBlock(let block) = statements[4].kind else { Issue.record("do"); return }
        #expect(block.statements.count == 1)
        guard case .whileLoop(let condition, let body) = statements[5].kind else { Issue.record("while"); return }
        #expect(render(condition) == "(< a 3)")
        #expect(body.statements.map(\.kind).last == .breakStatement)
        guard case .repeatLoop(_, let until) = statements[6].kind else { Issue.record("repeat"); return }
        #expect(render(until) == "(> d 3)")
        guard case .ifStatement(let clauses, let elseBlock) = statements[7].kind else { Issue.record("if"); return }
        #expect(clauses.map { render($0.condition) } == ["a", "b"])
        #expect(elseBlock?.statements.count == 1)
        guard case .numericFor(let variable, let start, let limit, let step, _) = statements[8].kind else {
            Issue.record("numeric for"); return
        }
        #expect(variable == "i" && render(start) == "10" && render(limit) == "1")
        #expect(step.map(render) == "(neg 1)")
        guard case .genericFor(let names, let expressions, _) = statements[9].kind else { Issue.record("for in"); return }
        #expect(names == ["k", "v"] && expressions.map(render) == ["(call pairs t)"])
        guard case .function(let name, let function) = statements[10].kind else { Issue.record("function"); return }
        #expect(name == LuaFunctionName(base: "a", fields: ["b", "c"], method: "m"))
        #expect(function.parameters == ["x"] && function.isVararg && function.line == 11 && function.endLine == 11)
        guard case .localFunction(let localName, _) = statements[11].kind else { Issue.record("local function"); return }
        #expect(localName == "l")
        #expect(statements[12].kind == .gotoStatement(label: "skip"))
        #expect(statements[13].kind == .label("skip"))
        guard case .returnStatement(let returned) = statements[14].kind else { Issue.record("return"); return }
        #expect(returned.map(render) == ["a", "b"])
    }

    @Test func parsesTableConstructorsWithAllThreeEntryForms() throws {
        let table = try expression("{ 1, x = 2; [k] = 3, f(), }")
        guard case .table(let fields) = table.kind else { Issue.record("not a table"); return }
        #expect(fields.count == 4)
        #expect(fields.map { field -> String in
            switch field.kind {
            case .positional(let value): "item " + render(value)
            case .named(let name, let value): "\(name) = " + render(value)
            case .keyed(let key, let value): "[\(render(key))] = " + render(value)
            }
        } == ["item 1", "x = 2", "[k] = 3", "item (call f)"])
        #expect(render(try expression("{}")) == "{}")
    }

    @Test func keepsFunctionLiteralsAndVarargs() throws {
        let literal = try expression("function(a, b, ...) local t = {...} return t end")
        guard case .function(let function) = literal.kind else { Issue.record("not a function"); return }
        #expect(function.parameters == ["a", "b"] && function.isVararg && function.body.statements.count == 2)
        #expect(render(try expression("...")) == "...")
    }

    // MARK: - Literals

    @Test(arguments: [
        ("0", true, 0.0), ("42", true, 42), ("0x10", true, 16), ("0XfF", true, 255),
        ("9223372036854775807", true, 0x1p63),  // Int64.max, nearest Double
        ("0xffffffffffffffff", true, -1),          // hex integers wrap around, as in Lua
        ("9223372036854775808", false, 0x1p63),  // too big: a float
        ("3.0", false, 3), ("35.", false, 35), (".5", false, 0.5), ("1e3", false, 1000), ("1E+2", false, 100),
        ("2.5e-1", false, 0.25), ("0x.8", false, 0.5), ("0xA.8p1", false, 21), ("0x1p-2", false, 0.25),
    ])
    func readsNumbersAsLuaDoes(text: String, isInteger: Bool, value: Double) throws {
        guard case .number(let number) = try expression(text).kind else { Issue.record("not a number"); return }
        #expect(number.text == text)
        #expect(number.isInteger == isInteger)
        #expect(number.value == value)
        #expect((number.integerValue != nil) == isInteger)
    }

    @Test(arguments: [
        (#""a\tb\nc\\d\"e\'f""#, "a\tb\nc\\d\"e'f"),
        (#"'\65\066\0677'"#, "ABC7"),
        (#""\x41\x6a""#, "Aj"),
        (#""\u{48}\u{20AC}\u{1F600}""#, "H\u{20AC}\u{1F600}"),
        ("\"a\\z   \n    b\"", "ab"),
        ("\"line\\\nnext\"", "line\nnext"),
        (#""\a\b\f\v\r""#, "\u{07}\u{08}\u{0C}\u{0B}\r"),
        ("[[\nfirst\nsecond]]", "first\nsecond"),
        ("[==[a]]b]=]c]==]", "a]]b]=]c"),
        ("[[]]", ""),
    ])
    func decodesStrings(source: String, expected: String) throws {
        #expect(try expression(source).kind == .string(expected))
    }

    // MARK: - Comments and lines

    @Test func attachesCommentsToTheStatementsTheyBelongTo() throws {
        let source = """
            -- Header line one.
            -- Header line two.

            -- About A.
            local A = 1   -- why A is 1
            local B = 2

            --[[ A long
            comment ]]
            function f()
              -- inside f
              return A  --[[ short long ]]
              -- before end
            end -- after end
            -- at the end of the file
            """
        let chunk = try parseLua(source, fileName: "comments.lua")
        #expect(chunk.headerComment == ["Header line one.", "Header line two."])
        let statements = chunk.body.statements
        #expect(statements.count == 3)
        #expect(statements[0].leadingComments == ["About A."])
        #expect(statements[0].trailingComment == "why A is 1")
        #expect(statements[0].isPrecededByBlankLine)
        #expect(statements[1].leadingComments == [])
        #expect(statements[1].trailingComment == nil)
        #expect(!statements[1].isPrecededByBlankLine)
        #expect(statements[2].leadingComments == ["A long", "comment"])
        #expect(statements[2].isPrecededByBlankLine)
        #expect(statements[2].trailingComment == "after end")
        guard case .function(_, let function) = statements[2].kind else { Issue.record("not a function"); return }
        #expect(function.body.statements.first?.leadingComments == ["inside f"])
        #expect(function.body.statements.first?.trailingComment == "short long")
        #expect(function.body.trailingComments == ["before end"])
        #expect(chunk.body.trailingComments == ["at the end of the file"])
    }

    @Test func placesCommentsAroundBranchesMultiLineStatementsAndLongBrackets() throws {
        let source = """
            local t = {
              1,  -- lost: inside an expression
            } -- after the table
            if t then
              f()
              -- before else
            else --[==[ on else ]] still ]==]
              g()
            end
            --- three dashes
            --[[]]
            h()
            """
        let chunk = try parseLua(source, fileName: "places.lua")
        let statements = chunk.body.statements
        #expect(chunk.headerComment == [])
        #expect(statements.map(\.line) == [1, 4, 12])
        #expect(statements[0].trailingComment == "after the table")
        guard case .ifStatement(let clauses, let elseBlock) = statements[1].kind else { Issue.record("if"); return }
        #expect(clauses[0].body.trailingComments == ["before else"])
        // A comment after `else` on its line is the first leading comment of the branch.
        #expect(elseBlock?.statements.first?.leadingComments == ["on else ]] still"])
        #expect(statements[2].leadingComments == ["- three dashes", ""])
        #expect(!statements[2].isPrecededByBlankLine)
    }

    @Test func keepsTheSpellingsACompilerWouldMerge() throws {
        #expect(render(try expression("a.b")) == "(. a b)")
        #expect(render(try expression("a['b']")) == "([] a \"b\")")
        #expect(render(try expression("(f())")) == "(paren (call f))")
        #expect(render(try expression("(...)")) == "(paren ...)")
        guard case .number(let number) = try expression("1.50e+2").kind else { Issue.record("number"); return }
        #expect(number.text == "1.50e+2" && number.value == 150 && !number.isInteger)
    }

    /// A first line starting with `#` is skipped up to the first line feed, as `lua` skips
    /// it (a CR alone does not end it), and the lines after it keep their numbers.
    @Test func aShebangLineRunsToTheFirstLineFeed() throws {
        let chunk = try parseLua("#!/usr/bin/env lua\r\nlocal x = 1\n", fileName: "a.lua")
        #expect(chunk.body.statements.first?.line == 2)
        let crOnly = try parseLua("# x\rlocal y = 1\nlocal z = 2\n", fileName: "b.lua")
        #expect(crOnly.body.statements.count == 1)
        #expect(crOnly.body.statements.first?.line == 2)
    }

    @Test func aHeaderRunsUpToTheFirstBlankLineOrCode() throws {
        let direct = try parseLua("#!/usr/bin/env lua\n-- Title.\nlocal x = 1\n", fileName: "a.lua")
        #expect(direct.headerComment == ["Title."])
        #expect(direct.body.statements.first?.leadingComments == [])
        let none = try parseLua("local x = 1 -- not a header\n", fileName: "b.lua")
        #expect(none.headerComment == [])
        #expect(none.body.statements.first?.trailingComment == "not a header")
        let onlyComments = try parseLua("-- one\n\n-- two\n", fileName: "c.lua")
        #expect(onlyComments.headerComment == ["one"])
        #expect(onlyComments.body.trailingComments == ["two"])
    }

    @Test func countsLinesThroughLongStringsCommentsAndLineBreakStyles() throws {
        let source = "local s = [[\none\ntwo]]\n--[==[\n\n]==]\r\nx = 1\n\r\ny = \"a\\\nb\"\nz = 3"
        let lines = try parseLua(source, fileName: "lines.lua").body.statements.map(\.line)
        // `\r\n` is one line break and `\n\r` another, as Lua counts them (lua5.4 agrees).
        #expect(lines == [1, 7, 9, 11])
    }

    // MARK: - Errors

    @Test(arguments: [
        ("x =", 1, "unexpected symbol near <eof>"),
        ("x =\n", 2, "unexpected symbol near <eof>"),
        ("x = = 1", 1, "unexpected symbol near '='"),
        ("local function f()\n  return 1\n\n", 4, "'end' expected (to close 'function' at line 1) near <eof>"),
        ("if x then y() ", 1, "'end' expected near <eof>"),
        ("for i = 1 do end", 1, "',' expected near 'do'"),
        ("\n\nx = \"abc\ny = 1", 3, "unfinished string near '\"abc'"),
        ("x = 3x", 1, "malformed number near '3x'"),
        ("x = 0x", 1, "malformed number near '0x'"),
        ("x = 1e+", 1, "malformed number near '1e+'"),
        ("f() = 1", 1, "syntax error near '='"),
        ("x\n", 2, "syntax error near <eof>"),
        ("return 1\nx = 2", 2, "<eof> expected near 'x'"),
        ("break", 1, "break outside loop at line 1"),
        ("local x <foo> = 1", 1, "unknown attribute 'foo'"),
        ("a.b:c = 1", 1, "function arguments expected near '='"),
        ("x = [==[ abc ]=]\n", 2, "unfinished long string (starting at line 1) near <eof>"),
        ("--[[ open\n", 2, "unfinished long comment (starting at line 1) near <eof>"),
        ("x = \"\\q\"", 1, "invalid escape sequence near '\"\\q'"),
        ("x = \"\\xZZ\"", 1, "hexadecimal digit expected near '\"\\xZ'"),
        ("x = \"\\300\"", 1, "decimal escape too large near '\"\\300'"),
        ("function f() return ... end", 1, "cannot use '...' outside a vararg function near '...'"),
        ("x = a.1", 1, "unexpected symbol near '.1'"),
        ("x = a.", 1, "<name> expected near <eof>"),
        ("x = $", 1, "unexpected symbol near '$'"),
        ("x = [=", 1, "invalid long string delimiter near '[='"),
        ("local a <close>, b <close> = 1, 2", 1, "multiple to-be-closed variables in local list"),
        ("for a.b = 1, 2 do end", 1, "'=' or 'in' expected near '.'"),
        ("t = {1, 2\n\nx = 3", 3, "'}' expected (to close '{' at line 1) near 'x'"),
        ("function f(a, 1) end", 1, "<name> or '...' expected near '1'"),
        ("f{1} , g = 2", 1, "syntax error near ','"),
        ("local x <const> = 1\nx = 2", 2, "attempt to assign to const variable 'x'"),
        ("local x <const> = 1\nlocal function f()\n  x = 2\nend", 3, "attempt to assign to const variable 'x'"),
        ("local x <close> = nil\nfunction x() end", 2, "attempt to assign to const variable 'x'"),
        ("local a <const>, b = 1, 2\nb, a = 3, 4", 2, "attempt to assign to const variable 'a'"),
    ])
    func reportsSyntaxErrorsOnTheirLine(source: String, line: Int, message: String) {
        let error = syntaxError(source)
        #expect(error == LuaSyntaxError(fileName: "bad.lua", line: line, message: message))
        #expect(error?.description == "bad.lua:\(line): \(message)")
    }

    @Test func shadowingAConstLocalMakesTheNameAssignableAgain() throws {
        _ = try parseLua("""
            local x <const> = 1
            do local x = 2; x = 3 end
            for x = 1, 2 do x = 0 end
            local function f(x) x = 1 end
            repeat local y = 1; y = 2 until y
            local x = 4
            x = 5
            """, fileName: "shadow.lua")
    }

    /// Random token soup and mutated statements: this parser accepts exactly what
    /// `lua5.4`'s `load` accepts, and reports the same `file:line: message` when not.
    @Test func acceptsAndRejectsExactlyAsLua54Does() throws {
        guard let lua = TestSupport.which("lua5.4", "lua") else { return }
        let vocabulary = [
            "x", "y", "f", "t", "a.b", "local", "function", "end", "if", "then", "else", "elseif", "while", "do",
            "for", "in", "repeat", "until", "return", "and", "or", "not", "nil", "true", "false", "=", "==", "~=",
            "<", ">", "<=", ">=", "+", "-", "*", "/", "//", "%", "^", "#", "..", "...", "(", ")", "{", "}", "[",
            "]", ";", ",", ".", ":", "1", "2.5", "0x1F", "'s'", "[[l]]", "\n", "~", "&", "|", "<<", ">>",
            "<const>", "<close>",
        ]
        let statements = [
            "local x = 1", "x = f(1, 2)", "if x then y = 1 elseif t then y = 2 else y = 3 end",
            "for i = 1, 10, 2 do f(i) end", "for k, v in pairs(t) do f(k) end", "while x do x = x - 1 end",
            "repeat x = x + 1 until x > 3", "local function g(a, ...) return a, ... end",
            "function t.a:b(c) return self end", "t = { 1, x = 2, [3] = 4; }", "x = -2 ^ 2 .. 'a' .. #t",
            "do local y <const> = 3 end", "f{1} f'x' f[[y]]", "return x", "local z <const> = 1",
        ]
        var random = SplitMix64(seed: 0xD1FF_5EED)
        var cases: [String] = []
        for index in 0..<2000 {
            var tokens: [String]
            if index % 2 == 0 {
                tokens = (0..<(1 + random.below(12))).map { _ in random.pick(vocabulary) }
            } else {
                tokens = (0..<(1 + random.below(3))).map { _ in random.pick(statements) }
                    .joined(separator: " ").split(separator: " ").map(String.init)
                for _ in 0..<(1 + random.below(2)) {
                    let at = random.below(tokens.count)
                    switch random.below(3) {
                    case 0: tokens.remove(at: at)
                    case 1: tokens.insert(random.pick(vocabulary), at: at)
                    default: tokens[at] = random.pick(vocabulary)
                    }
                    if tokens.isEmpty { tokens = ["x"] }
                }
            }
            // A leading space: `load` (unlike a file) does not skip a first line starting with #.
            cases.append(" " + tokens.joined(separator: " "))
        }
        let directory = try TestSupport.temporaryDirectory(prefix: "lua-syntax")
        defer { try? FileManager.default.removeItem(at: directory) }
        var program = "local cases = {\n"
        for source in cases { program += "[==========[\(source)]==========],\n" }
        program += """
            }
            for _, c in ipairs(cases) do
              local fn, err = load(c, "=bad.lua")
              io.write(fn and "ok" or (err:gsub("\\n", " ")), "\\n")
            end
            """
        let path = try TestSupport.write(program, named: "syntax.lua", in: directory)
        let result = try TestSupport.run(URL(fileURLWithPath: lua), [path])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(expected.count == cases.count + 1)
        var accepted = 0
        for (source, luaSays) in zip(cases, expected) {
            let ours = syntaxError(source).map { "\($0.fileName):\($0.line): \($0.message)" } ?? "ok"
            if ours == "ok" { accepted += 1 }
            #expect(ours == luaSays, "\(source)")
        }
        #expect(accepted > 50)  // the mutated statements keep some programs valid
    }

    // MARK: - Bounded

    @Test func acceptsDeepButReasonableNesting() throws {
        let depth = 150
        _ = try expression(String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth))
        _ = try parseLua(String(repeating: "do ", count: 150) + String(repeating: "end ", count: 150), fileName: "d.lua")
        // A chain of a left-associative operator is a loop in Lua, but a tree as deep as it
        // is long here: within the cap it parses (a longer one is refused, below).
        _ = try expression(Array(repeating: "1", count: 150).joined(separator: " + "))
    }

    /// A body nested 100 000 deep, shown in the test's log by its first words only (the
    /// whole of it is 200–1,800 KB a case).
    struct Nesting: CustomTestStringConvertible, Sendable {
        var body: String
        var testDescription: String { String(body.prefix(24)) + "… (\(body.utf8.count) bytes)" }
    }

    @Test(arguments: [
        String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000),
        String(repeating: "{", count: 100_000) + String(repeating: "}", count: 100_000),
        String(repeating: "- ", count: 100_000) + "1",
        String(repeating: "f(", count: 100_000) + String(repeating: ")", count: 100_000),
        Array(repeating: "'a'", count: 100_000).joined(separator: " .. "),
        String(repeating: "function() return ", count: 100_000),
    ].map(Nesting.init))
    func refusesHostileNestingWithAnError(_ nesting: Nesting) {
        let error = syntaxError("return " + nesting.body)
        #expect(error?.message.contains("nests too deeply") == true)
        #expect(error?.line == 1)
    }

    /// Arbitrary bytes (Lua's punctuation, quotes, brackets, escapes, NUL, invalid UTF-8)
    /// give a tree or an error, never a crash or a hang.
    @Test func survivesArbitraryBytes() {
        var random = SplitMix64(seed: 0xB17E5)
        let alphabet = Array("[]=-\"'\\{}()xz0159.eEpP+#:;,~<>/ \n\r\tu".utf8) + [0, 0xFF, 0xC3, 0x80]
        var parsed = 0
        for _ in 0..<3000 {
            let bytes = (0..<random.below(60)).map { _ in random.pick(alphabet) }
            if (try? parseLua(String(decoding: bytes, as: UTF8.self), fileName: "bytes.lua")) != nil { parsed += 1 }
        }
        #expect(parsed < 3000)
    }

    @Test func refusesDeeplyNestedBlocks() {
        let source = String(repeating: "do\n", count: 50_000) + String(repeating: "end\n", count: 50_000)
        let error = syntaxError(source)
        #expect(error?.message.contains("nests too deeply") == true)
        #expect(error?.line == LuaParserTests.maximumDepthLine)
    }

    /// Left-leaning chains, which Lua builds in a loop with no nesting at all: a million
    /// terms make a tree a million levels deep, which every walk over it (and freeing it)
    /// would follow into a stack overflow. Each link counts as a level, so the chain is an
    /// error at the line where it passes the cap.
    @Test(arguments: [
        "1" + String(repeating: " + x", count: 1_000_000),
        "x" + String(repeating: " and x", count: 1_000_000),
        "x" + String(repeating: " < x", count: 1_000_000),
        "x" + String(repeating: ".f", count: 1_000_000),
        "x" + String(repeating: "[1]", count: 1_000_000),
        "f" + String(repeating: "()", count: 1_000_000),
        "o" + String(repeating: ":m()", count: 1_000_000),
        "f" + String(repeating: "'s'", count: 1_000_000),
    ].map(Nesting.init))
    func refusesAMillionLinkChainWithAnError(_ chain: Nesting) {
        let error = syntaxError("local x, f, o\nlocal y = " + chain.body)
        #expect(error?.message.contains("too long to analyse") == true, "\(String(describing: error))")
        #expect(error?.line == 2)
    }

    /// A chain well within the cap parses to the tree Lua's grouping gives, and the levels
    /// it took are given back when it ends: the statement after a long chain nests as
    /// deeply as one after none.
    @Test func chainsWithinTheCapParseAndGiveTheirLevelsBack() throws {
        let terms = Self.luaLevels - 10
        let chain = "local y = 1" + String(repeating: " + 1", count: terms) + "\n"
        let nested = String(repeating: "do ", count: Self.luaLevels - 2) + "local z = 1 "
            + String(repeating: "end ", count: Self.luaLevels - 2)
        let chunk = try parseLua(String(repeating: chain, count: 50) + nested, fileName: "chains.lua")
        #expect(chunk.body.statements.count == 51)
        guard case .local(_, let values) = chunk.body.statements[0].kind else {
            Issue.record("not a local")
            return
        }
        var height = 0
        var node = values[0]
        while case .binary(.add, let left, _) = node.kind {
            height += 1
            node = left
        }
        #expect(height == terms)
    }

    /// Ten thousand levels of each construct that nests: the cap's error, never a crash.
    @Test(arguments: [
        String(repeating: "if x then ", count: 10_000) + String(repeating: "end ", count: 10_000),
        String(repeating: "while x do ", count: 10_000) + String(repeating: "end ", count: 10_000),
        String(repeating: "function f() ", count: 10_000) + String(repeating: "end ", count: 10_000),
        "local y = " + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000),
        "local y = " + String(repeating: "{", count: 10_000) + String(repeating: "}", count: 10_000),
        "local y = " + String(repeating: "function() return ", count: 10_000) + "1"
            + String(repeating: " end", count: 10_000),
        "local y = " + String(repeating: "x[", count: 10_000) + "1" + String(repeating: "]", count: 10_000),
    ].map(Nesting.init))
    func refusesTenThousandLevelsOfEachConstruct(_ nesting: Nesting) {
        let error = syntaxError("local x\n" + nesting.body)
        #expect(error?.message.contains("nests too deeply") == true, "\(String(describing: error))")
        #expect(error?.line == 2)
    }

    /// Lua's own cap on nesting (`LUAI_MAXCCALLS`), which the parser keeps.
    private static let luaLevels = 200

    /// The line where 50 000 nested `do`s exceed the cap: the 201st statement.
    private static let maximumDepthLine = 201

    // MARK: - The shipped scripts

    @Test func parsesEveryShippedScript() throws {
        let root = TestSupport.packageRoot
        let folders = ["scripts", "scripts/effects", "Sources/CardLuaCLI/Templates"]
        var count = 0
        for folder in folders {
            let directory = root.appendingPathComponent(folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".lua") }.sorted()
            for name in names {
                let path = directory.appendingPathComponent(name).path
                let source = try String(contentsOfFile: path, encoding: .utf8)
                let chunk = try parseLua(source, fileName: "\(folder)/\(name)")
                #expect(!chunk.body.statements.isEmpty, "\(folder)/\(name) parsed to nothing")
                // Every shipped script opens with a comment saying what it is.
                #expect(!chunk.headerComment.isEmpty, "\(folder)/\(name): no header comment")
                count += 1
            }
        }
        #expect(count >= 57)
    }

    // MARK: - Against the stock interpreter

    /// Random expressions, grouped by this parser and written back fully parenthesized,
    /// must evaluate in `lua5.4` to the same value as the original text: a different
    /// grouping would change the value.
    @Test func groupsRandomExpressionsAsLua54Does() throws {
        guard let lua = TestSupport.which("lua5.4", "lua") else { return }
        var random = SplitMix64(seed: 0x5EED_1A5)
        var cases: [(String, String)] = []
        for _ in 0..<400 {
            let source = randomExpression(&random, depth: 5)
            cases.append((source, parenthesized(try expression(source))))
        }
        let directory = try TestSupport.temporaryDirectory(prefix: "lua-grouping")
        defer { try? FileManager.default.removeItem(at: directory) }
        var program = "local cases = {\n"
        for (source, grouped) in cases { program += "  {[==[\(source)]==], [==[\(grouped)]==]},\n" }
        program += """
            }
            local function show(ok, v)
              if not ok then return "error" end
              if math.type(v) == "float" then return string.format("float %a", v) end
              return type(v) .. " " .. tostring(v)
            end
            local different = 0
            for i, c in ipairs(cases) do
              local a = show(pcall(assert(load("return " .. c[1]))))
              local b = show(pcall(assert(load("return " .. c[2]))))
              if a ~= b then different = different + 1; print("DIFF", c[1], c[2], a, b) end
            end
            print("cases " .. #cases .. " different " .. different)
            """
        let path = try TestSupport.write(program, named: "grouping.lua", in: directory)
        let result = try TestSupport.run(URL(fileURLWithPath: lua), [path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("cases 400 different 0\n"), "\(result.stdout)")
    }

    /// A random expression over numbers, strings, booleans and every operator, with
    /// spaces between tokens (so `- -` never becomes a comment).
    private func randomExpression(_ random: inout SplitMix64, depth: Int) -> String {
        if depth == 0 || random.chance(25) {
            return random.pick(["1", "2", "3", "7", "0.5", "2.25", "-0.0", "0x10", "1e1", "\"4\"", "true", "nil"])
        }
        if random.chance(15) {
            return random.pick(["-", "not", "~", "#"]) + " " + randomExpression(&random, depth: depth - 1)
        }
        if random.chance(8) { return "( " + randomExpression(&random, depth: depth - 1) + " )" }
        let operators = LuaBinaryOperator.allCases.map(\.rawValue)
        return randomExpression(&random, depth: depth - 1) + " " + random.pick(operators) + " "
            + randomExpression(&random, depth: depth - 1)
    }
}

// MARK: - Rendering trees for comparison

/// A compact S-expression of a tree: `(+ 1 (* 2 3))`.
private func render(_ expression: LuaExpression) -> String {
    switch expression.kind {
    case .nilLiteral: "nil"
    case .boolean(let value): value ? "true" : "false"
    case .number(let number): number.text
    case .string(let string): "\"\(string)\""
    case .vararg: "..."
    case .function: "(function)"
    case .table(let fields):
        "{" + fields.map { field -> String in
            switch field.kind {
            case .positional(let value): render(value)
            case .named(let name, let value): "\(name)=" + render(value)
            case .keyed(let key, let value): "[\(render(key))]=" + render(value)
            }
        }.joined(separator: " ") + "}"
    case .name(let name): name
    case .field(let base, let name): "(. \(render(base)) \(name))"
    case .index(let base, let key): "([] \(render(base)) \(render(key)))"
    case .call(let function, let arguments): "(call " + ([render(function)] + arguments.map(render)).joined(separator: " ") + ")"
    case .methodCall(let object, let method, let arguments):
        "(: " + ([render(object), method] + arguments.map(render)).joined(separator: " ") + ")"
    case .unary(let op, let operand):
        "(" + ["-": "neg", "not": "not", "#": "len", "~": "bnot"][op.rawValue]! + " " + render(operand) + ")"
    case .binary(let op, let left, let right): "(\(op.rawValue) \(render(left)) \(render(right)))"
    case .parenthesized(let inner): "(paren \(render(inner)))"
    }
}

/// Lua source with every operation in parentheses, so that grouping no longer depends on
/// precedence (literals only: what `randomExpression` produces).
private func parenthesized(_ expression: LuaExpression) -> String {
    switch expression.kind {
    case .nilLiteral: "nil"
    case .boolean(let value): value ? "true" : "false"
    case .number(let number): "(" + number.text + ")"
    case .string(let string): "\"\(string)\""
    case .unary(let op, let operand): "(\(op.rawValue) \(parenthesized(operand)))"
    case .binary(let op, let left, let right): "(\(parenthesized(left)) \(op.rawValue) \(parenthesized(right)))"
    case .parenthesized(let inner): "(\(parenthesized(inner)))"
    default: "(unexpected)"
    }
}
