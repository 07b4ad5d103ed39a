// The library functions a script sees, where the stock ones could run long in C without
// executing a single Lua instruction (so without the count hook noticing), or could do
// something the sandbox forbids. Each charges its work to the instruction budget through
// shims_charge (one unit = one VM instruction), so the budget stays the one, deterministic
// limit on work, whatever mix of Lua and C a script uses. See README.md in this folder.
//
// - string.find / match / gmatch / gsub: a pattern matcher of our own, with Lua 5.4's
//   syntax and results, that counts its steps. The stock matcher backtracks without
//   bound: string.find(string.rep("a", 5000), ".-.-.-.-x") would take hours.
// - table.concat / unpack / move / insert / remove / sort: the element count (or
//   n·log2 n for sort) is charged before the stock function runs; insert, remove and sort
//   refuse tables with a __len metamethod, whose length could change between our look
//   and the stock function's.
// - string.byte / char, utf8.len / codepoint / offset / char, tonumber: charged by size.
// - error, pcall, xpcall, tostring, string.format, string.rep: a flat fee per call, for
//   their fixed C cost (formatting, setjmp/longjmp), so that even a loop of nothing but
//   such calls exhausts the budget in well under the time limit; warn (and print, in
//   shims.c) a larger one, so that a loop cannot flood standard error.
// - setmetatable refuses metatables with a __gc field: finalizers run with hooks
//   disabled (lgc.c's GCTM), so no limit could stop one that loops.
// - math.randomseed() without arguments reseeds with the fixed seed: runs stay
//   reproducible (Sources/CLuaShims/README.md).
// - xpcall, coroutine.wrap, coroutine.close: the limit error is raised inside the count
//   hook, and Lua runs a message handler, and closes a dead coroutine's to-be-closed
//   variables, before that unwinding restores hooks: script code run then would run
//   with hooks off, unstoppable. So once a limit is reached, a script's message handler
//   is skipped and a coroutine stopped by it is not closed (its state is discarded anyway).
//
// Everything here runs inside a lua_pcall made by shims.c; raising is how it reports.
#include "internal.h"

#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

/// The fixed seed of math.random (reproducible runs: the same script, the same output).
#define RANDOM_SEED 20160119

/// Bytes scanned or copied per unit of budget.
#define BYTES_PER_UNIT_SHIFT 4

/// Pattern-matching steps are charged in batches of this many.
#define STEP_BATCH 4096

/// What the budget error says when it runs out in here.
#define PATTERN_REASON "a string pattern that backtracks too much, or a loop that never ends"
#define TABLE_REASON "a table function over too many elements, or a loop that never ends"

/// Like Lua's: the matcher's recursion depth, and captures per pattern.
#define MATCH_MAX_DEPTH 200
#define MATCH_MAX_CAPTURES 32

#define CAPTURE_OPEN (-1)     /* a capture whose ')' has not been reached */
#define CAPTURE_POSITION (-2) /* a position capture, `()` */

// MARK: - Calling the stock function a wrapper stands for

/// The stock C function, kept as upvalue 1 of its wrapper, called in the wrapper's own
/// call frame (so its argument errors name the function as the script called it). Only
/// for functions without upvalues: wrap() checks.
static int call_original(lua_State *L) {
    lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(1));
    return original(L);
}

/// A non-negative span [first, last] as a count, saturating instead of overflowing.
static long long span(lua_Integer first, lua_Integer last) {
    if (last < first) return 0;
    lua_Unsigned n = (lua_Unsigned)last - (lua_Unsigned)first;
    return n >= (lua_Unsigned)LLONG_MAX ? LLONG_MAX : (long long)n + 1;
}

/// Charges for scanning `bytes` bytes.
static void charge_bytes(lua_State *L, size_t bytes) {
    shims_charge(L, (long long)(bytes >> BYTES_PER_UNIT_SHIFT));
}

// MARK: - The counted pattern matcher (Lua 5.4 pattern syntax, manual §6.4.1)

typedef struct {
    lua_State *L;
    const char *subject;     // start of the subject
    const char *subject_end; // its end (a '\0' follows, as in every Lua string)
    const char *pattern_end; // end of the pattern (also followed by '\0')
    int depth_left;          // recursion left before "pattern too complex"
    int level;               // captures opened so far
    long long steps;         // not yet charged
    struct {
        const char *start;
        ptrdiff_t length;    // or CAPTURE_OPEN / CAPTURE_POSITION
    } captures[MATCH_MAX_CAPTURES];
} Matcher;

