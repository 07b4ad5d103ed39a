// Records from the prelude: the internals that answer with a list of tables (the keys
// check mode noted, the script's tweakables, lists of names) are read here, field by
// field under lua_pcall, into C records in one block the caller frees. Swift reads named
// fields; no value travels as text to be split. See README.md in this folder.
#include "CLuaShims.h"
#include "internal.h"

#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

/// The bytes of one result block. The fill functions run twice over the same Lua list:
/// first with no base, only adding up the size, then into the block of that size, so
/// every record and string lands in one allocation.
struct arena {
    char *base;   // NULL: measuring
    size_t used;
};

/// The record of the calls that read a list of records (cardlua_attribute_notes,
/// cardlua_internal_strings, cardlua_read_params): the internal, how its list is read,
/// and the result.
typedef struct {
    cardlua_call call;
    const char *name;                      // the internal to call
    int (*fill)(lua_State *L, int list, struct arena *a, void *header);
    size_t header_size;
    char *block;                           // the result, malloc'ed by the body
} records_call;

/// cardlua_set_params' record: the settings.
typedef struct {
    cardlua_call call;
    const cardlua_param_setting *settings;
    long count;
} params_call;

CARDLUA_BODY(body_records, records_call)
CARDLUA_BODY(body_set_params, params_call)

/// `size` bytes at `align`, from the arena (NULL while measuring).
static void *take(struct arena *a, size_t size, size_t align) {
    a->used = (a->used + align - 1) / align * align;
    void *p = a->base ? a->base + a->used : NULL;
    a->used += size;
    return p;
}

/// The string at `index` (a Lua string: no conversion, so nothing allocates), copied into
/// the arena with its NUL.
static const char *copy_string(lua_State *L, struct arena *a, int index) {
    size_t length = 0;
    const char *s = lua_tolstring(L, index, &length);
    char *out = take(a, length + 1, 1);
    if (out) memcpy(out, s, length + 1);
    return out;
}

/// The field `key` of the table at `table`, pushed (a raw read: the prelude's own tables),
/// checked to be of type `type` unless nil is allowed; returns its type.
static int field(lua_State *L, int table, const char *key, int type, int optional) {
    lua_pushstring(L, key);
    int t = lua_rawget(L, table);
    if (t != type && !(optional && t == LUA_TNIL))
        luaL_error(L, "cardlua prelude: record field %s is a %s", key, lua_typename(L, t));
    return t;
}

/// The length of the list at `list`, each entry checked to be a table.
static long list_length(lua_State *L, int list) {
    luaL_checktype(L, list, LUA_TTABLE);
    return (long)lua_rawlen(L, list);
}

// MARK: - The fill functions: one per kind of record

/// cardlua_key_notes from a list of { key = string, item = integer }.
static int fill_key_notes(lua_State *L, int list, struct arena *a, void *header) {
    long n = list_length(L, list);
    cardlua_key_note *notes = take(a, (size_t)n * sizeof *notes, alignof(cardlua_key_note));
    for (long i = 0; i < n; i++) {
        lua_rawgeti(L, list, (lua_Integer)i + 1);
        int entry = lua_gettop(L);
        luaL_checktype(L, entry, LUA_TTABLE);
        field(L, entry, "key", LUA_TSTRING, 0);
        const char *key = copy_string(L, a, -1);
        field(L, entry, "item", LUA_TNUMBER, 0);
        long item = (long)lua_tointeger(L, -1);
        if (notes) notes[i] = (cardlua_key_note){.key = key, .item = item};
        lua_settop(L, entry - 1);
    }
    if (header) *(cardlua_key_notes *)header = (cardlua_key_notes){.count = n, .notes = notes};
    return 0;
}

/// cardlua_strings from a list of strings.
static int fill_strings(lua_State *L, int list, struct arena *a, void *header) {
    long n = list_length(L, list);
    const char **items = take(a, (size_t)n * sizeof *items, alignof(const char *));
    for (long i = 0; i < n; i++) {
        if (lua_rawgeti(L, list, (lua_Integer)i + 1) != LUA_TSTRING)
            return luaL_error(L, "cardlua prelude: list entry %ld is not a string", i + 1);
        const char *s = copy_string(L, a, -1);
        if (items) items[i] = s;
        lua_pop(L, 1);
    }
    if (header) *(cardlua_strings *)header = (cardlua_strings){.count = n, .items = items};
    return 0;
}

