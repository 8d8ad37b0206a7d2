/* exports.c - the C functions the wasm module exports to JavaScript.
 *
 * The only C file that knows about Emscripten, and it holds no engine
 * logic: each export calls the public API (world.h, snapshot.h, changes.h, class.h,
 * class_registry.h) and moves plain numbers, pointers and NUL-terminated strings across the
 * boundary. The list of exports is c/wasm/exports.json; the one JavaScript
 * module web/src/core/juliet.js wraps each of them once at start-up.
 *
 * For the editor's undo and clean state (the engine decides whether an
 * entity or the settings match their file; the caller keeps no file texts):
 *   jlw_entity_get(world, lo, hi, field) -> const char *   (a field as text)
 *   jlw_settings_get(world, field) -> const char *
 *   jlw_world_restore_entity_text(world, lo, hi, text, size) -> status
 *   jlw_world_restore_settings_text(world, text, size) -> status
 *   jlw_world_reload_file_text(world, name, text, size, id_out) -> status
 *   jlw_world_reload_file(world, dir, name, expected, size, id_out) -> status
 *   jlw_world_load_class_text(world, path, text, size) -> status
 *   jlw_entity_mark_saved(world, lo, hi) -> status
 *   jlw_settings_mark_saved(world) -> status
 * Their contracts are at each function below.
 *
 * Conventions:
 * - A world is an opaque pointer from jlw_world_new, freed by jlw_world_free.
 * - 64-bit entity IDs cross as two uint32 halves (lo, hi): wasm32 without
 *   BigInt integration cannot pass a uint64_t to JavaScript intact.
 * - A fallible export returns a jl_status; the details of the last failure
 *   are in the record returned by jlw_last_error (read it before the next
 *   call).
 * - Bulk output is written into buffers the caller allocated (jlw_world_rows)
 *   or returned as a malloc'd block the caller frees (jlw_snapshot_encode).
 *   Strings returned as const char * are valid until the call named in their
 *   comment; JavaScript copies them at once. */
#include <emscripten.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "juliet/archive.h"
#include "juliet/changes.h"
#include "juliet/class.h"
#include "juliet/class_file.h"
#include "juliet/class_registry.h"
#include "juliet/diff.h"
#include "juliet/snapshot.h"
#include "juliet/status.h"
#include "juliet/world.h"
#include "module_classes.h"

#define JLW_EXPORT EMSCRIPTEN_KEEPALIVE
/* A size that stands for "no such value" in the records of diffs and change links. */
#define JLW_ABSENT 0xFFFFFFFFu

static jl_error last_error;      /* details of the last failed export */
static jl_save_report last_save; /* the last jlw_world_save's report */
static char value_text[JL_VALUE_TEXT_MAX];

static uint64_t make_id(uint32_t lo, uint32_t hi) { return (uint64_t)hi << 32 | lo; }

/* Records status with no position (for failures the API reports without a
 * jl_error) and returns it. */
static jl_status fail(jl_status status, const char *message)
{
    return jl_error_set(&last_error, status, NULL, 0, 0, "%s", message);
}

/* Every export starts with it: the record reads as empty (its strings
 * are read up to their NUL) without writing the whole record. */
static void clear_error(void)
{
    last_error.status = JL_OK;
    last_error.line = last_error.col = 0;
    last_error.path[0] = last_error.message[0] = '\0';
}

/* value_text after a call that filled it, or NULL with the failure. */
static const char *value_or_null(jl_status status, const char *message)
{
    if (status == JL_OK) return value_text;
    fail(status, message);
    return NULL;
}

/* Returns status as an export does, making sure a failure the API did not
 * describe in last_error still has a message. */
static int reported(jl_status status, const char *message)
{
    if (status != JL_OK && last_error.status == JL_OK) fail(status, message);
    return (int)status;
}

/* ---- errors ---- */

/* The record of the last failure; valid until the next failing export. */
JLW_EXPORT const jl_error *jlw_last_error(void) { return &last_error; }

/* Fields of a jl_error (layout-independent accessors). */
JLW_EXPORT int jlw_error_status(const jl_error *err) { return (int)err->status; }
JLW_EXPORT uint32_t jlw_error_line(const jl_error *err) { return err->line; }
JLW_EXPORT uint32_t jlw_error_col(const jl_error *err) { return err->col; }
JLW_EXPORT const char *jlw_error_path(const jl_error *err) { return err->path; }
JLW_EXPORT const char *jlw_error_message(const jl_error *err) { return err->message; }

/* Stable lower-case name of a status code (static storage). */
JLW_EXPORT const char *jlw_status_name(int status) { return jl_status_name((jl_status)status); }

/* Bytes of the wasm heap currently allocated (malloc's in-use count), for
 * leak checks. */
JLW_EXPORT uint32_t jlw_heap_used(void) { return (uint32_t)mallinfo().uordblks; }

/* ---- start-up ---- */

/* Registers the classes compiled into this module (none in the library's
 * own; a game's classes come with its worlds as class files, or are linked
 * into a module of its own: module_classes.h) before any world is created;
 * juliet.js calls it once after instantiating the module. Calling it again
 * changes nothing. JL_OK or the registration's failure (also in
 * jlw_last_error). */
JLW_EXPORT int jlw_init(void)
{
    clear_error();
    jl_status status = jlw_register_classes();
    if (status != JL_OK) fail(status, "cannot register the module's compiled classes");
    return (int)status;
}

/* ---- classes (reflection) ---- */

/* The class answering to `kind` in world's classes (jl_world_classes), or
 * in the program's compiled classes for a NULL world: a registered entity
 * class, or the world settings' class record under its own kind
 * (jlw_settings_kind), so the settings are reflected by the same exports.
 * NULL for any other kind. */
static const jl_class *class_of(const jl_world *world, uint32_t kind)
{
    if (kind == jl_world_settings_class.kind) return &jl_world_settings_class;
    return world ? jl_world_class_at(world, kind) : jl_class_at(kind);
}

/* Number of entity classes of world (NULL: of the program; the settings
 * class is not one); class `kind`'s name and version (valid as long as the
 * world; NULL / 0 for an unknown kind). */
JLW_EXPORT uint32_t jlw_class_count(const jl_world *world)
{
    return world ? jl_world_class_count(world) : jl_class_count();
}
JLW_EXPORT const char *jlw_class_name(const jl_world *world, uint32_t kind)
{
    const jl_class *cls = class_of(world, kind);
    return cls ? cls->name : NULL;
}
JLW_EXPORT uint32_t jlw_class_version(const jl_world *world, uint32_t kind)
{
    const jl_class *cls = class_of(world, kind);
    return cls ? cls->version : 0;
}

