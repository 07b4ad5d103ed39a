// CATransform3D and CGAffineTransform math in C (docs/benchmark-history.md: interpreted
// in Lua it was most of an effect's cost). Their Lua reference (Sources/CardLua/Lua/reference/) computes
// the same values with the same operations in the same order (so the same bits): these
// keep Lua's number subtypes (an integer times an integer is an integer, as in Lua) and
// report bad arguments through the prelude's own argError (so the same messages at the
// same line). The prelude defines the globals from FUNCTIONS below (transforms.lua); the
// stock interpreter of `cardlua bench --stock` is given the reference's instead.
//
// The values: where the Lua versions build a table of 16 (or 6) fields, these build a
// full userdata holding the fields and their subtypes (tvalue below; docs/benchmark-history.md: a
// table of 16 string keys cost ~40 % of an item). Its metatable, made here once (in the
// registry as "CATransform3D" / "CGAffineTransform"), gives the fields, the methods, `=`
// of a number to a known field, ==, tostring and pairs; getmetatable gives only the name.
// Only numbers are stored: a non-number a Lua version would copy into its result as it
// is (`CATransform3DScale` copies m41…m44) is an error here, naming the field. Every
// function still takes a script's own table ({ m11 = … }) where it takes a transform.
//
// Everything here runs inside the script's protected call: raising is how errors are
// reported. A table's fields are read raw first, then with metamethods only when absent
// (what `t.m11` does in Lua). Each call charges a flat fee to the budget (allocation is
// charged by the allocator); a metatable given a __gc field is refused as setmetatable
// refuses it (CGPoint's: the only table built here).
#include "internal.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

// Each product and sum rounded on its own, as Lua's VM does: no fused multiply-add.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

/// Budget units per call: a unit per field built or product summed (the allocation of the
/// result is charged by the allocator on top).
#define FEE_3D 16
#define FEE_CONCAT_3D 64
#define FEE_INVERT_3D 128
#define FEE_AFFINE 6

// The closures' upvalues (the same layout for all of them).
enum {
    UV_T3 = 1,        /* CATransform3D's metatable (of the userdata) */
    UV_AFFINE,        /* CGAffineTransform's metatable (of the userdata) */
    UV_POINT,         /* CGPoint's metatable */
    UV_ARGERROR,      /* the prelude's argError(fn, params, kinds, ...) */
    UV_K3,            /* "m11" … "m44": 16 upvalues */
    UV_KA = UV_K3 + 16, /* "a", "b", "c", "d", "tx", "ty" */
    UV_KX = UV_KA + 6,  /* "x" */
    UV_KY,            /* "y" */
    UV_NAME,          /* the function's name for messages ("CATransform3DRotate", "t:rotate") */
    UV_PARAMS,        /* its parameters ("t, angle, x, y, z") */
    UV_KINDS,         /* argError's kinds ("Tnnnn") */
    UV_COUNT = UV_KINDS
};
#define UP(i) lua_upvalueindex(i)

static const char *const KEYS3[16] = {"m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24",
                                      "m31", "m32", "m33", "m34", "m41", "m42", "m43", "m44"};
static const char *const KEYSA[6] = {"a", "b", "c", "d", "tx", "ty"};

// MARK: - Lua numbers: integer or float, with Lua's arithmetic

/// A Lua number with its subtype: arithmetic follows Lua's rules (integers wrap; a float
/// operand makes a float; `/` is always a float division).
typedef struct {
    int isint;
    lua_Integer i;
    lua_Number d;
} lnum;

static inline lnum I_(lua_Integer i) { lnum n = {1, i, 0}; return n; }
static inline lnum F_(lua_Number d) { lnum n = {0, 0, d}; return n; }
static inline lua_Number tof(lnum a) { return a.isint ? (lua_Number)a.i : a.d; }
static inline lnum nmul(lnum a, lnum b) {
    return a.isint && b.isint ? I_((lua_Integer)((lua_Unsigned)a.i * (lua_Unsigned)b.i)) : F_(tof(a) * tof(b));
}
static inline lnum nadd(lnum a, lnum b) {
    return a.isint && b.isint ? I_((lua_Integer)((lua_Unsigned)a.i + (lua_Unsigned)b.i)) : F_(tof(a) + tof(b));
}
static inline lnum nsub(lnum a, lnum b) {
    return a.isint && b.isint ? I_((lua_Integer)((lua_Unsigned)a.i - (lua_Unsigned)b.i)) : F_(tof(a) - tof(b));
}
static inline lnum ndiv(lnum a, lnum b) { return F_(tof(a) / tof(b)); }
static inline lnum nunm(lnum a) { return a.isint ? I_((lua_Integer)(0u - (lua_Unsigned)a.i)) : F_(-a.d); }
/// math.abs: an integer stays one (math.mininteger stays itself, as in Lua).
static inline lnum nabs(lnum a) {
    return a.isint ? I_(a.i < 0 ? (lua_Integer)(0u - (lua_Unsigned)a.i) : a.i) : F_(fabs(a.d));
}
static inline int nzero(lnum a) { return a.isint ? a.i == 0 : a.d == 0; }

/// Whether integer i fits a float exactly (|i| ≤ 2^53), as Lua's l_intfitsf.
static inline int int_fits_float(lua_Integer i) {
    return (lua_Unsigned)i + ((lua_Unsigned)1 << 53) <= ((lua_Unsigned)2 << 53);
}
/// i < f exactly (Lua's LTintfloat).
static int lt_int_float(lua_Integer i, lua_Number f) {
    if (int_fits_float(i)) return (lua_Number)i < f;
    if (!(f > -9223372036854775808.0)) return 0;        /* f ≤ minint or NaN */
    if (f >= 9223372036854775808.0) return 1;
    lua_Number c = ceil(f);
    return i < (lua_Integer)c;
}
/// f < i exactly (Lua's LTfloatint).
static int lt_float_int(lua_Number f, lua_Integer i) {
    if (int_fits_float(i)) return f < (lua_Number)i;
    if (!(f < 9223372036854775808.0)) return 0;          /* f ≥ 2^63 or NaN */
    if (f < -9223372036854775808.0) return 1;
    lua_Number fl = floor(f);
    return (lua_Integer)fl < i;
}
/// a < b with Lua's rules for mixed subtypes.
static int nlt(lnum a, lnum b) {
    if (a.isint && b.isint) return a.i < b.i;
    if (!a.isint && !b.isint) return a.d < b.d;
    return a.isint ? lt_int_float(a.i, b.d) : lt_float_int(a.d, b.i);
}

static inline void push_num(lua_State *L, lnum n) {
    if (n.isint) lua_pushinteger(L, n.i); else lua_pushnumber(L, n.d);
}

/// a == b as Lua's == on numbers (an integer equals a float only when the float is
/// exactly that integer).
static int neq(lnum a, lnum b) {
    if (a.isint == b.isint) return a.isint ? a.i == b.i : a.d == b.d;
    lua_Integer i = a.isint ? a.i : b.i;
    lua_Number d = a.isint ? b.d : a.d;
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || floor(d) != d) return 0;
    return (lua_Integer)d == i;
}

// MARK: - The values (full userdata)

/// A transform's fields with their subtypes: field k is the integer v[k].i when bit k of
/// `ints` is set, else the float v[k].d: 16 fields for a CATransform3D, 6 for a
/// CGAffineTransform (allocated to fit).
typedef union {
    lua_Integer i;
    lua_Number d;
} tfield;
typedef struct {
    unsigned tag;   /* TVALUE_TAG(n), in what was the header's padding: see to_value */
    unsigned ints;
    tfield v[];
} tvalue;
#define TVALUE_SIZE(n) (offsetof(tvalue, v) + (size_t)(n) * sizeof(tfield))
#define TVALUE_TAG(n) (0xCA7F0000u | (unsigned)(n))

static inline lnum ud_get(const tvalue *u, int k) {
    return (u->ints >> k) & 1u ? I_(u->v[k].i) : F_(u->v[k].d);
}
static inline void ud_set(tvalue *u, int k, lnum n) {
    if (n.isint) { u->v[k].i = n.i; u->ints |= 1u << k; }
    else { u->v[k].d = n.d; u->ints &= ~(1u << k); }
}

/// The value at idx when it is one of ours of n fields (16: a CATransform3D, 6: a
/// CGAffineTransform), else NULL. Recognised by its size and tag, without looking its
/// metatable up (three API calls more, on every call of the transform math): a full
/// userdata's metatable is set only by C (Lua's setmetatable takes tables alone, and the
/// sandbox has no debug library), and the only full userdata a script can reach are
/// these values, so a block of this size with this tag is one of them. The size is
/// checked first, so that no other block is ever read past its end; a light userdata
/// (none is reachable) has no length and fails there too.
static tvalue *to_value(lua_State *L, int idx, int n) {
    if (lua_rawlen(L, idx) != TVALUE_SIZE(n)) return NULL;
    tvalue *u = (tvalue *)lua_touserdata(L, idx);
    return u != NULL && u->tag == TVALUE_TAG(n) ? u : NULL;
}

