// Budget checkpoints: a chunk's text with a step count at the places where Lua code can
// run again and again, so that the instruction budget needs no count hook. See README.md
// in this folder ("The instruction budget").
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

/// The level of a long bracket opening at p (`[`, `=`…, `[`), or -1.
static int long_bracket(const char *p, const char *end) {
    if (p >= end || *p != '[') return -1;
    int level = 0;
    for (p++; p < end && *p == '='; p++) level++;
    return (p < end && *p == '[') ? level : -1;
}

/// Past the long bracket of `level` opened at p; `end` when it never closes.
static const char *skip_long(const char *p, const char *end, int level) {
    for (p += level + 2; p < end; p++) {
        if (*p != ']') continue;
        const char *q = p + 1;
        int n = 0;
        while (q < end && *q == '=') q++, n++;
        if (n == level && q < end && *q == ']') return q + 1;
    }
    return end;
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
    while (p < end && !s->failed) {
        unsigned char c = (unsigned char)*p;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') { p++; continue; }
        if (c == '-' && p + 1 < end && p[1] == '-') {  // a comment: long, or to the end of the line
            int level = long_bracket(p + 2, end);
            if (level >= 0) p = skip_long(p + 2, end, level);
            else while (p < end && *p != '\n') p++;
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
        if (c >= '0' && c <= '9') {  // a numeral, exponent signs included
            for (p++; p < end; p++) {
                unsigned char d = (unsigned char)*p;
                if (is_name_char(d) || d == '.') continue;
                if ((d == '+' || d == '-') && strchr("eEpP", p[-1]) != NULL) continue;
                break;
            }
        } else if (c == '"' || c == '\'') {  // a short string: escapes skip the next byte
            for (p++; p < end && *p != (char)c && *p != '\n'; p++)
                if (*p == '\\' && p + 1 < end) p++;
            if (p < end) p++;
        } else if (long_bracket(p, end) >= 0) {
            p = skip_long(p, end, long_bracket(p, end));
        } else if (c == ')' && s->params_pending > 0 && s->params_pending == s->depth) {
            // The end of a function's parameters (names only: no parenthesis comes
            // between): its body's checkpoint goes here.
            p++;
            s->blocks[s->depth - 1].guarded = add_point(s, (size_t)(p - text));
            s->params_pending = 0;
        } else {
            p++;
        }
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
