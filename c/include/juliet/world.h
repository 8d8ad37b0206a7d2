/* world.h - a world: its entities, its settings, loading from and saving to
 * a directory of .jasset files (JULIET-SPEC-002 §4, §6).
 *
 * On disk a world is a directory:
 *   <dir>/WorldSettings.jasset         `; version` and the settings fields
 *   <dir>/Entities/<decimal id>.jasset one file per entity (archive.h)
 * A jl_world is opaque: code outside the engine holds the pointer
 * jl_world_new gives and goes through the functions below, which walk
 * (jl_world_iter), find, count and hand out handles to its entities.
 *
 * Memory: every byte comes from the world's arenas (reserved by
 * jl_world_new, committed as used), the world itself included. Pointers the
 * world returns stay valid until the operation their comment names, or
 * jl_world_free. IDs, dirty tracking and spec names -> C names:
 * docs/design.md. */
#ifndef JULIET_WORLD_H
#define JULIET_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "class.h"
#include "class_registry.h"
#include "entity.h"
#include "entity_manager.h"
#include "fs.h"
#include "status.h"
#include "private/world.h"

/* The world's own settings (WorldSettings.jasset). */
typedef struct jl_world_settings {
    jl_vec3 gravity;         /* default 0 -9.81 0 */
    jl_color ambient_color;  /* default #404040 */
    float ambient_intensity; /* default 0.25 */
    float time_of_day;       /* hours, default 12 */
    uint64_t spawn_point;    /* ID of the entity players start at; 0 = none */
    /* The address of the team's hosted inspector: links to this world
     * (`juliet share`, the inspector's Share) open there. Empty = none;
     * only an http(s) address is used (docs/inspector.md). */
    jl_string share_base;
} jl_world_settings;

enum {
    JL_WORLD_SETTINGS_VERSION = 1,
    JL_WORLD_MAX_DIAGNOSTICS = 100000, /* more are counted, not stored */
};

/* Class record of the settings (not an entity class: it is not in the
 * registry and its struct has no base pointer; fields and defaults only). */
extern const jl_class jl_world_settings_class;

/* Init options; a zero field means the default. */
typedef struct jl_world_desc {
    uint32_t capacity;     /* entities; default JL_DEFAULT_CAPACITY */
    uint64_t id_tag;       /* first 48-bit tag of minted IDs (entity_manager.h); default random */
    const jl_fs *fs;       /* file system; default jl_fs_native() */
    bool keep_temp_files;  /* load leaves *.tmp alone and never locks (validate) */
    uint32_t lock_wait_ms; /* how long save waits for another writer; default 2000 */
    size_t storage_bytes;  /* memory for what the world keeps of its files (unknown
                               keys, paths): default 16 MiB in wasm, 1 GiB natively;
                               a load that needs more fails with JL_ERR_OUT_OF_MEMORY */
} jl_world_desc;

/* Per class (and total) figures of the loads, for `juliet stats`. The
 * per-class arrays are indexed by kind in the world's registry
 * (jl_world_class_at); kinds past jl_world_class_count are 0. */
typedef struct jl_world_stats {
    uint32_t entities[JL_CLASS_MAX];
    uint64_t bytes[JL_CLASS_MAX]; /* file bytes of the loaded entities */
    uint32_t files_failed;
    uint64_t settings_bytes;
} jl_world_stats;

/* What jl_world_save did. Paths are in the world's report arena, valid until
 * the next save or jl_world_free. */
typedef struct jl_save_report {
    const char **written; /* files replaced or created */
    uint32_t written_count;
    const char **deleted; /* files deleted */
    uint32_t deleted_count;
    const char **conflicts; /* files not touched: another program changed them since
                               the world read them (their changes stay pending) */
    uint32_t conflict_count;
    uint32_t failed_count; /* files that could not be written or deleted, conflicts included */
    jl_error error;        /* the first failure (status JL_OK if none) */
    char notice[160];      /* "took over the lock left by pid N, ..." when the save
                               took over a stale lock (world_lock.h); else empty */
} jl_save_report;

