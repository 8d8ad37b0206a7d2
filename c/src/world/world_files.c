/* world_files.c - whether an entity, or the settings, holds exactly what
 * its file holds: then it is clean, even after edits that came back to it
 * (an undo, a value typed again). Each record keeps the print of its
 * file's content (world_internal.h, jli_file_state), taken from the
 * entity itself while it is still clean, just before its first change; a
 * save takes it from the bytes it writes. Comparing is then one write of
 * the canonical text and one hash, and only after a change. */
#include <string.h>

#include "entity/entity_manager_internal.h"
#include "world/world_internal.h"

/* The print of the canonical text of an entity (NULL: of the settings), or
 * 0 if the scratch arena cannot hold it. */
static uint64_t print_now(jl_world *w, const jl_entity *entity)
{
    const size_t mark = w->scratch.used;
    jl_archive ar;
    jl_archive_begin_write(&ar, &w->scratch);
    jl_status s = entity ? jli_world_write_entity_text(w, entity, &ar) : jli_world_write_settings_text(w, &ar);
    const char *text;
    size_t size;
    jl_status end = jl_archive_end_write(&ar, &text, &size);
    uint64_t print = s == JL_OK && end == JL_OK ? jli_text_print(text, size) : 0;
    jl_arena_pop_to(&w->scratch, mark);
    return print;
}

/* Where a record's print is kept: prints are apart from the records, by
 * slot, so that loading (which writes a record per entity) touches no
 * memory for them; NULL if that memory cannot be committed. */
static uint64_t *print_slot(jl_world *w, const jli_entity_record *r)
{
    if (r == &w->settings_record) return &w->settings_print;
    uint32_t slot = (uint32_t)(r - w->records);
    return jli_slot_ready(&w->prints_arena, &w->prints_ready, slot, sizeof(uint64_t)) ? &w->prints[slot] : NULL;
}

uint64_t jli_files_print(const jl_world *w, const jli_entity_record *r)
{
    if (r->file != JLI_FILE_PRINTED) return 0;
    if (r == &w->settings_record) return w->settings_print;
    return w->prints[r - w->records]; /* committed when the print was set */
}

void jli_files_set_print(jl_world *w, jli_entity_record *r, uint64_t print)
{
    uint64_t *slot = print ? print_slot(w, r) : NULL;
    if (slot) *slot = print;
    r->file = slot ? JLI_FILE_PRINTED : JLI_FILE_UNKNOWN;
}

/* Takes a pending print from a clean thing (is_dirty false), or gives up
 * on comparing a dirty one. */
static void settle_print(jl_world *w, const jl_entity *entity, bool is_dirty, jli_entity_record *r)
{
    if (r->file == JLI_FILE_UNPRINTED) jli_files_set_print(w, r, is_dirty ? 0 : print_now(w, entity));
}

uint64_t jli_files_before_change(jl_world *w, const jl_entity *entity, jli_entity_record *r)
{
    if (!r) return 0;
    settle_print(w, entity, entity->is_dirty, r);
    if (r->file != JLI_FILE_PRINTED) return 0;
    return entity->is_dirty ? print_now(w, entity) : jli_files_print(w, r); /* clean: it is its file */
}

uint64_t jli_files_before_settings_change(jl_world *w)
{
    jli_entity_record *r = &w->settings_record;
    settle_print(w, NULL, w->settings_dirty, r);
    if (r->file != JLI_FILE_PRINTED) return 0;
    return w->settings_dirty ? print_now(w, NULL) : jli_files_print(w, r);
}

uint64_t jl_world_file_print(jl_world *w, uint64_t id)
{
    if (id == 0) {
        settle_print(w, NULL, w->settings_dirty, &w->settings_record);
        return jli_files_print(w, &w->settings_record);
    }
    jl_entity *e = jl_world_find(w, id);
    uint64_t print = 0;
    if (!e) return w->removed.count && jli_id_map_get(&w->removed, id, &print) ? print : 0;
    jli_entity_record *r = jli_record_for(w, e);
    if (!r) return 0;
    settle_print(w, e, e->is_dirty, r);
    return jli_files_print(w, r);
}

