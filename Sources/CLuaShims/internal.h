// Private to CLuaShims: what its files share (the host struct, the limits, the
// reporting, the sandbox). Not part of the module's public header, so Swift
// never sees these. See README.md in this folder.
#ifndef CARDLUA_SHIMS_INTERNAL_H
#define CARDLUA_SHIMS_INTERNAL_H

#include <lauxlib.h>
#include <lua.h>
#include <stddef.h>

#include "CLuaShims.h"

/// Every function and object one file of this target shares with another is declared here
/// with CARDLUA_INTERNAL and named cardlua__… (two underscores), as Lua marks its own with
/// LUAI_FUNC: hidden from the dynamic symbol table of a library or app that links these
/// objects, and under a name no other library uses, so nothing collides at link time.
/// Only the entry points of include/CLuaShims.h (cardlua_…, one underscore) are exported
/// (SymbolTests checks the objects with nm).
#if defined(__GNUC__) || defined(__clang__)
#define CARDLUA_INTERNAL __attribute__((visibility("hidden")))
#else
#define CARDLUA_INTERNAL
#endif

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
// The longest warn line a log function receives.
#define LOG_LINE_MAX 4096

/// The budget for loading the prelude (a fixed amount of work, whatever the script's
/// budget).
#define SETUP_BUDGET 1000000000LL

// The keys of `attributes` the per-item read-back moves into fixed stack slots (their
// bit in a `present` mask is 1 << K_…), then the fields read from their values. Shared
// by attributes.c (transform) and elements.c (the element query's returned tables).
enum {
    K_FRAME, K_SIZE, K_CENTER, K_TRANSFORM3D, K_TRANSFORM, K_ALPHA, K_ZINDEX, K_HIDDEN,
    /* contract v2: facing and appearance (the "extras": read only when one is present) */
    K_DOUBLE_SIDED, K_CORNER_RADIUS, K_SHADOW_OPACITY, K_SHADOW_RADIUS, K_SHADOW_OFFSET,
    K_BACKGROUND, K_BLUR_RADIUS,
    K_ATTRIBUTES,  /* the attributes' own keys end here; then the fields read from values */
    K_M11 = K_ATTRIBUTES, /* …m44 */
    K_A = K_M11 + 16, K_B, K_C, K_D, K_TX, K_TY,
    K_X, K_Y, K_WIDTH, K_HEIGHT,
    K_COUNT
};
/// transform_call.touched beyond the slot keys: the cached indexPath, and any other key
/// (a key outside the contract, or not a string).
#define TOUCHED_INDEX_PATH (1u << K_ATTRIBUTES)
#define TOUCHED_OTHER (1u << (K_ATTRIBUTES + 1))
/// The present bits of the extras (isDoubleSided and the appearance keys).
#define K_EXTRAS_MASK (((1u << K_ATTRIBUTES) - 1) & ~((1u << K_DOUBLE_SIDED) - 1))

/// The allocator's small blocks: sizes up to SMALL_MAX in classes of SMALL_CLASS bytes.
#define SMALL_CLASS 16
#define SMALL_MAX 1024
#define SMALL_CLASSES (SMALL_MAX / SMALL_CLASS)

typedef struct cardlua_call cardlua_call;
typedef struct transform_call transform_call;

/// The host's watchdog thread (watchdog.c): made at the first call with a time limit.
typedef struct cardlua_watchdog cardlua_watchdog;

/// A protected body as cardlua__run_protected runs it, inside lua_pcall, with its call's
/// record. Each body proper takes its own record's type (CARDLUA_BODY, below).
typedef int (*cardlua_body)(lua_State *L, cardlua_call *c);

/// What every call's record begins with: the part that the code Lua calls back during a
/// call (the message handler, the count hook, the limits' messages, the queries) and
/// cardlua__run_protected itself read, whatever the call. Each entry point has a record
/// of its own (`prepare_call`, `transform_call`, …: its inputs and results), which holds
/// this as its first member, `call`, and fills it on its own C stack; cardlua__run_protected
/// pushes a pointer to it as a light userdata, the body's one argument (as lua.c hands
/// argv to pmain), and host->call points at this part while the pcall runs. The record
/// lives as long as the call; the host keeps only what lives as long as the state.
struct cardlua_call {
    cardlua_body body;           // set by cardlua__run_protected

