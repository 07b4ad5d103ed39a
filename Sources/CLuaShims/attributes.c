// Attribute I/O: the per-item hot path (BENCHMARKS.md) in one translation unit: the
// attributes proxy, reading back what a transform call left, the layout query, and
// cardlua_transform. See README.md in this folder.
#include "CLuaShims.h"
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

void cardlua__push_internal(lua_State *L, cardlua_host *h, const char *name) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_internals);
    lua_getfield(L, -1, name);
    lua_remove(L, -2);
}

/// Raw t[key] for a string key, pushed; returns its type.
static int raw_get(lua_State *L, int table, const char *key) {
    lua_pushstring(L, key);
    return lua_rawget(L, table);
}

/// Pushes the state numbers to I.setState, which updates layout and collectionView.
void cardlua__apply_state(lua_State *L, cardlua_host *h) {
    if (h->ref_set_state <= 0) {  // once: every frame calls it
        cardlua__push_internal(L, h, "setState");
        h->ref_set_state = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_set_state);
    for (int i = 0; i < CARDLUA_STATE_TRACKING; i++) lua_pushnumber(L, h->call->state[i]);
    for (int i = CARDLUA_STATE_TRACKING; i < CARDLUA_STATE_COUNT; i++) lua_pushboolean(L, h->call->state[i] != 0);
    lua_call(L, CARDLUA_STATE_COUNT, 0);
}

/// Pushes the global callback `name`; returns 1 if it is a function, 0 if nil, and
/// raises if it is something else.
int cardlua__push_callback(lua_State *L, cardlua_host *h, const char *name) {
    // Raw: whatever the script did to _G's metatable, finding its callbacks runs no code.
    lua_pushglobaltable(L);
    lua_pushstring(L, name);
    int t = lua_rawget(L, -2);
    lua_remove(L, -2);
    if (t == LUA_TFUNCTION) {
        // The line it is defined on, for messages. Cached by identity (every frame asks):
        // the cached function is kept in the registry, so its address cannot be reused.
        const void *f = lua_topointer(L, -1);
        if (f != h->line_cache_function || h->ref_line_cache <= 0) {
            lua_Debug ar;
            lua_pushvalue(L, -1);
            if (!lua_getinfo(L, ">S", &ar)) return 1;
            lua_pushvalue(L, -1);
            if (h->ref_line_cache <= 0) h->ref_line_cache = luaL_ref(L, LUA_REGISTRYINDEX);
            else lua_rawseti(L, LUA_REGISTRYINDEX, h->ref_line_cache);
            h->line_cache_function = f;
            h->line_cache_line = ar.linedefined;
        }
        h->call->callback_line = h->line_cache_line;
        return 1;
    }
    if (t != LUA_TNIL) luaL_error(L, "%s is a %s; expected a function", name, luaL_typename(L, -1));
    return 0;
}

/// The attributes pool tables (the prelude's I.pool), in the order of the proxy's upvalues.
static const char *const POOL_NAMES[4] = {"center", "frame", "size", "indexPath"};

// MARK: - What a transform call left in `attributes` (the per-item hot path, BENCHMARKS.md)

// After each call the values of the contract's keys move into fixed stack slots and the
// table is emptied: the keys the proxy's metamethods put in are taken by look-up
// (take_touched), and one lua_next tells whether anything else is left, which a
// traversal takes (take_fields; check mode always traverses). An item that touched
// nothing costs a single lua_next. Keys are recognised by identity: short strings are
// interned, so the pointer lua_tostring gives for a key is that of the one string object
// with its text (the host's copies are kept alive in the registry).
// The K_… enum is in internal.h (elements.c reads the same keys).
const char *const cardlua__slot_keys[K_COUNT] = {
    "frame", "size", "center", "transform3D", "transform", "alpha", "zIndex", "hidden",
    "isDoubleSided", "cornerRadius", "shadowOpacity", "shadowRadius", "shadowOffset",
    "backgroundColor", "blurRadius",
    "m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24",
    "m31", "m32", "m33", "m34", "m41", "m42", "m43", "m44",
    "a", "b", "c", "d", "tx", "ty", "x", "y", "width", "height"};

/// Pushes the keys table (made once, anchored in the registry) and reserves the value
/// slots (hot_slots, internal.h: where the read-back keeps the keys and the values).
void cardlua__push_slots(lua_State *L, cardlua_host *h, hot_slots *s) {
    luaL_checkstack(L, K_ATTRIBUTES + 40, "attribute slots");  // + a transform read back
    if (h->ref_keys <= 0) {
        lua_createtable(L, K_COUNT, 0);
        for (int k = 0; k < K_COUNT; k++) {
            const char *name = lua_pushstring(L, cardlua__slot_keys[k]);
            if (k < K_ATTRIBUTES) h->key_names[k] = name;
            lua_rawseti(L, -2, k + 1);
        }
        h->ref_keys = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_keys);
    s->keys = lua_gettop(L);
    s->names = h->key_names;
    s->values = s->keys + 1;
    s->geometry = 0;
    lua_settop(L, s->values + K_ATTRIBUTES - 1);
}

/// Pushes the keys x, y, width and height on top, for cardlua__get_key to copy: the
/// geometry's fields are most of what the read-back looks up (a copy of a stack slot is
/// cheaper than a read of the keys table). Once a call, where it reads many items.
void cardlua__push_geometry_keys(lua_State *L, hot_slots *s) {
    luaL_checkstack(L, 4, "attribute keys");
    s->geometry = lua_gettop(L) + 1;
    for (int k = K_X; k <= K_HEIGHT; k++) lua_rawgeti(L, s->keys, k + 1);
}

static inline void push_key(lua_State *L, const hot_slots *s, int key) {
    if (s->geometry > 0 && key >= K_X && key <= K_HEIGHT) lua_pushvalue(L, s->geometry + key - K_X);
    else lua_rawgeti(L, s->keys, key + 1);
}

/// Pushes t[key] for key number `key` (raw first; metamethods for a key the table does
/// not hold itself: this runs protected) and returns its type.
int cardlua__get_key(lua_State *L, int table, const hot_slots *s, int key) {
    push_key(L, s, key);
    int t = lua_rawget(L, table);
    if (t != LUA_TNIL) return t;
    lua_pop(L, 1);
    push_key(L, s, key);
    return lua_gettable(L, table);
}

/// v (field `key` of `what`) when it is finite and within the magnitude allowed.
/// The fix a zIndex error suggests: for a finite number with a fraction, within the range
/// (the usual mistake, a zIndex computed by division), how to make it whole.
static const char *zindex_hint(lua_State *L, int index) {
    if (lua_type(L, index) != LUA_TNUMBER || lua_isinteger(L, index)) return "";
    lua_Number v = lua_tonumber(L, index);
    if (v != v || v < -2147483648.0 || v > 2147483647.0) return "";
    return "; use math.floor(…) to make it one";
}

static double checked_number(lua_State *L, double v, int key, const char *what) {
    if (v != v || v - v != 0) {
        cardlua__note_field(host_of(L), what);
        luaL_error(L, "%s.%s is %s", what, cardlua__slot_keys[key], v != v ? "NaN" : "infinite");
    }
    if (v > MAX_MAGNITUDE || v < -MAX_MAGNITUDE)
        luaL_error(L, "%s.%s is %f, beyond the largest magnitude allowed (1e15)", what, cardlua__slot_keys[key],
                   (lua_Number)v);
    return v;
}

