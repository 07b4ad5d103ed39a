// Metatables a script can reach, given by C: setmetatable's sandbox rule (no __gc: a
// finalizer runs with hooks off, outside every limit, possibly in lua_close after the
// run) for the C that makes tables with the prelude's metatables (the geometry
// constructors, CGPointApplyAffineTransform, the element makers) as for the sandbox's
// own setmetatable (sandbox.c). See README.md in this folder, *The sandbox*.
#include "CLuaShims.h"
#include "internal.h"

#include <lauxlib.h>
#include <lua.h>

void cardlua__refuse_finalizer(lua_State *L, int mt) {
    lua_pushliteral(L, "__gc");
    int gc = lua_rawget(L, mt) != LUA_TNIL;
    lua_pop(L, 1);
    if (gc)
        luaL_error(L, "setmetatable: __gc metamethods are not allowed in cardlua scripts "
                      "(a finalizer runs outside the limits)");
}

void cardlua__set_checked_metatable(lua_State *L, int mt) {
    cardlua__refuse_finalizer(L, mt);
    lua_pushvalue(L, mt);
    lua_setmetatable(L, -2);
}

void cardlua__set_checked_metatable_with(lua_State *L, int mt, int gc_key) {
    lua_pushvalue(L, gc_key);
    if (lua_rawget(L, mt) != LUA_TNIL) {
        lua_pop(L, 1);
        cardlua__refuse_finalizer(L, mt);  // raises, with its message
    }
    // The nil the look-up left becomes the metatable (lua_setmetatable pops it): one
    // lua_copy instead of a pop and a push, on the path of every table a maker hands out.
    lua_copy(L, mt, -1);
    lua_setmetatable(L, -2);
}
