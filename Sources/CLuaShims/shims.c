// The only code that touches the Lua API. Every entry point runs its Lua work inside
// lua_pcall (see run_protected); the helpers that raise (luaL_error, lua_call, table
// building) are only reached from there. See CLuaShims.h and README.md in this folder.
#include "CLuaShims.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#define PRELUDE_CHUNKNAME "=cardlua prelude"
#define PRELUDE_DISPLAY "cardlua prelude"

struct cardlua_host {
    lua_State *L;

    // Memory cap (the allocator).
    size_t memory_used;
    size_t memory_limit;
    int memory_refused;

    // Instruction budget (the count hook), per callback call.
    long long budget;
    long long budget_left;
    int hook_step;
    int budget_exhausted;

    // After a limit the state is not trusted again.
    int poisoned;

    // `cardlua check`: report unknown keys written on attributes.
    int check_mode;

    // The base-layout query (layout:layoutAttributesForElements).
    cardlua_query_fn query;
    void *query_context;
    double *query_buffer;
    long query_capacity;

    // Registry references made at set-up.
    int ref_internals;
    int ref_attributes;
    int ref_layout;

    // The call under way: for messages and for the attributes proxy.
    const char *callback;
    int callback_line;
    int has_item;
    long item_number;
    long item_index;
    const double *input;
    double *output;
    long count;
    const double *state;
    double *config_out;
    double *point_out;
    const char *internal_name;
    const char *internal_argument;
    double *numbers_out;
    long numbers_capacity;
    long numbers_count;
    double proposed[4];
    const char *load_source;
    size_t load_length;

    char chunkname[512];     // as shown in messages ("scripts/lol.lua")
    char *message;           // the last error
    char *string_result;     // the last cardlua_call_internal_string result
};

// MARK: - Allocator and hook

static cardlua_host *host_of(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return (cardlua_host *)ud;
}

/// The capped allocator: refuses growth past memory_limit (Lua then collects garbage
/// and retries, and raises a memory error if that does not help).
static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    cardlua_host *h = (cardlua_host *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        h->memory_used -= old;
        return NULL;
    }
    if (nsize > old && h->memory_used - old + nsize > h->memory_limit) {
        h->memory_refused = 1;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p == NULL) return NULL;
    h->memory_used = h->memory_used - old + nsize;
    return p;
}

/// Counts instructions; past the budget it raises, and keeps raising at every
/// instruction, so a script that catches the error with pcall cannot carry on.
static void count_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    cardlua_host *h = host_of(L);
    if (!h->budget_exhausted) {
        h->budget_left -= h->hook_step;
        if (h->budget_left > 0) return;
        h->budget_exhausted = 1;
        lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
    }
    luaL_error(L, "exceeded the instruction budget of %I instructions (possible infinite loop)",
               (lua_Integer)h->budget);
}

static void reset_budget(cardlua_host *h) { h->budget_left = h->budget; }

// MARK: - Messages

static void set_message(cardlua_host *h, const char *text) {
    size_t n = strlen(text);
    char *copy = (char *)malloc(n + 1);
    if (copy == NULL) return;
    memcpy(copy, text, n + 1);
    free(h->message);
    h->message = copy;
}

/// "scripts/lol.lua:12: " at the start of msg? Returns the length of that prefix.
static size_t location_prefix(const char *msg, const char *name) {
    size_t n = strlen(name);
    if (n == 0 || strncmp(msg, name, n) != 0 || msg[n] != ':') return 0;
    size_t i = n + 1;
    if (!isdigit((unsigned char)msg[i])) return 0;
    while (isdigit((unsigned char)msg[i])) i++;
    if (msg[i] != ':') return 0;
    i++;
    if (msg[i] == ' ') i++;
    return i;
}

/// The innermost frame running the script's own code, as "file:line", or 0.
static int script_line(lua_State *L, cardlua_host *h) {
    lua_Debug ar;
    for (int level = 0; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar)) continue;
        if (ar.source[0] == '@' && strcmp(ar.source + 1, h->chunkname) == 0 && ar.currentline > 0)
            return ar.currentline;
    }
    return 0;
}

