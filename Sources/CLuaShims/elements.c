// Contract v2: the layout's own element query (the script's global
// layoutAttributesForElements, UIKit's override of layoutAttributesForElements(in:)),
// the single-item query behind layout:layoutAttributesForItem, and cardlua_transform's
// starting attributes. The returned tables are read back with attributes.c's reader
// (read_fields): one set of checks and messages for both. See README.md in this folder.
#if defined(__linux__) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L  // clock_gettime in strict C modes
#endif
#include "CLuaShims.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#define ELEMENTS_CALLBACK "layoutAttributesForElements"

/// Budget units per element read back (about the work of its checks and look-up).
#define ELEMENT_FEE 20

void cardlua_set_item_query(cardlua_host *h, cardlua_item_fn query, void *context) {
    h->item_query = query;
    h->item_query_context = context;
}

/// Asks the host for one item: 1 (base filled), 0 (not in the layout: *sections and
/// *items say why) or -1 (the host cannot look items up).
static int look_up(cardlua_host *h, long section, long item, double *base, long *sections, long *items) {
    *sections = 0;
    *items = -1;
    if (h->item_query == NULL) return -1;
    int found = h->item_query(h->item_query_context, section, item, base, sections, items);
    return found == 1 ? 1 : found == 0 ? 0 : -1;
}

/// native.item(section, item) → centre x, centre y, width, height of the item's base
/// attributes; or nil, the number of sections, the items in `section` (-1: no such
/// section); or nil, -1 when the host cannot look up single items.
int native_item(lua_State *L) {
    cardlua_host *h = host_of(L);
    lua_Integer section = luaL_checkinteger(L, 1), item = luaL_checkinteger(L, 2);
    shims_charge(L, ELEMENT_FEE);
    double b[CARDLUA_IN_STRIDE];
    long sections = 0, items = -1;
    int found = look_up(h, (long)section, (long)item, b, &sections, &items);
    if (found == 1) {
        for (int k = 2; k < CARDLUA_IN_STRIDE; k++) lua_pushnumber(L, b[k]);
        return 4;
    }
    lua_pushnil(L);
    lua_pushinteger(L, found < 0 ? -1 : (lua_Integer)sections);
    lua_pushinteger(L, (lua_Integer)items);
    return 3;
}

/// A whole number at the top of the stack for indexPath.<name> of element i (popped).
static long index_number(lua_State *L, lua_Integer i, const char *name) {
    if (lua_type(L, -1) != LUA_TNUMBER)
        luaL_error(L, "element %I of the returned list: indexPath.%s is %s, expected a whole number", i, name,
                   lua_isnil(L, -1) ? "missing" : luaL_typename(L, -1));
    int whole = 0;
    lua_Integer v = lua_tointegerx(L, -1, &whole);
    if (!whole || v < 0 || v > 2147483647)
        luaL_error(L, "element %I of the returned list: indexPath.%s is %s, expected a whole number from 0 to 2147483647",
                   i, name, lua_tostring(L, -1));
    lua_pop(L, 1);
    return (long)v;
}

