// The only door between Swift and Lua.
//
// Lua raises errors with longjmp, and unwinding a Swift frame that way is undefined
// behaviour. So Swift never calls the Lua API itself: it calls these functions, each of
// which does its Lua work inside lua_pcall and reports a status. Nothing here raises.
// (the audit of every entry point is in Sources/CLuaShims/README.md.)
#ifndef CARDLUA_SHIMS_H
#define CARDLUA_SHIMS_H

#include <stddef.h>

typedef struct cardlua_host cardlua_host;

/// Input per item in a frame: section, item, center x, center y, width, height.
#define CARDLUA_IN_STRIDE 6
/// Output per item: see CARDLUA_OUT_* offsets (slots 24… at the end of this file).
#define CARDLUA_OUT_STRIDE 34
#define CARDLUA_OUT_CENTER_X 0
#define CARDLUA_OUT_CENTER_Y 1
#define CARDLUA_OUT_WIDTH 2
#define CARDLUA_OUT_HEIGHT 3
#define CARDLUA_OUT_M11 4 /* 16 fields m11…m44 from here */
#define CARDLUA_OUT_ALPHA 20
#define CARDLUA_OUT_ZINDEX 21
#define CARDLUA_OUT_HIDDEN 22
#define CARDLUA_OUT_CHANGED 23 /* nonzero when the script changed anything */

/// Flow configuration as numbers: see CARDLUA_CFG_* offsets.
#define CARDLUA_CFG_COUNT 20
#define CARDLUA_CFG_DIRECTION 0 /* 0 vertical, 1 horizontal */
#define CARDLUA_CFG_ITEM_W 1
#define CARDLUA_CFG_ITEM_H 2
#define CARDLUA_CFG_INSET_TOP 3
#define CARDLUA_CFG_INSET_LEFT 4
#define CARDLUA_CFG_INSET_BOTTOM 5
#define CARDLUA_CFG_INSET_RIGHT 6
#define CARDLUA_CFG_LINE_SPACING 7
#define CARDLUA_CFG_INTERITEM_SPACING 8
#define CARDLUA_CFG_HEADER_W 9
#define CARDLUA_CFG_HEADER_H 10
#define CARDLUA_CFG_FOOTER_W 11
#define CARDLUA_CFG_FOOTER_H 12
#define CARDLUA_CFG_DECELERATION 13
#define CARDLUA_CFG_PAGING 14
#define CARDLUA_CFG_WRAPS 15           /* layout.wraps: 0 or 1 */
#define CARDLUA_CFG_FLIPS_RTL 16       /* layout.flipsHorizontallyInOppositeLayoutDirection */
#define CARDLUA_CFG_BOUNCES 17         /* collectionView.bounces */
#define CARDLUA_CFG_ALWAYS_BOUNCE_H 18 /* collectionView.alwaysBounceHorizontal */
#define CARDLUA_CFG_ALWAYS_BOUNCE_V 19 /* collectionView.alwaysBounceVertical */

/// The keys of the layout configuration, in CARDLUA_CFG_* order (the prelude's
/// readLayout fills the array in this order: LAYOUT_CONFIG_ORDER in layout.lua, checked
/// against this by ConstantsTests). NULL past CARDLUA_CFG_COUNT - 1.
const char *cardlua_config_key(int index);

/// Scenario step codes, as the prelude hands them over (STEP_CODE in scenarios.lua,
/// checked by ConstantsTests; LuaEffect.scenario(named:) switches on these).
#define CARDLUA_STEP_JUMP 1
#define CARDLUA_STEP_DRAG 2
#define CARDLUA_STEP_FLING 3
#define CARDLUA_STEP_WAIT 4
#define CARDLUA_STEP_SCROLL_TO_ITEM 5
#define CARDLUA_STEP_RESIZE 6
#define CARDLUA_STEP_AUTOPLAY 7 /* { autoplay = S, duration = D } (contract v2) */