/* Fields of class `kind` (of world, or of the program for NULL): count,
 * then per field its name, type name ("f32", "index", ...), flags
 * (jl_field_flags) and default value as canonical text (in a buffer valid
 * until the next jlw_class_field_default). */
JLW_EXPORT uint32_t jlw_class_field_count(const jl_world *world, uint32_t kind)
{
    const jl_class *cls = class_of(world, kind);
    return cls ? cls->field_count : 0;
}
static const jl_field *class_field(const jl_world *world, uint32_t kind, uint32_t index)
{
    const jl_class *cls = class_of(world, kind);
    return cls && index < cls->field_count ? &cls->fields[index] : NULL;
}
JLW_EXPORT const char *jlw_class_field_name(const jl_world *world, uint32_t kind, uint32_t index)
{
    const jl_field *field = class_field(world, kind, index);
    return field ? field->name : NULL;
}
JLW_EXPORT const char *jlw_class_field_type(const jl_world *world, uint32_t kind, uint32_t index)
{
    const jl_field *field = class_field(world, kind, index);
    return field ? jl_field_type_name(field->type) : NULL;
}
JLW_EXPORT uint32_t jlw_class_field_flags(const jl_world *world, uint32_t kind, uint32_t index)
{
    const jl_field *field = class_field(world, kind, index);
    return field ? field->flags : 0;
}
JLW_EXPORT const char *jlw_class_field_default(const jl_world *world, uint32_t kind, uint32_t index)
{
    const jl_class *cls = class_of(world, kind);
    if (!cls || jl_class_default_text(cls, index, value_text) != JL_OK) return NULL;
    return value_text;
}

/* The names an enum field of class `kind` (of world, or of the program for
 * NULL) takes: how many (0 for a field of another type) and name i (valid
 * as long as the class; NULL past the count). */
JLW_EXPORT uint32_t jlw_class_field_enum_count(const jl_world *world, uint32_t kind, uint32_t index)
{
    const jl_field *field = class_field(world, kind, index);
    return field && field->enumeration ? field->enumeration->count : 0;
}
JLW_EXPORT const char *jlw_class_field_enum_name(const jl_world *world, uint32_t kind, uint32_t index, uint32_t i)
{
    const jl_field *field = class_field(world, kind, index);
    return field && field->enumeration && i < field->enumeration->count ? field->enumeration->names[i] : NULL;
}

/* The kind the settings class answers to in the exports above. */
JLW_EXPORT uint32_t jlw_settings_kind(void) { return jl_world_settings_class.kind; }

/* ---- worlds ---- */

/* A new empty world (capacity 0 = the default), or NULL with the reason in
 * jlw_last_error. With on_host, its files are the host's, named by host
 * paths (jl_fs_host: under Node); else the module's file system's. Free it
 * with jlw_world_free. */
JLW_EXPORT jl_world *jlw_world_new(uint32_t capacity, int on_host)
{
    clear_error();
    jl_world *world = NULL;
    jl_world_desc desc = {.capacity = capacity, .fs = on_host ? jl_fs_host() : NULL};
    if (on_host && !desc.fs) {
        fail(JL_ERR_INVALID_ARGUMENT, "no host file system here (only under Node)");
        return NULL;
    }
    jl_status status = jl_world_new(&desc, &world);
    if (status != JL_OK) fail(status, "cannot reserve the world's memory");
    return world;
}

/* Frees the world (jl_world_free); NULL is ignored. */
JLW_EXPORT void jlw_world_free(jl_world *world) { jl_world_free(world); }

/* A load's status, its first new diagnostic (those from index `before`
 * on) put in jlw_last_error. */
static int loaded(const jl_world *world, uint32_t before, jl_status status)
{
    if (status != JL_OK) {
        const jl_error *first = jl_world_diagnostic(world, before);
        if (first) last_error = *first;
        else fail(status, "cannot load the world");
        last_error.status = status;
    }
    return (int)status;
}

/* jl_world_load. Problems are in the diagnostics; the status is JL_OK or
 * the first problem's (also in jlw_last_error). */
JLW_EXPORT int jlw_world_load(jl_world *world, const char *dir)
{
    clear_error();
    uint32_t before = jl_world_diagnostic_count(world);
    return loaded(world, before, jl_world_load(world, dir));
}

/* jl_world_check_references: a diagnostic per reference to a missing
 * entity; returns how many. */
JLW_EXPORT uint32_t jlw_world_check_references(jl_world *world) { return jl_world_check_references(world); }

/* The reference sites (jl_world_reference) and, for one naming no live
 * entity now, its diagnostic (jl_world_reference_missing), read with
 * jlw_error_*; the pointer is valid until the next call. NULL otherwise. */
static jl_error missing_reference;
JLW_EXPORT uint32_t jlw_world_reference_count(const jl_world *world) { return jl_world_reference_count(world); }
JLW_EXPORT const jl_error *jlw_world_missing_reference(const jl_world *world, uint32_t index)
{
    return jl_world_reference_missing(world, index, &missing_reference) ? &missing_reference : NULL;
}

/* jl_world_load_entity_text: one entity file's text as if read from path
 * (may be NULL); dirty afterwards if mark_dirty. The new entity's ID in
 * id_out[0] (lo) and id_out[1] (hi). */
JLW_EXPORT int jlw_world_load_entity_text(jl_world *world, const char *path, const char *text, uint32_t size,
                                          int mark_dirty, uint32_t *id_out)
{
    clear_error();
    jl_entity *entity = NULL;
    jl_status status = jl_world_load_entity_text(world, path, text, size, mark_dirty != 0, &entity, &last_error);
    if (status != JL_OK) {
        if (last_error.status == JL_OK) fail(status, "cannot load the entity");
        return (int)status;
    }
    id_out[0] = (uint32_t)entity->id;
    id_out[1] = (uint32_t)(entity->id >> 32);
    return JL_OK;
}

/* jl_world_mark_all_dirty: the next save rewrites every file. */
JLW_EXPORT void jlw_world_mark_all_dirty(jl_world *world) { jl_world_mark_all_dirty(world); }

JLW_EXPORT uint32_t jlw_world_count(const jl_world *world) { return jl_world_count(world); }