/// Whether every one of the n numbers is finite and within MAX_MAGNITUDE (what
/// checked_number accepts), without a call per number: the hot path's test.
static inline int all_in_range(const double *v, int n) {
    int ok = 1;
    for (int k = 0; k < n; k++) ok &= (v[k] <= MAX_MAGNITUDE) & (v[k] >= -MAX_MAGNITUDE);
    return ok;
}

/// t[key] as a finite number. The value is left on the stack: callers reset the top once
/// after a group of fields.
static double field_number(lua_State *L, int table, const hot_slots *s, int key, const char *what) {
    int t = cardlua__get_key(L, table, s, key);
    if (t == LUA_TNUMBER) {  // the common case, with all_in_range's one test
        double v = lua_tonumberx(L, -1, NULL);
        if (all_in_range(&v, 1)) return v;
    }
    if (t != LUA_TNUMBER)
        luaL_error(L, "%s.%s is %s, expected a number", what, cardlua__slot_keys[key],
                   t == LUA_TNIL ? "missing" : luaL_typename(L, -1));
    return checked_number(L, lua_tonumberx(L, -1, NULL), key, what);
}

/// Reads a CATransform3D (16 fields) or a CGAffineTransform (6 fields) at `index`
/// into m: one of the values the transform math makes (transform_math.c), or a table
/// with those fields. Returns 0 when the value is neither.
static int read_transform(lua_State *L, int index, const hot_slots *s, const char *what, double *m) {
    index = lua_absindex(L, index);
    double f[16];
    int n = cardlua__transform_value(L, index, f);
    if (n == 16) {
        // One test for all 16 (NaN fails every comparison); checked_number only to word
        // the error of a bad one.
        if (!all_in_range(f, 16))
            for (int k = 0; k < 16; k++) checked_number(L, f[k], K_M11 + k, what);
        memcpy(m, f, sizeof f);
        return 1;
    }
    if (n == 6) {
        if (!all_in_range(f, 6))
            for (int k = 0; k < 6; k++) checked_number(L, f[k], K_A + k, what);
        for (int k = 0; k < 16; k++) m[k] = (k % 5 == 0) ? 1 : 0;
        m[0] = f[0]; m[1] = f[1]; m[4] = f[2]; m[5] = f[3]; m[12] = f[4]; m[13] = f[5];
        return 1;
    }
    if (lua_type(L, index) != LUA_TTABLE) return 0;
    int top = lua_gettop(L);
    int is3d = cardlua__get_key(L, index, s, K_M11) != LUA_TNIL;
    lua_settop(L, top);
    if (is3d) {
        for (int k = 0; k < 16; k++) m[k] = field_number(L, index, s, K_M11 + k, what);
        lua_settop(L, top);
        return 1;
    }
    int isAffine = cardlua__get_key(L, index, s, K_A) != LUA_TNIL;
    lua_settop(L, top);
    if (!isAffine) return 0;
    double a = field_number(L, index, s, K_A, what), b = field_number(L, index, s, K_B, what);
    double c = field_number(L, index, s, K_C, what), d = field_number(L, index, s, K_D, what);
    double tx = field_number(L, index, s, K_TX, what), ty = field_number(L, index, s, K_TY, what);
    lua_settop(L, top);
    for (int k = 0; k < 16; k++) m[k] = (k % 5 == 0) ? 1 : 0;
    m[0] = a; m[1] = b; m[4] = c; m[5] = d; m[12] = tx; m[13] = ty;
    return 1;
}

// MARK: - A transform call's record

/// cardlua_transform's record: the items, their starting attributes, the output, and the
/// item in hand (the attributes proxy reads it through the common part's `transform`).
struct transform_call {
    cardlua_call call;
    const double *input;         // CARDLUA_IN_STRIDE numbers per item
    const double *starts;        // CARDLUA_OUT_STRIDE per item, or NULL: the defaults
    double *output;              // CARDLUA_OUT_STRIDE per item
    long count;
    long item_index;             // the item in hand, in `input` (-1: none)
    // The keys the attributes proxy itself put into `attributes` during the item in hand
    // (bit k: cardlua__slot_keys[k]; then TOUCHED_INDEX_PATH, TOUCHED_OTHER), so that the
    // read-back takes them by look-up (take_touched).
    unsigned touched;
    int callback_slot;           // the stack slot of transform (its arguments follow), or 0: none
};

// MARK: - The attributes proxy (a reused table; reads of absent keys come here)

/// The base record of the item in hand, or NULL outside a transform call's item. (The
/// proxy runs only inside a call: host->call is set.)
static const double *current_input(cardlua_host *h) {
    const transform_call *t = h->call->transform;
    if (t == NULL || t->input == NULL || t->item_index < 0 || t->item_index >= t->count) return NULL;
    return t->input + t->item_index * CARDLUA_IN_STRIDE;
}

/// The item's starting attributes (cardlua_transform_from), or NULL: the defaults.
static const double *current_start(cardlua_host *h) {
    const transform_call *t = h->call->transform;
    if (t == NULL || t->starts == NULL || t->item_index < 0 || t->item_index >= t->count) return NULL;
    return t->starts + t->item_index * CARDLUA_OUT_STRIDE;
}

/// Whether a start's transform is the identity.
static int start_is_identity(const double *st) {
    for (int k = 0; k < 16; k++)
        if (st[CARDLUA_OUT_M11 + k] != ((k % 5 == 0) ? 1 : 0)) return 0;
    return 1;
}

/// Pushes a CATransform3D made from a start's transform (the prelude's I.matrix).
static void push_start_matrix(lua_State *L, cardlua_host *h, const double *st) {
    cardlua__push_internal(L, h, "matrix");
    for (int k = 0; k < 16; k++) lua_pushnumber(L, st[CARDLUA_OUT_M11 + k]);
    lua_call(L, 16, 1);
}

/// Notes keys the proxy put into `attributes` (transform_call.touched).
static inline void touch(cardlua_host *h, unsigned bits) {
    if (h->call != NULL && h->call->transform != NULL) h->call->transform->touched |= bits;
}

/// attributes.<key> for the facing and appearance keys: the start's value, or the default.
/// Returns the number of values pushed (0: not one of them).
static int index_extra(lua_State *L, cardlua_host *h, const char *k) {
    const double *st = current_start(h);
    int has = st != NULL && st[CARDLUA_OUT_EXTRAS] != 0;
    int app = has && st[CARDLUA_OUT_APPEARANCE] != 0;
    if (strcmp(k, "isDoubleSided") == 0) { lua_pushboolean(L, has ? st[CARDLUA_OUT_DOUBLE_SIDED] != 0 : 1); return 1; }
    if (strcmp(k, "cornerRadius") == 0) { lua_pushnumber(L, app ? st[CARDLUA_OUT_CORNER_RADIUS] : 0); return 1; }
    if (strcmp(k, "shadowOpacity") == 0) { lua_pushnumber(L, app ? st[CARDLUA_OUT_SHADOW_OPACITY] : 0); return 1; }
    if (strcmp(k, "shadowRadius") == 0) { lua_pushnumber(L, app ? st[CARDLUA_OUT_SHADOW_RADIUS] : 3); return 1; }
    if (strcmp(k, "blurRadius") == 0) { lua_pushnumber(L, app ? st[CARDLUA_OUT_BLUR_RADIUS] : 0); return 1; }
    if (strcmp(k, "backgroundColor") == 0) {
        double c = app ? st[CARDLUA_OUT_BACKGROUND] : -1;
        if (c < 0) return 0;
        char text[8];
        snprintf(text, sizeof text, "#%06lx", (unsigned long)c & 0xFFFFFFUL);
        lua_pushstring(L, text);
        return 1;
    }
    if (strcmp(k, "shadowOffset") == 0) {
        // Kept in the table, so that `attributes.shadowOffset.height = 4` sticks.
        cardlua__push_internal(L, h, "size");
        lua_pushnumber(L, app ? st[CARDLUA_OUT_SHADOW_OFFSET_W] : 0);
        lua_pushnumber(L, app ? st[CARDLUA_OUT_SHADOW_OFFSET_H] : -3);
        lua_call(L, 2, 1);
        lua_pushstring(L, "shadowOffset");
        lua_pushvalue(L, -2);
        lua_rawset(L, 1);
        touch(h, 1u << K_SHADOW_OFFSET);
        return 1;
    }
    return 0;
}

