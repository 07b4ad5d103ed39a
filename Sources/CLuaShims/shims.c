// The only code that touches the Lua API. Every entry point runs its Lua work inside
// lua_pcall (see run_protected); the helpers that raise (luaL_error, lua_call, table
// building) are only reached from there. See CLuaShims.h and README.md in this folder.
#if defined(__linux__) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L  // clock_gettime in strict C modes
#endif
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

#define PRELUDE_CHUNKNAME "=cardlua prelude"
#define PRELUDE_DISPLAY "cardlua prelude"

// The count hook fires every HOOK_PERIOD instructions while the heap is under
// HOOK_PERIOD_HEAP, then proportionally more often (at least every HOOK_PERIOD_MIN): one
// instruction's C work (comparing, hashing or converting a long string, scanning a
// sparse table) grows with the data, and the clock is read when the hook fires.
#define HOOK_PERIOD 1000
#define HOOK_PERIOD_MIN 16
#define HOOK_PERIOD_HEAP ((size_t)2 << 20)

/// Bytes allocated per unit of budget (16): allocation is work too (string.rep, `..`,
/// string.upper copy what they allocate; tables and closures are built), so it is charged.
#define ALLOC_UNIT_SHIFT 4

/// Numbers read back from a script beyond this magnitude are errors: no layout is that
/// large, and sums of such numbers stop being finite (README.md: every value that comes back is checked).
#define MAX_MAGNITUDE 1e15

/// Stack slots every protected body reserves on entry (Lua guarantees only LUA_MINSTACK,
/// 20, to a C function; pushing past the reserve without lua_checkstack is undefined).
#define BODY_STACK 40

/// Budget units a print or warn costs (each writes to standard error).
#define PRINT_FEE 1000

/// Bytes of a script's own text (an error message, a traceback line) kept in a message;
/// the rest is counted ("… (N more bytes)"). A message is one line for a terminal, not a
/// channel for megabytes.
#define MESSAGE_CAP 1000

/// Bytes `print` and `warn` may write per state (one run): past it, one notice and
/// silence. The budget bounds lines per call; this bounds bytes per run.
#define PRINT_CAP ((size_t)1 << 20)

/// The budget for loading the prelude (a fixed amount of work, whatever the script's
/// budget).
#define SETUP_BUDGET 1000000000LL

struct cardlua_host {
    lua_State *L;

    // Memory cap (the allocator).
    size_t memory_used;
    size_t memory_limit;
    int memory_refused;          // an allocation was refused during this call
    int memory_exhausted;        // ...and Lua had to give one up: the cap was reached
    int refusal_pending;         // the last growth was refused; Lua retries it at most once
    const void *refused_block;
    size_t refused_size;
    size_t period_heap_mark;     // heap size at which the main thread's hook is retuned

    // Instruction budget (the count hook), per callback call.
    long long budget;
    long long budget_left;
    int hook_step;               // the hook's period for a small heap
    int budget_exhausted;        // a limit (any of them) was reached: every hook raises
    char limit_text[192];        // what the limit error says
    const char *charge_reason;   // why a C function's charge ran out of budget, or NULL

    // Time limit per callback call (CLOCK_MONOTONIC), checked whenever the hook fires
    // and by large charges. The clock of a call starts at its first check.
    long long time_limit_ns;     // 0: no time limit
    long long deadline_ns;       // 0: not started for this call
    // Time limit of the whole run (every call from cardlua_set_run_time_limit on).
    long long run_limit_ns;      // 0: none
    long long run_deadline_ns;
    int run_timed_out;           // the limit reached was the run's

    // Bytes print and warn wrote so far (PRINT_CAP).
    size_t printed;
    int print_silenced;

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
    int ref_layout_lines;    // during prepare: layout key → line of its last assignment
    // Made on first use (the per-frame and per-item hot path, BENCHMARKS.md): registry
    // references to the attributes pool tables (center, frame, size, indexPath), to the
    // keys the per-item code reads, and more.
    int ref_pool[4];
    int ref_keys;
    int ref_set_state;                  // the prelude's I.setState
    int ref_line_cache;                 // the callback whose line push_callback last found
    const void *line_cache_function;
    int line_cache_line;
    const char *key_names[8];  /* K_ATTRIBUTES: the interned attribute keys (hot_slots) */

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
    char short_name[LUA_IDSIZE + 1];  // as Lua shows it in its own messages (long: "...tail")
    char *message;           // the last error
    char *string_result;     // the last cardlua_call_internal_string result
};

// MARK: - Allocator and hook

static cardlua_host *host_of(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return (cardlua_host *)ud;
}

static void count_hook(lua_State *L, lua_Debug *ar);

/// The hook's period (in instructions) for the current heap size.
static int hook_period(const cardlua_host *h) {
    long long period = h->hook_step;
    if (h->memory_used > HOOK_PERIOD_HEAP) {
        long long scaled = period * (long long)HOOK_PERIOD_HEAP / (long long)h->memory_used;
        long long least = period < HOOK_PERIOD_MIN ? period : HOOK_PERIOD_MIN;
        period = scaled < least ? least : scaled;
    }
    return (int)period;
}

/// The heap has grown a lot: make the main thread's hook fire sooner. (lua_sethook only
/// sets fields; Lua allows it even from a signal handler. Coroutines retune themselves
/// when their hook fires: a thread that may have been collected is never touched here.)
static void retune_main_hook(cardlua_host *h) {
    h->period_heap_mark = h->memory_used * 2;
    if (h->L == NULL || h->budget_exhausted) return;
    int period = hook_period(h);
    if (period < lua_gethookcount(h->L)) lua_sethook(h->L, count_hook, LUA_MASKCOUNT, period);
}

/// Records a refused growth. Lua answers a refusal with an emergency collection and one
/// retry of the same request; a second refusal in a row means it had to give a request
/// up (and raise a memory error, which a script's pcall may catch): the cap was reached.
static void refuse(cardlua_host *h, const void *block, size_t size) {
    h->memory_refused = 1;
    if (h->refusal_pending) h->memory_exhausted = 1;
    h->refusal_pending = 1;
    h->refused_block = block;
    h->refused_size = size;
    // Check at the next instruction: if Lua gives the request up (and a pcall catches
    // the memory error), the hook raises there; if its retry succeeds, the hook only
    // restores its period.
    if (h->L != NULL && !h->budget_exhausted) lua_sethook(h->L, count_hook, LUA_MASKCOUNT, 1);
}

