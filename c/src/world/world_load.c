/* world_load.c - loading a world directory, one entity file's text, the
 * settings' text, and an entity from values checked already (a snapshot's)
 * (world.h; JULIET-SPEC-002 §4.4 LoadWorld, deserialize_entity_asset).
 *
 * Every file goes through the world's jl_fs table, so tests can count and
 * fault each operation. Per-file work uses the scratch arena between a mark
 * and a pop, so loading 10k files needs the memory of a few megabytes of
 * them (READ_BUDGET) and the largest one. */
#include <errno.h>
#include <string.h>

#include "archive/archive_internal.h"
#include "entity/entity_manager_internal.h"
#include "juliet/platform.h"
#include "juliet/world_lock.h"
#include "world/world_internal.h"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

/* ---- one file's text ---- */

/* The general path: tokenized, then deserialized by key; a class no build
 * describes is kept as text under a class of its name. */
static jl_status read_general(jl_world *w, jl_archive *ar, const char *path, uint64_t expected_id, const char *text,
                              size_t size, jl_entity **out, jl_error *e)
{
    jl_entity *entity = NULL;
    jl_status s = jl_archive_tokenize(ar, &w->scratch, text, size, path, e);
    if (s == JL_OK && expected_id) {
        /* Checked first: another ID may belong to a live entity. A missing
         * or bad `; id` is the reader's to report. */
        jl_archive_entry *ide = jl_archive_find(ar, "id");
        uint64_t id = 0;
        if (ide && jl_value_parse(JL_FIELD_ENTITY_REF, 0, ide->value, ide->value_size, &id, NULL, NULL) == JL_OK &&
            id != expected_id)
            s = jl_error_set(e, JL_ERR_PARSE, path, ide->value_line, ide->value_col,
                             "the text is entity 0x%016llx, not 0x%016llx", (unsigned long long)id,
                             (unsigned long long)expected_id);
    }
    ar->strings = &w->strings;
    if (s == JL_OK) s = jl_entity_deserialize_in_place(&w->manager, ar, &entity);
    /* A class no build describes: kept as text under a class of its name. */
    if (s == JL_ERR_UNKNOWN_CLASS && (s = jli_opaque_class_for(w, ar, e)) == JL_OK)
        s = jl_entity_deserialize_in_place(&w->manager, ar, &entity);
    if (s == JL_ERR_DUPLICATE_ID) {
        /* Name both files (or say the other one is new in this session). */
        jl_archive_entry *ide = jl_archive_find(ar, "id");
        uint64_t id = 0;
        jl_value_parse(JL_FIELD_ENTITY_REF, 0, ide->value, ide->value_size, &id, NULL, NULL);
        const jl_entity *other = jl_entity_find(&w->manager, id);
        const jli_entity_record *x = other ? jli_record_of(w, other) : NULL;
        char other_path[JL_ERROR_PATH_MAX] = "an entity created in this session";
        if (x && x->dir_at) jl_world_entity_path(other_path, sizeof other_path, jli_storage_at(w, x->dir_at), id);
        jl_error_set(e, JL_ERR_DUPLICATE_ID, path, ide->value_line, ide->value_col,
                     "duplicate entity ID 0x%016llx: already loaded from %s", (unsigned long long)id, other_path);
    }
    *out = entity;
    return s;
}

/* What the world keeps of an entity's file (its unknown keys, its
 * reference sites, where it lies), in the slot's record. A record left by
 * the slot's last entity (destroyed through the manager) is given back
 * first. On failure the entity is taken back. Inline: on every load's
 * path, where a call cost 31 instructions per file. */