/* A reference site seen while loading (for jl_world_check_references):
 * the ID referred to, and where (path as the file was loaded, "" if none). */
typedef struct jl_world_ref {
    uint64_t target;
    const char *path;
    uint32_t line, col;
} jl_world_ref;

/* A world: opaque, made by jl_world_new. */
typedef struct jl_world jl_world;

/* A new world: reserves its arenas (the world's own memory included) and
 * inits its manager; settings get their defaults (clean). desc may be NULL.
 * *out gets the world, which jl_world_free releases. JL_ERR_INVALID_ARGUMENT
 * or JL_ERR_OUT_OF_MEMORY, *out NULL and nothing kept. */
jl_status jl_world_new(const jl_world_desc *desc, jl_world **out);

/* Releases the world and everything in it: every pointer into it becomes
 * invalid. NULL is ignored. */
void jl_world_free(jl_world *world);

/* LoadWorld: reads every .jasset file of Entities/ in name order and
 * WorldSettings.jasset, each exactly as JULIET-SPEC-002 §4.4 (tokenize,
 * resolve class, allocate, stream fields in place, set the ID, advance the
 * generator, clear dirty). A bad file is rolled back (the world is as before
 * it) and recorded as a diagnostic `path:line:col: message`; loading goes on
 * with the next file. A second file with an ID already loaded is rejected
 * naming both paths; a file whose name is not its decimal ID is rejected.
 * Files that failed are remembered: save never rewrites or deletes them. A
 * FIFO, socket or device is reported and never opened; a file larger than
 * JL_ARCHIVE_FILE_MAX is reported without being read. Leftover `*.tmp` files
 * of an interrupted save are ignored, and deleted when the loader can take
 * the world's lock at once (world_lock.h): then no save is running. Returns
 * JL_OK if every file loaded, else the status of the first new diagnostic
 * (the world still holds every good file); JL_ERR_NOT_FOUND/JL_ERR_IO if dir
 * itself cannot be listed. */
jl_status jl_world_load(jl_world *world, const char *dir);

/* Loads one entity file's text (spec's deserialize_entity_asset) as if read
 * from path (used in diagnostics and reference sites only; may be NULL: the
 * file name is checked against the ID by jl_world_load alone). With
 * mark_dirty the entity is dirty afterwards (restoring an entity from text,
 * e.g. an undo), otherwise clean (it matches its file). On failure the
 * world is unchanged and the problem is both in err (may be NULL) and in
 * the diagnostics list: JL_ERR_PARSE, JL_ERR_UNKNOWN_CLASS,
 * JL_ERR_DUPLICATE_ID, JL_ERR_CAPACITY, or JL_ERR_OUT_OF_MEMORY when what
 * the world keeps of the file (unknown keys, reference sites) does not fit
 * (jl_world_desc.storage_bytes): a load never drops them silently. */
jl_status jl_world_load_entity_text(jl_world *world, const char *path, const char *text, size_t size, bool mark_dirty,
                                    jl_entity **out, jl_error *err);

/* Loads WorldSettings text (same rules; mark_dirty as for an entity).
 * JL_ERR_READ_ONLY, settings unchanged, if the settings came from a newer
 * file or one that failed to load (that file is never rewritten). */
jl_status jl_world_load_settings_text(jl_world *world, const char *path, const char *text, size_t size, bool mark_dirty,
                                      jl_error *err);

