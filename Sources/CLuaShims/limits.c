// Limits: the capped allocator, the count hook, the checkpoints' budget function, the
// budget of steps and its charges, the time limits and the limit messages. See README.md
// in this folder.
#include "CLuaShims.h"
#include "internal.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

// MARK: - Allocator and hook


/// The hook's period (in instructions) for the current heap size.
static int hook_period(const cardlua_host *h) {
    if (h->measuring) return 1;  // cardlua_measure_budget: every instruction counted
    // In the last eighth of the memory cap, every instruction: the line noted by the hook
    // is then the one that allocated when the cap refuses (a memory error runs no message
    // handler, and the allocator cannot read the stack safely: Lua may be moving it).
    if (h->memory_used > h->memory_limit - h->memory_limit / 8) return 1;
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
    if (h->checkpoints && lua_gethook(h->L) == NULL) {
        // On checkpoints the hook is off until half the cap is in use; from there on it
        // watches as before (hook_line, the period that shrinks with the heap).
        if (h->memory_used > h->memory_limit / 2) lua_sethook(h->L, cardlua__count_hook, HOOK_MASK(h), period);
    } else if (period < lua_gethookcount(h->L)) {
        lua_sethook(h->L, cardlua__count_hook, HOOK_MASK(h), period);
    }
}

/// Grows a host buffer of `stride` doubles a record to hold n records, through the capped
/// allocator (so that it counts against the memory cap); at a refusal raises the memory
/// limit, or "not enough memory for N <what>". Inside a protected call only.
void cardlua__grow_records(lua_State *L, cardlua_host *h, double **buffer, long *capacity, long n, int stride,
                  const char *what) {
    if (n <= *capacity) return;
    // The byte count is checked before it is computed: a product that wraps would make a
    // small block that the caller then fills as a large one.
    size_t record = (size_t)stride * sizeof(double);
    if (stride <= 0 || (unsigned long)n > SIZE_MAX / record)
        luaL_error(L, "not enough memory for %I %s (too many to count in bytes)", (lua_Integer)n, what);
    size_t old = (size_t)*capacity * record;
    size_t size = (size_t)n * record;
    double *grown = (double *)cardlua__capped_alloc(h, *buffer, old, size);
    if (grown == NULL) cardlua__charge(L, 0);  // the allocator noted the refusal: a memory limit
    if (grown == NULL) luaL_error(L, "not enough memory for %I %s", (lua_Integer)n, what);
    *buffer = grown;
    *capacity = n;
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
    if (h->L != NULL && !h->budget_exhausted) lua_sethook(h->L, cardlua__count_hook, HOOK_MASK(h), 1);
}

// MARK: - Small blocks

// A frame makes and drops many small objects of a few sizes (a transform value is 176
// bytes, a CGPoint's table 56 plus its 2-slot hash part, an element query's layout table
// 56 plus a 16-slot hash part of 512), and the collector frees them in bursts that
// overflow malloc's per-thread cache. So freed blocks of up to SMALL_MAX bytes are kept,
// a list per 16-byte size class, and handed out again: a block's capacity is always at
// least its class's size, so a block that stays in its class moves nowhere. At most
// SMALL_KEEP_BYTES are kept in all (outside the memory cap, which counts the sizes Lua
// asks for): about what one collector cycle frees of a frame's garbage, so that the next
// cycle's allocations find their blocks here (docs/benchmark-history.md, round six). Under
// AddressSanitizer blocks are never kept, so that it still sees every use after free.
#if defined(__SANITIZE_ADDRESS__)
#define KEEP_SMALL_BLOCKS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KEEP_SMALL_BLOCKS 0
#endif
#endif
#ifndef KEEP_SMALL_BLOCKS
#define KEEP_SMALL_BLOCKS 1
#endif
#define SMALL_KEEP_BYTES (4 * 1024 * 1024)

#if KEEP_SMALL_BLOCKS
static inline int size_class(size_t n) { return (int)((n - 1) / SMALL_CLASS); }