static inline jl_status keep_record(jl_world *w, jl_archive *ar, jl_entity *entity, const char *path, const char *dir,
                                    bool mark_dirty, jl_error *e)
{
    uint32_t slot = (uint32_t)(entity - w->manager.entities);
    jli_entity_record *x = jli_record_take(w, slot), kept;
    jl_status s = x ? jli_record_build(w, ar, entity->derived_kind, entity->derived, path, slot, &kept, e)
                    : jl_error_set(e, JL_ERR_OUT_OF_MEMORY, path, 0, 0, "no room left for the entity's record");
    if (s != JL_OK) {
        jli_entity_rollback_allocation(&w->manager, entity);
        return s;
    }
    kept.id = entity->id;
    kept.dir_at = jli_storage_offset(w, dir);
    kept.file = mark_dirty ? JLI_FILE_UNKNOWN : JLI_FILE_UNPRINTED; /* clean: it is its file */
    *x = kept;
    return JL_OK;
}

jl_status jli_world_load_entity(jl_world *w, const char *path, const char *dir, uint64_t expected_id, const char *text,
                                size_t size, bool mark_dirty, jl_entity **out, jl_error *err)
{
    jl_error local;
    jl_error *e = err ? err : &local;
    const size_t mark = w->scratch.used, strings_mark = w->strings.used;
    jl_archive ar;
    jl_entity *entity = NULL;
    /* A canonical file in one pass; any other (or one for another ID) is
     * read again by the general path, which reports what is wrong. */
    if (!w->canonical) {
        /* Kept with the classes it describes (never given back before jl_world_free). */
        w->canonical = jl_arena_push(&w->storage.arena, sizeof *w->canonical, _Alignof(jli_canonical_cache));
        if (w->canonical) memset(w->canonical, 0, sizeof *w->canonical);
    }
    jl_status s = w->canonical
                      ? jli_entity_read_canonical(&w->manager, w->canonical, &w->storage.arena, &ar, &w->scratch,
                                                  &w->strings, text, size, path, expected_id, e, &entity)
                      : JL_ERR_NOT_FOUND;
    if (s != JL_OK) {
        jl_arena_pop_to(&w->scratch, mark);
        jl_arena_pop_to(&w->strings, strings_mark);
        s = read_general(w, &ar, path, expected_id, text, size, &entity, e);
    }
    if (s == JL_OK && dir && path) {
        /* JULIET-SPEC-002 §5.5: in a world directory, the file name is the decimal ID. */
        char expected[JLI_ENTITY_FILE_NAME_MAX];
        jli_entity_file_name(expected, entity->id);
        if (strcmp(jli_base_name(path), expected) != 0) {
            jl_archive_entry *ide = jl_archive_find(&ar, "id");
            s = jl_error_set(e, JL_ERR_PARSE, path, ide->value_line, ide->value_col,
                             "file name does not match its id 0x%016llx (expected %s)", (unsigned long long)entity->id,
                             expected);
            jli_entity_rollback_allocation(&w->manager, entity);
            entity = NULL;
        }
    }
    if (s == JL_OK) {
        s = keep_record(w, &ar, entity, path, dir, mark_dirty, e);
        if (s != JL_OK) entity = NULL;
    }
    if (s == JL_OK) {
        /* A newer file is never rewritten or deleted, even if the entity is
         * destroyed behind the world's back. */
        if (entity->flags & JL_ENTITY_READ_ONLY) jli_id_map_put(&w->guarded, entity->id, 1);
        w->stats.entities[entity->derived_kind->kind]++;
        w->stats.bytes[entity->derived_kind->kind] += size;
        if (mark_dirty) entity->is_dirty = true;
        if (dir) jli_opaque_warn(w, &ar, entity);
    } else {
        jli_world_add_diagnostic(w, e);
        jl_arena_pop_to(&w->strings, strings_mark); /* the strings of the entity that did not load */
    }
    jl_arena_pop_to(&w->scratch, mark);
    if (out) *out = s == JL_OK ? entity : NULL;
    return s;
}

/* Copies the value of field f from src to dst, a string's bytes into the
 * world's strings (as the reader keeps them: NUL-terminated). */