/// Pushes a new value of n fields (all the integer 0) with the metatable in upvalue `mt`.
static tvalue *new_value(lua_State *L, int n, int mt) {
    tvalue *u = (tvalue *)lua_newuserdatauv(L, TVALUE_SIZE(n), 0);
    u->tag = TVALUE_TAG(n);
    u->ints = n == 16 ? 0xFFFFu : 0x3Fu;
    for (int k = 0; k < n; k++) u->v[k].i = 0;
    lua_pushvalue(L, lua_upvalueindex(mt));
    lua_setmetatable(L, -2);
    return u;
}

/// Pushes a new value of the n numbers, their subtypes kept, with the metatable in
/// upvalue `mt` (new_value and a ud_set per field, in one pass).
static void push_numbers(lua_State *L, const lnum *v, int n, int mt) {
    tvalue *u = (tvalue *)lua_newuserdatauv(L, TVALUE_SIZE(n), 0);
    u->tag = TVALUE_TAG(n);
    unsigned ints = 0;
    for (int k = 0; k < n; k++) {
        if (v[k].isint) { u->v[k].i = v[k].i; ints |= 1u << k; }
        else u->v[k].d = v[k].d;
    }
    u->ints = ints;
    lua_pushvalue(L, lua_upvalueindex(mt));
    lua_setmetatable(L, -2);
}

/// For the host's read-back (attributes.c): the fields of one of these values at idx as
/// doubles (m NULL: none, the kind alone); returns 16 (a CATransform3D), 6 (a
/// CGAffineTransform) or 0 (anything else).
/// The value is recognised by its size and tag (to_value).
int cardlua__transform_value(lua_State *L, int idx, double *m) {
    size_t size = lua_rawlen(L, idx);  // to_value's test, for either kind at once
    int n = size == TVALUE_SIZE(16) ? 16 : size == TVALUE_SIZE(6) ? 6 : 0;
    const tvalue *u = n ? (const tvalue *)lua_touserdata(L, idx) : NULL;
    if (u == NULL || u->tag != TVALUE_TAG(n)) return 0;
    if (m == NULL) return n;  // the kind alone
    for (int k = 0; k < n; k++) m[k] = tof(ud_get(u, k));
    return n;
}

// MARK: - Errors

/// Calls the prelude's argError with the function's name, parameters and kinds and its
/// first `nargs` arguments (nil for absent ones, as the Lua function passes its
/// parameters): it raises the message the Lua version raises, at the caller's line
/// (level 3: argError, this function, its caller).
static int arg_error(lua_State *L, int nargs) {
    return cardlua__raise_arg_error(L, nargs, UP(UV_ARGERROR), lua_tostring(L, UP(UV_NAME)), lua_tostring(L, UP(UV_PARAMS)),
                           lua_tostring(L, UP(UV_KINDS)));
}

/// The argument's name in messages: the n-th of the parameters ("t, angle" → "t").
static void param_name(lua_State *L, int n, char *out, size_t size) {
    const char *p = lua_tostring(L, UP(UV_PARAMS));
    out[0] = '\0';
    for (int k = 1; p && *p; k++) {
        size_t len = strcspn(p, ", ");
        if (k == n) {
            if (len >= size) len = size - 1;
            memcpy(out, p, len);
            out[len] = '\0';
            return;
        }
        p += len;
        p += strspn(p, ", ");
    }
}

/// Raises `CATransform3DRotate: t.m31 is nil, not a number` for the value at idx: `arg`
/// is the argument's position among the parameters, `field` the key.
static lnum not_a_number(lua_State *L, int idx, int arg, const char *field) {
    int t = lua_type(L, idx);
    char name[32];
    param_name(L, arg, name, sizeof name);
    luaL_error(L, "%s: %s.%s is %s%s, not a number", lua_tostring(L, UP(UV_NAME)), name, field,
               t == LUA_TNIL ? "" : "a ", t == LUA_TNIL ? "nil" : luaL_typename(L, idx));
    return I_(0);
}

/// The value at idx as a number for arithmetic, as Lua's arithmetic takes it: a number,
/// or a string that converts (Lua's string coercion); anything else is an error naming
/// the field (not_a_number).
static lnum num_at(lua_State *L, int idx, int arg, const char *field) {
    int t = lua_type(L, idx);
    if (t == LUA_TNUMBER) {
        if (lua_isinteger(L, idx)) return I_(lua_tointeger(L, idx));
        return F_(lua_tonumber(L, idx));
    }
    if (t == LUA_TSTRING) {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        if (lua_stringtonumber(L, s) == len + 1) {
            lnum n = lua_isinteger(L, -1) ? I_(lua_tointeger(L, -1)) : F_(lua_tonumber(L, -1));
            lua_pop(L, 1);
            return n;
        }
    }
    return not_a_number(L, idx, arg, field);
}

/// The value at idx as a number, to be stored in a new value as it is (where the Lua
/// versions copy a field unchanged): only a number will do (no string coercion: Lua
/// would copy the string, and a value holds only numbers).
static lnum num_strict(lua_State *L, int idx, int arg, const char *field) {
    if (lua_type(L, idx) == LUA_TNUMBER)
        return lua_isinteger(L, idx) ? I_(lua_tointeger(L, idx)) : F_(lua_tonumber(L, idx));
    return not_a_number(L, idx, arg, field);
}

// MARK: - Fields and values

/// The value at t when it is one of ours of the kind whose keys start at upvalue `key`
/// (UV_K3: a CATransform3D, UV_KA: a CGAffineTransform), else NULL.
static tvalue *value_of_kind(lua_State *L, int t, int key) {
    if (key == UV_K3) return to_value(L, t, 16);
    if (key == UV_KA) return to_value(L, t, 6);
    return NULL;
}

/// Pushes t[key] for the key in upvalue `key` (t at an absolute index): a field of one
/// of our values straight from it; for a table raw, then with metamethods when absent,
/// as `t.key` in Lua. Returns its type.
static int get_field(lua_State *L, int t, int key) {
    if (lua_type(L, t) == LUA_TUSERDATA) {
        tvalue *u = NULL;
        if (key >= UV_K3 && key < UV_K3 + 16) u = to_value(L, t, 16);
        if (u) { push_num(L, ud_get(u, key - UV_K3)); return LUA_TNUMBER; }
        if (key >= UV_KA && key < UV_KA + 6) u = to_value(L, t, 6);
        if (u) { push_num(L, ud_get(u, key - UV_KA)); return LUA_TNUMBER; }
        lua_pushvalue(L, UP(key));
        return lua_gettable(L, t);  // another field of ours: nil (their __index)
    }
    lua_pushvalue(L, UP(key));
    int type = lua_rawget(L, t);
    if (type != LUA_TNIL || !lua_getmetatable(L, t)) return type;
    lua_pop(L, 2);
    lua_pushvalue(L, UP(key));
    return lua_gettable(L, t);
}

/// Whether the value at idx is one of ours of that kind, or a table whose field (upvalue
/// `key`) is not nil: the prelude's `type(t) == "table" and t.m11 ~= nil`.
static int is_kind(lua_State *L, int idx, int key) {
    if (lua_type(L, idx) == LUA_TUSERDATA) return value_of_kind(L, idx, key) != NULL;
    if (lua_type(L, idx) != LUA_TTABLE) return 0;
    int present = get_field(L, idx, key) != LUA_TNIL;
    lua_pop(L, 1);
    return present;
}

/// Pushes fields from…to−1 of the transform at t (m11…m44, in order); returns the index
/// of the first.
static int push_range3(lua_State *L, int t, int from, int to) {
    luaL_checkstack(L, 24, "CATransform3D");
    int first = lua_gettop(L) + 1;
    tvalue *u = to_value(L, t, 16);
    if (u) for (int k = from; k < to; k++) push_num(L, ud_get(u, k));
    else for (int k = from; k < to; k++) get_field(L, t, UV_K3 + k);
    return first;
}

/// Pushes the first n fields of the transform at t; returns the index of the first.
static int push_fields3(lua_State *L, int t, int n) { return push_range3(L, t, 0, n); }

/// Pushes the 6 fields of the table at t (a b c d tx ty); returns the index of the first.
static int push_fieldsA(lua_State *L, int t) {
    luaL_checkstack(L, 12, "CGAffineTransform");
    int first = lua_gettop(L) + 1;
    tvalue *u = to_value(L, t, 6);
    if (u) for (int k = 0; k < 6; k++) push_num(L, ud_get(u, k));
    else for (int k = 0; k < 6; k++) get_field(L, t, UV_KA + k);
    return first;
}

/// Sets the metatable in upvalue `mt` on the table on top, refusing one with a __gc field
/// (setmetatable's rule in the sandbox: a finalizer would run outside the limits).
static void set_metatable(lua_State *L, int mt) { cardlua__set_checked_metatable(L, UP(mt)); }

