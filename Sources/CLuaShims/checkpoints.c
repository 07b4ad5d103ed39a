// Budget checkpoints: a chunk's text with a step count at the places where Lua code can
// run again and again, so that the budget of steps needs no count hook. See README.md
// in this folder ("The budget is the main limit").
//
// A count hook puts the VM in its trap mode: every instruction of every function goes
// through the hook's bookkeeping (about 35 machine instructions each, some 13 % of a
// simple transform call). Yet a chunk's code can run without end only by going back:
// through a loop (`while`, `for`, `repeat`) or a `goto`, or by calling a function again
// (recursion, a metamethod, a callback of a library function). So each loop body and
// each function body starts with a checkpoint, and each `goto` is preceded by one:
//
//     __cardlua_steps = __cardlua_steps - N if __cardlua_steps < 0 then
//       __cardlua_steps = __cardlua_budget(__cardlua_steps) end
//
// N estimates the instructions of the code the checkpoint guards (its tokens, outside
// nested loops and functions, halved: about one VM instruction per two tokens). The two
// names are locals of the chunk (the prefix below), so a script can neither see nor
// replace them; a text that uses either name is left alone. Between two checkpoints runs
// only straight-line code, no longer than the chunk. Nothing is inserted on a new line,
// so every line number (messages, tracebacks, debug information) stays the text's.
// cardlua__checkpoint (limits.c) is __cardlua_budget: it charges the steps to the budget,
// checks the memory cap and the clock, and hands out the next period.
#include "CLuaShims.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The chunk's first words: the counter, and the budget function, which the host puts
/// in the global CARDLUA_CHECKPOINT_GLOBAL just before it runs the chunk (taken and
/// cleared here, before the chunk's own first statement).
static const char PREFIX[] =
    "local __cardlua_steps,__cardlua_budget=0," CARDLUA_CHECKPOINT_GLOBAL ";"
    "_ENV." CARDLUA_CHECKPOINT_GLOBAL "=nil;";

/// The output may grow to this many times the input, plus GROWTH_ALLOWANCE bytes (a few
/// dozen checkpoints in any text): a long text that is nothing but tiny loops would grow
/// some twenty-fold, and is loaded as it is instead.
#define GROWTH_LIMIT 4
#define GROWTH_ALLOWANCE 4096

typedef enum {
    BLOCK_FUNCTION,      // `function`: its checkpoint goes after the parameters' `)`
    BLOCK_LOOP_HEADER,   // `while` or `for`, until its `do`
    BLOCK_LOOP,          // the body of a `while` or a `for`
    BLOCK_REPEAT,        // `repeat … until`
    BLOCK_DO,            // a plain `do … end`
    BLOCK_IF_HEADER,     // `if`, until its `then`
    BLOCK_IF,            // `if … end`
} block_kind;

typedef struct {
    block_kind kind;
    int guarded;   // index of the checkpoint counting this block's tokens (-1: none)
} block;

typedef struct {
    size_t at;     // byte offset in the source where the checkpoint goes
    long tokens;   // the tokens it guards
} checkpoint;

typedef struct {
    block *blocks;
    int depth, capacity;
    checkpoint *points;
    int count, room;
    int params_pending;  // a `function`'s checkpoint waits for the `)` ending its parameters
    int failed;
} scan;

static int push_block(scan *s, block_kind kind, int guarded) {
    if (s->depth == s->capacity) {
        int n = s->capacity ? s->capacity * 2 : 64;
        block *grown = (block *)realloc(s->blocks, (size_t)n * sizeof(block));
        if (grown == NULL) return s->failed = 1, 0;
        s->blocks = grown;
        s->capacity = n;
    }
    s->blocks[s->depth++] = (block){kind, guarded};
    return 1;
}

/// A new checkpoint at byte `at`; returns its index (-1 after a failure).
static int add_point(scan *s, size_t at) {
    if (s->count == s->room) {
        int n = s->room ? s->room * 2 : 64;
        checkpoint *grown = (checkpoint *)realloc(s->points, (size_t)n * sizeof(checkpoint));
        if (grown == NULL) return s->failed = 1, -1;
        s->points = grown;
        s->room = n;
    }
    s->points[s->count] = (checkpoint){at, 0};
    return s->count++;
}

/// The checkpoint that counts the tokens of the innermost block (-1: the chunk's own
/// top level, which runs once).
static int current_guard(const scan *s) { return s->depth > 0 ? s->blocks[s->depth - 1].guarded : -1; }

