// The geometry constructors in C: CGPointMake, CGSizeMake, CGRectMake and
// UIEdgeInsetsMake, the same values as their Lua reference (Sources/CardLua/Lua/reference/
// geometry.lua) in the same tables with the prelude's metatables, and the same messages
// for bad arguments (through the prelude's argError). A script that builds one value per item — a
// `sizeForItem` over a million items above all — spends most of its time here, and a C
// function saves the Lua call frame and the three type tests. See README.md here.
#include "CLuaShims.h"
#include "internal.h"

#include <lauxlib.h>
#include <lua.h>

/// The upvalues of each constructor.
enum {
    UV_METATABLE = 1, /* Point, Size, Rect or Insets */
    UV_ARG_ERROR,     /* the prelude's argError(fn, params, kinds, ...) */
    UV_NAME,          /* "CGSizeMake" */
    UV_PARAMS,        /* "width, height" */
    UV_KINDS,         /* "nn" */
    UV_KEY1,          /* the field names, as many as the value has */
};

/// Builds the value from the first `count` arguments when they are numbers and the one
/// after them is absent or nil (the Lua version's `extra ~= nil` test); otherwise hands
/// all `count + 1` of them to argError, which raises at the script's line (level 3:
/// argError, this function, its caller).
static int make(lua_State *L, int count) {
    int ok = lua_type(L, count + 1) <= LUA_TNIL;
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
    cardlua__set_checked_metatable(L, lua_upvalueindex(UV_METATABLE));
    return 1;
}

static int make2(lua_State *L) { return make(L, 2); }
static int make4(lua_State *L) { return make(L, 4); }

/// One constructor: its name, the metatable argument it uses, its parameters, keys,
/// result and doc: the one list of them (the prelude defines the globals from it; the Lua
/// reference, Sources/CardLua/Lua/reference/geometry.lua, is held equal by a test).
static const struct {
    const char *name;
    int metatable;  /* the argument index of its metatable */
    const char *params;
    const char *kinds;
    const char *keys[4];
    const char *returns;
    const char *doc;
} MAKERS[] = {
    {"CGPointMake", 1, "x, y", "nn", {"x", "y"}, "CGPoint", "A point."},
    {"CGSizeMake", 2, "width, height", "nn", {"width", "height"}, "CGSize", "A size."},
    {"CGRectMake", 3, "x, y, width, height", "nnnn", {"x", "y", "width", "height"}, "CGRect", "A rectangle."},
    {"UIEdgeInsetsMake", 4, "top, left, bottom, right", "nnnn", {"top", "left", "bottom", "right"}, "UIEdgeInsets",
     "Insets from each edge."},
};

/// native.geometryMakers(Point, Size, Rect, Insets, argError) → a table of the four C
/// constructors by name, its array part their rows in order (cardlua__list_api). Called
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
        int count = MAKERS[i].kinds[2] ? 4 : 2;  /* "nn" or "nnnn" */
        lua_pushvalue(L, MAKERS[i].metatable);
        lua_pushvalue(L, 5);
        lua_pushstring(L, MAKERS[i].name);
        lua_pushstring(L, MAKERS[i].params);
        lua_pushstring(L, MAKERS[i].kinds);
        for (int k = 0; k < count; k++) lua_pushstring(L, MAKERS[i].keys[k]);
        lua_pushcclosure(L, count == 2 ? make2 : make4, UV_KEY1 - 1 + count);
        lua_setfield(L, -2, MAKERS[i].name);
    }
    return 1;
}
