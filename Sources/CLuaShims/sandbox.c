// The library functions a script sees, where the stock ones could run long in C without
// executing a single Lua instruction (so without a checkpoint or the count hook
// noticing), or could do something the sandbox forbids. Each charges its work to the
// budget through cardlua__charge (one step = one VM instruction's worth), so the
// budget stays the one, deterministic limit on work, whatever mix of Lua and C a script
// uses. See README.md in this folder.
//
// - string.find / match / gmatch / gsub: a pattern matcher of our own, with Lua 5.4's
//   syntax and results, that counts its steps. The stock matcher backtracks without
//   bound: string.find(string.rep("a", 5000), ".-.-.-.-x") would take hours.
// - table.concat / unpack / move / insert / remove / sort: the element count (or
//   n·log2 n for sort) is charged before the stock function runs; insert, remove and sort
//   refuse tables with a __len metamethod, whose length could change between our look
//   and the stock function's.
// - string.byte / char, utf8.len / codepoint / offset / char, tonumber: charged by size.
// - error, pcall, xpcall, tostring, string.format, string.rep: a flat fee per call, for
//   their fixed C cost (formatting, setjmp/longjmp), so that even a loop of nothing but
//   such calls exhausts the budget in well under the time limit; warn (and print, in
//   host.c) a larger one, so that a loop cannot flood standard error.
// - setmetatable refuses metatables with a __gc field: finalizers run with hooks
//   disabled (lgc.c's GCTM), so no limit could stop one that loops.
// - math.randomseed() without arguments reseeds with the fixed seed: runs stay
//   reproducible (Sources/CLuaShims/README.md).
// - xpcall, coroutine.wrap, coroutine.close: the limit error is raised inside the count
//   hook, and Lua runs a message handler, and closes a dead coroutine's to-be-closed
//   variables, before that unwinding restores hooks: script code run then would run
//   with hooks off, unstoppable. So once a limit is reached, a script's message handler
//   is skipped and a coroutine stopped by it is not closed (its state is discarded anyway).
//
// Everything here runs inside a lua_pcall made by cardlua__run_protected (errors.c); raising is how it reports.
#include "internal.h"

#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

/// The fixed seed of math.random (reproducible runs: the same script, the same output).
#define RANDOM_SEED 20160119

/// What the budget error says when it runs out in here.
#define TABLE_REASON "a table function over too many elements, or a loop that never ends"

// MARK: - Calling the stock function a wrapper stands for

/// The stock C function, kept as upvalue 1 of its wrapper, called in the wrapper's own
/// call frame (so its argument errors name the function as the script called it). Only
/// for functions without upvalues: wrap() checks.
static int call_original(lua_State *L) {
    lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(1));
    return original(L);
}

/// A non-negative span [first, last] as a count, saturating instead of overflowing.
static long long span(lua_Integer first, lua_Integer last) {
    if (last < first) return 0;
    lua_Unsigned n = (lua_Unsigned)last - (lua_Unsigned)first;
    return n >= (lua_Unsigned)LLONG_MAX ? LLONG_MAX : (long long)n + 1;
}


// MARK: - Table functions: the element count is charged before the stock function runs

/// Whether v (at index) has a metatable with a __len field.
static int has_len_metamethod(lua_State *L, int index) {
    if (!lua_getmetatable(L, index)) return 0;
    lua_pushliteral(L, "__len");
    int found = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 2);
    return found;
}

/// Whether the stock function could loop over v at index: a table, or a value with a
/// metatable (a string's, say). Anything else it rejects at once.
static int indexable(lua_State *L, int index) {
    if (lua_type(L, index) == LUA_TTABLE) return 1;
    if (!lua_getmetatable(L, index)) return 0;
    lua_pop(L, 1);
    return 1;
}

/// The length the stock insert, remove or sort will use; refuses a __len metamethod
/// (it could answer differently when the stock function asks again).
static lua_Integer plain_length(lua_State *L, const char *name) {
    if (has_len_metamethod(L, 1))
        luaL_error(L, "%s: a table with a __len metamethod is not supported in cardlua "
                      "(its work could not be bounded)", name);
    return (lua_Integer)lua_rawlen(L, 1);
}