/// One value of a new transform: a number, or a stack slot to copy (the Lua versions
/// copy some fields as they are): `arg` and `field` name where it came from, for the
/// message when it is not a number.
typedef struct {
    int slot;  /* a stack index to copy, or 0 for `n` */
    lnum n;
    int arg;
    const char *field;
} cell;

static inline cell num_cell(lnum n) { cell c = {0, n, 0, NULL}; return c; }
static inline cell float_cell(lua_Number d) { return num_cell(F_(d)); }
static inline cell int_cell(lua_Integer i) { return num_cell(I_(i)); }
static inline cell copy_cell(int slot, int arg, const char *field) { cell c = {slot, I_(0), arg, field}; return c; }

static inline lnum cell_value(lua_State *L, cell c) {
    return c.slot ? num_strict(L, c.slot, c.arg, c.field) : c.n;
}

/// The fields of a transform argument (argument number `arg`): one of our values' read
/// straight from it (u: all numbers, nothing to order), a table's pushed on the stack from
/// `slot` (all read first, as the Lua versions read them) and converted when used, with
/// the table's messages.
typedef struct {
    const tvalue *u;
    int slot;
    int arg;
    const char *const *keys;
} tfields;

/// The fields of the transform at t of the kind whose keys start at upvalue `key` (UV_K3
/// or UV_KA; t already checked to be of that kind).
static tfields fields_of_value(lua_State *L, int t, int arg, int key, const tvalue *u) {
    tfields f = {u, 0, arg, key == UV_K3 ? KEYS3 : KEYSA};
    if (f.u == NULL) f.slot = key == UV_K3 ? push_fields3(L, t, 16) : push_fieldsA(L, t);
    return f;
}
static tfields fields_of(lua_State *L, int t, int arg, int key) {
    return fields_of_value(L, t, arg, key, value_of_kind(L, t, key));
}

/// Field k as a number for arithmetic (a table's as num_at takes it).
static inline lnum field_num(lua_State *L, const tfields *f, int k) {
    return f->u ? ud_get(f->u, k) : num_at(L, f->slot + k, f->arg, f->keys[k]);
}

/// Field k to be copied as it is into a new value (a table's checked by push_t3/push_affine).
static inline cell field_cell(const tfields *f, int k) {
    return f->u ? num_cell(ud_get(f->u, k)) : copy_cell(f->slot + k, f->arg, f->keys[k]);
}

static void push_t3_numbers(lua_State *L, const lnum n[16]) { push_numbers(L, n, 16, UV_T3); }

/// Pushes a new CATransform3D of the 16 values (each checked before it is made).
static void push_t3(lua_State *L, const cell v[16]) {
    lnum n[16];
    for (int k = 0; k < 16; k++) n[k] = cell_value(L, v[k]);
    push_t3_numbers(L, n);
}

/// Pushes a new CATransform3D of 12 floats and m41…m44 copied from the 4 slots at
/// `copies` (the fields of argument 1): the hot path.
static void push_t3_floats(lua_State *L, const lua_Number v[12], int copies) {
    lnum last[4];
    for (int k = 0; k < 4; k++) last[k] = num_strict(L, copies + k, 1, KEYS3[12 + k]);
    tvalue *u = new_value(L, 16, UV_T3);
    u->ints = 0;
    for (int k = 0; k < 12; k++) u->v[k].d = v[k];
    for (int k = 0; k < 4; k++) ud_set(u, 12 + k, last[k]);
}

static void push_affine(lua_State *L, const cell v[6]) {
    lnum n[6];
    for (int k = 0; k < 6; k++) n[k] = cell_value(L, v[k]);
    push_numbers(L, n, 6, UV_AFFINE);
}

static void push_identity3(lua_State *L) {
    tvalue *u = new_value(L, 16, UV_T3);  // all integers: 1 on the diagonal
    for (int k = 0; k < 16; k += 5) u->v[k].i = 1;
}

static void push_identity_affine(lua_State *L) {
    tvalue *u = new_value(L, 6, UV_AFFINE);
    u->v[0].i = 1;
    u->v[3].i = 1;
}

/// Whether the value at idx is nil or absent (the Lua versions' `extra ~= nil`).
static inline int none(lua_State *L, int idx) { return lua_type(L, idx) <= LUA_TNIL; }
static inline int is_number(lua_State *L, int idx) { return lua_type(L, idx) == LUA_TNUMBER; }
static inline lnum arg_num(lua_State *L, int idx) {
    return lua_isinteger(L, idx) ? I_(lua_tointeger(L, idx)) : F_(lua_tonumber(L, idx));
}

// MARK: - CATransform3D

/// CATransform3DIdentity and the other fresh values, for _G's __index: the identities
/// here, anything else to the prelude's function (upvalue UV_KINDS; UV_NAME and
/// UV_PARAMS hold the two names).
static int globals_index(lua_State *L) {
    // The names are short strings, which Lua interns: equal exactly when they are one
    // object, so their addresses compare (cheaper than lua_rawequal; any other key's
    // address differs, a number's is NULL).
    const void *key = lua_topointer(L, 2);
    if (key == lua_topointer(L, UP(UV_NAME))) {
        cardlua__charge(L, FEE_3D);
        push_identity3(L);
        return 1;
    }
    if (key == lua_topointer(L, UP(UV_PARAMS))) {
        cardlua__charge(L, FEE_AFFINE);
        push_identity_affine(L);
        return 1;
    }
    lua_pushvalue(L, UP(UV_KINDS));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/// The identity (the prelude's identity3D, for the host's attributes.transform3D).
static int identity3(lua_State *L) {
    lua_settop(L, 0);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_3D);
    push_identity3(L);
    return 1;
}

/// CATransform3DRotate(t, angle, x, y, z) and t:rotate: rotation · t, as rotator() in
/// reference/transform3d.lua (the principal axes with the zero terms left out, the general axis
/// normalised unless it is a unit one; a zero or infinite axis: a copy).
static int rotate3(lua_State *L) {
    lua_settop(L, 6);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_3D);
    // A value's fields are read straight from it (nothing to order: no metamethods); a
    // table's a11…a34 now, m41…m44 after the arithmetic (as in Lua). (is_kind only for
    // what is not a value: it would look the metatable up again.)
    const tvalue *src = to_value(L, 1, 16);
    if (!(src || is_kind(L, 1, UV_K3)) || !is_number(L, 2) || !none(L, 6)) return arg_error(L, 6);
    int a = src ? 0 : push_fields3(L, 1, 12);
    if (!is_number(L, 3) || !is_number(L, 4) || !is_number(L, 5)) return arg_error(L, 6);
    lua_Number x = lua_tonumber(L, 3), y = lua_tonumber(L, 4), z = lua_tonumber(L, 5);
    lua_Number angle = lua_tonumber(L, 2);
    lua_Number m[12], s11[12];
    int axis = 0;  // 1 x, 2 y, 3 z: a principal axis
    if (x == 0) {
        if (z == 0 && y == 1) axis = 2;
        else if (y == 0 && z == 1) axis = 3;
    } else if (x == 1 && y == 0 && z == 0) {
        axis = 1;
    }
    if (axis) {
        for (int k = 0; k < 12; k++) s11[k] = src ? tof(ud_get(src, k)) : tof(num_at(L, a + k, 1, KEYS3[k]));
        lua_Number c = cos(angle), s = sin(angle);
        lua_Number r = c + (1 - c);
        const lua_Number *a1 = s11, *a2 = s11 + 4, *a3 = s11 + 8;
        for (int k = 0; k < 4; k++) {
            if (axis == 2) {
                m[k] = c * a1[k] - s * a3[k];
                m[4 + k] = r * a2[k];
                m[8 + k] = s * a1[k] + c * a3[k];
            } else if (axis == 3) {
                m[k] = c * a1[k] + s * a2[k];
                m[4 + k] = c * a2[k] - s * a1[k];
                m[8 + k] = r * a3[k];
            } else {
                m[k] = r * a1[k];
                m[4 + k] = c * a2[k] + s * a3[k];
                m[8 + k] = c * a3[k] - s * a2[k];
            }
        }
        if (src) {  // the hot path: 12 floats, m41…m44 copied with their subtypes
            tvalue *u = new_value(L, 16, UV_T3);
            u->ints = src->ints & 0xF000u;
            for (int k = 0; k < 12; k++) u->v[k].d = m[k];
            for (int k = 12; k < 16; k++) u->v[k] = src->v[k];
            return 1;
        }
        int copies = lua_gettop(L) + 1;
        push_range3(L, 1, 12, 16);
        push_t3_floats(L, m, copies);
        return 1;
    }
    // The general axis: len = x·x + y·y + z·z in Lua's arithmetic (integers stay integers).
    lnum nx = arg_num(L, 3), ny = arg_num(L, 4), nz = arg_num(L, 5);
    lnum len2 = nadd(nadd(nmul(nx, nx), nmul(ny, ny)), nmul(nz, nz));
    lua_Number len = (len2.isint ? len2.i == 1 : len2.d == 1) ? 1.0 : sqrt(tof(len2));
    int degenerate = !(len > 0) || len == HUGE_VAL;
    if (src && degenerate) a = push_fields3(L, 1, 12);  // the copy below takes them from the stack
    if (degenerate) {
        cell v[16];
        for (int k = 0; k < 12; k++) v[k] = copy_cell(a + k, 1, KEYS3[k]);
        int copies = lua_gettop(L) + 1;
        for (int k = 12; k < 16; k++) { get_field(L, 1, UV_K3 + k); v[k] = copy_cell(copies + k - 12, 1, KEYS3[k]); }
        push_t3(L, v);
        return 1;
    }
    for (int k = 0; k < 12; k++) s11[k] = src ? tof(ud_get(src, k)) : tof(num_at(L, a + k, 1, KEYS3[k]));
    x = x / len; y = y / len; z = z / len;
    lua_Number c = cos(angle), s = sin(angle);
    lua_Number k1 = 1 - c;
    lua_Number r[9] = {
        c + x * x * k1, x * y * k1 + z * s, x * z * k1 - y * s,
        x * y * k1 - z * s, c + y * y * k1, y * z * k1 + x * s,
        x * z * k1 + y * s, y * z * k1 - x * s, c + z * z * k1,
    };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            m[i * 4 + j] = r[i * 3] * s11[j] + r[i * 3 + 1] * s11[4 + j] + r[i * 3 + 2] * s11[8 + j];
    if (src) {  // a value: 12 floats, m41…m44 copied with their subtypes (as the principal axes)
        tvalue *u = new_value(L, 16, UV_T3);
        u->ints = src->ints & 0xF000u;
        for (int k = 0; k < 12; k++) u->v[k].d = m[k];
        for (int k = 12; k < 16; k++) u->v[k] = src->v[k];
        return 1;
    }
    int copies = lua_gettop(L) + 1;
    push_range3(L, 1, 12, 16);
    push_t3_floats(L, m, copies);
    return 1;
}

