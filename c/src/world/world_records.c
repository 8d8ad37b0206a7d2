/* world_records.c - what the world keeps beside each entity and beside the
 * settings (world_internal.h): the unknown keys of its file and the path
 * its reference sites name, in one block of the storage pool, and its run
 * of reference sites. A record is built when a file loads and given back
 * when the entity is removed or loaded again, so the storage in use
 * follows the live entities however often they are reloaded (undo). */
#include <string.h>

#include "archive/archive_internal.h"
#include "world/world_internal.h"

_Static_assert(sizeof(jli_entity_record) <= 32, "a record per entity slot, written by every load: keep it small");

jli_entity_record *jli_record_take(jl_world *w, uint32_t slot)
{
    if (slot < w->records_ready) {
        jli_record_release(w, &w->records[slot]);
        return &w->records[slot];
    }
    /* Never handed out, so still zero (fresh committed memory: mmap
     * natively, zeroed on commit in wasm), and not read here: a read of a
     * fresh page before its first write costs a second page fault. */
    if (jl_arena_commit_to(&w->records_arena, ((size_t)slot + 1) * sizeof(jli_entity_record)) != JL_OK) return NULL;
    w->records_ready = slot + 1;
    return &w->records[slot];
}

const jli_entity_record *jli_record_of(const jl_world *w, const jl_entity *e)
{
    uint32_t slot = (uint32_t)(e - w->manager.entities);
    if (slot >= w->records_ready || w->records[slot].id != e->id) return NULL;
    return &w->records[slot];
}

/* Undoes the sites jli_refs_append just appended (the last run). */
static void drop_last_run(jl_world *w, uint32_t count)
{
    w->ref_count -= count;
    jl_arena_pop_to(&w->ref_arena, (size_t)w->ref_count * sizeof *w->refs);
}

jl_status jli_record_build(jl_world *w, jl_archive *ar, const jl_class *cls, const void *data, const char *path,
                           uint32_t owner, jli_entity_record *r, jl_error *err)
{
    *r = (jli_entity_record){0};
    uint32_t sites = 0;
    if (jli_refs_append(w, ar, cls, data, "", owner, &r->ref_first, &sites) != JL_OK || sites > UINT16_MAX) {
        drop_last_run(w, sites);
        *r = (jli_entity_record){0};
        return jl_error_set(err, JL_ERR_OUT_OF_MEMORY, path, 0, 0,
                            "no room left to keep this file's entity references");
    }
    r->ref_count = (uint16_t)sites;
    /* The path is kept only for the reference sites to name (as far as a
     * diagnostic holds one). */
    size_t path_size = path && sites ? strlen(path) + 1 : 0;
    if (path_size > JL_ERROR_PATH_MAX) path_size = JL_ERROR_PATH_MAX;
    const size_t unknown_size = jli_archive_unknown_size(ar);
    const size_t block_size = path_size + unknown_size;
    if (block_size == 0) return JL_OK; /* the usual case: nothing to keep */
    char *block = block_size <= UINT32_MAX ? jli_pool_alloc(&w->storage, block_size) : NULL;
    if (!block) {
        drop_last_run(w, sites);
        *r = (jli_entity_record){0};
        return jl_error_set(err, JL_ERR_OUT_OF_MEMORY, path, 0, 0,
                            "no room left to keep this file's unknown keys (%zu bytes): the world's "
                            "storage of %zu bytes is full",
                            unknown_size, w->storage.arena.reserved);
    }
    r->block_at = jli_storage_offset(w, block);
    r->path_size = (uint16_t)path_size;
    r->unknown_size = (uint32_t)unknown_size;
    jli_archive_copy_unknown(ar, block + path_size);
    if (path_size) {
        memcpy(block, path, path_size - 1);
        block[path_size - 1] = '\0';
        for (uint32_t i = 0; i < sites; i++) w->refs[r->ref_first + i].site.path = block;
    }
    return JL_OK;
}

void jli_record_release(jl_world *w, jli_entity_record *r)
{
    jli_seen_forget(w, r);
    if (!r->id && !r->block_at && !r->ref_count) return; /* nothing kept (a fresh slot) */
    /* Zero the record before closing the gap: its run is no longer its. */
    jli_entity_record old = *r;
    *r = (jli_entity_record){0};
    if (old.ref_count) jli_refs_remove(w, old.ref_first, old.ref_count);
    jli_pool_free(&w->storage, jli_storage_at(w, old.block_at), (size_t)old.path_size + old.unknown_size);
}

const char *jl_world_unknown_keys(const jl_world *w, uint64_t id, uint32_t *size)
{
    const jl_entity *e = jl_entity_find(&w->manager, id);
    const jli_entity_record *r = e ? jli_record_of(w, e) : NULL;
    *size = r ? r->unknown_size : 0;
    return r ? jli_record_unknown(w, r) : NULL;
}
