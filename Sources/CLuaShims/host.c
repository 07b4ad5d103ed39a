// Host state: making and closing the sandboxed state (libraries, sandbox, prelude),
// print and warn, and the setters. See README.md in this folder.
#include "CLuaShims.h"
#include "internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

static void log_notice(cardlua_host *h, const char *what);

/// print(...) to standard error (or the log function), prefixed with the script's name.
int cardlua__native_print(lua_State *L) {
    cardlua_host *h = host_of(L);
    int n = lua_gettop(L);
    // A write to standard error per call: charged, so that a print in a loop ends at
    // the budget after 10000 lines or so, not at the time limit after a million.
    cardlua__charge(L, PRINT_FEE);
    if (h->print_silenced) return 0;
    // The line is one line (control characters escaped: a print cannot forge the host's
    // own lines or steer the terminal) and counts against PRINT_CAP (warn's escapes may
    // have run a few bytes past it).
    size_t room = h->printed < PRINT_CAP ? PRINT_CAP - h->printed : 0;
    for (int i = 1; i <= n; i++) {  // strings first: the buffer wants the stack top
        luaL_tolstring(L, i, NULL);
        lua_replace(L, i);
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, h->chunkname);
    luaL_addstring(&b, ": ");
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addchar(&b, '\t');
        size_t len;
        const char *text = lua_tolstring(L, i, &len);
        cardlua__add_clean(&b, text, len, room);
    }
    luaL_pushresult(&b);
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    if (h->log != NULL) {
        // The host's log instead of standard error; the same cap.
        if (len >= room) { h->print_silenced = 1; log_notice(h, "print"); }
        else { h->printed += len + 1; h->log(h->log_context, s, len); }
        return 0;
    }
    if (len >= room) {
        h->print_silenced = 1;
        fprintf(stderr, "%s: print: output past %zu MiB per run is dropped\n", h->chunkname, PRINT_CAP >> 20);
    } else {
        h->printed += len + 1;
        fwrite(s, 1, len, stderr);
        fputc('\n', stderr);
    }
    fflush(stderr);
    return 0;
}

/// warn(...) to standard error, prefixed with the script's name; always on. Whether a
/// line is under way is the state's own (h->warn_continuing), never shared.
static void warning_function(void *ud, const char *msg, int tocont) {
    cardlua_host *h = (cardlua_host *)ud;
    int continuing = h->warn_continuing;
    if (!continuing && !tocont && msg[0] == '@') return;  // control messages (@on, @off)
    if (h->print_silenced) { h->warn_continuing = tocont; return; }
    if (h->log != NULL) {
        // Pieces gather in warn_line; the finished line goes to the log.
        if (!continuing) {
            int n = snprintf(h->warn_line, LOG_LINE_MAX, "%s: warning: ", h->chunkname);
            h->warn_length = n > 0 ? ((size_t)n < LOG_LINE_MAX ? (size_t)n : LOG_LINE_MAX - 1) : 0;
        }
        for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
            if (h->printed >= PRINT_CAP) { h->print_silenced = 1; break; }
            char escaped[8];
            int n = (*p < 0x20 || *p == 0x7f) ? snprintf(escaped, sizeof escaped, "\\%u", *p)
                                                : (escaped[0] = (char)*p, 1);
            h->printed += (size_t)n;
            if (h->warn_length + (size_t)n < LOG_LINE_MAX) {
                memcpy(h->warn_line + h->warn_length, escaped, (size_t)n);
                h->warn_length += (size_t)n;
            }
        }
        if (!tocont || h->print_silenced) {
            h->log(h->log_context, h->warn_line, h->warn_length);
            h->warn_length = 0;
            if (h->print_silenced) log_notice(h, "warn");
        }
        h->warn_continuing = tocont;
        return;
    }
    if (!continuing) fprintf(stderr, "%s: warning: ", h->chunkname);
    // As print: control characters escaped, within PRINT_CAP.
    for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
        if (h->printed >= PRINT_CAP) {
            h->print_silenced = 1;
            fprintf(stderr, "\n%s: warn: output past %zu MiB per run is dropped", h->chunkname, PRINT_CAP >> 20);
            break;
        }
        if (*p < 0x20 || *p == 0x7f) h->printed += (size_t)fprintf(stderr, "\\%u", *p);
        else { fputc(*p, stderr); h->printed++; }
    }
    if (!tocont || h->print_silenced) fputc('\n', stderr);
    h->warn_continuing = tocont;
}

void cardlua__silent_warnings(void *ud, const char *msg, int tocont) {
    (void)ud; (void)msg; (void)tocont;
}

// MARK: - Set-up

CARDLUA_DECLARE_BODY(body_setup, load_call)