/// CATransform3DScale(t, sx, sy, sz) and t:scale: scale · t.
static int scale3(lua_State *L) {
    lua_settop(L, 5);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_3D);
    tvalue *u = to_value(L, 1, 16);
    if (!(u || is_kind(L, 1, UV_K3)) || !is_number(L, 2) || !is_number(L, 3) || !is_number(L, 4) || !none(L, 5))
        return arg_error(L, 5);
    tfields a = fields_of_value(L, 1, 1, UV_K3, u);
    lnum f[3] = {arg_num(L, 2), arg_num(L, 3), arg_num(L, 4)};
    lnum n[16];  // in push_t3's order: the products, then the copies checked
    for (int k = 0; k < 12; k++) n[k] = nmul(f[k / 4], field_num(L, &a, k));
    for (int k = 12; k < 16; k++) n[k] = cell_value(L, field_cell(&a, k));
    push_t3_numbers(L, n);
    return 1;
}

/// CATransform3DTranslate(t, tx, ty, tz) and t:translate: translation · t.
static int translate3(lua_State *L) {
    lua_settop(L, 5);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_3D);
    tvalue *u = to_value(L, 1, 16);
    if (!(u || is_kind(L, 1, UV_K3)) || !is_number(L, 2) || !is_number(L, 3) || !is_number(L, 4) || !none(L, 5))
        return arg_error(L, 5);
    tfields a = fields_of_value(L, 1, 1, UV_K3, u);
    lnum tx = arg_num(L, 2), ty = arg_num(L, 3), tz = arg_num(L, 4);
    lnum n[16];  // in push_t3's order: the sums (their reads checked), then the copies checked
    for (int j = 0; j < 4; j++) {
        lnum sum = nadd(nmul(tx, field_num(L, &a, j)), nmul(ty, field_num(L, &a, 4 + j)));
        sum = nadd(sum, nmul(tz, field_num(L, &a, 8 + j)));
        n[12 + j] = nadd(sum, field_num(L, &a, 12 + j));
    }
    for (int k = 0; k < 12; k++) n[k] = cell_value(L, field_cell(&a, k));
    push_t3_numbers(L, n);
    return 1;
}

/// CATransform3DConcat(a, b) and t:concat: a · b.
static int concat3(lua_State *L) {
    lua_settop(L, 3);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_CONCAT_3D);
    if (!is_kind(L, 1, UV_K3) ||
        !is_kind(L, 2, UV_K3) || !none(L, 3))
        return arg_error(L, 3);
    tfields a = fields_of(L, 1, 1, UV_K3), b = fields_of(L, 2, 2, UV_K3);
    lnum na[16], nb[16];
    for (int k = 0; k < 16; k++) na[k] = field_num(L, &a, k);
    for (int k = 0; k < 16; k++) nb[k] = field_num(L, &b, k);
    cell v[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            lnum sum = nadd(nmul(na[i * 4], nb[j]), nmul(na[i * 4 + 1], nb[4 + j]));
            sum = nadd(sum, nmul(na[i * 4 + 2], nb[8 + j]));
            v[i * 4 + j] = num_cell(nadd(sum, nmul(na[i * 4 + 3], nb[12 + j])));
        }
    push_t3(L, v);
    return 1;
}

/// CATransform3DInvert(t) and t:invert: Gauss–Jordan with partial pivoting, as
/// invert3D; a singular t comes back as a copy.
static int invert3(lua_State *L) {
    lua_settop(L, 2);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_INVERT_3D);
    if (!is_kind(L, 1, UV_K3) || !none(L, 2)) return arg_error(L, 2);
    tfields f = fields_of(L, 1, 1, UV_K3);
    // A table's field is converted when the elimination first uses it (as Lua's arithmetic
    // would fail there, and a singular t, returned before, may hold anything): src holds
    // the slot of a field not converted yet, swapped with its row. A value's are numbers.
    lnum a[4][4], inv[4][4];
    int src[4][4];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            src[r][c] = f.u ? 0 : f.slot + r * 4 + c;
            if (f.u) a[r][c] = ud_get(f.u, r * 4 + c);
            inv[r][c] = I_(r == c ? 1 : 0);
        }
#define A(r, c) (src[r][c] ? (a[r][c] = num_at(L, src[r][c], 1, KEYS3[src[r][c] - f.slot]), src[r][c] = 0, a[r][c]) : a[r][c])
    for (int c = 0; c < 4; c++) {
        int pivot = c;
        lnum best = nabs(A(c, c));
        for (int r = c + 1; r < 4; r++) {
            lnum v = nabs(A(r, c));
            if (nlt(best, v)) { pivot = r; best = v; }
        }
        if (nzero(best)) {  // singular: a copy, its fields read again (as the Lua does)
            cell v[16];
            if (f.u) {
                for (int k = 0; k < 16; k++) v[k] = field_cell(&f, k);
                push_t3(L, v);
                return 1;
            }
            luaL_checkstack(L, 24, "CATransform3DInvert");  // 16 more values on top of the 16 read
            int copies = lua_gettop(L) + 1;
            for (int k = 0; k < 16; k++) { get_field(L, 1, UV_K3 + k); v[k] = copy_cell(copies + k, 1, KEYS3[k]); }
            push_t3(L, v);
            return 1;
        }
        for (int k = 0; k < 4; k++) {
            lnum t = a[c][k]; a[c][k] = a[pivot][k]; a[pivot][k] = t;
            int s = src[c][k]; src[c][k] = src[pivot][k]; src[pivot][k] = s;
            t = inv[c][k]; inv[c][k] = inv[pivot][k]; inv[pivot][k] = t;
        }
        lnum p = A(c, c);
        for (int k = 0; k < 4; k++) { a[c][k] = ndiv(A(c, k), p); inv[c][k] = ndiv(inv[c][k], p); }
        for (int r = 0; r < 4; r++) {
            if (r == c) continue;
            lnum fr = A(r, c);
            if (nzero(fr)) continue;
            for (int k = 0; k < 4; k++) {
                a[r][k] = nsub(A(r, k), nmul(fr, a[c][k]));
                inv[r][k] = nsub(inv[r][k], nmul(fr, inv[c][k]));
            }
        }
    }
#undef A
    cell v[16];
    for (int k = 0; k < 16; k++) v[k] = num_cell(inv[k / 4][k % 4]);
    push_t3(L, v);
    return 1;
}

/// Whether the fields of the tables at i and j are equal (Lua's ==), in order, stopping
/// at the first difference, as equal3D.
static int equal_fields(lua_State *L, int i, int j, int key, int n) {
    for (int k = 0; k < n; k++) {
        get_field(L, i, key + k);
        get_field(L, j, key + k);
        int eq = lua_compare(L, -2, -1, LUA_OPEQ);
        lua_pop(L, 2);
        if (!eq) return 0;
    }
    return 1;
}

