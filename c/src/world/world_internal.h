/* world_internal.h - the world's state and what its files share (world.h
 * is the public API; outside the engine a world is an opaque pointer).
 *
 * The world layer (c/src/world/) is split by concern:
 *   world.c           lifetime, arenas, entities through the API
 *   world_iter.c      walking the live entities, all or one class's
 *   world_diagnostics.c  the diagnostics loads and checks add
 *   world_read.c      reading one file of a world, its diagnostic on failure
 *   world_settings.c  the settings' class record and defaults
 *   world_paths.c     the ID <-> file name mapping
 *   world_records.c   what the world keeps beside each entity (unknown keys)
 *   world_refs.c      reference sites seen in files, and their check
 *   world_files.c     whether an entity matches its file (file prints)
 *   world_restore.c   an entity or the settings replaced by text (undo)
 *   world_text.c      an entity's or the settings' file text as saves write it
 *   world_fields.c    fields and settings as text through the API
 *   world_load.c      loading a directory and one file's text
 *   world_disk.c      whether a file on disk is still the version the world saw
 *   world_save.c      saving: deletions, atomic writes in batches, the report
 *   world_save_new.c  the first save of a world into a new directory
 *   world_opaque.c    classes made for unknown class names, their warnings
 *   world_lock.c      the directory's lock file (public API only: world_lock.h)
 *   class_file_world.c  the classes a world holds from Classes/<Name>.jclass
 * Above the world, snapshot/snapshot_world.c includes this header too.
 * Internal names carry the jli_ prefix. */
#ifndef JULIET_WORLD_INTERNAL_H
#define JULIET_WORLD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base_internal.h"
#include "class_file/class_file_internal.h"
#include "juliet/archive.h"
#include "juliet/private/world_manager.h"
#include "juliet/world.h"

/* What the world keeps beside an entity (one record per base slot) and
 * beside the settings (one record): the unknown key lines kept verbatim
 * from its file and the path its reference sites name, in one block of
 * the storage pool, and its run of reference sites in world->refs. The
 * block and the run are given back when the entity is removed or
 * reloaded (jli_record_release), so storage follows the live entities. */
typedef struct jli_entity_record {
    uint64_t id;           /* whose record it is: a reused slot does not inherit it */
    uint32_t block_at;     /* the block [path NUL][unknown keys] (jli_storage_at); 0 if none */
    uint32_t dir_at;       /* the world directory it was loaded from (jli_storage_at); 0 if none */
    uint32_t ref_first;    /* its reference sites: refs[ref_first, ref_first + ref_count) */
    uint32_t unknown_size; /* bytes of unknown key lines, after the path in the block */
    uint16_t path_size;    /* bytes of the path at the block's start, NUL included; 0 if none */
    uint16_t ref_count;
    uint8_t file;    /* jli_file_state; its print is in world->prints (jli_files_print) */
} jli_entity_record; /* 32 bytes: one per entity slot, written by every load */

/* What the world knows of the file an entity (or the settings) would be
 * saved to. An entity that is clean holds what its file holds, so the
 * print of its file is taken from the entity itself, lazily: just before
 * its first change (jli_files_before_change). That costs nothing at load
 * and gives the same answer for a file that is not in canonical form. */
typedef enum jli_file_state {
    JLI_FILE_UNKNOWN = 0, /* no file, or one it cannot be compared with: changed means dirty */
    JLI_FILE_UNPRINTED,   /* clean when loaded or made: its text now is its file's content */
    JLI_FILE_PRINTED,     /* jli_files_print is the print of its file's content */
} jli_file_state;

/* What the world saw of the file an entity (or the settings) was read from
 * or last written to: its stamp (fs.h) and, when the stamp alone cannot
 * tell a later write (racy) or does not match, the print of its bytes to
 * compare instead. Kept by slot beside the records (world->seen), given
 * back with the record. A save replaces or deletes a file only while it is
 * still this version (world_disk.c). */
typedef struct jli_file_seen {
    jl_fs_stamp stamp; /* stamp.file 0: nothing seen, nothing to compare with */
    uint64_t print;    /* jli_text_print of its bytes, 0 if not taken */
    uint32_t racy;     /* 1 if the stamp cannot tell a write in place in the same tick */
} jli_file_seen;