/// cardlua_params from a list of { name, kind = "number" | "boolean" | "options", value,
/// min, max, step, label, options = { … } } (the prelude's checked declarations).
static int fill_params(lua_State *L, int list, struct arena *a, void *header) {
    long n = list_length(L, list);
    cardlua_param *params = take(a, (size_t)n * sizeof *params, alignof(cardlua_param));
    for (long i = 0; i < n; i++) {
        lua_rawgeti(L, list, (lua_Integer)i + 1);
        int entry = lua_gettop(L);
        luaL_checktype(L, entry, LUA_TTABLE);
        cardlua_param p = {0};
        field(L, entry, "name", LUA_TSTRING, 0);
        p.name = copy_string(L, a, -1);
        field(L, entry, "kind", LUA_TSTRING, 0);
        const char *kind = lua_tostring(L, -1);
        if (field(L, entry, "label", LUA_TSTRING, 1) == LUA_TSTRING) p.label = copy_string(L, a, -1);
        if (strcmp(kind, "number") == 0) {
            p.kind = CARDLUA_PARAM_NUMBER;
            field(L, entry, "value", LUA_TNUMBER, 0);
            p.value = lua_tonumber(L, -1);
            field(L, entry, "min", LUA_TNUMBER, 0);
            p.minimum = lua_tonumber(L, -1);
            field(L, entry, "max", LUA_TNUMBER, 0);
            p.maximum = lua_tonumber(L, -1);
            if (field(L, entry, "step", LUA_TNUMBER, 1) == LUA_TNUMBER) {
                p.has_step = 1;
                p.step = lua_tonumber(L, -1);
            }
        } else if (strcmp(kind, "boolean") == 0) {
            p.kind = CARDLUA_PARAM_BOOLEAN;
            field(L, entry, "value", LUA_TBOOLEAN, 0);
            p.value = lua_toboolean(L, -1) ? 1 : 0;
        } else if (strcmp(kind, "options") == 0) {
            p.kind = CARDLUA_PARAM_OPTIONS;
            field(L, entry, "value", LUA_TSTRING, 0);
            p.option = copy_string(L, a, -1);
            field(L, entry, "options", LUA_TTABLE, 0);
            int options = lua_gettop(L);
            p.option_count = (long)lua_rawlen(L, options);
            const char **list_out = take(a, (size_t)p.option_count * sizeof *list_out, alignof(const char *));
            for (long k = 0; k < p.option_count; k++) {
                if (lua_rawgeti(L, options, (lua_Integer)k + 1) != LUA_TSTRING)
                    return luaL_error(L, "cardlua prelude: option %ld is not a string", k + 1);
                const char *s = copy_string(L, a, -1);
                if (list_out) list_out[k] = s;
                lua_pop(L, 1);
            }
            p.options = list_out;
        } else {
            return luaL_error(L, "cardlua prelude: unknown tweakable kind %s", kind);
        }
        if (params) params[i] = p;
        lua_settop(L, entry - 1);
    }
    if (header) *(cardlua_params *)header = (cardlua_params){.count = n, .params = params};
    return 0;
}

// MARK: - The calls

/// Calls the internal, then reads its list twice: to measure, then into the block.
static int body_records(lua_State *L, records_call *r) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua__push_internal(L, host_of(L), r->name);
    lua_call(L, 0, 1);
    int list = lua_gettop(L);
    struct arena measure = {NULL, 0};
    take(&measure, r->header_size, alignof(max_align_t));
    r->fill(L, list, &measure, NULL);
    // Lua's own limits bound the size (the list lives in the capped state); malloc
    // cannot raise, so the block is kept in the record at once: the entry point frees it
    // if a later step raises.
    r->block = malloc(measure.used ? measure.used : 1);
    if (r->block == NULL) return luaL_error(L, "not enough memory");
    struct arena fill = {r->block, 0};
    void *header = take(&fill, r->header_size, alignof(max_align_t));
    r->fill(L, list, &fill, header);
    return 0;
}

/// Runs one list internal; the block, or NULL with the status.
static void *call_records(cardlua_host *h, const char *name, size_t header_size,
                          int (*fill)(lua_State *, int, struct arena *, void *), int *status) {
    if (status) *status = CARDLUA_ERROR;
    REFUSE_REENTRY(h, NULL);
    records_call r = {.call = {.callback_line = 1}, .name = name, .fill = fill, .header_size = header_size};
    int s = run_body_records(h, &r);
    if (status) *status = s;
    if (s != CARDLUA_OK) {
        free(r.block);
        return NULL;
    }
    return r.block;
}

cardlua_key_notes *cardlua_attribute_notes(cardlua_host *h, int *status) {
    return call_records(h, "attributeNotes", sizeof(cardlua_key_notes), fill_key_notes, status);
}

cardlua_strings *cardlua_internal_strings(cardlua_host *h, const char *name, int *status) {
    return call_records(h, name, sizeof(cardlua_strings), fill_strings, status);
}

cardlua_params *cardlua_read_params(cardlua_host *h, int *status) {
    return call_records(h, "params", sizeof(cardlua_params), fill_params, status);
}

/// I.setParams({ { name = …, value = … }, … }): the settings as Lua values.
static int body_set_params(lua_State *L, params_call *p) {
    luaL_checkstack(L, BODY_STACK, "cardlua");
    cardlua__push_internal(L, host_of(L), "setParams");
    lua_createtable(L, (int)p->count, 0);
    for (long i = 0; i < p->count; i++) {
        const cardlua_param_setting *s = &p->settings[i];
        lua_createtable(L, 0, 2);
        lua_pushstring(L, s->name);
        lua_setfield(L, -2, "name");
        switch (s->kind) {
        case CARDLUA_PARAM_BOOLEAN: lua_pushboolean(L, s->number != 0); break;
        case CARDLUA_PARAM_OPTIONS: lua_pushstring(L, s->option ? s->option : ""); break;
        default:
            // A whole number is an integer, as the script would write it (and as Lua reads
            // the text `--param rotate=50`): 50, not 50.0, for tostring and //.
            if (s->number == floor(s->number) && fabs(s->number) < 1e15) lua_pushinteger(L, (lua_Integer)s->number);
            else lua_pushnumber(L, s->number);
            break;
        }
        lua_setfield(L, -2, "value");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_call(L, 1, 0);
    return 0;
}

int cardlua_set_params(cardlua_host *h, const cardlua_param_setting *settings, long count) {
    REFUSE_REENTRY(h, CARDLUA_ERROR);
    params_call p = {.call = {.callback_line = 1}, .settings = settings, .count = count};
    return run_body_set_params(h, &p);
}

void cardlua_free_records(void *block) { free(block); }