/// The message handler: one line `file:line: callback: item N: message`, then the
/// script's own frames of the traceback. Runs at the error, before the stack unwinds.
static int message_handler(lua_State *L) {
    cardlua_host *h = host_of(L);
    const char *msg;
    if (lua_type(L, 1) == LUA_TSTRING || lua_type(L, 1) == LUA_TNUMBER)
        msg = lua_tostring(L, 1);
    else
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));

    const char *rest = msg;
    int line = 0;
    size_t own = location_prefix(msg, h->chunkname);
    if (own > 0) {
        line = atoi(msg + strlen(h->chunkname) + 1);
        rest = msg + own;
    } else {
        size_t prelude = location_prefix(msg, PRELUDE_DISPLAY);
        if (prelude > 0) rest = msg + prelude;
        line = script_line(L, h);
        if (line == 0) line = h->callback_line > 0 ? h->callback_line : 1;
    }
    if (h->budget_exhausted)
        rest = lua_pushfstring(L, "exceeded the instruction budget of %I instructions (possible infinite loop)",
                               (lua_Integer)h->budget);

    // The first line, then the traceback (made before the buffer takes the stack top).
    const char *context = "";
    if (h->callback && h->has_item)
        context = lua_pushfstring(L, "%s: item %I: ", h->callback, (lua_Integer)h->item_number);
    else if (h->callback)
        context = lua_pushfstring(L, "%s: ", h->callback);
    const char *first = lua_pushfstring(L, "%s:%d: %s%s", h->chunkname, line, context, rest);
    luaL_traceback(L, L, NULL, 1);
    const char *tb = lua_tostring(L, -1);

    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, first);
    // Keep only the script's own frames: the prelude's and the host's say nothing to
    // the script's author.
    size_t name_length = strlen(h->chunkname);
    int header = 0;
    for (const char *p = tb; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *q = p;
        while (q < p + len && *q == '\t') q++;
        if ((size_t)(p + len - q) > name_length && strncmp(q, h->chunkname, name_length) == 0 &&
            q[name_length] == ':') {
            if (!header) {
                header = 1;
                luaL_addstring(&b, "\nscript traceback:");
            }
            luaL_addstring(&b, "\n\t");
            luaL_addlstring(&b, q, (size_t)(p + len - q));
        }
        p = end ? end + 1 : NULL;
    }
    luaL_pushresult(&b);
    return 1;
}

static void describe_memory_error(cardlua_host *h) {
    char text[1024];
    const char *what = h->memory_refused ? "exceeded the memory limit" : "not enough memory";
    int line = h->callback_line > 0 ? h->callback_line : 1;
    if (h->callback && h->has_item)
        snprintf(text, sizeof text, "%s:%d: %s: item %ld: %s (%zu MiB)", h->chunkname, line,
                 h->callback, h->item_number, what, h->memory_limit >> 20);
    else if (h->callback)
        snprintf(text, sizeof text, "%s:%d: %s: %s (%zu MiB)", h->chunkname, line, h->callback,
                 what, h->memory_limit >> 20);
    else
        snprintf(text, sizeof text, "%s:%d: %s (%zu MiB)", h->chunkname, line, what,
                 h->memory_limit >> 20);
    set_message(h, text);
}

/// Runs body(L) under lua_pcall with the message handler. The single place that turns
/// a Lua error into a status and a message.
static int run_protected(cardlua_host *h, lua_CFunction body) {
    lua_State *L = h->L;
    if (h->poisoned) {
        set_message(h, h->message ? h->message : "the script was stopped by a limit");
        return CARDLUA_LIMIT;
    }
    lua_settop(L, 0);
    lua_pushcfunction(L, message_handler);
    lua_pushcfunction(L, body);
    h->memory_refused = 0;
    reset_budget(h);
    int status = lua_pcall(L, 0, 0, 1);
    h->has_item = 0;
    h->input = NULL;
    if (status == LUA_OK) {
        lua_settop(L, 0);
        return CARDLUA_OK;
    }
    if (status == LUA_ERRMEM) {
        describe_memory_error(h);
    } else if (lua_type(L, -1) == LUA_TSTRING) {
        set_message(h, lua_tostring(L, -1));
    } else {
        set_message(h, "error in error handling");
    }
    lua_settop(L, 0);
    if (h->budget_exhausted || status == LUA_ERRMEM) {
        h->poisoned = 1;
        return CARDLUA_LIMIT;
    }
    return CARDLUA_ERROR;
}

// MARK: - Small protected helpers (called only inside run_protected)

static void push_internal(lua_State *L, cardlua_host *h, const char *name) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_internals);
    lua_getfield(L, -1, name);
    lua_remove(L, -2);
}

/// Raw t[key] for a string key, pushed; returns its type.
static int raw_get(lua_State *L, int table, const char *key) {
    lua_pushstring(L, key);
    return lua_rawget(L, table);
}

static void raw_set_number(lua_State *L, int table, const char *key, double value) {
    lua_pushstring(L, key);
    lua_pushnumber(L, value);
    lua_rawset(L, table);
}

/// Pushes the state numbers to I.setState, which updates layout and collectionView.
static void apply_state(lua_State *L, cardlua_host *h) {
    push_internal(L, h, "setState");
    for (int i = 0; i < CARDLUA_STATE_COUNT; i++) lua_pushnumber(L, h->state[i]);
    lua_call(L, CARDLUA_STATE_COUNT, 0);
}

/// Pushes the global callback `name`; returns 1 if it is a function, 0 if nil, and
/// raises if it is something else.
static int push_callback(lua_State *L, cardlua_host *h, const char *name) {
    lua_getglobal(L, name);
    int t = lua_type(L, -1);
    if (t == LUA_TFUNCTION) {
        lua_Debug ar;
        lua_pushvalue(L, -1);
        if (lua_getinfo(L, ">S", &ar)) h->callback_line = ar.linedefined;
        return 1;
    }
    if (t != LUA_TNIL) luaL_error(L, "%s is a %s; expected a function", name, luaL_typename(L, -1));
    return 0;
}