/* A reference site and whose record it belongs to. */
enum { JLI_SETTINGS_OWNER = UINT32_MAX }; /* owner of the settings' sites; else a base slot */
typedef struct jli_ref {
    jl_world_ref site;
    uint32_t owner;
} jli_ref;

struct jli_class_files; /* class_file_world.c */

struct jl_world {
    jl_class_registry classes;             /* the program's classes when created (jl_world_classes),
                                  then those of its class files */
    struct jli_class_files *class_files;   /* classes from class files; NULL until one loads */
    struct jli_canonical_cache *canonical; /* the canonical reader's (archive_internal.h); NULL until a load */
    jl_entity_manager manager;
    jl_world_settings settings;
    bool settings_dirty;
    bool settings_read_only; /* WorldSettings.jasset newer than this build */
    bool settings_failed;    /* WorldSettings.jasset failed to load: never rewritten */
    bool initialized;
    bool keep_temp_files;
    uint32_t lock_wait_ms;
    uint32_t save_batch_files; /* files per batch of a save; 0: JLI_SAVE_BATCH_FILES (tests set fewer) */
    const jl_fs *fs;

    jl_arena self;          /* holds this struct (jl_world_new); zero for an embedded world */
    jl_arena scratch;       /* one file at a time while loading or saving */
    jli_block_pool storage; /* records' blocks, directory names; at most 4 GiB (offsets) */
    jl_arena strings;       /* bytes of STRING field values (loaded or set), kept until freed */
    jl_arena records_arena;
    jli_entity_record *records; /* [manager capacity], committed as slots are used */
    uint32_t records_ready;     /* slots whose record was ever handed out; the rest are zero */
    jli_entity_record settings_record;
    jl_arena prints_arena;
    uint64_t *prints; /* [manager capacity] file prints by slot, committed on first use */
    uint32_t prints_ready;
    uint64_t settings_print;
    jl_arena seen_arena;
    jli_file_seen *seen; /* [manager capacity] files seen, by slot, committed as loads need */
    uint32_t seen_ready;
    jli_file_seen settings_seen;
    jl_arena removed_seen_arena; /* jli_removed_seen records of removed entities, appended */
    jli_id_map removed_seen;     /* IDs pending deletion -> offset + 1 of their record there */
    uint32_t save_dir_at;        /* the last directory saved to (jli_storage_at), 0 if none */
    jl_arena diag_arena;
    jl_error *diagnostics;
    uint32_t diagnostic_count; /* stored */
    uint32_t diagnostic_total; /* including those past JL_WORLD_MAX_DIAGNOSTICS */
    jli_id_map guarded;        /* IDs of files save never touches */
    jli_id_map removed;        /* IDs removed through the world whose files are pending
                                   deletion -> their file's print (0: none) */
    jl_arena ref_arena;
    jli_ref *refs; /* runs of reference sites, one per record, in load order */
    uint32_t ref_count;
    jl_arena report_arena;
    jl_world_stats stats;
    jl_arena warn_arena;    /* warnings of the loads (world_opaque.c) */
    uint32_t warning_count; /* stored */
    uint32_t warning_total; /* including those the arena had no room for */
};

/* Memory of the storage pool by offset + 1 (what records keep: half the
 * size of a pointer), 0 standing for none. */
static inline char *jli_storage_at(const jl_world *world, uint32_t at)
{
    return at ? (char *)world->storage.arena.base + (at - 1) : NULL;
}
static inline uint32_t jli_storage_offset(const jl_world *world, const void *p)
{
    return p ? (uint32_t)((const char *)p - (const char *)world->storage.arena.base) + 1 : 0;
}

/* Commits a per-slot array of arena (elements of size bytes) up to slot;
 * *ready counts its committed elements. false if it cannot be committed. */
static inline bool jli_slot_ready(jl_arena *arena, uint32_t *ready, uint32_t slot, size_t size)
{
    if (slot < *ready) return true;
    if (jl_arena_commit_to(arena, ((size_t)slot + 1) * size) != JL_OK) return false;
    *ready = (uint32_t)(arena->committed / size);
    return true;
}

/* The unknown key lines of a record (`; key\nvalue\n`...), NULL if none. */
static inline const char *jli_record_unknown(const jl_world *world, const jli_entity_record *r)
{
    return r->unknown_size ? jli_storage_at(world, r->block_at) + r->path_size : NULL;
}

/* ---- world.c ---- */