// The proxy's upvalues (cardlua__push_attributes_proxy): the field names it writes into
// the nested tables, then those tables themselves, fetched from the pool on first use:
// an upvalue is a copy, where a key pushed from C text is a string-table look-up and a
// pool table a registry read.
enum { UP_X = 1, UP_Y, UP_WIDTH, UP_HEIGHT, UP_SECTION, UP_ITEM, UP_ROW, UP_POOL, UP_COUNT = UP_POOL + 4 };
static const char *const PROXY_KEYS[UP_POOL - 1] = {"x", "y", "width", "height", "section", "item", "row"};

/// t[upvalue key] = v, raw (t an absolute index).
static void set_up_number(lua_State *L, int t, int key, double v) {
    lua_pushvalue(L, lua_upvalueindex(key));
    lua_pushnumber(L, v);
    lua_rawset(L, t);
}
static void set_up_integer(lua_State *L, int t, int key, lua_Integer v) {
    lua_pushvalue(L, lua_upvalueindex(key));
    lua_pushinteger(L, v);
    lua_rawset(L, t);
}

/// The pool table attributes.<k> is (POOL_NAMES order: center, frame, size,
/// indexPath), or -1 for another key.
static inline int pool_of(const char *k, size_t n) {
    if (n == 6 && memcmp(k, "center", 6) == 0) return 0;
    if (n == 5 && memcmp(k, "frame", 5) == 0) return 1;
    if (n == 4 && memcmp(k, "size", 4) == 0) return 2;
    if (n == 9 && memcmp(k, "indexPath", 9) == 0) return 3;
    return -1;
}

/// Pushes the pool's table `pool` (an upvalue, fetched from the prelude's pool on first
/// use) and returns its index; the proxy's arguments stay below it.
static inline int push_pool_table(lua_State *L, cardlua_host *h, int pool) {
    if (lua_type(L, lua_upvalueindex(UP_POOL + pool)) != LUA_TTABLE) {
        cardlua__push_internal(L, h, "pool");
        lua_getfield(L, -1, POOL_NAMES[pool]);
        lua_copy(L, -1, lua_upvalueindex(UP_POOL + pool));
        lua_settop(L, 2);
    }
    lua_pushvalue(L, lua_upvalueindex(UP_POOL + pool));
    return lua_gettop(L);
}

/// Sets the fields of the pool's table at t from the item's base record b: the centre,
/// the frame (centre ∓ half size), the size or the index path.
static inline void fill_pool_table(lua_State *L, int t, int pool, const double *b) {
    if (pool == 0) {
        set_up_number(L, t, UP_X, b[2]);
        set_up_number(L, t, UP_Y, b[3]);
    } else if (pool == 1) {
        set_up_number(L, t, UP_X, b[2] - b[4] / 2);
        set_up_number(L, t, UP_Y, b[3] - b[5] / 2);
        set_up_number(L, t, UP_WIDTH, b[4]);
        set_up_number(L, t, UP_HEIGHT, b[5]);
    } else if (pool == 2) {
        set_up_number(L, t, UP_WIDTH, b[4]);
        set_up_number(L, t, UP_HEIGHT, b[5]);
    } else {
        set_up_integer(L, t, UP_SECTION, (lua_Integer)b[0]);
        set_up_integer(L, t, UP_ITEM, (lua_Integer)b[1]);
        set_up_integer(L, t, UP_ROW, (lua_Integer)b[1]);
    }
}

/// attributes.center, .frame, .size or .indexPath: the pool's table with the item's base
/// values, kept in `attributes` (so that `attributes.center.x = …` is seen afterwards).
static inline int index_pool(lua_State *L, cardlua_host *h, int pool, const double *b) {
    int t = push_pool_table(L, h, pool);
    fill_pool_table(L, t, pool, b);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, t);
    lua_rawset(L, 1);
    touch(h, pool == 0 ? 1u << K_CENTER : pool == 1 ? 1u << K_FRAME : pool == 2 ? 1u << K_SIZE : TOUCHED_INDEX_PATH);
    return 1;
}

/// attributes.hidden, or attributes.isHidden (`hidden` when the script set it).
static int index_hidden(lua_State *L, const double *st, const char *k) {
    if (strcmp(k, "isHidden") == 0 && raw_get(L, 1, "hidden") != LUA_TNIL) return 1;
    lua_pushboolean(L, st ? st[CARDLUA_OUT_HIDDEN] != 0 : 0);
    return 1;
}

/// attributes.bounds: a fresh CGRect at the origin, of the base size.
static int index_bounds(lua_State *L, cardlua_host *h, const double *b) {
    cardlua__push_internal(L, h, "rect");
    lua_pushnumber(L, 0);
    lua_pushnumber(L, 0);
    lua_pushnumber(L, b[4]);
    lua_pushnumber(L, b[5]);
    lua_call(L, 4, 1);
    return 1;
}

/// attributes.transform3D: the embedding of an affine transform set earlier (which it
/// replaces), the start's, or a fresh identity; kept, so that
/// `attributes.transform3D.m34 = …` sticks.
static int index_transform3d(lua_State *L, cardlua_host *h, const double *st) {
    if (raw_get(L, 1, "transform") != LUA_TNIL) {
        cardlua__push_internal(L, h, "affineTo3D");
        lua_insert(L, -2);
        lua_call(L, 1, 1);
        lua_pushstring(L, "transform");
        lua_pushnil(L);
        lua_rawset(L, 1);
    } else if (st && !start_is_identity(st)) {
        lua_pop(L, 1);
        push_start_matrix(L, h, st);
    } else {
        lua_pop(L, 1);
        cardlua__push_internal(L, h, "identity3D");
        lua_call(L, 0, 1);
    }
    lua_pushstring(L, "transform3D");
    lua_pushvalue(L, -2);
    lua_rawset(L, 1);
    touch(h, 1u << K_TRANSFORM3D);
    return 1;
}

/// attributes.transform: the affine part of transform3D (a copy) or of the start's, or
/// a fresh identity, which is kept (as transform3D's is), so that
/// `attributes.transform.a = …` sticks as in Swift.
static int index_affine_transform(lua_State *L, cardlua_host *h, const double *st) {
    if (raw_get(L, 1, "transform3D") != LUA_TNIL) {
        cardlua__push_internal(L, h, "affineFrom3D");
        lua_insert(L, -2);
        lua_call(L, 1, 1);
    } else if (st && !start_is_identity(st)) {
        lua_pop(L, 1);
        cardlua__push_internal(L, h, "affineFrom3D");
        push_start_matrix(L, h, st);
        lua_call(L, 1, 1);
    } else {
        lua_pop(L, 1);
        cardlua__push_internal(L, h, "identityAffine");
        lua_call(L, 0, 1);
        lua_pushstring(L, "transform");
        lua_pushvalue(L, -2);
        lua_rawset(L, 1);
        touch(h, 1u << K_TRANSFORM);
    }
    return 1;
}