/// Reads t[key] as a finite number (metamethods allowed: this runs protected).
static double field_number(lua_State *L, int table, const char *key, const char *what) {
    lua_getfield(L, table, key);
    int t = lua_type(L, -1);
    if (t != LUA_TNUMBER)
        luaL_error(L, "%s.%s is %s, expected a number", what, key,
                   t == LUA_TNIL ? "missing" : luaL_typename(L, -1));
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (v != v) luaL_error(L, "%s.%s is NaN", what, key);
    if (v - v != 0) luaL_error(L, "%s.%s is infinite", what, key);
    return v;
}

static const char *const MATRIX_KEYS[16] = {
    "m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24",
    "m31", "m32", "m33", "m34", "m41", "m42", "m43", "m44"};

/// Reads a CATransform3D (16 fields) or a CGAffineTransform (6 fields) at `index`
/// into m. Returns 0 when the table is neither.
static int read_transform(lua_State *L, int index, const char *what, double *m) {
    index = lua_absindex(L, index);
    lua_getfield(L, index, "m11");
    int is3d = !lua_isnil(L, -1);
    lua_pop(L, 1);
    if (is3d) {
        for (int k = 0; k < 16; k++) m[k] = field_number(L, index, MATRIX_KEYS[k], what);
        return 1;
    }
    lua_getfield(L, index, "a");
    int isAffine = !lua_isnil(L, -1);
    lua_pop(L, 1);
    if (!isAffine) return 0;
    double a = field_number(L, index, "a", what), b = field_number(L, index, "b", what);
    double c = field_number(L, index, "c", what), d = field_number(L, index, "d", what);
    double tx = field_number(L, index, "tx", what), ty = field_number(L, index, "ty", what);
    for (int k = 0; k < 16; k++) m[k] = (k % 5 == 0) ? 1 : 0;
    m[0] = a; m[1] = b; m[4] = c; m[5] = d; m[12] = tx; m[13] = ty;
    return 1;
}

// MARK: - The attributes proxy (a reused table; reads of absent keys come here)

static const double *current_input(cardlua_host *h) {
    if (h->input == NULL || h->item_index < 0 || h->item_index >= h->count) return NULL;
    return h->input + h->item_index * CARDLUA_IN_STRIDE;
}

/// attributes.<key> for a key not yet set in this call: the base value. Nested tables
/// (center, frame, size, indexPath) come from a pool and are cached in the table so
/// that in-place edits (`attributes.center.x = …`) are seen afterwards.
static int attributes_index(lua_State *L) {
    cardlua_host *h = host_of(L);
    const double *b = current_input(h);
    if (b == NULL || lua_type(L, 2) != LUA_TSTRING) return 0;
    const char *k = lua_tostring(L, 2);
    const char *pool = NULL;
    if (strcmp(k, "center") == 0 || strcmp(k, "frame") == 0 || strcmp(k, "size") == 0 ||
        strcmp(k, "indexPath") == 0)
        pool = k;
    if (pool) {
        push_internal(L, h, "pool");
        lua_getfield(L, -1, pool);
        int t = lua_gettop(L);
        if (k[0] == 'c') {
            raw_set_number(L, t, "x", b[2]);
            raw_set_number(L, t, "y", b[3]);
        } else if (k[0] == 'f') {
            raw_set_number(L, t, "x", b[2] - b[4] / 2);
            raw_set_number(L, t, "y", b[3] - b[5] / 2);
            raw_set_number(L, t, "width", b[4]);
            raw_set_number(L, t, "height", b[5]);
        } else if (k[0] == 's') {
            raw_set_number(L, t, "width", b[4]);
            raw_set_number(L, t, "height", b[5]);
        } else {
            lua_pushstring(L, "section"); lua_pushinteger(L, (lua_Integer)b[0]); lua_rawset(L, t);
            lua_pushstring(L, "item"); lua_pushinteger(L, (lua_Integer)b[1]); lua_rawset(L, t);
            lua_pushstring(L, "row"); lua_pushinteger(L, (lua_Integer)b[1]); lua_rawset(L, t);
        }
        lua_pushvalue(L, 2);
        lua_pushvalue(L, t);
        lua_rawset(L, 1);
        return 1;
    }
    if (strcmp(k, "alpha") == 0) { lua_pushnumber(L, 1); return 1; }
    if (strcmp(k, "zIndex") == 0) { lua_pushinteger(L, 0); return 1; }
    if (strcmp(k, "hidden") == 0 || strcmp(k, "isHidden") == 0) {
        if (strcmp(k, "isHidden") == 0 && raw_get(L, 1, "hidden") != LUA_TNIL) return 1;
        lua_pushboolean(L, 0);
        return 1;
    }
    if (strcmp(k, "bounds") == 0) {
        push_internal(L, h, "rect");
        lua_pushnumber(L, 0); lua_pushnumber(L, 0);
        lua_pushnumber(L, b[4]); lua_pushnumber(L, b[5]);
        lua_call(L, 4, 1);
        return 1;
    }
    if (strcmp(k, "transform3D") == 0) {
        // The embedding of an affine transform set earlier, or a fresh identity; kept,
        // so that `attributes.transform3D.m34 = …` sticks.
        if (raw_get(L, 1, "transform") != LUA_TNIL) {
            push_internal(L, h, "affineTo3D");
            lua_insert(L, -2);
            lua_call(L, 1, 1);
            lua_pushstring(L, "transform"); lua_pushnil(L); lua_rawset(L, 1);
        } else {
            lua_pop(L, 1);
            push_internal(L, h, "identity3D");
            lua_call(L, 0, 1);
        }
        lua_pushstring(L, "transform3D");
        lua_pushvalue(L, -2);
        lua_rawset(L, 1);
        return 1;
    }
    if (strcmp(k, "transform") == 0) {
        // The affine part of transform3D (a copy), or a fresh identity.
        if (raw_get(L, 1, "transform3D") != LUA_TNIL) {
            push_internal(L, h, "affineFrom3D");
            lua_insert(L, -2);
            lua_call(L, 1, 1);
        } else {
            lua_pop(L, 1);
            push_internal(L, h, "identityAffine");
            lua_call(L, 0, 1);
        }
        return 1;
    }
    return 0;
}