static void matcher_init(Matcher *m, lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
    m->L = L;
    m->subject = s;
    m->subject_end = s + ls;
    m->pattern_end = p + lp;
    m->depth_left = MATCH_MAX_DEPTH;
    m->level = 0;
    m->steps = 0;
}

/// Before each attempt at a new position.
static void matcher_restart(Matcher *m) {
    m->level = 0;
    m->depth_left = MATCH_MAX_DEPTH;
}

static void tick(Matcher *m, long long n) {
    m->steps += n;
    if (m->steps >= STEP_BATCH) {
        long long due = m->steps;
        m->steps = 0;
        shims_charge_for(m->L, due, PATTERN_REASON);
    }
}

static void flush_steps(Matcher *m) {
    long long due = m->steps;
    m->steps = 0;
    if (due > 0) shims_charge_for(m->L, due, PATTERN_REASON);
}

static int uc(char c) { return (unsigned char)c; }

/// The end of the single-character class that starts at p (`x`, `.`, `%a`, `[set]`).
static const char *class_end(Matcher *m, const char *p) {
    char c = *p++;
    if (c == '%') {
        if (p >= m->pattern_end) luaL_error(m->L, "malformed pattern (ends with '%%')");
        return p + 1;
    }
    if (c == '[') {
        if (*p == '^') p++;
        // The first character of a set is never its end: `[]]` is a set of one ']'.
        do {
            if (p >= m->pattern_end) luaL_error(m->L, "malformed pattern (missing ']')");
            c = *p++;
            if (c == '%' && p < m->pattern_end) p++;  // an escape, such as `%]`
        } while (*p != ']');
        return p + 1;
    }
    return p;
}

/// Whether character c is in the class `%cl` (cl a letter: a c d g l p s u w x z, upper
/// case for the complement; anything else stands for itself).
static int in_class(int c, int cl) {
    int yes;
    switch (tolower(cl)) {
    case 'a': yes = isalpha(c); break;
    case 'c': yes = iscntrl(c); break;
    case 'd': yes = isdigit(c); break;
    case 'g': yes = isgraph(c); break;
    case 'l': yes = islower(c); break;
    case 'p': yes = ispunct(c); break;
    case 's': yes = isspace(c); break;
    case 'u': yes = isupper(c); break;
    case 'w': yes = isalnum(c); break;
    case 'x': yes = isxdigit(c); break;
    case 'z': yes = (c == 0); break;  // deprecated, still accepted by Lua 5.4
    default: return cl == c;
    }
    if (isupper(cl)) yes = !yes;
    return yes != 0;
}

/// Whether c is in the set that starts with '[' at p and ends with the ']' at last.
static int in_set(int c, const char *p, const char *last) {
    int found = 1;
    if (p[1] == '^') {
        found = 0;
        p++;
    }
    while (++p < last) {
        if (*p == '%') {
            p++;
            if (in_class(c, uc(*p))) return found;
        } else if (p[1] == '-' && p + 2 < last) {
            if (uc(p[0]) <= c && c <= uc(p[2])) return found;
            p += 2;
        } else if (uc(*p) == c) {
            return found;
        }
    }
    return !found;
}

/// Whether the subject character at s matches the class p..ep.
static int matches_one(const Matcher *m, const char *s, const char *p, const char *ep) {
    if (s >= m->subject_end) return 0;
    int c = uc(*s);
    switch (*p) {
    case '.': return 1;
    case '%': return in_class(c, uc(p[1]));
    case '[': return in_set(c, p, ep - 1);
    default: return uc(*p) == c;
    }
}

static const char *match_here(Matcher *m, const char *s, const char *p);

/// `x*` and `x+` (after the first): as many as possible, then fewer.
static const char *expand_greedy(Matcher *m, const char *s, const char *p, const char *ep) {
    ptrdiff_t n = 0;
    while (matches_one(m, s + n, p, ep)) n++;
    tick(m, n);
    for (; n >= 0; n--) {
        const char *end = match_here(m, s + n, ep + 1);
        if (end != NULL) return end;
    }
    return NULL;
}

/// `x-`: as few as possible, then more.
static const char *expand_lazy(Matcher *m, const char *s, const char *p, const char *ep) {
    for (;;) {
        const char *end = match_here(m, s, ep + 1);
        if (end != NULL) return end;
        if (!matches_one(m, s, p, ep)) return NULL;
        s++;
    }
}