/// A block of at least n bytes (n > 0); a small one has its class's full size.
static void *block_new(cardlua_host *h, size_t n) {
    if (n > SMALL_MAX) return malloc(n);
    int c = size_class(n);
    void *p = h->small_free[c];
    if (p != NULL) {
        h->small_free[c] = *(void **)p;
        h->small_kept -= (size_t)(c + 1) * SMALL_CLASS;
        return p;
    }
    return malloc((size_t)(c + 1) * SMALL_CLASS);
}

/// Drops a block whose Lua size is n: kept when small and SMALL_KEEP_BYTES has room for it.
static void block_free(cardlua_host *h, void *p, size_t n) {
    if (n > SMALL_MAX || h->small_kept + (size_t)(size_class(n) + 1) * SMALL_CLASS > SMALL_KEEP_BYTES) {
        free(p);
        return;
    }
    int c = size_class(n);
    *(void **)p = h->small_free[c];
    h->small_free[c] = p;
    h->small_kept += (size_t)(c + 1) * SMALL_CLASS;
}

/// The block p (Lua size osize > 0) resized to nsize > 0; NULL when out of memory.
static void *block_resize(cardlua_host *h, void *p, size_t osize, size_t nsize) {
    if (osize > SMALL_MAX && nsize > SMALL_MAX) return realloc(p, nsize);
    if (osize <= SMALL_MAX && nsize <= SMALL_MAX && size_class(osize) == size_class(nsize)) return p;
    void *q = block_new(h, nsize);
    if (q == NULL) return NULL;
    memcpy(q, p, osize < nsize ? osize : nsize);
    block_free(h, p, osize);
    return q;
}
#else
static void *block_new(cardlua_host *h, size_t n) { (void)h; return malloc(n); }
static void block_free(cardlua_host *h, void *p, size_t n) { (void)h; (void)n; free(p); }
static void *block_resize(cardlua_host *h, void *p, size_t osize, size_t nsize) {
    (void)h; (void)osize;
    return realloc(p, nsize);
}
#endif

/// Frees the kept small blocks (after the state is closed).
void cardlua__release_small_blocks(cardlua_host *h) {
    for (int c = 0; c < SMALL_CLASSES; c++) {
        while (h->small_free[c] != NULL) {
            void *p = h->small_free[c];
            h->small_free[c] = *(void **)p;
            free(p);
        }
    }
    h->small_kept = 0;
}

/// The capped allocator: refuses growth past memory_limit; charges growth to the
/// budget.
void *cardlua__capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    cardlua_host *h = (cardlua_host *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        if (ptr != NULL) block_free(h, ptr, old);
        h->memory_used -= old;
        return NULL;
    }
    if (nsize <= old) {
        // Lua assumes a shrink never fails: when there is no smaller block to move to,
        // the block keeps its capacity (at least its new class's size).
        void *p = block_resize(h, ptr, old, nsize);
        if (p == NULL) p = ptr;
        h->memory_used -= old - nsize;
        return p;
    }
    size_t growth = nsize - old;
    if (h->memory_used > h->memory_limit || growth > h->memory_limit - h->memory_used) {
        refuse(h, ptr, nsize);
        return NULL;
    }
    void *p = ptr ? block_resize(h, ptr, old, nsize) : block_new(h, nsize);
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
    h->charged_host_work += (long long)(growth >> ALLOC_UNIT_SHIFT);
    if (h->memory_used > h->period_heap_mark) retune_main_hook(h);
    return p;
}