/* SaveWorld, in this order, touching nothing else, while holding the world's
 * lock (world_lock.h; taken only if there is something to write or delete,
 * waiting up to jl_world_desc.lock_wait_ms):
 *  1. deletions: for each ID removed since the last save (jl_world_remove
 *     queues them), delete `Entities/<id>.jasset` unless an entity with
 *     that ID is alive again (undo) or its file failed to load;
 *  2. each dirty entity that is not read-only is written atomically
 *     (fs.h: temporary file, fsync, rename) and its dirty flag cleared;
 *     the temporaries of a batch are made durable with one flush before
 *     any of them is renamed (fs.h: batches), where the disk allows;
 *  3. WorldSettings.jasset if the settings are dirty;
 *  4. the directories are fsynced once.
 * A failed delete stays pending (also one whose path is too long under dir,
 * reported as JL_ERR_IO); a failed write leaves the old file intact and the
 * entity dirty; the save goes on with the other files and returns the first
 * error, naming its file. If the lock cannot be had, nothing is written and
 * everything stays pending (JL_ERR_LOCKED naming the holder's pid). Saving an
 * unchanged world writes zero files. Loading, jl_world_mark_all_dirty, saving
 * reproduces every file of a canonical world byte for byte.
 *
 * Files save never touches: a file that failed to load (its name's decimal ID
 * is remembered), and the file of a read-only entity, even if the entity is
 * destroyed directly through the manager. Loading the directory a world
 * already holds reports each file as a duplicate but keeps them writable.
 *
 * report may be NULL. JL_OK, or the status of the first failure (also in
 * report->error). */
jl_status jl_world_save(jl_world *world, const char *dir, jl_save_report *report);

/* Saves a world that has no directory yet (a new, generated or unshared
 * world) into dir, all or nothing: the files are written into a new
 * temporary sibling directory `.<name>.<pid>-<n>.new`, which is renamed to
 * dir only once every file is written and synced. dir must not exist or be
 * an empty directory (whose permissions and owner the new one keeps):
 * JL_ERR_EXISTS (nothing written) if it holds anything,
 * since merging into a world would overwrite its files. On any failure the
 * temporary directory is removed and dir is untouched. The report names
 * paths under dir. */
jl_status jl_world_save_new(jl_world *world, const char *dir, jl_save_report *report);

/* JL_OK if dir may receive a new world (it does not exist or is empty);
 * JL_ERR_EXISTS with err saying whether it holds a world, or the listing's
 * error. For a tool to refuse early, before it builds the world. */
jl_status jl_world_check_new_dir(const jl_fs *fs, const char *dir, jl_arena *scratch, jl_error *err);

/* ProcessPendingDeletions: step 1 of save on its own (deletes files of
 * removed entities under dir, keeps the failed ones pending). */
jl_status jl_world_process_pending_deletions(jl_world *world, const char *dir, jl_save_report *report);

/* ---- dirty state (JULIET-SPEC-002 §6.3; docs/design.md) ----
 * Created -> dirty; loaded -> clean; any mutation through this API (set
 * field, position, create) -> dirty; saved -> clean. A change through
 * jl_world_set_field, jl_world_settings_set or a restore
 * (jl_world_restore_entity_text, jl_world_restore_settings_text) that brings
 * the canonical text back to exactly what the file holds leaves it clean: the
 * world keeps a 64-bit print of each file's content, taken from the entity
 * while it is still clean (just before its first change) or from the bytes a
 * save writes, and kept while a removed entity's file is pending deletion.
 * jl_world_mark_all_dirty and jl_world_settings_touch forget the prints
 * (everything is rewritten). */

/* Marks every live entity and the settings dirty (fmt, full re-save). */
void jl_world_mark_all_dirty(jl_world *world);

/* MakeEntity by class name (a class of the world's registry): a new entity
 * with a fresh ID at x y z, class defaults, dirty. JL_ERR_UNKNOWN_CLASS,
 * JL_ERR_CAPACITY, JL_ERR_OUT_OF_MEMORY (world unchanged, *out NULL). out
 * may be NULL. */
jl_status jl_world_create(jl_world *world, const char *class_name, float x, float y, float z, jl_entity **out);
/* The same for a class of the world's registry (jl_world_class_at), as a
 * caller that holds classes by kind has them; NULL or an opaque class:
 * JL_ERR_UNKNOWN_CLASS. */
jl_status jl_world_create_of(jl_world *world, const jl_class *cls, float x, float y, float z, jl_entity **out);

/* RemoveWorldEntity: destroys the entity in O(1) and queues its file for
 * deletion at the next save. JL_ERR_NOT_FOUND if no live entity has id,
 * JL_ERR_READ_ONLY for an entity from a newer file (never touched). */