static const char *open_capture(Matcher *m, const char *s, const char *p, ptrdiff_t kind) {
    if (m->level >= MATCH_MAX_CAPTURES) luaL_error(m->L, "too many captures");
    m->captures[m->level].start = s;
    m->captures[m->level].length = kind;
    m->level++;
    const char *end = match_here(m, s, p);
    if (end == NULL) m->level--;
    return end;
}

static const char *close_capture(Matcher *m, const char *s, const char *p) {
    int open = m->level - 1;
    while (open >= 0 && m->captures[open].length != CAPTURE_OPEN) open--;
    if (open < 0) luaL_error(m->L, "invalid pattern capture");
    m->captures[open].length = s - m->captures[open].start;
    const char *end = match_here(m, s, p);
    if (end == NULL) m->captures[open].length = CAPTURE_OPEN;
    return end;
}

/// `%bxy` at s, with p at x: the end of the balanced run, or NULL.
static const char *match_balanced(Matcher *m, const char *s, const char *p) {
    if (p + 1 >= m->pattern_end) luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= m->subject_end || *s != p[0]) return NULL;
    char open = p[0], close = p[1];
    long depth = 1;
    const char *t = s;
    while (++t < m->subject_end) {
        if (*t == close) {
            if (--depth == 0) {
                tick(m, t - s);
                return t + 1;
            }
        } else if (*t == open) {
            depth++;
        }
    }
    tick(m, t - s);
    return NULL;
}

/// `%1`…`%9` at s: the same text as that capture, or NULL.
static const char *match_back_reference(Matcher *m, const char *s, int digit) {
    int index = digit - '1';
    if (index < 0 || index >= m->level || m->captures[index].length == CAPTURE_OPEN)
        luaL_error(m->L, "invalid capture index %%%d", index + 1);
    size_t length = (size_t)m->captures[index].length;  // a position capture never matches
    if ((size_t)(m->subject_end - s) >= length && memcmp(m->captures[index].start, s, length) == 0) {
        tick(m, (long long)(length >> BYTES_PER_UNIT_SHIFT));
        return s + length;
    }
    return NULL;
}