long long cardlua__monotonic_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/// Whether the call has run past its time limit; the first check of a call starts its
/// clock.
static int out_of_time(cardlua_host *h) {
    if (h->time_limit_ns <= 0 && h->run_limit_ns <= 0) return 0;
    int expired = cardlua__watch_expired(h);  // the watchdog found the time up (watchdog.c)
    if (expired) {
        if (expired == 2) h->run_timed_out = 1;
        return 1;
    }
    long long now = cardlua__monotonic_ns();
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
void cardlua__frame_place(const cardlua_host *h, char *out, size_t size) {
    out[0] = '\0';
    const cardlua_call *c = h->call;
    if (c == NULL || c->state == NULL || c->callback == NULL || strcmp(c->callback, "transform") != 0) return;
    double ox = c->state[CARDLUA_STATE_OFFSET_X], oy = c->state[CARDLUA_STATE_OFFSET_Y];
    snprintf(out, size, "the frame at t=%.2f s, offset %.10g", c->state[CARDLUA_STATE_TIME], ox != 0 ? ox : oy);
}

/// Whether the memory cap was reached (a request given up, even if a pcall caught it).
int cardlua__memory_given_up(const cardlua_host *h) { return h->memory_exhausted || h->refusal_pending; }

void cardlua__describe_limit(cardlua_host *h, const char *what) {
    snprintf(h->limit_text, sizeof h->limit_text, "%s", what);
    h->limit_kind = CARDLUA_LIMIT_OTHER;
}

void cardlua__describe_memory_limit(cardlua_host *h) {
    h->limit_kind = CARDLUA_LIMIT_MEMORY;
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
        snprintf(h->limit_text, sizeof h->limit_text, "exceeded the budget of %lld steps (%s)",
                 h->budget, h->charge_reason ? h->charge_reason : "possible infinite loop");
        h->limit_kind = CARDLUA_LIMIT_INSTRUCTIONS;
    } else if (cardlua__memory_given_up(h)) {
        cardlua__describe_memory_limit(h);
    } else if (timed_out) {
        char place[96];
        cardlua__frame_place(h, place, sizeof place);
        h->limit_kind = h->run_timed_out ? CARDLUA_LIMIT_RUN_TIME : CARDLUA_LIMIT_TIME;
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
        cardlua__describe_limit(h, "stopped by a limit");
    }
}

/// Raises the limit error. From now on every hook raises at every instruction (the
/// running thread's and the main thread's; coroutines made later inherit it), so a
/// script that catches the error with pcall cannot carry on.
static void raise_limit(lua_State *L, cardlua_host *h) {
    lua_sethook(L, cardlua__count_hook, HOOK_MASK(h), 1);
    if (L != h->L) lua_sethook(h->L, cardlua__count_hook, HOOK_MASK(h), 1);
    luaL_error(L, "%s", h->limit_text);
}

/// Notes the script's line being executed (for a memory error: errors.c).
static void note_hook_line(lua_State *L, cardlua_host *h, lua_Debug *ar) {
    if (lua_getinfo(L, "Sl", ar) && ar->source[0] == '@' && ar->currentline > 0 &&
        strcmp(ar->source + 1, h->chunkname) == 0)
        h->hook_line = ar->currentline;
}

/// During a return-line probe: a return of the callback itself (a Lua function of the
/// script called straight from C) notes its line.
static void note_return(lua_State *L, cardlua_host *h, lua_Debug *ar) {
    lua_Debug caller;
    if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0 && ar->source[0] == '@' &&
        strcmp(ar->source + 1, h->chunkname) == 0 && lua_getstack(L, 1, &caller) &&
        lua_getinfo(L, "S", &caller) && caller.what[0] == 'C')
        h->call->return_line = ar->currentline;
}

/// Counts instructions (the thread's hook period each time it fires; not on
/// checkpoints, which count instead) and checks the memory cap and the clock. At a limit
/// it raises, and keeps raising at every instruction.
void cardlua__count_hook(lua_State *L, lua_Debug *ar) {
    cardlua_host *h = host_of(L);
    if (ar->event == LUA_HOOKRET) {
        if (h->call && h->call->return_probe) note_return(L, h, ar);
        return;
    }
    if (!h->budget_exhausted) {
        // Only with half the cap in use: an honest effect never gets there, so the hot
        // path pays nothing for it.
        if (h->memory_used > h->memory_limit / 2) note_hook_line(L, h, ar);
        // On checkpoints they count the steps; the hook only watches (memory, clock).
        if (!h->checkpoints) {
            h->budget_left -= lua_gethookcount(L);
            h->charged_instructions += lua_gethookcount(L);
        }
        int timed_out = 0;
        if (h->budget_left > 0 && !cardlua__memory_given_up(h) && !(timed_out = out_of_time(h))) {
            int period = hook_period(h);
            if (period != lua_gethookcount(L)) lua_sethook(L, cardlua__count_hook, HOOK_MASK(h), period);
            return;
        }
        note_limit(h, timed_out);
    }
    raise_limit(L, h);
}