/// The capped allocator: refuses growth past memory_limit; charges growth to the
/// instruction budget.
static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    cardlua_host *h = (cardlua_host *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        h->memory_used -= old;
        return NULL;
    }
    if (nsize <= old) {
        void *p = realloc(ptr, nsize);
        if (p == NULL) return NULL;
        h->memory_used -= old - nsize;
        return p;
    }
    size_t growth = nsize - old;
    if (h->memory_used > h->memory_limit || growth > h->memory_limit - h->memory_used) {
        refuse(h, ptr, nsize);
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p == NULL) {
        refuse(h, ptr, nsize);
        return NULL;
    }
    if (h->refusal_pending) {
        // Anything but the retry of the refused request: Lua gave that one up.
        if (ptr != h->refused_block || nsize != h->refused_size) h->memory_exhausted = 1;
        h->refusal_pending = 0;
    }
    h->memory_used += growth;
    h->budget_left -= (long long)(growth >> ALLOC_UNIT_SHIFT);
    if (h->memory_used > h->period_heap_mark) retune_main_hook(h);
    return p;
}

static long long monotonic_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/// Whether the call has run past its time limit; the first check of a call starts its
/// clock.
static int out_of_time(cardlua_host *h) {
    if (h->time_limit_ns <= 0 && h->run_limit_ns <= 0) return 0;
    long long now = monotonic_ns();
    if (h->run_limit_ns > 0 && now >= h->run_deadline_ns) {
        h->run_timed_out = 1;
        return 1;
    }
    if (h->time_limit_ns <= 0) return 0;
    if (h->deadline_ns == 0) {
        h->deadline_ns = now + h->time_limit_ns;
        return 0;
    }
    return now >= h->deadline_ns;
}

/// "the frame at t=0.50 s, offset 412.5" during transform (the offset on the axis that
/// moved: x when it is not 0), else "".
static void frame_place(const cardlua_host *h, char *out, size_t size) {
    out[0] = '\0';
    if (h->state == NULL || h->callback == NULL || strcmp(h->callback, "transform") != 0) return;
    double ox = h->state[CARDLUA_STATE_OFFSET_X], oy = h->state[CARDLUA_STATE_OFFSET_Y];
    snprintf(out, size, "the frame at t=%.2f s, offset %.10g", h->state[CARDLUA_STATE_TIME], ox != 0 ? ox : oy);
}

/// Whether the memory cap was reached (a request given up, even if a pcall caught it).
static int memory_given_up(const cardlua_host *h) { return h->memory_exhausted || h->refusal_pending; }

static void describe_limit(cardlua_host *h, const char *what) {
    snprintf(h->limit_text, sizeof h->limit_text, "%s", what);
}

static void describe_memory_limit(cardlua_host *h) {
    if (h->memory_limit % ((size_t)1 << 20) == 0)
        snprintf(h->limit_text, sizeof h->limit_text, "exceeded the memory limit (%zu MiB)",
                 h->memory_limit >> 20);
    else
        snprintf(h->limit_text, sizeof h->limit_text, "exceeded the memory limit (%zu bytes)",
                 h->memory_limit);
}

/// Notes which limit was reached (the first one found) and words its message.
static void note_limit(cardlua_host *h, int timed_out) {
    h->budget_exhausted = 1;
    if (h->budget_left <= 0) {
        snprintf(h->limit_text, sizeof h->limit_text, "exceeded the instruction budget of %lld instructions (%s)",
                 h->budget, h->charge_reason ? h->charge_reason : "possible infinite loop");
    } else if (memory_given_up(h)) {
        describe_memory_limit(h);
    } else if (timed_out) {
        char place[96];
        frame_place(h, place, sizeof place);
        if (h->run_timed_out)
            snprintf(h->limit_text, sizeof h->limit_text, "exceeded the time limit of %g s per run%s%s%s",
                     (double)h->run_limit_ns / 1e9, place[0] ? " (at " : "", place, place[0] ? ")" : "");
        else if (place[0])
            // transform is one call per frame: the limit covers all the frame's items.
            snprintf(h->limit_text, sizeof h->limit_text,
                     "exceeded the time limit of %g s per call (all the items of %s together)",
                     (double)h->time_limit_ns / 1e9, place);
        else
            snprintf(h->limit_text, sizeof h->limit_text,
                     "exceeded the time limit of %g s per call (a long computation in a library function?)",
                     (double)h->time_limit_ns / 1e9);
    } else {
        describe_limit(h, "stopped by a limit");
    }
}

/// Raises the limit error. From now on every hook raises at every instruction (the
/// running thread's and the main thread's; coroutines made later inherit it), so a
/// script that catches the error with pcall cannot carry on.
static void raise_limit(lua_State *L, cardlua_host *h) {
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
    if (L != h->L) lua_sethook(h->L, count_hook, LUA_MASKCOUNT, 1);
    luaL_error(L, "%s", h->limit_text);
}

/// Counts instructions (the thread's hook period each time it fires) and checks the
/// memory cap and the clock. At a limit it raises, and keeps raising at every
/// instruction.
static void count_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    cardlua_host *h = host_of(L);
    if (!h->budget_exhausted) {
        h->budget_left -= lua_gethookcount(L);
        int timed_out = 0;
        if (h->budget_left > 0 && !memory_given_up(h) && !(timed_out = out_of_time(h))) {
            int period = hook_period(h);
            if (period != lua_gethookcount(L)) lua_sethook(L, count_hook, LUA_MASKCOUNT, period);
            return;
        }
        note_limit(h, timed_out);
    }
    raise_limit(L, h);
}

void shims_charge_for(lua_State *L, long long units, const char *reason) {
    cardlua_host *h = host_of(L);
    if (!h->budget_exhausted) {
        if (units > 0) h->budget_left -= units;
        int timed_out = 0;
        if (h->budget_left > 0 && !memory_given_up(h) && !(units >= 4096 && (timed_out = out_of_time(h))))
            return;
        h->charge_reason = reason;
        note_limit(h, timed_out);
    }
    raise_limit(L, h);
}

void shims_charge(lua_State *L, long long units) { shims_charge_for(L, units, NULL); }

int shims_limit_reached(lua_State *L) { return host_of(L)->budget_exhausted; }

static void reset_budget(cardlua_host *h) {
    h->budget_left = h->budget;
    h->deadline_ns = 0;
}

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

