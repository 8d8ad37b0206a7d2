/* diff.h - what changed between two versions of an entity file or of a
 * world, key by key, and the three-way merge of an entity file: the review
 * of pending changes in the inspector and `juliet diff` are the one diff,
 * the JavaScript API's textMerge and `juliet merge` the one merge.
 *
 * Texts are compared as `.jasset` key/value entries, not as lines: a key
 * whose value changed is one change `key old -> new`, wherever it stands in
 * the file. Worlds are compared through the canonical text of each entity
 * (jl_world_write_entity), so formatting alone ("1.50" against "1.5") is
 * never a change. */
#ifndef JULIET_DIFF_H
#define JULIET_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "status.h"
#include "world.h"

/* One key of a file whose value differs. old_value is NULL for a key only
 * the newer text has, new_value NULL for one only the older has. Pointers
 * into the compared texts, valid during the callback. */
typedef struct jl_key_change {
    const char *key;
    const char *old_value;
    const char *new_value;
    uint32_t key_size;
    uint32_t old_size;
    uint32_t new_size;
} jl_key_change;

/* Called for each change; a status other than JL_OK stops the walk and is
 * returned by the diff. */
typedef jl_status jl_key_change_fn(void *ctx, const jl_key_change *change);

/* Compares the .jasset texts old_text and new_text key by key: visits the
 * keys of new_text in its order (those new, or whose value differs), then
 * the keys only old_text has, in its order. *changes (may be NULL) gets the
 * count. Tokenizing takes memory from scratch, given back before return.
 * A text that does not tokenize: JL_ERR_PARSE, with err naming old_path or
 * new_path (either may be NULL), line and column. */
jl_status jl_text_diff(const char *old_text, size_t old_size, const char *old_path, const char *new_text,
                       size_t new_size, const char *new_path, jl_arena *scratch, jl_key_change_fn *visit, void *ctx,
                       uint32_t *changes, jl_error *err);

/* ---- merge ---- */

/* Which side a conflicting key takes. */
typedef enum jl_merge_side {
    JL_MERGE_OURS = 0,
    JL_MERGE_THEIRS,
} jl_merge_side;

/* A key both sides changed from base, to different values. A value is NULL
 * where that text lacks the key (base: both added it; ours or theirs:
 * removed it while the other changed it). Pointers into the merged texts,
 * valid during the callback. */
typedef struct jl_key_conflict {
    const char *key;
    const char *base_value;
    const char *ours_value;
    const char *theirs_value;
    uint32_t key_size;
    uint32_t base_size;
    uint32_t ours_size;
    uint32_t theirs_size;
} jl_key_conflict;

/* Decides a conflict: *keep, JL_MERGE_OURS on entry, gets the side whose
 * value (or absence) the merged text takes. A status other than JL_OK
 * stops the merge and is returned by it. */
typedef jl_status jl_key_conflict_fn(void *ctx, const jl_key_conflict *conflict, jl_merge_side *keep);

/* One version of a .jasset text, and the path its errors name (may be
 * NULL). */
typedef struct jl_merge_input {
    const char *text;
    size_t size;
    const char *path;
} jl_merge_input;

/* Merges the .jasset texts ours and theirs, both changed from base, key by
 * key; values are compared as jl_text_diff compares them (the token text,
 * without the blanks around it). For each key: if ours and theirs have the
 * same value (or both lack it), that; else if ours has base's, theirs' (a
 * key theirs added, changed or removed); else if theirs has base's, ours';
 * else a conflict, visited by resolve (NULL: every conflict keeps ours).
 *
 * The merged text holds ours' keys in ours' order; a key only theirs has
 * comes right after the nearest key before it in theirs that ours has too
 * (at the start if there is none), so keys theirs added next to each other
 * stay together. Conflicts are visited in that order. Each key is written
 * as the engine writes a file, "; key\nvalue\n", the value as compared:
 * the merge of canonical texts is canonical, and formatting alone (blanks,
 * CRLF, blank lines) never conflicts.
 *
 * On JL_OK, *text and *size get the merged text, pushed on out (not
 * NUL-terminated; out may be scratch: the text then starts where scratch's
 * top was at the call), and *conflicts (may be NULL) the number of
 * conflicts. Tokenizing takes memory from scratch, given back before
 * return. On failure out and scratch are as before: JL_ERR_PARSE for a
 * text that does not tokenize (err, which may be NULL, names its path,
 * line and column), JL_ERR_OUT_OF_MEMORY, or what resolve returned. */
jl_status jl_text_merge(const jl_merge_input *base, const jl_merge_input *ours, const jl_merge_input *theirs,
                        jl_arena *scratch, jl_arena *out, jl_key_conflict_fn *resolve, void *ctx, const char **text,
                        size_t *size, uint32_t *conflicts, jl_error *err);

/* ---- worlds ---- */

typedef enum jl_change_kind {
    JL_CHANGE_ADDED,    /* only in the newer world */
    JL_CHANGE_REMOVED,  /* only in the older world */
    JL_CHANGE_MODIFIED, /* in both, with different texts */
} jl_change_kind;

/* An entity, or the world settings (id 0, class_name NULL), that differs
 * between two worlds. The texts are canonical .jasset texts, NULL on the
 * side it is missing from, valid during the callback. */
typedef struct jl_entity_change {
    jl_change_kind kind;
    uint64_t id;
    const char *class_name; /* of the newer side, the older for a removal */
    const char *old_text;
    const char *new_text;
    size_t old_size;
    size_t new_size;
} jl_entity_change;

typedef jl_status jl_entity_change_fn(void *ctx, const jl_entity_change *change);

/* Compares two loaded worlds: visits the settings if they differ, then
 * every entity that differs, in ascending ID order. Reads both worlds'
 * entities through jl_world_write_entity (which uses each world's scratch),
 * lists their IDs in scratch (given back before return). *changes (may be
 * NULL) gets the count. JL_OK, JL_ERR_OUT_OF_MEMORY, or what visit
 * returned. Files that failed to load are not entities: check each world's
 * diagnostics before trusting "no change". */
jl_status jl_world_diff(jl_world *older, jl_world *newer, jl_arena *scratch, jl_entity_change_fn *visit, void *ctx,
                        uint32_t *changes);

#endif