/* Fills, for at most capacity live entities in slot order: ids (two uint32
 * per entity, lo then hi), positions (three floats), kinds (class index)
 * and states (bit 0 dirty, bit 1 read-only). Returns how many it wrote. */
JLW_EXPORT uint32_t jlw_world_rows(jl_world *world, uint32_t *ids, float *positions, uint8_t *kinds, uint8_t *states,
                                   uint32_t capacity)
{
    uint32_t n = 0;
    for (jl_world_iter it = jl_world_iter_all(world); n < capacity && jl_world_next(&it); n++) {
        const jl_entity *e = it.entity;
        ids[2 * n] = (uint32_t)e->id;
        ids[2 * n + 1] = (uint32_t)(e->id >> 32);
        positions[3 * n] = e->position.x;
        positions[3 * n + 1] = e->position.y;
        positions[3 * n + 2] = e->position.z;
        kinds[n] = e->derived_kind->kind;
        states[n] = (uint8_t)((e->is_dirty ? 1u : 0u) | ((e->flags & JL_ENTITY_READ_ONLY) ? 2u : 0u));
    }
    return n;
}

/* The canonical text of field (as jlw_entity_get) of at most capacity live
 * entities in jlw_world_rows' order, each followed by a NUL, in a malloc'd
 * block the caller frees, its size in *size; found[i] is 1 where entity i
 * has the field, else 0 (its text then empty). NULL with
 * JL_ERR_OUT_OF_MEMORY in jlw_last_error if the block cannot grow. */
JLW_EXPORT char *jlw_world_field_texts(const jl_world *world, const char *field, uint8_t *found, uint32_t capacity,
                                       uint32_t *size)
{
    clear_error();
    size_t used = 0;
    size_t room = 64 * (size_t)JL_VALUE_TEXT_MAX;
    char *block = malloc(room);
    uint32_t n = 0;
    for (jl_world_iter it = jl_world_iter_all(world); block && n < capacity && jl_world_next(&it); n++) {
        if (room - used < JL_VALUE_TEXT_MAX) {
            char *grown = realloc(block, room *= 2);
            if (!grown) free(block);
            block = grown;
            if (!block) break;
        }
        uint32_t length = 0;
        found[n] = jl_world_get_field(world, it.entity->id, field, block + used, &length) == JL_OK;
        if (!found[n]) length = 0;
        block[used + length] = '\0';
        used += length + 1;
    }
    if (!block) {
        fail(JL_ERR_OUT_OF_MEMORY, "no memory for the field's texts");
        used = 0;
    }
    *size = (uint32_t)used;
    return block;
}

/* State of entity id: -1 if there is none, else bit 0 dirty, bit 1
 * read-only, and its class index in bits 8-15. */
JLW_EXPORT int jlw_entity_state(const jl_world *world, uint32_t lo, uint32_t hi)
{
    const jl_entity *e = jl_world_find(world, make_id(lo, hi));
    if (!e) return -1;
    return (e->is_dirty ? 1 : 0) | ((e->flags & JL_ENTITY_READ_ONLY) ? 2 : 0) | (int)e->derived_kind->kind << 8;
}

/* The canonical .jasset text of entity id (jl_world_write_entity), with its
 * length in *size; valid until the next export that loads, saves or writes.
 * NULL with the reason in jlw_last_error. */
JLW_EXPORT const char *jlw_entity_text(jl_world *world, uint32_t lo, uint32_t hi, uint32_t *size)
{
    clear_error();
    const char *text = NULL;
    size_t text_size = 0;
    jl_status status = jl_world_write_entity(world, make_id(lo, hi), &text, &text_size);
    if (status != JL_OK) {
        fail(status, status == JL_ERR_NOT_FOUND ? "no entity with that ID" : "cannot write the entity");
        return NULL;
    }
    *size = (uint32_t)text_size;
    return text;
}

/* jl_world_set_field: field (or "position") of entity id from text. The
 * entity is dirty afterwards, or clean if that brought its text back to
 * exactly what its file holds (jlw_entity_state tells). */
JLW_EXPORT int jlw_entity_set(jl_world *world, uint32_t lo, uint32_t hi, const char *field, const char *text,
                              uint32_t size)
{
    clear_error();
    return reported(jl_world_set_field(world, make_id(lo, hi), field, text, size, &last_error), "cannot set the field");
}

/* jl_world_get_field: the canonical text of field (or "position", "id",
 * "class") of entity id, NUL-terminated, in a buffer valid until the next
 * jlw_entity_get, jlw_settings_get or jlw_class_field_default. NULL with
 * the reason in jlw_last_error (JL_ERR_NOT_FOUND: no such entity or field). */
JLW_EXPORT const char *jlw_entity_get(const jl_world *world, uint32_t lo, uint32_t hi, const char *field)
{
    clear_error();
    return value_or_null(jl_world_get_field(world, make_id(lo, hi), field, value_text, NULL),
                         "no such entity or field");
}

/* jl_world_restore_entity_text: entity id becomes the entity in
 * text[0, size) (a whole .jasset text that carries ID id), or is removed
 * when size is 0 (text may then be 0): one undo or redo step. Returns a
 * status; on failure the entity is as it was and jlw_last_error says why
 * and where (path Entities/<id>.jasset, line, column). Afterwards the
 * entity is clean exactly when its text is what its file holds (the file
 * it was loaded from or last saved to, even if it was removed in between),
 * and an entity back after a removal keeps its file: the caller keeps no
 * texts of files and decides nothing about cleanliness itself; read the
 * result with jlw_entity_state. */
JLW_EXPORT int jlw_world_restore_entity_text(jl_world *world, uint32_t lo, uint32_t hi, const char *text, uint32_t size)
{
    clear_error();
    const char *restored = size ? text : NULL; /* size 0: remove */
    jl_status status = jl_world_restore_entity_text(world, make_id(lo, hi), restored, size, &last_error);
    return reported(status, "cannot restore the entity");
}

/* jl_world_reload_file_text: the file name of the world (relative to its
 * directory) holds text[0, size) now (text 0: the file is gone); its
 * entity or the settings become it, clean. The entity's ID in id_out[0]
 * (lo) and id_out[1] (hi), also on failure (0 for the settings or a name
 * that is no file of the world). */
/* jl_world_load_class_text: one class file's text (path names it,
 * "Classes/<Name>.jclass"), before the entities of its class. */
