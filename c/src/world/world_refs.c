/* world_refs.c - the reference sites seen in the files of the live
 * entities and of the settings (entity references, the spawn point), kept
 * so that jl_world_check_references can name the file, line and column of
 * a reference to an entity that does not exist (world.h). Each record owns
 * one run of sites; a run leaves when its record is given back. */
#include <string.h>

#include "world/world_internal.h"

jl_status jli_refs_append(jl_world *w, jl_archive *ar, const jl_class *cls, const void *data, const char *path,
                          uint32_t owner, uint32_t *first, uint32_t *count)
{
    const size_t mark = w->ref_arena.used;
    *first = w->ref_count;
    *count = 0;
    for (uint32_t i = 0; i < cls->field_count; i++) {
        const jl_field *f = &cls->fields[i];
        if (f->type != JL_FIELD_ENTITY_REF) continue;
        uint64_t target;
        memcpy(&target, (const char *)data + f->offset, sizeof target);
        if (target == 0) continue;
        jli_ref *ref = jl_arena_push(&w->ref_arena, sizeof *ref, _Alignof(jli_ref));
        if (!ref) {
            jl_arena_pop_to(&w->ref_arena, mark);
            w->ref_count = *first;
            *count = 0;
            return JL_ERR_OUT_OF_MEMORY;
        }
        jl_archive_entry *e = jl_archive_find(ar, f->name);
        *ref = (jli_ref){{target, path, e ? e->value_line : 0, e ? e->value_col : 0}, owner};
        w->ref_count++;
        (*count)++;
    }
    return JL_OK;
}

/* The record that owns a run, by its owner. */
static jli_entity_record *owner_record(jl_world *w, uint32_t owner)
{
    if (owner == JLI_SETTINGS_OWNER) return &w->settings_record;
    return owner < w->records_ready ? &w->records[owner] : NULL;
}

void jli_refs_remove(jl_world *w, uint32_t first, uint32_t count)
{
    const uint32_t end = first + count;
    memmove(&w->refs[first], &w->refs[end], (size_t)(w->ref_count - end) * sizeof *w->refs);
    w->ref_count -= count;
    jl_arena_pop_to(&w->ref_arena, (size_t)w->ref_count * sizeof *w->refs);
    /* Every later run moved down by count: its record's first index too. A
     * run whose record no longer names it (an entity destroyed through the
     * manager, its slot taken by another) is left alone. */
    for (uint32_t i = first; i < w->ref_count; i++) {
        jli_entity_record *r = owner_record(w, w->refs[i].owner);
        if (r && r->ref_count && r->ref_first == i + count) r->ref_first = i;
    }
}

bool jl_world_reference_missing(const jl_world *w, uint32_t index, jl_error *err)
{
    if (index >= w->ref_count) return false;
    const jl_world_ref *r = &w->refs[index].site;
    if (jl_entity_find(&w->manager, r->target)) return false;
    jl_error_set(err, JL_ERR_NOT_FOUND, r->path, r->line, r->col, "reference to missing entity 0x%016llx",
                 (unsigned long long)r->target);
    return true;
}

uint32_t jl_world_check_references(jl_world *w)
{
    uint32_t missing = 0;
    for (uint32_t i = 0; i < w->ref_count; i++) {
        jl_error e;
        if (!jl_world_reference_missing(w, i, &e)) continue;
        jli_world_add_diagnostic(w, &e);
        missing++;
    }
    return missing;
}

uint32_t jl_world_reference_count(const jl_world *w) { return w->ref_count; }

const jl_world_ref *jl_world_reference(const jl_world *w, uint32_t index)
{
    return index < w->ref_count ? &w->refs[index].site : NULL;
}
