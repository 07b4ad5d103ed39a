// Sections and sizes: the item counts handed to the script, and the
// UICollectionViewDelegateFlowLayout callbacks (sizeForItem, insetForSection,
// referenceSizeForHeader/Footer) called for every item or section in ONE protected call
// each, writing numbers into a buffer the caller owns. See README.md in this folder.
#include "CLuaShims.h"
#include "internal.h"

#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

/// How the callback under way was called, for a return-line probe: its stack slot, and
/// its first argument's slot (sizeForItem's IndexPath) or, when 0, the section number.
typedef struct {
    int function;                // 0: no callback under way
    int argument;
    long section;
} sizing_probe;

/// Before a bad result is reported: calls the callback again, as it was called, with a
/// return hook (cardlua__note_return_line, attributes.c), so that the error names the line of its
/// `return` rather than of `function`. An error path only.
static void find_return_line(lua_State *L, const sizing_probe *p) {
    cardlua_host *h = host_of(L);
    if (p->function <= 0) return;
    lua_pushvalue(L, p->function);
    if (p->argument > 0) lua_pushvalue(L, p->argument);
    else lua_pushinteger(L, (lua_Integer)p->section);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_layout);
    cardlua__note_return_line(L, h, lua_gettop(L) - 2);
    lua_pop(L, 3);
}

/// A per-call time limit covers this many items of a sizing call: the clock starts again
/// after each block (a million items need far more than one callback's two seconds, and
/// each item's work is bounded by the budget anyway); the run's limit bounds the whole.
#define ITEMS_PER_CLOCK 10000

/// Before the callback's n-th call of a sizing call (from 0): the budget is per call (as
/// transform's is per item); the clock starts again every ITEMS_PER_CLOCK calls.
static void start_call(cardlua_host *h, long n) {
    h->budget_left = h->budget;
    if (n % ITEMS_PER_CLOCK == 0) {
        h->deadline_ns = 0;
        cardlua__watch_restart(h);
    }
}

/// cardlua_set_item_counts' record: the counts.
typedef struct {
    cardlua_call call;
    const long *counts;          // `sections` numbers
    long sections;
} item_counts_call;

CARDLUA_BODY(body_set_counts, item_counts_call)

static int body_set_counts(lua_State *L, item_counts_call *n) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    cardlua__push_internal(L, h, "setItemCounts");
    lua_createtable(L, n->sections > 0 && n->sections < 1 << 24 ? (int)n->sections : 0, 0);
    for (long s = 0; s < n->sections; s++) {
        lua_pushinteger(L, (lua_Integer)(n->counts[s] > 0 ? n->counts[s] : 0));
        lua_rawseti(L, -2, (lua_Integer)s + 1);
    }
    lua_call(L, 1, 0);
    return 0;
}

int cardlua_set_item_counts(cardlua_host *h, const long *counts, long sections) {
    REFUSE_REENTRY(h, CARDLUA_ERROR);
    item_counts_call n = {.call = {.callback_line = 1}, .counts = counts, .sections = sections};
    return run_body_set_counts(h, &n);
}

/// The number at `idx`, the value of `key` in what the callback returned: finite, of at
/// most MAX_MAGNITUDE, positive (`positive`) or zero or more; otherwise a one-line error
/// naming the field, at the callback's `return` line.
static double checked_number(lua_State *L, const sizing_probe *p, int idx, const char *key, const char *where,
                             int positive) {
    double v = lua_tonumber(L, idx);
    if (v != v || v - v != 0) {
        find_return_line(L, p);
        luaL_error(L, "%sreturned %s = %s", where, key, v != v ? "NaN" : "an infinite number");
    }
    if (v > MAX_MAGNITUDE || (positive ? !(v > 0) : v < 0)) {
        find_return_line(L, p);
        char shown[32];  // as the script wrote it: -5, not -5.0 (formatted on this error path only)
        snprintf(shown, sizeof shown, "%.14g", v);
        if (v > MAX_MAGNITUDE)
            luaL_error(L, "%sreturned %s = %s, beyond the largest magnitude allowed (1e15)", where, key, shown);
        luaL_error(L, "%sreturned %s = %s; it must be %s", where, key, shown, positive ? "positive" : "zero or more");
    }
    return v;
}

