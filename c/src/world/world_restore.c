/* world_restore.c - an entity, or the settings, replaced by a text as a
 * whole: an undo or redo step of an editor (the result is clean exactly
 * when it is what its file holds; an entity that comes back keeps its
 * file), or a file of the world that changed on disk (the result is that
 * file, clean). The old entity stays until the new text has loaded, so an
 * undo step that fails changes nothing. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "entity/entity_manager_internal.h"
#include "juliet/fs.h"
#include "juliet/platform.h"
#include "world/world_internal.h"

static const char SETTINGS_FILE[] = "WorldSettings.jasset";
static const char ENTITIES_DIR[] = "Entities/";

/* The path diagnostics name for entity id: its file under the directory it
 * was loaded from, else relative to the world ("Entities/<id>.jasset"). */
static void entity_path(char *out, size_t size, const jl_world *w, const jli_entity_record *r, uint64_t id)
{
    char name[JLI_ENTITY_FILE_NAME_MAX];
    jli_entity_file_name(name, id);
    const char *dir = r ? jli_storage_at(w, r->dir_at) : NULL;
    if (!(dir && jl_world_entity_path(out, size, dir, id))) jl_fs_join(out, size, "Entities", name);
}

/* The same for the settings. */
static void settings_path(char *out, size_t size, const jl_world *w)
{
    const char *dir = jli_storage_at(w, w->settings_record.dir_at);
    if (!(dir && jl_fs_join(out, size, dir, SETTINGS_FILE))) snprintf(out, size, "%s", SETTINGS_FILE);
}

/* Destroys entity old without queuing a deletion of its file: its file is
 * not ours to delete (it changed or went on disk). */
static void drop_entity(jl_world *w, jl_entity *old)
{
    jli_entity_record *r = jli_record_for(w, old);
    jli_entity_take_id(&w->manager, old);
    if (r) jli_record_release(w, r);
    jl_entity_destroy(&w->manager, old); /* without an ID: no file to delete */
}

/* Nothing is pending any more about the file of id (deleted or replaced
 * on disk by someone else). */
static void forget_removal(jl_world *w, uint64_t id)
{
    jli_id_map_remove(&w->removed, id);
    jli_manager_cancel_deletion(&w->manager, id);
}

/* Loads text as entity id in place of old (may be NULL). as_file: the text
 * is what its file holds now (clean, with its own print); else an undo
 * step (clean only if it is its file's text, which it keeps). On failure
 * old is as it was. */
static jl_status replace_entity(jl_world *w, uint64_t id, jl_entity *old, const char *path, const char *text,
                                size_t size, bool as_file, jl_error *e)
{
    jli_entity_record *old_record = old ? jli_record_for(w, old) : NULL;
    /* The old entity waits without its ID while the text loads under it. */
    if (old) {
        if (!as_file) jli_files_before_change(w, old, old_record);
        jli_entity_take_id(&w->manager, old);
    }
    jl_entity *entity = NULL;
    jl_status s = jli_world_load_entity(w, path, NULL, id, text, size, !as_file, &entity, e);
    if (s != JL_OK) {
        /* Its index entry was freed a moment ago: giving it back cannot fail. */
        if (old) jl_entity_set_id(&w->manager, old, id);
        return s;
    }
    jli_entity_record *record = jli_record_for(w, entity);
    if (old) {
        /* The new entity stands for the same file. */
        if (old_record && record) {
            if (!as_file) {
                /* An undo step: the file on disk is the one seen before. */
                jli_files_set_print(w, record, jli_files_print(w, old_record));
                jli_file_seen *was = jli_seen_for(w, old_record), *seen = jli_seen_for(w, record);
                if (was && seen) *seen = *was;
            }
            record->dir_at = old_record->dir_at;
        }
        if (old_record) jli_record_release(w, old_record);
        jl_entity_destroy(&w->manager, old); /* without an ID: no file to delete */
    } else {
        jli_files_entity_back(w, entity);
        jli_manager_cancel_deletion(&w->manager, id); /* back: its file, if any, stays */
    }
    if (!as_file) jli_files_after_change(w, entity, record, 0);
    return JL_OK;
}

jl_status jl_world_restore_entity_text(jl_world *w, uint64_t id, const char *text, size_t size, jl_error *err)
{
    jl_error local;
    jl_error *e = err ? err : &local;
    if (id == 0) return jl_error_set(e, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "no entity has ID 0");
    jl_entity *old = jl_entity_find(&w->manager, id);
    if (old && (old->flags & JL_ENTITY_READ_ONLY))
        return jl_error_set(e, JL_ERR_READ_ONLY, NULL, 0, 0, "entity 0x%016llx is read-only (newer file format)",
                            (unsigned long long)id);
    if (!text || size == 0) { /* no text: no entity */
        jl_status s = old ? jl_world_remove(w, id) : JL_OK;
        return s == JL_OK ? s
                          : jl_error_set(e, s, NULL, 0, 0, "cannot remove entity 0x%016llx: %s", (unsigned long long)id,
                                         jl_status_name(s));
    }
    char path[JL_ERROR_PATH_MAX];
    entity_path(path, sizeof path, w, old ? jli_record_for(w, old) : NULL, id);
    return replace_entity(w, id, old, path, text, size, false, e);
}