    // What the call reports about itself: for messages and the hook.
    const char *callback;        // the script's callback under way, or NULL
    int callback_line;           // its line (0: no line of the script applies)
    int has_item;                // an item is under way...
    long item_number;            // ...and its number (as messages name it)
    const double *state;         // the scroll state (CARDLUA_STATE_COUNT numbers), or NULL
    int parsing;                 // 1 while Lua parses a text (its C levels are nesting then)
    // A bad value returned by a callback: it is called once more with a return hook to
    // find the line of its `return` (attributes.c: cardlua__note_return_line).
    int return_probe;            // the count hook also watches returns
    int return_line;             // the callback's last `return` line seen by the probe
    // sizes.c switched the collector to generational mode for this call:
    // cardlua__run_protected switches it back after the pcall, however the call ended.
    int restore_incremental;
    // A transform call's whole record (attributes.c), from which the attributes proxy
    // reads the item in hand; NULL in any other call.
    transform_call *transform;
};

/// Declares the protected body `name`, whose record is a `type` (an entry point's own
/// record, its common part `call` first), and defines `protected_<name>`, the body as
/// lua_pcall runs it (a cardlua_body): it turns the common part back into the whole
/// record. So a body's type says what it reads, and no function is called through a
/// pointer of another type (a pointer to a struct's first member is one to the struct).
#define CARDLUA_DECLARE_BODY(name, type)       \
    static int name(lua_State *L, type *record); \
    static int protected_##name(lua_State *L, cardlua_call *c) { return name(L, (type *)c); }

/// CARDLUA_DECLARE_BODY, and `run_<name>(h, record)`, which runs the body through
/// cardlua__run_protected: how an entry point calls its body. (cardlua_open runs its
/// set-up through its own lua_pcall, with CARDLUA_DECLARE_BODY alone.)
#define CARDLUA_BODY(name, type)                                           \
    CARDLUA_DECLARE_BODY(name, type)                                       \
    static inline int run_##name(cardlua_host *h, type *record) {          \
        return cardlua__run_protected(h, &record->call, protected_##name); \
    }