/// Matches the pattern from p against the subject from s: the end of the match, or NULL.
/// Every pattern item and every character a repetition looks at is a step.
static const char *match_here(Matcher *m, const char *s, const char *p) {
    if (m->depth_left-- == 0) luaL_error(m->L, "pattern too complex");
    for (;;) {
        tick(m, 1);
        if (p == m->pattern_end) break;
        switch (*p) {
        case '(':
            s = p[1] == ')' ? open_capture(m, s, p + 2, CAPTURE_POSITION)
                            : open_capture(m, s, p + 1, CAPTURE_OPEN);
            goto done;
        case ')':
            s = close_capture(m, s, p + 1);
            goto done;
        case '$':
            if (p + 1 == m->pattern_end) {
                if (s != m->subject_end) s = NULL;
                goto done;
            }
            break;  // an ordinary '$'
        case '%':
            if (p[1] == 'b') {
                s = match_balanced(m, s, p + 2);
                if (s == NULL) goto done;
                p += 4;
                continue;
            }
            if (p[1] == 'f') {
                p += 2;
                if (*p != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
                const char *ep = class_end(m, p);
                int before = s == m->subject ? 0 : uc(s[-1]);
                int here = s < m->subject_end ? uc(*s) : 0;
                if (in_set(before, p, ep - 1) || !in_set(here, p, ep - 1)) {
                    s = NULL;
                    goto done;
                }
                p = ep;
                continue;
            }
            if (isdigit(uc(p[1]))) {
                s = match_back_reference(m, s, uc(p[1]));
                if (s == NULL) goto done;
                p += 2;
                continue;
            }
            break;  // a class such as %a
        default:
            break;
        }
        // A single-character class, perhaps followed by a repetition.
        const char *ep = class_end(m, p);
        int ok = matches_one(m, s, p, ep);
        switch (*ep) {
        case '?': {
            const char *end;
            if (ok && (end = match_here(m, s + 1, ep + 1)) != NULL) {
                s = end;
                goto done;
            }
            p = ep + 1;
            continue;
        }
        case '+':
            s = ok ? expand_greedy(m, s + 1, p, ep) : NULL;
            goto done;
        case '*':
            s = expand_greedy(m, s, p, ep);
            goto done;
        case '-':
            s = expand_lazy(m, s, p, ep);
            goto done;
        default:
            if (!ok) {
                s = NULL;
                goto done;
            }
            s++;
            p = ep;
            continue;
        }
    }
done:
    m->depth_left++;
    return s;
}

/// Pushes capture i (the whole match s..e when the pattern has no captures and i is 0).
static void push_capture(Matcher *m, int i, const char *s, const char *e) {
    if (i >= m->level) {
        if (i != 0) luaL_error(m->L, "invalid capture index %%%d", i + 1);
        lua_pushlstring(m->L, s, (size_t)(e - s));
        return;
    }
    ptrdiff_t length = m->captures[i].length;
    if (length == CAPTURE_OPEN) luaL_error(m->L, "unfinished capture");
    if (length == CAPTURE_POSITION)
        lua_pushinteger(m->L, (lua_Integer)(m->captures[i].start - m->subject) + 1);
    else
        lua_pushlstring(m->L, m->captures[i].start, (size_t)length);
}

/// Pushes all captures (the whole match if none and s is given); returns how many.
static int push_captures(Matcher *m, const char *s, const char *e) {
    int n = (m->level == 0 && s != NULL) ? 1 : m->level;
    luaL_checkstack(m->L, n, "too many captures");
    for (int i = 0; i < n; i++) push_capture(m, i, s, e);
    return n;
}

/// A relative start position (negative from the end) as a 1-based position, at least 1.
static size_t start_position(lua_Integer pos, size_t length) {
    if (pos > 0) return (size_t)pos;
    if (pos == 0) return 1;
    if (pos < -(lua_Integer)length) return 1;
    return (size_t)((lua_Integer)length + pos + 1);
}

static int has_specials(const char *p, size_t lp) {
    static const char specials[] = "^$*+?.([%-";
    for (size_t i = 0; i < lp; i++)
        if (p[i] != '\0' && strchr(specials, p[i]) != NULL) return 1;
    return 0;
}

/// A plain substring search, charged by the bytes it scans and compares.
static const char *find_plain(lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
    if (lp == 0) return s;
    if (lp > ls) return NULL;
    const char *start = s, *last = s + (ls - lp);  // the last possible start
    const char *found = NULL;
    long long pending = 0;
    while (s <= last) {
        const char *hit = (const char *)memchr(s, *p, (size_t)(last - s) + 1);
        if (hit == NULL) {
            s = last + 1;
            break;
        }
        pending += 1 + (long long)(lp >> BYTES_PER_UNIT_SHIFT);
        if (memcmp(hit + 1, p + 1, lp - 1) == 0) {
            found = s = hit;
            break;
        }
        s = hit + 1;
        if (pending >= STEP_BATCH) {
            shims_charge_for(L, pending, PATTERN_REASON);
            pending = 0;
        }
    }
    shims_charge_for(L, pending + ((s - start) >> BYTES_PER_UNIT_SHIFT), PATTERN_REASON);
    return found;
}

static int find_or_match(lua_State *L, int find) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_position(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) {
        luaL_pushfail(L);
        return 1;
    }
    charge_bytes(L, lp);
    if (find && (lua_toboolean(L, 4) || !has_specials(p, lp))) {
        const char *hit = find_plain(L, s + init, ls - init, p, lp);
        if (hit != NULL) {
            lua_pushinteger(L, (lua_Integer)(hit - s) + 1);
            lua_pushinteger(L, (lua_Integer)(hit - s) + (lua_Integer)lp);
            return 2;
        }
        luaL_pushfail(L);
        return 1;
    }
    int anchored = (*p == '^');
    if (anchored) {
        p++;
        lp--;
    }
    Matcher m;
    matcher_init(&m, L, s, ls, p, lp);
    const char *from = s + init;
    do {
        matcher_restart(&m);
        const char *end = match_here(&m, from, p);
        if (end != NULL) {
            flush_steps(&m);
            if (find) {
                lua_pushinteger(L, (lua_Integer)(from - s) + 1);
                lua_pushinteger(L, (lua_Integer)(end - s));
                return push_captures(&m, NULL, NULL) + 2;
            }
            return push_captures(&m, from, end);
        }
    } while (from++ < m.subject_end && !anchored);
    flush_steps(&m);
    luaL_pushfail(L);
    return 1;
}

/// string.find(s, pattern [, init [, plain]])
static int counted_find(lua_State *L) { return find_or_match(L, 1); }

/// string.match(s, pattern [, init])
static int counted_match(lua_State *L) { return find_or_match(L, 0); }