void cardlua__watch_coroutine(lua_State *co) {
    cardlua_host *h = host_of(co);
    // A coroutine starts with its creator's hook (lua_newthread copies it): under the hook
    // already (no checkpoints, past half the memory cap, at a limit), nothing to add.
    if (lua_gethook(co) != NULL) return;
    lua_sethook(co, cardlua__count_hook, LUA_MASKCOUNT, hook_period(h));
}

void cardlua__count_on_checkpoints(cardlua_host *h) {
    h->checkpoints = 1;
    // Not past half the memory cap, nor at a limit or a refusal (period 1): there the hook
    // stays, as it does when it is put back.
    if (!h->budget_exhausted && lua_gethookcount(h->L) > 1 && h->memory_used <= h->memory_limit / 2)
        lua_sethook(h->L, NULL, 0, 0);
}

/// __cardlua_budget, an instrumented chunk's budget function (checkpoints.c), one closure
/// per chunk whose upvalue is the chunk counter's last grant: called by a checkpoint whose
/// counter went below zero, with the counter. Charges the steps taken since that grant,
/// checks the memory cap and the clock as the count hook does, and returns the next grant
/// (the hook's period). At a limit it raises, at the checkpoint's line (level 1: the Lua
/// function that called it). Its first call during the set-up shows that the prelude has
/// checkpoints: the state counts on them from there on, so the rest of the set-up runs
/// without the hook's trap mode (the straight-line code before it could not loop).
static int checkpoint(lua_State *L) {
    cardlua_host *h = host_of(L);
    lua_Integer granted = lua_tointeger(L, lua_upvalueindex(1));
    lua_Integer steps = lua_tointeger(L, 1);
    if (h->setting_up && !h->checkpoints) cardlua__count_on_checkpoints(h);
    if (!h->budget_exhausted) {
        // At least a step: only a checkpoint calls this, with a counter below zero.
        long long charge = granted > steps ? (long long)(granted - steps) : 1;
        h->budget_left -= charge;
        h->charged_steps += charge;
        int timed_out = 0;
        if (h->budget_left > 0 && !cardlua__memory_given_up(h) && !(timed_out = out_of_time(h))) {
            // Past half the cap the count hook watches too, as it always did there (the
            // line a memory error names; the allocator may not read the stack).
            if (h->memory_used > h->memory_limit / 2 && lua_gethook(L) == NULL)
                lua_sethook(L, cardlua__count_hook, HOOK_MASK(h), hook_period(h));
            // Measuring, a grant of 0: each checkpoint calls here and is charged exactly
            // its own steps, none left unspent in the counter when the call ends.
            lua_pushinteger(L, h->measuring ? 0 : hook_period(h));
            lua_copy(L, -1, lua_upvalueindex(1));
            return 1;
        }
        note_limit(h, timed_out);
    }
    raise_limit(L, h);
    return 0;
}

void cardlua__push_checkpoint(lua_State *L) {
    lua_pushinteger(L, 0);  // the counter starts at 0, granted nothing
    lua_pushcclosure(L, checkpoint, 1);
}

void cardlua__charge_for(lua_State *L, long long units, const char *reason) {
    cardlua_host *h = host_of(L);
    if (!h->budget_exhausted) {
        if (units > 0) h->budget_left -= units, h->charged_host_work += units;
        int timed_out = 0;
        if (h->budget_left > 0 && !cardlua__memory_given_up(h) && !(units >= 4096 && (timed_out = out_of_time(h))))
            return;
        h->charge_reason = reason;
        note_limit(h, timed_out);
    }
    raise_limit(L, h);
}

int cardlua__limit_reached(lua_State *L) { return host_of(L)->budget_exhausted; }

void cardlua__reset_budget(cardlua_host *h) {
    h->hook_line = 0;
    h->budget_left = h->budget;
    h->deadline_ns = 0;
    cardlua__watch_restart(h);
}

void cardlua__restore_hook(cardlua_host *h) {
    if (h->checkpoints && h->memory_used <= h->memory_limit / 2) lua_sethook(h->L, NULL, 0, 0);
    else lua_sethook(h->L, cardlua__count_hook, LUA_MASKCOUNT, hook_period(h));
}

// MARK: - Messages