jl_status jl_world_remove(jl_world *world, uint64_t id);

/* The live entity with id in O(1), or NULL. */
jl_entity *jl_world_find(const jl_world *world, uint64_t id);

/* The world's classes (class_registry.h): every class of the program's
 * registry when jl_world_new ran, under the same kinds (classes registered
 * afterwards are not in it). The world's manager, loader, snapshot codec
 * and stats resolve classes through it. Valid until jl_world_free. */
const jl_class_registry *jl_world_classes(const jl_world *world);

/* Number of the world's classes; the class of a kind (NULL past the
 * count); the class named name (name_size bytes), or NULL. O(1). */
uint32_t jl_world_class_count(const jl_world *world);
const jl_class *jl_world_class_at(const jl_world *world, uint32_t kind);
const jl_class *jl_world_class_find(const jl_world *world, const char *name, size_t name_size);

/* Number of live entities. */
uint32_t jl_world_count(const jl_world *world);

/* ---- iteration ----
 * A walk over the live entities of a world, or of one class, on the
 * caller's stack (nothing is allocated, nothing to free):
 *
 *   for (jl_world_iter it = jl_world_iter_all(world); jl_world_next(&it);)
 *       use(it.entity);
 *   for (jl_world_iter it = jl_world_iter_class(world, &enemy_class); jl_world_next(&it);)
 *       ((enemy *)it.derived)->health = 100;
 *
 * Order: base slot order for every class, derived slot order for one class
 * (neither is creation or ID order). The walk reads the world at each step,
 * so the world may change between two steps: every entity alive for the
 * whole walk is visited exactly once; removing it.entity (or any entity)
 * is safe, and an entity removed before the walk reaches it is not
 * visited; an entity made during the walk (created, loaded, restored or
 * reloaded: a restore or reload replaces an entity by a new one) may or may
 * not be visited, at most once, as it takes a free slot before or after the
 * current one. jl_world_free ends every walk of the world: calling
 * jl_world_next after it is undefined. */
typedef struct jl_world_iter {
    jl_entity *entity;         /* the current entity, once jl_world_next returned true; else NULL */
    void *derived;             /* its derived struct (entity->derived) */
    jl_world_iter_state state; /* private (juliet/private/world.h) */
} jl_world_iter;

/* A walk over every live entity of world. world may be NULL: nothing to
 * visit. */
jl_world_iter jl_world_iter_all(const jl_world *world);

/* A walk over the live entities of class cls (a class of the world's
 * registry, as jl_world_class_at or JL_DEFINE_ENTITY's Type##_class give
 * it). A class the world has no entity of, a class of another registry
 * or NULL: nothing to visit. */
jl_world_iter jl_world_iter_class(const jl_world *world, const jl_class *cls);

/* Steps it to the next entity: true with it->entity and it->derived set,
 * or false (both NULL) when the walk is over, and false again on every
 * later call, even if entities were made since. */
bool jl_world_next(jl_world_iter *it);

/* ---- handles ----
 * A jl_entity pointer outlives its entity: after a remove it points at a
 * free slot, then at whichever entity takes the slot next. A handle
 * (entity.h: slot and the slot's generation) does not: once its entity is
 * removed it resolves to NULL, even after the slot is reused (until a
 * slot has been reused 2^32 times, when its generation wraps). A
 * restore or reload replaces an entity by a new one, so handles to the old
 * one resolve to NULL then (find the new one by its ID). A handle is a
 * plain value to copy, compare and keep (in a derived struct, say); it
 * means something only to the world that gave it, and only while that
 * world lives. Files refer to entities by ID, never by handle. */

/* The handle of a live entity of world; {0, 0} (never valid) for NULL, a
 * removed entity or one of another world. Nothing is allocated. */
jl_handle jl_world_handle(const jl_world *world, const jl_entity *entity);

/* The live entity handle names in world, or NULL: its entity was removed
 * or replaced (even if its slot holds another entity now), or the handle
 * is {0, 0} or was never one of this world's. O(1). */
jl_entity *jl_world_resolve(const jl_world *world, jl_handle handle);