/// attributes.<key> = value for a key not present: `transform` and `transform3D`
/// replace each other (the later assignment wins, as in UIKit); `isHidden` is `hidden`.
static int attributes_newindex(lua_State *L) {
    if (lua_type(L, 2) == LUA_TSTRING) {
        const char *k = lua_tostring(L, 2);
        if (strcmp(k, "transform") == 0) {
            lua_pushstring(L, "transform3D"); lua_pushnil(L); lua_rawset(L, 1);
        } else if (strcmp(k, "transform3D") == 0) {
            lua_pushstring(L, "transform"); lua_pushnil(L); lua_rawset(L, 1);
        } else if (strcmp(k, "isHidden") == 0) {
            lua_pushstring(L, "hidden");
            lua_pushvalue(L, 3);
            lua_rawset(L, 1);
            return 0;
        }
    }
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 0;
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

static const char *const ATTRIBUTE_KEYS[] = {
    "frame", "center", "size", "indexPath", "bounds", "transform", "transform3D",
    "alpha", "zIndex", "hidden", NULL};

/// In check mode: hands every key written on `attributes` that is not part of the
/// contract to I.noteAttributeKey(key, item) (a typo like `zindex` otherwise does
/// nothing, silently).
static void note_unknown_keys(lua_State *L, cardlua_host *h, int A) {
    lua_pushnil(L);
    while (lua_next(L, A)) {
        lua_pop(L, 1);
        int known = 0;
        if (lua_type(L, -1) == LUA_TSTRING) {
            const char *k = lua_tostring(L, -1);
            for (int i = 0; ATTRIBUTE_KEYS[i]; i++) if (strcmp(k, ATTRIBUTE_KEYS[i]) == 0) known = 1;
        }
        if (!known) {
            push_internal(L, h, "noteAttributeKey");
            lua_pushvalue(L, -2);
            lua_pushinteger(L, (lua_Integer)h->item_number);
            lua_call(L, 2, 0);
        }
    }
}

/// Reads what the script left in `attributes` (at A) and what it returned (at R) into
/// the output record for item i, validating every value.
static void read_item(lua_State *L, cardlua_host *h, int A, int R, long i) {
    const double *b = h->input + i * CARDLUA_IN_STRIDE;
    double *o = h->output + i * CARDLUA_OUT_STRIDE;
    double cx = b[2], cy = b[3], w = b[4], ht = b[5];
    double m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    double alpha = 1, z = 0, hidden = 0;
    int changed = 0;
    int top = lua_gettop(L);

    if (raw_get(L, A, "frame") != LUA_TNIL) {
        if (!lua_istable(L, -1)) luaL_error(L, "attributes.frame is a %s, expected a CGRect", luaL_typename(L, -1));
        int t = lua_gettop(L);
        double x = field_number(L, t, "x", "attributes.frame");
        double y = field_number(L, t, "y", "attributes.frame");
        double fw = field_number(L, t, "width", "attributes.frame");
        double fh = field_number(L, t, "height", "attributes.frame");
        if (fw < 0 || fh < 0) luaL_error(L, "attributes.frame has a negative size (%f x %f)", fw, fh);
        if (!same(x + fw / 2, cx) || !same(y + fh / 2, cy) || !same(fw, w) || !same(fh, ht)) {
            // Recomputing the centre of an unchanged frame could differ in the last bit.
            if (!same(x, b[2] - b[4] / 2) || !same(y, b[3] - b[5] / 2) || !same(fw, w) || !same(fh, ht)) {
                cx = x + fw / 2; cy = y + fh / 2; w = fw; ht = fh; changed = 1;
            }
        }
    }
    lua_settop(L, top);
    if (raw_get(L, A, "size") != LUA_TNIL) {
        if (!lua_istable(L, -1)) luaL_error(L, "attributes.size is a %s, expected a CGSize", luaL_typename(L, -1));
        int t = lua_gettop(L);
        double sw = field_number(L, t, "width", "attributes.size");
        double sh = field_number(L, t, "height", "attributes.size");
        if (sw < 0 || sh < 0) luaL_error(L, "attributes.size is negative (%f x %f)", sw, sh);
        if (!same(sw, b[4]) || !same(sh, b[5])) { w = sw; ht = sh; changed = 1; }
    }
    lua_settop(L, top);
    if (raw_get(L, A, "center") != LUA_TNIL) {
        if (!lua_istable(L, -1)) luaL_error(L, "attributes.center is a %s, expected a CGPoint", luaL_typename(L, -1));
        int t = lua_gettop(L);
        double x = field_number(L, t, "x", "attributes.center");
        double y = field_number(L, t, "y", "attributes.center");
        if (!same(x, b[2]) || !same(y, b[3])) { cx = x; cy = y; changed = 1; }
    }
    lua_settop(L, top);
    int tt = raw_get(L, A, "transform3D");
    const char *tname = "attributes.transform3D";
    if (tt == LUA_TNIL) { lua_pop(L, 1); tt = raw_get(L, A, "transform"); tname = "attributes.transform"; }
    if (tt != LUA_TNIL) {
        if (tt != LUA_TTABLE || !read_transform(L, -1, tname, m))
            luaL_error(L, "%s is a %s, expected a %s", tname, luaL_typename(L, -1),
                       tname[11] == 't' && tname[20] == '3' ? "CATransform3D" : "CGAffineTransform");
        changed = 1;
    }
    lua_settop(L, top);
    if (raw_get(L, A, "alpha") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TNUMBER) luaL_error(L, "attributes.alpha is a %s, expected a number", luaL_typename(L, -1));
        alpha = lua_tonumber(L, -1);
        if (alpha != alpha || alpha - alpha != 0) luaL_error(L, "attributes.alpha is %s", alpha != alpha ? "NaN" : "infinite");
        changed = 1;
    }
    lua_settop(L, top);
    if (raw_get(L, A, "zIndex") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TNUMBER) luaL_error(L, "attributes.zIndex is a %s, expected an integer", luaL_typename(L, -1));
        int isInteger = 0;
        lua_Integer zi = lua_tointegerx(L, -1, &isInteger);
        if (!isInteger || zi > 2147483647 || zi < -2147483647 - 1)
            luaL_error(L, "attributes.zIndex is %s, expected an integer", lua_tostring(L, -1));
        z = (double)zi;
        changed = 1;
    }
    lua_settop(L, top);
    if (raw_get(L, A, "hidden") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TBOOLEAN) luaL_error(L, "attributes.hidden is a %s, expected a boolean", luaL_typename(L, -1));
        hidden = lua_toboolean(L, -1) ? 1 : 0;
        changed = 1;
    }
    lua_settop(L, top);

    // The return value: nothing (or the attributes), a uniform scale, or a transform.
    int rt = lua_type(L, R);
    if (rt == LUA_TNUMBER) {
        double s = lua_tonumber(L, R);
        if (s != s || s - s != 0) luaL_error(L, "returned %s as the scale", s != s ? "NaN" : "an infinite number");
        for (int k = 0; k < 16; k++) m[k] = (k % 5 == 0) ? 1 : 0;
        m[0] = s; m[5] = s;
        changed = 1;
    } else if (rt == LUA_TTABLE && !lua_rawequal(L, R, A)) {
        if (!read_transform(L, R, "the returned transform", m))
            luaL_error(L, "returned a table that is neither a CATransform3D nor a CGAffineTransform");
        changed = 1;
    } else if (rt != LUA_TNIL && rt != LUA_TTABLE) {
        luaL_error(L, "returned a %s; expected nothing, a number (a scale), a CATransform3D or a CGAffineTransform",
                   luaL_typename(L, R));
    }

    o[CARDLUA_OUT_CENTER_X] = cx;
    o[CARDLUA_OUT_CENTER_Y] = cy;
    o[CARDLUA_OUT_WIDTH] = w;
    o[CARDLUA_OUT_HEIGHT] = ht;
    memcpy(o + CARDLUA_OUT_M11, m, sizeof m);
    o[CARDLUA_OUT_ALPHA] = alpha;
    o[CARDLUA_OUT_ZINDEX] = z;
    o[CARDLUA_OUT_HIDDEN] = hidden;
    o[CARDLUA_OUT_CHANGED] = changed;
}

