/* world_refs.c - the reference sites seen in loaded files (entity
 * references and the settings' spawn point), kept so that
 * jl_world_check_references can name the file, line and column of a
 * reference to an entity that does not exist (world.h). */
#include <string.h>

#include "world_internal.h"

void jli_world_record_refs(jl_world *w, jl_archive *ar, const jl_class *cls, const char *path,
                           const void *data)
{
    const char *stored = NULL;
    for (uint32_t i = 0; i < cls->field_count; i++) {
        const jl_field *f = &cls->fields[i];
        if (f->type != JL_FIELD_ENTITY_REF) continue;
        uint64_t target;
        memcpy(&target, (const char *)data + f->offset, sizeof target);
        if (target == 0) continue;
        jl_archive_entry *e = jl_archive_find(ar, f->name);
        if (!stored) stored = path ? jli_world_store_string(w, path) : "";
        jl_world_ref *ref = jl_arena_push(&w->ref_arena, sizeof *ref, _Alignof(jl_world_ref));
        if (!ref || !stored) return;
        *ref = (jl_world_ref){target, stored, e ? e->value_line : 0, e ? e->value_col : 0};
        w->ref_count++;
    }
}

uint32_t jl_world_check_references(jl_world *w)
{
    uint32_t missing = 0;
    for (uint32_t i = 0; i < w->ref_count; i++) {
        const jl_world_ref *r = &w->refs[i];
        if (jl_entity_find(&w->manager, r->target)) continue;
        jl_error e;
        jl_error_set(&e, JL_ERR_NOT_FOUND, r->path, r->line, r->col, "reference to missing entity 0x%016llx",
                     (unsigned long long)r->target);
        jli_world_add_diagnostic(w, &e);
        missing++;
    }
    return missing;
}

uint32_t jl_world_reference_count(const jl_world *w) { return w->ref_count; }

const jl_world_ref *jl_world_reference(const jl_world *w, uint32_t index)
{
    return index < w->ref_count ? &w->refs[index] : NULL;
}