/// Whether field (upvalue key) of the table at t equals the integer v (Lua's ==).
/// (t may be any value, as in the methods, which check nothing: `t[key]` with metamethods.)
static int field_is(lua_State *L, int t, int key, lua_Integer v) {
    if (lua_type(L, t) == LUA_TTABLE || lua_type(L, t) == LUA_TUSERDATA) {
        get_field(L, t, key);
    } else {
        lua_pushvalue(L, UP(key));
        lua_gettable(L, t);
    }
    lua_pushinteger(L, v);
    int eq = lua_compare(L, -2, -1, LUA_OPEQ);
    lua_pop(L, 2);
    return eq;
}

/// A kind of transform, for the functions both kinds share: its field count, the upvalue
/// of its first key and of its metatable, its fee, its name and keys for messages and its
/// identity's fields.
typedef struct {
    int n;
    int key;
    int mt;
    int fee;
    const char *name;
    const char *const *keys;
    lua_Integer identity[16];
} transform_kind;
static const transform_kind KIND3 = {16, UV_K3, UV_T3, FEE_3D, "CATransform3D", KEYS3,
                                     {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}};
static const transform_kind KIND_AFFINE = {6, UV_KA, UV_AFFINE, FEE_AFFINE, "CGAffineTransform", KEYSA,
                                           {1, 0, 0, 1, 0, 0}};

/// Whether the fields of t are the identity's (Lua's ==), in order, stopping at the first
/// that is not.
static int is_identity_fields(lua_State *L, int t, const transform_kind *K) {
    for (int k = 0; k < K->n; k++)
        if (!field_is(L, t, K->key + k, K->identity[k])) return 0;
    return 1;
}

/// CATransform3DIsIdentity(t) / CGAffineTransformIsIdentity(t).
static int is_identity(lua_State *L, const transform_kind *K) {
    lua_settop(L, 2);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    if (!is_kind(L, 1, K->key) || !none(L, 2)) return arg_error(L, 2);
    cardlua__charge(L, K->fee);
    lua_pushboolean(L, is_identity_fields(L, 1, K));
    return 1;
}

/// t:isIdentity(): as the Lua method, no argument checks (equal3D(t, identity3D()) /
/// equalAffine(t, identity)).
static int is_identity_method(lua_State *L, const transform_kind *K) {
    lua_settop(L, 1);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, K->fee);
    lua_pushboolean(L, is_identity_fields(L, 1, K));
    return 1;
}

/// CATransform3DEqualToTransform(a, b) / CGAffineTransformEqualToTransform(a, b).
static int equal(lua_State *L, const transform_kind *K) {
    lua_settop(L, 3);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    if (!is_kind(L, 1, K->key) || !is_kind(L, 2, K->key) || !none(L, 3)) return arg_error(L, 3);
    cardlua__charge(L, K->fee);
    lua_pushboolean(L, equal_fields(L, 1, 2, K->key, K->n));
    return 1;
}

/// Whether the values at i and j are both ours of n fields with equal fields (Lua's ==),
/// as equal3D / equalAffine.
static int equal_values(lua_State *L, int i, int j, int n) {
    const tvalue *a = to_value(L, i, n), *b = to_value(L, j, n);
    if (a == NULL || b == NULL) return 0;
    for (int k = 0; k < n; k++)
        if (!neq(ud_get(a, k), ud_get(b, k))) return 0;
    return 1;
}

/// The values' __eq: Lua calls it for two userdata only; another kind is unequal.
static int eq_metamethod(lua_State *L, const transform_kind *K) {
    lua_settop(L, 2);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, K->fee);
    lua_pushboolean(L, equal_values(L, 1, 2, K->n));
    return 1;
}

static int is_identity3(lua_State *L) { return is_identity(L, &KIND3); }
static int is_identity3_method(lua_State *L) { return is_identity_method(L, &KIND3); }
static int equal3(lua_State *L) { return equal(L, &KIND3); }
static int eq3_metamethod(lua_State *L) { return eq_metamethod(L, &KIND3); }

/// CATransform3DMakeTranslation(tx, ty, tz).
static int make_translation3(lua_State *L) {
    lua_settop(L, 4);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_3D);
    if (!is_number(L, 1) || !is_number(L, 2) || !is_number(L, 3) || !none(L, 4)) return arg_error(L, 4);
    lnum n[16];
    for (int k = 0; k < 16; k++) n[k] = I_(k % 5 == 0 ? 1 : 0);
    n[12] = arg_num(L, 1); n[13] = arg_num(L, 2); n[14] = arg_num(L, 3);  // numbers: checked above
    push_t3_numbers(L, n);
    return 1;
}

/// CATransform3DMakeScale(sx, sy, sz).
static int make_scale3(lua_State *L) {
    lua_settop(L, 4);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_3D);
    if (!is_number(L, 1) || !is_number(L, 2) || !is_number(L, 3) || !none(L, 4)) return arg_error(L, 4);
    lnum n[16];
    for (int k = 0; k < 16; k++) n[k] = I_(k == 15 ? 1 : 0);
    n[0] = arg_num(L, 1); n[5] = arg_num(L, 2); n[10] = arg_num(L, 3);  // numbers: checked above
    push_t3_numbers(L, n);
    return 1;
}

/// CATransform3DMakeRotation(angle, x, y, z): rotation3x3 (always normalised); a zero
/// or infinite axis gives the identity.
static int make_rotation3(lua_State *L) {
    lua_settop(L, 5);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_3D);
    if (!is_number(L, 1) || !is_number(L, 2) || !is_number(L, 3) || !is_number(L, 4) || !none(L, 5))
        return arg_error(L, 5);
    lnum nx = arg_num(L, 2), ny = arg_num(L, 3), nz = arg_num(L, 4);
    lua_Number len = sqrt(tof(nadd(nadd(nmul(nx, nx), nmul(ny, ny)), nmul(nz, nz))));
    if (!(len > 0) || len == HUGE_VAL) {
        push_identity3(L);
        return 1;
    }
    lua_Number x = tof(nx) / len, y = tof(ny) / len, z = tof(nz) / len;
    lua_Number angle = lua_tonumber(L, 1);
    lua_Number c = cos(angle), s = sin(angle);
    lua_Number k1 = 1 - c;
    lua_Number r[9] = {
        c + x * x * k1, x * y * k1 + z * s, x * z * k1 - y * s,
        x * y * k1 - z * s, c + y * y * k1, y * z * k1 + x * s,
        x * z * k1 + y * s, y * z * k1 - x * s, c + z * z * k1,
    };
    cell v[16];
    for (int k = 0; k < 16; k++) v[k] = int_cell(k == 15 ? 1 : 0);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) v[i * 4 + j] = float_cell(r[i * 3 + j]);
    push_t3(L, v);
    return 1;
}

/// CATransform3DMakeAffineTransform(t): the affine transform as a 3D one.
static int make_affine3(lua_State *L) {
    lua_settop(L, 2);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_3D);
    if (!is_kind(L, 1, UV_KA) || !none(L, 2)) return arg_error(L, 2);
    tfields f = fields_of(L, 1, 1, UV_KA);
    cell v[16];
    for (int k = 0; k < 16; k++) v[k] = int_cell(k == 10 || k == 15 ? 1 : 0);
    v[0] = field_cell(&f, 0); v[1] = field_cell(&f, 1); v[4] = field_cell(&f, 2);
    v[5] = field_cell(&f, 3); v[12] = field_cell(&f, 4); v[13] = field_cell(&f, 5);
    push_t3(L, v);
    return 1;
}

/// CATransform3DGetAffineTransform(t): m11 m12 m21 m22 m41 m42.
static int get_affine3(lua_State *L) {
    lua_settop(L, 2);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_AFFINE);
    if (!is_kind(L, 1, UV_K3) || !none(L, 2)) return arg_error(L, 2);
    static const int from[6] = {0, 1, 4, 5, 12, 13};
    const tvalue *u = to_value(L, 1, 16);
    int first = lua_gettop(L) + 1;
    cell v[6];
    for (int k = 0; k < 6; k++) {
        if (u) { v[k] = num_cell(ud_get(u, from[k])); continue; }
        get_field(L, 1, UV_K3 + from[k]);
        v[k] = copy_cell(first + k, 1, KEYS3[from[k]]);
    }
    push_affine(L, v);
    return 1;
}

/// CATransform3DIsAffine(t): the 3D fields, in the Lua version's order, stopping early.
static int is_affine3(lua_State *L) {
    lua_settop(L, 2);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    if (!is_kind(L, 1, UV_K3) || !none(L, 2)) return arg_error(L, 2);
    cardlua__charge(L, FEE_AFFINE);
    static const int fields[10] = {2, 3, 6, 7, 8, 9, 10, 11, 14, 15};
    int affine = 1;
    for (int k = 0; k < 10 && affine; k++)
        affine = field_is(L, 1, UV_K3 + fields[k], fields[k] == 10 || fields[k] == 15 ? 1 : 0);
    lua_pushboolean(L, affine);
    return 1;
}

