/* world_diff.c - two loaded worlds compared entity by entity through their
 * canonical texts (diff.h). */
#include <stdlib.h>
#include <string.h>

#include "juliet/diff.h"

static int compare_ids(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The IDs of world's live entities, ascending, pushed on scratch. */
static uint64_t *sorted_ids(jl_world *world, jl_arena *scratch, uint32_t *count)
{
    uint64_t *ids = jl_arena_push(scratch, (size_t)jl_world_count(world) * sizeof *ids + 1, _Alignof(uint64_t));
    if (!ids) return NULL;
    uint32_t n = 0;
    for (jl_world_iter it = jl_world_iter_all(world); jl_world_next(&it);) ids[n++] = it.entity->id;
    qsort(ids, n, sizeof *ids, compare_ids);
    *count = n;
    return ids;
}

static jl_status text_of(jl_world *world, uint64_t id, const char **text, size_t *size)
{
    return id ? jl_world_write_entity(world, id, text, size) : jl_world_write_settings(world, text, size);
}

/* Visits id (0: the settings) if its texts differ; either side may lack it. */
static jl_status compare(jl_world *older, jl_world *newer, uint64_t id, bool in_older, bool in_newer,
                         jl_entity_change_fn *visit, void *ctx, uint32_t *changes)
{
    jl_entity_change change = {.id = id};
    jl_status s = JL_OK;
    if (in_older) s = text_of(older, id, &change.old_text, &change.old_size);
    if (s == JL_OK && in_newer) s = text_of(newer, id, &change.new_text, &change.new_size);
    if (s != JL_OK) return s;
    if (in_older && in_newer) {
        if (change.old_size == change.new_size && memcmp(change.old_text, change.new_text, change.old_size) == 0)
            return JL_OK;
        change.kind = JL_CHANGE_MODIFIED;
    } else {
        change.kind = in_newer ? JL_CHANGE_ADDED : JL_CHANGE_REMOVED;
    }
    if (id) change.class_name = jl_world_find(in_newer ? newer : older, id)->derived_kind->name;
    ++*changes;
    return visit(ctx, &change);
}

jl_status jl_world_diff(jl_world *older, jl_world *newer, jl_arena *scratch, jl_entity_change_fn *visit, void *ctx,
                        uint32_t *changes)
{
    const size_t mark = scratch->used;
    uint32_t count = 0, old_count = 0, new_count = 0;
    uint64_t *old_ids = sorted_ids(older, scratch, &old_count);
    uint64_t *new_ids = old_ids ? sorted_ids(newer, scratch, &new_count) : NULL;
    jl_status s = new_ids ? compare(older, newer, 0, true, true, visit, ctx, &count) : JL_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0, j = 0; s == JL_OK && (i < old_count || j < new_count);) {
        const uint64_t a = i < old_count ? old_ids[i] : UINT64_MAX, b = j < new_count ? new_ids[j] : UINT64_MAX;
        const uint64_t id = a < b ? a : b;
        s = compare(older, newer, id, a == id && i < old_count, b == id && j < new_count, visit, ctx, &count);
        i += a == id && i < old_count;
        j += b == id && j < new_count;
    }
    jl_arena_pop_to(scratch, mark);
    if (changes) *changes = count;
    return s;
}
