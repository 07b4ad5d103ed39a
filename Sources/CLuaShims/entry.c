// The entry points other than transform: loading a script, prepare, targetContentOffset,
// the prelude's internals, the benchmark floor. See README.md in this folder.
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

/// A script's size as its refusal says it: whole MiB ("300 MiB"), or MiB rounded up to a
/// tenth ("8.1 MiB": never shown equal to the bound it exceeds). ScriptFile.swift says
/// the same for a file.
static void describe_script_size(size_t bytes, char *out, size_t size) {
    size_t mib = (size_t)1 << 20;
    if (bytes % mib == 0) { snprintf(out, size, "%zu MiB", bytes / mib); return; }
    size_t tenths = bytes / mib * 10 + ((bytes % mib) * 10 + mib - 1) / mib;  // cannot wrap
    snprintf(out, size, "%zu.%zu MiB", tenths / 10, tenths % 10);
}

CARDLUA_BODY(body_too_long, load_call)
CARDLUA_BODY(body_load, load_call)

static int body_too_long(lua_State *L, load_call *load) {
    char size[32];
    describe_script_size(load->length, size, sizeof size);
    return luaL_error(L, "the script is %s; scripts are limited to %d MiB", size,
                      (int)(CARDLUA_SCRIPT_MAX_BYTES >> 20));
}

static int body_load(lua_State *L, load_call *load) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    char chunk[520];
    snprintf(chunk, sizeof chunk, "@%s", h->chunkname);
    // Text only: bytecode can crash the VM. The text with checkpoints first (see
    // cardlua_load_script); if that does not compile, the text as it is, whose message
    // is then the one reported, or which runs under the count hook.
    // While Lua parses, a "C stack overflow" is nesting, not recursion (errors.c says so).
    load->call.parsing = 1;
    int checkpoints = load->instrumented != NULL &&
                      luaL_loadbufferx(L, load->instrumented, load->instrumented_length, chunk, "t") == LUA_OK;
    if (!checkpoints && h->skip_checkpoints && h->checkpoints) {
        // For tests: as it is, and still without the hook (cardlua_skip_checkpoints).
        lua_settop(L, 0);
        if (luaL_loadbufferx(L, load->source, load->length, chunk, "t") != LUA_OK) return lua_error(L);
        cardlua__count_on_checkpoints(h);
    } else if (!checkpoints) {
        lua_settop(L, 0);
        if (luaL_loadbufferx(L, load->source, load->length, chunk, "t") != LUA_OK) return lua_error(L);
        if (h->checkpoints && !h->budget_exhausted) {
            // A script without checkpoints in a state without the hook (the prelude's
            // turned it off): the hook again, for the rest of the state's life.
            h->checkpoints = 0;
            lua_sethook(L, cardlua__count_hook, LUA_MASKCOUNT, h->hook_step);
        }
    } else {
        // Both chunks count on checkpoints: the hook's trap mode goes, if the prelude's
        // first checkpoint has not already turned it off (limits.c puts the hook back
        // past half the memory cap, or at a limit).
        cardlua__push_checkpoint(L);
        lua_setglobal(L, CARDLUA_CHECKPOINT_GLOBAL);
        cardlua__count_on_checkpoints(h);
    }
    load->call.parsing = 0;
    lua_call(L, 0, 0);
    return 0;
}

int cardlua_load_script(cardlua_host *h, const char *source, size_t length, const char *chunkname) {
    REFUSE_REENTRY(h, CARDLUA_ERROR);
    snprintf(h->chunkname, sizeof h->chunkname, "%s", chunkname);
    cardlua__set_short_name(h);
    load_call load = {.call = {.callback_line = 1}, .source = source, .length = length};
    if (length > CARDLUA_SCRIPT_MAX_BYTES) {
        // Refused before the parser sees it: parsing runs no instruction, so neither the
        // budget nor the clock could stop it.
        load.call.callback_line = 0;
        load.source = NULL;
        return run_body_too_long(h, &load);
    }
    // A first line that starts with '#' (`#!/usr/bin/env lua`) is skipped, as the `lua`
    // command skips it (luaL_loadfilex; luaL_loadbufferx does not): the text from the
    // first '\n' on, that line end kept, so every line keeps its number. The syntax tree
    // check and export read skip it the same way (LuaLexer).
    if (length > 0 && source[0] == '#') {
        const char *newline = memchr(source, '\n', length);
        size_t skipped = newline != NULL ? (size_t)(newline - source) : length;
        source += skipped;
        length -= skipped;
        load.source = source;
        load.length = length;
    }
    // With checkpoints (checkpoints.c) when the state counts on them (the prelude has
    // them): then neither chunk needs the count hook, whose trap mode costs every
    // instruction.
    if (h->checkpoints && !h->skip_checkpoints)
        load.instrumented = cardlua_instrument(source, length, &load.instrumented_length);
    int status = run_body_load(h, &load);
    free(load.instrumented);
    return status;
}