/// table.concat(list [, sep [, i [, j]]]): charged j - i + 1. The length is computed once,
/// here, and passed on as j, so __len runs once as in the stock function.
static int guarded_concat(lua_State *L) {
    if (lua_type(L, 1) == LUA_TTABLE) {
        lua_settop(L, 4);
        luaL_optlstring(L, 2, "", NULL);
        lua_Integer first = luaL_optinteger(L, 3, 1);
        if (lua_isnil(L, 4)) {
            lua_pushinteger(L, luaL_len(L, 1));
            lua_replace(L, 4);
        }
        cardlua__charge_for(L, span(first, luaL_checkinteger(L, 4)), TABLE_REASON);
    }
    return call_original(L);
}

/// table.unpack(list [, i [, j]]): charged j - i + 1 (at most the stack's limit, past
/// which the stock function refuses at once).
static int guarded_unpack(lua_State *L) {
    lua_settop(L, 3);
    lua_Integer first = luaL_optinteger(L, 2, 1);
    if (lua_isnil(L, 3)) {
        lua_pushinteger(L, luaL_len(L, 1));
        lua_replace(L, 3);
    }
    long long n = span(first, luaL_checkinteger(L, 3));
    cardlua__charge_for(L, n < 1000000 ? n : 1000000, TABLE_REASON);
    return call_original(L);
}

/// table.move(a1, f, e, t [, a2]): charged e - f + 1 (the stock function moves that many,
/// nil or not).
static int guarded_move(lua_State *L) {
    lua_Integer first = luaL_checkinteger(L, 2);
    lua_Integer last = luaL_checkinteger(L, 3);
    luaL_checkinteger(L, 4);
    if (indexable(L, 1)) cardlua__charge_for(L, span(first, last), TABLE_REASON);
    return call_original(L);
}

/// table.insert(list, [pos,] value): charged #list + 1.
static int guarded_insert(lua_State *L) {
    if (indexable(L, 1)) cardlua__charge_for(L, (long long)plain_length(L, "table.insert") + 1, TABLE_REASON);
    return call_original(L);
}

/// table.remove(list [, pos]): charged #list + 1.
static int guarded_remove(lua_State *L) {
    if (indexable(L, 1)) cardlua__charge_for(L, (long long)plain_length(L, "table.remove") + 1, TABLE_REASON);
    return call_original(L);
}

/// table.sort(list [, comp]): charged n·⌈log2 n⌉ + n for the comparisons (a Lua
/// comparator's own instructions count as well).
static int guarded_sort(lua_State *L) {
    if (indexable(L, 1)) {
        long long n = (long long)plain_length(L, "table.sort");
        long long log2n = 1;
        while (log2n < 62 && (1LL << log2n) < n) log2n++;
        cardlua__charge_for(L, n > 0 ? n * log2n + n : 0, TABLE_REASON);
    }
    return call_original(L);
}

// MARK: - Functions charged by the size of what they scan or produce

/// A function with a flat fee per call (upvalue 2) for its fixed C cost.
static int charged_flat(lua_State *L) {
    cardlua__charge(L, lua_tointeger(L, lua_upvalueindex(2)));
    return call_original(L);
}

/// string.format: a fee per call and per argument.
static int charged_format(lua_State *L) {
    cardlua__charge(L, 10 + 5 * (long long)lua_gettop(L));
    return call_original(L);
}

/// string.byte, utf8.codepoint: charged by the number of values returned.
static int charged_by_results(lua_State *L) {
    int n = call_original(L);
    cardlua__charge(L, n);
    return n;
}

/// string.char, utf8.char: charged by the number of arguments.
static int charged_by_arguments(lua_State *L) {
    cardlua__charge(L, lua_gettop(L));
    return call_original(L);
}

/// utf8.len, utf8.offset, tonumber: charged by the length of the string they scan.
static int charged_by_string(lua_State *L) {
    if (lua_type(L, 1) == LUA_TSTRING) {
        size_t length;
        lua_tolstring(L, 1, &length);
        charge_bytes(L, length);
    }
    return call_original(L);
}