/// The step kind of a code ("jump" for CARDLUA_STEP_JUMP), NULL for another number.
const char *cardlua_step_name(int code);

/// The keys of `attributes` the contract knows, from index 0 (NULL past the last);
/// *writable is set to whether a script may assign it (indexPath and bounds are read only).
/// The one list: check mode's unknown-key test, the hot path's slots (checked when a
/// state opens) and the checker's suggestions all come from it.
const char *cardlua_attribute_key(int index, int *writable);

/// What the scroll view is doing, as numbers: see CARDLUA_STATE_* offsets.
#define CARDLUA_STATE_COUNT 11
#define CARDLUA_STATE_OFFSET_X 0
#define CARDLUA_STATE_OFFSET_Y 1
#define CARDLUA_STATE_VIEW_W 2
#define CARDLUA_STATE_VIEW_H 3
#define CARDLUA_STATE_CONTENT_W 4
#define CARDLUA_STATE_CONTENT_H 5
#define CARDLUA_STATE_TIME 6
#define CARDLUA_STATE_TRACKING 7
#define CARDLUA_STATE_DRAGGING 8
#define CARDLUA_STATE_DECELERATING 9
#define CARDLUA_STATE_RTL 10 /* effectiveUserInterfaceLayoutDirection is rightToLeft */

/// Status of an entry point. Entry points do not nest: one called while a call of the
/// same state is under way (from a log or query function of the host's) returns
/// CARDLUA_ERROR at once ("re-entered the effect during a call"), touching nothing of the
/// call under way, which goes on. The setters only store their values and may be called
/// at any time.
#define CARDLUA_OK 0
#define CARDLUA_ERROR 1   /* the script failed: message in cardlua_message() */
#define CARDLUA_LIMIT 2   /* a limit stopped the script: the state is no longer usable */

/// The most items one layout:layoutAttributesForElements query returns; a rect that
/// meets more is an error (the host's work and memory for a query stay bounded).
#define CARDLUA_QUERY_MAX 10000

/// The base-layout query a script reaches through layout:layoutAttributesForElements.
/// Fills up to `capacity` items (CARDLUA_IN_STRIDE numbers each) and returns how many
/// items meet the rect (possibly more than capacity: the caller grows and asks again),
/// counting at most CARDLUA_QUERY_MAX + 1 (it stops enumerating there).
/// Must not raise, throw or call into Lua.
typedef long (*cardlua_query_fn)(void *context, double x, double y, double width,
                                 double height, double *buffer, long capacity);

/// A fresh sandboxed state with the prelude loaded: `prelude` is the compiled chunk
/// (lua_dump of the prelude's text, as embed-text makes it); `budget_steps` is the budget
/// per callback call, in steps (an estimate of VM instructions: see README.md). NULL when
/// out of memory or when the prelude fails (a bug): then *status_out, if given, says
/// which (CARDLUA_LIMIT: out of memory, the memory limit too small for the prelude;
/// CARDLUA_ERROR: the prelude failed; CARDLUA_OK when a state is returned) and
/// *message_out, if given, receives a static description.
cardlua_host *cardlua_open(const char *prelude, size_t prelude_length, size_t memory_limit,
                           long long budget_steps, int *status_out, const char **message_out);
void cardlua_close(cardlua_host *host);

/// The default time limit per callback call, in milliseconds: a backstop for C work the
/// budget cannot see; an honest effect needs microseconds per call.
#define CARDLUA_DEFAULT_TIME_LIMIT_MS 2000

/// Sets the time limit per callback call (seconds; 0 or less: none). Checked at the
/// checkpoints and whenever the count hook fires, and watched from a thread of the
/// host's (made at the first call with a time limit; joined by cardlua_close), which
/// stops a call that met neither; reaching it is a limit (CARDLUA_LIMIT), like the budget.
void cardlua_set_time_limit(cardlua_host *host, double seconds);