/// The iterator of string.gmatch. Upvalues: subject, pattern, the next start (an offset),
/// the end of the last match (an offset, or -1): a match may not end where the last one
/// did, so that an empty match right after a match is skipped (Lua 5.4's rule).
static int gmatch_next(lua_State *L) {
    size_t ls, lp;
    const char *s = lua_tolstring(L, lua_upvalueindex(1), &ls);
    const char *p = lua_tolstring(L, lua_upvalueindex(2), &lp);
    lua_Integer next = lua_tointeger(L, lua_upvalueindex(3));
    lua_Integer last = lua_tointeger(L, lua_upvalueindex(4));
    Matcher m;
    matcher_init(&m, L, s, ls, p, lp);
    for (const char *from = s + next; from <= m.subject_end; from++) {
        matcher_restart(&m);
        const char *end = match_here(&m, from, p);
        if (end != NULL && (end - s) != last) {
            flush_steps(&m);
            lua_pushinteger(L, (lua_Integer)(end - s));
            lua_pushvalue(L, -1);
            lua_replace(L, lua_upvalueindex(3));
            lua_replace(L, lua_upvalueindex(4));
            return push_captures(&m, from, end);
        }
    }
    flush_steps(&m);
    return 0;
}

/// string.gmatch(s, pattern [, init]): a '^' is an ordinary character here, as in Lua.
static int counted_gmatch(lua_State *L) {
    size_t ls;
    luaL_checklstring(L, 1, &ls);
    luaL_checklstring(L, 2, NULL);
    size_t init = start_position(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) init = ls + 1;
    lua_settop(L, 2);
    lua_pushinteger(L, (lua_Integer)init);
    lua_pushinteger(L, -1);
    lua_pushcclosure(L, gmatch_next, 4);
    return 1;
}

/// A replacement string: `%0` the match, `%1`…`%9` captures, `%%` a percent sign.
static void add_template(Matcher *m, luaL_Buffer *b, const char *s, const char *e) {
    lua_State *L = m->L;
    size_t l;
    const char *text = lua_tolstring(L, 3, &l);
    tick(m, 1 + (long long)(l >> BYTES_PER_UNIT_SHIFT));
    const char *percent;
    while ((percent = (const char *)memchr(text, '%', l)) != NULL) {
        luaL_addlstring(b, text, (size_t)(percent - text));
        char c = percent[1];  // the '\0' after the string if the template ends with '%'
        if (c == '%') {
            luaL_addchar(b, '%');
        } else if (c == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
        } else if (isdigit(uc(c))) {
            push_capture(m, c - '1', s, e);
            luaL_addvalue(b);
        } else {
            luaL_error(L, "invalid use of '%%' in replacement string");
        }
        l -= (size_t)(percent + 2 - text);
        text = percent + 2;
    }
    luaL_addlstring(b, text, l);
}

/// Adds the replacement of the match s..e; returns whether it changed the text.
static int add_replacement(Matcher *m, luaL_Buffer *b, const char *s, const char *e, int kind) {
    lua_State *L = m->L;
    if (kind == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int n = push_captures(m, s, e);
        lua_call(L, n, 1);
    } else if (kind == LUA_TTABLE) {
        push_capture(m, 0, s, e);
        lua_gettable(L, 3);
    } else {
        add_template(m, b, s, e);
        return 1;
    }
    if (!lua_toboolean(L, -1)) {  // nil or false: keep the original text
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
        return 0;
    }
    if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(b);
    return 1;
}

/// string.gsub(s, pattern, replacement [, n])
static int counted_gsub(lua_State *L) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    int kind = lua_type(L, 3);
    lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
    luaL_argexpected(L, kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION ||
                            kind == LUA_TTABLE,
                     3, "string/function/table");
    charge_bytes(L, lp);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    int anchored = (*p == '^');
    if (anchored) {
        p++;
        lp--;
    }
    Matcher m;
    matcher_init(&m, L, s, ls, p, lp);
    const char *from = s, *last_end = NULL;
    lua_Integer count = 0;
    int changed = 0;
    while (count < max) {
        matcher_restart(&m);
        const char *end = match_here(&m, from, p);
        if (end != NULL && end != last_end) {
            count++;
            changed = add_replacement(&m, &b, from, end, kind) | changed;
            from = last_end = end;
        } else if (from < m.subject_end) {
            luaL_addchar(&b, *from++);
        } else {
            break;
        }
        if (anchored) break;
    }
    flush_steps(&m);
    if (!changed) {
        lua_pushvalue(L, 1);
    } else {
        luaL_addlstring(&b, from, (size_t)(m.subject_end - from));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, count);
    return 2;
}

