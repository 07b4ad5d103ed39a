// Private to CLuaShims: what shims.c (the host: limits, entry points) and sandbox.c (the
// library functions scripts see) share. Not part of the module's public header, so Swift
// never sees these. See README.md in this folder.
#ifndef CARDLUA_SHIMS_INTERNAL_H
#define CARDLUA_SHIMS_INTERNAL_H

#include <lua.h>

/// Charges `units` of C work against the instruction budget of the call under way (one
/// unit is worth one VM instruction) and raises the limit error once a limit is reached
/// (the budget, the memory cap or the time limit). Also checks the clock when the charge
/// is large. Call only from C functions that Lua called (the error unwinds to the
/// nearest lua_pcall).
void shims_charge(lua_State *L, long long units);

/// shims_charge, with what to say if the budget runs out here (instead of "possible
/// infinite loop"), e.g. "a string pattern that backtracks too much".
void shims_charge_for(lua_State *L, long long units, const char *reason);

/// Whether a limit has been reached in this state (from then on every hook raises).
int shims_limit_reached(lua_State *L);

/// Installs the sandbox's replacements for library functions (the counted pattern
/// matcher, guarded table/string/utf8 functions, setmetatable without `__gc`, a
/// reproducible math.randomseed). Runs protected, after the libraries are open and
/// before the prelude. May raise.
void shims_install_sandbox(lua_State *L);

#endif
