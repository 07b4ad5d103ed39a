// The C side of a cardlua run, alone, for `valgrind --tool=callgrind` (scripts/instructions):
// valgrind cannot read the Swift binary's debug information, so machine instructions are
// counted here, with the shims (Sources/CLuaShims) and the prelude driven exactly as
// LuaEffect drives them.
//
//   instructions PRELUDE SCRIPT transform CALLS   CALLS transform calls of 200 items
//   instructions PRELUDE SCRIPT elements CALLS    CALLS element queries over 20 pages
//
// PRELUDE is the prelude's text (its files joined): compiled here with its checkpoints,
// as the build compiles it (Sources/EmbedText).
//
// transform: the items of the bench's per-item row (300 × 500 cards across ±1.5 viewports
// of a 414 × 736 one); elements: a row of 20 pages of 414 × 736 (every item a page, as
// the CollectionViewPagingLayout ports lay them out), one query per offset, 37.3 points
// apart. The difference of two runs with different CALLS is the cost of the calls alone.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "CLuaShims.h"

typedef struct { char *bytes; size_t length; } buffer;

#define PAGES 20
static const double W = 414, H = 736;

static char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    rewind(f);
    char *text = malloc(*n + 1);
    if (text == NULL || fread(text, 1, *n, f) != *n) { fclose(f); free(text); return NULL; }
    text[*n] = 0;
    fclose(f);
    return text;
}

static long query(void *context, double x, double y, double w, double h, double *buffer, long capacity) {
    (void)context; (void)y; (void)h;
    long n = 0;
    for (int i = 0; i < PAGES; i++) {
        double cx = W * i + W / 2;
        if (cx + W / 2 < x || cx - W / 2 > x + w) continue;
        if (n < capacity) {
            double *b = buffer + CARDLUA_IN_STRIDE * n;
            b[0] = 0; b[1] = i; b[2] = cx; b[3] = H / 2; b[4] = W; b[5] = H;
        }
        n++;
    }
    return n;
}

static int item(void *context, long section, long i, double *b, long *sections, long *items) {
    (void)context;
    *sections = 1;
    *items = PAGES;
    if (section != 0 || i < 0 || i >= PAGES) return 0;
    b[0] = 0; b[1] = (double)i; b[2] = W * (double)i + W / 2; b[3] = H / 2; b[4] = W; b[5] = H;
    return 1;
}

static int fail(cardlua_host *h, const char *what) {
    fprintf(stderr, "instructions: %s: %s\n", what, h ? cardlua_message(h) : "");
    return 1;
}

static int append(lua_State *L, const void *p, size_t n, void *ud) {
    (void)L;
    buffer *b = ud;
    char *grown = realloc(b->bytes, b->length + n);
    if (grown == NULL) return 1;
    memcpy(grown + b->length, p, n);
    b->bytes = grown;
    b->length += n;
    return 0;
}

/// The prelude's text with its checkpoints, compiled and dumped: what embed.list's
/// preludeChunk holds (Sources/EmbedText), made by the same functions.
static char *compiled(const char *text, size_t length, size_t *out_length) {
    size_t n = 0;
    char *instrumented = cardlua_instrument(text, length, &n);
    lua_State *L = luaL_newstate();
    buffer b = {NULL, 0};
    if (instrumented != NULL && L != NULL && luaL_loadbufferx(L, instrumented, n, "=cardlua prelude", "t") == LUA_OK)
        lua_dump(L, append, &b, 0);
    if (L != NULL) lua_close(L);
    free(instrumented);
    *out_length = b.length;
    return b.bytes;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: instructions PRELUDE SCRIPT transform|elements CALLS\n");
        return 2;
    }
    size_t preludeLength = 0, scriptLength = 0;
    char *text = slurp(argv[1], &preludeLength), *script = slurp(argv[2], &scriptLength);
    if (text == NULL || script == NULL) return fail(NULL, "cannot read the prelude or the script");
    char *prelude = compiled(text, preludeLength, &preludeLength);
    if (prelude == NULL) return fail(NULL, "cannot compile the prelude");
    int elements = argv[3][0] == 'e';
    int calls = atoi(argv[4]);
    const char *message = NULL;
    cardlua_host *h = cardlua_open(prelude, preludeLength, 256u << 20, 10000000, NULL, &message);
    if (h == NULL) { fprintf(stderr, "instructions: %s\n", message); return 1; }
    cardlua_set_query(h, query, NULL);
    cardlua_set_item_query(h, item, NULL);
    if (cardlua_load_script(h, script, scriptLength, "@script.lua") != CARDLUA_OK) return fail(h, "load");
    int status = 0;
    cardlua_params *params = cardlua_read_params(h, &status);  // as LuaEffect does after loading
    if (status != CARDLUA_OK) return fail(h, "params");
    cardlua_free_records(params);
    long counts[1] = {PAGES};
    if (cardlua_set_item_counts(h, counts, 1) != CARDLUA_OK) return fail(h, "counts");
    double config[64];
    double prepareState[CARDLUA_STATE_COUNT] = {0, 0, W, H, elements ? W * PAGES : W, H, 0, 0, 0, 0, 0};
    if (cardlua_prepare(h, prepareState, config) != CARDLUA_OK) return fail(h, "prepare");
    double sum = 0;
    if (elements) {
        for (int c = 0; c < calls; c++) {
            double offset = 300 + c * 37.3;
            double state[CARDLUA_STATE_COUNT] = {offset, 0, W, H, W * PAGES, H, 0, 0, 0, 0, 0};
            long count = 0;
            const double *records = cardlua_layout_elements(h, state, offset, 0, W, H, &count, &status);
            if (status != CARDLUA_OK) return fail(h, "layoutAttributesForElements");
            if (records != NULL) sum += records[2] + (double)count;
        }
    } else {
        enum { N = 200 };
        static double input[CARDLUA_IN_STRIDE * N], output[CARDLUA_OUT_STRIDE * N];
        for (int i = 0; i < N; i++) {
            double *b = input + CARDLUA_IN_STRIDE * i;
            b[0] = 0; b[1] = i; b[2] = 2843 - 621 + i * (1242.0 / N); b[3] = 368; b[4] = 300; b[5] = 500;
        }
        double state[CARDLUA_STATE_COUNT] = {2843, 0, W, H, 6100, H, 0, 0, 0, 0, 0};
        for (int c = 0; c < calls; c++) {
            if (cardlua_transform(h, state, input, N, output) != CARDLUA_OK) return fail(h, "transform");
            sum += output[CARDLUA_OUT_M11];
        }
    }
    printf("%g\n", sum);
    cardlua_close(h);
    free(prelude);
    free(script);
    return 0;
}