/* A fresh ID, minted as jl_world_create mints the next entity's
 * (docs/design.md, "IDs and the collision bound"): no live entity has it
 * and this world never minted it before. Nothing is created or allocated,
 * and it never fails: for a file the program writes and then loads (a
 * repair that gives a duplicate a new ID). */
uint64_t jl_world_mint_id(jl_world *world);

/* Sets the field named field (or "position") of entity id from text, parsed
 * exactly as in a file. The entity is dirty afterwards, or clean if the
 * change brought its canonical text back to exactly what its file holds
 * (an edit undone by hand; a set that changes nothing marks it dirty, as
 * any change). A string's bytes are copied into the world's strings (kept
 * until jl_world_free, as those of loaded files: each set keeps a new
 * copy). JL_ERR_NOT_FOUND (no entity or no such field), JL_ERR_READ_ONLY,
 * JL_ERR_PARSE with the column in err, or JL_ERR_OUT_OF_MEMORY (no room
 * left for strings); the entity is unchanged on failure. err may be NULL. */
jl_status jl_world_set_field(jl_world *world, uint64_t id, const char *field, const char *text, size_t size,
                             jl_error *err);

/* Writes the canonical text of a field (or "position", "id", "class",
 * "class_version": the one its file is written with) of
 * entity id into out (JL_VALUE_TEXT_MAX bytes, NUL-terminated); *size gets
 * its length (may be NULL). For an opaque entity, a kept key's text as its
 * file has it, without the blanks around it. JL_ERR_NOT_FOUND. */
jl_status jl_world_get_field(const jl_world *world, uint64_t id, const char *field, char *out, uint32_t *size);

/* The same for the settings (dirty afterwards, or clean when back to what
 * WorldSettings.jasset holds: without that file, to what they were before
 * their first change); JL_ERR_READ_ONLY if they came from a newer or a
 * failed file. */
jl_status jl_world_settings_set(jl_world *world, const char *field, const char *text, size_t size, jl_error *err);
jl_status jl_world_settings_get(const jl_world *world, const char *field, char *out, uint32_t *size);

/* State of the settings, a mask of: */
enum jl_settings_state {
    JL_SETTINGS_DIRTY = 1u << 0,     /* changed since loaded or saved */
    JL_SETTINGS_READ_ONLY = 1u << 1, /* from a file newer than this build: never rewritten */
    JL_SETTINGS_FAILED = 1u << 2,    /* WorldSettings.jasset failed to load: never rewritten */
};
uint32_t jl_world_settings_state(const jl_world *world);

/* Marks the settings changed: the next save rewrites WorldSettings.jasset
 * (unless it is read-only or failed to load). */
void jl_world_settings_touch(jl_world *world);

/* Replaces entity id by the entity in text (a whole .jasset file, as
 * jl_world_write_entity gives it), or removes it if text is NULL or size is
 * 0: an undo or redo step. The text must carry ID id. It loads as a file
 * would (diagnostics name `Entities/<id>.jasset`, under the directory the
 * entity was loaded from if any); if it fails, the entity is as before and
 * the status says why (JL_ERR_PARSE, JL_ERR_UNKNOWN_CLASS,
 * JL_ERR_OUT_OF_MEMORY, ..., also in err, may be NULL). JL_ERR_READ_ONLY
 * for an entity from a newer file, JL_ERR_INVALID_ARGUMENT for ID 0;
 * removing an entity that does not exist is JL_OK. Afterwards the entity
 * is clean if its canonical text is exactly what its file holds (the
 * file it was loaded from or last saved to, even if it was removed in
 * between), else dirty; an entity that comes back after a removal keeps
 * its file (the pending deletion is cancelled). Removing is
 * jl_world_remove. Pointers to the old entity become invalid. */
jl_status jl_world_restore_entity_text(jl_world *world, uint64_t id, const char *text, size_t size, jl_error *err);