// MARK: - Base functions with sandbox rules

/// setmetatable(t, mt) without __gc: a finalizer runs with hooks off (the budget cannot
/// stop it), possibly in lua_close after the run; scripts have no use for one.
static int sandboxed_setmetatable(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE) cardlua__refuse_finalizer(L, 2);
    return call_original(L);
}

/// math.randomseed(): with no argument, the fixed seed (the stock one takes the time).
/// The stock function keeps the generator's state in an upvalue, so it is called as a
/// closure (upvalue 1 of this one), not through its C pointer.
static int reproducible_randomseed(lua_State *L) {
    if (lua_gettop(L) == 0) lua_pushinteger(L, RANDOM_SEED);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

// MARK: - Error paths that would run script code with hooks off

/// The message handler xpcall gets: the script's own (upvalue 1), unless a limit has been
/// reached. Then the error may have been raised inside the count hook, where hooks are
/// off, and a handler that loops could never be stopped; the error passes unchanged.
static int guarded_handler(lua_State *L) {
    if (cardlua__limit_reached(L)) {
        lua_settop(L, 1);
        return 1;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/// xpcall(f, msgh, ...) with msgh behind guarded_handler; a flat fee like pcall's.
static int guarded_xpcall(lua_State *L) {
    cardlua__charge(L, 10);
    if (lua_type(L, 2) == LUA_TFUNCTION) {
        lua_pushvalue(L, 2);
        lua_pushcclosure(L, guarded_handler, 1);
        lua_replace(L, 2);
    }
    return call_original(L);
}

/// The function coroutine.wrap returns. Upvalues: the coroutine, the stock
/// coroutine.resume and coroutine.close. As Lua's: resumes, returns what the coroutine
/// yields or returns, and on an error closes the coroutine and propagates the error
/// (a string gets the caller's position). Unlike Lua's, a coroutine stopped by a limit
/// is not closed: its __close metamethods would run with hooks off.
static int resume_wrapped(lua_State *L) {
    if (cardlua__limit_reached(L)) cardlua__charge(L, 0);  // nothing runs again after a limit
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_insert(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 2);
    lua_call(L, n + 1, LUA_MULTRET);  // ok, results... (resume itself does not raise)
    if (lua_toboolean(L, 1)) return lua_gettop(L) - 1;
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int status = lua_status(co);
    if (status != LUA_OK && status != LUA_YIELD && !cardlua__limit_reached(L)) {
        // The coroutine died of this error: close its to-be-closed variables; a __close
        // that fails replaces the error, as in Lua.
        lua_pushvalue(L, lua_upvalueindex(3));
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_call(L, 1, 2);
        lua_replace(L, 2);
    }
    lua_settop(L, 2);
    if (status != LUA_ERRMEM && lua_type(L, 2) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, 2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/// coroutine.wrap(f). Upvalues: the stock coroutine.resume and coroutine.close.
static int sandboxed_wrap(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    cardlua__watch_coroutine(co);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushcclosure(L, resume_wrapped, 3);
    return 1;
}

/// coroutine.resume(co, ...): refused once a limit is reached. Otherwise a coroutine
/// between the one the limit stopped and the main thread could catch the error (resume
/// returns false) and start more work before its own hook fires: retrying at every level
/// of a nest of coroutines grows the work exponentially.
static int guarded_resume(lua_State *L) {
    if (cardlua__limit_reached(L)) cardlua__charge(L, 0);  // raises the limit error again
    return call_original(L);
}

/// coroutine.create(f): the stock one, the new coroutine under the watching hook
/// (cardlua__watch_coroutine).
static int watched_create(lua_State *L) {
    int results = call_original(L);
    lua_State *co = lua_tothread(L, -1);
    if (co != NULL) cardlua__watch_coroutine(co);
    return results;
}

/// coroutine.close(co): refused once a limit is reached (a coroutine the limit stopped
/// would run its __close metamethods with hooks off).
static int guarded_close(lua_State *L) {
    if (cardlua__limit_reached(L)) cardlua__charge(L, 0);  // raises the limit error again
    return call_original(L);
}

// MARK: - The allowlist

/// What the sandbox does with a library function.
typedef enum {
    SB_KEEP,     /* the stock function (behind a flat fee when `fee` > 0) */
    SB_REMOVE,   /* gone: the script sees nil */
    SB_REPLACE,  /* ours (`function`), the stock one is not used */
    SB_WRAP,     /* ours around the stock one (upvalue 1, called directly: call_original) */
    SB_WRAP_CALL,/* ours around a stock function with upvalues (upvalue 1, called with lua_call) */
    SB_BUILD,    /* ours, made by `build` from the stock library (a closure over stock functions) */
} sandbox_action;

/// One function of the allowlist. Any function of an opened library that has no entry is
/// removed, so the table below is the whole of what a script can call.
typedef struct {
    const char *library;     /* NULL: the globals (base library) */
    const char *name;
    sandbox_action action;
    lua_CFunction function;  /* SB_REPLACE, SB_WRAP, SB_WRAP_CALL */
    void (*build)(lua_State *L, int library);  /* SB_BUILD: pushes the new value */
    int fee;                 /* SB_KEEP: units charged per call (0: none) */
    const char *reason;
} sandbox_entry;

/// coroutine.wrap: our own (see resume_wrapped), over the stock resume and close.
static void build_wrap(lua_State *L, int library) {
    lua_getfield(L, library, "resume");
    lua_getfield(L, library, "close");
    lua_pushcclosure(L, sandboxed_wrap, 2);
}

#define KEEP(lib, name, reason) {lib, name, SB_KEEP, NULL, NULL, 0, reason}
#define FEE(lib, name, fee, reason) {lib, name, SB_KEEP, NULL, NULL, fee, reason}
#define REMOVE(lib, name, reason) {lib, name, SB_REMOVE, NULL, NULL, 0, reason}
#define REPLACE(lib, name, f, reason) {lib, name, SB_REPLACE, f, NULL, 0, reason}
#define WRAP(lib, name, f, reason) {lib, name, SB_WRAP, f, NULL, 0, reason}

#define PURE "no I/O, bounded C work"
#define BOUNDED "bounded by its arguments' size, which the budget already paid for"

/// Processed in order (coroutine.wrap is built before resume and close are wrapped: it
/// closes over the stock ones).
static const sandbox_entry SANDBOX[] = {
    // Base library.
    KEEP(NULL, "assert", PURE),
    REMOVE(NULL, "collectgarbage", "steers the collector (and could stop it)"),
    REMOVE(NULL, "dofile", "reads files"),
    FEE(NULL, "error", 50, "a longjmp: fixed C cost"),
    KEEP(NULL, "getmetatable", PURE),
    KEEP(NULL, "ipairs", PURE),
    REMOVE(NULL, "load", "loads code that may be bytecode (crashes the VM)"),
    REMOVE(NULL, "loadfile", "reads files"),
    KEEP(NULL, "next", PURE),
    KEEP(NULL, "pairs", PURE),
    FEE(NULL, "pcall", 10, "a setjmp: fixed C cost"),
    REPLACE(NULL, "print", cardlua__native_print, "to standard error, escaped, one line per call, capped (host.c)"),
    KEEP(NULL, "rawequal", PURE),
    KEEP(NULL, "rawget", PURE),
    KEEP(NULL, "rawlen", PURE),
    KEEP(NULL, "rawset", PURE),
    REMOVE(NULL, "require", "reaches modules and files"),
    KEEP(NULL, "select", PURE),
    WRAP(NULL, "setmetatable", sandboxed_setmetatable, "refuses __gc: finalizers run with hooks off"),
    WRAP(NULL, "tonumber", charged_by_string, "converts a string of any length"),
    FEE(NULL, "tostring", 10, "formats: fixed C cost"),
    KEEP(NULL, "type", PURE),
    FEE(NULL, "warn", 1000, "writes to standard error, like print"),
    WRAP(NULL, "xpcall", guarded_xpcall, "its handler is skipped after a limit"),
    // string
    WRAP("string", "byte", charged_by_results, "as many results as asked"),
    WRAP("string", "char", charged_by_arguments, "as many bytes as arguments"),
    REMOVE("string", "dump", "makes bytecode, which can crash the VM when loaded"),
    REPLACE("string", "find", cardlua__counted_find, "the counted pattern matcher (pattern.c)"),
    WRAP("string", "format", charged_format, "10 + 5 per argument"),
    REPLACE("string", "gmatch", cardlua__counted_gmatch, "the counted pattern matcher (pattern.c)"),
    REPLACE("string", "gsub", cardlua__counted_gsub, "the counted pattern matcher (pattern.c)"),
    KEEP("string", "len", PURE),
    KEEP("string", "lower", "allocates: charged by the allocator"),
    REPLACE("string", "match", cardlua__counted_match, "the counted pattern matcher (pattern.c)"),
    KEEP("string", "pack", "allocates: charged by the allocator"),
    KEEP("string", "packsize", PURE),
    FEE("string", "rep", 10, "allocates (charged by the allocator) plus a fixed cost"),
    KEEP("string", "reverse", "allocates: charged by the allocator"),
    KEEP("string", "sub", "allocates: charged by the allocator"),
    KEEP("string", "unpack", BOUNDED),
    KEEP("string", "upper", "allocates: charged by the allocator"),
    // table
    WRAP("table", "concat", guarded_concat, "charged by the element count"),
    WRAP("table", "insert", guarded_insert, "charged by the element count; refuses __len"),
    WRAP("table", "move", guarded_move, "charged by the element count"),
    KEEP("table", "pack", BOUNDED),
    WRAP("table", "remove", guarded_remove, "charged by the element count; refuses __len"),
    WRAP("table", "sort", guarded_sort, "charged n log n + n; refuses __len"),
    WRAP("table", "unpack", guarded_unpack, "charged by the element count"),
    // math: pure functions of numbers, except the seed.
    KEEP("math", "abs", PURE), KEEP("math", "acos", PURE), KEEP("math", "asin", PURE),
    KEEP("math", "atan", PURE), KEEP("math", "atan2", PURE), KEEP("math", "ceil", PURE),
    KEEP("math", "cos", PURE), KEEP("math", "cosh", PURE), KEEP("math", "deg", PURE),
    KEEP("math", "exp", PURE), KEEP("math", "floor", PURE), KEEP("math", "fmod", PURE),
    KEEP("math", "frexp", PURE), KEEP("math", "ldexp", PURE), KEEP("math", "log", PURE),
    KEEP("math", "log10", PURE), KEEP("math", "max", PURE), KEEP("math", "min", PURE),
    KEEP("math", "modf", PURE), KEEP("math", "pow", PURE), KEEP("math", "rad", PURE),
    KEEP("math", "random", PURE),
    {"math", "randomseed", SB_WRAP_CALL, reproducible_randomseed, NULL, 0,
     "a fixed seed, also without arguments: reproducible runs"},
    KEEP("math", "sin", PURE), KEEP("math", "sinh", PURE), KEEP("math", "sqrt", PURE),
    KEEP("math", "tan", PURE), KEEP("math", "tanh", PURE), KEEP("math", "tointeger", PURE),
    KEEP("math", "type", PURE), KEEP("math", "ult", PURE),
    // utf8
    WRAP("utf8", "char", charged_by_arguments, "as many characters as arguments"),
    WRAP("utf8", "codepoint", charged_by_results, "as many results as asked"),
    KEEP("utf8", "codes", "an iterator: one Lua call per character"),
    WRAP("utf8", "len", charged_by_string, "scans the string"),
    WRAP("utf8", "offset", charged_by_string, "scans the string"),
    // coroutine
    {"coroutine", "wrap", SB_BUILD, NULL, build_wrap, 0,
     "does not close a coroutine a limit stopped"},
    WRAP("coroutine", "close", guarded_close, "refused after a limit"),
    WRAP("coroutine", "create", watched_create, "the new coroutine's own hook watches the time limits"),
    KEEP("coroutine", "isyieldable", PURE),
    WRAP("coroutine", "resume", guarded_resume, "refused after a limit"),
    KEEP("coroutine", "running", PURE),
    KEEP("coroutine", "status", PURE),
    KEEP("coroutine", "yield", PURE),
};

#define SANDBOX_COUNT (sizeof SANDBOX / sizeof SANDBOX[0])

/// The libraries opened (base, string, table, math, utf8, coroutine: no io, os, package,
/// debug), in the order their tables are walked.
static const char *const LIBRARIES[] = {NULL, "string", "table", "math", "utf8", "coroutine"};

/// Pushes the table of `library` (NULL: the globals).
static void push_library(lua_State *L, const char *library) {
    if (library == NULL) lua_pushglobaltable(L);
    else lua_getglobal(L, library);
}

static int same_library(const char *a, const char *b) {
    return a == b || (a && b && strcmp(a, b) == 0);
}

/// Whether `name` of `library` has an entry.
static int listed(const char *library, const char *name) {
    for (size_t i = 0; i < SANDBOX_COUNT; i++)
        if (same_library(SANDBOX[i].library, library) && strcmp(SANDBOX[i].name, name) == 0) return 1;
    return 0;
}

/// Applies one entry to the library table at index `library`.
static void apply_entry(lua_State *L, int library, const sandbox_entry *e) {
    if (e->action == SB_REMOVE) {
        lua_pushnil(L);
        lua_setfield(L, library, e->name);
        return;
    }
    if (e->action == SB_REPLACE) {
        lua_pushcfunction(L, e->function);
        lua_setfield(L, library, e->name);
        return;
    }
    if (e->action == SB_BUILD) {
        e->build(L, library);
        lua_setfield(L, library, e->name);
        return;
    }
    if (lua_getfield(L, library, e->name) == LUA_TNIL) {  // not in this Lua build
        lua_pop(L, 1);
        return;
    }
    if (e->action == SB_KEEP && e->fee == 0) {
        lua_pop(L, 1);
        return;
    }
    // A wrapper over the stock function (upvalue 1). Calling it directly is only right
    // for a function without upvalues: checked, so that another Lua release fails here,
    // loudly, rather than later.
    if (!lua_iscfunction(L, -1)) luaL_error(L, "sandbox: %s is not a C function", e->name);
    int direct = e->action != SB_WRAP_CALL;
    if (direct && lua_getupvalue(L, -1, 1) != NULL)
        luaL_error(L, "sandbox: %s has upvalues and cannot be called directly", e->name);
    if (e->action == SB_KEEP) {  // with a flat fee
        lua_pushinteger(L, e->fee);
        lua_pushcclosure(L, charged_flat, 2);
    } else {
        lua_pushcclosure(L, e->function, 1);
    }
    lua_setfield(L, library, e->name);
}

void cardlua__install_sandbox(lua_State *L) {
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
    luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1);
    lua_settop(L, 0);

    for (size_t i = 0; i < SANDBOX_COUNT; i++) {
        push_library(L, SANDBOX[i].library);
        apply_entry(L, lua_gettop(L), &SANDBOX[i]);
        lua_pop(L, 1);
    }
    // Anything not listed goes: a new Lua release's new function is not reachable until
    // it has an entry.
    for (size_t l = 0; l < sizeof LIBRARIES / sizeof LIBRARIES[0]; l++) {
        push_library(L, LIBRARIES[l]);
        int t = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, t)) {
            int unlisted = lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TFUNCTION &&
                           !listed(LIBRARIES[l], lua_tostring(L, -2));
            lua_pop(L, 1);
            if (unlisted) {  // assigning nil to an existing field is allowed during lua_next
                lua_pushvalue(L, -1);
                lua_pushnil(L);
                lua_rawset(L, t);
            }
        }
        lua_pop(L, 1);
    }

    // Hide the string metatable so scripts cannot change how every string behaves.
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
    }
    lua_settop(L, 0);

    lua_getglobal(L, LUA_MATHLIBNAME);
    lua_getfield(L, -1, "randomseed");
    lua_call(L, 0, 0);  // the fixed seed
    lua_settop(L, 0);
}
