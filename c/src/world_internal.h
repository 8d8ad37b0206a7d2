/* world_internal.h - the world's state and what its files share (world.h
 * is the public API; outside the engine a world is an opaque pointer).
 *
 * The world is split by concern:
 *   world.c           lifetime, arenas, diagnostics, entities through the API
 *   world_settings.c  the settings' class record and defaults
 *   world_paths.c     the ID <-> file name mapping
 *   world_records.c   what the world keeps beside each entity (unknown keys)
 *   world_refs.c      reference sites seen in files, and their check
 *   world_fields.c    fields and settings as text, an entity's file text
 *   world_load.c      loading a directory and one file's text
 *   world_save.c      saving: deletions, atomic writes, the report
 *   world_save_new.c  the first save of a world into a new directory
 * Internal names carry the jli_ prefix. */
#ifndef JULIET_WORLD_INTERNAL_H
#define JULIET_WORLD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "id_map.h"
#include "juliet/archive.h"
#include "juliet/world.h"

/* What the world keeps beside an entity, indexed by base slot: the unknown
 * key lines kept verbatim from its file (in the storage arena) and the ID
 * they belong to (a slot reused by another entity does not inherit them). */
typedef struct jli_entity_record {
    uint64_t id;
    const char *text; /* unknown keys, `; key\nvalue\n`...; NULL if none */
    const char *dir;  /* world directory it was loaded from, NULL otherwise */
    uint32_t size;    /* bytes of text */
    uint32_t reserved;
} jli_entity_record;

struct jl_world {
    jl_entity_manager manager;
    jl_world_settings settings;
    bool settings_dirty;
    bool settings_read_only;  /* WorldSettings.jasset newer than this build */
    bool settings_failed;     /* WorldSettings.jasset failed to load: never rewritten */
    bool initialized;
    bool keep_temp_files;
    uint32_t lock_wait_ms;
    const jl_fs *fs;

    jl_arena self;        /* holds this struct (jl_world_new); zero for an embedded world */
    jl_arena scratch;     /* one file at a time while loading or saving */
    jl_arena storage;     /* unknown-key text, kept paths */
    jl_arena strings;     /* bytes of STRING field values (loaded or set), kept until freed */
    jl_arena records_arena;
    jli_entity_record *records; /* [manager capacity], committed as slots are used */
    uint32_t records_ready;     /* slots whose record is committed and zeroed */
    const char *settings_extra; /* unknown keys of WorldSettings.jasset */
    uint32_t settings_extra_size;
    jl_arena diag_arena;
    jl_error *diagnostics;
    uint32_t diagnostic_count;  /* stored */
    uint32_t diagnostic_total;  /* including those past JL_WORLD_MAX_DIAGNOSTICS */
    jli_id_map guarded;         /* IDs of files save never touches */
    jl_arena ref_arena;
    jl_world_ref *refs;
    uint32_t ref_count;
    jl_arena report_arena;
    jl_world_stats stats;
};

/* ---- world.c ---- */

/* Sets up a world in caller memory (jl_world_new does it in an arena of
 * its own; tests embed one). Contract as jl_world_new, without the
 * allocation: on failure the world is zeroed. */
jl_status jli_world_init(jl_world *world, const jl_world_desc *desc);

/* Releases what jli_world_init reserved. Safe twice and on a zeroed world. */
void jli_world_shutdown(jl_world *world);

/* Stores a diagnostic (counted, not stored, past JL_WORLD_MAX_DIAGNOSTICS). */
void jli_world_add_diagnostic(jl_world *world, const jl_error *e);

/* A NUL-terminated copy of s in the storage arena, kept until shutdown;
 * NULL if the arena is full. */
const char *jli_world_store_string(jl_world *world, const char *s);

/* ---- world_settings.c ---- */

/* Sets settings to the defaults of jl_world_settings_class. */
void jli_world_settings_defaults(jl_world_settings *settings);

/* ---- world_paths.c ---- */

/* The file name of entity id in Entities/: "<decimal id>.jasset" into out
 * (at least JLI_ENTITY_FILE_NAME_MAX bytes, NUL-terminated). */
enum { JLI_ENTITY_FILE_NAME_MAX = 32 };
void jli_entity_file_name(char *out, uint64_t id);

/* The decimal ID a file name stands for ("123.jasset" -> 123), or 0 if the
 * name is not a canonical decimal ID. */
uint64_t jli_id_of_file_name(const char *name);

/* The part of path after its last '/'. */
const char *jli_base_name(const char *path);

/* ---- world_records.c ---- */

/* The record of a base slot, committed (and zero) on first use; NULL if the
 * records arena cannot commit it. */
jli_entity_record *jli_record_of_slot(jl_world *world, uint32_t slot);

/* The record of a live entity, or NULL if the world keeps nothing for it. */
const jli_entity_record *jli_record_of(const jl_world *world, const jl_entity *entity);

/* ---- world_refs.c ---- */

/* Remembers where a loaded file (of class cls, its values at data) refers
 * to other entities, for jl_world_check_references. */
void jli_world_record_refs(jl_world *world, jl_archive *ar, const jl_class *cls, const char *path,
                           const void *data);

/* ---- world_fields.c ---- */

/* The canonical text of an entity (unknown keys included) / of the settings
 * file into ar, as save writes it. */
jl_status jli_world_write_entity_text(jl_world *world, const jl_entity *entity, jl_archive *ar);
jl_status jli_world_write_settings_text(jl_world *world, jl_archive *ar);

/* ---- world_load.c ---- */

/* Loads one entity file's text. dir: the world directory it was read from
 * (its name is then checked against the ID), NULL for text from elsewhere.
 * Contract as jl_world_load_entity_text. */
jl_status jli_world_load_entity(jl_world *world, const char *path, const char *dir, const char *text,
                                size_t size, bool mark_dirty, jl_entity **out, jl_error *err);

/* ---- world_save.c ---- */

/* Records a failure in the report: its first error, and the count. */
void jli_report_failure(jl_save_report *report, const jl_error *e);

/* Records a failed file-system operation (errno value code) in the report
 * and returns its status. */
jl_status jli_report_io(jl_save_report *report, const char *path, const char *op, int code);

#endif