/// Appends s[i..end) to the buffer with control characters escaped (`\n`, `\27`, C1
/// controls as `\u{9b}`), stopping once `cap` bytes are written (on a character
/// boundary). Returns where it stopped.
static size_t add_escaped(luaL_Buffer *b, const char *s, size_t i, size_t end, size_t cap) {
    size_t kept = 0;
    while (i < end) {
        unsigned char c = (unsigned char)s[i];
        if (kept >= cap && (c & 0xC0) != 0x80) break;
        char esc[12];
        size_t len = 0, used = 1;
        if (c == '\n') len = (size_t)snprintf(esc, sizeof esc, "\\n");
        else if (c == '\r') len = (size_t)snprintf(esc, sizeof esc, "\\r");
        else if (c == '\t') len = (size_t)snprintf(esc, sizeof esc, "\\t");
        else if (c < 0x20 || c == 0x7f) len = (size_t)snprintf(esc, sizeof esc, "\\%u", c);
        else if (c == 0xC2 && i + 1 < end && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9F) {
            len = (size_t)snprintf(esc, sizeof esc, "\\u{%x}", (unsigned char)s[i + 1]);
            used = 2;
        }
        if (len > 0) luaL_addlstring(b, esc, len); else luaL_addchar(b, (char)c);
        kept += len > 0 ? len : 1;
        i += used;
    }
    return i;
}

/// Appends s[0..n) escaped (add_escaped), at most about `cap` bytes of it: a longer text
/// keeps its first two thirds and its last third around "… (N more bytes) …", so that
/// both how it starts and how it ends (often the point) stay visible. A script's text
/// cannot start a line, steer the terminal or flood the screen through a message.
static void add_clean(luaL_Buffer *b, const char *s, size_t n, size_t cap) {
    if (n <= cap) {  // whole (escapes may make it up to four times longer)
        add_escaped(b, s, 0, n, (size_t)-1);
        return;
    }
    size_t head = add_escaped(b, s, 0, n, cap * 2 / 3);
    size_t tail = n - cap / 3;
    if (tail < head) tail = head;
    while (tail < n && ((unsigned char)s[tail] & 0xC0) == 0x80) tail++;  // a character boundary
    char more[64];
    snprintf(more, sizeof more, " \xE2\x80\xA6 (%zu more bytes) \xE2\x80\xA6 ", tail - head);
    luaL_addstring(b, more);
    add_escaped(b, s, tail, n, cap);
}

/// For an error about `layout.<key>…` after prepare (readLayout, which runs after the
/// script's frames are gone): the line where prepare last assigned layout.<key>, or 0.
static int layout_line(lua_State *L, cardlua_host *h, const char *rest) {
    if (h->callback == NULL || strcmp(h->callback, "prepare") != 0 || h->ref_layout_lines == LUA_NOREF) return 0;
    if (strncmp(rest, "layout.", 7) != 0) return 0;
    const char *key = rest + 7;
    size_t n = 0;
    while (isalnum((unsigned char)key[n]) || key[n] == '_') n++;
    if (n == 0 || !lua_checkstack(L, 2)) return 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_layout_lines);
    int line = 0;
    if (lua_type(L, -1) == LUA_TTABLE) {
        lua_pushlstring(L, key, n);
        if (lua_rawget(L, -2) == LUA_TNUMBER) line = (int)lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return line;
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
    const char *shown = h->chunkname;
    if (own == 0 && strcmp(h->short_name, h->chunkname) != 0) {
        own = location_prefix(msg, h->short_name);
        shown = h->short_name;
    }
    if (own > 0) {
        line = atoi(msg + strlen(shown) + 1);
        rest = msg + own;
    } else {
        size_t prelude = location_prefix(msg, PRELUDE_DISPLAY);
        if (prelude > 0) rest = msg + prelude;
        line = script_line(L, h);
        if (line == 0) line = layout_line(L, h, rest);
        if (line == 0) line = h->callback_line > 0 ? h->callback_line : 1;
    }
    if (h->budget_exhausted)
        rest = h->limit_text;
    else if (strcmp(rest, "stack overflow") == 0)
        rest = "stack overflow (calls nested too deeply: runaway recursion?)";
    else if (strcmp(rest, "C stack overflow") == 0)
        rest = "C stack overflow (calls nested too deeply through pcall, metamethods or "
               "string.gsub: runaway recursion?)";

    // The first line, then the traceback (made before the buffer takes the stack top).
    const char *context = "";
    if (h->callback && h->has_item)
        context = lua_pushfstring(L, "%s: item %I: ", h->callback, (lua_Integer)h->item_number);
    else if (h->callback)
        context = lua_pushfstring(L, "%s: ", h->callback);
    const char *first = lua_pushfstring(L, "%s:%d: %s", h->chunkname, line, context);
    luaL_traceback(L, L, NULL, 1);
    const char *tb = lua_tostring(L, -1);

    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, first);
    add_clean(&b, rest, strlen(rest), MESSAGE_CAP);
    // Keep only the script's own frames: the prelude's and the host's say nothing to
    // the script's author. (Lua names them by the short name.)
    size_t name_length = strlen(h->short_name);
    int header = 0;
    for (const char *p = tb; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *q = p;
        while (q < p + len && *q == '\t') q++;
        if ((size_t)(p + len - q) > name_length && strncmp(q, h->short_name, name_length) == 0 &&
            q[name_length] == ':') {
            if (!header) {
                header = 1;
                luaL_addstring(&b, "\nscript traceback:");
            }
            luaL_addstring(&b, "\n\t");
            add_clean(&b, q, (size_t)(p + len - q), MESSAGE_CAP);
        }
        p = end ? end + 1 : NULL;
    }
    // During a frame, which one, after the traceback: a scenario's error names its
    // moment, not just the item (the first line keeps its shape).
    char place[96];
    frame_place(h, place, sizeof place);
    if (place[0] && h->has_item) {
        luaL_addstring(&b, "\nin ");
        luaL_addstring(&b, place);
    }
    luaL_pushresult(&b);
    return 1;
}