// MARK: - Native functions the prelude uses

/// native.query(x, y, width, height) → a flat array of numbers, CARDLUA_IN_STRIDE per
/// item: the base attributes meeting the rect (the Swift layout answers).
static int native_query(lua_State *L) {
    cardlua_host *h = host_of(L);
    double x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2);
    double w = luaL_checknumber(L, 3), ht = luaL_checknumber(L, 4);
    if (h->query == NULL) { lua_createtable(L, 0, 0); return 1; }
    long n = h->query(h->query_context, x, y, w, ht, h->query_buffer, h->query_capacity);
    if (n > h->query_capacity) {
        double *grown = (double *)realloc(h->query_buffer, (size_t)n * CARDLUA_IN_STRIDE * sizeof(double));
        if (grown == NULL) return luaL_error(L, "not enough memory for %I items", (lua_Integer)n);
        h->query_buffer = grown;
        h->query_capacity = n;
        n = h->query(h->query_context, x, y, w, ht, h->query_buffer, h->query_capacity);
        if (n > h->query_capacity) n = h->query_capacity;
    }
    if (n < 0) n = 0;
    lua_createtable(L, (int)(n * CARDLUA_IN_STRIDE), 0);
    for (long i = 0; i < n * CARDLUA_IN_STRIDE; i++) {
        lua_pushnumber(L, h->query_buffer[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/// print(...) to standard error, prefixed with the script's name.
static int native_print(lua_State *L) {
    cardlua_host *h = host_of(L);
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, h->chunkname);
    luaL_addstring(&b, ": ");
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addchar(&b, '\t');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_addchar(&b, '\n');
    luaL_pushresult(&b);
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    fwrite(s, 1, len, stderr);
    fflush(stderr);
    return 0;
}

/// warn(...) to standard error, prefixed with the script's name; always on.
static void warning_function(void *ud, const char *msg, int tocont) {
    static int continuing = 0;
    cardlua_host *h = (cardlua_host *)ud;
    if (!continuing && !tocont && msg[0] == '@') return;  // control messages (@on, @off)
    if (!continuing) fprintf(stderr, "%s: warning: ", h->chunkname);
    fputs(msg, stderr);
    if (!tocont) fputc('\n', stderr);
    continuing = tocont;
}

static void silent_warnings(void *ud, const char *msg, int tocont) {
    (void)ud; (void)msg; (void)tocont;
}

// MARK: - Set-up

static int body_setup(lua_State *L) {
    cardlua_host *h = host_of(L);
    const char *prelude = (const char *)lua_touserdata(L, lua_upvalueindex(1));
    size_t prelude_length = (size_t)lua_tointeger(L, lua_upvalueindex(2));

    // The allowlist (design.md §6): base, string, table, math, utf8, coroutine. No io, os,
    // package or debug: nothing of the host's files, environment or processes.
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
    luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1);
    lua_settop(L, 0);
    // Base functions that reach files (dofile, loadfile), load code that may be bytecode
    // (load), reach modules (require), or steer the collector (collectgarbage).
    static const char *const removed[] = {"dofile", "loadfile", "load", "require", "collectgarbage", NULL};
    for (int i = 0; removed[i]; i++) {
        lua_pushnil(L);
        lua_setglobal(L, removed[i]);
    }
    // string.dump makes bytecode, which can crash the VM when loaded.
    lua_getglobal(L, LUA_STRLIBNAME);
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
    // Hide the string metatable so scripts cannot change how every string behaves.
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
    }
    lua_settop(L, 0);
    lua_pushcfunction(L, native_print);
    lua_setglobal(L, "print");
    // Reproducible runs: a fixed seed.
    lua_getglobal(L, LUA_MATHLIBNAME);
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, 20160119);
    lua_call(L, 1, 0);
    lua_settop(L, 0);

    // The prelude gets the native functions it needs and returns its internals.
    if (luaL_loadbufferx(L, prelude, prelude_length, PRELUDE_CHUNKNAME, "t") != LUA_OK)
        return lua_error(L);
    lua_createtable(L, 0, 4);
    lua_pushcfunction(L, native_query);
    lua_setfield(L, -2, "query");
    lua_pushcfunction(L, attributes_index);
    lua_setfield(L, -2, "attributesIndex");
    lua_pushcfunction(L, attributes_newindex);
    lua_setfield(L, -2, "attributesNewindex");
    lua_call(L, 1, 1);
    if (!lua_istable(L, -1)) return luaL_error(L, "the prelude returned no internals");
    lua_pushvalue(L, -1);
    h->ref_internals = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_getfield(L, -1, "attributes");
    h->ref_attributes = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_getfield(L, -1, "layout");
    h->ref_layout = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