// MARK: - CGAffineTransform

/// t1 · t2 for the six numbers of each (concatAffine's formulas, in its order).
static void concat_affine(const lnum p[6], const lnum q[6], cell out[6]) {
    out[0] = num_cell(nadd(nmul(p[0], q[0]), nmul(p[1], q[2])));
    out[1] = num_cell(nadd(nmul(p[0], q[1]), nmul(p[1], q[3])));
    out[2] = num_cell(nadd(nmul(p[2], q[0]), nmul(p[3], q[2])));
    out[3] = num_cell(nadd(nmul(p[2], q[1]), nmul(p[3], q[3])));
    out[4] = num_cell(nadd(nadd(nmul(p[4], q[0]), nmul(p[5], q[2])), q[4]));
    out[5] = num_cell(nadd(nadd(nmul(p[4], q[1]), nmul(p[5], q[3])), q[5]));
}

/// The six numbers of the affine transform at t (argument number `arg`).
static void affine_numbers(lua_State *L, int t, int arg, lnum out[6]) {
    tfields f = fields_of(L, t, arg, UV_KA);
    for (int k = 0; k < 6; k++) out[k] = field_num(L, &f, k);
}

/// CGAffineTransformScale(t, sx, sy) and t:scale: concatAffine(affine(sx, 0, 0, sy, 0, 0), t).
static int scale_affine(lua_State *L) {
    lua_settop(L, 4);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_AFFINE);
    if (!is_kind(L, 1, UV_KA) || !is_number(L, 2) || !is_number(L, 3) || !none(L, 4)) return arg_error(L, 4);
    lnum p[6] = {arg_num(L, 2), I_(0), I_(0), arg_num(L, 3), I_(0), I_(0)}, q[6];
    affine_numbers(L, 1, 1, q);
    cell v[6];
    concat_affine(p, q, v);
    push_affine(L, v);
    return 1;
}

/// CGAffineTransformRotate(t, angle) and t:rotate: concatAffine(rotationAffine(angle), t).
static int rotate_affine(lua_State *L) {
    lua_settop(L, 3);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_AFFINE);
    if (!is_kind(L, 1, UV_KA) || !is_number(L, 2) || !none(L, 3)) return arg_error(L, 3);
    lua_Number angle = lua_tonumber(L, 2);
    lua_Number c = cos(angle), s = sin(angle);
    lnum p[6] = {F_(c), F_(s), F_(-s), F_(c), I_(0), I_(0)}, q[6];
    affine_numbers(L, 1, 1, q);
    cell v[6];
    concat_affine(p, q, v);
    push_affine(L, v);
    return 1;
}

/// CGAffineTransformTranslate(t, tx, ty) and t:translate: concatAffine(affine(1, 0, 0, 1, tx, ty), t).
static int translate_affine(lua_State *L) {
    lua_settop(L, 4);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_AFFINE);
    if (!is_kind(L, 1, UV_KA) || !is_number(L, 2) || !is_number(L, 3) || !none(L, 4)) return arg_error(L, 4);
    lnum p[6] = {I_(1), I_(0), I_(0), I_(1), arg_num(L, 2), arg_num(L, 3)}, q[6];
    affine_numbers(L, 1, 1, q);
    cell v[6];
    concat_affine(p, q, v);
    push_affine(L, v);
    return 1;
}

/// CGAffineTransformConcat(t1, t2) and t:concat.
static int concat_affine_fn(lua_State *L) {
    lua_settop(L, 3);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_AFFINE);
    if (!is_kind(L, 1, UV_KA) ||
        !is_kind(L, 2, UV_KA) || !none(L, 3))
        return arg_error(L, 3);
    lnum p[6], q[6];
    affine_numbers(L, 1, 1, p);
    affine_numbers(L, 2, 2, q);
    cell v[6];
    concat_affine(p, q, v);
    push_affine(L, v);
    return 1;
}

/// CGAffineTransformInvert(t) and t:invert (invertAffine: a singular t is copied).
static int invert_affine(lua_State *L) {
    lua_settop(L, 2);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_AFFINE);
    if (!is_kind(L, 1, UV_KA) || !none(L, 2)) return arg_error(L, 2);
    tfields f = fields_of(L, 1, 1, UV_KA);
    lnum a = field_num(L, &f, 0), b = field_num(L, &f, 1);
    lnum c = field_num(L, &f, 2), d = field_num(L, &f, 3);
    lnum det = nsub(nmul(a, d), nmul(b, c));
    cell v[6];
    if (nzero(det)) {  // singular: a copy (tx and ty as they are)
        for (int k = 0; k < 6; k++) v[k] = field_cell(&f, k);
    } else {
        lnum tx = field_num(L, &f, 4), ty = field_num(L, &f, 5);
        v[0] = num_cell(ndiv(d, det));
        v[1] = num_cell(ndiv(nunm(b), det));
        v[2] = num_cell(ndiv(nunm(c), det));
        v[3] = num_cell(ndiv(a, det));
        v[4] = num_cell(ndiv(nsub(nmul(c, ty), nmul(d, tx)), det));
        v[5] = num_cell(ndiv(nsub(nmul(b, tx), nmul(a, ty)), det));
    }
    push_affine(L, v);
    return 1;
}

static int is_identity_affine(lua_State *L) { return is_identity(L, &KIND_AFFINE); }
static int is_identity_affine_method(lua_State *L) { return is_identity_method(L, &KIND_AFFINE); }
static int equal_affine(lua_State *L) { return equal(L, &KIND_AFFINE); }
static int eq_affine_metamethod(lua_State *L) { return eq_metamethod(L, &KIND_AFFINE); }

/// CGAffineTransformMake(a, b, c, d, tx, ty).
static int make_affine(lua_State *L) {
    lua_settop(L, 7);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_AFFINE);
    for (int k = 1; k <= 6; k++)
        if (!is_number(L, k)) return arg_error(L, 7);
    if (!none(L, 7)) return arg_error(L, 7);
    cell v[6];
    for (int k = 0; k < 6; k++) v[k] = copy_cell(k + 1, k + 1, KEYSA[k]);
    push_affine(L, v);
    return 1;
}

/// CGAffineTransformMakeScale(sx, sy).
static int make_scale_affine(lua_State *L) {
    lua_settop(L, 3);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_AFFINE);
    if (!is_number(L, 1) || !is_number(L, 2) || !none(L, 3)) return arg_error(L, 3);
    cell v[6] = {copy_cell(1, 1, "sx"), int_cell(0), int_cell(0), copy_cell(2, 2, "sy"), int_cell(0), int_cell(0)};
    push_affine(L, v);
    return 1;
}

/// CGAffineTransformMakeRotation(angle): (cos, sin, −sin, cos, 0, 0).
static int make_rotation_affine(lua_State *L) {
    lua_settop(L, 2);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_AFFINE);
    if (!is_number(L, 1) || !none(L, 2)) return arg_error(L, 2);
    lua_Number angle = lua_tonumber(L, 1);
    lua_Number c = cos(angle), s = sin(angle);
    cell v[6] = {float_cell(c), float_cell(s), float_cell(-s), float_cell(c), int_cell(0), int_cell(0)};
    push_affine(L, v);
    return 1;
}

/// CGAffineTransformMakeTranslation(tx, ty).
static int make_translation_affine(lua_State *L) {
    lua_settop(L, 3);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_AFFINE);
    if (!is_number(L, 1) || !is_number(L, 2) || !none(L, 3)) return arg_error(L, 3);
    cell v[6] = {int_cell(1), int_cell(0), int_cell(0), int_cell(1), copy_cell(1, 1, "tx"), copy_cell(2, 2, "ty")};
    push_affine(L, v);
    return 1;
}

/// CGPointApplyAffineTransform(p, t): (a·x + c·y + tx, b·x + d·y + ty) as a CGPoint.
static int apply_affine(lua_State *L) {
    lua_settop(L, 3);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, FEE_AFFINE);
    if (!is_kind(L, 1, UV_KX) ||
        !is_kind(L, 2, UV_KA) || !none(L, 3))
        return arg_error(L, 3);
    lnum t[6];
    affine_numbers(L, 2, 2, t);
    get_field(L, 1, UV_KX);
    get_field(L, 1, UV_KY);
    lnum x = num_at(L, -2, 1, "x"), y = num_at(L, -1, 1, "y");
    lnum px = nadd(nadd(nmul(t[0], x), nmul(t[2], y)), t[4]);
    lnum py = nadd(nadd(nmul(t[1], x), nmul(t[3], y)), t[5]);
    lua_createtable(L, 0, 2);
    lua_pushvalue(L, UP(UV_KX)); push_num(L, px); lua_rawset(L, -3);
    lua_pushvalue(L, UP(UV_KY)); push_num(L, py); lua_rawset(L, -3);
    set_metatable(L, UV_POINT);
    return 1;
}

