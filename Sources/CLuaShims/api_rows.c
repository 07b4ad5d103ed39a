// The rows of the API that the C installers hand the prelude (native.transformMath,
// native.geometryMakers, native.elementMakers): one per function or value a script can
// use, with its name, parameters, their kinds (argError's letters), result and doc line,
// from which the prelude defines the globals and `cardlua types` writes their signatures
// (defineAll in core.lua). Each installer's own table (FUNCTIONS, MAKERS) is the one
// owner of its rows. See README.md in this folder, *The transform math in C*.
#include "CLuaShims.h"
#include "internal.h"

#include <lauxlib.h>
#include <lua.h>

/// Appends a row of the API to the array part of the table at `result`: { name =,
/// params =, kinds =, returns =, doc = } (a value: no params or kinds).
void cardlua__list_api(lua_State *L, int result, const char *name, const char *params, const char *kinds,
                       const char *returns, const char *doc) {
    lua_createtable(L, 0, 5);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "name");
    if (params != NULL) {
        lua_pushstring(L, params);
        lua_setfield(L, -2, "params");
        lua_pushstring(L, kinds);
        lua_setfield(L, -2, "kinds");
    }
    lua_pushstring(L, returns);
    lua_setfield(L, -2, "returns");
    lua_pushstring(L, doc);
    lua_setfield(L, -2, "doc");
    lua_rawseti(L, result, (lua_Integer)lua_rawlen(L, result) + 1);
}
