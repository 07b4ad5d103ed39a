// The geometry constructors in C: CGPointMake, CGSizeMake, CGRectMake and
// UIEdgeInsetsMake, the same values as their Lua reference (Sources/CardLua/Lua/reference/
// geometry.lua) in the same tables with the prelude's metatables, and the same messages
// for bad arguments (through the prelude's argError). A script that builds one value per item — a
// `sizeForItem` over a million items above all — spends most of its time here, and a C
// function saves the Lua call frame and the three type tests. The rect getters
// (CGRectGetMidX …) likewise: LoL reads one per item (docs/benchmark-history.md). See README.md here.
#include "CLuaShims.h"
#include "internal.h"

#include <lauxlib.h>
#include <lua.h>

/// The upvalues of each constructor (and getter).
enum {
    UV_METATABLE = 1, /* Point, Size, Rect or Insets (a getter: nil) */
    UV_ARG_ERROR,     /* the prelude's argError(fn, params, kinds, ...) */
    UV_NAME,          /* "CGSizeMake" */
    UV_PARAMS,        /* "width, height" */
    UV_KINDS,         /* "nn" */
    UV_GC,            /* "__gc", for the metatable's check */
    UV_KEY1,          /* the field names, as many as the value has */
};

/// Builds the value from the first `count` arguments when they are numbers and the one
/// after them is absent or nil (the Lua version's `extra ~= nil` test); otherwise hands
/// all `count + 1` of them to argError, which raises at the script's line (level 3:
/// argError, this function, its caller).
static int make(lua_State *L, int count) {
    int ok = lua_gettop(L) <= count || lua_type(L, count + 1) <= LUA_TNIL;  // (the usual call: no more)
    for (int k = 1; k <= count && ok; k++) ok = lua_type(L, k) == LUA_TNUMBER;
    if (!ok) {
        return cardlua__raise_arg_error(L, count + 1, lua_upvalueindex(UV_ARG_ERROR), lua_tostring(L, lua_upvalueindex(UV_NAME)),
                               lua_tostring(L, lua_upvalueindex(UV_PARAMS)), lua_tostring(L, lua_upvalueindex(UV_KINDS)));
    }
    // A unit per field, as the transform math charges (the allocation is charged by the
    // allocator on top), before anything is allocated.
    cardlua__charge(L, count);
    lua_createtable(L, 0, count);
    for (int k = 1; k <= count; k++) {
        lua_pushvalue(L, lua_upvalueindex(UV_KEY1 + k - 1));
        lua_pushvalue(L, k);
        lua_rawset(L, -3);
    }
    // setmetatable's rule in the sandbox: a metatable a script gave __gc is refused.
    cardlua__set_checked_metatable_with(L, lua_upvalueindex(UV_METATABLE), lua_upvalueindex(UV_GC));
    return 1;
}

static int make2(lua_State *L) { return make(L, 2); }
static int make4(lua_State *L) { return make(L, 4); }

// MARK: - The getters (CGRectGetMinX …): the Lua reference's reads, in its order

/// What a getter computes from the rect's x (or y) and width (or height).
enum { GET_MIN, GET_MID, GET_MAX, GET_LENGTH };

/// Pushes a + b (op LUA_OPADD) or a / b (LUA_OPDIV) of the values at a and b as Lua's VM
/// computes it: two numbers here (an integer sum wraps, a quotient is a float), anything
/// else through lua_arith (strings converted, metamethods, the VM's error otherwise).
static void arith(lua_State *L, int a, int b, int op) {
    if (lua_type(L, a) == LUA_TNUMBER && lua_type(L, b) == LUA_TNUMBER) {
        if (op == LUA_OPADD && lua_isinteger(L, a) && lua_isinteger(L, b)) {
            lua_pushinteger(L, (lua_Integer)((lua_Unsigned)lua_tointeger(L, a) + (lua_Unsigned)lua_tointeger(L, b)));
        } else {
            lua_Number x = lua_tonumber(L, a), y = lua_tonumber(L, b);
            lua_pushnumber(L, op == LUA_OPADD ? x + y : x / y);
        }
        return;
    }
    lua_pushvalue(L, a);
    lua_pushvalue(L, b);
    lua_arith(L, op);
}