/// What loading a text reads: cardlua_load_script's script, cardlua_open's prelude.
typedef struct {
    cardlua_call call;
    const char *source;
    size_t length;
    char *instrumented;          // the script with checkpoints (cardlua_instrument), or NULL
    size_t instrumented_length;
} load_call;

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
    // Freed small blocks kept for reuse, one list per size class (limits.c, *Small blocks*).
    void *small_free[SMALL_CLASSES];
    size_t small_kept;                  // their bytes, all classes (limits.c: SMALL_KEEP_BYTES)

    // The budget, per callback call: steps at checkpoints (or instructions counted by the
    // count hook) and C work.
    long long budget;
    long long budget_left;
    int hook_step;               // the hook's period for a small heap
    // What the budget charged since cardlua_measure_budget (for measurements: the whole
    // run, not per call): steps at checkpoints, instructions counted by the hook, C work.
    long long charged_steps, charged_instructions, charged_host_work;
    int measuring;               // cardlua_measure_budget: exact accounting (period 1, grant 0)
    // The state counts its budget on checkpoints (checkpoints.c), the count hook off
    // (until half the memory cap, or a limit): from the prelude's first checkpoint on,
    // until a script without them is loaded.
    int checkpoints;
    int setting_up;              // cardlua_open is loading the prelude
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
    // The thread that enforces both time limits without the checkpoints (watchdog.c),
    // or NULL: none yet, or the system refused one (watchdog_failed: not asked again).
    cardlua_watchdog *watchdog;
    int watchdog_failed;
    // For tests (cardlua_skip_checkpoints): scripts are loaded as they are, yet the state
    // goes on counting on checkpoints, the hook off: a loop with no checkpoint at all.
    int skip_checkpoints;

    // Bytes print and warn wrote so far (PRINT_CAP).
    size_t printed;
    int print_silenced;

    // cardlua_set_log: where print and warn lines go instead of standard error.
    cardlua_log_fn log;
    void *log_context;
    // warn's pieces of the current line while a log function is set (LOG_LINE_MAX:
    // the rest of a longer line is dropped; it still counts against PRINT_CAP).
    char warn_line[LOG_LINE_MAX];
    size_t warn_length;

    // After a limit the state is not trusted again.
    int poisoned;

    // A protected call is under way (cardlua__run_protected, cardlua_bench_empty_pcalls). Every
    // entry point refuses to start while it is set (REFUSE_REENTRY): a callback of the
    // host's (the log function, a query) that calls back into the same state would
    // clear the stack of the call under way and replace host->call, its record.
    int in_call;

    // warn: the previous piece asked to be continued (its line is not finished). Per
    // state: two states warning at once (two threads, or one state's log function
    // making another warn) each finish their own line.
    int warn_continuing;

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
    int ref_keys;
    int ref_set_state;                  // the prelude's I.setState
    int ref_line_cache;                 // the callback whose line cardlua__push_callback last found
    const void *line_cache_function;
    int line_cache_line;
    const char *key_names[K_ATTRIBUTES];  /* the interned attribute keys (hot_slots) */

    // The call under way (cardlua__run_protected sets it for the length of the pcall,
    // NULL between calls): code Lua calls back during the call (the count hook, the
    // message handler, the attributes proxy, the queries) reaches the call's record here.
    // The record itself lives on the entry point's C stack.
    cardlua_call *call;

    char chunkname[512];     // as shown in messages ("scripts/lol.lua")
    char short_name[LUA_IDSIZE + 1];  // as Lua shows it in its own messages (long: "...tail")
    char *message;           // the last error's text (one line)
    char *details;           // ...and its details (traceback), or NULL
    // The rest of the last error (cardlua_error), set where the error is reported.
    int err_line;
    char err_callback[64];
    int err_has_item;
    long err_item;
    char err_field[64];      // set by the reader that refused a value (attributes.c)
    int limit_kind;          // CARDLUA_LIMIT_*, set with limit_text
    int hook_line;           // the script's line at the count hook's last check (0: none)
    char *string_result;     // the last cardlua_call_internal_string result

    // The single-item query (layout:layoutAttributesForItem).
    cardlua_item_fn item_query;
    void *item_query_context;
    // What the element query returned, read back (CARDLUA_ELEMENT_STRIDE per element):
    // the host's buffer, grown through the capped allocator.
    double *elements;
    long elements_capacity;
    // The base geometry (centre x, y, width, height) of the attribute tables the layout
    // handed out during the current call, by table address: their center, size and frame
    // are made when first read (elements.c, *Geometry on first read*). Open addressing,
    // `base_capacity` slots (a power of two); a slot of an older generation is empty, and
    // cardlua__run_protected starts a new generation each call.
    struct base_slot *bases;
    long base_capacity;
    long base_count;
    unsigned base_generation;
    // The most keys a returned layout table has held (elements.c, push_item_attributes):
    // the next ones are made that large, so that a query that sets many keys on each card
    // does not grow every table once. 0 until a query's list has been read back.
    int element_keys;
};

/// One entry of host->bases.
struct base_slot {
    const void *table;
    unsigned generation;
    double base[4];
};


/// Charges `units` of C work against the budget of steps of the call under way (one
/// step is worth one VM instruction) and raises the limit error once a limit is reached
/// (the budget, the memory cap or the time limit). Also checks the clock when the charge
/// is large. Call only from C functions that Lua called (the error unwinds to the
/// nearest lua_pcall). Inline (below host_of): the common charge, small and with budget
/// left, costs no call; anything else is cardlua__charge_for's.
static inline void cardlua__charge(lua_State *L, long long units);

/// cardlua__charge, with what to say if the budget runs out here (instead of "possible
/// infinite loop"), e.g. "a string pattern that backtracks too much".
CARDLUA_INTERNAL void cardlua__charge_for(lua_State *L, long long units, const char *reason);

/// Whether a limit has been reached in this state (from then on every hook raises).
CARDLUA_INTERNAL int cardlua__limit_reached(lua_State *L);

/// Opens the libraries and applies the sandbox's allowlist (sandbox.c: a table of every
/// function a script can call, with what is done to it); anything unlisted is removed.
/// Runs protected, before the prelude. May raise.
CARDLUA_INTERNAL void cardlua__install_sandbox(lua_State *L);