// MARK: - Table functions: the element count is charged before the stock function runs

/// Whether v (at index) has a metatable with a __len field.
static int has_len_metamethod(lua_State *L, int index) {
    if (!lua_getmetatable(L, index)) return 0;
    lua_pushliteral(L, "__len");
    int found = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 2);
    return found;
}

/// Whether the stock function could loop over v at index: a table, or a value with a
/// metatable (a string's, say). Anything else it rejects at once.
static int indexable(lua_State *L, int index) {
    if (lua_type(L, index) == LUA_TTABLE) return 1;
    if (!lua_getmetatable(L, index)) return 0;
    lua_pop(L, 1);
    return 1;
}

/// The length the stock insert, remove or sort will use; refuses a __len metamethod
/// (it could answer differently when the stock function asks again).
static lua_Integer plain_length(lua_State *L, const char *name) {
    if (has_len_metamethod(L, 1))
        luaL_error(L, "%s: a table with a __len metamethod is not supported in cardlua "
                      "(its work could not be bounded)", name);
    return (lua_Integer)lua_rawlen(L, 1);
}

/// table.concat(list [, sep [, i [, j]]]): charged j - i + 1. The length is computed once,
/// here, and passed on as j, so __len runs once as in the stock function.
static int guarded_concat(lua_State *L) {
    if (lua_type(L, 1) == LUA_TTABLE) {
        lua_settop(L, 4);
        luaL_optlstring(L, 2, "", NULL);
        lua_Integer first = luaL_optinteger(L, 3, 1);
        if (lua_isnil(L, 4)) {
            lua_pushinteger(L, luaL_len(L, 1));
            lua_replace(L, 4);
        }
        shims_charge_for(L, span(first, luaL_checkinteger(L, 4)), TABLE_REASON);
    }
    return call_original(L);
}

/// table.unpack(list [, i [, j]]): charged j - i + 1 (at most the stack's limit, past
/// which the stock function refuses at once).
static int guarded_unpack(lua_State *L) {
    lua_settop(L, 3);
    lua_Integer first = luaL_optinteger(L, 2, 1);
    if (lua_isnil(L, 3)) {
        lua_pushinteger(L, luaL_len(L, 1));
        lua_replace(L, 3);
    }
    long long n = span(first, luaL_checkinteger(L, 3));
    shims_charge_for(L, n < 1000000 ? n : 1000000, TABLE_REASON);
    return call_original(L);
}

/// table.move(a1, f, e, t [, a2]): charged e - f + 1 (the stock function moves that many,
/// nil or not).
static int guarded_move(lua_State *L) {
    lua_Integer first = luaL_checkinteger(L, 2);
    lua_Integer last = luaL_checkinteger(L, 3);
    luaL_checkinteger(L, 4);
    if (indexable(L, 1)) shims_charge_for(L, span(first, last), TABLE_REASON);
    return call_original(L);
}

/// table.insert(list, [pos,] value): charged #list + 1.
static int guarded_insert(lua_State *L) {
    if (indexable(L, 1)) shims_charge_for(L, (long long)plain_length(L, "table.insert") + 1, TABLE_REASON);
    return call_original(L);
}

/// table.remove(list [, pos]): charged #list + 1.
static int guarded_remove(lua_State *L) {
    if (indexable(L, 1)) shims_charge_for(L, (long long)plain_length(L, "table.remove") + 1, TABLE_REASON);
    return call_original(L);
}

/// table.sort(list [, comp]): charged n·⌈log2 n⌉ + n for the comparisons (a Lua
/// comparator's own instructions count as well).
static int guarded_sort(lua_State *L) {
    if (indexable(L, 1)) {
        long long n = (long long)plain_length(L, "table.sort");
        long long log2n = 1;
        while (log2n < 62 && (1LL << log2n) < n) log2n++;
        shims_charge_for(L, n > 0 ? n * log2n + n : 0, TABLE_REASON);
    }
    return call_original(L);
}

// MARK: - Functions charged by the size of what they scan or produce

/// A function with a flat fee per call (upvalue 2) for its fixed C cost.
static int charged_flat(lua_State *L) {
    shims_charge(L, lua_tointeger(L, lua_upvalueindex(2)));
    return call_original(L);
}