static jl_status copy_value(jl_world *w, const jl_field *f, const char *src, char *dst)
{
    if (f->type != JL_FIELD_STRING) {
        memcpy(dst, src, jl_field_type_size(f->type));
        return JL_OK;
    }
    jl_string v;
    memcpy(&v, src, sizeof v);
    if (v.size) {
        char *copy = jl_arena_push(&w->strings, (size_t)v.size + 1, 1);
        if (!copy) return JL_ERR_OUT_OF_MEMORY;
        memcpy(copy, v.data, v.size);
        copy[v.size] = '\0';
        v.data = copy;
    } else {
        v = (jl_string){"", 0};
    }
    memcpy(dst, &v, sizeof v);
    return JL_OK;
}

jl_status jli_world_add_entity(jl_world *w, const jl_class *cls, uint64_t id, const void *fields, jl_vec3 position,
                               jl_entity **out, jl_error *err)
{
    *out = NULL;
    const size_t strings_mark = w->strings.used;
    jl_entity *entity;
    jl_status s = jl_entity_allocate(&w->manager, cls, &entity);
    if (s != JL_OK) return jl_error_set(err, s, NULL, 0, 0, "cannot allocate a %s: %s", cls->name, jl_status_name(s));
    for (uint32_t i = 0; i < cls->field_count && s == JL_OK; i++) {
        const jl_field *f = &cls->fields[i];
        s = copy_value(w, f, (const char *)fields + f->offset, (char *)entity->derived + f->offset);
    }
    if (s != JL_OK) {
        jl_error_set(err, s, NULL, 0, 0, "no memory left for the strings of a %s", cls->name);
    } else if ((s = jl_entity_set_id(&w->manager, entity, id)) != JL_OK) {
        jl_error_set(err, s, NULL, 0, 0,
                     s == JL_ERR_DUPLICATE_ID ? "duplicate entity ID 0x%016llx" : "cannot index entity 0x%016llx",
                     (unsigned long long)id);
    }
    if (s != JL_OK) {
        jli_entity_rollback_allocation(&w->manager, entity);
        jl_arena_pop_to(&w->strings, strings_mark);
        return s;
    }
    jl_manager_note_id(&w->manager, id);
    entity->position = (jl_vec4){position.x, position.y, position.z, 1.0f};
    /* No file: nothing unknown, and reference sites at no line. */
    jl_archive none = {0};
    s = keep_record(w, &none, entity, NULL, NULL, true, err);
    if (s != JL_OK) {
        jl_arena_pop_to(&w->strings, strings_mark);
        return s;
    }
    w->stats.entities[cls->kind]++; /* no file: no bytes */
    entity->is_dirty = true;
    *out = entity;
    return JL_OK;
}

jl_status jl_world_load_entity_text(jl_world *w, const char *path, const char *text, size_t size, bool mark_dirty,
                                    jl_entity **out, jl_error *err)
{
    jl_entity *e = NULL;
    jl_status s = jli_world_load_entity(w, path, NULL, 0, text, size, mark_dirty, &e, err);
    if (s == JL_OK) jli_files_entity_back(w, e);
    if (out) *out = e;
    return s;
}