static int is_name_start(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_name_char(unsigned char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }

// The text is read as Lua 5.4's lexer (llex.c) reads it, token by token, so that no
// loop, function or `goto` Lua sees hides from the scan inside what the scan took for a
// comment or a string. Where the lexer would raise (an unfinished string, a malformed
// numeral, `[=` that opens nothing), the scan fails: the text does not compile, and is
// loaded as it is, for its own message. Whatever the scan cannot read fails it the same
// way, and a failed text runs under the count hook: always safe.

/// A line-end byte: llex's currIsNewline.
static int is_newline(unsigned char c) { return c == '\n' || c == '\r'; }

/// Lua's lisspace in the C locale (what `\z` skips): space, \t, \n, \v, \f, \r.
static int is_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static int is_hex_digit(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/// Past the line end at p: `\n`, `\r`, `\r\n` or `\n\r` (one line end each: llex's
/// inclinenumber; `\n\n` and `\r\r` are two).
static const char *skip_line_end(const char *p, const char *end) {
    char first = *p++;
    if (p < end && is_newline((unsigned char)*p) && *p != first) p++;
    return p;
}

/// The level of a long bracket opening at p (`[`, `=`…, `[`); -1 when p is a plain `[`
/// (or no `[`), -2 for `[=`… without its second `[` (llex's skip_sep answering 0).
static int long_bracket(const char *p, const char *end) {
    if (p >= end || *p != '[') return -1;
    int level = 0;
    for (p++; p < end && *p == '='; p++) level++;
    if (p < end && *p == '[') return level;
    return level == 0 ? -1 : -2;
}

/// Past the long bracket of `level` opened at p; NULL when it never closes (llex: an
/// unfinished long string or comment). Line ends of any form are plain bytes here.
static const char *skip_long(const char *p, const char *end, int level) {
    for (p += level + 2; p < end; p++) {
        if (*p != ']') continue;
        const char *q = p + 1;
        int n = 0;
        while (q < end && *q == '=') q++, n++;
        if (n == level && q < end && *q == ']') return q + 1;
    }
    return NULL;
}

/// Past the short string opened by the quote at p; NULL where llex raises (a line end
/// not escaped, the end of the text, an escape it does not know). A backslash before a
/// line end of any form continues the string; `\z` skips the white space after it, line
/// ends included; `\x`, `\u{…}` and `\ddd` are followed by digits, letters and braces
/// only, which cannot end the string (a malformed one raises in llex).
static const char *skip_short_string(const char *p, const char *end) {
    char quote = *p++;
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (c == (unsigned char)quote) return p + 1;
        if (is_newline(c)) return NULL;  // "unfinished string"
        if (c != '\\') { p++; continue; }
        if (++p >= end) return NULL;
        c = (unsigned char)*p;
        if (is_newline(c)) {
            p = skip_line_end(p, end);
        } else if (c == 'z') {
            for (p++; p < end && is_space((unsigned char)*p); p++) {}
        } else if ((c != 0 && strchr("abfnrtvxu\\\"'", c) != NULL) || (c >= '0' && c <= '9')) {
            p++;
        } else {
            return NULL;  // "invalid escape sequence"
        }
    }
    return NULL;
}

/// Past the numeral starting with the digit at p, as llex's read_numeral reads it (hex
/// digits and dots; an exponent mark, `e` or `p` after `0x`, and its sign); NULL when a
/// letter touches it (a malformed number: llex raises).
static const char *skip_numeral(const char *p, const char *end) {
    const char *exponent = "Ee";
    if (*p == '0' && p + 1 < end && (p[1] == 'x' || p[1] == 'X')) exponent = "Pp", p++;
    for (p++; p < end;) {
        unsigned char d = (unsigned char)*p;
        if (d == (unsigned char)exponent[0] || d == (unsigned char)exponent[1]) {
            p++;
            if (p < end && (*p == '+' || *p == '-')) p++;
        } else if (is_hex_digit(d) || d == '.') {
            p++;
        } else {
            break;
        }
    }
    return p < end && is_name_start((unsigned char)*p) ? NULL : p;
}

static int word_is(const char *w, size_t n, const char *keyword) {
    return strlen(keyword) == n && memcmp(w, keyword, n) == 0;
}

/// One name or keyword at [w, w+n) that starts at byte `at`.
static void on_word(scan *s, const char *w, size_t n, size_t at) {
    if (word_is(w, n, "__cardlua_steps") || word_is(w, n, "__cardlua_budget") ||
        word_is(w, n, CARDLUA_CHECKPOINT_GLOBAL)) {
        s->failed = 1;  // the text uses a checkpoint's name: left alone
        return;
    }
    if (word_is(w, n, "function")) {
        push_block(s, BLOCK_FUNCTION, -1);
        s->params_pending = s->depth;
    } else if (word_is(w, n, "while") || word_is(w, n, "for")) {
        push_block(s, BLOCK_LOOP_HEADER, current_guard(s));
    } else if (word_is(w, n, "do")) {
        if (s->depth > 0 && s->blocks[s->depth - 1].kind == BLOCK_LOOP_HEADER) {
            int point = add_point(s, at + n);
            s->blocks[s->depth - 1] = (block){BLOCK_LOOP, point};
        } else {
            push_block(s, BLOCK_DO, current_guard(s));
        }
    } else if (word_is(w, n, "repeat")) {
        push_block(s, BLOCK_REPEAT, add_point(s, at + n));
    } else if (word_is(w, n, "if")) {
        push_block(s, BLOCK_IF_HEADER, current_guard(s));
    } else if (word_is(w, n, "then")) {
        // `elseif … then` opens nothing: one `end` closes the whole `if`.
        if (s->depth > 0 && s->blocks[s->depth - 1].kind == BLOCK_IF_HEADER) s->blocks[s->depth - 1].kind = BLOCK_IF;
    } else if (word_is(w, n, "end")) {
        block_kind k = s->depth > 0 ? s->blocks[s->depth - 1].kind : BLOCK_REPEAT;
        if (k == BLOCK_REPEAT || k == BLOCK_LOOP_HEADER || k == BLOCK_IF_HEADER) s->failed = 1;  // will not compile
        else s->depth--;
    } else if (word_is(w, n, "until")) {
        if (s->depth == 0 || s->blocks[s->depth - 1].kind != BLOCK_REPEAT) s->failed = 1;
        else s->depth--;
    } else if (word_is(w, n, "goto")) {
        int point = add_point(s, at);
        if (point >= 0) s->points[point].tokens = 2;  // the jump itself
    }
}

/// Scans the text's tokens, noting where checkpoints go and what each guards.
static void scan_text(scan *s, const char *text, size_t length) {
    const char *p = text, *end = text + length;
    // A first line starting with `#`: luaL_loadfilex skips it, but cardlua loads text
    // with luaL_loadbufferx, which does not, and no chunk starts with `#`: it will not
    // compile.
    if (length > 0 && text[0] == '#') s->failed = 1;
    while (p < end && !s->failed) {
        unsigned char c = (unsigned char)*p;
        if (is_space(c)) { p++; continue; }  // llex: line ends, ' ', \f, \t, \v
        if (c == '-' && p + 1 < end && p[1] == '-') {
            // A comment: long when `--` opens a long bracket, else to the line's end
            // (`--[` or `--[==` without its second `[` is a short comment).
            int level = long_bracket(p + 2, end);
            if (level >= 0) {
                p = skip_long(p + 2, end, level);
                if (p == NULL) { s->failed = 1; break; }  // an unfinished long comment
            } else {
                for (p += 2; p < end && !is_newline((unsigned char)*p); p++) {}
            }
            continue;
        }
        size_t at = (size_t)(p - text);
        int guard = current_guard(s);
        if (is_name_start(c)) {
            const char *w = p;
            while (p < end && is_name_char((unsigned char)*p)) p++;
            // Counted where it stands: a block's opening word belongs to the code around it.
            if (guard >= 0) s->points[guard].tokens++;
            on_word(s, w, (size_t)(p - w), at);
            continue;
        }
        if (guard >= 0) s->points[guard].tokens++;
        if (c >= '0' && c <= '9') {
            // (A numeral after a `.`, `.5`, is read from its digit: the same bytes.)
            p = skip_numeral(p, end);
        } else if (c == '"' || c == '\'') {
            p = skip_short_string(p, end);
        } else if (c == '[') {
            int level = long_bracket(p, end);
            if (level >= 0) p = skip_long(p, end, level);
            else if (level == -1) p++;
            else p = NULL;  // "invalid long string delimiter"
        } else if (c == ')' && s->params_pending > 0 && s->params_pending == s->depth) {
            // The end of a function's parameters (names only: no parenthesis comes
            // between): its body's checkpoint goes here.
            p++;
            s->blocks[s->depth - 1].guarded = add_point(s, (size_t)(p - text));
            s->params_pending = 0;
        } else {
            p++;
        }
        if (p == NULL) { s->failed = 1; break; }  // llex raises there: the text will not compile
    }
    if (s->depth != 0 || s->params_pending) s->failed = 1;  // will not compile
}

char *cardlua_instrument(const char *text, size_t length, size_t *out_length) {
    scan s = {0};
    scan_text(&s, text, length);
    char *out = NULL;
    size_t limit = sizeof PREFIX + GROWTH_ALLOWANCE + length * GROWTH_LIMIT;
    if (!s.failed) out = (char *)malloc(limit + 1);
    if (out != NULL) {
        size_t n = 0, from = 0;
        memcpy(out, PREFIX, sizeof PREFIX - 1);
        n = sizeof PREFIX - 1;
        for (int i = 0; i < s.count && out != NULL; i++) {
            const checkpoint *point = &s.points[i];
            long steps = point->tokens / 2 > 1 ? point->tokens / 2 : 1;
            char step[160];
            int m = snprintf(step, sizeof step,
                             " __cardlua_steps=__cardlua_steps-%ld if __cardlua_steps<0 then "
                             "__cardlua_steps=__cardlua_budget(__cardlua_steps)end ",
                             steps);
            size_t copy = point->at - from;
            if (n + copy + (size_t)m > limit) {
                free(out);
                out = NULL;
                break;
            }
            memcpy(out + n, text + from, copy);
            n += copy;
            memcpy(out + n, step, (size_t)m);
            n += (size_t)m;
            from = point->at;
        }
        if (out != NULL && n + (length - from) <= limit) {
            memcpy(out + n, text + from, length - from);
            n += length - from;
            out[n] = '\0';
            *out_length = n;
        } else if (out != NULL) {
            free(out);
            out = NULL;
        }
    }
    free(s.blocks);
    free(s.points);
    return out;
}