/// attributes.<key> for a key not yet set in this call: the base value. Nested tables
/// (center, frame, size, indexPath) come from a pool and are cached in the table so
/// that in-place edits (`attributes.center.x = …`) are seen afterwards.
int cardlua__attributes_index(lua_State *L) {
    cardlua_host *h = host_of(L);
    const double *b = current_input(h);
    if (b == NULL || lua_type(L, 2) != LUA_TSTRING) return 0;
    size_t n = 0;
    const char *k = lua_tolstring(L, 2, &n);
    int pool = pool_of(k, n);
    if (pool >= 0) return index_pool(L, h, pool, b);
    const double *st = current_start(h);
    if (strcmp(k, "alpha") == 0) {
        lua_pushnumber(L, st ? st[CARDLUA_OUT_ALPHA] : 1);
        return 1;
    }
    if (strcmp(k, "zIndex") == 0) {
        lua_pushinteger(L, st ? (lua_Integer)st[CARDLUA_OUT_ZINDEX] : 0);
        return 1;
    }
    if (strcmp(k, "hidden") == 0 || strcmp(k, "isHidden") == 0) return index_hidden(L, st, k);
    if (strcmp(k, "bounds") == 0) return index_bounds(L, h, b);
    if (strcmp(k, "transform3D") == 0) return index_transform3d(L, h, st);
    if (strcmp(k, "transform") == 0) return index_affine_transform(L, h, st);
    return index_extra(L, h, k);
}

// MARK: - Facing and appearance (contract v2)

/// The extras in the order of the output slots CARDLUA_OUT_DOUBLE_SIDED…BLUR_RADIUS.
#define EXTRA_COUNT (CARDLUA_OUT_BLUR_RADIUS - CARDLUA_OUT_DOUBLE_SIDED + 1)
/// Double sided, no appearance; CALayer's defaults (shadow radius 3, offset (0, -3)).
static const double DEFAULT_EXTRAS[EXTRA_COUNT] = {1, 0, 0, 0, 3, 0, -3, -1, 0};
#define EXTRA(e, slot) ((e)[CARDLUA_OUT_##slot - CARDLUA_OUT_DOUBLE_SIDED])

/// A finite number at `v` for attributes.<name>, from `lo` (0) up to `hi`.
static double extra_number(lua_State *L, int v, const char *name, double hi) {
    if (lua_type(L, v) != LUA_TNUMBER)
        luaL_error(L, "attributes.%s is a %s, expected a number", name, luaL_typename(L, v));
    double x = lua_tonumberx(L, v, NULL);
    if (x != x || x - x != 0) {
        char path[64];
        snprintf(path, sizeof path, "attributes.%s", name);
        cardlua__note_field(host_of(L), path);
        luaL_error(L, "attributes.%s is %s", name, x != x ? "NaN" : "infinite");
    }
    if (x >= 0 && x <= hi) return x;
    // The value as the script wrote it (-1, not -1.0).
    const char *shown = luaL_tolstring(L, v, NULL);
    if (hi == 1) luaL_error(L, "attributes.%s is %s, expected a number from 0 to 1", name, shown);
    if (x < 0) luaL_error(L, "attributes.%s is %s, expected zero or more", name, shown);
    luaL_error(L, "attributes.%s is %s, beyond the largest magnitude allowed (1e15)", name, shown);
    return x;
}

/// The value at `v` for extra key `key` (K_DOUBLE_SIDED…K_BLUR_RADIUS), validated, into
/// e (EXTRA_COUNT slots). `s` is needed only for shadowOffset (a CGSize's fields).
static void read_extra(lua_State *L, int key, int v, const hot_slots *s, double *e) {
    const char *name = cardlua__slot_keys[key];
    switch (key) {
    case K_DOUBLE_SIDED:
        if (lua_type(L, v) != LUA_TBOOLEAN)
            luaL_error(L, "attributes.isDoubleSided is a %s, expected a boolean", luaL_typename(L, v));
        EXTRA(e, DOUBLE_SIDED) = lua_toboolean(L, v) ? 1 : 0;
        break;
    case K_CORNER_RADIUS: EXTRA(e, CORNER_RADIUS) = extra_number(L, v, name, MAX_MAGNITUDE); break;
    case K_SHADOW_OPACITY: EXTRA(e, SHADOW_OPACITY) = extra_number(L, v, name, 1); break;
    case K_SHADOW_RADIUS: EXTRA(e, SHADOW_RADIUS) = extra_number(L, v, name, MAX_MAGNITUDE); break;
    case K_BLUR_RADIUS: EXTRA(e, BLUR_RADIUS) = extra_number(L, v, name, MAX_MAGNITUDE); break;
    case K_SHADOW_OFFSET:
        if (!lua_istable(L, v)) luaL_error(L, "attributes.shadowOffset is a %s, expected a CGSize", luaL_typename(L, v));
        EXTRA(e, SHADOW_OFFSET_W) = field_number(L, v, s, K_WIDTH, "attributes.shadowOffset");
        EXTRA(e, SHADOW_OFFSET_H) = field_number(L, v, s, K_HEIGHT, "attributes.shadowOffset");
        break;
    case K_BACKGROUND: {
        if (lua_type(L, v) != LUA_TSTRING)
            luaL_error(L, "attributes.backgroundColor is a %s, expected a colour string \"#rrggbb\"", luaL_typename(L, v));
        size_t n = 0;
        const char *c = lua_tolstring(L, v, &n);
        unsigned long rgb = 0;
        int ok = n == 7 && c[0] == '#';
        for (size_t i = 1; ok && i < 7; i++) {
            int d = isdigit((unsigned char)c[i]) ? c[i] - '0'
                  : (c[i] >= 'a' && c[i] <= 'f') ? c[i] - 'a' + 10
                  : (c[i] >= 'A' && c[i] <= 'F') ? c[i] - 'A' + 10 : -1;
            if (d < 0) ok = 0; else rgb = rgb * 16 + (unsigned long)d;
        }
        if (!ok) {
            if (n <= 32) luaL_error(L, "attributes.backgroundColor is \"%s\", expected a colour \"#rrggbb\" (six hex digits)", c);
            luaL_error(L, "attributes.backgroundColor is a string of %I bytes, expected a colour \"#rrggbb\" (six hex digits)",
                       (lua_Integer)n);
        }
        EXTRA(e, BACKGROUND) = (double)rgb;
        break;
    }
    default: break;
    }
}