JLW_EXPORT int jlw_world_load_class_text(jl_world *world, const char *path, const char *text, uint32_t size)
{
    clear_error();
    return reported(jl_world_load_class_text(world, path, text, size, &last_error), "cannot load the class file");
}

JLW_EXPORT int jlw_world_reload_file_text(jl_world *world, const char *name, const char *text, uint32_t size,
                                          uint32_t *id_out)
{
    clear_error();
    uint64_t id = 0;
    jl_status status = jl_world_reload_file_text(world, name, text, size, &id, &last_error);
    id_out[0] = (uint32_t)id;
    id_out[1] = (uint32_t)(id >> 32);
    return reported(status, "cannot load the file");
}

/* jl_world_reload_file: the file read from disk under dir, which must hold
 * expected[0, size) (expected 0: no file); id_out as above. */
JLW_EXPORT int jlw_world_reload_file(jl_world *world, const char *dir, const char *name, const char *expected,
                                     uint32_t size, uint32_t *id_out)
{
    clear_error();
    uint64_t id = 0;
    jl_status status = jl_world_reload_file(world, dir, name, expected, size, &id, &last_error);
    id_out[0] = (uint32_t)id;
    id_out[1] = (uint32_t)(id >> 32);
    return reported(status, "cannot read the file");
}

/* jl_world_mark_saved: entity id's file holds its current text now (or is
 * deleted, with no entity of id), written by a save made elsewhere. */
JLW_EXPORT int jlw_entity_mark_saved(jl_world *world, uint32_t lo, uint32_t hi)
{
    clear_error();
    return reported(jl_world_mark_saved(world, make_id(lo, hi)), "the entity comes from a newer file");
}

/* jl_world_create_of: a new entity of the world's class `kind` at x y z; its
 * ID in id_out[0] (lo) and id_out[1] (hi). */
JLW_EXPORT int jlw_entity_create(jl_world *world, uint32_t kind, float x, float y, float z, uint32_t *id_out)
{
    clear_error();
    jl_entity *entity = NULL;
    const jl_class *cls = jl_world_class_at(world, kind);
    jl_status status = jl_world_create_of(world, cls, x, y, z, &entity);
    if (status != JL_OK) {
        return (int)jl_error_set(&last_error, status, NULL, 0, 0, "cannot create a %s entity",
                                 cls ? cls->name : "unknown");
    }
    id_out[0] = (uint32_t)entity->id;
    id_out[1] = (uint32_t)(entity->id >> 32);
    return JL_OK;
}

/* jl_world_remove: destroys entity id; its file goes at the next save. */
JLW_EXPORT int jlw_entity_remove(jl_world *world, uint32_t lo, uint32_t hi)
{
    clear_error();
    jl_status status = jl_world_remove(world, make_id(lo, hi));
    if (status == JL_ERR_NOT_FOUND) fail(status, "no entity with that ID");
    else if (status == JL_ERR_READ_ONLY) fail(status, "the entity comes from a newer file and is never changed");
    else if (status != JL_OK) fail(status, "cannot remove the entity");
    return (int)status;
}

/* ---- the world settings (WorldSettings.jasset) ---- */

/* State of the settings: bit 0 dirty, bit 1 read-only (newer file), bit 2
 * failed (the file did not load and is never rewritten). */
JLW_EXPORT int jlw_settings_state(const jl_world *world) { return (int)jl_world_settings_state(world); }

/* The canonical WorldSettings.jasset text (jl_world_write_settings), with
 * its length in *size; valid until the next export that loads, saves or
 * writes. NULL with the reason in jlw_last_error. */
JLW_EXPORT const char *jlw_settings_text(jl_world *world, uint32_t *size)
{
    clear_error();
    const char *text = NULL;
    size_t text_size = 0;
    jl_status status = jl_world_write_settings(world, &text, &text_size);
    if (status != JL_OK) {
        fail(status, "cannot write the world settings");
        return NULL;
    }
    *size = (uint32_t)text_size;
    return text;
}

/* jl_world_settings_set: a settings field from text; dirty afterwards,
 * unless back to what WorldSettings.jasset holds (jlw_settings_state). */
JLW_EXPORT int jlw_settings_set(jl_world *world, const char *field, const char *text, uint32_t size)
{
    clear_error();
    return reported(jl_world_settings_set(world, field, text, size, &last_error), "cannot set the setting");
}

/* jl_world_settings_get: the canonical text of a settings field, as
 * jlw_entity_get (same buffer and lifetime); NULL with JL_ERR_NOT_FOUND in
 * jlw_last_error for a field the settings do not have. */
JLW_EXPORT const char *jlw_settings_get(const jl_world *world, const char *field)
{
    clear_error();
    return value_or_null(jl_world_settings_get(world, field, value_text, NULL),
                         "the world settings have no such field");
}

/* jl_world_restore_settings_text: the settings become those of
 * text[0, size) (text not 0; size 0 is the defaults): one undo or redo
 * step. Returns a status; on failure the settings are as they were
 * (JL_ERR_READ_ONLY for settings from a newer or a failed file).
 * Afterwards they are clean exactly when their text is what
 * WorldSettings.jasset holds; read it with jlw_settings_state. */
JLW_EXPORT int jlw_world_restore_settings_text(jl_world *world, const char *text, uint32_t size)
{
    clear_error();
    return reported(jl_world_restore_settings_text(world, text, size, &last_error),
                    "cannot restore the world settings");
}

/* jl_world_settings_mark_saved: WorldSettings.jasset holds the current
 * settings now, written by a save made elsewhere. */
JLW_EXPORT int jlw_settings_mark_saved(jl_world *world)
{
    clear_error();
    return reported(jl_world_settings_mark_saved(world), "the world settings are read-only");
}

/* jl_world_load_settings_text: the settings from a WorldSettings.jasset
 * text as if read from path; unchanged on failure. The load leaves them
 * clean; mark_dirty makes them dirty (the text differs from the file). */
JLW_EXPORT int jlw_world_load_settings_text(jl_world *world, const char *path, const char *text, uint32_t size,
                                            int mark_dirty)
{
    clear_error();
    return reported(jl_world_load_settings_text(world, path, text, size, mark_dirty != 0, &last_error),
                    "cannot load the world settings");
}

/* Runs a save into dir, its report kept in last_save. */
static int save_with(jl_status (*save)(jl_world *, const char *, jl_save_report *), jl_world *world, const char *dir)
{
    clear_error();
    memset(&last_save, 0, sizeof last_save);
    jl_status status = save(world, dir, &last_save);
    if (status != JL_OK) last_error = last_save.error;
    return (int)status;
}

