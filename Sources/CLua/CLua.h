// The Lua 5.4 C API as installed by the OS package (include path from pkg-config lua5.4).
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