/// Field `key` of the table at r (a returned CGSize or UIEdgeInsets), checked as
/// checked_number does; a field that is missing or not a number is an error naming it.
static double size_number(lua_State *L, const sizing_probe *p, int r, const char *key, const char *type,
                          const char *where, int positive) {
    int t = lua_getfield(L, r, key);
    if (t != LUA_TNUMBER) {
        find_return_line(L, p);
        luaL_error(L, "%sreturned a %s whose %s is %s; expected a number", where, type, key,
                   t == LUA_TNIL ? "missing" : luaL_typename(L, -1));
    }
    double v = checked_number(L, p, -1, key, where, positive);
    lua_pop(L, 1);
    return v;
}

/// The short form of a result: the callback returned its numbers rather than a value
/// (`return w, h` for a CGSize, `return top, left, bottom, right` for a UIEdgeInsets), at
/// r, r + 1, …: each must be a number (a size without a table to build is what makes a
/// million-item sizeForItem fast; BENCHMARKS.md).
static void read_numbers(lua_State *L, const sizing_probe *p, int r, int count, const char *const keys[],
                         const char *type, const char *where, int positive, double *out) {
    for (int k = 0; k < count; k++) {
        if (lua_type(L, r + k) != LUA_TNUMBER) {
            find_return_line(L, p);
            luaL_error(L, "%sreturned %s as the %s after %d number%s; expected %d numbers (%s) or a %s", where,
                       lua_isnil(L, r + k) ? "nothing" : lua_pushfstring(L, "a %s", luaL_typename(L, r + k)),
                       keys[k], k, k == 1 ? "" : "s", count, count == 2 ? "width, height" : "top, left, bottom, right",
                       type);
        }
        out[k] = checked_number(L, p, r + k, keys[k], where, positive);
    }
}

static const char *const SIZE_KEYS[2] = {"width", "height"};
static const char *const INSET_KEYS[4] = {"top", "left", "bottom", "right"};

/// Checks that the result at r is a table (the value a callback must return, when it does
/// not return the numbers themselves).
static void expect_table(lua_State *L, const sizing_probe *p, int r, const char *where, const char *type) {
    if (lua_type(L, r) != LUA_TTABLE) {
        find_return_line(L, p);
        luaL_error(L, "%sreturned %s; expected a %s", where,
                   lua_isnil(L, r) ? "nothing" : lua_pushfstring(L, "a %s", luaL_typename(L, r)), type);
    }
}

/// A returned size, at r (and r + 1 in the short form): a CGSize or two numbers.
static void read_size(lua_State *L, const sizing_probe *p, int r, const char *where, int positive, double *out) {
    if (lua_type(L, r) == LUA_TNUMBER) {
        read_numbers(L, p, r, 2, SIZE_KEYS, "CGSize", where, positive, out);
        return;
    }
    expect_table(L, p, r, where, "CGSize");
    out[0] = size_number(L, p, r, "width", "CGSize", where, positive);
    out[1] = size_number(L, p, r, "height", "CGSize", where, positive);
}

/// cardlua_item_sizes' record: the item counts, where the sizes go, and the probe.
typedef struct {
    cardlua_call call;
    const long *counts;          // `sections` numbers
    long sections;
    double *sizes_out;           // 2 per item
    sizing_probe probe;
} item_sizes_call;

CARDLUA_BODY(body_item_sizes, item_sizes_call)