/// The longest run time limit, in seconds (about 31 years): a longer finite limit is this
/// one, so that the deadline in nanoseconds stays inside a long long.
#define CARDLUA_MAX_RUN_TIME_SECONDS 1e9

/// Sets the time limit of the whole run (seconds; 0 or less, NaN or infinity: none; past
/// CARDLUA_MAX_RUN_TIME_SECONDS: that) and starts its clock: every later call is stopped
/// (CARDLUA_LIMIT) once that much wall-clock time has passed.
void cardlua_set_run_time_limit(cardlua_host *host, double seconds);

/// Sets the function that answers layout:layoutAttributesForElements(rect).
void cardlua_set_query(cardlua_host *host, cardlua_query_fn query, void *context);

/// Receives one line of a script's print or warn output, without its newline and with
/// control characters escaped ("name: text", "name: warning: text"); `line` is valid
/// only during the call. Called inside a protected Lua call: must not raise, throw,
/// longjmp or call into Lua.
typedef void (*cardlua_log_fn)(void *context, const char *line, size_t length);

/// Sends print and warn lines to `log` instead of standard error (NULL: standard error).
void cardlua_set_log(cardlua_host *host, cardlua_log_fn log, void *context);

/// In check mode, keys written on `attributes` that the contract does not know are
/// passed to the prelude's I.noteAttributeKey(key, item) after each transform call.
void cardlua_set_check_mode(cardlua_host *host, int on);

/// The longest script text, in bytes (8 MiB): a longer one is refused before it is
/// parsed (and a file before it is read: LuaEffect, ScriptFile.swift). No effect is near
/// it; loading, unlike running, cannot be interrupted by the budget or the clock.
#define CARDLUA_SCRIPT_MAX_BYTES ((size_t)8 << 20)

/// Loads and runs a script (text only) named `chunkname` (shown in messages as given).
/// Parsing allocates through the state's allocator, so it counts against the memory
/// limit; a text longer than CARDLUA_SCRIPT_MAX_BYTES is an error (CARDLUA_ERROR).
int cardlua_load_script(cardlua_host *host, const char *source, size_t length,
                        const char *chunkname);

/// The Lua text `text` with budget checkpoints at each loop body, function body and
/// `goto` (checkpoints.c), as cardlua loads scripts and compiles its prelude: a block of
/// `*out_length` bytes plus a NUL, to free(); the line numbers are the text's. NULL when the
/// text is left as it is: it uses a checkpoint's name, its blocks do not balance (it will
/// not compile), it would grow past four times its length (and 4 KiB), or memory ran out.
char *cardlua_instrument(const char *text, size_t length, size_t *out_length);

/// The global an instrumented chunk takes its budget function from (and clears) as it starts.
#define CARDLUA_CHECKPOINT_GLOBAL "__cardlua_checkpoint"

/// Whether the script defined a global function of that name (after loading).
int cardlua_has_function(cardlua_host *host, const char *name);

/// The last error's text: one line, without location or context (cardlua_last_error has
/// them), then details (the script's traceback), possibly none.
const char *cardlua_message(cardlua_host *host);

/// Which limit stopped the script (cardlua_error.limit).
#define CARDLUA_LIMIT_NONE 0
#define CARDLUA_LIMIT_INSTRUCTIONS 1  /* the budget of steps */
#define CARDLUA_LIMIT_MEMORY 2
#define CARDLUA_LIMIT_TIME 3      /* per call */
#define CARDLUA_LIMIT_RUN_TIME 4  /* the whole run */
#define CARDLUA_LIMIT_OTHER 5     /* the state was closed by an earlier limit, or the like */

/// The last error, as parts: the host formats them once (`file:line: callback: item N:
/// text`). The strings belong to the host and stay valid until the next call.
typedef struct {
    int line;              /* the script's line; 0 when no line of the script applies */
    const char *callback;  /* "transform", "prepare"…, or "" outside a callback */
    int has_item;          /* whether `item` is set */
    long item;             /* the item number (transform), as the script sees it */
    const char *field;     /* the attributes key whose value was bad ("alpha", "center"), or "" */
    int limit;             /* CARDLUA_LIMIT_* */
    const char *text;      /* the message: one line, escaped and bounded */
    const char *details;   /* the script's traceback and the frame, or "" */
} cardlua_error;

