// The watchdog: the time limits enforced from another thread, so that they do not
// depend on the checkpoints. See README.md in this folder ("The watchdog").
//
// A call's clock is read by the checkpoints' budget function and by the count hook. A
// loop the checkpoints missed (a text the scanner read differently from Lua) runs with
// the hook off and meets neither, so the clock alone could never stop it. So while a
// call runs with a time limit, a thread of the host's watches it: when the call's clock
// period (its start, or the last restart: cardlua__reset_budget, a sizing call's next
// block of items) has lasted the per-call limit, or the run's deadline has passed, it
// notes that the time is up and sets the count hook to fire at the next instruction
// (lua_sethook only stores fields; Lua allows it from another thread or a signal
// handler, as lua.c stops a script at Ctrl-C). The hook then finds the time up and
// raises the usual time-limit error at the line running. The budget stays the
// checkpoints' alone: the watchdog never counts.
//
// Races. Everything the watchdog reads or writes is guarded by its mutex, except the
// clock's epoch (an atomic the calling thread bumps at each restart) and the verdict
// (`expired`, an atomic the hook reads). It arms the hook only under the mutex and only
// while the call it watches is running; the call's end takes the mutex too, so once
// cardlua__watch_end returns the watchdog cannot touch the state before the next call
// starts, and a hook it armed as the call ended is put back as the state wants it.
// cardlua_close stops and joins the thread before the state is closed; a state closed
// after a limit is closed after its call's end.
#include "CLuaShims.h"
#include "internal.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include <lua.h>

struct cardlua_watchdog {
    pthread_mutex_t lock;
    pthread_cond_t wake;      // waits on CLOCK_MONOTONIC (timed waits are deadlines)
    pthread_t thread;
    // Guarded by `lock`.
    int stop;                 // cardlua_close: the thread ends
    int idle;                 // the thread waits for a call (no time-out): a start wakes it
    int running;              // a call is under watch...
    lua_State *L;             // ...of this state (the host's main thread)...
    long long limit_ns;       // ...with these limits, copied at its start (0: none)
    long long run_deadline_ns;
    int armed;                // the hook was armed for the call under watch
    // Written without the lock.
    _Atomic unsigned long epoch;  // a new value at each start of the call's clock
    _Atomic int expired;          // 0; 1: the call's time is up; 2: the run's
};

/// The watchdog's thread: sleeps until the call under watch could reach a limit, checks,
/// and arms the hook when it has; waits without a time-out while no call runs.
static void *watch(void *argument) {
    cardlua_watchdog *w = (cardlua_watchdog *)argument;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);  // signals are the process's main threads' business
    pthread_mutex_lock(&w->lock);
    unsigned long seen = 0;   // the clock's epoch last seen, and since when
    long long seen_at = 0;
    int seeing = 0;
    while (!w->stop) {
        if (!w->running || w->armed) {
            w->idle = 1;
            pthread_cond_wait(&w->wake, &w->lock);
            w->idle = 0;
            seeing = 0;
            continue;
        }
        long long now = cardlua__monotonic_ns();
        unsigned long epoch = atomic_load(&w->epoch);
        if (!seeing || epoch != seen) seen = epoch, seen_at = now, seeing = 1;
        int kind = 0;
        if (w->run_deadline_ns > 0 && now >= w->run_deadline_ns) kind = 2;
        else if (w->limit_ns > 0 && now - seen_at >= w->limit_ns) kind = 1;
        if (kind) {
            atomic_store(&w->expired, kind);
            lua_sethook(w->L, cardlua__count_hook, LUA_MASKCOUNT, 1);
            w->armed = 1;
            continue;
        }
        // The clock's epoch is seen only when the thread wakes: waking a quarter of the
        // limit apart, a period is stopped within 1.25 limits of its start.
        long long until = LLONG_MAX;
        if (w->limit_ns > 0) {
            until = seen_at + w->limit_ns;
            if (now + w->limit_ns / 4 + 1 < until) until = now + w->limit_ns / 4 + 1;
        }
        if (w->run_deadline_ns > 0 && w->run_deadline_ns < until) until = w->run_deadline_ns;
#if defined(__APPLE__)
        long long wait = until - now;
        struct timespec span = {(time_t)(wait / 1000000000LL), (long)(wait % 1000000000LL)};
        pthread_cond_timedwait_relative_np(&w->wake, &w->lock, &span);
#else
        struct timespec at = {(time_t)(until / 1000000000LL), (long)(until % 1000000000LL)};
        pthread_cond_timedwait(&w->wake, &w->lock, &at);
#endif
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

/// The host's watchdog, made and started at its first watched call; NULL if the system
/// refused a thread (the checkpoints and the hook still read the clock).
static cardlua_watchdog *watchdog_of(cardlua_host *h) {
    if (h->watchdog != NULL || h->watchdog_failed) return h->watchdog;
    cardlua_watchdog *w = (cardlua_watchdog *)calloc(1, sizeof *w);
    int made = 0;
    if (w != NULL && pthread_mutex_init(&w->lock, NULL) == 0) {
        pthread_condattr_t cattr;
        int cond = pthread_condattr_init(&cattr) == 0;
#if !defined(__APPLE__)
        cond = cond && pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC) == 0;
#endif
        cond = cond && pthread_cond_init(&w->wake, &cattr) == 0;
        pthread_condattr_destroy(&cattr);
        if (cond) {
            pthread_attr_t attr;
            if (pthread_attr_init(&attr) == 0) {
                // It calls lua_sethook and the clock: a small stack is plenty.
                pthread_attr_setstacksize(&attr, (size_t)256 << 10);
                made = pthread_create(&w->thread, &attr, watch, w) == 0;
                pthread_attr_destroy(&attr);
            }
            if (!made) pthread_cond_destroy(&w->wake);
        }
        if (!made) pthread_mutex_destroy(&w->lock);
    }
    if (!made) {
        free(w);
        h->watchdog_failed = 1;
        return NULL;
    }
    h->watchdog = w;
    return w;
}