/* jl_world_save into dir. The report (written and deleted paths) is read
 * with jlw_save_* until the next save of any world. */
JLW_EXPORT int jlw_world_save(jl_world *world, const char *dir) { return save_with(jl_world_save, world, dir); }

/* jl_world_save_new: the first save of a world without a directory; the
 * report as for jlw_world_save. */
JLW_EXPORT int jlw_world_save_new(jl_world *world, const char *dir) { return save_with(jl_world_save_new, world, dir); }
JLW_EXPORT uint32_t jlw_save_written_count(void) { return last_save.written_count; }
JLW_EXPORT const char *jlw_save_written(uint32_t i)
{
    return i < last_save.written_count ? last_save.written[i] : NULL;
}
JLW_EXPORT uint32_t jlw_save_deleted_count(void) { return last_save.deleted_count; }
JLW_EXPORT const char *jlw_save_deleted(uint32_t i)
{
    return i < last_save.deleted_count ? last_save.deleted[i] : NULL;
}
JLW_EXPORT uint32_t jlw_save_failed_count(void) { return last_save.failed_count; }
JLW_EXPORT uint32_t jlw_save_conflict_count(void) { return last_save.conflict_count; }
JLW_EXPORT const char *jlw_save_conflict(uint32_t i)
{
    return i < last_save.conflict_count ? last_save.conflicts[i] : NULL;
}
/* "took over the lock left by pid N, ..." when the save did, else "". */
JLW_EXPORT const char *jlw_save_notice(void) { return last_save.notice; }

/* Diagnostics of the world (valid until shutdown; read with jlw_error_*). */
JLW_EXPORT uint32_t jlw_world_diagnostic_count(const jl_world *world) { return jl_world_diagnostic_count(world); }
JLW_EXPORT const jl_error *jlw_world_diagnostic(const jl_world *world, uint32_t i)
{
    return jl_world_diagnostic(world, i);
}

/* ---- snapshots ---- */

/* Encoded bytes (on an arena) as a malloc'd block the caller frees, with
 * its size in *size; NULL with the failure `no_memory`. */
static uint8_t *malloc_copy(const jl_snapshot_bytes *bytes, uint32_t *size, const char *no_memory)
{
    uint8_t *copy = malloc(bytes->size ? bytes->size : 1);
    if (!copy) {
        fail(JL_ERR_OUT_OF_MEMORY, no_memory);
        return NULL;
    }
    memcpy(copy, bytes->data, bytes->size);
    *size = (uint32_t)bytes->size;
    return copy;
}

/* Encodes the whole world (jl_snapshot_encode_world: entities, their
 * unknown keys, the settings) into a malloc'd block the caller frees, with
 * its size in *size; NULL on failure. */
JLW_EXPORT uint8_t *jlw_snapshot_encode(jl_world *world, uint32_t *size)
{
    clear_error();
    jl_snapshot_bytes bytes = {0};
    jl_status status = jl_snapshot_encode_world_scratch(world, &bytes, &last_error);
    if (status != JL_OK) {
        reported(status, "cannot encode the snapshot");
        return NULL;
    }
    return malloc_copy(&bytes, size, "no memory for the snapshot");
}

/* Decodes size bytes into world, which must hold no entity
 * (jl_snapshot_decode_world). */
JLW_EXPORT int jlw_snapshot_decode(jl_world *world, const uint8_t *data, uint32_t size)
{
    clear_error();
    return reported(jl_snapshot_decode_world(data, size, world, &last_error), "cannot decode the snapshot");
}

/* Largest inflated snapshot the decoder accepts (JL_SNAPSHOT_MAX_BYTES) and
 * longest snapshot text worth decoding (JL_SNAPSHOT_MAX_TEXT). */
JLW_EXPORT uint32_t jlw_snapshot_max_bytes(void) { return JL_SNAPSHOT_MAX_BYTES; }
JLW_EXPORT uint32_t jlw_snapshot_max_text(void) { return JL_SNAPSHOT_MAX_TEXT; }

/* base64url (snapshot.h): the encoded size of size bytes, encoding into out
 * (returns characters written), and decoding (status; bytes in *out_size). */
JLW_EXPORT uint32_t jlw_base64url_encoded_size(uint32_t size) { return (uint32_t)jl_base64url_encoded_size(size); }
JLW_EXPORT uint32_t jlw_base64url_encode(const uint8_t *data, uint32_t size, char *out)
{
    return (uint32_t)jl_base64url_encode(data, size, out);
}
JLW_EXPORT uint32_t jlw_base64url_decoded_size_max(uint32_t text_size)
{
    return (uint32_t)jl_base64url_decoded_size_max(text_size);
}
JLW_EXPORT int jlw_base64url_decode(const char *text, uint32_t text_size, uint8_t *out, uint32_t capacity,
                                    uint32_t *out_size)
{
    clear_error();
    size_t decoded = 0;
    jl_status status = jl_base64url_decode(text, text_size, out, capacity, &decoded, &last_error);
    *out_size = (uint32_t)decoded;
    return reported(status, "bad snapshot text");
}

/* The snapshot text inside a link (jl_snapshot_link_payload): its offset
 * from link in *offset and its length in *size. */
JLW_EXPORT void jlw_snapshot_link_payload(const char *link, uint32_t link_size, uint32_t *offset, uint32_t *size)
{
    size_t payload_size = 0;
    const char *payload = jl_snapshot_link_payload(link, link_size, &payload_size);
    *offset = (uint32_t)(payload - link);
    *size = (uint32_t)payload_size;
}

/* ---- change links (changes.h) ---- */

/* A block growing by realloc for the records an export hands back. */
typedef struct out_block {
    uint8_t *data;
    size_t size, capacity;
    bool failed;
} out_block;

static void put_bytes(out_block *out, const void *bytes, size_t size)
{
    if (out->failed) return;
    if (out->size + size > out->capacity) {
        size_t capacity = out->capacity ? out->capacity * 2 : 1024;
        while (capacity < out->size + size) capacity *= 2;
        uint8_t *grown = realloc(out->data, capacity);
        if (!grown) {
            out->failed = true;
            return;
        }
        out->data = grown;
        out->capacity = capacity;
    }
    if (size) memcpy(out->data + out->size, bytes, size);
    out->size += size;
}

static void put_u32(out_block *out, uint32_t v) { put_bytes(out, &v, sizeof v); }