// MARK: - The values' constructors and metamethods

/// A new value of the kind from its n numbers (the prelude's t3 and affine).
static int make_value(lua_State *L, const transform_kind *K) {
    lua_settop(L, K->n);  // absent arguments read as nil; extra ones are ignored (as in Lua)
    cardlua__charge(L, K->fee);
    lnum n[16];
    for (int k = 0; k < K->n; k++) {
        if (!is_number(L, k + 1))
            luaL_error(L, "%s.%s must be a number, got %s", K->name, K->keys[k],
                       none(L, k + 1) ? "nil" : lua_pushfstring(L, "a %s", luaL_typename(L, k + 1)));
        n[k] = arg_num(L, k + 1);
    }
    push_numbers(L, n, K->n, K->mt);
    return 1;
}

/// The prelude's t3(a11, …, a44) (I.matrix, the elements' transform3D): 16 numbers.
static int make_value3(lua_State *L) { return make_value(L, &KIND3); }

/// The prelude's affine(a, b, c, d, tx, ty): 6 numbers.
static int make_value_affine(lua_State *L) { return make_value(L, &KIND_AFFINE); }

// The metamethods' upvalues: the lookup table (a field's name → its number from 0, a
// method's name → the method), the type's name, the fields for messages, the metatable,
// the number of fields.
enum { MV_LOOKUP = 1, MV_NAME, MV_FIELDS, MV_MT, MV_N, MV_COUNT = MV_N };
#define MV(i) lua_upvalueindex(i)

/// The value at 1, which must be one of ours of this metatable's kind (the iterator
/// `pairs` hands out can be called with anything).
static tvalue *check_value(lua_State *L) {
    tvalue *u = to_value(L, 1, (int)lua_tointeger(L, MV(MV_N)));
    if (u == NULL)
        luaL_error(L, "bad argument #1 (%s expected, got %s)", lua_tostring(L, MV(MV_NAME)), luaL_typename(L, 1));
    return u;
}

/// __index: a field's number, a method, or nil (as a table without that key).
static int value_index(lua_State *L) {
    lua_settop(L, 2);
    tvalue *u = check_value(L);
    if (lua_rawget(L, MV(MV_LOOKUP)) == LUA_TNUMBER) push_num(L, ud_get(u, (int)lua_tointeger(L, -1)));
    return 1;
}

/// __newindex: a number to a field (its subtype kept; NaN too: the read-back reports it);
/// anything else is an error naming the field.
static int value_newindex(lua_State *L) {
    lua_settop(L, 3);
    tvalue *u = check_value(L);
    lua_pushvalue(L, 2);
    if (lua_type(L, 2) != LUA_TSTRING || lua_rawget(L, MV(MV_LOOKUP)) != LUA_TNUMBER) {
        const char *name = lua_tostring(L, MV(MV_NAME));
        char key[64];
        int t = lua_type(L, 2);
        if (t == LUA_TSTRING) {
            size_t n = 0;
            const char *s = lua_tolstring(L, 2, &n);
            snprintf(key, sizeof key, n > 40 ? "'%.40s…'" : "'%s'", s);
        } else if (t == LUA_TNUMBER) {
            lua_pushvalue(L, 2);
            snprintf(key, sizeof key, "[%s]", lua_tostring(L, -1));
        } else if (t == LUA_TBOOLEAN) {
            snprintf(key, sizeof key, "[%s]", lua_toboolean(L, 2) ? "true" : "false");
        } else {
            snprintf(key, sizeof key, "[a %s]", luaL_typename(L, 2));
        }
        return luaL_error(L, "%s has no field %s (fields %s)", name, key, lua_tostring(L, MV(MV_FIELDS)));
    }
    int k = (int)lua_tointeger(L, -1);
    int t = lua_type(L, 3);
    if (t != LUA_TNUMBER)
        return luaL_error(L, "%s.%s must be a number, got %s%s", lua_tostring(L, MV(MV_NAME)), lua_tostring(L, 2),
                          t == LUA_TNIL ? "" : "a ", t == LUA_TNIL ? "nil" : luaL_typename(L, 3));
    ud_set(u, k, arg_num(L, 3));
    return 0;
}

/// __tostring: "CATransform3D(1, 0, …)", each field as tostring gives it (as the Lua
/// versions' __tostring).
static int value_tostring(lua_State *L) {
    tvalue *u = check_value(L);
    int n = (int)lua_tointeger(L, MV(MV_N));
    cardlua__charge(L, n);
    luaL_checkstack(L, 2 * n + 4, "tostring");
    lua_pushvalue(L, MV(MV_NAME));
    lua_pushliteral(L, "(");
    for (int k = 0; k < n; k++) {
        if (k > 0) lua_pushliteral(L, ", ");
        push_num(L, ud_get(u, k));
        lua_tolstring(L, -1, NULL);  // in place, as tostring would
    }
    lua_pushliteral(L, ")");
    lua_concat(L, 2 * n + 2);
    return 1;
}

/// pairs' iterator: the fields in order (m11…m44, a…ty), then nil.
static int value_next(lua_State *L) {
    lua_settop(L, 2);
    tvalue *u = check_value(L);
    int n = (int)lua_tointeger(L, MV(MV_N));
    int k = 0;
    if (!lua_isnil(L, 2)) {
        lua_pushvalue(L, 2);
        if (lua_type(L, 2) != LUA_TSTRING || lua_rawget(L, MV(MV_LOOKUP)) != LUA_TNUMBER)
            return luaL_error(L, "invalid key to 'next'");
        k = (int)lua_tointeger(L, -1) + 1;
    }
    if (k >= n) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushstring(L, n == 16 ? KEYS3[k] : KEYSA[k]);
    push_num(L, ud_get(u, k));
    return 2;
}