jl_status jl_world_load_settings_text(jl_world *w, const char *path, const char *text, size_t size, bool mark_dirty,
                                      jl_error *err)
{
    jl_error local;
    jl_error *e = err ? err : &local;
    /* Settings from a newer file, or from one that failed to load, stay as
     * they are: replaced, they would be written over that file. */
    if (w->settings_read_only || w->settings_failed)
        return jl_error_set(e, JL_ERR_READ_ONLY, path, 0, 0,
                            "the world settings are read-only (newer or unreadable file)");
    const size_t mark = w->scratch.used, strings_mark = w->strings.used;
    jl_archive ar;
    jl_world_settings settings;
    jli_world_settings_defaults(&settings);
    jl_status s = jl_archive_tokenize(&ar, &w->scratch, text, size, path, e);
    ar.strings = &w->strings;
    uint32_t version = 1;
    if (s == JL_OK) {
        jl_archive_entry *v = jl_archive_find(&ar, "version");
        if (v) {
            v->used = true;
            uint32_t col = 0;
            s = jl_value_parse(JL_FIELD_INDEX, 0, v->value, v->value_size, &version, &col, e);
            if (s == JL_OK && (version == 0 || version == JL_INDEX_MAX))
                s = jl_error_set(e, JL_ERR_PARSE, NULL, 0, 1, "version must be a number from 1");
            if (s != JL_OK) {
                jl_error copy = *e;
                s = jl_error_set(e, JL_ERR_PARSE, path, v->value_line, v->value_col + (col ? col - 1 : 0),
                                 "version: %s", copy.message);
            }
        }
    }
    if (s == JL_OK) s = jl_serialize_fields(&ar, &jl_world_settings_class, &settings);
    jli_entity_record kept;
    if (s == JL_OK)
        s = jli_record_build(w, &ar, &jl_world_settings_class, &settings, path, JLI_SETTINGS_OWNER, &kept, e);
    if (s == JL_OK) {
        /* The old record leaves; the new run of sites, appended after the
         * old one, moves down by its length. */
        const uint32_t old_sites = w->settings_record.ref_count;
        jli_record_release(w, &w->settings_record);
        if (kept.ref_count) kept.ref_first -= old_sites;
        kept.file = mark_dirty ? JLI_FILE_UNKNOWN : JLI_FILE_UNPRINTED;
        w->settings_record = kept;
        w->settings = settings;
        w->settings_dirty = mark_dirty;
        w->settings_read_only = version > JL_WORLD_SETTINGS_VERSION;
        w->settings_failed = false;
        w->stats.settings_bytes = size;
    } else {
        jli_world_add_diagnostic(w, e);
        jl_arena_pop_to(&w->strings, strings_mark);
    }
    jl_arena_pop_to(&w->scratch, mark);
    return s;
}

/* ---- a directory ---- */

/* Deletes a leftover temporary, but only while holding the world's lock:
 * otherwise it may be the file a running save is writing. The lock is
 * taken once per load, without waiting, when the first one is found. */
static void remove_temp(jl_world *w, const char *dir, const char *path, jl_world_lock *lock, bool *tried)
{
    if (w->keep_temp_files) return;
    if (!*tried) {
        *tried = true;
        jl_world_lock_acquire(lock, w->fs, dir, 0, &w->scratch, NULL);
    }
    if (lock->held) w->fs->remove(w->fs, path);
}

/* The entity file at path (name: its name in the listing) as its read
 * left it (s: jli_world_read_status's answer): loaded into the world,
 * its stamp kept, or its failure recorded. */
static void load_entity_file(jl_world *w, const char *path, const char *name, const char *dir, const char *stored_dir,
                             jl_status s, const char *text, size_t size, const jl_fs_stamp *stamp, uint64_t now_ns)
{
    jl_entity *loaded = NULL;
    if (s == JL_ERR_NOT_FOUND) s = jli_world_io_diagnostic(w, path, "read_file", ENOENT); /* gone since the listing */
    else if (s == JL_OK) s = jli_world_load_entity(w, path, stored_dir, 0, text, size, false, &loaded, NULL);
    if (s == JL_OK) {
        jli_files_entity_back(w, loaded);
        const jli_entity_record *kept = jli_record_of(w, loaded);
        if (kept) jli_seen_note(w, kept, stamp, text, size, 0, now_ns);
        return;
    }
    /* Never rewrite or delete a file that did not load, unless it is the
     * very file the live entity came from (the same directory loaded
     * twice). */
    uint64_t name_id = jl_world_id_of_file_name(name);
    const jl_entity *live = s == JL_ERR_DUPLICATE_ID ? jl_entity_find(&w->manager, name_id) : NULL;
    const jli_entity_record *x = live ? jli_record_of(w, live) : NULL;
    if (!(x && x->dir_at && strcmp(jli_storage_at(w, x->dir_at), dir) == 0) && name_id)
        jli_id_map_put(&w->guarded, name_id, 1);
    w->stats.files_failed++;
}