/* The block, its size in *size; NULL (freed) with the failure if it could not grow. */
static uint8_t *take_block(out_block *out, uint32_t *size)
{
    if (out->failed || !out->data) {
        free(out->data);
        fail(JL_ERR_OUT_OF_MEMORY, "no memory for the answer");
        return NULL;
    }
    *size = (uint32_t)out->size;
    return out->data;
}

static uint32_t read_u32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Encodes a change link (jl_changes_encode) of the world named name from
 * records[0, size): per entity u32 lo, u32 hi (0, 0: the settings), u32
 * old size, u32 new size (JLW_ABSENT: no such text), then the old and new
 * texts. Returns the bytes in a malloc'd block the caller frees (size in
 * *out_size), or NULL with the failure in jlw_last_error. */
JLW_EXPORT uint8_t *jlw_changes_encode(const char *name, const uint8_t *records, uint32_t size, uint32_t *out_size)
{
    clear_error();
    uint32_t count = 0;
    size_t end = 0;
    while (end + 16 <= size) {
        const uint32_t old_size = read_u32(records + end + 8), new_size = read_u32(records + end + 12);
        end += 16 + (size_t)(old_size == JLW_ABSENT ? 0 : old_size) + (new_size == JLW_ABSENT ? 0 : new_size);
        count++;
    }
    if (end != size) {
        fail(JL_ERR_INVALID_ARGUMENT, "the change records do not add up");
        return NULL;
    }
    jl_change_input *inputs = malloc((size_t)count * sizeof *inputs + 1);
    jl_arena arena = {0};
    if (!inputs || jl_arena_init(&arena, ((size_t)2 << 20) + (size_t)size * 2 + (size_t)count * 64) != JL_OK) {
        free(inputs);
        fail(JL_ERR_OUT_OF_MEMORY, "no memory to encode the changes");
        return NULL;
    }
    size_t at = 0;
    for (uint32_t i = 0; i < count; i++) {
        const uint32_t old_size = read_u32(records + at + 8), new_size = read_u32(records + at + 12);
        const char *text = (const char *)records + at + 16;
        inputs[i] = (jl_change_input){.id = make_id(read_u32(records + at), read_u32(records + at + 4))};
        if (old_size != JLW_ABSENT) {
            inputs[i].old_text = text;
            inputs[i].old_size = old_size;
            text += old_size;
        }
        if (new_size != JLW_ABSENT) {
            inputs[i].new_text = text;
            inputs[i].new_size = new_size;
            text += new_size;
        }
        at = (size_t)((const uint8_t *)text - records);
    }
    jl_snapshot_bytes bytes = {0};
    jl_status status = jl_changes_encode(name, inputs, count, &arena, &bytes, NULL, &last_error);
    uint8_t *copy = NULL;
    if (status == JL_OK) copy = malloc_copy(&bytes, out_size, "no memory for the change link");
    else reported(status, "cannot encode the changes");
    jl_arena_release(&arena);
    free(inputs);
    return copy;
}

/* An arena for decoding size bytes of a change link: its lists take at
 * most about 20 bytes per input byte (an entity is at least 2 bytes, a key
 * 3). */
static bool changes_arena(jl_arena *arena, uint32_t size)
{
    return jl_arena_init(arena, ((size_t)1 << 20) + (size_t)size * 20) == JL_OK;
}

static void put_entity(out_block *out, uint32_t kind, const jl_change_entity *e)
{
    put_u32(out, kind);
    put_u32(out, (uint32_t)e->id);
    put_u32(out, (uint32_t)(e->id >> 32));
    put_u32(out, e->print);
    put_u32(out, kind == 2 ? (uint32_t)e->text_size : e->field_count);
    if (kind == 2) put_bytes(out, e->text, e->text_size);
    for (uint32_t f = 0; kind != 2 && f < e->field_count; f++) {
        const jl_change_field *field = &e->fields[f];
        put_u32(out, field->key_size);
        put_u32(out, field->value ? field->value_size : JLW_ABSENT);
        put_bytes(out, field->key, field->key_size);
        if (field->value) put_bytes(out, field->value, field->value_size);
    }
}

/* Decodes size bytes of a change link into c, on arena (released by the
 * caller); false with the failure in jlw_last_error (arena released). */
static bool decode_changes(const uint8_t *data, uint32_t size, jl_arena *arena, jl_changes *c)
{
    if (!changes_arena(arena, size)) {
        fail(JL_ERR_OUT_OF_MEMORY, "no memory to decode the changes");
        return false;
    }
    jl_status status = jl_changes_decode(data, size, arena, c, &last_error);
    if (status != JL_OK) {
        jl_arena_release(arena);
        reported(status, "cannot decode the changes");
        return false;
    }
    return true;
}

/* Decodes a change link's bytes (jl_changes_decode) into a malloc'd block
 * the caller frees (size in *out_size): u32 world name size and its bytes,
 * u32 record count, then per entity u32 kind (0 the settings, 1 changed,
 * 2 added, 3 deleted), u32 lo, u32 hi, u32 print, u32 n; for kind 2 the
 * n bytes of its text; for 0 and 1 n keys, each u32 key size, u32 value
 * size (JLW_ABSENT: removed), key and value bytes. NULL with the failure
 * in jlw_last_error (JL_ERR_CORRUPT naming the byte). */
JLW_EXPORT uint8_t *jlw_changes_decode(const uint8_t *data, uint32_t size, uint32_t *out_size)
{
    clear_error();
    jl_arena arena = {0};
    jl_changes c;
    if (!decode_changes(data, size, &arena, &c)) return NULL;
    out_block out = {0};
    put_u32(&out, c.world_size);
    put_bytes(&out, c.world, c.world_size);
    put_u32(&out, (c.has_settings ? 1 : 0) + c.changed_count + c.added_count + c.deleted_count);
    if (c.has_settings) put_entity(&out, 0, &c.settings);
    for (uint32_t i = 0; i < c.changed_count; i++) put_entity(&out, 1, &c.changed[i]);
    for (uint32_t i = 0; i < c.added_count; i++) put_entity(&out, 2, &c.added[i]);
    for (uint32_t i = 0; i < c.deleted_count; i++) put_entity(&out, 3, &c.deleted[i]);
    jl_arena_release(&arena);
    return take_block(&out, out_size);
}

/* One report of jlw_changes_apply: u32 kind (jl_change_kind), u32 outcome
 * (jl_change_outcome), u32 lo, u32 hi, u32 message size and the message
 * (why it failed; empty otherwise). */
