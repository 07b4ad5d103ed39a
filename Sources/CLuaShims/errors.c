// Error reporting: the message handler (a script error becomes a host message plus a
// structured cardlua_error), and cardlua__run_protected, through which every entry point does
// its Lua work. See README.md in this folder.
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

/// A copy of s[0..n), or NULL when out of memory.
static char *copy_text(const char *s, size_t n) {
    char *copy = (char *)malloc(n + 1);
    if (copy == NULL) return NULL;
    memcpy(copy, s, n);
    copy[n] = '\0';
    return copy;
}

/// Stores the last error's text: its first line is the message, the rest the details.
static void set_message(cardlua_host *h, const char *text) {
    const char *newline = strchr(text, '\n');
    size_t n = newline ? (size_t)(newline - text) : strlen(text);
    char *message = copy_text(text, n);
    char *details = copy_text(newline ? newline + 1 : "", newline ? strlen(newline + 1) : 0);
    if (message == NULL || details == NULL) {
        free(message);
        free(details);
        return;
    }
    free(h->message);
    free(h->details);
    h->message = message;
    h->details = details;
}

/// The context of the error being reported: the call under way and the line.
static void set_context(cardlua_host *h, int line) {
    const cardlua_call *c = h->call;
    h->err_line = line;
    snprintf(h->err_callback, sizeof h->err_callback, "%s", c && c->callback ? c->callback : "");
    h->err_has_item = c && c->callback && c->has_item;
    h->err_item = c ? c->item_number : 0;
}

/// Notes which attributes key a refused value was read from: "attributes.center" and
/// "attributes.center.x" give "center".
void cardlua__note_field(cardlua_host *h, const char *path) {
    const char *key = strncmp(path, "attributes.", 11) == 0 ? path + 11 : path;
    size_t n = 0;
    while (key[n] && key[n] != '.' && n + 1 < sizeof h->err_field) n++;
    memcpy(h->err_field, key, n);
    h->err_field[n] = '\0';
}

cardlua_error cardlua_last_error(cardlua_host *h) {
    cardlua_error e;
    e.line = h->err_line;
    e.callback = h->err_callback;
    e.has_item = h->err_has_item;
    e.item = h->err_item;
    e.field = h->err_field;
    e.limit = h->poisoned || h->budget_exhausted ? h->limit_kind : CARDLUA_LIMIT_NONE;
    e.text = h->message ? h->message : "";
    e.details = h->details ? h->details : "";
    return e;
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
int cardlua__script_line(lua_State *L, cardlua_host *h) {
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
void cardlua__add_clean(luaL_Buffer *b, const char *s, size_t n, size_t cap) {
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
    const char *callback = h->call ? h->call->callback : NULL;
    if (callback == NULL || strcmp(callback, "prepare") != 0 || h->ref_layout_lines == LUA_NOREF) return 0;
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
int cardlua__message_handler(lua_State *L) {
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
        line = cardlua__script_line(L, h);
        if (line == 0) line = layout_line(L, h, rest);
        if (line == 0 && h->call) line = h->call->callback_line;  // 0: no line of the script applies
    }
    if (h->budget_exhausted)
        rest = h->limit_text;
    else if (strcmp(rest, "stack overflow") == 0)
        rest = "stack overflow (calls nested too deeply: runaway recursion?)";
    else if (strcmp(rest, "C stack overflow") == 0 && h->call && h->call->parsing)
        // Lua's parser ran out of C levels (LUAI_MAXCCALLS): the text nests, nothing runs.
        rest = "C stack overflow: the script nests too deeply for Lua's parser (more than 200 "
               "levels of blocks, calls or subexpressions)";
    else if (strcmp(rest, "C stack overflow") == 0)
        rest = "C stack overflow (calls nested too deeply through pcall, metamethods or "
               "string.gsub: runaway recursion?)";

    // Where and in which call: parts of the error, formatted by the host (Swift), once.
    set_context(h, line);
    // The text, then the traceback (made before the buffer takes the stack top).
    luaL_traceback(L, L, NULL, 1);
    const char *tb = lua_tostring(L, -1);

    luaL_Buffer b;
    luaL_buffinit(L, &b);
    cardlua__add_clean(&b, rest, strlen(rest), MESSAGE_CAP);
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
            cardlua__add_clean(&b, q, (size_t)(p + len - q), MESSAGE_CAP);
        }
        p = end ? end + 1 : NULL;
    }
    // During a frame, which one, after the traceback: a scenario's error names its
    // moment, not just the item (the first line keeps its shape).
    char place[96];
    cardlua__frame_place(h, place, sizeof place);
    if (place[0] && h->call->has_item) {
        luaL_addstring(&b, "\nin ");
        luaL_addstring(&b, place);
    }
    luaL_pushresult(&b);
    return 1;
}

/// A message for an error that reached cardlua__run_protected without the message handler (a
/// memory error, or an error while handling an error): `file:line: callback: item N: what`,
/// the line being the callback's.
static void describe_unhandled(cardlua_host *h, const char *what) {
    set_context(h, h->call->callback_line);
    set_message(h, what);
}

