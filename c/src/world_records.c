/* world_records.c - what the world keeps beside each entity and beside the
 * settings (world_internal.h): the unknown keys of its file and the path
 * its reference sites name, in one block of the storage pool, and its run
 * of reference sites. A record is built when a file loads and given back
 * when the entity is removed or loaded again, so the storage in use
 * follows the live entities however often they are reloaded (undo). */
#include <string.h>

#include "archive_internal.h"
#include "world_internal.h"

jli_entity_record *jli_record_of_slot(jl_world *w, uint32_t slot)
{
    if (slot >= w->records_ready) {
        /* Fresh committed memory is zero (mmap natively, calloc in wasm). */
        if (jl_arena_commit_to(&w->records_arena, ((size_t)slot + 1) * sizeof(jli_entity_record)) != JL_OK)
            return NULL;
        w->records_ready = (uint32_t)(w->records_arena.committed / sizeof(jli_entity_record));
    }
    return &w->records[slot];
}

const jli_entity_record *jli_record_of(const jl_world *w, const jl_entity *e)
{
    uint32_t slot = (uint32_t)(e - w->manager.entities);
    if (slot >= w->records_ready || w->records[slot].id != e->id) return NULL;
    return &w->records[slot];
}

/* Whether cls holds a reference to another entity in data. */
static bool has_refs(const jl_class *cls, const void *data)
{
    for (uint32_t i = 0; i < cls->field_count; i++) {
        const jl_field *f = &cls->fields[i];
        if (f->type != JL_FIELD_ENTITY_REF) continue;
        uint64_t target;
        memcpy(&target, (const char *)data + f->offset, sizeof target);
        if (target) return true;
    }
    return false;
}

jl_status jli_record_build(jl_world *w, jl_archive *ar, const jl_class *cls, const void *data, const char *path,
                           uint32_t owner, jli_entity_record *r, jl_error *err)
{
    *r = (jli_entity_record){0};
    /* The path is kept only for reference sites to name. */
    const size_t path_size = path && has_refs(cls, data) ? strlen(path) + 1 : 0;
    const size_t unknown_size = jli_archive_unknown_size(ar);
    const size_t block_size = path_size + unknown_size;
    if (block_size > UINT32_MAX)
        return jl_error_set(err, JL_ERR_OUT_OF_MEMORY, path, 0, 0, "unknown keys too large to keep");
    if (block_size) {
        r->block = jli_pool_alloc(&w->storage, block_size);
        if (!r->block)
            return jl_error_set(err, JL_ERR_OUT_OF_MEMORY, path, 0, 0,
                                "no room left to keep this file's unknown keys (%zu bytes): the world's "
                                "storage of %zu bytes is full",
                                unknown_size, w->storage.arena.reserved);
        r->block_size = (uint32_t)block_size;
        if (path_size) memcpy(r->block, path, path_size);
        r->unknown_at = (uint32_t)path_size;
        r->unknown_size = (uint32_t)unknown_size;
        jli_archive_copy_unknown(ar, r->block + path_size);
    }
    const char *site_path = path_size ? r->block : "";
    if (jli_refs_append(w, ar, cls, data, site_path, owner, &r->ref_first, &r->ref_count) != JL_OK) {
        jli_pool_free(&w->storage, r->block, r->block_size);
        *r = (jli_entity_record){0};
        return jl_error_set(err, JL_ERR_OUT_OF_MEMORY, path, 0, 0,
                            "no room left to keep this file's entity references");
    }
    return JL_OK;
}

void jli_record_release(jl_world *w, jli_entity_record *r)
{
    /* Zero the record before closing the gap: its run is no longer its. */
    jli_entity_record old = *r;
    *r = (jli_entity_record){0};
    if (old.ref_count) jli_refs_remove(w, old.ref_first, old.ref_count);
    jli_pool_free(&w->storage, old.block, old.block_size);
}

const char *jl_world_unknown_keys(const jl_world *w, uint64_t id, uint32_t *size)
{
    const jl_entity *e = jl_entity_find(&w->manager, id);
    const jli_entity_record *r = e ? jli_record_of(w, e) : NULL;
    *size = r ? r->unknown_size : 0;
    return r ? jli_record_unknown(r) : NULL;
}