jl_status jl_world_restore_settings_text(jl_world *w, const char *text, size_t size, jl_error *err)
{
    jl_error local;
    jl_error *e = err ? err : &local;
    if (!text) return jl_error_set(e, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "the world settings cannot be removed");
    char path[JL_ERROR_PATH_MAX];
    settings_path(path, sizeof path, w);
    jli_files_before_settings_change(w);
    const uint64_t print = jli_files_print(w, &w->settings_record);
    const uint32_t dir_at = w->settings_record.dir_at;
    const jli_file_seen seen = w->settings_seen;
    jl_status s = jl_world_load_settings_text(w, path, text, size, true, e);
    if (s != JL_OK) return s;
    /* The same file as before. */
    jli_files_set_print(w, &w->settings_record, print);
    w->settings_record.dir_at = dir_at;
    w->settings_seen = seen;
    jli_files_after_settings_change(w, 0);
    return JL_OK;
}

/* WorldSettings.jasset changed on disk: the settings become it (the
 * defaults if it is gone), clean; a text that fails leaves them as they
 * were but failed, like a world whose file did not load. */
static jl_status reload_settings(jl_world *w, const char *text, size_t size, jl_error *e)
{
    char path[JL_ERROR_PATH_MAX];
    settings_path(path, sizeof path, w);
    const uint32_t dir_at = w->settings_record.dir_at;
    w->settings_read_only = false; /* a new file: it decides again */
    w->settings_failed = false;
    jl_status s = jl_world_load_settings_text(w, path, text ? text : "", text ? size : 0, false, e);
    if (s != JL_OK) {
        w->settings_failed = true;
        return s;
    }
    w->settings_record.dir_at = dir_at;
    return JL_OK;
}

jl_status jl_world_reload_file_text(jl_world *w, const char *name, const char *text, size_t size, uint64_t *id_out,
                                    jl_error *err)
{
    jl_error local;
    jl_error *e = err ? err : &local;
    if (id_out) *id_out = 0;
    if (strcmp(name, SETTINGS_FILE) == 0) return reload_settings(w, text, size, e);
    const size_t prefix = sizeof ENTITIES_DIR - 1;
    const uint64_t id = strncmp(name, ENTITIES_DIR, prefix) == 0 ? jl_world_id_of_file_name(name + prefix) : 0;
    if (id == 0 && !text) return JL_OK; /* gone, and it was none of the world's files: nothing changes */
    if (id == 0) {
        jl_status s = jl_error_set(e, JL_ERR_PARSE, name, 0, 0,
                                   "not a file of the world (Entities/<decimal id>.jasset or %s)", SETTINGS_FILE);
        jli_world_add_diagnostic(w, e);
        return s;
    }
    if (id_out) *id_out = id;
    jl_entity *old = jl_entity_find(&w->manager, id);
    jl_status s = JL_OK;
    if (text) {
        char path[JL_ERROR_PATH_MAX];
        entity_path(path, sizeof path, w, old ? jli_record_for(w, old) : NULL, id);
        s = replace_entity(w, id, old, path, text, size, true, e);
        if (s == JL_OK) {
            jl_entity *now = jl_entity_find(&w->manager, id);
            if (!(now->flags & JL_ENTITY_READ_ONLY)) jli_id_map_remove(&w->guarded, id);
            return JL_OK;
        }
    }
    /* Gone, or a text that did not load: no entity, and its file (if any)
     * is never rewritten or deleted, as when a world's file fails to load. */
    if (old) drop_entity(w, old);
    forget_removal(w, id);
    if (text) jli_id_map_put(&w->guarded, id, 1);
    else jli_id_map_remove(&w->guarded, id);
    return s;
}

jl_status jl_world_reload_file(jl_world *w, const char *dir, const char *name, const char *expected,
                               size_t expected_size, uint64_t *id_out, jl_error *err)
{
    jl_error local;
    jl_error *e = err ? err : &local;
    char path[JL_ERROR_PATH_MAX];
    if (!jl_fs_join(path, sizeof path, dir, name)) return jl_error_set(e, JL_ERR_IO, dir, 0, 0, "path too long");
    const uint64_t now_ns = jl_platform_wall_ns();
    const size_t mark = w->scratch.used;
    char *text = NULL;
    size_t size = 0;
    jl_fs_stamp stamp = {0};
    int code = w->fs->read_file(w->fs, path, JL_ARCHIVE_FILE_MAX, &w->scratch, &text, &size, &stamp);
    jl_status s = JL_OK;
    if (code == ENOENT) text = NULL;
    else if (code) s = jl_fs_error(e, path, "read_file", code);
    if (s == JL_OK && (text ? !expected || size != expected_size || memcmp(text, expected, size) != 0 : !!expected))
        s = jl_error_set(e, JL_ERR_CONFLICT, path, 0, 0, "changed on disk since it was last read");
    if (s == JL_OK) s = jl_world_reload_file_text(w, name, text, size, id_out, e);
    if (s == JL_OK && text) {
        uint64_t id = 0;
        if (strcmp(name, SETTINGS_FILE) != 0) id = jl_world_id_of_file_name(name + sizeof ENTITIES_DIR - 1);
        jl_entity *now = id ? jl_entity_find(&w->manager, id) : NULL;
        jli_entity_record *r = id ? (now ? jli_record_for(w, now) : NULL) : &w->settings_record;
        if (r) {
            r->dir_at = jli_save_dir_at(w, dir);
            jli_seen_note(w, r, &stamp, text, size, 0, now_ns);
        }
    }
    jl_arena_pop_to(&w->scratch, mark);
    return s;
}