/// cardlua_has_function's record: the name asked about, and the answer.
typedef struct {
    cardlua_call call;
    const char *name;
    int defined;                 // 1 when the script defined a global function of that name
} has_function_call;

CARDLUA_BODY(body_has_function, has_function_call)

static int body_has_function(lua_State *L, has_function_call *f) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    lua_pushglobaltable(L);
    lua_pushstring(L, f->name);
    f->defined = (lua_rawget(L, -2) == LUA_TFUNCTION);
    return 0;
}

int cardlua_has_function(cardlua_host *h, const char *name) {
    REFUSE_REENTRY(h, 0);
    has_function_call f = {.name = name};
    if (run_body_has_function(h, &f) != CARDLUA_OK) return 0;
    return f.defined;
}

/// The lengths prepare set (already checked finite and non-negative by the prelude's
/// readLayout) must also stay within MAX_MAGNITUDE, or the content size overflows.
static void check_layout_magnitudes(lua_State *L, const double *config) {
    static const struct { int index; const char *name; } lengths[] = {
        {CARDLUA_CFG_ITEM_W, "layout.itemSize.width"},
        {CARDLUA_CFG_ITEM_H, "layout.itemSize.height"},
        {CARDLUA_CFG_INSET_TOP, "layout.sectionInset.top"},
        {CARDLUA_CFG_INSET_LEFT, "layout.sectionInset.left"},
        {CARDLUA_CFG_INSET_BOTTOM, "layout.sectionInset.bottom"},
        {CARDLUA_CFG_INSET_RIGHT, "layout.sectionInset.right"},
        {CARDLUA_CFG_LINE_SPACING, "layout.minimumLineSpacing"},
        {CARDLUA_CFG_INTERITEM_SPACING, "layout.minimumInteritemSpacing"},
        {CARDLUA_CFG_HEADER_W, "layout.headerReferenceSize.width"},
        {CARDLUA_CFG_HEADER_H, "layout.headerReferenceSize.height"},
        {CARDLUA_CFG_FOOTER_W, "layout.footerReferenceSize.width"},
        {CARDLUA_CFG_FOOTER_H, "layout.footerReferenceSize.height"},
    };
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        double v = config[lengths[i].index];
        if (!(v <= MAX_MAGNITUDE && v >= -MAX_MAGNITUDE))
            luaL_error(L, "%s is %f, beyond the largest magnitude allowed (1e15)", lengths[i].name, (lua_Number)v);
    }
}

/// The stand-in layout's __newindex during prepare (upvalues: the layout, the lines
/// table): notes the assignment's line, then writes to the layout.
static int layout_newindex(lua_State *L) {
    cardlua_host *h = host_of(L);
    if (lua_type(L, 2) == LUA_TSTRING) {
        int line = cardlua__script_line(L, h);
        lua_pushvalue(L, 2);
        lua_pushinteger(L, line);
        lua_rawset(L, lua_upvalueindex(2));
    }
    lua_settop(L, 3);
    lua_rawset(L, lua_upvalueindex(1));
    return 0;
}

/// cardlua_prepare's record: where the layout's configuration goes.
typedef struct {
    cardlua_call call;
    double *config_out;          // CARDLUA_CFG_COUNT numbers
} prepare_call;

CARDLUA_BODY(body_prepare, prepare_call)

static int body_prepare(lua_State *L, prepare_call *p) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    cardlua__apply_state(L, h);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_layout);
    int layout = lua_gettop(L);
    p->call.callback = "prepare";
    if (cardlua__push_callback(L, h, "prepare")) {
        // prepare gets a stand-in for the layout: reads go to the layout itself (__index),
        // writes are forwarded after noting their line, so that readLayout's complaint
        // about layout.itemSize names the line that assigned it (prepare has returned by
        // then; its frames are gone).
        lua_newtable(L);  // key → line
        lua_pushvalue(L, -1);
        if (h->ref_layout_lines == LUA_NOREF) h->ref_layout_lines = luaL_ref(L, LUA_REGISTRYINDEX);
        else lua_rawseti(L, LUA_REGISTRYINDEX, h->ref_layout_lines);
        int lines = lua_gettop(L);
        lua_newtable(L);  // the stand-in
        lua_createtable(L, 0, 2);  // its metatable
        lua_pushvalue(L, layout);
        lua_setfield(L, -2, "__index");
        lua_pushvalue(L, layout);
        lua_pushvalue(L, lines);
        lua_pushcclosure(L, layout_newindex, 2);
        lua_setfield(L, -2, "__newindex");
        lua_setmetatable(L, -2);
        lua_remove(L, lines);  // prepare, then the stand-in
        lua_call(L, 1, 0);
        lua_settop(L, layout);
    } else {
        lua_pop(L, 1);
    }
    cardlua__reset_budget(h);
    cardlua__push_internal(L, h, "readLayout");
    lua_pushvalue(L, layout);
    lua_call(L, 1, 1);
    for (int i = 0; i < CARDLUA_CFG_COUNT; i++) {
        lua_rawgeti(L, -1, i + 1);
        p->config_out[i] = lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    check_layout_magnitudes(L, p->config_out);
    return 0;
}