typedef struct reports {
    out_block out;
    uint32_t count;
} reports;

static void put_report(void *ctx, const jl_change_report *r)
{
    reports *all = ctx;
    out_block *out = &all->out;
    all->count++;
    const char *message = r->err ? r->err->message : "";
    put_u32(out, (uint32_t)r->kind);
    put_u32(out, (uint32_t)r->outcome);
    put_u32(out, (uint32_t)r->id);
    put_u32(out, (uint32_t)(r->id >> 32));
    put_u32(out, (uint32_t)strlen(message));
    put_bytes(out, message, strlen(message));
}

/* Decodes a change link's bytes and applies them to world
 * (jl_changes_apply; flags 1: JL_CHANGES_ALL_OR_NOTHING). Returns a
 * malloc'd block the caller frees (size in *out_size): u32 count, then
 * that many reports (put_report), settings first, then changed, added,
 * deleted entities. NULL with the failure in jlw_last_error: a link that
 * does not decode (nothing applied), or out of memory (what was applied
 * before stays). */
JLW_EXPORT uint8_t *jlw_changes_apply(jl_world *world, const uint8_t *data, uint32_t size, uint32_t flags,
                                      uint32_t *out_size)
{
    clear_error();
    jl_arena arena = {0};
    jl_changes c;
    if (!decode_changes(data, size, &arena, &c)) return NULL;
    reports all = {0};
    put_u32(&all.out, 0); /* the count, known at the end */
    jl_status status =
        jl_changes_apply(world, &c, flags & JL_CHANGES_ALL_OR_NOTHING, &arena, put_report, &all, NULL, NULL, NULL);
    jl_arena_release(&arena);
    if (status != JL_OK) {
        free(all.out.data);
        reported(status, "cannot apply the changes");
        return NULL;
    }
    uint8_t *block = take_block(&all.out, out_size);
    if (block) memcpy(block, &all.count, sizeof all.count);
    return block;
}

/* ---- field values: one text codec, the archive's ---- */

/* The `; version` this build writes for every entity (JL_ENTITY_BASE_VERSION). */
JLW_EXPORT uint32_t jlw_entity_base_version(void) { return JL_ENTITY_BASE_VERSION; }

/* Checks text[0, size) as a value of the field type named type ("f32",
 * "index", ...; flags as in jl_field, e.g. JL_FIELD_ALLOW_INF) with the
 * parser files are read with (jl_value_check), and returns the value's
 * canonical text (buffer as for jlw_entity_get). NULL on failure, with in
 * jlw_last_error JL_ERR_PARSE, the 1-based column and why, or
 * JL_ERR_INVALID_ARGUMENT for an unknown type name or "enum" (an enum
 * value needs its field's names: jlw_class_field_check). */
JLW_EXPORT const char *jlw_value_check(const char *type, uint32_t flags, const char *text, uint32_t size)
{
    clear_error();
    for (int t = 0; t < JL_FIELD_TYPE_COUNT; t++) {
        if (strcmp(type, jl_field_type_name((jl_field_type)t)) != 0) continue;
        const jl_field field = {.type = (jl_field_type)t, .flags = flags};
        return jl_value_check(&field, text, size, value_text, NULL, &last_error) == JL_OK ? value_text : NULL;
    }
    fail(JL_ERR_INVALID_ARGUMENT, "no field type of that name");
    return NULL;
}

/* jlw_value_check for field `index` of class `kind` of world (NULL: of the
 * program; the settings' kind too): its type, flags and, for an enum, its names. NULL on failure as
 * jlw_value_check, or with JL_ERR_NOT_FOUND if there is no such field. */
JLW_EXPORT const char *jlw_class_field_check(const jl_world *world, uint32_t kind, uint32_t index, const char *text,
                                             uint32_t size)
{
    clear_error();
    const jl_field *field = class_field(world, kind, index);
    if (!field) {
        fail(JL_ERR_NOT_FOUND, "no such class or field");
        return NULL;
    }
    return jl_value_check(field, text, size, value_text, NULL, &last_error) == JL_OK ? value_text : NULL;
}

/* ---- opaque entities (world.h): classes files name that no build describes ---- */

/* 1 if class `kind` of world is opaque (jl_class_is_opaque), else 0. */
JLW_EXPORT int jlw_class_opaque(const jl_world *world, uint32_t kind)
{
    return jl_class_is_opaque(class_of(world, kind)) ? 1 : 0;
}

/* The keys entity id keeps as text, in file order: how many, and the
 * index-th NUL-terminated in the buffer of jlw_entity_get (NULL past the
 * count); read a key's text with jlw_entity_get. */
JLW_EXPORT uint32_t jlw_entity_kept_count(const jl_world *world, uint32_t lo, uint32_t hi)
{
    return jl_world_kept_key_count(world, make_id(lo, hi));
}
JLW_EXPORT const char *jlw_entity_kept_key(const jl_world *world, uint32_t lo, uint32_t hi, uint32_t index)
{
    uint32_t size = 0;
    const char *key = jl_world_kept_key(world, make_id(lo, hi), index, &size);
    if (!key || size >= sizeof value_text) return NULL;
    memcpy(value_text, key, size);
    value_text[size] = '\0';
    return value_text;
}

/* Warnings of the loads (jl_world_warning), read with jlw_error_*; the
 * pointer is valid until the next jlw_world_warning. NULL past the count. */
static jl_error warning;
JLW_EXPORT uint32_t jlw_world_warning_count(const jl_world *world) { return jl_world_warning_count(world); }
JLW_EXPORT const jl_error *jlw_world_warning(const jl_world *world, uint32_t index)
{
    return jl_world_warning(world, index, &warning) ? &warning : NULL;
}

/* ---- the review of changes ---- */

/* The changes of a jlw_text_diff, appended as records: u32 key size, u32
 * old size, u32 new size (little-endian; JLW_ABSENT for a value one side
 * lacks), then the key, old and new bytes. */
typedef struct diff_out {
    uint8_t *data;
    size_t size, capacity;
} diff_out;

static bool diff_append(diff_out *out, const void *bytes, size_t size)
{
    if (out->size + size > out->capacity) {
        size_t capacity = out->capacity ? out->capacity * 2 : 1024;
        while (capacity < out->size + size) capacity *= 2;
        uint8_t *grown = realloc(out->data, capacity);
        if (!grown) return false;
        out->data = grown;
        out->capacity = capacity;
    }
    if (size) memcpy(out->data + out->size, bytes, size);
    out->size += size;
    return true;
}