/// The getter's result from the rect's raw fields, when that is what the reads below
/// would give without running anything: r (argument 1, a table) holds `width` itself, so
/// the check's `r.width` is a raw hit (no __index), and so are the fields the result
/// reads (`x`, and `width`; or `y`, `height`), numbers where they are added (strings
/// and other values go the slow way: lua_arith, its coercions and metamethods). The
/// arithmetic is the VM's: `x + width / 2` a float, `x + width` an integer when both are
/// (wrapping), the origin or length returned as read. Returns 0 (having pushed what it
/// read, which the caller removes) when the slow path must decide. LoL calls
/// CGRectGetMidX once per item: three lua_gettable and the slow arithmetic were ≈ 785
/// instructions.
static int get_raw(lua_State *L, int which, int y_axis, int top) {
    lua_pushvalue(L, lua_upvalueindex(UV_KEY1 + 2));  // "width", the check's key
    int length_type = lua_rawget(L, 1);
    if (length_type == LUA_TNIL) return 0;
    int length = top + 1;
    if (y_axis && which != GET_MIN) {
        lua_pushvalue(L, lua_upvalueindex(UV_KEY1 + 1));  // "height"
        length_type = lua_rawget(L, 1);
        if (length_type == LUA_TNIL) return 0;
        length++;
    }
    if (which == GET_LENGTH) {
        cardlua__charge(L, 2);
        return 1;  // the length, on top
    }
    lua_pushvalue(L, lua_upvalueindex(UV_KEY1));  // "x" or "y"
    int origin_type = lua_rawget(L, 1);
    if (origin_type == LUA_TNIL) return 0;
    if (which == GET_MIN) {
        cardlua__charge(L, 2);
        return 1;  // the origin, on top
    }
    if (origin_type != LUA_TNUMBER || length_type != LUA_TNUMBER) return 0;
    cardlua__charge(L, 2);
    int origin = length + 1;
    if (which == GET_MAX && lua_isinteger(L, origin) && lua_isinteger(L, length)) {
        lua_pushinteger(L, (lua_Integer)((lua_Unsigned)lua_tointegerx(L, origin, NULL) +
                                         (lua_Unsigned)lua_tointegerx(L, length, NULL)));
        return 1;
    }
    lua_Number x = lua_tonumberx(L, origin, NULL), w = lua_tonumberx(L, length, NULL);
    lua_pushnumber(L, which == GET_MAX ? x + w : x + w / 2);
    return 1;
}

/// CGRectGetMinX(r) and the others: `if type(r) ~= "table" or r.width == nil or extra ~=
/// nil then argError(…) end`, then the fields read as `r.x` reads them (metamethods
/// included), in the reference's order. Upvalues: UV_ARG_ERROR, UV_NAME, and the field
/// names in UV_KEY1… ("x", "width" or "y", "height"; then "width", which the check reads).
static int get(lua_State *L, int which, int y_axis) {
    int top = lua_gettop(L);
    if (lua_type(L, 1) == LUA_TTABLE && lua_type(L, 2) <= LUA_TNIL) {
        if (get_raw(L, which, y_axis, top)) return 1;
        lua_settop(L, top);  // what get_raw pushed goes (slot 2 must be the argument or nil)
    }
    lua_settop(L, 2);
    int ok = lua_type(L, 1) == LUA_TTABLE;
    if (ok) {
        lua_pushvalue(L, lua_upvalueindex(UV_KEY1 + 2));  // the check reads .width, whichever axis
        ok = lua_gettable(L, 1) != LUA_TNIL && lua_type(L, 2) <= LUA_TNIL;
        lua_settop(L, 2);
    }
    if (!ok)
        return cardlua__raise_arg_error(L, 2, lua_upvalueindex(UV_ARG_ERROR), lua_tostring(L, lua_upvalueindex(UV_NAME)),
                                        "r", "R");
    cardlua__charge(L, 2);
    if (which == GET_LENGTH) {
        lua_pushvalue(L, lua_upvalueindex(UV_KEY1 + 1));
        lua_gettable(L, 1);
        return 1;
    }
    lua_pushvalue(L, lua_upvalueindex(UV_KEY1));
    lua_gettable(L, 1);  // 3: r.x
    if (which == GET_MIN) return 1;
    lua_pushvalue(L, lua_upvalueindex(UV_KEY1 + 1));
    lua_gettable(L, 1);  // 4: r.width
    if (which == GET_MAX) {
        arith(L, 3, 4, LUA_OPADD);
        return 1;
    }
    lua_pushinteger(L, 2);
    arith(L, 4, 5, LUA_OPDIV);  // 6: r.width / 2
    arith(L, 3, 6, LUA_OPADD);
    return 1;
}

