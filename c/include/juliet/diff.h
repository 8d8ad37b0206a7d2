/* diff.h - what changed between two versions of an entity file or of a
 * world, key by key: the review of pending changes in the inspector and
 * `juliet diff` are this one implementation.
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