int cardlua_prepare(cardlua_host *h, const double *state, double *config_out) {
    REFUSE_REENTRY(h, CARDLUA_ERROR);
    prepare_call p = {.call = {.state = state, .callback = "prepare", .callback_line = 1},
                      .config_out = config_out};
    return run_body_prepare(h, &p);
}

/// cardlua_target_content_offset's record: the proposal, the velocity, the offset chosen.
typedef struct {
    cardlua_call call;
    double proposed[2];
    double velocity[2];
    double *point_out;           // x, y
} target_call;

CARDLUA_BODY(body_target, target_call)

/// targetContentOffset(proposed, velocity, layout), its result read back by readPoint.
static int body_target(lua_State *L, target_call *t) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    cardlua__apply_state(L, h);
    t->call.callback = "targetContentOffset";
    if (!cardlua__push_callback(L, h, "targetContentOffset")) {
        t->point_out[0] = t->proposed[0];
        t->point_out[1] = t->proposed[1];
        return 0;
    }
    int F = lua_gettop(L);
    cardlua__push_internal(L, h, "readPoint");
    lua_pushvalue(L, F);
    cardlua__push_internal(L, h, "point");
    lua_pushnumber(L, t->proposed[0]);
    lua_pushnumber(L, t->proposed[1]);
    lua_call(L, 2, 1);
    cardlua__push_internal(L, h, "point");
    lua_pushnumber(L, t->velocity[0]);
    lua_pushnumber(L, t->velocity[1]);
    lua_call(L, 2, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_layout);
    lua_call(L, 3, 1);  // F(proposed, velocity, layout): readPoint, result on the stack
    cardlua__reset_budget(h);
    // readPoint(result, proposed): a fresh proposal, in case the script changed its copy.
    cardlua__push_internal(L, h, "point");
    lua_pushnumber(L, t->proposed[0]);
    lua_pushnumber(L, t->proposed[1]);
    lua_call(L, 2, 1);
    lua_call(L, 2, 2);
    t->point_out[0] = lua_tonumber(L, -2);
    t->point_out[1] = lua_tonumber(L, -1);
    for (int k = 0; k < 2; k++)
        if (t->point_out[k] > MAX_MAGNITUDE || t->point_out[k] < -MAX_MAGNITUDE)
            luaL_error(L, "returned %s = %f, beyond the largest magnitude allowed (1e15)", k == 0 ? "x" : "y",
                       (lua_Number)t->point_out[k]);
    return 0;
}

int cardlua_target_content_offset(cardlua_host *h, const double *state, double px, double py,
                                  double vx, double vy, double *result) {
    REFUSE_REENTRY(h, CARDLUA_ERROR);
    target_call t = {.call = {.state = state, .callback = "targetContentOffset", .callback_line = 1},
                     .proposed = {px, py}, .velocity = {vx, vy}, .point_out = result};
    return run_body_target(h, &t);
}

/// The record of cardlua_call_internal and cardlua_call_internal_string: the internal,
/// its argument, and where its numbers go (none: a string result, in host->string_result).
typedef struct {
    cardlua_call call;
    const char *name;
    const char *argument;        // NULL: nil
    double *numbers_out;         // NULL: a string result
    long capacity;
    long count;                  // the array's length (it may exceed capacity)
} internal_call;

CARDLUA_BODY(body_internal, internal_call)

static int body_internal(lua_State *L, internal_call *in) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    cardlua__push_internal(L, h, in->name);
    if (in->argument) lua_pushstring(L, in->argument); else lua_pushnil(L);
    lua_call(L, 1, 1);
    if (in->numbers_out == NULL) {  // a string result
        size_t len = 0;
        const char *s = lua_tolstring(L, -1, &len);
        if (s == NULL) return luaL_error(L, "internal %s returned no string", in->name);
        char *copy = (char *)malloc(len + 1);
        if (copy == NULL) return luaL_error(L, "not enough memory");
        memcpy(copy, s, len + 1);
        free(h->string_result);
        h->string_result = copy;
        return 0;
    }
    luaL_checktype(L, -1, LUA_TTABLE);
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    in->count = (long)n;
    for (lua_Integer i = 0; i < n && i < in->capacity; i++) {
        lua_rawgeti(L, -1, i + 1);
        in->numbers_out[i] = lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    return 0;
}