static int body_item_sizes(lua_State *L, item_sizes_call *z) {
    cardlua_call *c = &z->call;
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    cardlua__apply_state(L, h);
    c->callback = "sizeForItem";
    if (!cardlua__push_callback(L, h, "sizeForItem")) return 0;
    int F = lua_gettop(L);
    // One IndexPath for the whole call, updated in place (documented: not to be kept).
    cardlua__push_internal(L, h, "newIndexPath");
    lua_call(L, 0, 1);
    int P = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_layout);
    int Lo = lua_gettop(L);
    lua_pushliteral(L, "section");
    int KS = lua_gettop(L);
    lua_pushliteral(L, "item");
    lua_pushliteral(L, "row");
    int KI = KS + 1, KR = KS + 2;
    int base = lua_gettop(L);
    z->probe = (sizing_probe){.function = F, .argument = P};
    // Every item's CGSize is garbage at once: the generational collector frees such
    // young garbage far more cheaply than the incremental one. The state's mode is
    // restored by cardlua__run_protected after the call, on every path (an error in a callback
    // unwinds past this body, and the state may be used again: watch, an embedder).
    if (lua_gc(L, LUA_GCGEN, 0, 0) == LUA_GCINC) c->restore_incremental = 1;
    long done = 0;
    char where[64] = "";
    for (long s = 0; s < z->sections; s++) {
        long n = z->counts[s] > 0 ? z->counts[s] : 0;
        lua_pushvalue(L, KS);
        lua_pushinteger(L, (lua_Integer)s);
        lua_rawset(L, P);
        if (z->sections > 1) snprintf(where, sizeof where, "section %ld: ", s);
        for (long i = 0; i < n; i++, done++) {
            start_call(h, done);
            c->item_number = i;
            c->has_item = 1;
            lua_pushvalue(L, KI);
            lua_pushinteger(L, (lua_Integer)i);
            lua_rawset(L, P);
            lua_pushvalue(L, KR);
            lua_pushinteger(L, (lua_Integer)i);
            lua_rawset(L, P);
            lua_pushvalue(L, F);
            lua_pushvalue(L, P);
            lua_pushvalue(L, Lo);
            lua_call(L, 2, 2);  // a CGSize, or its width and height (the short form)
            read_size(L, &z->probe, base + 1, where, 1, z->sizes_out + 2 * done);
            lua_settop(L, base);
        }
    }
    c->has_item = 0;
    z->probe.function = 0;
    return 0;
}

int cardlua_item_sizes(cardlua_host *h, const double *state, const long *counts, long sections,
                       double *sizes) {
    REFUSE_REENTRY(h, CARDLUA_ERROR);
    item_sizes_call z = {.call = {.state = state, .callback = "sizeForItem", .callback_line = 1},
                         .counts = counts, .sections = sections, .sizes_out = sizes};
    return run_body_item_sizes(h, &z);
}

/// cardlua_section_metrics' record: the callback, the sections, where the numbers go,
/// and the probe.
typedef struct {
    cardlua_call call;
    const char *name;            // insetForSection, referenceSizeForHeader or …Footer
    long sections;
    double *out;                 // 4 (insets) or 2 (sizes) per section
    sizing_probe probe;
} section_metrics_call;

CARDLUA_BODY(body_section_metrics, section_metrics_call)

static int body_section_metrics(lua_State *L, section_metrics_call *m) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    cardlua__apply_state(L, h);
    m->call.callback = m->name;
    if (!cardlua__push_callback(L, h, m->name)) return 0;
    int F = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_layout);
    int Lo = lua_gettop(L);
    int insets = strcmp(m->name, "insetForSection") == 0;
    char where[64];
    m->probe = (sizing_probe){.function = F, .argument = 0};
    for (long s = 0; s < m->sections; s++) {
        m->probe.section = s;
        start_call(h, s);
        snprintf(where, sizeof where, "section %ld: ", s);
        lua_pushvalue(L, F);
        lua_pushinteger(L, (lua_Integer)s);
        lua_pushvalue(L, Lo);
        lua_call(L, 2, insets ? 4 : 2);  // a value, or its numbers (the short form)
        int r = Lo + 1;
        if (insets && lua_type(L, r) == LUA_TNUMBER) {
            read_numbers(L, &m->probe, r, 4, INSET_KEYS, "UIEdgeInsets", where, 0, m->out + 4 * s);
        } else if (insets) {
            expect_table(L, &m->probe, r, where, "UIEdgeInsets");
            for (int k = 0; k < 4; k++) {
                // A missing side is 0, as for layout.sectionInset.
                lua_getfield(L, r, INSET_KEYS[k]);
                int missing = lua_isnil(L, -1);
                lua_pop(L, 1);
                m->out[4 * s + k] =
                    missing ? 0 : size_number(L, &m->probe, r, INSET_KEYS[k], "UIEdgeInsets", where, 0);
            }
        } else {
            read_size(L, &m->probe, r, where, 0, m->out + 2 * s);
        }
        lua_settop(L, Lo);
    }
    return 0;
}

int cardlua_section_metrics(cardlua_host *h, const double *state, const char *name, long sections,
                            double *out) {
    REFUSE_REENTRY(h, CARDLUA_ERROR);
    section_metrics_call m = {.call = {.state = state, .callback = name, .callback_line = 1},
                              .name = name, .sections = sections, .out = out};
    return run_body_section_metrics(h, &m);
}
