/* changes.h - change links: the edits made to a world (entities changed,
 * added and deleted, and the settings) as a short string for a URL, with a
 * fingerprint of the files they were made against.
 *
 *   edits --jl_changes_encode--> bytes --deflate-raw--> --jl_base64url_encode--> text
 *   text --jl_base64url_decode--> --inflate-raw (capped)--> bytes --jl_changes_decode--> jl_changes
 *   jl_changes --jl_changes_apply--> a world
 *
 * The pipeline around the codec is the snapshot's (snapshot.h): deflate
 * outside, a link is `BASE#TEXT`, whoever inflates stops at
 * JL_CHANGES_MAX_BYTES. The byte stream, version 1, is described in
 * docs/format.md ("Change links"). A changed entity carries only the keys
 * whose value differs (jl_text_diff), as the text a .jasset file holds, so
 * every field type travels and the engine's own parser applies them.
 *
 * Each changed or deleted entity (and changed settings) carries the low 32
 * bits of the print of its file's canonical text the edits were made from
 * (jl_world_file_print): an entity whose file now holds something else was
 * changed since, and applying over it is a conflict, never silent.
 * Decoding treats its input as hostile, as the snapshot decoder does. */
#ifndef JULIET_CHANGES_H
#define JULIET_CHANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "diff.h"
#include "snapshot.h"
#include "status.h"
#include "world.h"

enum {
    JL_CHANGES_VERSION = 1,
    /* Most entities in each of the changed, added and deleted lists. */
    JL_CHANGES_MAX_ENTITIES = 1u << 20,
    /* Largest encoded (inflated) change set either side accepts. */
    JL_CHANGES_MAX_BYTES = JL_SNAPSHOT_MAX_BYTES,
    JL_CHANGES_MAX_TEXT = JL_SNAPSHOT_MAX_TEXT,
    /* Longest world name a link carries (longer ones are cut). */
    JL_CHANGES_NAME_MAX = 255,
};

/* One entity's edit, as the encoder takes it. old_text is the canonical
 * text of the entity as its file held it (jl_world_write_entity while it
 * was clean), NULL for an entity that is new; new_text its canonical text
 * now, NULL for one deleted. id 0 stands for the world settings (never
 * added or deleted). */
typedef struct jl_change_input {
    uint64_t id;
    const char *old_text;
    const char *new_text;
    size_t old_size;
    size_t new_size;
} jl_change_input;

/* Encodes the edits inputs[0, count) of the world named world_name (cut
 * at JL_CHANGES_NAME_MAX bytes; NULL: no name) into out, pushed on arena:
 * arena->used grows by exactly out->size, out->data is valid until the
 * arena is popped below it. Inputs may come in any order; an input whose
 * texts hold the same keys and values is left out (*count_out, may be
 * NULL, gets how many went in). Fails with JL_ERR_INVALID_ARGUMENT (an ID
 * twice, an input with neither text, settings added or deleted),
 * JL_ERR_PARSE (a text that does not tokenize: err names the entity's
 * file, line and column), JL_ERR_CAPACITY past the caps above or
 * JL_ERR_OUT_OF_MEMORY; the arena is then as before. */
jl_status jl_changes_encode(const char *world_name, const jl_change_input *inputs, uint32_t count, jl_arena *arena,
                            jl_snapshot_bytes *out, uint32_t *count_out, jl_error *err);

/* The edits that turn world older into world newer (jl_world_diff),
 * encoded as jl_changes_encode does, each print that of older's text.
 * Texts are copied to arena, under out. Failures as jl_changes_encode. */
jl_status jl_changes_encode_worlds(const char *world_name, jl_world *older, jl_world *newer, jl_arena *arena,
                                   jl_snapshot_bytes *out, uint32_t *count_out, jl_error *err);

/* One key of a changed entity: its value in the edited text, or removed
 * (the edited text lacks the key; value NULL). Pointers into the decoded
 * bytes. */
typedef struct jl_change_field {
    const char *key;
    const char *value;
    uint32_t key_size;
    uint32_t value_size;
} jl_change_field;