/* Clean when the text changed (a change that changes nothing is a touch,
 * JULIET-SPEC-002 §6.3) and is now exactly the file's. */
static bool back_to_file(const jl_world *w, uint64_t now, uint64_t before, const jli_entity_record *r)
{
    return r && r->file == JLI_FILE_PRINTED && now == jli_files_print(w, r) && now != before;
}

void jli_files_after_change(jl_world *w, jl_entity *entity, const jli_entity_record *r, uint64_t before)
{
    uint64_t now = r && r->file == JLI_FILE_PRINTED ? print_now(w, entity) : 0;
    entity->is_dirty = !back_to_file(w, now, before, r);
}

void jli_files_after_settings_change(jl_world *w, uint64_t before)
{
    const jli_entity_record *r = &w->settings_record;
    uint64_t now = r->file == JLI_FILE_PRINTED ? print_now(w, NULL) : 0;
    w->settings_dirty = !back_to_file(w, now, before, r);
}

void jli_files_entity_back(jl_world *w, jl_entity *entity)
{
    uint64_t print = 0;
    if (!w->removed.count || !jli_id_map_get(&w->removed, entity->id, &print)) return;
    jli_id_map_remove(&w->removed, entity->id);
    jli_manager_cancel_deletion(&w->manager, entity->id);
    jli_entity_record *r = jli_record_for(w, entity);
    if (r && r->file == JLI_FILE_UNKNOWN && print) jli_files_set_print(w, r, print);
    /* Its file stays: what was seen of it still holds, unless it was read again. */
    uint32_t dir_at = 0;
    const jli_file_seen *kept = jli_seen_removed(w, entity->id, &dir_at);
    jli_file_seen *seen = r && kept ? jli_seen_for(w, r) : NULL;
    if (seen && !seen->stamp.file && (!r->dir_at || r->dir_at == dir_at)) {
        *seen = *kept;
        r->dir_at = dir_at;
    }
    jli_seen_drop_removed(w, entity->id);
}

void jli_files_forget(jl_world *w)
{
    jl_entity_manager *m = &w->manager;
    for (jl_entity *e = jl_entities_first(m); e; e = jl_entities_next(m, e)) {
        jli_entity_record *r = jli_record_for(w, e);
        if (r) r->file = JLI_FILE_UNKNOWN;
    }
    w->settings_record.file = JLI_FILE_UNKNOWN;
}

jli_entity_record *jli_record_claim(jl_world *w, const jl_entity *entity)
{
    jli_entity_record *r = jli_record_for(w, entity);
    if (r) return r;
    r = jli_record_take(w, (uint32_t)(entity - w->manager.entities));
    if (!r) return NULL;
    r->id = entity->id;
    return r;
}

jl_status jl_world_mark_saved(jl_world *w, uint64_t id)
{
    jl_entity *e = jl_entity_find(&w->manager, id);
    if (!e) { /* deleted: nothing of its file is kept or pending */
        jli_id_map_remove(&w->removed, id);
        jli_manager_cancel_deletion(&w->manager, id);
        return JL_OK;
    }
    if (e->flags & JL_ENTITY_READ_ONLY) return JL_ERR_READ_ONLY;
    jli_entity_record *r = jli_record_claim(w, e);
    if (r) {
        jli_files_set_print(w, r, print_now(w, e));
        jli_seen_forget(w, r); /* written by another: its stamp was never seen here */
    }
    e->is_dirty = false;
    return JL_OK;
}

jl_status jl_world_settings_mark_saved(jl_world *w)
{
    if (w->settings_read_only || w->settings_failed) return JL_ERR_READ_ONLY;
    jli_files_set_print(w, &w->settings_record, print_now(w, NULL));
    jli_seen_forget(w, &w->settings_record);
    w->settings_dirty = false;
    return JL_OK;
}