/// The value written to attributes.<k>, checked at the assignment so that an error names
/// its line (read_item checks again whatever later writes, which bypass the metamethod,
/// leave). The messages are read_item's. nil is always fine (it clears the field).
static void check_written(lua_State *L, const char *k, size_t n) {
    int t = lua_type(L, 3);
    if (t == LUA_TNIL) return;
    const char *expected = NULL;
    int transform = 0;
    if (n == 6 && memcmp(k, "center", 6) == 0) expected = "CGPoint";
    else if (n == 5 && memcmp(k, "frame", 5) == 0) expected = "CGRect";
    else if (n == 4 && memcmp(k, "size", 4) == 0) expected = "CGSize";
    else if (n == 11 && memcmp(k, "transform3D", 11) == 0) { expected = "CATransform3D"; transform = 1; }
    else if (n == 9 && memcmp(k, "transform", 9) == 0) { expected = "CGAffineTransform"; transform = 1; }
    if (expected) {
        // A transform may be one of the transform math's values (its kind checked, not copied).
        if (t != LUA_TTABLE && !(t == LUA_TUSERDATA && transform && cardlua__transform_value(L, 3, NULL)))
            luaL_error(L, "attributes.%s is a %s, expected a %s", k, luaL_typename(L, 3), expected);
    } else if (n == 5 && memcmp(k, "alpha", 5) == 0) {
        if (t != LUA_TNUMBER) luaL_error(L, "attributes.alpha is a %s, expected a number", luaL_typename(L, 3));
        double a = lua_tonumber(L, 3);
        if (a != a || a - a != 0) {
            cardlua__note_field(host_of(L), "attributes.alpha");
            luaL_error(L, "attributes.alpha is %s", a != a ? "NaN" : "infinite");
        }
    } else if (n == 6 && memcmp(k, "zIndex", 6) == 0) {
        if (t != LUA_TNUMBER) luaL_error(L, "attributes.zIndex is a %s, expected an integer", luaL_typename(L, 3));
        int isInteger = 0;
        lua_Integer zi = lua_tointegerx(L, 3, &isInteger);
        if (!isInteger || zi > 2147483647 || zi < -2147483647 - 1) {
            const char *hint = zindex_hint(L, 3);   // before lua_tostring turns it into a string
            luaL_error(L, "attributes.zIndex is %s, expected a whole number from -2147483648 to 2147483647%s",
                       lua_tostring(L, 3), hint);
        }
    } else if ((n == 6 && memcmp(k, "hidden", 6) == 0) || (n == 8 && memcmp(k, "isHidden", 8) == 0)) {
        if (t != LUA_TBOOLEAN) luaL_error(L, "attributes.hidden is a %s, expected a boolean", luaL_typename(L, 3));
    } else {
        // The facing and appearance keys: the read-back's own checks (a shadowOffset's
        // fields are read after the call).
        for (int key = K_DOUBLE_SIDED; key < K_ATTRIBUTES; key++) {
            if (strcmp(k, cardlua__slot_keys[key]) != 0) continue;
            if (key == K_SHADOW_OFFSET) {
                if (t != LUA_TTABLE) luaL_error(L, "attributes.shadowOffset is a %s, expected a CGSize", luaL_typename(L, 3));
            } else {
                double ignored[9];
                read_extra(L, key, 3, NULL, ignored);
            }
            break;
        }
    }
}

// The __newindex's upvalues (cardlua__push_attributes_newindex): the keys it writes.
enum { UPN_TRANSFORM = 1, UPN_TRANSFORM3D, UPN_HIDDEN, UPN_COUNT = UPN_HIDDEN };

/// attributes.<key> = value for a key not present: `transform` and `transform3D`
/// replace each other (the later assignment wins, as in UIKit); `isHidden` is `hidden`.
int cardlua__attributes_newindex(lua_State *L) {
    cardlua_host *h = host_of(L);
    unsigned touched = TOUCHED_OTHER;
    if (lua_type(L, 2) == LUA_TSTRING) {
        size_t n = 0;
        const char *k = lua_tolstring(L, 2, &n);
        check_written(L, k, n);
        if (n == 9 && memcmp(k, "transform", 9) == 0) {
            lua_pushvalue(L, lua_upvalueindex(UPN_TRANSFORM3D)); lua_pushnil(L); lua_rawset(L, 1);
        } else if (n == 11 && memcmp(k, "transform3D", 11) == 0) {
            lua_pushvalue(L, lua_upvalueindex(UPN_TRANSFORM)); lua_pushnil(L); lua_rawset(L, 1);
        } else if (n == 8 && memcmp(k, "isHidden", 8) == 0) {
            lua_pushvalue(L, lua_upvalueindex(UPN_HIDDEN));
            lua_pushvalue(L, 3);
            lua_rawset(L, 1);
            touch(h, 1u << K_HIDDEN);
            return 0;
        }
        // A contract key is the one interned string with its text (as take_fields tells them).
        for (int key = 0; key < K_ATTRIBUTES; key++)
            if (k == h->key_names[key]) { touched = 1u << key; break; }
    }
    lua_settop(L, 3);
    lua_rawset(L, 1);
    touch(h, touched);
    return 0;
}

/// Pushes the attributes proxy's __index (cardlua__attributes_index with its upvalues).
void cardlua__push_attributes_index(lua_State *L) {
    for (int i = 0; i < UP_POOL - 1; i++) lua_pushstring(L, PROXY_KEYS[i]);
    for (int i = 0; i < 4; i++) lua_pushnil(L);  // the pool's tables, on first use
    lua_pushcclosure(L, cardlua__attributes_index, UP_COUNT - 1);
}

/// Pushes the attributes proxy's __newindex (cardlua__attributes_newindex with its upvalues).
void cardlua__push_attributes_newindex(lua_State *L) {
    lua_pushliteral(L, "transform");
    lua_pushliteral(L, "transform3D");
    lua_pushliteral(L, "hidden");
    lua_pushcclosure(L, cardlua__attributes_newindex, UPN_COUNT);
}

static void clear_table(lua_State *L, int table) {
    lua_pushnil(L);
    while (lua_next(L, table)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, table);
    }
}

static int same(double a, double b) { return a == b; }

const attribute_key cardlua__attribute_keys[] = {
    {"frame", 1}, {"center", 1}, {"size", 1}, {"indexPath", 0}, {"bounds", 0}, {"transform", 1},
    {"transform3D", 1}, {"alpha", 1}, {"zIndex", 1}, {"hidden", 1},
    /* contract v2: facing and appearance */
    {"isDoubleSided", 1}, {"cornerRadius", 1}, {"shadowOpacity", 1}, {"shadowRadius", 1},
    {"shadowOffset", 1}, {"backgroundColor", 1}, {"blurRadius", 1}, {NULL, 0}};
const int cardlua__attribute_key_count = (int)(sizeof cardlua__attribute_keys / sizeof cardlua__attribute_keys[0]);

/// Whether the hot path's slot keys (cardlua__slot_keys up to K_ATTRIBUTES) are exactly the
/// writable keys of cardlua__attribute_keys: checked when a state opens, so the two lists cannot
/// drift apart unnoticed.
int cardlua__attribute_slots_match(void) {
    int writable = 0;
    for (int i = 0; cardlua__attribute_keys[i].name; i++) {
        if (!cardlua__attribute_keys[i].writable) continue;
        writable++;
        int found = 0;
        for (int k = 0; k < K_ATTRIBUTES; k++) if (strcmp(cardlua__slot_keys[k], cardlua__attribute_keys[i].name) == 0) found = 1;
        if (!found) return 0;
    }
    return writable == K_ATTRIBUTES;
}