/// Bytes scanned or copied per unit of budget (sandbox.c, pattern.c).
#define BYTES_PER_UNIT_SHIFT 4

/// Charges for scanning or copying `bytes` bytes.
static inline void charge_bytes(lua_State *L, size_t bytes) {
    cardlua__charge(L, (long long)(bytes >> BYTES_PER_UNIT_SHIFT));
}

/// The counted pattern functions (pattern.c), installed by the sandbox.
CARDLUA_INTERNAL int cardlua__counted_find(lua_State *L);
CARDLUA_INTERNAL int cardlua__counted_match(lua_State *L);
CARDLUA_INTERNAL int cardlua__counted_gmatch(lua_State *L);
CARDLUA_INTERNAL int cardlua__counted_gsub(lua_State *L);

// MARK: - Shared between the files of this target (one line each: see the definitions)

/// The host of a state (the allocator's user data).
static inline cardlua_host *host_of(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return (cardlua_host *)ud;
}

static inline void cardlua__charge(lua_State *L, long long units) {
    cardlua_host *h = host_of(L);
    // cardlua__charge_for's test when nothing is reached and no clock is read (units < 4096).
    if (units > 0 && units < 4096 && !h->budget_exhausted && h->budget_left > units && !h->memory_exhausted &&
        !h->refusal_pending) {
        h->budget_left -= units;
        return;
    }
    cardlua__charge_for(L, units, NULL);
}

/* errors.c */ CARDLUA_INTERNAL void cardlua__note_field(cardlua_host *h, const char *path);
/// Calls the prelude's argError (at index `arg_error`, an upvalue or absolute index) with
/// the function's name, parameters and kinds and the first `nargs` values of the stack:
/// it raises the Lua definition's message at the script's line (level 3: argError, the
/// C function, its caller). For the C functions that stand in for prelude ones.
/* errors.c */ CARDLUA_INTERNAL int cardlua__raise_arg_error(lua_State *L, int nargs, int arg_error, const char *name,
                                   const char *params, const char *kinds);
/// setmetatable's sandbox rule for C that gives its new tables a metatable a script can
/// reach: raises when the metatable at `mt` (an upvalue or absolute index) has a __gc
/// field (a finalizer runs with hooks off, outside the limits).
/* checked_metatable.c */ CARDLUA_INTERNAL void cardlua__refuse_finalizer(lua_State *L, int mt);
/// cardlua__refuse_finalizer, then gives the value on top the metatable at `mt`.
/* checked_metatable.c */ CARDLUA_INTERNAL void cardlua__set_checked_metatable(lua_State *L, int mt);
/// cardlua__set_checked_metatable with the string "__gc" at `gc_key` (an upvalue, say):
/// the makers of a table per card, where pushing the key from C text was a third of it.
/* checked_metatable.c */ CARDLUA_INTERNAL void cardlua__set_checked_metatable_with(lua_State *L, int mt, int gc_key);
/// The hook's event mask: the count, and returns while a return-line probe runs.
#define HOOK_MASK(h) (LUA_MASKCOUNT | ((h)->call && (h)->call->return_probe ? LUA_MASKRET : 0))
/// A key of `attributes` the contract knows (attributes.c: cardlua__attribute_keys, NULL-ended).
typedef struct { const char *name; int writable; } attribute_key;
CARDLUA_INTERNAL extern const attribute_key cardlua__attribute_keys[];
/// cardlua__attribute_keys' length, its NULL end included.
CARDLUA_INTERNAL extern const int cardlua__attribute_key_count;
/* attributes.c */ CARDLUA_INTERNAL int cardlua__attribute_slots_match(void);
/// Where the read-back keeps the keys and the values an item left (attributes.c).
typedef struct {
    int keys;                  /* a table of the K_COUNT keys, cardlua__slot_keys order from 1 */
    int values;                /* K_ATTRIBUTES value slots from here */
    int geometry;              /* 0, or where the keys x, y, width, height stand (cardlua__push_geometry_keys) */
    const char *const *names;  /* the interned attribute keys, cardlua__slot_keys order */
} hot_slots;
CARDLUA_INTERNAL extern const char *const cardlua__slot_keys[K_COUNT];
/* attributes.c */ CARDLUA_INTERNAL void cardlua__push_slots(lua_State *L, cardlua_host *h, hot_slots *s);
/* attributes.c */ CARDLUA_INTERNAL int cardlua__get_key(lua_State *L, int table, const hot_slots *s, int key);
/* attributes.c */ CARDLUA_INTERNAL void cardlua__push_geometry_keys(lua_State *L, hot_slots *s);
/* attributes.c */ CARDLUA_INTERNAL int cardlua__read_fields(lua_State *L, cardlua_host *h, const hot_slots *s, unsigned present,
                                   const double *base, const double *start, double *out);