static int get_min_x(lua_State *L) { return get(L, GET_MIN, 0); }
static int get_mid_x(lua_State *L) { return get(L, GET_MID, 0); }
static int get_max_x(lua_State *L) { return get(L, GET_MAX, 0); }
static int get_width(lua_State *L) { return get(L, GET_LENGTH, 0); }
static int get_min_y(lua_State *L) { return get(L, GET_MIN, 1); }
static int get_mid_y(lua_State *L) { return get(L, GET_MID, 1); }
static int get_max_y(lua_State *L) { return get(L, GET_MAX, 1); }
static int get_height(lua_State *L) { return get(L, GET_LENGTH, 1); }

/// One constructor or getter: its name, the metatable argument it uses (0: a getter), its
/// parameters, keys, result and doc: the one list of them (the prelude defines the globals
/// from it; the Lua reference, Sources/CardLua/Lua/reference/geometry.lua, is held equal
/// by a test). A getter's keys are the origin's field and the length's.
static const struct {
    const char *name;
    lua_CFunction getter;  /* NULL: a constructor */
    int metatable;  /* the argument index of its metatable */
    const char *params;
    const char *kinds;
    const char *keys[4];
    const char *returns;
    const char *doc;
} MAKERS[] = {
    {"CGPointMake", NULL, 1, "x, y", "nn", {"x", "y"}, "CGPoint", "A point."},
    {"CGSizeMake", NULL, 2, "width, height", "nn", {"width", "height"}, "CGSize", "A size."},
    {"CGRectMake", NULL, 3, "x, y, width, height", "nnnn", {"x", "y", "width", "height"}, "CGRect", "A rectangle."},
    {"UIEdgeInsetsMake", NULL, 4, "top, left, bottom, right", "nnnn", {"top", "left", "bottom", "right"}, "UIEdgeInsets",
     "Insets from each edge."},
    {"CGRectGetMinX", get_min_x, 0, "r", "R", {"x", "width"}, "number", "The rect's smallest x."},
    {"CGRectGetMidX", get_mid_x, 0, "r", "R", {"x", "width"}, "number", "The rect's centre x."},
    {"CGRectGetMaxX", get_max_x, 0, "r", "R", {"x", "width"}, "number", "The rect's largest x."},
    {"CGRectGetMinY", get_min_y, 0, "r", "R", {"y", "height"}, "number", "The rect's smallest y."},
    {"CGRectGetMidY", get_mid_y, 0, "r", "R", {"y", "height"}, "number", "The rect's centre y."},
    {"CGRectGetMaxY", get_max_y, 0, "r", "R", {"y", "height"}, "number", "The rect's largest y."},
    {"CGRectGetWidth", get_width, 0, "r", "R", {"x", "width"}, "number", "The rect's width."},
    {"CGRectGetHeight", get_height, 0, "r", "R", {"y", "height"}, "number", "The rect's height."},
};

/// native.geometryMakers(Point, Size, Rect, Insets, argError) → a table of the C
/// constructors and getters by name, its array part their rows in order (cardlua__list_api). Called
/// once, by the prelude (geometry.lua).
int cardlua__geometry_makers(lua_State *L) {
    for (int k = 1; k <= 4; k++) luaL_checktype(L, k, LUA_TTABLE);
    luaL_checktype(L, 5, LUA_TFUNCTION);
    lua_settop(L, 5);
    luaL_checkstack(L, UV_KEY1 + 8, "geometryMakers");
    size_t n = sizeof MAKERS / sizeof MAKERS[0];
    lua_createtable(L, (int)n, (int)n);
    int result = lua_gettop(L);
    for (size_t i = 0; i < n; i++) {
        cardlua__list_api(L, result, MAKERS[i].name, MAKERS[i].params, MAKERS[i].kinds, MAKERS[i].returns,
                          MAKERS[i].doc);
        int count = MAKERS[i].getter || !MAKERS[i].kinds[2] ? 2 : 4;  /* a getter's two keys, "nn" or "nnnn" */
        if (MAKERS[i].getter) lua_pushnil(L); else lua_pushvalue(L, MAKERS[i].metatable);
        lua_pushvalue(L, 5);
        lua_pushstring(L, MAKERS[i].name);
        lua_pushstring(L, MAKERS[i].params);
        lua_pushstring(L, MAKERS[i].kinds);
        lua_pushliteral(L, "__gc");
        for (int k = 0; k < count; k++) lua_pushstring(L, MAKERS[i].keys[k]);
        if (MAKERS[i].getter) lua_pushliteral(L, "width");
        lua_pushcclosure(L, MAKERS[i].getter ? MAKERS[i].getter : count == 2 ? make2 : make4,
                         UV_KEY1 - 1 + count + (MAKERS[i].getter != NULL));
        lua_setfield(L, -2, MAKERS[i].name);
    }
    return 1;
}