static int body_setup(lua_State *L, load_call *load) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    const char *prelude = load->source;
    size_t prelude_length = load->length;

    // The libraries, and of them only what the allowlist keeps, as it keeps it
    // (sandbox.c).
    cardlua__install_sandbox(L);
    lua_settop(L, 0);

    // The prelude gets the native functions it needs and returns its internals. It comes
    // compiled (embed.list's preludeChunk: no process parses it); scripts stay text only.
    if (luaL_loadbufferx(L, prelude, prelude_length, PRELUDE_CHUNKNAME, "b") != LUA_OK)
        return lua_error(L);
    lua_createtable(L, 0, 9);
    lua_pushcfunction(L, cardlua__native_query);
    lua_setfield(L, -2, "query");
    cardlua__push_attributes_index(L);  // a closure: the keys it writes as upvalues
    lua_setfield(L, -2, "attributesIndex");
    cardlua__push_attributes_newindex(L);
    lua_setfield(L, -2, "attributesNewindex");
    lua_pushcfunction(L, cardlua__native_item);  // layout:layoutAttributesForItem (elements.c)
    lua_setfield(L, -2, "item");
    cardlua__push_element_newindex(L);  // the layout's attribute tables' __newindex (elements.c)
    lua_setfield(L, -2, "elementNewindex");
    lua_pushcfunction(L, cardlua__element_makers);  // IndexPath and the layout's attribute tables in C (elements.c)
    lua_setfield(L, -2, "elementMakers");
    lua_pushcfunction(L, cardlua__transform_math);  // the transform math in C (transform_math.c)
    lua_setfield(L, -2, "transformMath");
    lua_pushcfunction(L, cardlua__geometry_makers);  // CGPointMake … UIEdgeInsetsMake in C (geometry_native.c)
    lua_setfield(L, -2, "geometryMakers");
    // Its budget function, if it was compiled with checkpoints (embed.list: its first
    // statement takes the global and clears it; its first call turns the hook off).
    cardlua__push_checkpoint(L);
    lua_setglobal(L, CARDLUA_CHECKPOINT_GLOBAL);
    lua_call(L, 1, 1);
    // A prelude without checkpoints left the function there: no script may reach it (a
    // call with a made-up counter would hand budget back).
    lua_pushnil(L);
    lua_setglobal(L, CARDLUA_CHECKPOINT_GLOBAL);
    if (!lua_istable(L, -1)) return luaL_error(L, "the prelude returned no internals");
    if (!cardlua__attribute_slots_match()) return luaL_error(L, "the attribute key lists disagree (attributes.c)");
    lua_pushvalue(L, -1);
    h->ref_internals = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_getfield(L, -1, "attributes");
    h->ref_attributes = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_getfield(L, -1, "layout");
    h->ref_layout = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/// The name Lua's own messages and tracebacks give the script (luaO_chunkid for a
/// "@file" source): the name itself if it fits in LUA_IDSIZE - 1 characters, else "..."
/// and its last LUA_IDSIZE - 4 characters.
void cardlua__set_short_name(cardlua_host *h) {
    size_t n = strlen(h->chunkname);
    if (n + 1 <= LUA_IDSIZE)
        snprintf(h->short_name, sizeof h->short_name, "%s", h->chunkname);
    else
        snprintf(h->short_name, sizeof h->short_name, "...%s", h->chunkname + n - (LUA_IDSIZE - 4));
}


cardlua_host *cardlua_open(const char *prelude, size_t prelude_length, size_t memory_limit,
                           long long budget_steps, int *status_out, const char **message_out) {
    if (status_out) *status_out = CARDLUA_OK;
    cardlua_host *h = (cardlua_host *)calloc(1, sizeof *h);
    if (h == NULL) {
        if (status_out) *status_out = CARDLUA_LIMIT;
        if (message_out) *message_out = "not enough memory";
        return NULL;
    }
    h->memory_limit = memory_limit;
    h->period_heap_mark = HOOK_PERIOD_HEAP;
    h->budget = budget_steps > 0 ? budget_steps : 1;
    h->hook_step = h->budget < HOOK_PERIOD ? (int)h->budget : HOOK_PERIOD;
    h->time_limit_ns = CARDLUA_DEFAULT_TIME_LIMIT_MS * 1000000LL;
    h->ref_internals = h->ref_attributes = h->ref_layout = h->ref_layout_lines = LUA_NOREF;
    snprintf(h->chunkname, sizeof h->chunkname, "%s", "script");
    cardlua__set_short_name(h);
    h->L = lua_newstate(cardlua__capped_alloc, h);
    if (h->L == NULL) {
        cardlua__release_small_blocks(h);
        free(h);
        if (status_out) *status_out = CARDLUA_LIMIT;
        if (message_out) *message_out = "not enough memory for a Lua state";
        return NULL;
    }
    lua_setwarnf(h->L, warning_function, h);
    lua_sethook(h->L, cardlua__count_hook, LUA_MASKCOUNT, h->hook_step);
    // The prelude is loaded protected. Its text goes in the call's record, a light
    // userdata, not upvalues: a closure with upvalues would allocate, and nothing may
    // allocate outside lua_pcall.
    lua_State *L = h->L;
    load_call load = {.call = {.body = protected_body_setup}, .source = prelude, .length = prelude_length};
    lua_settop(L, 0);
    lua_pushcfunction(L, cardlua__message_handler);
    lua_pushcfunction(L, cardlua__call_body);
    lua_pushlightuserdata(L, &load.call);
    cardlua__reset_budget(h);
    h->budget_left = SETUP_BUDGET;  // the prelude's work is not the script's
    h->call = &load.call;
    h->setting_up = 1;
    int status = lua_pcall(L, 1, 0, 1);
    h->setting_up = 0;
    h->call = NULL;
    if (status != LUA_OK) {
        int memory = status == LUA_ERRMEM || h->memory_refused;
        if (status_out) *status_out = memory ? CARDLUA_LIMIT : CARDLUA_ERROR;
        if (message_out)
            *message_out = memory ? "the memory limit is too small for the cardlua prelude"
                                  : "the cardlua prelude failed to load";
        if (lua_type(L, -1) == LUA_TSTRING) fprintf(stderr, "cardlua: %s\n", lua_tostring(L, -1));
        cardlua_close(h);
        return NULL;
    }
    lua_settop(L, 0);
    return h;
}