cardlua_host *cardlua_open(const char *prelude, size_t prelude_length, size_t memory_limit,
                           long long instruction_budget, const char **message_out) {
    cardlua_host *h = (cardlua_host *)calloc(1, sizeof *h);
    if (h == NULL) {
        if (message_out) *message_out = "not enough memory";
        return NULL;
    }
    h->memory_limit = memory_limit;
    h->budget = instruction_budget > 0 ? instruction_budget : 1;
    h->hook_step = h->budget < 1000 ? (int)h->budget : 1000;
    h->ref_internals = h->ref_attributes = h->ref_layout = LUA_NOREF;
    snprintf(h->chunkname, sizeof h->chunkname, "%s", "script");
    h->L = lua_newstate(capped_alloc, h);
    if (h->L == NULL) {
        free(h);
        if (message_out) *message_out = "not enough memory for a Lua state";
        return NULL;
    }
    lua_setwarnf(h->L, warning_function, h);
    lua_sethook(h->L, count_hook, LUA_MASKCOUNT, h->hook_step);
    // The prelude is loaded protected: the C closure carries its text.
    lua_State *L = h->L;
    lua_settop(L, 0);
    lua_pushcfunction(L, message_handler);
    lua_pushlightuserdata(L, (void *)prelude);
    lua_pushinteger(L, (lua_Integer)prelude_length);
    lua_pushcclosure(L, body_setup, 2);
    reset_budget(h);
    int status = lua_pcall(L, 0, 0, 1);
    if (status != LUA_OK) {
        if (message_out) *message_out = "the cardlua prelude failed to load";
        if (lua_type(L, -1) == LUA_TSTRING) fprintf(stderr, "cardlua: %s\n", lua_tostring(L, -1));
        cardlua_close(h);
        return NULL;
    }
    lua_settop(L, 0);
    return h;
}