/// The parts of the last error (after an entry point returned CARDLUA_ERROR or _LIMIT).
cardlua_error cardlua_last_error(cardlua_host *host);

/// Calls prepare(layout) if defined, then validates the layout and writes it to
/// `config_out` (CARDLUA_CFG_COUNT numbers).
int cardlua_prepare(cardlua_host *host, const double *state, double *config_out);

/// Runs transform(attributes, layout) once per item of `input` (count items of
/// CARDLUA_IN_STRIDE numbers), writing CARDLUA_OUT_STRIDE numbers per item to `output`
/// (for an item the script left untouched, only CARDLUA_OUT_CHANGED, as 0).
int cardlua_transform(cardlua_host *host, const double *state, const double *input,
                      long count, double *output);

/// Calls targetContentOffset(proposed, velocity, layout); writes the point to result[0..1].
/// Without the callback the result is the proposal.
int cardlua_target_content_offset(cardlua_host *host, const double *state,
                                  double proposed_x, double proposed_y,
                                  double velocity_x, double velocity_y, double *result);

/// Calls the prelude's internal function `name` with a string argument; it returns an
/// array of numbers, copied to `output` (at most `capacity`). Returns the status; the
/// array's length goes to *count (which may exceed capacity: ask again, larger).
int cardlua_call_internal(cardlua_host *host, const char *name, const char *argument,
                          double *output, long capacity, long *count);

/// Like cardlua_call_internal, for a function returning one string: copied into a
/// buffer owned by the host, valid until the next call. NULL on error.
const char *cardlua_call_internal_string(cardlua_host *host, const char *name,
                                         const char *argument, int *status);

/// Memory the state holds now, in bytes.
size_t cardlua_memory_in_use(cardlua_host *host);

/// Whether a call of this state is under way (the caller is a callback of the host's):
/// then, as any entry point would, it sets the last error to the re-entry refusal and
/// returns 1. A host checks it before touching what the call under way is using.
int cardlua_in_call(cardlua_host *host);

/// Whether the state counts its budget on checkpoints with the count hook off (1), or
/// runs under the count hook (0: a prelude or a script without checkpoints, past half the
/// memory cap, or after a limit). For tests.
int cardlua_counts_on_checkpoints(cardlua_host *host);

/// For tests of the watchdog: with `on`, the scripts loaded next go in as they are, with
/// no checkpoint, while a state that counts on checkpoints keeps the count hook off: a
/// loop in them meets neither, as a loop the scanner missed would, and only the watchdog
/// (the time limits enforced from its own thread) can stop it.
void cardlua_skip_checkpoints(cardlua_host *host, int on);

/// For measurements (CheckpointStepTests): with `on`, the budget is counted exactly, not by
/// periods (each checkpoint charges its own steps as it runs; the count hook, where it
/// counts, fires at every instruction), and the charges add up from 0 over every call
/// until it is turned off. Limits and messages are unchanged; only the speed is not.
void cardlua_measure_budget(cardlua_host *host, int on);

/// What the budget was charged since cardlua_measure_budget: steps at checkpoints, VM
/// instructions counted by the count hook (a script or prelude without checkpoints), and
/// C work (allocation, the library functions' fees, the queries). Any pointer may be NULL.
void cardlua_budget_used(const cardlua_host *host, long long *steps, long long *instructions,
                         long long *host_work);

/// The collector's mode: 1 generational, 0 incremental (the mode between calls: a sizing
/// call's generational mode ends with it, however it ends), -1 after a limit (no state)
/// or during a call. For tests.
int cardlua_collector_mode(cardlua_host *host);