/// In check mode: hands every key written on `attributes` that is not part of the
/// contract to I.noteAttributeKey(key, item) (a typo like `zindex` otherwise does
/// nothing, silently).
void cardlua__note_unknown_keys(lua_State *L, cardlua_host *h, int A) {
    lua_pushnil(L);
    while (lua_next(L, A)) {
        lua_pop(L, 1);
        int known = 0;
        if (lua_type(L, -1) == LUA_TSTRING) {
            const char *k = lua_tostring(L, -1);
            if (strcmp(k, "isHidden") == 0) known = 1;  // an element query's own table may hold it
            for (int i = 0; cardlua__attribute_keys[i].name; i++) if (strcmp(k, cardlua__attribute_keys[i].name) == 0) known = 1;
        }
        if (!known) {
            cardlua__push_internal(L, h, "noteAttributeKey");
            lua_pushvalue(L, -2);
            lua_pushinteger(L, (lua_Integer)h->call->item_number);
            lua_call(L, 2, 0);
        }
    }
}

/// Moves what the script left in `attributes` (at A) into the value slots, one bit per
/// attribute key in the result, with a single traversal (an item that touched nothing
/// costs one lua_next). With `clear` it also empties the table (assigning nil to a
/// field during a traversal is allowed); otherwise the caller clears it.
static unsigned take_fields(lua_State *L, const hot_slots *s, int A, int clear) {
    unsigned present = 0;
    lua_pushnil(L);
    while (lua_next(L, A)) {  // key at -2, value at -1
        if (lua_type(L, -2) == LUA_TSTRING) {
            const char *name = lua_tostring(L, -2);
            for (int k = 0; k < K_ATTRIBUTES; k++) {
                if (name == s->names[k]) {
                    lua_copy(L, -1, s->values + k);
                    present |= 1u << k;
                    break;
                }
            }
        }
        lua_pop(L, 1);
        if (clear) {
            lua_pushvalue(L, -1);
            lua_pushnil(L);
            lua_rawset(L, A);
        }
    }
    return present;
}

/// take_fields for the usual item, without clearing in check mode's way: the keys the
/// proxy put into `attributes` itself (`touched`, transform_call.touched) are taken by look-up
/// and cleared, then one lua_next tells whether anything else is left (a key written with
/// rawset), which take_fields' traversal takes. A key outside the contract goes to the
/// traversal at once. The same slots and bits as take_fields.
static unsigned take_touched(lua_State *L, const hot_slots *s, int A, unsigned touched) {
    if (touched & TOUCHED_OTHER) return take_fields(L, s, A, 1);
    unsigned present = 0;
    for (unsigned bits = touched & ((1u << K_ATTRIBUTES) - 1); bits != 0; bits &= bits - 1) {
        int k = __builtin_ctz(bits);
        lua_rawgeti(L, s->keys, k + 1);
        lua_pushvalue(L, -1);
        if (lua_rawget(L, A) != LUA_TNIL) {  // nil: the script cleared it again
            lua_copy(L, -1, s->values + k);
            present |= 1u << k;
        }
        lua_settop(L, -2);  // the key stays, to clear it
        lua_pushnil(L);
        lua_rawset(L, A);
    }
    if (touched & TOUCHED_INDEX_PATH) {
        lua_pushliteral(L, "indexPath");
        lua_pushnil(L);
        lua_rawset(L, A);
    }
    lua_pushnil(L);
    if (lua_next(L, A)) {
        lua_settop(L, -3);
        present |= take_fields(L, s, A, 1);
    }
    return present;
}

/// The line of the `return` by which a callback (transform, at stack slot F) handed back
/// a bad value: it is called once more for the same item, with a return hook (an error
/// path only: the hot path pays nothing). The error is then reported at that line, not at
/// `function`.
void cardlua__note_return_line(lua_State *L, cardlua_host *h, int F) {
    cardlua_call *c = h->call;
    if (h->budget_exhausted || F <= 0) return;
    c->return_probe = 1;
    c->return_line = 0;
    // The hook as it was, to put back: on checkpoints, none.
    lua_Hook hook = lua_gethook(L);
    int mask = lua_gethookmask(L), count = lua_gethookcount(L);
    lua_sethook(L, cardlua__count_hook, HOOK_MASK(h), count > 0 ? count : h->hook_step);
    h->budget_left = h->budget;
    lua_pushvalue(L, F);
    lua_pushvalue(L, F + 1);
    lua_pushvalue(L, F + 2);
    int status = lua_pcall(L, 2, 0, 0);
    c->return_probe = 0;
    if (!h->budget_exhausted) lua_sethook(L, hook, mask, count);
    if (status != LUA_OK) lua_pop(L, 1);
    else if (c->return_line > 0) c->callback_line = c->return_line;
}

/// An item's attributes as the read-back assembles them: where they started (the base
/// geometry; the start's or the default alpha, zIndex and hidden), then what the script
/// left, and whether that differs. The transform is kept beside it (`m`, 16 numbers):
/// read_transform writes it through a pointer, which would keep all of this in memory
/// rather than in registers.
typedef struct {
    double center_x, center_y, width, height;
    double alpha, z_index, hidden;
    int changed;
} item_values;