static jl_status diff_record(void *ctx, const jl_key_change *change)
{
    diff_out *out = ctx;
    const uint32_t sizes[3] = {change->key_size, change->old_value ? change->old_size : JLW_ABSENT,
                               change->new_value ? change->new_size : JLW_ABSENT};
    bool ok = diff_append(out, sizes, sizeof sizes) && diff_append(out, change->key, change->key_size) &&
              (!change->old_value || diff_append(out, change->old_value, change->old_size)) &&
              (!change->new_value || diff_append(out, change->new_value, change->new_size));
    return ok ? JL_OK : fail(JL_ERR_OUT_OF_MEMORY, "no memory for the changes");
}

/* jl_text_diff of two .jasset texts (path names them both in errors, may be
 * NULL): the changes as records (diff_record) in a malloc'd block the
 * caller frees, its size in *size, the number of changes in *count; NULL
 * with the failure in jlw_last_error (JL_ERR_PARSE with line and column).
 * No changes: a block of size 0. */
JLW_EXPORT uint8_t *jlw_text_diff(const char *old_text, uint32_t old_size, const char *new_text, uint32_t new_size,
                                  const char *path, uint32_t *size, uint32_t *count)
{
    clear_error();
    /* Tokenizing takes a fixed block per text (JL_ARCHIVE_KEYS_MAX entries):
     * one scratch arena, reserved at the first call, serves every diff. */
    static jl_arena scratch;
    if (!scratch.base && jl_arena_init(&scratch, (size_t)1 << 20) != JL_OK) {
        fail(JL_ERR_OUT_OF_MEMORY, "no memory to compare the texts");
        return NULL;
    }
    /* A block even for no change: NULL means failure. */
    diff_out out = {.data = malloc(1), .capacity = 1};
    if (!out.data) {
        fail(JL_ERR_OUT_OF_MEMORY, "no memory for the changes");
        return NULL;
    }
    uint32_t changes = 0;
    jl_status status = jl_text_diff(old_text, old_size, path, new_text, new_size, path, &scratch, diff_record, &out,
                                    &changes, &last_error);
    if (status != JL_OK) {
        reported(status, "cannot compare the texts");
        free(out.data);
        return NULL;
    }
    *size = (uint32_t)out.size;
    *count = changes;
    return out.data;
}

/* What a jlw_text_merge collects: the conflicts as records, and the keys
 * whose conflicts take theirs (NUL-separated names). */
typedef struct merge_out {
    diff_out records;
    const char *theirs_keys;
    uint32_t theirs_keys_size;
} merge_out;

/* A conflict appended as a record: u32 key, base, ours and theirs sizes
 * (JLW_ABSENT for a missing value), then those bytes. Takes theirs if the
 * key is one of theirs_keys. */
static jl_status merge_record(void *ctx, const jl_key_conflict *c, jl_merge_side *keep)
{
    merge_out *out = ctx;
    for (const char *k = out->theirs_keys, *end = k + out->theirs_keys_size; k < end;) {
        const char *nul = memchr(k, '\0', (size_t)(end - k));
        const size_t n = (size_t)((nul ? nul : end) - k);
        if (n == c->key_size && memcmp(k, c->key, n) == 0) *keep = JL_MERGE_THEIRS;
        k += n + 1;
    }
    const uint32_t sizes[4] = {c->key_size, c->base_value ? c->base_size : JLW_ABSENT,
                               c->ours_value ? c->ours_size : JLW_ABSENT,
                               c->theirs_value ? c->theirs_size : JLW_ABSENT};
    diff_out *r = &out->records;
    bool ok = diff_append(r, sizes, sizeof sizes) && diff_append(r, c->key, c->key_size) &&
              (!c->base_value || diff_append(r, c->base_value, c->base_size)) &&
              (!c->ours_value || diff_append(r, c->ours_value, c->ours_size)) &&
              (!c->theirs_value || diff_append(r, c->theirs_value, c->theirs_size));
    return ok ? JL_OK : fail(JL_ERR_OUT_OF_MEMORY, "no memory for the conflicts");
}

/* jl_text_merge of three .jasset texts (path names them in errors, may be
 * NULL); a conflict takes theirs if its key is one of theirs_keys
 * (NUL-separated names, theirs_keys_size bytes), else ours. Returns a
 * malloc'd block the caller frees, its size in *size: the *count conflicts
 * as records (merge_record), in the merged text's order, then the merged
 * text (the rest of the block). NULL with the failure in jlw_last_error
 * (JL_ERR_PARSE with line and column). */
JLW_EXPORT uint8_t *jlw_text_merge(const char *base, uint32_t base_size, const char *ours, uint32_t ours_size,
                                   const char *theirs, uint32_t theirs_size, const char *path, const char *theirs_keys,
                                   uint32_t theirs_keys_size, uint32_t *size, uint32_t *count)
{
    clear_error();
    /* An arena for this merge: the three entry tables (fixed, well under
     * 1 MiB), then the merged text, at most both sides' bytes and two per
     * key. */
    jl_arena arena = {0};
    merge_out out = {.records = {.data = malloc(1), .capacity = 1},
                     .theirs_keys = theirs_keys,
                     .theirs_keys_size = theirs_keys_size};
    if (!out.records.data || jl_arena_init(&arena, ((size_t)1 << 20) + ours_size + theirs_size) != JL_OK) {
        free(out.records.data);
        fail(JL_ERR_OUT_OF_MEMORY, "no memory to merge the texts");
        return NULL;
    }
    const jl_merge_input in[3] = {{base, base_size, path}, {ours, ours_size, path}, {theirs, theirs_size, path}};
    const char *text = NULL;
    size_t text_size = 0;
    uint32_t conflicts = 0;
    jl_status status = jl_text_merge(&in[0], &in[1], &in[2], &arena, &arena, merge_record, &out, &text, &text_size,
                                     &conflicts, &last_error);
    if (status == JL_OK && !diff_append(&out.records, text, text_size))
        status = fail(JL_ERR_OUT_OF_MEMORY, "no memory for the merged text");
    jl_arena_release(&arena);
    if (status != JL_OK) {
        reported(status, "cannot merge the texts");
        free(out.records.data);
        return NULL;
    }
    *size = (uint32_t)out.records.size;
    *count = conflicts;
    return out.records.data;
}