/* attributes.c */ CARDLUA_INTERNAL void cardlua__note_unknown_keys(lua_State *L, cardlua_host *h, int table);
/// The line of the `return` by which the callback at stack slot `callback` (its two
/// arguments follow it) handed back a bad value, noted as the call's line (0: no callback).
/* attributes.c */ CARDLUA_INTERNAL void cardlua__note_return_line(lua_State *L, cardlua_host *h, int callback);
/* elements.c */ CARDLUA_INTERNAL int cardlua__native_item(lua_State *L);
/* elements.c */ CARDLUA_INTERNAL int cardlua__element_newindex(lua_State *L);
/* elements.c */ CARDLUA_INTERNAL void cardlua__push_element_newindex(lua_State *L);
/* elements.c */ CARDLUA_INTERNAL int cardlua__element_makers(lua_State *L);
/* attributes.c */ CARDLUA_INTERNAL void cardlua__apply_state(lua_State *L, cardlua_host *h);
/* attributes.c */ CARDLUA_INTERNAL int cardlua__attributes_index(lua_State *L);
/* attributes.c */ CARDLUA_INTERNAL void cardlua__push_attributes_index(lua_State *L);
/* attributes.c */ CARDLUA_INTERNAL int cardlua__attributes_newindex(lua_State *L);
/* attributes.c */ CARDLUA_INTERNAL void cardlua__push_attributes_newindex(lua_State *L);
/* attributes.c */ CARDLUA_INTERNAL int cardlua__native_query(lua_State *L);
/// The items meeting the rect at arguments 1…4 (x, y, width, height), enumerated by the
/// host into h->query_buffer (CARDLUA_IN_STRIDE numbers each), charged; returns how many.
/* attributes.c */ CARDLUA_INTERNAL long cardlua__query_items(lua_State *L);
/* attributes.c */ CARDLUA_INTERNAL int cardlua__push_callback(lua_State *L, cardlua_host *h, const char *name);
/* attributes.c */ CARDLUA_INTERNAL void cardlua__push_internal(lua_State *L, cardlua_host *h, const char *name);
/* errors.c */ CARDLUA_INTERNAL void cardlua__add_clean(luaL_Buffer *b, const char *s, size_t n, size_t cap);
/* errors.c */ CARDLUA_INTERNAL void cardlua__close_state(cardlua_host *h, lua_State *L);
/* errors.c */ CARDLUA_INTERNAL int cardlua__message_handler(lua_State *L);
/// The function run under lua_pcall: hands its argument, the call's record, to its body.
/* errors.c */ CARDLUA_INTERNAL int cardlua__call_body(lua_State *L);
/// Runs body(L, c) under lua_pcall with the message handler, `c` being the call's record
/// (filled by the entry point; c->body is set here).
/* errors.c */ CARDLUA_INTERNAL int cardlua__run_protected(cardlua_host *h, cardlua_call *c, cardlua_body body);
/// The error of an entry point called while a call of the same state is under way (from a
/// callback of the host's): sets the last error's parts and returns CARDLUA_ERROR. Touches
/// no Lua and none of the call under way's fields.
/* errors.c */ CARDLUA_INTERNAL int cardlua__refuse_reentry(cardlua_host *h);
/// The first statement of every entry point that calls into Lua or changes the call's
/// fields: returns `__VA_ARGS__` (after cardlua__refuse_reentry) during a call of the same state.
#define REFUSE_REENTRY(h, ...) \
    do { if ((h)->in_call) { cardlua__refuse_reentry(h); return __VA_ARGS__; } } while (0)