static void describe_memory_error(cardlua_host *h) {
    if (h->memory_refused) {
        h->budget_exhausted = 1;
        cardlua__describe_memory_limit(h);
        describe_unhandled(h, h->limit_text);
        // The allocating line: near the cap the hook checks every instruction.
        if (h->hook_line > 0) h->err_line = h->hook_line;
    } else {
        describe_unhandled(h, "not enough memory (the system refused an allocation)");
    }
}


/// Closes a Lua state. A script cannot have set a finalizer (setmetatable refuses __gc,
/// see sandbox.c), so only the libraries' C finalizers run; the hook is set to raise at
/// once anyway, and warnings are silenced.
void cardlua__close_state(cardlua_host *h, lua_State *L) {
    h->budget_exhausted = 1;
    if (h->limit_text[0] == '\0') cardlua__describe_limit(h, "the state is closing");
    lua_sethook(L, cardlua__count_hook, LUA_MASKCOUNT, 1);
    lua_setwarnf(L, cardlua__silent_warnings, NULL);
    lua_close(L);
    cardlua__release_small_blocks(h);
}

int cardlua__refuse_reentry(cardlua_host *h) {
    // The parts of this error only: the call under way sets its own when it fails (its
    // message handler fills them all), and reads none of them before.
    h->err_line = 0;
    h->err_callback[0] = '\0';
    h->err_has_item = 0;
    h->err_item = 0;
    h->err_field[0] = '\0';
    set_message(h, "re-entered the effect during a call: a callback of the host (a log sink, a "
                   "base layout) called back into the same effect, which is refused (the call under "
                   "way goes on)");
    return CARDLUA_ERROR;
}

int cardlua_in_call(cardlua_host *h) {
    if (!h->in_call) return 0;
    cardlua__refuse_reentry(h);
    return 1;
}

/// The function cardlua__run_protected calls under lua_pcall: its one argument is the
/// call's record (a light userdata), which it hands to the record's body on an empty stack.
int cardlua__call_body(lua_State *L) {
    cardlua_call *c = (cardlua_call *)lua_touserdata(L, 1);
    lua_settop(L, 0);
    return c->body(L, c);
}

/// Runs body(L, c) under lua_pcall with the message handler. The single place that turns
/// a Lua error into a status and a message. `c`, the call's record, is on the caller's C
/// stack; host->call points to it while the pcall runs.
int cardlua__run_protected(cardlua_host *h, cardlua_call *c, cardlua_body body) {
    lua_State *L = h->L;
    if (h->in_call) return cardlua__refuse_reentry(h);  // the entry points check first; this is the backstop
    if (h->poisoned) {
        if (h->message == NULL) set_message(h, "the script was stopped by a limit");
        return CARDLUA_LIMIT;
    }
    c->body = body;
    lua_settop(L, 0);
    lua_pushcfunction(L, cardlua__message_handler);
    lua_pushcfunction(L, cardlua__call_body);
    lua_pushlightuserdata(L, c);
    h->memory_refused = 0;
    h->err_field[0] = '\0';
    cardlua__reset_budget(h);
    // The attribute tables of earlier calls: their geometry now comes from the layout.
    if (++h->base_generation == 0) {
        if (h->bases) memset(h->bases, 0, (size_t)h->base_capacity * sizeof *h->bases);
        h->base_generation = 1;
    }
    h->base_count = 0;
    h->in_call = 1;
    h->call = c;
    cardlua__watch_start(h);
    int status = lua_pcall(L, 1, 0, 1);
    cardlua__watch_end(h);  // before anything below may close the state
    h->in_call = 0;
    if (c->restore_incremental) {
        // sizes.c's generational mode ends with its call, however the call ended (an
        // error unwinds past the body's own restore). lua_gc switching to incremental
        // mode only relinks the collector's lists: it allocates nothing and cannot raise.
        c->restore_incremental = 0;
        lua_gc(L, LUA_GCINC, 0, 0, 0);
    }
    if (status == LUA_OK && !cardlua__memory_given_up(h)) {
        h->call = NULL;
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
    h->call = NULL;
    lua_settop(L, 0);
    if (limit) {
        // The state is not trusted again: discarded now (its memory freed), so that the
        // next run (watch) starts from a fresh one.
        h->poisoned = 1;
        h->L = NULL;
        cardlua__close_state(h, L);
        return CARDLUA_LIMIT;
    }
    return CARDLUA_ERROR;
}

// MARK: - Small protected helpers (called only inside cardlua__run_protected)

int cardlua__raise_arg_error(lua_State *L, int nargs, int arg_error, const char *name, const char *params,
                    const char *kinds) {
    lua_settop(L, nargs);
    lua_pushvalue(L, arg_error);
    lua_pushstring(L, name);
    lua_pushstring(L, params);
    lua_pushstring(L, kinds);
    lua_rotate(L, 1, 4);
    lua_call(L, nargs + 3, 0);
    return luaL_error(L, "%s: bad arguments", name);  // argError always raises
}