/// Reads the returned list (argument 1) into the host's records: run under a nested
/// lua_pcall by body_elements, so that an error here is reported at the script's
/// `return` line (found afterwards by calling the callback once more).
static int read_elements(lua_State *L) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    const int R = 1;
    lua_Integer n = (lua_Integer)lua_rawlen(L, R);
    if (n > CARDLUA_QUERY_MAX)
        return luaL_error(L, "returned %I elements; a frame shows at most %d", n, CARDLUA_QUERY_MAX);
    shims_charge(L, (long long)n * ELEMENT_FEE);
    if (n > h->elements_capacity) {
        // Grown through the capped allocator: the records count against --max-memory.
        size_t old = (size_t)h->elements_capacity * CARDLUA_ELEMENT_STRIDE * sizeof(double);
        size_t size = (size_t)n * CARDLUA_ELEMENT_STRIDE * sizeof(double);
        double *grown = (double *)capped_alloc(h, h->elements, old, size);
        if (grown == NULL) shims_charge(L, 0);  // the allocator noted the refusal: a memory limit
        if (grown == NULL) return luaL_error(L, "not enough memory for %I elements", n);
        h->elements = grown;
        h->elements_capacity = (long)n;
    }
    hot_slots s;
    push_slots(L, h, &s);
    lua_createtable(L, 0, (int)n);  // (section, item) → its place in the list
    int seen = lua_gettop(L);
    // The layout's own tables: their __index only supplies the defaults the reader
    // assumes anyway, so their keys are read raw (no Lua call per absent key).
    push_internal(L, h, "baseAttributes");
    int plain = lua_gettop(L);
    int base = plain;
    for (lua_Integer i = 1; i <= n; i++) {
        h->has_item = 0;
        int E = base + 1;
        if (lua_rawgeti(L, R, i) != LUA_TTABLE)
            luaL_error(L, "element %I of the returned list is %s%s, expected attributes (a table from "
                          "layout:layoutAttributesForElements or layout:layoutAttributesForItem)",
                       i, lua_isnil(L, E) ? "" : "a ", lua_isnil(L, E) ? "nil" : luaL_typename(L, E));
        if (lua_getfield(L, E, "indexPath") != LUA_TTABLE)
            luaL_error(L, "element %I of the returned list has %s as its indexPath, expected an IndexPath "
                          "(IndexPath(item, section))",
                       i, lua_isnil(L, -1) ? "nothing" : luaL_typename(L, -1));
        int P = lua_gettop(L);
        lua_getfield(L, P, "section");
        long section = lua_isnil(L, -1) ? (lua_pop(L, 1), 0) : index_number(L, i, "section");
        if (lua_getfield(L, P, "item") == LUA_TNIL) {
            lua_pop(L, 1);
            lua_getfield(L, P, "row");
        }
        long item = index_number(L, i, "item");
        lua_settop(L, E);
        h->item_number = item;
        h->has_item = 1;

        double b[CARDLUA_IN_STRIDE];
        long sections = 0, items = -1;
        int found = look_up(h, section, item, b, &sections, &items);
        if (found < 0) luaL_error(L, "the host layout cannot look up single items");
        if (found == 0) {
            if (items < 0)
                luaL_error(L, "not in the layout: there is no section %I (the layout has %I section%s)",
                           (lua_Integer)section, (lua_Integer)sections, sections == 1 ? "" : "s");
            luaL_error(L, "not in the layout: section %I has %I item%s", (lua_Integer)section, (lua_Integer)items,
                       items == 1 ? "" : "s");
        }
        lua_Integer key = (lua_Integer)section * ((lua_Integer)1 << 32) + (lua_Integer)item;
        if (lua_rawgeti(L, seen, key) == LUA_TNUMBER)
            luaL_error(L, "returned twice in section %I (elements %I and %I of the list)", (lua_Integer)section,
                       lua_tointeger(L, -1), i);
        lua_pop(L, 1);
        lua_pushinteger(L, i);
        lua_rawseti(L, seen, key);

        // The table's fields, raw or through its metatable (a table the script built may
        // inherit them); `isHidden` stands for `hidden`.
        unsigned present = 0;
        int raw = 0;
        if (lua_getmetatable(L, E)) {
            raw = lua_rawequal(L, -1, plain);
            lua_pop(L, 1);
        }
        for (int k = 0; k < K_ATTRIBUTES; k++) {
            int t;
            if (raw) {
                lua_rawgeti(L, s.keys, k + 1);
                t = lua_rawget(L, E);
            } else {
                t = get_key(L, E, &s, k);
            }
            if (t != LUA_TNIL) {
                lua_replace(L, s.values + k);
                present |= 1u << k;
            } else {
                lua_pop(L, 1);
            }
        }
        if (!raw && !(present & (1u << K_HIDDEN))) {
            if (lua_getfield(L, E, "isHidden") != LUA_TNIL) {
                lua_replace(L, s.values + K_HIDDEN);
                present |= 1u << K_HIDDEN;
            } else {
                lua_pop(L, 1);
            }
        }
        double *record = h->elements + (i - 1) * CARDLUA_ELEMENT_STRIDE;
        record[0] = (double)section;
        record[1] = (double)item;
        read_fields(L, h, &s, present, b, NULL, record + 2);
        record[2 + CARDLUA_OUT_CHANGED] = 1;
        if (h->check_mode) note_unknown_keys(L, h, E);
        lua_settop(L, base);
    }
    h->has_item = 0;
    h->elements_count = (long)n;
    return 0;
}

static int body_elements(lua_State *L) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    apply_state(L, h);
    h->callback = ELEMENTS_CALLBACK;
    if (!push_callback(L, h, ELEMENTS_CALLBACK)) {
        h->elements_count = -1;
        return 0;
    }
    int F = lua_gettop(L);
    // The rect (in h->proposed, as the host gave it), a fresh CGRect: the script may
    // change its copy.
    push_internal(L, h, "rect");
    for (int k = 0; k < 4; k++) lua_pushnumber(L, h->proposed[k]);
    lua_call(L, 4, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_layout);
    // F, rect, layout stay for a return-line probe (note_return_line); the call gets copies.
    lua_pushvalue(L, F);
    lua_pushvalue(L, F + 1);
    lua_pushvalue(L, F + 2);
    lua_call(L, 2, 1);
    int R = lua_gettop(L);
    h->transform_slot = F;
    // The read-back's checks and the metamethods they may run get a budget of their own.
    reset_budget(h);
    if (!lua_istable(L, R)) {
        int t = lua_type(L, R);
        note_return_line(L, h);
        return luaL_error(L, "returned %s; expected a list of attributes (the array built from "
                             "layout:layoutAttributesForElements(rect): return it)",
                          t == LUA_TNIL ? "nothing" : luaL_typename(L, R));
    }
    lua_pushcfunction(L, read_elements);
    lua_pushvalue(L, R);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        // A limit stays a limit (raised again here); any other error is the script's
        // list: reported at its `return`.
        if (h->budget_exhausted || memory_given_up(h)) shims_charge(L, 0);
        note_return_line(L, h);
        h->transform_slot = 0;
        return lua_error(L);
    }
    h->transform_slot = 0;
    return 0;
}

const double *cardlua_layout_elements(cardlua_host *h, const double *state, double x, double y,
                                      double width, double height, long *count, int *status) {
    h->state = state;
    h->proposed[0] = x; h->proposed[1] = y; h->proposed[2] = width; h->proposed[3] = height;
    h->input = NULL;
    h->count = 0;
    h->item_index = -1;
    h->elements_count = 0;
    h->callback = ELEMENTS_CALLBACK;
    h->callback_line = 1;
    int s = run_protected(h, body_elements);
    h->state = NULL;
    if (status) *status = s;
    if (s != CARDLUA_OK) {
        if (count) *count = 0;
        return NULL;
    }
    if (count) *count = h->elements_count;
    return h->elements_count > 0 ? h->elements : NULL;
}
