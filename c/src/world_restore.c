/* world_restore.c - an entity, or the settings, replaced by a text as a
 * whole (world.h: an undo or redo step of an editor). The old entity stays
 * until the new text has loaded, so a text that fails changes nothing; the
 * result is clean exactly when it is what its file holds; an entity that
 * comes back keeps its file. */
#include <string.h>

#include "entity_manager_internal.h"
#include "juliet/fs.h"
#include "world_internal.h"

/* The path diagnostics name for entity id: its file under the directory it
 * was loaded from, else relative to the world ("Entities/<id>.jasset"). */
static void entity_path(char *out, size_t size, const jl_world *w, const jli_entity_record *r, uint64_t id)
{
    char name[JLI_ENTITY_FILE_NAME_MAX];
    jli_entity_file_name(name, id);
    const char *dir = r ? jli_storage_at(w, r->dir_at) : NULL;
    if (!(dir && jl_world_entity_path(out, size, dir, id))) jl_fs_join(out, size, "Entities", name);
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
        return s == JL_OK ? s : jl_error_set(e, s, NULL, 0, 0, "cannot remove entity 0x%016llx: %s",
                                             (unsigned long long)id, jl_status_name(s));
    }
    jli_entity_record *old_record = old ? jli_record_for(w, old) : NULL;
    char path[JL_ERROR_PATH_MAX];
    entity_path(path, sizeof path, w, old_record, id);

    /* The old entity waits without its ID while the text loads under it. */
    if (old) {
        jli_files_before_change(w, old, old_record);
        jli_entity_take_id(&w->manager, old);
    }
    jl_entity *entity = NULL;
    jl_status s = jli_world_load_entity(w, path, NULL, id, text, size, true, &entity, e);
    if (s != JL_OK) {
        /* Its index entry was freed a moment ago: giving it back cannot fail. */
        if (old) jl_entity_set_id(&w->manager, old, id);
        return s;
    }
    jli_entity_record *record = jli_record_for(w, entity);
    if (old) {
        /* The new entity stands for the same file. */
        if (old_record && record) {
            jli_files_set_print(w, record, jli_files_print(w, old_record));
            record->dir_at = old_record->dir_at;
        }
        if (old_record) jli_record_release(w, old_record);
        jl_entity_destroy(&w->manager, old); /* without an ID: no file to delete */
    } else {
        jli_files_entity_back(w, entity);
        jli_manager_cancel_deletion(&w->manager, id); /* back: its file, if any, stays */
    }
    jli_files_after_change(w, entity, record, 0);
    return JL_OK;
}

jl_status jl_world_restore_settings_text(jl_world *w, const char *text, size_t size, jl_error *err)
{
    jl_error local;
    jl_error *e = err ? err : &local;
    if (!text) return jl_error_set(e, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "the world settings cannot be removed");
    char path[JL_ERROR_PATH_MAX] = "WorldSettings.jasset";
    const char *dir = jli_storage_at(w, w->settings_record.dir_at);
    if (dir && !jl_fs_join(path, sizeof path, dir, "WorldSettings.jasset")) strcpy(path, "WorldSettings.jasset");
    jli_files_before_settings_change(w);
    const uint64_t print = jli_files_print(w, &w->settings_record);
    const uint32_t dir_at = w->settings_record.dir_at;
    jl_status s = jl_world_load_settings_text(w, path, text, size, true, e);
    if (s != JL_OK) return s;
    /* The same file as before. */
    jli_files_set_print(w, &w->settings_record, print);
    w->settings_record.dir_at = dir_at;
    jli_files_after_settings_change(w, 0);
    return JL_OK;
}