/// The values an item starts from: the geometry of the base record b (CARDLUA_IN_STRIDE),
/// the rest from `start` (an output record) or, when NULL, the defaults.
static inline void start_values(item_values *v, double *m, const double *b, const double *start) {
    static const double IDENTITY[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    v->center_x = b[2];
    v->center_y = b[3];
    v->width = b[4];
    v->height = b[5];
    v->changed = 0;
    if (start) {
        memcpy(m, start + CARDLUA_OUT_M11, 16 * sizeof *m);
        v->alpha = start[CARDLUA_OUT_ALPHA];
        v->z_index = start[CARDLUA_OUT_ZINDEX];
        v->hidden = start[CARDLUA_OUT_HIDDEN];
    } else {
        memcpy(m, IDENTITY, 16 * sizeof *m);
        v->alpha = 1;
        v->z_index = 0;
        v->hidden = 0;
    }
}

/// attributes.frame (a CGRect, in its value slot): compared with the base frame as it
/// was handed out (centre ∓ half size), so that an unchanged frame does not move the
/// centre by a rounding bit. Leaves the stack at `top`.
static inline void read_frame(lua_State *L, const hot_slots *s, const double *b, int top, item_values *v) {
    int t = s->values + K_FRAME;
    if (!lua_istable(L, t)) luaL_error(L, "attributes.frame is a %s, expected a CGRect", luaL_typename(L, t));
    double x = field_number(L, t, s, K_X, "attributes.frame");
    double y = field_number(L, t, s, K_Y, "attributes.frame");
    double fw = field_number(L, t, s, K_WIDTH, "attributes.frame");
    double fh = field_number(L, t, s, K_HEIGHT, "attributes.frame");
    if (fw < 0 || fh < 0) luaL_error(L, "attributes.frame has a negative size (%f x %f)", fw, fh);
    if (!same(x, b[2] - b[4] / 2) || !same(y, b[3] - b[5] / 2) || !same(fw, v->width) || !same(fh, v->height)) {
        v->center_x = x + fw / 2;
        v->center_y = y + fh / 2;
        v->width = fw;
        v->height = fh;
        v->changed = 1;
    }
    lua_settop(L, top);
}

/// attributes.size (a CGSize), against the base size. Leaves the stack at `top`.
static inline void read_size(lua_State *L, const hot_slots *s, const double *b, int top, item_values *v) {
    int t = s->values + K_SIZE;
    if (!lua_istable(L, t)) luaL_error(L, "attributes.size is a %s, expected a CGSize", luaL_typename(L, t));
    double sw = field_number(L, t, s, K_WIDTH, "attributes.size");
    double sh = field_number(L, t, s, K_HEIGHT, "attributes.size");
    if (sw < 0 || sh < 0) luaL_error(L, "attributes.size is negative (%f x %f)", sw, sh);
    if (!same(sw, b[4]) || !same(sh, b[5])) {
        v->width = sw;
        v->height = sh;
        v->changed = 1;
    }
    lua_settop(L, top);
}

/// attributes.center (a CGPoint), against the base centre. Leaves the stack at `top`.
static inline void read_center(lua_State *L, const hot_slots *s, const double *b, int top, item_values *v) {
    int t = s->values + K_CENTER;
    if (!lua_istable(L, t)) luaL_error(L, "attributes.center is a %s, expected a CGPoint", luaL_typename(L, t));
    double x = field_number(L, t, s, K_X, "attributes.center");
    double y = field_number(L, t, s, K_Y, "attributes.center");
    if (!same(x, b[2]) || !same(y, b[3])) {
        v->center_x = x;
        v->center_y = y;
        v->changed = 1;
    }
    lua_settop(L, top);
}

/// attributes.transform3D, or else attributes.transform (the proxy keeps only the later
/// of the two), into m: a CATransform3D, a CGAffineTransform, or a table with either's
/// fields.
static inline void read_transforms(lua_State *L, const hot_slots *s, unsigned present, double *m) {
    int tk = (present & (1u << K_TRANSFORM3D)) ? K_TRANSFORM3D : K_TRANSFORM;
    int t = s->values + tk;
    const char *tname = tk == K_TRANSFORM3D ? "attributes.transform3D" : "attributes.transform";
    if (!read_transform(L, t, s, tname, m))
        luaL_error(L, "%s is a %s, expected a %s", tname, luaL_typename(L, t),
                   tk == K_TRANSFORM3D ? "CATransform3D" : "CGAffineTransform");
}

/// attributes.alpha (at t): a finite number.
static inline void read_alpha(lua_State *L, cardlua_host *h, int t, item_values *v) {
    if (lua_type(L, t) != LUA_TNUMBER) luaL_error(L, "attributes.alpha is a %s, expected a number", luaL_typename(L, t));
    double alpha = lua_tonumberx(L, t, NULL);
    if (alpha != alpha || alpha - alpha != 0) {
        cardlua__note_field(h, "attributes.alpha");
        luaL_error(L, "attributes.alpha is %s", alpha != alpha ? "NaN" : "infinite");
    }
    v->alpha = alpha;
    v->changed = 1;
}

/// attributes.zIndex (at t): a whole number in the 32-bit range.
static inline void read_z_index(lua_State *L, int t, item_values *v) {
    if (lua_type(L, t) != LUA_TNUMBER) luaL_error(L, "attributes.zIndex is a %s, expected an integer", luaL_typename(L, t));
    int isInteger = 0;
    lua_Integer zi = lua_tointegerx(L, t, &isInteger);
    if (!isInteger || zi > 2147483647 || zi < -2147483647 - 1) {
        const char *hint = zindex_hint(L, t);   // before lua_tostring turns it into a string
        luaL_error(L, "attributes.zIndex is %s, expected a whole number from -2147483648 to 2147483647%s",
                   lua_tostring(L, t), hint);
    }
    v->z_index = (double)zi;
    v->changed = 1;
}

/// attributes.hidden (at t): a boolean.
static inline void read_hidden(lua_State *L, int t, item_values *v) {
    if (lua_type(L, t) != LUA_TBOOLEAN) luaL_error(L, "attributes.hidden is a %s, expected a boolean", luaL_typename(L, t));
    v->hidden = lua_toboolean(L, t) ? 1 : 0;
    v->changed = 1;
}

/// Facing and appearance (the keys of K_EXTRAS_MASK the item wrote): validated, compared
/// with where they started (the start's, or the defaults), and written to the output
/// record `o` with CARDLUA_OUT_EXTRAS set only when they differ (CARDLUA_OUT_APPEARANCE
/// too when more than the facing does). Returns whether they differ. Leaves the stack at
/// `top`.
static int read_extras(lua_State *L, const hot_slots *s, unsigned present, const double *start, int top, double *o) {
    double e[EXTRA_COUNT], was[EXTRA_COUNT];
    if (start && start[CARDLUA_OUT_EXTRAS] != 0) memcpy(was, start + CARDLUA_OUT_DOUBLE_SIDED, sizeof was);
    else memcpy(was, DEFAULT_EXTRAS, sizeof was);
    memcpy(e, was, sizeof e);
    for (int k = K_DOUBLE_SIDED; k < K_ATTRIBUTES; k++)
        if (present & (1u << k)) read_extra(L, k, s->values + k, s, e);
    lua_settop(L, top);
    int differs = 0, appearance = 0;
    for (int k = 0; k < EXTRA_COUNT; k++) {
        if (e[k] == was[k]) continue;
        differs = 1;
        if (k != CARDLUA_OUT_DOUBLE_SIDED - CARDLUA_OUT_DOUBLE_SIDED) appearance = 1;
    }
    if (!differs) return 0;
    if (appearance) e[CARDLUA_OUT_APPEARANCE - CARDLUA_OUT_DOUBLE_SIDED] = 1;
    memcpy(o + CARDLUA_OUT_DOUBLE_SIDED, e, sizeof e);
    o[CARDLUA_OUT_EXTRAS] = 1;
    return 1;
}

/// Writes the item's values and its transform m to the output record `o` (all but the
/// extras and CARDLUA_OUT_CHANGED).
static inline void write_values(const item_values *v, const double *m, double *o) {
    o[CARDLUA_OUT_CENTER_X] = v->center_x;
    o[CARDLUA_OUT_CENTER_Y] = v->center_y;
    o[CARDLUA_OUT_WIDTH] = v->width;
    o[CARDLUA_OUT_HEIGHT] = v->height;
    memcpy(o + CARDLUA_OUT_M11, m, 16 * sizeof *m);
    o[CARDLUA_OUT_ALPHA] = v->alpha;
    o[CARDLUA_OUT_ZINDEX] = v->z_index;
    o[CARDLUA_OUT_HIDDEN] = v->hidden;
}

/// Reads the attribute fields in the value slots marked in `present` into the output
/// record `o`, validating every value: the geometry starts from the base record `b`
/// (CARDLUA_IN_STRIDE), the rest from `start` (an output record) or, when NULL, the
/// defaults. Writes every slot but CARDLUA_OUT_CHANGED (and the extras only when they
/// changed: CARDLUA_OUT_EXTRAS says). Returns whether anything differs from the start.
int cardlua__read_fields(lua_State *L, cardlua_host *h, const hot_slots *s, unsigned present,
                         const double *b, const double *start, double *o) {
    item_values v;
    double m[16];
    start_values(&v, m, b, start);
    int top = lua_gettop(L);
    if (present & (1u << K_FRAME)) read_frame(L, s, b, top, &v);
    if (present & (1u << K_SIZE)) read_size(L, s, b, top, &v);
    if (present & (1u << K_CENTER)) read_center(L, s, b, top, &v);
    if (present & ((1u << K_TRANSFORM3D) | (1u << K_TRANSFORM))) {
        read_transforms(L, s, present, m);
        v.changed = 1;
    }
    if (present & (1u << K_ALPHA)) read_alpha(L, h, s->values + K_ALPHA, &v);
    if (present & (1u << K_ZINDEX)) read_z_index(L, s->values + K_ZINDEX, &v);
    if (present & (1u << K_HIDDEN)) read_hidden(L, s->values + K_HIDDEN, &v);
    o[CARDLUA_OUT_EXTRAS] = 0;
    if ((present & K_EXTRAS_MASK) && read_extras(L, s, present, start, top, o)) v.changed = 1;
    write_values(&v, m, o);
    return v.changed;
}

/// Reads what the script left in `attributes` (the value slots marked in `present`) and
/// what it returned (at R) into the output record for item i, validating every value.
static void read_item(lua_State *L, cardlua_host *h, const transform_call *t, const hot_slots *s,
                      unsigned present, int R, int A, long i) {
    double *o = t->output + i * CARDLUA_OUT_STRIDE;
    int rt = lua_type(L, R);
    if (present == 0 && rt == LUA_TNIL) {  // untouched: the host keeps the item as it was
        o[CARDLUA_OUT_CHANGED] = 0;
        return;
    }
    const double *b = t->input + i * CARDLUA_IN_STRIDE;
    const double *start = t->starts ? t->starts + i * CARDLUA_OUT_STRIDE : NULL;
    int changed = cardlua__read_fields(L, h, s, present, b, start, o);

    // The return value: nothing (or the attributes), a uniform scale, or a transform.
    if (rt == LUA_TNUMBER) {
        double sc = lua_tonumberx(L, R, NULL);
        if (sc != sc || sc - sc != 0) cardlua__note_return_line(L, h, t->callback_slot), luaL_error(L, "returned %s as the scale", sc != sc ? "NaN" : "an infinite number");
        if (sc > MAX_MAGNITUDE || sc < -MAX_MAGNITUDE)
            cardlua__note_return_line(L, h, t->callback_slot), luaL_error(L, "returned %f as the scale, beyond the largest magnitude allowed (1e15)", (lua_Number)sc);
        double *m = o + CARDLUA_OUT_M11;
        for (int k = 0; k < 16; k++) m[k] = (k % 5 == 0) ? 1 : 0;
        m[0] = sc; m[5] = sc;
        changed = 1;
    } else if ((rt == LUA_TTABLE && !lua_rawequal(L, R, A)) || rt == LUA_TUSERDATA) {
        if (read_transform(L, R, s, "the returned transform", o + CARDLUA_OUT_M11)) changed = 1;
        else if (rt == LUA_TTABLE)
            cardlua__note_return_line(L, h, t->callback_slot), luaL_error(L, "returned a table that is neither a CATransform3D nor a CGAffineTransform");
        else
            cardlua__note_return_line(L, h, t->callback_slot), luaL_error(L, "returned a %s; expected nothing, a number (a scale), a CATransform3D or a CGAffineTransform",
                                               luaL_typename(L, R));
    } else if (rt != LUA_TNIL && rt != LUA_TTABLE) {
        cardlua__note_return_line(L, h, t->callback_slot);
        luaL_error(L, "returned a %s; expected nothing, a number (a scale), a CATransform3D or a CGAffineTransform",
                   luaL_typename(L, R));
    }
    o[CARDLUA_OUT_CHANGED] = changed;
}

// MARK: - Native functions the prelude uses

/// The host's enumeration for native.query and the element makers (internal.h).
long cardlua__query_items(lua_State *L) {
    cardlua_host *h = host_of(L);
    double x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2);
    double w = luaL_checknumber(L, 3), ht = luaL_checknumber(L, 4);
    if (h->query == NULL) return 0;
    // The host's enumeration is work done for the script: a flat fee, then a unit per
    // number handed over. The query stops counting past CARDLUA_QUERY_MAX.
    cardlua__charge(L, 100);
    long n = h->query(h->query_context, x, y, w, ht, h->query_buffer, h->query_capacity);
    if (n > CARDLUA_QUERY_MAX)
        return luaL_error(L, "layoutAttributesForElements: the rect meets more than %d items, the most "
                             "one query returns (ask for a smaller rect)", CARDLUA_QUERY_MAX);
    if (n < 0) n = 0;
    cardlua__charge(L, (long long)n * CARDLUA_IN_STRIDE);
    if (n > h->query_capacity) {
        cardlua__grow_records(L, h, &h->query_buffer, &h->query_capacity, n, CARDLUA_IN_STRIDE, "items");
        n = h->query(h->query_context, x, y, w, ht, h->query_buffer, h->query_capacity);
        if (n > h->query_capacity) n = h->query_capacity;
        if (n < 0) n = 0;  // a host's second answer is trusted no more than its first
    }
    return n;
}

