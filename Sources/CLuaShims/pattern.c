// string.find / match / gmatch / gsub: a pattern matcher of our own, with Lua 5.4's
// syntax and results (manual §6.4.1), that charges its steps to the budget
// (cardlua__charge_for). The stock matcher backtracks without bound:
// string.find(string.rep("a", 5000), ".-.-.-.-x") would take hours. Checked against the
// stock library by FuzzTests.patternFunctionsAgreeWithStockLua. The sandbox (sandbox.c)
// installs these four in place of the stock ones.
//
// Everything here runs inside a lua_pcall; raising is how it reports.
#include "internal.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

/// Pattern-matching steps are charged in batches of this many.
#define STEP_BATCH 4096

/// What the budget error says when it runs out in here.
#define PATTERN_REASON "a string pattern that backtracks too much, or a loop that never ends"

/// Like Lua's: the matcher's recursion depth, and captures per pattern.
#define MATCH_MAX_DEPTH 200
#define MATCH_MAX_CAPTURES 32

#define CAPTURE_OPEN (-1)     /* a capture whose ')' has not been reached */
#define CAPTURE_POSITION (-2) /* a position capture, `()` */

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
        cardlua__charge_for(m->L, due, PATTERN_REASON);
    }
}

static void flush_steps(Matcher *m) {
    long long due = m->steps;
    m->steps = 0;
    if (due > 0) cardlua__charge_for(m->L, due, PATTERN_REASON);
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
            cardlua__charge_for(L, pending, PATTERN_REASON);
            pending = 0;
        }
    }
    cardlua__charge_for(L, pending + ((s - start) >> BYTES_PER_UNIT_SHIFT), PATTERN_REASON);
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
int cardlua__counted_find(lua_State *L) { return find_or_match(L, 1); }

/// string.match(s, pattern [, init])
int cardlua__counted_match(lua_State *L) { return find_or_match(L, 0); }

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
int cardlua__counted_gmatch(lua_State *L) {
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
int cardlua__counted_gsub(lua_State *L) {
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