/// Calls an empty Lua function `count` times, each in its own lua_pcall: the floor of any
/// call from the host (the benchmark's reference). Returns the status.
int cardlua_bench_empty_pcalls(cardlua_host *host, long count);

// MARK: - Contract v2: the layout's own element query; facing and appearance (elements.c)

/// Output slots after CARDLUA_OUT_CHANGED: facing and appearance. Written only when
/// CARDLUA_OUT_EXTRAS is nonzero (the item changed one of them); otherwise the host keeps
/// the item's own values. A v1 item that sets none of them costs nothing more.
#define CARDLUA_OUT_EXTRAS 24         /* nonzero: the slots below are written */
#define CARDLUA_OUT_DOUBLE_SIDED 25   /* isDoubleSided: 1 or 0 */
#define CARDLUA_OUT_APPEARANCE 26     /* nonzero: the item has an appearance (the slots below) */
#define CARDLUA_OUT_CORNER_RADIUS 27
#define CARDLUA_OUT_SHADOW_OPACITY 28
#define CARDLUA_OUT_SHADOW_RADIUS 29
#define CARDLUA_OUT_SHADOW_OFFSET_W 30
#define CARDLUA_OUT_SHADOW_OFFSET_H 31
#define CARDLUA_OUT_BACKGROUND 32     /* 0xRRGGBB, or -1: none */
#define CARDLUA_OUT_BLUR_RADIUS 33

/// Like cardlua_transform, each item starting from `starts` (CARDLUA_OUT_STRIDE numbers per
/// item, as the output, every slot set; CARDLUA_OUT_EXTRAS 0 means the default facing and
/// no appearance) instead of the defaults (identity, alpha 1, zIndex 0, shown, double
/// sided, no appearance): what `attributes` reads before the script sets a key, and what
/// a key the script leaves keeps. NULL starts: cardlua_transform.
int cardlua_transform_from(cardlua_host *host, const double *state, const double *input,
                           const double *starts, long count, double *output);

/// One element the script's layoutAttributesForElements returned: section, item, then an
/// output record (CARDLUA_OUT_*, every slot but the extras always written).
#define CARDLUA_ELEMENT_STRIDE (2 + CARDLUA_OUT_STRIDE)

/// Calls the script's global layoutAttributesForElements(rect, layout) with the rect
/// (x, y, width, height: the visible rect, for a frame) and reads back the elements it returns, validated (a known item
/// each, no item twice, at most CARDLUA_QUERY_MAX). Returns the records
/// (CARDLUA_ELEMENT_STRIDE numbers each) in a buffer the host owns, valid until the next
/// call, and their number in *count: -1 when the script defines no such function (then
/// the host uses its own query). NULL and *count 0 on error; *status is the status.
const double *cardlua_layout_elements(cardlua_host *host, const double *state, double x, double y,
                                      double width, double height, long *count, int *status);

/// The single-item query behind layout:layoutAttributesForItem(indexPath): fills `base`
/// (CARDLUA_IN_STRIDE numbers) and returns 1 when the layout has the item; returns 0 when
/// it has not, with *sections the number of sections and *items the number of items in
/// `section` (-1: no such section); returns -1 when the host cannot look up single
/// items. Must not raise, throw or call into Lua.
typedef int (*cardlua_item_fn)(void *context, long section, long item, double *base,
                               long *sections, long *items);

/// Sets the function that answers layout:layoutAttributesForItem(indexPath).
void cardlua_set_item_query(cardlua_host *host, cardlua_item_fn query, void *context);

// MARK: - Sections and sizes (sizes.c)

/// Hands the collection view's item counts (`sections` numbers) to the script:
/// `layout.collectionView.numberOfSections` and `collectionView:numberOfItems(section)`.
/// Called before cardlua_prepare (the counts hold until the next call).
int cardlua_set_item_counts(cardlua_host *host, const long *counts, long sections);