void cardlua_close(cardlua_host *h) {
    if (h == NULL) return;
    if (h->L) {
        // Finalizers still run in lua_close: stop any that loop at once, quietly.
        h->budget_exhausted = 1;
        lua_sethook(h->L, count_hook, LUA_MASKCOUNT, 1);
        lua_setwarnf(h->L, silent_warnings, NULL);
        lua_close(h->L);
    }
    free(h->query_buffer);
    free(h->message);
    free(h->string_result);
    free(h);
}

void cardlua_set_query(cardlua_host *h, cardlua_query_fn query, void *context) {
    h->query = query;
    h->query_context = context;
}

void cardlua_set_check_mode(cardlua_host *h, int on) { h->check_mode = on; }

const char *cardlua_message(cardlua_host *h) { return h->message ? h->message : ""; }

size_t cardlua_memory_in_use(cardlua_host *h) { return h->memory_used; }

// MARK: - Entry points

static int body_load(lua_State *L) {
    cardlua_host *h = host_of(L);
    char chunk[520];
    snprintf(chunk, sizeof chunk, "@%s", h->chunkname);
    // Text only: bytecode can crash the VM.
    if (luaL_loadbufferx(L, h->load_source, h->load_length, chunk, "t") != LUA_OK) return lua_error(L);
    lua_call(L, 0, 0);
    return 0;
}

int cardlua_load_script(cardlua_host *h, const char *source, size_t length, const char *chunkname) {
    snprintf(h->chunkname, sizeof h->chunkname, "%s", chunkname);
    h->callback = NULL;
    h->callback_line = 1;
    h->load_source = source;
    h->load_length = length;
    int status = run_protected(h, body_load);
    h->load_source = NULL;
    return status;
}

static int body_has_function(lua_State *L) {
    cardlua_host *h = host_of(L);
    lua_pushglobaltable(L);
    lua_pushstring(L, h->internal_name);
    h->numbers_count = (lua_rawget(L, -2) == LUA_TFUNCTION);
    return 0;
}

int cardlua_has_function(cardlua_host *h, const char *name) {
    h->internal_name = name;
    h->numbers_count = 0;
    h->callback = NULL;
    if (run_protected(h, body_has_function) != CARDLUA_OK) return 0;
    return (int)h->numbers_count;
}

static int body_prepare(lua_State *L) {
    cardlua_host *h = host_of(L);
    apply_state(L, h);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_layout);
    int layout = lua_gettop(L);
    h->callback = "prepare";
    if (push_callback(L, h, "prepare")) {
        lua_pushvalue(L, layout);
        lua_call(L, 1, 0);
    } else {
        lua_pop(L, 1);
    }
    reset_budget(h);
    push_internal(L, h, "readLayout");
    lua_pushvalue(L, layout);
    lua_call(L, 1, 1);
    for (int i = 0; i < CARDLUA_CFG_COUNT; i++) {
        lua_rawgeti(L, -1, i + 1);
        h->config_out[i] = lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    return 0;
}

int cardlua_prepare(cardlua_host *h, const double *state, double *config_out) {
    h->state = state;
    h->config_out = config_out;
    h->callback = "prepare";
    h->callback_line = 1;
    return run_protected(h, body_prepare);
}

static int body_transform(lua_State *L) {
    cardlua_host *h = host_of(L);
    apply_state(L, h);
    h->callback = "transform";
    int hasTransform = push_callback(L, h, "transform");
    int F = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_attributes);
    int A = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_layout);
    int Lo = lua_gettop(L);
    for (long i = 0; i < h->count; i++) {
        const double *b = h->input + i * CARDLUA_IN_STRIDE;
        h->item_index = i;
        h->item_number = (long)b[1];
        h->has_item = 1;
        clear_table(L, A);
        if (hasTransform) {
            reset_budget(h);
            lua_pushvalue(L, F);
            lua_pushvalue(L, A);
            lua_pushvalue(L, Lo);
            lua_call(L, 2, 1);
        } else {
            lua_pushnil(L);
        }
        read_item(L, h, A, lua_gettop(L), i);
        if (h->check_mode) note_unknown_keys(L, h, A);
        lua_settop(L, Lo);
    }
    clear_table(L, A);
    h->has_item = 0;
    return 0;
}