/// A message for an error that reached run_protected without the message handler (a
/// memory error, or an error while handling an error): `file:line: callback: item N: what`,
/// the line being the callback's.
static void describe_unhandled(cardlua_host *h, const char *what) {
    char text[1024];
    int line = h->callback_line > 0 ? h->callback_line : 1;
    if (h->callback && h->has_item)
        snprintf(text, sizeof text, "%s:%d: %s: item %ld: %s", h->chunkname, line, h->callback,
                 h->item_number, what);
    else if (h->callback)
        snprintf(text, sizeof text, "%s:%d: %s: %s", h->chunkname, line, h->callback, what);
    else
        snprintf(text, sizeof text, "%s:%d: %s", h->chunkname, line, what);
    set_message(h, text);
}

static void describe_memory_error(cardlua_host *h) {
    if (h->memory_refused) {
        h->budget_exhausted = 1;
        describe_memory_limit(h);
        describe_unhandled(h, h->limit_text);
    } else {
        describe_unhandled(h, "not enough memory (the system refused an allocation)");
    }
}

static void silent_warnings(void *ud, const char *msg, int tocont);

/// Closes a Lua state. A script cannot have set a finalizer (setmetatable refuses __gc,
/// see sandbox.c), so only the libraries' C finalizers run; the hook is set to raise at
/// once anyway, and warnings are silenced.
static void close_state(cardlua_host *h, lua_State *L) {
    h->budget_exhausted = 1;
    if (h->limit_text[0] == '\0') describe_limit(h, "the state is closing");
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
    lua_setwarnf(L, silent_warnings, NULL);
    lua_close(L);
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
    if (status == LUA_OK && !memory_given_up(h)) {
        h->has_item = 0;
        h->input = NULL;
        lua_settop(L, 0);
        return CARDLUA_OK;
    }
    int limit = h->budget_exhausted;
    if (status == LUA_OK || status == LUA_ERRMEM || (status == LUA_ERRERR && h->memory_refused)) {
        // Out of memory (perhaps caught by the script's pcall, and the call went on).
        describe_memory_error(h);
        limit = 1;
    } else if (status == LUA_ERRERR) {
        describe_unhandled(h, "error while reporting an error (an error handler that fails "
                              "again and again, or calls nested too deeply)");
    } else if (lua_type(L, -1) == LUA_TSTRING) {
        set_message(h, lua_tostring(L, -1));
    } else {
        describe_unhandled(h, "an error that could not be reported");
    }
    h->has_item = 0;
    h->input = NULL;
    lua_settop(L, 0);
    if (limit) {
        // The state is not trusted again: discarded now (its memory freed), so that the
        // next run (watch) starts from a fresh one.
        h->poisoned = 1;
        h->L = NULL;
        close_state(h, L);
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
    if (h->ref_set_state <= 0) {  // once: every frame calls it
        push_internal(L, h, "setState");
        h->ref_set_state = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_set_state);
    for (int i = 0; i < CARDLUA_STATE_TRACKING; i++) lua_pushnumber(L, h->state[i]);
    for (int i = CARDLUA_STATE_TRACKING; i < CARDLUA_STATE_COUNT; i++) lua_pushboolean(L, h->state[i] != 0);
    lua_call(L, CARDLUA_STATE_COUNT, 0);
}

/// Pushes the global callback `name`; returns 1 if it is a function, 0 if nil, and
/// raises if it is something else.
static int push_callback(lua_State *L, cardlua_host *h, const char *name) {
    // Raw: whatever the script did to _G's metatable, finding its callbacks runs no code.
    lua_pushglobaltable(L);
    lua_pushstring(L, name);
    int t = lua_rawget(L, -2);
    lua_remove(L, -2);
    if (t == LUA_TFUNCTION) {
        // The line it is defined on, for messages. Cached by identity (every frame asks):
        // the cached function is kept in the registry, so its address cannot be reused.
        const void *f = lua_topointer(L, -1);
        if (f != h->line_cache_function || h->ref_line_cache <= 0) {
            lua_Debug ar;
            lua_pushvalue(L, -1);
            if (!lua_getinfo(L, ">S", &ar)) return 1;
            lua_pushvalue(L, -1);
            if (h->ref_line_cache <= 0) h->ref_line_cache = luaL_ref(L, LUA_REGISTRYINDEX);
            else lua_rawseti(L, LUA_REGISTRYINDEX, h->ref_line_cache);
            h->line_cache_function = f;
            h->line_cache_line = ar.linedefined;
        }
        h->callback_line = h->line_cache_line;
        return 1;
    }
    if (t != LUA_TNIL) luaL_error(L, "%s is a %s; expected a function", name, luaL_typename(L, -1));
    return 0;
}

// MARK: - What a transform call left in `attributes` (the per-item hot path, BENCHMARKS.md)

// After each call one traversal of the attributes table moves the values of the
// contract's keys into fixed stack slots and empties the table: an item that touched
// nothing costs a single lua_next. Keys are recognised by identity: short strings are
// interned, so the pointer lua_tostring gives for a key is that of the one string object
// with its text (the host's copies are kept alive in the registry).
enum {
    K_FRAME, K_SIZE, K_CENTER, K_TRANSFORM3D, K_TRANSFORM, K_ALPHA, K_ZINDEX, K_HIDDEN,
    K_ATTRIBUTES,  /* the attributes' own keys end here; then the fields read from values */
    K_M11 = K_ATTRIBUTES, /* …m44 */
    K_A = K_M11 + 16, K_B, K_C, K_D, K_TX, K_TY,
    K_X, K_Y, K_WIDTH, K_HEIGHT,
    K_COUNT
};

static const char *const SLOT_KEYS[K_COUNT] = {
    "frame", "size", "center", "transform3D", "transform", "alpha", "zIndex", "hidden",
    "m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24",
    "m31", "m32", "m33", "m34", "m41", "m42", "m43", "m44",
    "a", "b", "c", "d", "tx", "ty", "x", "y", "width", "height"};

/// Where body_transform keeps the keys and the values an item left in `attributes`.
typedef struct {
    int keys;                  /* a table of the K_COUNT keys, SLOT_KEYS order from 1 */
    int values;                /* K_ATTRIBUTES value slots from here */
    const char *const *names;  /* the interned attribute keys, SLOT_KEYS order */
} hot_slots;

/// Pushes the keys table (made once, anchored in the registry) and reserves the value
/// slots.
static void push_slots(lua_State *L, cardlua_host *h, hot_slots *s) {
    luaL_checkstack(L, K_ATTRIBUTES + 40, "transform slots");  // + a transform read back
    if (h->ref_keys <= 0) {
        lua_createtable(L, K_COUNT, 0);
        for (int k = 0; k < K_COUNT; k++) {
            const char *name = lua_pushstring(L, SLOT_KEYS[k]);
            if (k < K_ATTRIBUTES) h->key_names[k] = name;
            lua_rawseti(L, -2, k + 1);
        }
        h->ref_keys = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_keys);
    s->keys = lua_gettop(L);
    s->names = h->key_names;
    s->values = s->keys + 1;
    lua_settop(L, s->values + K_ATTRIBUTES - 1);
}

/// Pushes t[key] for key number `key` (raw first; metamethods for a key the table does
/// not hold itself: this runs protected) and returns its type.
static int get_key(lua_State *L, int table, const hot_slots *s, int key) {
    lua_rawgeti(L, s->keys, key + 1);
    int t = lua_rawget(L, table);
    if (t != LUA_TNIL) return t;
    lua_pop(L, 1);
    lua_rawgeti(L, s->keys, key + 1);
    return lua_gettable(L, table);
}

/// t[key] as a finite number. The value is left on the stack: callers reset the top once
/// after a group of fields.
static double field_number(lua_State *L, int table, const hot_slots *s, int key, const char *what) {
    int t = get_key(L, table, s, key);
    if (t != LUA_TNUMBER)
        luaL_error(L, "%s.%s is %s, expected a number", what, SLOT_KEYS[key],
                   t == LUA_TNIL ? "missing" : luaL_typename(L, -1));
    double v = lua_tonumberx(L, -1, NULL);
    if (v != v) luaL_error(L, "%s.%s is NaN", what, SLOT_KEYS[key]);
    if (v - v != 0) luaL_error(L, "%s.%s is infinite", what, SLOT_KEYS[key]);
    if (v > MAX_MAGNITUDE || v < -MAX_MAGNITUDE)
        luaL_error(L, "%s.%s is %f, beyond the largest magnitude allowed (1e15)", what, SLOT_KEYS[key],
                   (lua_Number)v);
    return v;
}

/// Reads a CATransform3D (16 fields) or a CGAffineTransform (6 fields) at `index`
/// into m. Returns 0 when the table is neither.
static int read_transform(lua_State *L, int index, const hot_slots *s, const char *what, double *m) {
    index = lua_absindex(L, index);
    int top = lua_gettop(L);
    int is3d = get_key(L, index, s, K_M11) != LUA_TNIL;
    lua_settop(L, top);
    if (is3d) {
        for (int k = 0; k < 16; k++) m[k] = field_number(L, index, s, K_M11 + k, what);
        lua_settop(L, top);
        return 1;
    }
    int isAffine = get_key(L, index, s, K_A) != LUA_TNIL;
    lua_settop(L, top);
    if (!isAffine) return 0;
    double a = field_number(L, index, s, K_A, what), b = field_number(L, index, s, K_B, what);
    double c = field_number(L, index, s, K_C, what), d = field_number(L, index, s, K_D, what);
    double tx = field_number(L, index, s, K_TX, what), ty = field_number(L, index, s, K_TY, what);
    lua_settop(L, top);
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
    size_t n = 0;
    const char *k = lua_tolstring(L, 2, &n);
    int pool = -1;  // POOL_NAMES order
    if (n == 6 && memcmp(k, "center", 6) == 0) pool = 0;
    else if (n == 5 && memcmp(k, "frame", 5) == 0) pool = 1;
    else if (n == 4 && memcmp(k, "size", 4) == 0) pool = 2;
    else if (n == 9 && memcmp(k, "indexPath", 9) == 0) pool = 3;
    if (pool >= 0) {
        if (h->ref_pool[pool] > 0) {
            lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_pool[pool]);
        } else {
            push_internal(L, h, "pool");
            lua_getfield(L, -1, k);
        }
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
        // The affine part of transform3D (a copy), or a fresh identity, kept (as
        // transform3D's is), so that `attributes.transform.a = …` sticks as in Swift.
        if (raw_get(L, 1, "transform3D") != LUA_TNIL) {
            push_internal(L, h, "affineFrom3D");
            lua_insert(L, -2);
            lua_call(L, 1, 1);
        } else {
            lua_pop(L, 1);
            push_internal(L, h, "identityAffine");
            lua_call(L, 0, 1);
            lua_pushstring(L, "transform");
            lua_pushvalue(L, -2);
            lua_rawset(L, 1);
        }
        return 1;
    }
    return 0;
}