/// native.query(x, y, width, height) → a flat array of numbers, CARDLUA_IN_STRIDE per
/// item: the base attributes meeting the rect (the Swift layout answers).
int cardlua__native_query(lua_State *L) {
    cardlua_host *h = host_of(L);
    long n = cardlua__query_items(L);
    lua_createtable(L, (int)(n * CARDLUA_IN_STRIDE), 0);
    for (long i = 0; i < n * CARDLUA_IN_STRIDE; i++) {
        lua_pushnumber(L, h->query_buffer[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

CARDLUA_BODY(body_transform, transform_call)

static int body_transform(lua_State *L, transform_call *t) {
    cardlua_call *c = &t->call;
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    cardlua__apply_state(L, h);
    c->callback = "transform";
    int hasTransform = cardlua__push_callback(L, h, "transform");
    int F = lua_gettop(L);
    t->callback_slot = hasTransform ? F : 0;  // F, then its arguments A and Lo
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_attributes);
    int A = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_layout);
    int Lo = lua_gettop(L);
    hot_slots s;
    cardlua__push_slots(L, h, &s);
    cardlua__push_geometry_keys(L, &s);
    int base = lua_gettop(L);
    clear_table(L, A);  // a frame stopped by an error may have left keys behind
    for (long i = 0; i < t->count; i++) {
        const double *b = t->input + i * CARDLUA_IN_STRIDE;
        t->item_index = i;
        c->item_number = (long)b[1];
        c->has_item = 1;
        if (hasTransform) {
            // The budget is per item; the clock runs for the whole frame (cardlua__run_protected
            // started it): a frame of many items each just inside the time limit would
            // otherwise take minutes.
            h->budget_left = h->budget;
            t->touched = 0;
            lua_pushvalue(L, F);
            lua_pushvalue(L, A);
            lua_pushvalue(L, Lo);
            lua_call(L, 2, 1);
        } else {
            lua_pushnil(L);
        }
        int R = base + 1;
        unsigned present = h->check_mode ? take_fields(L, &s, A, 0) : take_touched(L, &s, A, t->touched);
        read_item(L, h, t, &s, present, R, A, i);
        if (h->check_mode) {
            cardlua__note_unknown_keys(L, h, A);
            clear_table(L, A);
        }
        lua_settop(L, base);
    }
    c->has_item = 0;
    t->callback_slot = 0;
    return 0;
}

int cardlua_transform(cardlua_host *h, const double *state, const double *input, long count,
                      double *output) {
    return cardlua_transform_from(h, state, input, NULL, count, output);
}

int cardlua_transform_from(cardlua_host *h, const double *state, const double *input,
                           const double *starts, long count, double *output) {
    REFUSE_REENTRY(h, CARDLUA_ERROR);
    transform_call t = {.call = {.state = state, .callback = "transform", .callback_line = 1},
                        .input = input, .starts = starts, .output = output, .count = count, .item_index = -1};
    t.call.transform = &t;
    return run_body_transform(h, &t);
}

