/* world_records.c - what the world keeps beside each entity, in one record
 * per base slot (world_internal.h): the unknown keys of its file and the
 * directory it came from. Records are committed as slots are used. */
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

const char *jl_world_unknown_keys(const jl_world *w, uint64_t id, uint32_t *size)
{
    const jl_entity *e = jl_entity_find(&w->manager, id);
    const jli_entity_record *r = e ? jli_record_of(w, e) : NULL;
    *size = r ? r->size : 0;
    return r && r->size ? r->text : NULL;
}