/* An entity of a decoded change set. print: the low 32 bits of its file's
 * print when the edits were made (0 for an added one). A changed entity
 * (or the settings, id 0) has fields; an added one the text of its whole
 * file; a deleted one neither. */
typedef struct jl_change_entity {
    uint64_t id;
    uint32_t print;
    uint32_t field_count;
    const jl_change_field *fields;
    const char *text;
    size_t text_size;
} jl_change_entity;

/* A decoded change set; every pointer points into the decoded bytes or the
 * decoder's arena (jl_changes_decode). Lists are by ascending ID. */
typedef struct jl_changes {
    const char *world; /* the world's name (not NUL-terminated), world_size bytes */
    uint32_t world_size;
    bool has_settings;
    jl_change_entity settings;
    const jl_change_entity *changed;
    const jl_change_entity *added;
    const jl_change_entity *deleted;
    uint32_t changed_count;
    uint32_t added_count;
    uint32_t deleted_count;
} jl_changes;

/* Decodes size bytes of data into out, its lists pushed on arena (valid
 * until the arena is popped below them; the strings point into data, which
 * must outlive out). Checks magic, version and CRC before anything else,
 * bounds every count by what is left, and checks each key is a key
 * ([A-Za-z0-9_]) and no value or added text holds a line break where a
 * file could not (a value is one line). Fails with JL_ERR_CORRUPT (err
 * names the byte offset, or says the checksum is wrong, the magic is not a
 * change link's or the version is another), JL_ERR_CAPACITY or
 * JL_ERR_OUT_OF_MEMORY; the arena is then as before. Touches no world. */
jl_status jl_changes_decode(const uint8_t *data, size_t size, jl_arena *arena, jl_changes *out, jl_error *err);

/* What applying found for one entity (or the settings, id 0). */
typedef enum jl_change_outcome {
    JL_CHANGE_APPLIED,  /* done */
    JL_CHANGE_CONFLICT, /* its file changed since the link was made, or it is gone, or (added)
                           its ID is taken: not applied */
    JL_CHANGE_FAILED,   /* the engine refused the edited text (err says why): not applied */
} jl_change_outcome;

/* Visited for each entity after it was applied or not; kind is what the
 * link does to it (JL_CHANGE_MODIFIED also for the settings). */
typedef struct jl_change_report {
    jl_change_kind kind;
    jl_change_outcome outcome;
    uint64_t id;
    const jl_error *err; /* JL_CHANGE_FAILED: why; else NULL */
} jl_change_report;

typedef void jl_change_report_fn(void *ctx, const jl_change_report *report);

enum {
    /* Apply nothing when any entity conflicts (each conflict is still
     * visited). */
    JL_CHANGES_ALL_OR_NOTHING = 1u << 0,
};

/* Applies changes to world: first checks each changed and deleted entity's
 * file print against the link's (jl_world_file_print; a mismatch, a print
 * the world cannot tell or a missing entity is a conflict; a deleted entity
 * already gone is applied) and that no added ID is taken; then, unless
 * flags has JL_CHANGES_ALL_OR_NOTHING and something conflicts, applies the
 * rest: a changed entity's keys are set over its current text (keys it
 * lacks are added, removed keys dropped) and the result restored through
 * jl_world_restore_entity_text (the engine checks every value), an added
 * entity restored from its text under its ID, a deleted one removed. Each
 * entity is visited (may be NULL) in the order settings, changed, added,
 * deleted. Counts (may be NULL): applied, conflicts, failed. Edited
 * texts are made on scratch, given back before return. Returns JL_OK, or
 * JL_ERR_OUT_OF_MEMORY if scratch cannot hold an edited text (that entity
 * and those after it are not applied; those before stay). */
jl_status jl_changes_apply(jl_world *world, const jl_changes *changes, uint32_t flags, jl_arena *scratch,
                           jl_change_report_fn *visit, void *ctx, uint32_t *applied, uint32_t *conflicts,
                           uint32_t *failed);

#endif