/// The value written to attributes.<k>, checked at the assignment so that an error names
/// its line (read_item checks again whatever later writes, which bypass the metamethod,
/// leave). The messages are read_item's. nil is always fine (it clears the field).
static void check_written(lua_State *L, const char *k, size_t n) {
    int t = lua_type(L, 3);
    if (t == LUA_TNIL) return;
    const char *expected = NULL;
    if (n == 6 && memcmp(k, "center", 6) == 0) expected = "CGPoint";
    else if (n == 5 && memcmp(k, "frame", 5) == 0) expected = "CGRect";
    else if (n == 4 && memcmp(k, "size", 4) == 0) expected = "CGSize";
    else if (n == 11 && memcmp(k, "transform3D", 11) == 0) expected = "CATransform3D";
    else if (n == 9 && memcmp(k, "transform", 9) == 0) expected = "CGAffineTransform";
    if (expected) {
        if (t != LUA_TTABLE) luaL_error(L, "attributes.%s is a %s, expected a %s", k, luaL_typename(L, 3), expected);
    } else if (n == 5 && memcmp(k, "alpha", 5) == 0) {
        if (t != LUA_TNUMBER) luaL_error(L, "attributes.alpha is a %s, expected a number", luaL_typename(L, 3));
        double a = lua_tonumber(L, 3);
        if (a != a || a - a != 0) luaL_error(L, "attributes.alpha is %s", a != a ? "NaN" : "infinite");
    } else if (n == 6 && memcmp(k, "zIndex", 6) == 0) {
        if (t != LUA_TNUMBER) luaL_error(L, "attributes.zIndex is a %s, expected an integer", luaL_typename(L, 3));
        int isInteger = 0;
        lua_Integer zi = lua_tointegerx(L, 3, &isInteger);
        if (!isInteger || zi > 2147483647 || zi < -2147483647 - 1)
            luaL_error(L, "attributes.zIndex is %s, expected a whole number from -2147483648 to 2147483647",
                       lua_tostring(L, 3));
    } else if ((n == 6 && memcmp(k, "hidden", 6) == 0) || (n == 8 && memcmp(k, "isHidden", 8) == 0)) {
        if (t != LUA_TBOOLEAN) luaL_error(L, "attributes.hidden is a %s, expected a boolean", luaL_typename(L, 3));
    }
}