/// __pairs: the iterator, the value, nil.
static int value_pairs(lua_State *L) {
    check_value(L);
    lua_pushvalue(L, lua_upvalueindex(MV_COUNT + 1));  // the iterator
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

// MARK: - Installing them

typedef struct {
    const char *name;    /* the key in the table cardlua__transform_math returns */
    lua_CFunction f;     /* NULL: a value _G's __index makes (globals_index) */
    const char *params;  /* argError's parameters ("" when unused) */
    const char *kinds;
    const char *returns; /* the API's: its result's type (a value's own type) */
    const char *doc;     /* the API's: its line in `cardlua types`; NULL: not a global */
} math_function;

/// Every function, by the name the prelude installs it under ("T3:rotate" is the
/// CATransform3D method `rotate`, "A:rotate" the CGAffineTransform one). The message
/// name is the key, or "t:rotate" for a method. The rows with a doc are the script API,
/// in the order `cardlua types` lists it: the one list of their names, parameters and
/// kinds (the prelude defines the globals from it; Sources/CardLua/Lua/reference/ is the
/// Lua reference, and TransformMathTests holds the two lists equal).
static const math_function FUNCTIONS[] = {
    {"CATransform3DIdentity", NULL, "", "", "CATransform3D",
     "The identity transform: a fresh value each time it is read, so changing it changes nothing else."},
    {"CATransform3DMakeTranslation", make_translation3, "tx, ty, tz", "nnn", "CATransform3D", "A translation."},
    {"CATransform3DMakeScale", make_scale3, "sx, sy, sz", "nnn", "CATransform3D", "A scale."},
    {"CATransform3DMakeRotation", make_rotation3, "angle, x, y, z", "nnnn", "CATransform3D",
     "A rotation by angle radians about the axis (x, y, z); a zero axis gives the identity."},
    {"CATransform3DRotate", rotate3, "t, angle, x, y, z", "Tnnnn", "CATransform3D",
     "t with a rotation applied first (rotation \xC2\xB7 t)."},
    {"CATransform3DScale", scale3, "t, sx, sy, sz", "Tnnn", "CATransform3D", "t with a scale applied first (scale \xC2\xB7 t)."},
    {"CATransform3DTranslate", translate3, "t, tx, ty, tz", "Tnnn", "CATransform3D",
     "t with a translation applied first (translation \xC2\xB7 t)."},
    {"CATransform3DConcat", concat3, "a, b", "TT", "CATransform3D", "a \xC2\xB7 b: a applies first."},
    {"CATransform3DInvert", invert3, "t", "T", "CATransform3D", "The inverse; a singular t is returned unchanged."},
    {"CATransform3DIsIdentity", is_identity3, "t", "T", "boolean", "Whether t is the identity."},
    {"CATransform3DEqualToTransform", equal3, "a, b", "TT", "boolean", "Whether a and b are equal."},
    {"CGAffineTransformIdentity", NULL, "", "", "CGAffineTransform", "The identity: a fresh value each time it is read."},
    {"CGAffineTransformMake", make_affine, "a, b, c, d, tx, ty", "nnnnnn", "CGAffineTransform",
     "An affine transform from its six numbers."},
    {"CGAffineTransformMakeScale", make_scale_affine, "sx, sy", "nn", "CGAffineTransform", "A scale."},
    {"CGAffineTransformMakeRotation", make_rotation_affine, "angle", "n", "CGAffineTransform",
     "A rotation by angle radians (clockwise on screen for a positive angle)."},
    {"CGAffineTransformMakeTranslation", make_translation_affine, "tx, ty", "nn", "CGAffineTransform", "A translation."},
    {"CGAffineTransformScale", scale_affine, "t, sx, sy", "Ann", "CGAffineTransform", "t with a scale applied first."},
    {"CGAffineTransformRotate", rotate_affine, "t, angle", "An", "CGAffineTransform", "t with a rotation applied first."},
    {"CGAffineTransformTranslate", translate_affine, "t, tx, ty", "Ann", "CGAffineTransform",
     "t with a translation applied first."},
    {"CGAffineTransformConcat", concat_affine_fn, "t1, t2", "AA", "CGAffineTransform", "t1 \xC2\xB7 t2: t1 applies first."},
    {"CGAffineTransformInvert", invert_affine, "t", "A", "CGAffineTransform", "The inverse; a singular t is returned unchanged."},
    {"CGAffineTransformIsIdentity", is_identity_affine, "t", "A", "boolean", "Whether t is the identity."},
    {"CGAffineTransformEqualToTransform", equal_affine, "a, b", "AA", "boolean", "Whether a and b are equal."},
    {"CGPointApplyAffineTransform", apply_affine, "p, t", "PA", "CGPoint", "The point transformed."},
    {"CATransform3DMakeAffineTransform", make_affine3, "t", "A", "CATransform3D", "The affine transform as a 3D one."},
    {"CATransform3DGetAffineTransform", get_affine3, "t", "T", "CGAffineTransform", "The affine part of a 3D transform."},
    {"CATransform3DIsAffine", is_affine3, "t", "T", "boolean", "Whether t has no 3D part."},
    {"T3:rotate", rotate3, "self, angle, x, y, z", "Tnnnn", NULL, NULL},
    {"T3:scale", scale3, "self, sx, sy, sz", "Tnnn", NULL, NULL},
    {"T3:translate", translate3, "self, tx, ty, tz", "Tnnn", NULL, NULL},
    {"T3:concat", concat3, "self, other", "TT", NULL, NULL},
    {"T3:invert", invert3, "t", "T", NULL, NULL},
    {"T3:isIdentity", is_identity3_method, "self", "T", NULL, NULL},
    {"T3:__eq", eq3_metamethod, "", "", NULL, NULL},
    {"A:scale", scale_affine, "self, sx, sy", "Ann", NULL, NULL},
    {"A:rotate", rotate_affine, "self, angle", "An", NULL, NULL},
    {"A:translate", translate_affine, "self, tx, ty", "Ann", NULL, NULL},
    {"A:concat", concat_affine_fn, "self, other", "AA", NULL, NULL},
    {"A:invert", invert_affine, "t", "A", NULL, NULL},
    {"A:isIdentity", is_identity_affine_method, "self", "A", NULL, NULL},
    {"A:__eq", eq_affine_metamethod, "", "", NULL, NULL},
    {"identity3D", identity3, "", "", NULL, NULL},
    {"t3", make_value3, "", "", NULL, NULL},
    {"affine", make_value_affine, "", "", NULL, NULL},
};

/// Pushes the shared upvalues (UV_T3 … UV_KY) from cardlua__transform_math's stack (its
/// arguments, then the two metatables at 4 and 5).
static void push_shared(lua_State *L) {
    lua_pushvalue(L, 4);  // CATransform3D's metatable
    lua_pushvalue(L, 5);  // CGAffineTransform's
    lua_pushvalue(L, 1);  // Point
    lua_pushvalue(L, 2);  // argError
    for (int k = 0; k < 16; k++) lua_pushstring(L, KEYS3[k]);
    for (int k = 0; k < 6; k++) lua_pushstring(L, KEYSA[k]);
    lua_pushliteral(L, "x");
    lua_pushliteral(L, "y");
}

/// Pushes the metamethods' upvalues (MV_…).
static void push_mv(lua_State *L, int lookup, int mt, const char *name, const char *fields, int n) {
    lua_pushvalue(L, lookup);
    lua_pushstring(L, name);
    lua_pushstring(L, fields);
    lua_pushvalue(L, mt);
    lua_pushinteger(L, n);
}

/// Fills the metatable at mt of a kind: its fields (keys), its methods (the closures in
/// the result table under prefix, "T3:" or "A:") and its metamethods.
static void fill_metatable(lua_State *L, int mt, int result, const char *prefix, const char *const *keys,
                           int n, const char *name, const char *fields) {
    static const char *const METHODS[] = {"rotate", "scale", "translate", "concat", "invert", "isIdentity"};
    lua_createtable(L, 0, n + 6);
    int lookup = lua_gettop(L);
    for (int k = 0; k < n; k++) {
        lua_pushinteger(L, k);
        lua_setfield(L, lookup, keys[k]);
    }
    for (int k = 0; k < 6; k++) {
        lua_pushfstring(L, "%s%s", prefix, METHODS[k]);
        lua_rawget(L, result);
        lua_setfield(L, lookup, METHODS[k]);
    }
    push_mv(L, lookup, mt, name, fields, n);
    lua_pushcclosure(L, value_index, MV_COUNT);
    lua_setfield(L, mt, "__index");
    push_mv(L, lookup, mt, name, fields, n);
    lua_pushcclosure(L, value_newindex, MV_COUNT);
    lua_setfield(L, mt, "__newindex");
    push_mv(L, lookup, mt, name, fields, n);
    lua_pushcclosure(L, value_tostring, MV_COUNT);
    lua_setfield(L, mt, "__tostring");
    push_mv(L, lookup, mt, name, fields, n);
    push_mv(L, lookup, mt, name, fields, n);
    lua_pushcclosure(L, value_next, MV_COUNT);
    lua_pushcclosure(L, value_pairs, MV_COUNT + 1);
    lua_setfield(L, mt, "__pairs");
    lua_pushfstring(L, "%s__eq", prefix);
    lua_rawget(L, result);
    lua_setfield(L, mt, "__eq");
    lua_pushstring(L, name);  // getmetatable(t) gives the name: the metatable stays ours
    lua_setfield(L, mt, "__metatable");
    lua_pop(L, 1);
}

/// native.transformMath(Point, argError, globalsIndex) → a table of the C functions by
/// name (FUNCTIONS: the API's, the methods, the prelude's constructors t3, affine and
/// identity3D), plus "globalsIndex": _G's __index, which makes the two identities here
/// and hands any other name to the given Lua function; its array part lists the API's
/// rows in order (cardlua__list_api), which the prelude defines the globals from. Makes
/// the values' two metatables (in the registry as "CATransform3D" and
/// "CGAffineTransform", for the read-back). Called once, by the prelude
/// (transforms.lua).
int cardlua__transform_math(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    luaL_checktype(L, 3, LUA_TFUNCTION);
    lua_settop(L, 3);
    luaL_checkstack(L, UV_COUNT + 16, "transformMath");
    luaL_newmetatable(L, "CATransform3D");      // 4 (with __name)
    luaL_newmetatable(L, "CGAffineTransform");  // 5
    size_t n = sizeof FUNCTIONS / sizeof FUNCTIONS[0];
    lua_createtable(L, 32, (int)n + 1);
    int result = lua_gettop(L);
    for (size_t i = 0; i < n; i++) {
        const math_function *m = &FUNCTIONS[i];
        if (m->doc != NULL) cardlua__list_api(L, result, m->name, m->f ? m->params : NULL, m->kinds, m->returns, m->doc);
        if (m->f == NULL) continue;
        push_shared(L);
        const char *colon = strchr(m->name, ':');
        if (colon) lua_pushfstring(L, "t%s", colon); else lua_pushstring(L, m->name);
        lua_pushstring(L, m->params);
        lua_pushstring(L, m->kinds);
        lua_pushcclosure(L, m->f, UV_COUNT);
        lua_setfield(L, result, m->name);
    }
    push_shared(L);
    lua_pushliteral(L, "CATransform3DIdentity");
    lua_pushliteral(L, "CGAffineTransformIdentity");
    lua_pushvalue(L, 3);
    lua_pushcclosure(L, globals_index, UV_COUNT);
    lua_setfield(L, result, "globalsIndex");
    fill_metatable(L, 4, result, "T3:", KEYS3, 16, "CATransform3D", "m11\xE2\x80\xA6m44");
    fill_metatable(L, 5, result, "A:", KEYSA, 6, "CGAffineTransform", "a, b, c, d, tx, ty");
    lua_settop(L, result);
    return 1;
}