/* Sets up a world in caller memory (jl_world_new does it in an arena of
 * its own; tests embed one). Contract as jl_world_new, without the
 * allocation: on failure the world is zeroed. */
jl_status jli_world_init(jl_world *world, const jl_world_desc *desc);

/* Releases what jli_world_init reserved. Safe twice and on a zeroed world. */
void jli_world_shutdown(jl_world *world);

/* A NUL-terminated copy of s in the storage pool, kept until shutdown;
 * NULL if the pool is full. */
const char *jli_world_store_string(jl_world *world, const char *s);

/* ---- world_settings.c ---- */

/* Sets settings to the defaults of jl_world_settings_class. */
void jli_world_settings_defaults(jl_world_settings *settings);

/* Writes WorldSettings.jasset text for settings and its unknown key lines
 * (may be NULL) into ar; a full arena shows in ar->out_failed. */
void jli_settings_write_text(jl_archive *ar, const jl_world_settings *settings, const char *unknown,
                             size_t unknown_size);

/* ---- world_paths.c ---- */

/* The file name of entity id in Entities/: "<decimal id>.jasset" into out
 * (at least JLI_ENTITY_FILE_NAME_MAX bytes, NUL-terminated). */
enum { JLI_ENTITY_FILE_NAME_MAX = 32 };
void jli_entity_file_name(char *out, uint64_t id);

/* The part of path after its last '/'. */
const char *jli_base_name(const char *path);

/* ---- world_records.c ---- */

/* The record of a base slot, empty: what it kept for the slot's last entity
 * is given back (jli_record_release), a slot's first record is committed.
 * NULL if the records arena cannot commit it. */
jli_entity_record *jli_record_take(jl_world *world, uint32_t slot);

/* The record of a live entity, or NULL if the world keeps nothing for it. */
const jli_entity_record *jli_record_of(const jl_world *world, const jl_entity *entity);
static inline jli_entity_record *jli_record_for(jl_world *world, const jl_entity *entity)
{
    return (jli_entity_record *)jli_record_of(world, entity); /* the world is not const here */
}

/* Builds in *record what the world keeps of a file just read into data (of
 * class cls; owner JLI_SETTINGS_OWNER or the entity's base slot): its
 * unknown keys and the path (may be NULL) in one block, its reference
 * sites appended to world->refs. On failure nothing is kept, *record is
 * zero and the status is JL_ERR_OUT_OF_MEMORY, with the file and what did
 * not fit in err. */
jl_status jli_record_build(jl_world *world, jl_archive *ar, const jl_class *cls, const void *data, const char *path,
                           uint32_t owner, jli_entity_record *record, jl_error *err);

/* Gives back a record's block and reference sites and zeroes it. */
void jli_record_release(jl_world *world, jli_entity_record *record);

/* ---- world_refs.c ---- */

/* Appends the sites where a file (class cls, values at data) refers to
 * other entities, naming path (kept by the caller), as one run of owner at
 * the end of world->refs: *first and *count get the run. JL_OK, or
 * JL_ERR_OUT_OF_MEMORY with nothing appended. */
jl_status jli_refs_append(jl_world *world, jl_archive *ar, const jl_class *cls, const void *data, const char *path,
                          uint32_t owner, uint32_t *first, uint32_t *count);

/* Removes the run refs[first, first + count) (its record is being given
 * back), closing the gap and moving the first index of every later run. */
void jli_refs_remove(jl_world *world, uint32_t first, uint32_t count);

/* ---- world_text.c ---- */

/* The canonical text of an entity (unknown keys included) / of the settings
 * file into ar, as save writes it. */
jl_status jli_world_write_entity_text(jl_world *world, const jl_entity *entity, jl_archive *ar);
jl_status jli_world_write_settings_text(jl_world *world, jl_archive *ar);

/* ---- world_files.c ---- */

/* Called before an entity (with its record, may be NULL) or the settings
 * change: a clean one whose print is pending takes it now; a dirty one
 * without a print can no longer be compared (JLI_FILE_UNKNOWN). Returns
 * the print of its text now, 0 if it has no file print to compare with. */
uint64_t jli_files_before_change(jl_world *world, const jl_entity *entity, jli_entity_record *record);
uint64_t jli_files_before_settings_change(jl_world *world);

/* Called after a change, with what before_change returned: clean again if
 * the canonical text changed and is now exactly its file's content, else
 * dirty (a change that changed nothing marks it, as any change does). With
 * before 0 (a restore), clean exactly when it is its file's content. */