/// Calls sizeForItem(indexPath, layout) for every item of every section (`counts`), in
/// index-path order, in ONE protected call, writing width and height (2 numbers per item)
/// to `sizes`, which the caller owns (2 × the item total). One IndexPath table is reused
/// for every item. The budget is per item; the per-call time limit covers each block of
/// 10 000 items. Does nothing without the callback.
int cardlua_item_sizes(cardlua_host *host, const double *state, const long *counts, long sections,
                       double *sizes);

/// Calls `name`(section, layout) for every section in one protected call: for
/// "insetForSection" 4 numbers per section (top, left, bottom, right) to `out`; for
/// "referenceSizeForHeader" / "referenceSizeForFooter" 2 (width, height).
int cardlua_section_metrics(cardlua_host *host, const double *state, const char *name, long sections,
                            double *out);

// MARK: - Records from the prelude (records.c)

// What the prelude's internals hand the host as Lua tables, read field by field in C
// (under lua_pcall) into C records: Swift reads named fields, never splits a string.
// Each result is one block from malloc holding the records and their strings; the caller
// frees it with cardlua_free_records (NULL on error: the status says why).

/// A key a script wrote on `attributes` that the contract does not know (check mode),
/// with the number of the item it was first written for.
typedef struct {
    const char *key;
    long item;
} cardlua_key_note;

/// A list of records and how many.
typedef struct {
    long count;
    const cardlua_key_note *notes;
} cardlua_key_notes;

/// The keys noted on `attributes` so far, in the order first written (the prelude's
/// I.attributeNotes).
cardlua_key_notes *cardlua_attribute_notes(cardlua_host *host, int *status);

/// A list of strings and how many.
typedef struct {
    long count;
    const char *const *items;
} cardlua_strings;

/// Calls the prelude's internal `name` (no argument), which returns a list of strings:
/// "layoutNotes" (the unknown keys set on the layout, as written: "layout.itemsize"),
/// "scenarioNames" (the script's scenarios, sorted), "globalNames" (the API's global
/// names, for a did-you-mean).
cardlua_strings *cardlua_internal_strings(cardlua_host *host, const char *name, int *status);

/// The kinds of a tweakable (cardlua_param.kind).
#define CARDLUA_PARAM_NUMBER 0
#define CARDLUA_PARAM_BOOLEAN 1
#define CARDLUA_PARAM_OPTIONS 2

/// One tweakable the script declares in `params`, checked by the prelude.
typedef struct {
    const char *name;
    int kind;                /* CARDLUA_PARAM_* */
    double value;            /* number: the declared value; boolean: 1 (true) or 0 */
    double minimum;          /* number only */
    double maximum;          /* number only */
    int has_step;            /* number only: whether `step` is given... */
    double step;             /* ...and its value */
    const char *option;      /* options: the declared value */
    const char *label;       /* NULL when the script gives none */
    long option_count;       /* options: the strings it may take, in order */
    const char *const *options;
} cardlua_param;

/// A list of tweakables and how many.
typedef struct {
    long count;
    const cardlua_param *params;
} cardlua_params;

/// Checks the script's `params` declarations (an error names the bad entry) and makes the
/// global a table of plain values; returns the declarations sorted by name (the prelude's
/// I.params). None declared: count 0.
cardlua_params *cardlua_read_params(cardlua_host *host, int *status);

/// One override for cardlua_set_params: a number (a whole one below 1e15 in magnitude
/// becomes a Lua integer), a boolean (number 1 or 0) or an option.
typedef struct {
    const char *name;
    int kind;                /* CARDLUA_PARAM_* */
    double number;           /* number and boolean */
    const char *option;      /* options */
} cardlua_param_setting;

/// Sets tweakables (the prelude's I.setParams): each name to its value, in order. A name
/// the script does not declare, or a value its declaration does not take, is an error.
int cardlua_set_params(cardlua_host *host, const cardlua_param_setting *settings, long count);

/// Frees a block returned by cardlua_attribute_notes, cardlua_internal_strings or
/// cardlua_read_params (NULL: nothing).
void cardlua_free_records(void *block);

#endif
