// Contract v2: the layout's own element query (the script's global
// layoutAttributesForElements, UIKit's override of layoutAttributesForElements(in:)),
// the single-item query behind layout:layoutAttributesForItem, and cardlua_transform's
// starting attributes. The returned tables are read back with attributes.c's reader
// (cardlua__read_fields): one set of checks and messages for both. See README.md in this folder.
#include "CLuaShims.h"
#include "internal.h"

#include <stdint.h>
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
int cardlua__native_item(lua_State *L) {
    cardlua_host *h = host_of(L);
    lua_Integer section = luaL_checkinteger(L, 1), item = luaL_checkinteger(L, 2);
    cardlua__charge(L, ELEMENT_FEE);
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

// MARK: - The layout's attribute tables, built in C

/// The upvalues of the element makers.
enum {
    EM_INDEX_PATH = 1, /* IndexPath's metatable */
    EM_ATTRIBUTES,     /* the layout's attribute tables' metatable (BaseAttributes) */
    EM_POINT,          /* CGPoint's */
    EM_SIZE,           /* CGSize's */
    EM_RECT,           /* CGRect's */
    EM_ARG_ERROR,      /* the prelude's argError(fn, params, kinds, ...) */
    EM_ARGUMENTS = EM_ARG_ERROR,
    /* the keys the makers write, as strings: a copy of an upvalue is cheaper than a
       look-up of C text in the string table (lua_setfield) for every key of every card */
    EM_K_SECTION, EM_K_ITEM, EM_K_ROW, EM_K_INDEX_PATH, EM_K_ALPHA, EM_K_ZINDEX, EM_K_HIDDEN,
    EM_K_X, EM_K_Y, EM_K_WIDTH, EM_K_HEIGHT,
    EM_K_GC,           /* "__gc", for the metatables' check */
    EM_COUNT = EM_K_GC
};
/// The key strings of upvalues EM_K_SECTION… in order.
static const char *const EM_KEYS[EM_COUNT - EM_ARGUMENTS] = {"section", "item", "row", "indexPath", "alpha", "zIndex",
                                                             "hidden", "x", "y", "width", "height", "__gc"};

/// Pushes the key in upvalue `key`, for a lua_rawset(L, -3) once its value is pushed: the
/// makers' tables are fresh and have no metatable yet, so that is lua_setfield's effect.
static inline void push_key(lua_State *L, int key) { lua_pushvalue(L, lua_upvalueindex(key)); }

/// Gives the table on top the metatable in upvalue `mt`: the prelude's metatables, which
/// a script can reach, so with setmetatable's rule (cardlua__set_checked_metatable).
static void set_metatable(lua_State *L, int mt) {
    cardlua__set_checked_metatable_with(L, lua_upvalueindex(mt), lua_upvalueindex(EM_K_GC));
}

/// set_metatable, or when `checked` (the same metatable passed the check earlier in the
/// same C call) without the check: only a script adds a key to a metatable, and none runs
/// inside one C call (the collector may only take entries out of a weak one).
static void set_metatable_if(lua_State *L, int mt, int checked) {
    if (!checked) {
        set_metatable(L, mt);
        return;
    }
    lua_pushvalue(L, lua_upvalueindex(mt));
    lua_setmetatable(L, -2);
}

/// Pushes a table of `count` numbers under the keys in upvalues `keys` (EM_K_…), with the
/// metatable in upvalue `mt`.
static void push_value(lua_State *L, int mt, int count, const int keys[], const lua_Number v[]) {
    lua_createtable(L, 0, count);
    for (int k = 0; k < count; k++) {
        push_key(L, keys[k]);
        lua_pushnumber(L, v[k]);
        lua_rawset(L, -3);
    }
    set_metatable(L, mt);
}

/// Pushes an IndexPath: { section, item, row = item } with its metatable.
static void push_index_path(lua_State *L, lua_Integer section, lua_Integer item, int checked) {
    lua_createtable(L, 0, 3);
    push_key(L, EM_K_SECTION);
    lua_pushinteger(L, section);
    lua_rawset(L, -3);
    push_key(L, EM_K_ITEM);
    lua_pushinteger(L, item);
    lua_rawset(L, -3);
    push_key(L, EM_K_ROW);
    lua_pushinteger(L, item);
    lua_rawset(L, -3);
    set_metatable_if(L, EM_INDEX_PATH, checked);
}

// MARK: - Geometry on first read

// An element query asks the layout for a table per card and, as often as not, replaces
// its frame at once (CGRectMake) and never reads its center or size: three tables with
// their metatables made for nothing, an eighth of a card's cost. So the layout's tables
// get their center, size and frame when first read (BaseAttributes' __index calls
// base_geometry), from the base geometry noted here by table address when the table was
// made: what they would have held. A table kept past the call that made it (in a
// global, say) gets the layout's base for its indexPath at that later time instead: the
// same unless the layout changed in between. The read-back takes an absent center, size
// or frame from here too (elements.c's read_elements), so a table whose indexPath a
// script changed keeps the geometry it was made with, as it did when it held it.

static long base_slot_of(const void *table, long capacity) {
    uintptr_t a = (uintptr_t)table >> 4;
    return (long)((a * 0x9E3779B97F4A7C15ull) >> 20) & (capacity - 1);
}

/// Notes the base geometry b (centre x, y, width, height) of the table at `table`.
static void note_base(lua_State *L, cardlua_host *h, const void *table, const double b[4]) {
    if ((h->base_count + 1) * 2 > h->base_capacity) {
        long capacity = h->base_capacity > 0 ? h->base_capacity * 2 : 64;
        size_t bytes = (size_t)capacity * sizeof(struct base_slot);
        struct base_slot *fresh = (struct base_slot *)cardlua__capped_alloc(h, NULL, 0, bytes);
        if (fresh == NULL) cardlua__charge(L, 0);  // the allocator noted the refusal: a memory limit
        if (fresh == NULL) luaL_error(L, "not enough memory for %I attribute tables", (lua_Integer)h->base_count);
        memset(fresh, 0, bytes);
        for (long i = 0; i < h->base_capacity; i++) {
            const struct base_slot *e = h->bases + i;
            if (e->generation != h->base_generation) continue;
            long j = base_slot_of(e->table, capacity);
            while (fresh[j].generation == h->base_generation) j = (j + 1) & (capacity - 1);
            fresh[j] = *e;
        }
        if (h->bases) cardlua__capped_alloc(h, h->bases, (size_t)h->base_capacity * sizeof(struct base_slot), 0);
        h->bases = fresh;
        h->base_capacity = capacity;
    }
    long j = base_slot_of(table, h->base_capacity);
    while (h->bases[j].generation == h->base_generation && h->bases[j].table != table)
        j = (j + 1) & (h->base_capacity - 1);
    if (h->bases[j].generation != h->base_generation) h->base_count++;
    // The same address again: the first table was collected during the call.
    h->bases[j].table = table;
    h->bases[j].generation = h->base_generation;
    memcpy(h->bases[j].base, b, sizeof h->bases[j].base);
}

/// The base geometry noted for the table at `table` during this call, into b.
static int find_base(const cardlua_host *h, const void *table, double b[4]) {
    if (h->base_capacity == 0) return 0;
    long j = base_slot_of(table, h->base_capacity);
    while (h->bases[j].generation == h->base_generation) {
        if (h->bases[j].table == table) {
            memcpy(b, h->bases[j].base, sizeof h->bases[j].base);
            return 1;
        }
        j = (j + 1) & (h->base_capacity - 1);
    }
    return 0;
}

/// The index path's part in upvalue `key` (EM_K_SECTION, …; t at an absolute index; as
/// `indexPath.section` in Lua: metamethods included) as an integer in *out; pushes it (for
/// the messages), sets *whole to whether it is a whole number (`type(v) == "number" and
/// math.tointeger(v)`) and returns its type. The key is the closure's copy: lua_getfield
/// would look its C text up in the string table first.
static int path_part(lua_State *L, int t, int key, lua_Integer *out, int *whole) {
    push_key(L, key);
    int type = lua_gettable(L, t);
    *whole = 0;
    if (type == LUA_TNUMBER) *out = lua_tointegerx(L, -1, whole);
    return type;
}

/// The layout's base geometry now for the item at the index path of the table at t
/// (section, and item or else row: whole numbers, as layoutAttributesForItem takes them;
/// a missing section is 0), into b; 0 when it has none.
static int base_for_path(lua_State *L, cardlua_host *h, int t, double b[4]) {
    int top = lua_gettop(L);
    int found = 0;
    push_key(L, EM_K_INDEX_PATH);
    if (lua_gettable(L, t) == LUA_TTABLE) {
        int P = lua_gettop(L);
        lua_Integer section = 0, item = 0;
        int wholeSection = 0, wholeItem = 0;
        if (path_part(L, P, EM_K_SECTION, &section, &wholeSection) == LUA_TNIL) wholeSection = 1;
        if (path_part(L, P, EM_K_ITEM, &item, &wholeItem) == LUA_TNIL) path_part(L, P, EM_K_ROW, &item, &wholeItem);
        double r[CARDLUA_IN_STRIDE];
        long sections = 0, items = -1;
        if (wholeSection && wholeItem && look_up(h, (long)section, (long)item, r, &sections, &items) == 1) {
            memcpy(b, r + 2, 4 * sizeof *b);
            found = 1;
        }
    }
    lua_settop(L, top);
    return found;
}

/// Pushes an item's base attributes as the layout hands them out (elements.lua's
/// itemAttributes): indexPath, alpha 1, zIndex 0, hidden false; center, size and frame
/// made when first read (*Geometry on first read*), and no transform3D (the metatable
/// makes the identity when it is first read: most element queries assign their own).
static void push_item_attributes(lua_State *L, lua_Integer section, lua_Integer item, const double b[4], int checked) {
    cardlua__charge(L, ELEMENT_FEE);
    cardlua_host *h = host_of(L);
    // Room for the four keys below and the most the script set on such a table so far.
    lua_createtable(L, 0, h->element_keys > 8 ? h->element_keys : 8);
    note_base(L, h, lua_topointer(L, -1), b);
    push_key(L, EM_K_INDEX_PATH);
    push_index_path(L, section, item, checked);
    lua_rawset(L, -3);
    push_key(L, EM_K_ALPHA);
    lua_pushinteger(L, 1);
    lua_rawset(L, -3);
    push_key(L, EM_K_ZINDEX);
    lua_pushinteger(L, 0);
    lua_rawset(L, -3);
    push_key(L, EM_K_HIDDEN);
    lua_pushboolean(L, 0);
    lua_rawset(L, -3);
    set_metatable_if(L, EM_ATTRIBUTES, checked);
}

/// baseGeometry(attributes, key): the center, size or frame of one of the layout's tables,
/// made now from its base geometry and kept in it (so that `a.center.x = …` sticks);
/// nil for another key, or when the layout has no such item. BaseAttributes' __index.
static int base_geometry(lua_State *L) {
    static const int POINT_KEYS[2] = {EM_K_X, EM_K_Y};
    static const int SIZE_KEYS[2] = {EM_K_WIDTH, EM_K_HEIGHT};
    static const int RECT_KEYS[4] = {EM_K_X, EM_K_Y, EM_K_WIDTH, EM_K_HEIGHT};
    luaL_checktype(L, 1, LUA_TTABLE);  // reachable through getmetatable: any arguments
    size_t n = 0;
    const char *k = lua_tolstring(L, 2, &n);
    int which = k == NULL ? -1
              : (n == 6 && memcmp(k, "center", 6) == 0) ? 0
              : (n == 4 && memcmp(k, "size", 4) == 0) ? 1
              : (n == 5 && memcmp(k, "frame", 5) == 0) ? 2 : -1;
    if (which < 0) return 0;
    cardlua_host *h = host_of(L);
    double b[4];
    if (!find_base(h, lua_topointer(L, 1), b) && !base_for_path(L, h, 1, b)) return 0;
    double cx = b[0], cy = b[1], w = b[2], ht = b[3];
    cardlua__charge(L, 4);
    lua_settop(L, 2);
    if (which == 0) {
        const lua_Number center[2] = {cx, cy};
        push_value(L, EM_POINT, 2, POINT_KEYS, center);
    } else if (which == 1) {
        const lua_Number extent[2] = {w, ht};
        push_value(L, EM_SIZE, 2, SIZE_KEYS, extent);
    } else {
        const lua_Number frame[4] = {cx - w / 2, cy - ht / 2, w, ht};
        push_value(L, EM_RECT, 4, RECT_KEYS, frame);
    }
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_rawset(L, 1);
    return 1;
}

/// lua_settop(L, 3), for the functions that take their arguments as three: a call with two
/// (IndexPath(item, section); layout:layoutAttributesForItem(indexPath)) gets its third, a nil, pushed as
/// lua_settop would push it, for a fraction of its cost. The stack then stands as high as
/// lua_settop leaves it, so everything pushed, called or raised above it does so at the
/// same height (a metamethod's call may grow the stack: an allocation, charged).
static inline void three_arguments(lua_State *L) {
    int top = lua_gettop(L);
    if (top == 2) lua_pushnil(L);
    else if (top != 3) lua_settop(L, 3);
}

/// IndexPath(item, section): the prelude's constructor (geometry.lua's rules and
/// messages: numbers, whole, section 0 when absent, nothing more), without a Lua call
/// frame: an element query makes one per card.
static int make_index_path(lua_State *L) {
    three_arguments(L);
    int ok = lua_type(L, 1) == LUA_TNUMBER && (lua_isnil(L, 2) || lua_type(L, 2) == LUA_TNUMBER) && lua_isnil(L, 3);
    if (!ok) {
        if (lua_isnil(L, 2)) { lua_pushinteger(L, 0); lua_replace(L, 2); }  // `section == nil and 0`
        return cardlua__raise_arg_error(L, 3, lua_upvalueindex(EM_ARG_ERROR), "IndexPath", "item, section", "nn");
    }
    int whole_item = 0, whole_section = 1;
    lua_Integer item = lua_tointegerx(L, 1, &whole_item);
    lua_Integer section = lua_isnil(L, 2) ? 0 : lua_tointegerx(L, 2, &whole_section);
    if (!whole_item || !whole_section) {
        if (lua_isnil(L, 2)) { lua_pushinteger(L, 0); lua_replace(L, 2); }
        return luaL_error(L, "IndexPath: expected whole numbers (item %s, section %s)", luaL_tolstring(L, 1, NULL),
                          luaL_tolstring(L, 2, NULL));
    }
    cardlua__charge(L, 3);
    push_index_path(L, section, item, 0);
    return 1;
}

/// Pushes the item's base attributes when the layout has it (returns 1); otherwise
/// pushes nothing and returns look_up's 0 or -1 (*sections, *items say why).
static int push_item_if_found(lua_State *L, lua_Integer section, lua_Integer item, long *sections, long *items) {
    double b[CARDLUA_IN_STRIDE];
    int found = look_up(host_of(L), (long)section, (long)item, b, sections, items);
    if (found == 1) push_item_attributes(L, section, item, b + 2, 0);
    return found;
}

/// itemAttributes(section, item) → the item's base attributes (a new table), or nil, the
/// number of sections, the items in `section` (-1: no such section), or nil, -1 when the
/// host cannot look items up: native.item's answers, for layout:layoutAttributesForItem.
static int item_attributes(lua_State *L) {
    lua_Integer section = luaL_checkinteger(L, 1), item = luaL_checkinteger(L, 2);
    long sections = 0, items = -1;
    int found = push_item_if_found(L, section, item, &sections, &items);
    if (found == 1) return 1;
    lua_pushnil(L);
    lua_pushinteger(L, found < 0 ? -1 : (lua_Integer)sections);
    lua_pushinteger(L, (lua_Integer)items);
    return 3;
}

/// layout:layoutAttributesForItem(indexPath) (elements.lua's Lua version: the same checks,
/// in the same order, and the same messages at the caller's line): the item's base
/// attributes, on screen or not. In C because an element query asks for one per card.
static int layout_attributes_for_item(lua_State *L) {
    three_arguments(L);
    if (lua_type(L, 2) != LUA_TTABLE || !lua_isnil(L, 3)) {
        const char *got = !lua_isnil(L, 3) ? "more arguments" : lua_isnil(L, 2) ? "nothing" : NULL;
        if (got == NULL) lua_pushfstring(L, "a %s", luaL_typename(L, 2));
        return luaL_error(L, "layoutAttributesForItem: expected an IndexPath (IndexPath(item, section)), got %s",
                          got != NULL ? got : lua_tostring(L, -1));
    }
    lua_Integer section = 0, item = 0;
    int S = lua_gettop(L) + 1;
    int wholeSection = 0, wholeItem = 0;
    if (path_part(L, 2, EM_K_SECTION, &section, &wholeSection) == LUA_TNIL) {  // `if s == nil then s = 0 end`
        lua_pushinteger(L, 0);
        lua_replace(L, S);
        wholeSection = 1;
    }
    int I = S + 1;
    if (path_part(L, 2, EM_K_ITEM, &item, &wholeItem) == LUA_TNIL) {  // `if it == nil then it = indexPath.row end`
        lua_pop(L, 1);
        path_part(L, 2, EM_K_ROW, &item, &wholeItem);
    }
    if (!wholeSection || !wholeItem) {
        const char *st = luaL_tolstring(L, S, NULL);
        const char *it = luaL_tolstring(L, I, NULL);
        return luaL_error(L, "layoutAttributesForItem: the index path needs whole numbers (section %s, item %s)",
                          st, it);
    }
    long sections = 0, items = -1;
    int found = push_item_if_found(L, section, item, &sections, &items);
    if (found == 1) return 1;
    if (found < 0) return luaL_error(L, "layoutAttributesForItem: the host layout cannot look up single items");
    if (items < 0)
        return luaL_error(L, "layoutAttributesForItem: no item %I in section %I: the layout has %I %s", item, section,
                          (lua_Integer)sections, sections == 1 ? "section" : "sections");
    return luaL_error(L, "layoutAttributesForItem: no item %I in section %I (it has %I %s)", item, section,
                      (lua_Integer)items, items == 1 ? "item" : "items");
}

/// queryAttributes(x, y, width, height) → the base attributes of the items that meet the
/// rect, in the layout's order: layout:layoutAttributesForElements(rect) (the prelude
/// checks the rect), the same host query as native.query, tables built here.
static int query_attributes(lua_State *L) {
    // native.query's enumeration (its fees, limits and buffer), one table per item.
    long n = cardlua__query_items(L);
    const double *items = host_of(L)->query_buffer;  // nothing below runs a query again
    lua_createtable(L, (int)n, 0);
    for (long i = 0; i < n; i++) {
        const double *v = items + i * CARDLUA_IN_STRIDE;
        // The metatables are checked with the first table (a script could have given one
        // __gc); the others of this call need not be (set_metatable_if).
        push_item_attributes(L, (lua_Integer)v[0], (lua_Integer)v[1], v + 2, i > 0);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

/// native.elementMakers(IndexPathMT, BaseAttributes, Point, Size, Rect, argError) → a
/// table of IndexPath, itemAttributes, queryAttributes, layoutAttributesForItem and
/// baseGeometry (closures over the six); its array part lists IndexPath's row for the
/// prelude to define (cardlua__list_api, with its signature: integers, the section
/// optional). Called once, by the prelude (layout.lua). Their Lua reference:
/// Sources/CardLua/Lua/reference/elements.lua.
int cardlua__element_makers(lua_State *L) {
    for (int k = 1; k <= 5; k++) luaL_checktype(L, k, LUA_TTABLE);
    luaL_checktype(L, 6, LUA_TFUNCTION);
    lua_settop(L, 6);
    luaL_checkstack(L, EM_COUNT + 4, "elementMakers");
    static const struct { const char *name; lua_CFunction f; } MAKERS[] = {
        {"IndexPath", make_index_path}, {"itemAttributes", item_attributes}, {"queryAttributes", query_attributes},
        {"layoutAttributesForItem", layout_attributes_for_item}, {"baseGeometry", base_geometry},
    };
    int count = (int)(sizeof MAKERS / sizeof MAKERS[0]);
    lua_createtable(L, 1, count);
    for (int i = 0; i < count; i++) {
        for (int k = 1; k <= EM_ARGUMENTS; k++) lua_pushvalue(L, k);
        for (int k = 0; k < EM_COUNT - EM_ARGUMENTS; k++) lua_pushstring(L, EM_KEYS[k]);
        lua_pushcclosure(L, MAKERS[i].f, EM_COUNT);
        lua_setfield(L, -2, MAKERS[i].name);
    }
    cardlua__list_api(L, lua_gettop(L), "IndexPath", "item, section", "nn", "IndexPath",
                      "An item's index path (`IndexPath(item:section:)`), 0-based; section defaults to 0.");
    lua_rawgeti(L, -1, 1);
    lua_pushliteral(L, "fun(item: integer, section: integer?): IndexPath");
    lua_setfield(L, -2, "signature");
    lua_pop(L, 1);
    return 1;
}

/// The __newindex of the tables the layout hands out (the prelude's BaseAttributes;
/// reference/elements.lua has the same rule in Lua for the stock interpreter): `transform` and
/// `transform3D` replace each other, `isHidden` is `hidden`, everything is stored raw. In
/// C because an element query sets several absent keys per card (shadowOpacity,
/// isDoubleSided, …), each a metamethod call.
int cardlua__element_newindex(lua_State *L) {
    // Reachable through getmetatable: any arguments. The VM calls it with three, a table
    // first: luaL_checktype and lua_settop only when not (a call each, seven a card).
    if (lua_type(L, 1) != LUA_TTABLE) luaL_checktype(L, 1, LUA_TTABLE);
    if (lua_gettop(L) != 3) lua_settop(L, 3);
    if (lua_type(L, 2) == LUA_TSTRING) {
        size_t n = 0;
        const char *k = lua_tolstring(L, 2, &n);
        if ((n == 9 && memcmp(k, "transform", 9) == 0) || (n == 11 && memcmp(k, "transform3D", 11) == 0)) {
            lua_pushvalue(L, lua_upvalueindex(n == 11 ? 1 : 2));  // the other one
            lua_pushnil(L);
            lua_rawset(L, 1);
        } else if (n == 8 && memcmp(k, "isHidden", 8) == 0) {
            lua_pushvalue(L, lua_upvalueindex(3));
            lua_replace(L, 2);
        }
    }
    lua_rawset(L, 1);
    return 0;
}

/// Pushes the layout tables' __newindex (cardlua__element_newindex with the keys it
/// writes as upvalues: "transform", "transform3D", "hidden").
void cardlua__push_element_newindex(lua_State *L) {
    lua_pushliteral(L, "transform");
    lua_pushliteral(L, "transform3D");
    lua_pushliteral(L, "hidden");
    lua_pushcclosure(L, cardlua__element_newindex, 3);
}

/// A whole number at the top of the stack for indexPath.<name> of element i (popped
/// unless `keep`).
static long index_number_kept(lua_State *L, lua_Integer i, const char *name, int keep) {
    if (lua_type(L, -1) != LUA_TNUMBER)
        luaL_error(L, "element %I of the returned list: indexPath.%s is %s, expected a whole number", i, name,
                   lua_isnil(L, -1) ? "missing" : luaL_typename(L, -1));
    int whole = 0;
    lua_Integer v = lua_tointegerx(L, -1, &whole);
    if (!whole || v < 0 || v > 2147483647)
        luaL_error(L, "element %I of the returned list: indexPath.%s is %s, expected a whole number from 0 to 2147483647",
                   i, name, lua_tostring(L, -1));
    if (!keep) lua_pop(L, 1);
    return (long)v;
}

static long index_number(lua_State *L, lua_Integer i, const char *name) { return index_number_kept(L, i, name, 0); }

/// The bits set in v (a population count without a loop: a card's ten or so present keys
/// were ten turns of one).
static inline int bit_count(unsigned v) {
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (int)((((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

/// cardlua_layout_elements' record: the rect, and how many elements were read back.
typedef struct {
    cardlua_call call;
    double rect[4];              // x, y, width, height
    long count;                  // the records in host->elements; -1: the script has no query
} elements_call;

// MARK: - Reading back the returned list (the per-card hot path of an element query)

/// Where the read-back finds what it reads every card with: stack slots made once a
/// query (push_element_reader), above the list, besides the hot_slots (its keys table and
/// geometry keys; the value slots are each card's own). Its address stays in this file,
/// so that its fields stay in registers.
typedef struct {
    int seen;               /* a table: (section, item) → the element's place in the list */
    const void *layouts;    /* the layout's own tables' metatable (baseAttributes), by identity */
    int keys;               /* the K_ATTRIBUTES attribute keys, in slot order, from here */
    int path_keys;          /* "indexPath", "section", "item", "row", from here */
    int base;               /* the top before each card; its table goes at base + 1 */
} element_reader;

/// The length of the returned list at R, refused past CARDLUA_QUERY_MAX before anything
/// is read or allocated; charged, and room made for its records.
static lua_Integer returned_count(lua_State *L, cardlua_host *h, int R) {
    lua_Integer n = (lua_Integer)lua_rawlen(L, R);
    if (n > CARDLUA_QUERY_MAX) luaL_error(L, "returned %I elements; a frame shows at most %d", n, CARDLUA_QUERY_MAX);
    cardlua__charge(L, (long long)n * ELEMENT_FEE);
    cardlua__grow_records(L, h, &h->elements, &h->elements_capacity, (long)n, CARDLUA_ELEMENT_STRIDE, "elements");
    return n;
}

/// Pushes what the read-back of `n` elements reads with (element_reader and s), once a query.
static void push_element_reader(lua_State *L, cardlua_host *h, lua_Integer n, hot_slots *s, element_reader *r) {
    cardlua__push_slots(L, h, s);
    // Its value slots are not used: each card's values are pushed in key order just above
    // the card's table (below), where the slots' K_ATTRIBUTES dropped here make room. So
    // every height at which a card's reads may run a metamethod (and the stack may grow,
    // an allocation charged to the budget) or raise is what it was with the slots (and the
    // four geometry keys pushed below), and the luaL_checkstack calls ensure the room.
    lua_settop(L, s->keys);
    lua_createtable(L, 0, (int)n);
    r->seen = lua_gettop(L);
    // The layout's own tables: their __index only supplies the defaults the reader
    // assumes anyway, so their keys are read raw (no Lua call per absent key).
    cardlua__push_internal(L, h, "baseAttributes");
    r->layouts = lua_topointer(L, -1);  // tables are equal when they are the same
    // The keys the loop looks up, on the stack once a query: a copy of a slot is cheaper
    // per card than a read of the keys table, or a look-up of C text in the string table.
    luaL_checkstack(L, K_ATTRIBUTES + 8, "element keys");
    r->keys = lua_gettop(L) + 1;
    for (int k = 0; k < K_ATTRIBUTES; k++) lua_rawgeti(L, s->keys, k + 1);
    r->path_keys = lua_gettop(L) + 1;
    lua_pushliteral(L, "indexPath");
    lua_pushliteral(L, "section");
    lua_pushliteral(L, "item");
    lua_pushliteral(L, "row");
    cardlua__push_geometry_keys(L, s);
    r->base = lua_gettop(L);
}

/// Pushes element i of the list at R, at E (the reader's base + 1): a table, or an error.
static inline int push_element(lua_State *L, const element_reader *r, int R, lua_Integer i) {
    int E = r->base + 1;
    if (lua_rawgeti(L, R, i) != LUA_TTABLE)
        luaL_error(L, "element %I of the returned list is %s%s, expected attributes (a table from "
                      "layout:layoutAttributesForElements or layout:layoutAttributesForItem)",
                   i, lua_isnil(L, E) ? "" : "a ", lua_isnil(L, E) ? "nil" : luaL_typename(L, E));
    return E;
}

/// The index path of the element at E read raw: indexPath, its section and its item,
/// each pushed. A raw hit is what lua_gettable gives, and nothing runs (an error raised
/// here is the one read_index_path_slowly would raise; read_elements runs without a
/// message handler, so raising calls nothing either). Returns 0 when one is not there.
static inline int read_index_path_raw(lua_State *L, const element_reader *r, int E, lua_Integer i, long *section,
                                      long *item) {
    lua_pushvalue(L, r->path_keys);
    if (lua_rawget(L, E) != LUA_TTABLE) return 0;
    lua_pushvalue(L, r->path_keys + 1);
    if (lua_rawget(L, E + 1) == LUA_TNIL) return 0;
    *section = index_number_kept(L, i, "section", 1);
    lua_pushvalue(L, r->path_keys + 2);
    if (lua_rawget(L, E + 1) == LUA_TNIL) return 0;
    *item = index_number_kept(L, i, "item", 1);
    return 1;
}

/// The index path of the element at E as `indexPath.section` and `indexPath.item` (or
/// `.row`) read in Lua, metamethods included: from the start, with lua_gettable, at the
/// height the value slots leave the top (`filled`), as before them. A missing section is 0.
static void read_index_path_slowly(lua_State *L, const element_reader *r, int E, lua_Integer i, long *section,
                                   long *item) {
    const int filled = E + K_ATTRIBUTES;
    lua_settop(L, filled);
    lua_pushvalue(L, r->path_keys);
    if (lua_gettable(L, E) != LUA_TTABLE)
        luaL_error(L, "element %I of the returned list has %s as its indexPath, expected an IndexPath "
                      "(IndexPath(item, section))",
                   i, lua_isnil(L, -1) ? "nothing" : luaL_typename(L, -1));
    int P = lua_gettop(L);
    lua_pushvalue(L, r->path_keys + 1);
    *section = lua_gettable(L, P) == LUA_TNIL ? (lua_pop(L, 1), 0) : index_number(L, i, "section");
    lua_pushvalue(L, r->path_keys + 2);
    if (lua_gettable(L, P) == LUA_TNIL) {
        lua_pop(L, 1);
        lua_pushvalue(L, r->path_keys + 3);
        lua_gettable(L, P);
    }
    *item = index_number(L, i, "item");
    lua_settop(L, filled);
}

/// The layout's base record of the item (CARDLUA_IN_STRIDE numbers) into b; an error
/// when the layout has no such item, or cannot look single items up.
static inline void item_base(lua_State *L, cardlua_host *h, long section, long item, double *b) {
    long sections = 0, items = -1;
    int found = look_up(h, section, item, b, &sections, &items);
    if (found == 1) return;
    if (found < 0) luaL_error(L, "the host layout cannot look up single items");
    if (items < 0)
        luaL_error(L, "not in the layout: there is no section %I (the layout has %I section%s)",
                   (lua_Integer)section, (lua_Integer)sections, sections == 1 ? "" : "s");
    luaL_error(L, "not in the layout: section %I has %I item%s", (lua_Integer)section, (lua_Integer)items,
               items == 1 ? "" : "s");
}

/// Notes that element i is the item (section, item); an error if an earlier one was.
static inline void refuse_twice(lua_State *L, const element_reader *r, long section, long item, lua_Integer i) {
    lua_Integer key = (lua_Integer)section * ((lua_Integer)1 << 32) + (lua_Integer)item;
    if (lua_rawgeti(L, r->seen, key) == LUA_TNUMBER)
        luaL_error(L, "returned twice in section %I (elements %I and %I of the list)", (lua_Integer)section,
                   lua_tointeger(L, -1), i);
    lua_pushinteger(L, i);
    lua_rawseti(L, r->seen, key);  // (the nil read stays until the card's lua_settop: nothing runs)
}

/// Moves the attribute fields of the element at E into its value slots, E + 1 …
/// E + K_ATTRIBUTES (v->values; cardlua__read_fields reads those whose `present` bits are
/// set), raw or through its metatable (a table the script built may inherit them);
/// `isHidden` stands for `hidden`. *layouts says whether it is one of the layout's own
/// tables. Returns the present bits.
static inline unsigned take_element_fields(lua_State *L, const element_reader *r, const hot_slots *s, int E,
                                           hot_slots *v, int *layouts) {
    unsigned present = 0;
    int raw = 1;  // a table with no metatable is read raw too: nothing to run
    *layouts = 0;
    if (lua_getmetatable(L, E)) {
        *layouts = lua_topointer(L, -1) == r->layouts;
        raw = *layouts;
    }
    *v = *s;
    v->values = E + 1;
    if (raw) {
        // Nothing can run: the values are pushed into the slots in key order (no
        // lua_replace or pop per key).
        lua_settop(L, E);
        for (int k = 0; k < K_ATTRIBUTES; k++) {
            lua_pushvalue(L, r->keys + k);
            if (lua_rawget(L, E) != LUA_TNIL) present |= 1u << k;
        }
    } else {
        // Each look-up may run a metamethod, so it runs above the filled slots.
        lua_settop(L, E + K_ATTRIBUTES);
        for (int k = 0; k < K_ATTRIBUTES; k++) {
            if (cardlua__get_key(L, E, s, k) != LUA_TNIL) {
                lua_replace(L, v->values + k);
                present |= 1u << k;
            } else {
                lua_pop(L, 1);
            }
        }
    }
    if (!*layouts && !(present & (1u << K_HIDDEN))) {
        if (lua_getfield(L, E, "isHidden") != LUA_TNIL) {
            lua_replace(L, v->values + K_HIDDEN);
            present |= 1u << K_HIDDEN;
        } else {
            lua_pop(L, 1);
        }
    }
    return present;
}

/// For one of the layout's own tables: its center, size or frame when the script left
/// them out is the geometry it was made with (into the base record b: the same as the
/// item's unless the script changed its indexPath), and the most keys such a table held
/// sizes the tables made next (the contract's keys it holds and indexPath).
static inline void note_layout_table(lua_State *L, cardlua_host *h, int E, unsigned present, double *b) {
    find_base(h, lua_topointer(L, E), b + 2);
    int keys = 1 + bit_count(present);
    if (keys > h->element_keys) h->element_keys = keys;
}

/// Reads element i of the list at R into its record: its index path, the layout's base
/// for that item, then its fields, validated.
static inline void read_element(lua_State *L, cardlua_host *h, elements_call *e, const element_reader *r,
                                const hot_slots *s, int R, lua_Integer i) {
    e->call.has_item = 0;
    int E = push_element(L, r, R, i);
    long section = 0, item = 0;
    if (!read_index_path_raw(L, r, E, i, &section, &item)) read_index_path_slowly(L, r, E, i, &section, &item);
    e->call.item_number = item;
    e->call.has_item = 1;
    double b[CARDLUA_IN_STRIDE];
    item_base(L, h, section, item, b);
    refuse_twice(L, r, section, item, i);
    hot_slots v;
    int layouts;
    unsigned present = take_element_fields(L, r, s, E, &v, &layouts);
    if (layouts) note_layout_table(L, h, E, present, b);
    double *record = h->elements + (i - 1) * CARDLUA_ELEMENT_STRIDE;
    record[0] = (double)section;
    record[1] = (double)item;
    cardlua__read_fields(L, h, &v, present, b, NULL, record + 2);
    record[2 + CARDLUA_OUT_CHANGED] = 1;
    if (h->check_mode) cardlua__note_unknown_keys(L, h, E);
    lua_settop(L, r->base);
}

/// Reads the returned list (argument 1) into the host's records, their number into the
/// call's record (argument 2): run under a nested lua_pcall by body_elements, so that an
/// error here is reported at the script's `return` line (found afterwards by calling the
/// callback once more).
static int read_elements(lua_State *L) {
    elements_call *e = (elements_call *)lua_touserdata(L, 2);
    lua_settop(L, 1);
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    const int R = 1;
    lua_Integer n = returned_count(L, h, R);
    hot_slots s;
    element_reader r;
    push_element_reader(L, h, n, &s, &r);
    for (lua_Integer i = 1; i <= n; i++) read_element(L, h, e, &r, &s, R, i);
    e->call.has_item = 0;
    e->count = (long)n;
    return 0;
}

CARDLUA_BODY(body_elements, elements_call)

static int body_elements(lua_State *L, elements_call *e) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    cardlua__apply_state(L, h);
    e->call.callback = ELEMENTS_CALLBACK;
    if (!cardlua__push_callback(L, h, ELEMENTS_CALLBACK)) {
        e->count = -1;
        return 0;
    }
    int F = lua_gettop(L);
    // The rect (in e->rect, as the host gave it), a fresh CGRect: the script may
    // change its copy.
    cardlua__push_internal(L, h, "rect");
    for (int k = 0; k < 4; k++) lua_pushnumber(L, e->rect[k]);
    lua_call(L, 4, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_layout);
    // F, rect, layout stay for a return-line probe (cardlua__note_return_line); the call gets copies.
    lua_pushvalue(L, F);
    lua_pushvalue(L, F + 1);
    lua_pushvalue(L, F + 2);
    lua_call(L, 2, 1);
    int R = lua_gettop(L);
    // The read-back's checks and the metamethods they may run get a budget of their own.
    cardlua__reset_budget(h);
    if (!lua_istable(L, R)) {
        int t = lua_type(L, R);
        cardlua__note_return_line(L, h, F);
        return luaL_error(L, "returned %s; expected a list of attributes (the array built from "
                             "layout:layoutAttributesForElements(rect): return it)",
                          t == LUA_TNIL ? "nothing" : luaL_typename(L, R));
    }
    lua_pushcfunction(L, read_elements);
    lua_pushvalue(L, R);
    lua_pushlightuserdata(L, e);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
        // A limit stays a limit (raised again here); any other error is the script's
        // list: reported at its `return`.
        if (h->budget_exhausted || cardlua__memory_given_up(h)) cardlua__charge(L, 0);
        cardlua__note_return_line(L, h, F);
        return lua_error(L);
    }
    return 0;
}

const double *cardlua_layout_elements(cardlua_host *h, const double *state, double x, double y,
                                      double width, double height, long *count, int *status) {
    if (count) *count = 0;
    if (status) *status = CARDLUA_ERROR;
    REFUSE_REENTRY(h, NULL);
    elements_call e = {.call = {.state = state, .callback = ELEMENTS_CALLBACK, .callback_line = 1},
                       .rect = {x, y, width, height}};
    int s = run_body_elements(h, &e);
    if (status) *status = s;
    if (s != CARDLUA_OK) {
        if (count) *count = 0;
        return NULL;
    }
    if (count) *count = e.count;
    return e.count > 0 ? h->elements : NULL;
}