/* The same for the settings: replaced by the settings in text (not NULL:
 * the settings cannot be removed; an empty text is the defaults), or
 * unchanged if it fails (failures as jl_world_load_settings_text, with
 * JL_ERR_READ_ONLY for settings from a newer or a failed file). Clean
 * afterwards if their canonical text is exactly what WorldSettings.jasset
 * holds (as loaded or last saved; without that file, what the settings
 * were before their first change), else dirty. */
jl_status jl_world_restore_settings_text(jl_world *world, const char *text, size_t size, jl_error *err);

/* A file of the world changed on disk behind it (another editor, a save
 * through another process): name is its path relative to the world
 * directory, "WorldSettings.jasset" or "Entities/<decimal id>.jasset", and
 * text what it holds now (NULL: the file is gone). The settings or the
 * entity become that text, clean, and it is their file's from now on:
 * what was changed in the world since is dropped. *id_out (may be NULL)
 * gets the entity's ID, also on failure (0 for the settings). An entity
 * whose file is gone is removed without its deletion pending; settings
 * whose file is gone get the defaults. A text that fails to load (it must
 * carry the ID its name says) is a diagnostic and the status (JL_ERR_PARSE,
 * ... as jl_world_load_entity_text; also in err, may be NULL), and as when
 * a world's file fails to load, its entity is gone (or its settings
 * unchanged but failed) and save never rewrites or deletes that file. A
 * name that is neither file is JL_ERR_PARSE (a diagnostic too), unless
 * text is NULL: a file gone that was none of the world's changes nothing
 * (JL_OK, *id_out 0). */
jl_status jl_world_reload_file_text(jl_world *world, const char *name, const char *text, size_t size, uint64_t *id_out,
                                    jl_error *err);

/* jl_world_reload_file_text with the file read from disk, under directory
 * dir (the world's), for a caller that saw it hold expected[0, size)
 * (expected NULL: no file) and bases a change on that: the world then
 * knows the file as read here (its stamp, world_disk.c), so a later save
 * replaces it only while it is still that version. JL_ERR_CONFLICT, the
 * world unchanged, if it holds something else now; JL_ERR_IO if it cannot
 * be read; else as jl_world_reload_file_text. */
jl_status jl_world_reload_file(jl_world *world, const char *dir, const char *name, const char *expected,
                               size_t expected_size, uint64_t *id_out, jl_error *err);

/* Entity id's file was just written with its current canonical text by a
 * save that did not go through this world (another process saved the same
 * world): the entity is clean and that text is its file's. If no entity
 * has id, its file was deleted: its deletion is no longer pending and
 * nothing is kept of it (an entity back under id is dirty). JL_OK, or
 * JL_ERR_READ_ONLY (nothing changes) for an entity from a newer file. */
jl_status jl_world_mark_saved(jl_world *world, uint64_t id);

/* The same for the settings and WorldSettings.jasset; JL_ERR_READ_ONLY for
 * settings from a newer or a failed file. */
jl_status jl_world_settings_mark_saved(jl_world *world);

/* Writes the canonical .jasset text of entity id (what save would write,
 * unknown keys included) into the world's scratch arena: *text is valid until
 * the next call into the world that loads, saves or writes. JL_ERR_NOT_FOUND,
 * JL_ERR_OUT_OF_MEMORY. */
jl_status jl_world_write_entity(jl_world *world, uint64_t id, const char **text, size_t *size);

/* The same for WorldSettings.jasset. */
jl_status jl_world_write_settings(jl_world *world, const char **text, size_t *size);

/* The 64-bit print of what the file of entity id (0: of WorldSettings.jasset)
 * held when the world last read or wrote it: the print of the entity's
 * canonical text then (the one the world compares with to tell it clean),
 * kept through later edits and, for a removed entity, while its file is
 * pending deletion. 0 when the world cannot tell: no such entity or file, a
 * new entity, or a print it could not keep (jl_world_mark_all_dirty forgets
 * them all). Takes a clean entity's print now if it has none yet. */
uint64_t jl_world_file_print(jl_world *world, uint64_t id);

/* The unknown key lines kept for entity id (`; key\nvalue\n`...), or NULL
 * with *size 0. Valid until the entity is removed or reloaded, or
 * jl_world_free. */