/* True for an entry of Entities/ read together with others
 * (load_entity_files): a .jasset, not a temporary nor a special file, whose
 * path fits. Any other goes alone (load_entry_alone), to be reported,
 * removed or skipped. */
static bool read_together(const jl_fs_entry *entry, size_t entities_dir_size)
{
    return entry->kind != JL_FS_SPECIAL && entities_dir_size + 1 + strlen(entry->name) < JL_ERROR_PATH_MAX &&
           !jl_fs_is_temp_name(entry->name) && ends_with(entry->name, ".jasset");
}

/* An entry of Entities/ that is not read_together: a name too long, an
 * interrupted save's temporary, a file that is not a .jasset (skipped) or
 * not a regular file. */
static void load_entry_alone(jl_world *w, const char *dir, const char *entities_dir, const char *stored_dir,
                             const jl_fs_entry *entry, jl_world_lock *lock, bool *lock_tried, uint64_t now_ns)
{
    char path[JL_ERROR_PATH_MAX];
    if (!jl_fs_join(path, sizeof path, entities_dir, entry->name)) {
        jl_error e;
        jl_error_set(&e, JL_ERR_IO, entities_dir, 0, 0, "file name too long: %.80s", entry->name);
        jli_world_add_diagnostic(w, &e);
        return;
    }
    if (jl_fs_is_temp_name(entry->name)) {
        /* An interrupted save's temporary: never data the world relies on. */
        remove_temp(w, dir, path, lock, lock_tried);
        return;
    }
    if (!ends_with(entry->name, ".jasset")) return; /* README, .gitkeep, editor backups */
    const size_t mark = w->scratch.used;
    char *text = NULL;
    size_t size = 0;
    jl_fs_stamp stamp = {0};
    jl_status s = jli_world_read_file(w, path, entry->kind, &text, &size, &stamp);
    load_entity_file(w, path, entry->name, dir, stored_dir, s, text, size, &stamp, now_ns);
    jl_arena_pop_to(&w->scratch, mark);
}

/* Files of Entities/ read at a time, and about as many bytes: their texts
 * stay in the scratch arena until the last of them is loaded. */
enum { READ_BATCH = 4096 };
static const size_t READ_BUDGET = 4u << 20;

/* Loads the entity files that lead `entries` (at most READ_BATCH) and are
 * read_together (jl_fs_read_files: side by side where the table can).
 * Returns how many it took; 0 when the first entry is not one of them. */
static uint32_t load_entity_files(jl_world *w, const char *dir, const char *entities_dir, const char *stored_dir,
                                  const jl_fs_entry *entries, uint32_t count, uint64_t now_ns)
{
    const size_t mark = w->scratch.used;
    const uint32_t most = count < READ_BATCH ? count : READ_BATCH;
    const char **paths = jl_arena_push(&w->scratch, most * sizeof *paths, _Alignof(const char *));
    jl_fs_read *out = jl_arena_push(&w->scratch, most * sizeof *out, _Alignof(jl_fs_read));
    const size_t dir_size = strlen(entities_dir);
    uint32_t n = 0;
    while (paths && out && n < most) {
        const jl_fs_entry *entry = &entries[n];
        if (!read_together(entry, dir_size)) break;
        const size_t name_size = strlen(entry->name);
        char *path = jl_arena_push(&w->scratch, dir_size + 1 + name_size + 1, 1);
        if (!path || !jl_fs_join(path, dir_size + 1 + name_size + 1, entities_dir, entry->name)) break;
        paths[n++] = path;
    }
    uint32_t got = n ? jl_fs_read_files(w->fs, paths, n, JL_ARCHIVE_FILE_MAX, READ_BUDGET, &w->scratch, out) : 0;
    for (uint32_t k = 0; k < got; k++) {
        const size_t file_mark = w->scratch.used;
        const jl_fs_read *r = &out[k];
        load_entity_file(w, paths[k], entries[k].name, dir, stored_dir, jli_world_read_status(w, paths[k], r->code),
                         r->data, r->size, &r->stamp, now_ns);
        jl_arena_pop_to(&w->scratch, file_mark);
    }
    jl_arena_pop_to(&w->scratch, mark);
    return got;
}