/// string.format: a fee per call and per argument.
static int charged_format(lua_State *L) {
    shims_charge(L, 10 + 5 * (long long)lua_gettop(L));
    return call_original(L);
}

/// string.byte, utf8.codepoint: charged by the number of values returned.
static int charged_by_results(lua_State *L) {
    int n = call_original(L);
    shims_charge(L, n);
    return n;
}

/// string.char, utf8.char: charged by the number of arguments.
static int charged_by_arguments(lua_State *L) {
    shims_charge(L, lua_gettop(L));
    return call_original(L);
}

/// utf8.len, utf8.offset, tonumber: charged by the length of the string they scan.
static int charged_by_string(lua_State *L) {
    if (lua_type(L, 1) == LUA_TSTRING) {
        size_t length;
        lua_tolstring(L, 1, &length);
        charge_bytes(L, length);
    }
    return call_original(L);
}

// MARK: - Base functions with sandbox rules

/// setmetatable(t, mt) without __gc: a finalizer runs with hooks off (the budget cannot
/// stop it), possibly in lua_close after the run; scripts have no use for one.
static int sandboxed_setmetatable(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        int gc = lua_rawget(L, 2) != LUA_TNIL;
        lua_pop(L, 1);
        if (gc)
            return luaL_error(L, "setmetatable: __gc metamethods are not allowed in cardlua scripts "
                                 "(a finalizer runs outside the limits)");
    }
    return call_original(L);
}