void cardlua_close(cardlua_host *h) {
    if (h == NULL) return;
    cardlua__watch_close(h);  // its thread joined: nothing touches the state from now on
    if (h->L) {
        lua_State *L = h->L;
        h->L = NULL;
        cardlua__close_state(h, L);
    }
    cardlua__release_small_blocks(h);
    free(h->query_buffer);
    free(h->elements);
    free(h->bases);
    free(h->message);
    free(h->details);
    free(h->string_result);
    free(h);
}

void cardlua_set_query(cardlua_host *h, cardlua_query_fn query, void *context) {
    h->query = query;
    h->query_context = context;
}

void cardlua_set_log(cardlua_host *h, cardlua_log_fn log, void *context) {
    h->log = log;
    h->log_context = context;
    h->warn_length = 0;
}

/// One finished line to the log function (a message of the host's own, not the script's).
static void log_notice(cardlua_host *h, const char *what) {
    char line[640];
    int n = snprintf(line, sizeof line, "%s: %s: output past %zu MiB per run is dropped",
                     h->chunkname, what, PRINT_CAP >> 20);
    if (n > 0) h->log(h->log_context, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

void cardlua_set_check_mode(cardlua_host *h, int on) { h->check_mode = on; }

void cardlua_set_run_time_limit(cardlua_host *h, double seconds) {
    // NaN, not positive or infinite: no limit. Finite but longer than
    // CARDLUA_MAX_RUN_TIME_SECONDS: that bound, so that the nanoseconds and the deadline
    // (the clock plus the limit) stay inside a long long (converting a larger double is
    // undefined, and the sum would wrap to a deadline in the past).
    if (!(seconds > 0) || seconds == HUGE_VAL) {
        h->run_limit_ns = 0;
        h->run_deadline_ns = 0;
        return;
    }
    if (seconds > CARDLUA_MAX_RUN_TIME_SECONDS) seconds = CARDLUA_MAX_RUN_TIME_SECONDS;
    h->run_limit_ns = (long long)(seconds * 1e9);
    if (h->run_limit_ns < 1) h->run_limit_ns = 1;  // a positive limit below a nanosecond is still one
    h->run_deadline_ns = cardlua__monotonic_ns() + h->run_limit_ns;
}

void cardlua_set_time_limit(cardlua_host *h, double seconds) {
    if (!(seconds > 0)) seconds = 0;        // NaN or not positive: no time limit
    if (seconds > 1e6) seconds = 1e6;       // keeps the nanoseconds inside a long long
    h->time_limit_ns = (long long)(seconds * 1e9);
}

const char *cardlua_message(cardlua_host *h) { return h->message ? h->message : ""; }

size_t cardlua_memory_in_use(cardlua_host *h) { return h->memory_used; }

// MARK: - Cross-language constants (the one definition of each; README.md)

static const char *const CONFIG_KEYS[CARDLUA_CFG_COUNT] = {
    "direction", "itemWidth", "itemHeight", "insetTop", "insetLeft", "insetBottom", "insetRight",
    "lineSpacing", "interitemSpacing", "headerWidth", "headerHeight", "footerWidth", "footerHeight",
    "deceleration", "paging", "wraps", "flipsHorizontally", "bounces", "alwaysBounceHorizontal",
    "alwaysBounceVertical"};

const char *cardlua_config_key(int index) {
    return index >= 0 && index < CARDLUA_CFG_COUNT ? CONFIG_KEYS[index] : NULL;
}

static const char *const STEP_NAMES[] = {NULL, "jump", "drag", "fling", "wait", "scrollToItem", "resize", "autoplay"};

const char *cardlua_step_name(int code) {
    return code >= CARDLUA_STEP_JUMP && code <= CARDLUA_STEP_AUTOPLAY ? STEP_NAMES[code] : NULL;
}

const char *cardlua_attribute_key(int index, int *writable) {
    // Bounded by the table's own length: an index past its end reads nothing.
    if (index < 0 || index >= cardlua__attribute_key_count || cardlua__attribute_keys[index].name == NULL) {
        if (writable) *writable = 0;
        return NULL;
    }
    if (writable) *writable = cardlua__attribute_keys[index].writable;
    return cardlua__attribute_keys[index].name;
}