/* LoadWorld. Its stamps are racy if their file changed since the load
 * began less a clock tick (fs.h). */
jl_status jl_world_load(jl_world *w, const char *dir)
{
    const uint64_t now_ns = jl_platform_wall_ns();
    const uint32_t stored_before = w->diagnostic_count, total_before = w->diagnostic_total;
    const jl_fs *fs = w->fs;
    const size_t mark = w->scratch.used;
    char entities_dir[JL_ERROR_PATH_MAX], path[JL_ERROR_PATH_MAX];
    jl_status result = JL_OK;
    jl_world_lock lock = {0};
    bool lock_tried = false;
    jl_fs_stamp stamp;

    /* The root: its existence, WorldSettings.jasset, a leftover temporary. */
    jl_fs_entry *entries = NULL;
    uint32_t count = 0;
    int code = fs->list_dir(fs, dir, &w->scratch, &entries, &count);
    if (code) {
        jl_status s = jli_world_io_diagnostic(w, dir, "list_dir", code);
        jl_arena_pop_to(&w->scratch, mark);
        return s;
    }
    jl_fs_kind settings_kind = JL_FS_FILE;
    for (uint32_t i = 0; i < count; i++) {
        if (strcmp(entries[i].name, "WorldSettings.jasset") == 0) settings_kind = entries[i].kind;
        else if (jl_fs_is_temp_name(entries[i].name) && jl_fs_join(path, sizeof path, dir, entries[i].name))
            remove_temp(w, dir, path, &lock, &lock_tried);
    }
    jl_arena_pop_to(&w->scratch, mark);

    const char *stored_dir = jli_world_store_string(w, dir);
    if (jl_fs_join(path, sizeof path, dir, "WorldSettings.jasset")) {
        char *text;
        size_t size;
        jl_status s = jli_world_read_file(w, path, settings_kind, &text, &size, &stamp);
        if (s == JL_OK) {
            if (jl_world_load_settings_text(w, path, text, size, false, NULL) != JL_OK) {
                w->settings_failed = true;
            } else {
                w->settings_record.dir_at = jli_storage_offset(w, stored_dir);
                jli_seen_note(w, &w->settings_record, &stamp, text, size, 0, now_ns);
            }
        } else if (s != JL_ERR_NOT_FOUND /* no settings file: defaults */) {
            w->settings_failed = true;
        }
        jl_arena_pop_to(&w->scratch, mark);
    }

    jli_class_files_load(w, dir); /* classes first: entities are of them */

    if (!jl_fs_join(entities_dir, sizeof entities_dir, dir, "Entities")) {
        jl_error e;
        jl_error_set(&e, JL_ERR_IO, dir, 0, 0, "path too long");
        jli_world_add_diagnostic(w, &e);
        jl_world_lock_release(&lock, fs);
        return JL_ERR_IO;
    }
    code = fs->list_dir(fs, entities_dir, &w->scratch, &entries, &count);
    if (code == ENOENT) count = 0; /* a world with no entities yet */
    else if (code) {
        jli_world_io_diagnostic(w, entities_dir, "list_dir", code);
        count = 0;
    }
    for (uint32_t i = 0; i < count;) {
        uint32_t n = load_entity_files(w, dir, entities_dir, stored_dir, entries + i, count - i, now_ns);
        if (n == 0) load_entry_alone(w, dir, entities_dir, stored_dir, &entries[i], &lock, &lock_tried, now_ns);
        i += n ? n : 1;
    }
    jl_world_lock_release(&lock, fs);
    jl_arena_pop_to(&w->scratch, mark);
    if (w->diagnostic_total != total_before)
        result = stored_before < w->diagnostic_count ? w->diagnostics[stored_before].status : JL_ERR_PARSE;
    return result;
}