/// math.randomseed(): with no argument, the fixed seed (the stock one takes the time).
/// The stock function keeps the generator's state in an upvalue, so it is called as a
/// closure (upvalue 1 of this one), not through its C pointer.
static int reproducible_randomseed(lua_State *L) {
    if (lua_gettop(L) == 0) lua_pushinteger(L, RANDOM_SEED);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

// MARK: - Error paths that would run script code with hooks off

/// The message handler xpcall gets: the script's own (upvalue 1), unless a limit has been
/// reached. Then the error may have been raised inside the count hook, where hooks are
/// off, and a handler that loops could never be stopped; the error passes unchanged.
static int guarded_handler(lua_State *L) {
    if (shims_limit_reached(L)) {
        lua_settop(L, 1);
        return 1;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/// xpcall(f, msgh, ...) with msgh behind guarded_handler; a flat fee like pcall's.
static int guarded_xpcall(lua_State *L) {
    shims_charge(L, 10);
    if (lua_type(L, 2) == LUA_TFUNCTION) {
        lua_pushvalue(L, 2);
        lua_pushcclosure(L, guarded_handler, 1);
        lua_replace(L, 2);
    }
    return call_original(L);
}

/// The function coroutine.wrap returns. Upvalues: the coroutine, the stock
/// coroutine.resume and coroutine.close. As Lua's: resumes, returns what the coroutine
/// yields or returns, and on an error closes the coroutine and propagates the error
/// (a string gets the caller's position). Unlike Lua's, a coroutine stopped by a limit
/// is not closed: its __close metamethods would run with hooks off.
static int resume_wrapped(lua_State *L) {
    if (shims_limit_reached(L)) shims_charge(L, 0);  // nothing runs again after a limit
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_insert(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 2);
    lua_call(L, n + 1, LUA_MULTRET);  // ok, results... (resume itself does not raise)
    if (lua_toboolean(L, 1)) return lua_gettop(L) - 1;
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int status = lua_status(co);
    if (status != LUA_OK && status != LUA_YIELD && !shims_limit_reached(L)) {
        // The coroutine died of this error: close its to-be-closed variables; a __close
        // that fails replaces the error, as in Lua.
        lua_pushvalue(L, lua_upvalueindex(3));
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_call(L, 1, 2);
        lua_replace(L, 2);
    }
    lua_settop(L, 2);
    if (status != LUA_ERRMEM && lua_type(L, 2) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, 2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/// coroutine.wrap(f). Upvalues: the stock coroutine.resume and coroutine.close.
static int sandboxed_wrap(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushcclosure(L, resume_wrapped, 3);
    return 1;
}

/// coroutine.resume(co, ...): refused once a limit is reached. Otherwise a coroutine
/// between the one the limit stopped and the main thread could catch the error (resume
/// returns false) and start more work before its own hook fires: retrying at every level
/// of a nest of coroutines grows the work exponentially.
static int guarded_resume(lua_State *L) {
    if (shims_limit_reached(L)) shims_charge(L, 0);  // raises the limit error again
    return call_original(L);
}

/// coroutine.close(co): refused once a limit is reached (a coroutine the limit stopped
/// would run its __close metamethods with hooks off).
static int guarded_close(lua_State *L) {
    if (shims_limit_reached(L)) shims_charge(L, 0);  // raises the limit error again
    return call_original(L);
}

// MARK: - Installation

/// Replaces table[name] (a stock C function) by the closure `wrapper(original)`. With
/// `direct`, the wrapper calls the original's C pointer (call_original), which is only
/// right for a function without upvalues: checked, so that another Lua release fails
/// here, loudly, rather than later.
static void wrap_as(lua_State *L, int table, const char *name, lua_CFunction wrapper, int direct) {
    table = lua_absindex(L, table);
    lua_getfield(L, table, name);
    if (!lua_iscfunction(L, -1)) luaL_error(L, "sandbox: %s is not a C function", name);
    if (direct && lua_getupvalue(L, -1, 1) != NULL)
        luaL_error(L, "sandbox: %s has upvalues and cannot be called directly", name);
    lua_pushcclosure(L, wrapper, 1);
    lua_setfield(L, table, name);
}

static void wrap(lua_State *L, int table, const char *name, lua_CFunction wrapper) {
    wrap_as(L, table, name, wrapper, 1);
}

/// Wraps table[name] with a flat fee per call.
static void wrap_fee(lua_State *L, int table, const char *name, lua_Integer fee) {
    table = lua_absindex(L, table);
    lua_getfield(L, table, name);
    if (!lua_iscfunction(L, -1) || lua_getupvalue(L, -1, 1) != NULL)
        luaL_error(L, "sandbox: %s is not a C function without upvalues", name);
    lua_pushinteger(L, fee);
    lua_pushcclosure(L, charged_flat, 2);
    lua_setfield(L, table, name);
}

/// Replaces table[name] by a function of our own.
static void replace(lua_State *L, int table, const char *name, lua_CFunction function) {
    table = lua_absindex(L, table);
    lua_pushcfunction(L, function);
    lua_setfield(L, table, name);
}

void shims_install_sandbox(lua_State *L) {
    lua_pushglobaltable(L);
    int G = lua_gettop(L);
    wrap(L, G, "setmetatable", sandboxed_setmetatable);
    wrap(L, G, "tonumber", charged_by_string);
    wrap_fee(L, G, "error", 50);
    wrap_fee(L, G, "pcall", 10);
    wrap_fee(L, G, "tostring", 10);
    wrap_fee(L, G, "warn", 1000);  // writes to standard error, like print (shims.c)

    lua_getfield(L, G, "string");
    replace(L, -1, "find", counted_find);
    replace(L, -1, "match", counted_match);
    replace(L, -1, "gmatch", counted_gmatch);
    replace(L, -1, "gsub", counted_gsub);
    wrap(L, -1, "byte", charged_by_results);
    wrap(L, -1, "char", charged_by_arguments);
    wrap(L, -1, "format", charged_format);
    wrap_fee(L, -1, "rep", 10);
    lua_pop(L, 1);

    lua_getfield(L, G, "table");
    wrap(L, -1, "concat", guarded_concat);
    wrap(L, -1, "unpack", guarded_unpack);
    wrap(L, -1, "move", guarded_move);
    wrap(L, -1, "insert", guarded_insert);
    wrap(L, -1, "remove", guarded_remove);
    wrap(L, -1, "sort", guarded_sort);
    lua_pop(L, 1);

    lua_getfield(L, G, "utf8");
    wrap(L, -1, "len", charged_by_string);
    wrap(L, -1, "offset", charged_by_string);
    wrap(L, -1, "codepoint", charged_by_results);
    wrap(L, -1, "char", charged_by_arguments);
    lua_pop(L, 1);

    wrap(L, G, "xpcall", guarded_xpcall);

    lua_getfield(L, G, "coroutine");
    lua_getfield(L, -1, "resume");
    lua_getfield(L, -2, "close");
    lua_pushcclosure(L, sandboxed_wrap, 2);
    lua_setfield(L, -2, "wrap");
    wrap(L, -1, "close", guarded_close);
    wrap(L, -1, "resume", guarded_resume);
    lua_pop(L, 1);

    lua_getfield(L, G, "math");
    wrap_as(L, -1, "randomseed", reproducible_randomseed, 0);
    lua_getfield(L, -1, "randomseed");
    lua_call(L, 0, 0);  // the fixed seed
    lua_pop(L, 1);

    lua_pop(L, 1);  // the globals
}