void jli_files_after_change(jl_world *world, jl_entity *entity, const jli_entity_record *record, uint64_t before);
void jli_files_after_settings_change(jl_world *world, uint64_t before);

/* An entity loaded under the ID of one removed through the world: its
 * file stays (the pending deletion is cancelled) and, if it is dirty, it
 * compares with that file's print. */
void jli_files_entity_back(jl_world *world, jl_entity *entity);

/* The print of a record's file if it has one (JLI_FILE_PRINTED), else 0. */
uint64_t jli_files_print(const jl_world *world, const jli_entity_record *record);

/* Gives a record the print of its file: JLI_FILE_PRINTED, or
 * JLI_FILE_UNKNOWN for 0 (or if the print cannot be kept). */
void jli_files_set_print(jl_world *world, jli_entity_record *record, uint64_t print);

/* Forgets every print (jl_world_mark_all_dirty: everything is rewritten). */
void jli_files_forget(jl_world *world);

/* The record of a live entity, made for it if it has none (its slot's old
 * record given back); NULL if the records arena cannot commit it. */
jli_entity_record *jli_record_claim(jl_world *world, const jl_entity *entity);

/* ---- world_disk.c ---- */

/* The seen record of an entity's record (or of the settings' record):
 * NULL if none can be kept (its memory cannot be committed). */
jli_file_seen *jli_seen_for(jl_world *world, const jli_entity_record *record);

/* Records that the file of record was read or written as stamp with the
 * bytes text[0, size) (print: their print if known, else 0 to take it when
 * needed), at wall-clock time now_ns. */
void jli_seen_note(jl_world *world, const jli_entity_record *record, const jl_fs_stamp *stamp, const char *text,
                   size_t size, uint64_t print, uint64_t now_ns);

/* Forgets what was seen of a record's file (its record is given back). */
void jli_seen_forget(jl_world *world, const jli_entity_record *record);

/* Keeps what was seen of the file of removed entity id (record: its
 * record, about to be given back) until its deletion is settled. */
void jli_seen_keep_removed(jl_world *world, uint64_t id, const jli_entity_record *record);

/* Under the world's lock, just before a save replaces (deleting false) or
 * deletes the file at path (in directory dir), seen in the directory at
 * dir_at (jli_storage_at): JL_OK if it is still the version seen (or
 * nothing was seen of it in dir: nothing to compare),
 * updating *seen if only its stamp moved; JL_ERR_CONFLICT with err naming
 * the file if another program changed, replaced or deleted it since;
 * JL_ERR_IO if it cannot be told. fallback_print: the print of the file's
 * content known otherwise (jli_files_print), 0 if none. */
jl_status jli_disk_check(jl_world *world, const char *path, const char *dir, uint32_t dir_at, jli_file_seen *seen,
                         uint64_t fallback_print, bool deleting, jl_error *err);

/* The seen record kept for removed entity id and the directory it was
 * seen in (*dir_at), or NULL. */
jli_file_seen *jli_seen_removed(jl_world *world, uint64_t id, uint32_t *dir_at);

/* Drops what was kept for removed entity id. */
void jli_seen_drop_removed(jl_world *world, uint64_t id);

/* ---- world_opaque.c ---- */

/* After the reader refused the file of ar for an unknown class: adds an
 * opaque class named by its `; class` to the world's registry (kept until
 * jl_world_free), so that it can be read again. JL_OK if added;
 * JL_ERR_UNKNOWN_CLASS with err untouched if the value is no class name
 * (the reader's error stands); else JL_ERR_CAPACITY (the registry is
 * full), JL_ERR_UNKNOWN_CLASS (the name's CRC32 is another class's) or
 * JL_ERR_OUT_OF_MEMORY, with err at the value. */
jl_status jli_opaque_class_for(jl_world *world, jl_archive *ar, jl_error *err);

/* After entity loaded from a world directory (ar still holds its file): a
 * warning at its `; class` if its class is opaque. */
void jli_opaque_warn(jl_world *world, jl_archive *ar, const jl_entity *entity);

/* Forgets every warning (jl_world_clear_diagnostics). */
void jli_warnings_clear(jl_world *world);

/* The text of entity id's kept key field (without the blanks around it)
 * into out (JL_VALUE_TEXT_MAX bytes, NUL-terminated), its length in *size
 * (may be NULL); JL_ERR_NOT_FOUND if it keeps no such key. */