/// attributes.<key> = value for a key not present: `transform` and `transform3D`
/// replace each other (the later assignment wins, as in UIKit); `isHidden` is `hidden`.
static int attributes_newindex(lua_State *L) {
    if (lua_type(L, 2) == LUA_TSTRING) {
        size_t n = 0;
        const char *k = lua_tolstring(L, 2, &n);
        check_written(L, k, n);
        if (n == 9 && memcmp(k, "transform", 9) == 0) {
            lua_pushliteral(L, "transform3D"); lua_pushnil(L); lua_rawset(L, 1);
        } else if (n == 11 && memcmp(k, "transform3D", 11) == 0) {
            lua_pushliteral(L, "transform"); lua_pushnil(L); lua_rawset(L, 1);
        } else if (n == 8 && memcmp(k, "isHidden", 8) == 0) {
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

/// Moves what the script left in `attributes` (at A) into the value slots, one bit per
/// attribute key in the result, with a single traversal (an item that touched nothing
/// costs one lua_next). With `clear` it also empties the table (assigning nil to a
/// field during a traversal is allowed); otherwise the caller clears it.
static unsigned take_fields(lua_State *L, const hot_slots *s, int A, int clear) {
    unsigned present = 0;
    lua_pushnil(L);
    while (lua_next(L, A)) {  // key at -2, value at -1
        if (lua_type(L, -2) == LUA_TSTRING) {
            const char *name = lua_tostring(L, -2);
            for (int k = 0; k < K_ATTRIBUTES; k++) {
                if (name == s->names[k]) {
                    lua_copy(L, -1, s->values + k);
                    present |= 1u << k;
                    break;
                }
            }
        }
        lua_pop(L, 1);
        if (clear) {
            lua_pushvalue(L, -1);
            lua_pushnil(L);
            lua_rawset(L, A);
        }
    }
    return present;
}

/// Reads what the script left in `attributes` (the value slots marked in `present`) and
/// what it returned (at R) into the output record for item i, validating every value.
static void read_item(lua_State *L, cardlua_host *h, const hot_slots *s, unsigned present,
                      int R, int A, long i) {
    double *o = h->output + i * CARDLUA_OUT_STRIDE;
    int rt = lua_type(L, R);
    if (present == 0 && rt == LUA_TNIL) {  // untouched: the host keeps the base attributes
        o[CARDLUA_OUT_CHANGED] = 0;
        return;
    }
    const double *b = h->input + i * CARDLUA_IN_STRIDE;
    double cx = b[2], cy = b[3], w = b[4], ht = b[5];
    double m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    double alpha = 1, z = 0, hidden = 0;
    int changed = 0;
    int top = R;

    if (present & (1u << K_FRAME)) {
        int t = s->values + K_FRAME;
        if (!lua_istable(L, t)) luaL_error(L, "attributes.frame is a %s, expected a CGRect", luaL_typename(L, t));
        double x = field_number(L, t, s, K_X, "attributes.frame");
        double y = field_number(L, t, s, K_Y, "attributes.frame");
        double fw = field_number(L, t, s, K_WIDTH, "attributes.frame");
        double fh = field_number(L, t, s, K_HEIGHT, "attributes.frame");
        if (fw < 0 || fh < 0) luaL_error(L, "attributes.frame has a negative size (%f x %f)", fw, fh);
        // Compared with the base frame as it was handed out (centre ∓ half size): an
        // unchanged frame must not move the centre by a rounding bit.
        if (!same(x, b[2] - b[4] / 2) || !same(y, b[3] - b[5] / 2) || !same(fw, w) || !same(fh, ht)) {
            cx = x + fw / 2; cy = y + fh / 2; w = fw; ht = fh; changed = 1;
        }
        lua_settop(L, top);
    }
    if (present & (1u << K_SIZE)) {
        int t = s->values + K_SIZE;
        if (!lua_istable(L, t)) luaL_error(L, "attributes.size is a %s, expected a CGSize", luaL_typename(L, t));
        double sw = field_number(L, t, s, K_WIDTH, "attributes.size");
        double sh = field_number(L, t, s, K_HEIGHT, "attributes.size");
        if (sw < 0 || sh < 0) luaL_error(L, "attributes.size is negative (%f x %f)", sw, sh);
        if (!same(sw, b[4]) || !same(sh, b[5])) { w = sw; ht = sh; changed = 1; }
        lua_settop(L, top);
    }
    if (present & (1u << K_CENTER)) {
        int t = s->values + K_CENTER;
        if (!lua_istable(L, t)) luaL_error(L, "attributes.center is a %s, expected a CGPoint", luaL_typename(L, t));
        double x = field_number(L, t, s, K_X, "attributes.center");
        double y = field_number(L, t, s, K_Y, "attributes.center");
        if (!same(x, b[2]) || !same(y, b[3])) { cx = x; cy = y; changed = 1; }
        lua_settop(L, top);
    }
    int tk = (present & (1u << K_TRANSFORM3D)) ? K_TRANSFORM3D
           : (present & (1u << K_TRANSFORM)) ? K_TRANSFORM : -1;
    if (tk >= 0) {
        int t = s->values + tk;
        const char *tname = tk == K_TRANSFORM3D ? "attributes.transform3D" : "attributes.transform";
        if (!lua_istable(L, t) || !read_transform(L, t, s, tname, m))
            luaL_error(L, "%s is a %s, expected a %s", tname, luaL_typename(L, t),
                       tk == K_TRANSFORM3D ? "CATransform3D" : "CGAffineTransform");
        changed = 1;
    }
    if (present & (1u << K_ALPHA)) {
        int t = s->values + K_ALPHA;
        if (lua_type(L, t) != LUA_TNUMBER) luaL_error(L, "attributes.alpha is a %s, expected a number", luaL_typename(L, t));
        alpha = lua_tonumberx(L, t, NULL);
        if (alpha != alpha || alpha - alpha != 0) luaL_error(L, "attributes.alpha is %s", alpha != alpha ? "NaN" : "infinite");
        changed = 1;
    }
    if (present & (1u << K_ZINDEX)) {
        int t = s->values + K_ZINDEX;
        if (lua_type(L, t) != LUA_TNUMBER) luaL_error(L, "attributes.zIndex is a %s, expected an integer", luaL_typename(L, t));
        int isInteger = 0;
        lua_Integer zi = lua_tointegerx(L, t, &isInteger);
        if (!isInteger || zi > 2147483647 || zi < -2147483647 - 1)
            luaL_error(L, "attributes.zIndex is %s, expected a whole number from -2147483648 to 2147483647",
                       lua_tostring(L, t));
        z = (double)zi;
        changed = 1;
    }
    if (present & (1u << K_HIDDEN)) {
        int t = s->values + K_HIDDEN;
        if (lua_type(L, t) != LUA_TBOOLEAN) luaL_error(L, "attributes.hidden is a %s, expected a boolean", luaL_typename(L, t));
        hidden = lua_toboolean(L, t) ? 1 : 0;
        changed = 1;
    }

    // The return value: nothing (or the attributes), a uniform scale, or a transform.
    if (rt == LUA_TNUMBER) {
        double sc = lua_tonumberx(L, R, NULL);
        if (sc != sc || sc - sc != 0) luaL_error(L, "returned %s as the scale", sc != sc ? "NaN" : "an infinite number");
        if (sc > MAX_MAGNITUDE || sc < -MAX_MAGNITUDE)
            luaL_error(L, "returned %f as the scale, beyond the largest magnitude allowed (1e15)", (lua_Number)sc);
        for (int k = 0; k < 16; k++) m[k] = (k % 5 == 0) ? 1 : 0;
        m[0] = sc; m[5] = sc;
        changed = 1;
    } else if (rt == LUA_TTABLE && !lua_rawequal(L, R, A)) {
        if (!read_transform(L, R, s, "the returned transform", m))
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
    // The host's enumeration is work done for the script: a flat fee, then a unit per
    // number handed over. The query stops counting past CARDLUA_QUERY_MAX.
    shims_charge(L, 100);
    long n = h->query(h->query_context, x, y, w, ht, h->query_buffer, h->query_capacity);
    if (n > CARDLUA_QUERY_MAX)
        return luaL_error(L, "layoutAttributesForElements: the rect meets more than %d items, the most "
                             "one query returns (ask for a smaller rect)", CARDLUA_QUERY_MAX);
    if (n < 0) n = 0;
    shims_charge(L, (long long)n * CARDLUA_IN_STRIDE);
    if (n > h->query_capacity) {
        // Grown through the capped allocator: the buffer counts against --max-memory.
        size_t old = (size_t)h->query_capacity * CARDLUA_IN_STRIDE * sizeof(double);
        size_t size = (size_t)n * CARDLUA_IN_STRIDE * sizeof(double);
        double *grown = (double *)capped_alloc(h, h->query_buffer, old, size);
        if (grown == NULL) shims_charge(L, 0);  // the allocator noted the refusal: a memory limit
        if (grown == NULL) return luaL_error(L, "not enough memory for %I items", (lua_Integer)n);
        h->query_buffer = grown;
        h->query_capacity = n;
        n = h->query(h->query_context, x, y, w, ht, h->query_buffer, h->query_capacity);
        if (n > h->query_capacity) n = h->query_capacity;
    }
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
    // A write to standard error per call: charged, so that a print in a loop ends at
    // the budget after 10000 lines or so, not at the time limit after a million.
    shims_charge(L, PRINT_FEE);
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
        add_clean(&b, text, len, room);
    }
    luaL_pushresult(&b);
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
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

/// warn(...) to standard error, prefixed with the script's name; always on.
static void warning_function(void *ud, const char *msg, int tocont) {
    static int continuing = 0;
    cardlua_host *h = (cardlua_host *)ud;
    if (!continuing && !tocont && msg[0] == '@') return;  // control messages (@on, @off)
    if (h->print_silenced) { continuing = tocont; return; }
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
    continuing = tocont;
}

static void silent_warnings(void *ud, const char *msg, int tocont) {
    (void)ud; (void)msg; (void)tocont;
}

// MARK: - Set-up

static int body_setup(lua_State *L) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    const char *prelude = h->load_source;
    size_t prelude_length = h->load_length;

    // The allowlist (Sources/CLuaShims/README.md): base, string, table, math, utf8, coroutine. No io, os,
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
    // Library functions that keep their C work inside the limits, setmetatable without
    // __gc, and a fixed random seed (sandbox.c).
    shims_install_sandbox(L);
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

static void set_short_name(cardlua_host *h);

cardlua_host *cardlua_open(const char *prelude, size_t prelude_length, size_t memory_limit,
                           long long instruction_budget, const char **message_out) {
    cardlua_host *h = (cardlua_host *)calloc(1, sizeof *h);
    if (h == NULL) {
        if (message_out) *message_out = "not enough memory";
        return NULL;
    }
    h->memory_limit = memory_limit;
    h->period_heap_mark = HOOK_PERIOD_HEAP;
    h->budget = instruction_budget > 0 ? instruction_budget : 1;
    h->hook_step = h->budget < HOOK_PERIOD ? (int)h->budget : HOOK_PERIOD;
    h->time_limit_ns = CARDLUA_DEFAULT_TIME_LIMIT_MS * 1000000LL;
    h->ref_internals = h->ref_attributes = h->ref_layout = h->ref_layout_lines = LUA_NOREF;
    snprintf(h->chunkname, sizeof h->chunkname, "%s", "script");
    set_short_name(h);
    h->L = lua_newstate(capped_alloc, h);
    if (h->L == NULL) {
        free(h);
        if (message_out) *message_out = "not enough memory for a Lua state";
        return NULL;
    }
    lua_setwarnf(h->L, warning_function, h);
    lua_sethook(h->L, count_hook, LUA_MASKCOUNT, h->hook_step);
    // The prelude is loaded protected. Its text goes through the host, not upvalues: a
    // closure with upvalues would allocate, and nothing may allocate outside lua_pcall.
    lua_State *L = h->L;
    lua_settop(L, 0);
    lua_pushcfunction(L, message_handler);
    lua_pushcfunction(L, body_setup);
    h->load_source = prelude;
    h->load_length = prelude_length;
    reset_budget(h);
    h->budget_left = SETUP_BUDGET;  // the prelude's work is not the script's
    int status = lua_pcall(L, 0, 0, 1);
    h->load_source = NULL;
    if (status != LUA_OK) {
        if (message_out)
            *message_out = (status == LUA_ERRMEM || h->memory_refused)
                               ? "the memory limit is too small for the cardlua prelude"
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
    if (h->L) {
        lua_State *L = h->L;
        h->L = NULL;
        close_state(h, L);
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

void cardlua_set_run_time_limit(cardlua_host *h, double seconds) {
    h->run_limit_ns = seconds > 0 ? (long long)(seconds * 1e9) : 0;
    h->run_deadline_ns = h->run_limit_ns > 0 ? monotonic_ns() + h->run_limit_ns : 0;
}

void cardlua_set_time_limit(cardlua_host *h, double seconds) {
    if (!(seconds > 0)) seconds = 0;        // NaN or not positive: no time limit
    if (seconds > 1e6) seconds = 1e6;       // keeps the nanoseconds inside a long long
    h->time_limit_ns = (long long)(seconds * 1e9);
}

const char *cardlua_message(cardlua_host *h) { return h->message ? h->message : ""; }

size_t cardlua_memory_in_use(cardlua_host *h) { return h->memory_used; }

// MARK: - Entry points

static int body_load(lua_State *L) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    char chunk[520];
    snprintf(chunk, sizeof chunk, "@%s", h->chunkname);
    // Text only: bytecode can crash the VM.
    if (luaL_loadbufferx(L, h->load_source, h->load_length, chunk, "t") != LUA_OK) return lua_error(L);
    lua_call(L, 0, 0);
    return 0;
}

/// The name Lua's own messages and tracebacks give the script (luaO_chunkid for a
/// "@file" source): the name itself if it fits in LUA_IDSIZE - 1 characters, else "..."
/// and its last LUA_IDSIZE - 4 characters.
static void set_short_name(cardlua_host *h) {
    size_t n = strlen(h->chunkname);
    if (n + 1 <= LUA_IDSIZE)
        snprintf(h->short_name, sizeof h->short_name, "%s", h->chunkname);
    else
        snprintf(h->short_name, sizeof h->short_name, "...%s", h->chunkname + n - (LUA_IDSIZE - 4));
}

int cardlua_load_script(cardlua_host *h, const char *source, size_t length, const char *chunkname) {
    snprintf(h->chunkname, sizeof h->chunkname, "%s", chunkname);
    set_short_name(h);
    h->callback = NULL;
    h->callback_line = 1;
    h->load_source = source;
    h->load_length = length;
    int status = run_protected(h, body_load);
    h->load_source = NULL;
    return status;
}

static int body_has_function(lua_State *L) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
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
        int line = script_line(L, h);
        lua_pushvalue(L, 2);
        lua_pushinteger(L, line);
        lua_rawset(L, lua_upvalueindex(2));
    }
    lua_settop(L, 3);
    lua_rawset(L, lua_upvalueindex(1));
    return 0;
}

static int body_prepare(lua_State *L) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    apply_state(L, h);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_layout);
    int layout = lua_gettop(L);
    h->callback = "prepare";
    if (push_callback(L, h, "prepare")) {
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
    reset_budget(h);
    push_internal(L, h, "readLayout");
    lua_pushvalue(L, layout);
    lua_call(L, 1, 1);
    for (int i = 0; i < CARDLUA_CFG_COUNT; i++) {
        lua_rawgeti(L, -1, i + 1);
        h->config_out[i] = lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    check_layout_magnitudes(L, h->config_out);
    return 0;
}

int cardlua_prepare(cardlua_host *h, const double *state, double *config_out) {
    h->state = state;
    h->config_out = config_out;
    h->callback = "prepare";
    h->callback_line = 1;
    return run_protected(h, body_prepare);
}

static const char *const POOL_NAMES[4] = {"center", "frame", "size", "indexPath"};

/// Registry references to the attributes pool tables, made once.
static void ensure_pools(lua_State *L, cardlua_host *h) {
    if (h->ref_pool[3] > 0) return;
    push_internal(L, h, "pool");
    for (int k = 0; k < 4; k++) {
        lua_getfield(L, -1, POOL_NAMES[k]);
        h->ref_pool[k] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_pop(L, 1);
}

static int body_transform(lua_State *L) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua_host *h = host_of(L);
    apply_state(L, h);
    h->callback = "transform";
    int hasTransform = push_callback(L, h, "transform");
    int F = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_attributes);
    int A = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ref_layout);
    int Lo = lua_gettop(L);
    ensure_pools(L, h);
    hot_slots s;
    push_slots(L, h, &s);
    int base = lua_gettop(L);
    clear_table(L, A);  // a frame stopped by an error may have left keys behind
    for (long i = 0; i < h->count; i++) {
        const double *b = h->input + i * CARDLUA_IN_STRIDE;
        h->item_index = i;
        h->item_number = (long)b[1];
        h->has_item = 1;
        if (hasTransform) {
            // The budget is per item; the clock runs for the whole frame (run_protected
            // started it): a frame of many items each just inside the time limit would
            // otherwise take minutes.
            h->budget_left = h->budget;
            lua_pushvalue(L, F);
            lua_pushvalue(L, A);
            lua_pushvalue(L, Lo);
            lua_call(L, 2, 1);
        } else {
            lua_pushnil(L);
        }
        int R = base + 1;
        unsigned present = take_fields(L, &s, A, !h->check_mode);
        read_item(L, h, &s, present, R, A, i);
        if (h->check_mode) {
            note_unknown_keys(L, h, A);
            clear_table(L, A);
        }
        lua_settop(L, base);
    }
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
    int status = run_protected(h, body_transform);
    h->state = NULL;  // the caller's buffer: not read after the call (frame_place)
    return status;
}

static int body_target(lua_State *L) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
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
    for (int k = 0; k < 2; k++)
        if (h->point_out[k] > MAX_MAGNITUDE || h->point_out[k] < -MAX_MAGNITUDE)
            luaL_error(L, "returned %s = %f, beyond the largest magnitude allowed (1e15)", k == 0 ? "x" : "y",
                       (lua_Number)h->point_out[k]);
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
    luaL_checkstack(L, BODY_STACK, "cardlua");
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
    luaL_checkstack(L, BODY_STACK, "cardlua");
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
        reset_budget(h);
        lua_pushvalue(L, 1);
        if (lua_pcall(L, 0, 0, 0) != LUA_OK) { lua_settop(L, 0); return CARDLUA_ERROR; }
    }
    lua_settop(L, 0);
    return CARDLUA_OK;
}