int cardlua_transform(cardlua_host *h, const double *state, const double *input, long count,
                      double *output) {
    h->state = state;
    h->input = input;
    h->output = output;
    h->count = count;
    h->item_index = -1;
    h->callback = "transform";
    h->callback_line = 1;
    return run_protected(h, body_transform);
}

static int body_target(lua_State *L) {
    cardlua_host *h = host_of(L);
    apply_state(L, h);
    h->callback = "targetContentOffset";
    if (!push_callback(L, h, "targetContentOffset")) {
        h->point_out[0] = h->proposed[0];
        h->point_out[1] = h->proposed[1];
        return 0;
    }
    int F = lua_gettop(L);
    push_internal(L, h, "readPoint");
    lua_pushvalue(L, F);
    push_internal(L, h, "point");
    lua_pushnumber(L, h->proposed[0]);
    lua_pushnumber(L, h->proposed[1]);
    lua_call(L, 2, 1);
    push_internal(L, h, "point");
    lua_pushnumber(L, h->proposed[2]);
    lua_pushnumber(L, h->proposed[3]);
    lua_call(L, 2, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_layout);
    lua_call(L, 3, 1);  // F(proposed, velocity, layout): readPoint, result on the stack
    reset_budget(h);
    // readPoint(result, proposed): a fresh proposal, in case the script changed its copy.
    push_internal(L, h, "point");
    lua_pushnumber(L, h->proposed[0]);
    lua_pushnumber(L, h->proposed[1]);
    lua_call(L, 2, 1);
    lua_call(L, 2, 2);
    h->point_out[0] = lua_tonumber(L, -2);
    h->point_out[1] = lua_tonumber(L, -1);
    return 0;
}

int cardlua_target_content_offset(cardlua_host *h, const double *state, double px, double py,
                                  double vx, double vy, double *result) {
    h->state = state;
    h->proposed[0] = px; h->proposed[1] = py; h->proposed[2] = vx; h->proposed[3] = vy;
    h->point_out = result;
    h->callback = "targetContentOffset";
    h->callback_line = 1;
    return run_protected(h, body_target);
}

static int body_internal(lua_State *L) {
    cardlua_host *h = host_of(L);
    push_internal(L, h, h->internal_name);
    if (h->internal_argument) lua_pushstring(L, h->internal_argument); else lua_pushnil(L);
    lua_call(L, 1, 1);
    if (h->numbers_out == NULL) {  // a string result
        size_t len = 0;
        const char *s = lua_tolstring(L, -1, &len);
        if (s == NULL) return luaL_error(L, "internal %s returned no string", h->internal_name);
        char *copy = (char *)malloc(len + 1);
        if (copy == NULL) return luaL_error(L, "not enough memory");
        memcpy(copy, s, len + 1);
        free(h->string_result);
        h->string_result = copy;
        return 0;
    }
    luaL_checktype(L, -1, LUA_TTABLE);
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    h->numbers_count = (long)n;
    for (lua_Integer i = 0; i < n && i < h->numbers_capacity; i++) {
        lua_rawgeti(L, -1, i + 1);
        h->numbers_out[i] = lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    return 0;
}

int cardlua_call_internal(cardlua_host *h, const char *name, const char *argument, double *output,
                          long capacity, long *count) {
    h->internal_name = name;
    h->internal_argument = argument;
    h->numbers_out = output;
    h->numbers_capacity = capacity;
    h->numbers_count = 0;
    h->callback = NULL;
    h->callback_line = 1;
    int status = run_protected(h, body_internal);
    if (count) *count = h->numbers_count;
    return status;
}

const char *cardlua_call_internal_string(cardlua_host *h, const char *name, const char *argument,
                                         int *status) {
    h->internal_name = name;
    h->internal_argument = argument;
    h->numbers_out = NULL;
    h->callback = NULL;
    h->callback_line = 1;
    int s = run_protected(h, body_internal);
    if (status) *status = s;
    return s == CARDLUA_OK ? h->string_result : NULL;
}

static int body_bench(lua_State *L) {
    cardlua_host *h = host_of(L);
    if (luaL_loadbufferx(L, "return function() end", 21, "=bench", "t") != LUA_OK) return lua_error(L);
    lua_call(L, 0, 1);
    h->numbers_count = 0;
    return 1;
}

int cardlua_bench_empty_pcalls(cardlua_host *h, long count) {
    lua_State *L = h->L;
    if (h->poisoned) return CARDLUA_LIMIT;
    // Make the empty function protected, then time only the bare pcalls.
    lua_settop(L, 0);
    lua_pushcfunction(L, body_bench);
    if (lua_pcall(L, 0, 1, 0) != LUA_OK) { lua_settop(L, 0); return CARDLUA_ERROR; }
    for (long i = 0; i < count; i++) {
        h->budget_left = h->budget;
        lua_pushvalue(L, 1);
        if (lua_pcall(L, 0, 0, 0) != LUA_OK) { lua_settop(L, 0); return CARDLUA_ERROR; }
    }
    lua_settop(L, 0);
    return CARDLUA_OK;
}