/* errors.c */ CARDLUA_INTERNAL int cardlua__script_line(lua_State *L, cardlua_host *h);
/* host.c */ CARDLUA_INTERNAL int cardlua__native_print(lua_State *L);
/* host.c */ CARDLUA_INTERNAL void cardlua__set_short_name(cardlua_host *h);
/* host.c */ CARDLUA_INTERNAL void cardlua__silent_warnings(void *ud, const char *msg, int tocont);
/* limits.c */ CARDLUA_INTERNAL void *cardlua__capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
/* limits.c */ CARDLUA_INTERNAL void cardlua__release_small_blocks(cardlua_host *h);
/* limits.c */ CARDLUA_INTERNAL void cardlua__grow_records(lua_State *L, cardlua_host *h, double **buffer, long *capacity, long n,
                                 int stride, const char *what);
/* limits.c */ CARDLUA_INTERNAL void cardlua__count_hook(lua_State *L, lua_Debug *ar);
/* limits.c */ CARDLUA_INTERNAL void cardlua__push_checkpoint(lua_State *L);
/* limits.c */ CARDLUA_INTERNAL void cardlua__count_on_checkpoints(cardlua_host *h);
/* limits.c */ CARDLUA_INTERNAL void cardlua__describe_limit(cardlua_host *h, const char *what);
/* limits.c */ CARDLUA_INTERNAL void cardlua__describe_memory_limit(cardlua_host *h);
/* limits.c */ CARDLUA_INTERNAL void cardlua__frame_place(const cardlua_host *h, char *out, size_t size);
/* limits.c */ CARDLUA_INTERNAL int cardlua__memory_given_up(const cardlua_host *h);
/* limits.c */ CARDLUA_INTERNAL long long cardlua__monotonic_ns(void);
/* limits.c */ CARDLUA_INTERNAL void cardlua__reset_budget(cardlua_host *h);
/// The count hook as the state wants it between calls: off on checkpoints (below half the
/// memory cap), else at its period. Outside a call too (lua_sethook stores fields).
/* limits.c */ CARDLUA_INTERNAL void cardlua__restore_hook(cardlua_host *h);
/// The watchdog (watchdog.c): a call with a time limit starts (before its lua_pcall) and
/// ends (after it, before anything may close the state); the call's clock starts again;
/// whether it found the time up (1: the call's, 2: the run's; read by the clock's checks);
/// stopped and joined before the host's state is closed (cardlua_close).
/// Gives a new coroutine the count hook, which on checkpoints only watches (the clock, the
/// watchdog's verdict, memory): the watchdog arms the main thread's hook alone, and each
/// Lua thread has its own, so a loop in a coroutine that met no checkpoint still ends at a
/// time limit. The budget stays the checkpoints'. (Coroutines are rare in effects: the
/// hook's trap mode costs them alone.)
/* limits.c */ CARDLUA_INTERNAL void cardlua__watch_coroutine(lua_State *co);
/* watchdog.c */ CARDLUA_INTERNAL void cardlua__watch_start(cardlua_host *h);
/* watchdog.c */ CARDLUA_INTERNAL void cardlua__watch_end(cardlua_host *h);
/* watchdog.c */ CARDLUA_INTERNAL void cardlua__watch_restart(cardlua_host *h);
/* watchdog.c */ CARDLUA_INTERNAL int cardlua__watch_expired(const cardlua_host *h);
/* watchdog.c */ CARDLUA_INTERNAL void cardlua__watch_close(cardlua_host *h);
/* transform_math.c */ CARDLUA_INTERNAL int cardlua__transform_math(lua_State *L);
/* transform_math.c */ CARDLUA_INTERNAL int cardlua__transform_value(lua_State *L, int idx, double *m);
/* geometry_native.c */ CARDLUA_INTERNAL int cardlua__geometry_makers(lua_State *L);
/// Appends a row of the API ({ name, params, kinds, returns, doc }; a value: no params or
/// kinds) to the list at `result`, for the prelude's defineAll: the installers' rows.
/* api_rows.c */ CARDLUA_INTERNAL void cardlua__list_api(lua_State *L, int result, const char *name,
    const char *params, const char *kinds, const char *returns, const char *doc);

#endif