int cardlua_call_internal(cardlua_host *h, const char *name, const char *argument, double *output,
                          long capacity, long *count) {
    if (count) *count = 0;
    REFUSE_REENTRY(h, CARDLUA_ERROR);
    internal_call in = {.call = {.callback_line = 1}, .name = name, .argument = argument, .numbers_out = output,
                        .capacity = capacity};
    int status = run_body_internal(h, &in);
    if (count) *count = in.count;
    return status;
}

const char *cardlua_call_internal_string(cardlua_host *h, const char *name, const char *argument,
                                         int *status) {
    if (status) *status = CARDLUA_ERROR;
    REFUSE_REENTRY(h, NULL);
    internal_call in = {.call = {.callback_line = 1}, .name = name, .argument = argument};
    int s = run_body_internal(h, &in);
    if (status) *status = s;
    return s == CARDLUA_OK ? h->string_result : NULL;
}

static int bench_pcalls(cardlua_host *h, lua_State *L, long count);

/// cardlua_collector_mode's record: the answer.
typedef struct {
    cardlua_call call;
    int generational;
} collector_call;

CARDLUA_BODY(body_collector_mode, collector_call)

static int body_collector_mode(lua_State *L, collector_call *g) {
    // Switching answers the previous mode; switch back when it was generational.
    int previous = lua_gc(L, LUA_GCINC, 0, 0, 0);
    if (previous == LUA_GCGEN) lua_gc(L, LUA_GCGEN, 0, 0);
    g->generational = previous == LUA_GCGEN;
    return 0;
}

int cardlua_counts_on_checkpoints(cardlua_host *h) {
    // Reads fields only (lua_gethook never raises): no protected call needed.
    return h->checkpoints && !h->poisoned && h->L != NULL && lua_gethook(h->L) == NULL;
}

void cardlua_skip_checkpoints(cardlua_host *h, int on) { h->skip_checkpoints = on != 0; }

void cardlua_measure_budget(cardlua_host *h, int on) {
    h->measuring = on != 0;
    h->charged_steps = h->charged_instructions = h->charged_host_work = 0;
    h->hook_step = on ? 1 : h->budget < HOOK_PERIOD ? (int)h->budget : HOOK_PERIOD;
    // A hook already set fires at every instruction from now on (a field store).
    if (on && h->L != NULL && lua_gethook(h->L) != NULL) lua_sethook(h->L, cardlua__count_hook, LUA_MASKCOUNT, 1);
}

void cardlua_budget_used(const cardlua_host *h, long long *steps, long long *instructions, long long *host_work) {
    if (steps) *steps = h->charged_steps;
    if (instructions) *instructions = h->charged_instructions;
    if (host_work) *host_work = h->charged_host_work;
}

int cardlua_collector_mode(cardlua_host *h) {
    if (h->in_call) return -1;
    if (h->poisoned || h->L == NULL) return -1;
    collector_call g = {0};
    if (run_body_collector_mode(h, &g) != CARDLUA_OK) return -1;
    return g.generational;
}

static int body_bench(lua_State *L) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    if (luaL_loadbufferx(L, "return function() end", 21, "=bench", "t") != LUA_OK) return lua_error(L);
    lua_call(L, 0, 1);
    return 1;
}

int cardlua_bench_empty_pcalls(cardlua_host *h, long count) {
    REFUSE_REENTRY(h, CARDLUA_ERROR);
    lua_State *L = h->L;
    if (h->poisoned) return CARDLUA_LIMIT;
    h->in_call = 1;  // (its functions call no host callback; kept for the rule's sake)
    int status = bench_pcalls(h, L, count);
    h->in_call = 0;
    return status;
}

static int bench_pcalls(cardlua_host *h, lua_State *L, long count) {
    // Make the empty function protected, then time only the bare pcalls.
    lua_settop(L, 0);
    lua_pushcfunction(L, body_bench);
    if (lua_pcall(L, 0, 1, 0) != LUA_OK) { lua_settop(L, 0); return CARDLUA_ERROR; }
    for (long i = 0; i < count; i++) {
        cardlua__reset_budget(h);
        lua_pushvalue(L, 1);
        if (lua_pcall(L, 0, 0, 0) != LUA_OK) { lua_settop(L, 0); return CARDLUA_ERROR; }
    }
    lua_settop(L, 0);
    return CARDLUA_OK;
}