const char *jl_world_unknown_keys(const jl_world *world, uint64_t id, uint32_t *size);

/* True if the entity came from a file newer than this build. */
bool jl_world_is_read_only(const jl_world *world, uint64_t id);

/* Diagnostics gathered so far (loads and reference checks), oldest first.
 * jl_world_diagnostic returns NULL past the count; the pointer is valid
 * until jl_world_clear_diagnostics or jl_world_free. */
uint32_t jl_world_diagnostic_count(const jl_world *world);
const jl_error *jl_world_diagnostic(const jl_world *world, uint32_t index);
void jl_world_clear_diagnostics(jl_world *world);

/* Adds a diagnostic for every entity reference (ENTITY_REF field, the
 * settings' spawn_point) seen in the loaded files whose target is not a live
 * entity, at the reference's path, line and column. Returns how many. */
uint32_t jl_world_check_references(jl_world *world);

/* True if reference site `index` (jl_world_reference) names no live entity
 * now, with err set to the diagnostic jl_world_check_references would add;
 * nothing is added. For checking again after files were reloaded. */
bool jl_world_reference_missing(const jl_world *world, uint32_t index, jl_error *err);

/* The reference sites seen in the files of the live entities and of the
 * settings (those jl_world_check_references checks), in load order.
 * jl_world_reference returns NULL past the count; indices and pointers are
 * valid until an entity or the settings are removed or loaded again, or
 * jl_world_free. */
uint32_t jl_world_reference_count(const jl_world *world);
const jl_world_ref *jl_world_reference(const jl_world *world, uint32_t index);

/* ---- opaque entities ----
 * A file whose `; class` names a class neither the program nor the world
 * describes loads as an opaque entity: the world adds a class of that
 * name to its registry (jl_class_is_opaque; no fields; at most
 * JL_CLASS_MAX classes in all, else the file fails with JL_ERR_CAPACITY),
 * its base fields (id, position, versions) are real and every other key
 * is kept verbatim (jl_world_unknown_keys) and written back unchanged, in
 * its order. It can be moved, removed, restored and saved like any entity;
 * its kept keys are read as text (jl_world_get_field) and never set
 * (jl_world_set_field: JL_ERR_UNKNOWN_CLASS); jl_world_create refuses its
 * class. jl_world_load leaves a warning for each such file. */

/* Warnings of jl_world_load (oldest first): one per file loaded as an
 * opaque entity, `path:line:col` at its class value, message
 * "unknown class 'Name' (kept as text)", status JL_ERR_UNKNOWN_CLASS.
 * Warnings are not diagnostics: the load still returns JL_OK. A warning
 * whose entity was removed since has no path. jl_world_warning fills out
 * and returns true, false past the count. jl_world_clear_diagnostics
 * clears them too. */
uint32_t jl_world_warning_count(const jl_world *world);
bool jl_world_warning(const jl_world *world, uint32_t index, jl_error *out);

/* The keys entity id keeps as text (for an opaque entity, every key but
 * the base ones), in file order: how many, and the index-th (not
 * NUL-terminated: *size bytes; NULL with *size 0 past the count). Valid as
 * jl_world_unknown_keys. */
uint32_t jl_world_kept_key_count(const jl_world *world, uint64_t id);
const char *jl_world_kept_key(const jl_world *world, uint64_t id, uint32_t index, uint32_t *size);

/* Figures of the loads so far. */
const jl_world_stats *jl_world_get_stats(const jl_world *world);

/* Writes "Entities/<decimal id>.jasset" under dir into out. false if it does
 * not fit. */
bool jl_world_entity_path(char *out, size_t out_size, const char *dir, uint64_t id);

/* The ID whose file name is name ("123.jasset" -> 123, the name only, no
 * directory), or 0 if name is not the canonical decimal ID of an entity
 * file (no leading zero, at most 2^64 - 1): the inverse of
 * jl_world_entity_path, and the rule jl_world_load checks names by. */
uint64_t jl_world_id_of_file_name(const char *name);

#endif