void cardlua__watch_start(cardlua_host *h) {
    // Nothing to enforce: no thread (a host without time limits never makes one).
    if (h->time_limit_ns <= 0 && h->run_limit_ns <= 0) return;
    cardlua_watchdog *w = watchdog_of(h);
    if (w == NULL) return;
    long long run_deadline = h->run_limit_ns > 0 ? h->run_deadline_ns : 0;
    pthread_mutex_lock(&w->lock);
    // Woken when it waits for a call, or when its time-out was set by other limits (a
    // shorter one must not wait for the longer one's wake-up).
    int wake = w->idle || w->limit_ns != h->time_limit_ns || w->run_deadline_ns != run_deadline;
    w->running = 1;
    w->L = h->L;
    w->limit_ns = h->time_limit_ns;
    w->run_deadline_ns = run_deadline;
    w->armed = 0;
    atomic_store(&w->expired, 0);
    atomic_store_explicit(&w->epoch, atomic_load_explicit(&w->epoch, memory_order_relaxed) + 1, memory_order_relaxed);
    if (wake) pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
}

void cardlua__watch_restart(cardlua_host *h) {
    cardlua_watchdog *w = h->watchdog;
    // Only the calling thread writes the epoch: a plain increment, no read-modify-write.
    if (w != NULL)
        atomic_store_explicit(&w->epoch, atomic_load_explicit(&w->epoch, memory_order_relaxed) + 1,
                              memory_order_relaxed);
}

void cardlua__watch_end(cardlua_host *h) {
    cardlua_watchdog *w = h->watchdog;
    if (w == NULL) return;
    pthread_mutex_lock(&w->lock);
    if (w->running) {
        w->running = 0;
        // Armed as the call ended (or the call ended at the limit, and the state is
        // closed next): the hook as the state wants it between calls.
        if (w->armed && h->L != NULL && !h->budget_exhausted) cardlua__restore_hook(h);
        w->armed = 0;
        atomic_store(&w->expired, 0);
        w->L = NULL;
    }
    pthread_mutex_unlock(&w->lock);
}

int cardlua__watch_expired(const cardlua_host *h) {
    return h->watchdog != NULL ? atomic_load(&h->watchdog->expired) : 0;
}

void cardlua__watch_close(cardlua_host *h) {
    cardlua_watchdog *w = h->watchdog;
    if (w == NULL) return;
    pthread_mutex_lock(&w->lock);
    w->stop = 1;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    free(w);
    h->watchdog = NULL;
}