jl_status jli_kept_value(const jl_world *world, uint64_t id, const char *field, char *out, uint32_t *size);

/* ---- world_load.c ---- */

/* Loads one entity file's text. dir: the world directory it was read from
 * (its name is then checked against the ID), NULL for text from elsewhere;
 * expected_id: the ID the text must have (JL_ERR_PARSE at its `; id`
 * otherwise), 0 for any. Contract as jl_world_load_entity_text. */
jl_status jli_world_load_entity(jl_world *world, const char *path, const char *dir, uint64_t expected_id,
                                const char *text, size_t size, bool mark_dirty, jl_entity **out, jl_error *err);

/* Adds an entity of cls (serialized by its fields) with ID id, the field
 * values at fields (a derived struct of cls, each value as a file's would
 * be after reading: checked already) and the position, as if loaded from
 * the file they make but with none: dirty, its references kept, its
 * strings copied into the world's. On failure nothing is added and err
 * says why (no diagnostic: the caller reports). */
jl_status jli_world_add_entity(jl_world *world, const jl_class *cls, uint64_t id, const void *fields, jl_vec3 position,
                               jl_entity **out, jl_error *err);

/* ---- world_diagnostics.c ---- */

/* Stores a diagnostic (counted, not stored, past JL_WORLD_MAX_DIAGNOSTICS). */
void jli_world_add_diagnostic(jl_world *world, const jl_error *e);

/* ---- world_read.c ---- */

/* Reads one file of the world (kind from its directory listing: a special
 * file is never opened) into the scratch arena, its stamp into *stamp (may
 * be NULL). JL_OK; JL_ERR_NOT_FOUND if
 * there is no such file (no diagnostic: the caller decides); else the
 * status of the diagnostic added. */
jl_status jli_world_read_file(jl_world *world, const char *path, jl_fs_kind kind, char **text, size_t *size,
                              jl_fs_stamp *stamp);

/* jli_world_read_file's answer for read_file's code on path (0: JL_OK),
 * for a file read another way (jl_fs_read_files). */
jl_status jli_world_read_status(jl_world *world, const char *path, int code);

/* Adds the diagnostic of a failed file-system call (op on path, errno
 * code) and returns its status. */
jl_status jli_world_io_diagnostic(jl_world *world, const char *path, const char *op, int code);

/* ---- world_save.c ---- */

/* Files a save writes per batch (fs.h) before it flushes them with one
 * wait and renames them: bounds the staged list's memory (a few hundred
 * bytes a file, in the scratch arena) and the temporaries a crash can
 * leave; a flush of this many costs about what writing their bytes does. */
enum { JLI_SAVE_BATCH_FILES = 16384 };

/* Records a failure in the report: its first error, and the count. */
void jli_report_failure(jl_save_report *report, const jl_error *e);

/* Records a failed file-system operation (errno value code) in the report
 * and returns its status. */
jl_status jli_report_io(jl_save_report *report, const char *path, const char *op, int code);

/* The offset (jli_storage_at) of dir kept in the world's storage, the same
 * one for the same directory saved again; 0 if the storage is full. */
uint32_t jli_save_dir_at(jl_world *world, const char *dir);

/* ---- class_file_world.c: a world's classes from files ---- */

/* Loads every dir/Classes/<Name>.jclass file into the world (in name order), before
 * its entities: each becomes a class of the world's registry, or a
 * diagnostic. No Classes/ folder is no class file. */
void jli_class_files_load(jl_world *world, const char *dir);

/* Adds the class file text[0, size) to the world as jli_class_files_load
 * does one file (path may be NULL; expected_name as jli_class_file_parse).
 * JL_OK also when a class of that name agrees with it (nothing is added);
 * else the failure, with err filled (not added to the diagnostics). */
jl_status jli_class_file_add(jl_world *world, const char *path, const char *text, size_t size,
                             const char *expected_name, jl_error *err);

/* The class file cls came from if it is a class of the world described by
 * a file, else NULL (a compiled class). */
const jli_class_file *jli_class_file_of(const jl_world *world, const jl_class *cls);

/* Writes every class of the world that came from a file into
 * dir/Classes/ (the first save of a world, world_save_new.c). JL_OK, or
 * the first failure (recorded in the report). */
jl_status jli_class_files_save(jl_world *world, const char *dir, jl_save_report *report);

#endif
