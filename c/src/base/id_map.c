/* id_map.c - open-addressing map from entity IDs to values (base_internal.h). */
#include "base/base_internal.h"

#include <string.h>

enum { FIRST_SLOTS = 64 };

static uint32_t home_of(uint64_t id, uint32_t mask) { return (uint32_t)((id * 0x9e3779b97f4a7c15ull) >> 32) & mask; }

jl_status jli_id_map_init(jli_id_map *map, size_t bytes)
{
    *map = (jli_id_map){0};
    return jl_arena_init(&map->arena, bytes);
}

void jli_id_map_release(jli_id_map *map)
{
    jl_arena_release(&map->arena);
    *map = (jli_id_map){0};
}

/* The slot holding id, or the empty slot where it would go. */
static uint32_t probe(const jli_id_map *map, uint64_t id)
{
    uint32_t i = home_of(id, map->mask);
    while (map->slots[i].id && map->slots[i].id != id) i = (i + 1) & map->mask;
    return i;
}

bool jli_id_map_get(const jli_id_map *map, uint64_t id, uint64_t *value)
{
    if (!map->count || id == 0) return false;
    const jli_id_slot *s = &map->slots[probe(map, id)];
    if (!s->id) return false;
    if (value) *value = s->value;
    return true;
}

/* Moves the entries into a table twice as large (64 slots at first). */
static jl_status grow(jli_id_map *map)
{
    uint32_t slots = map->slots ? (map->mask + 1) * 2 : FIRST_SLOTS;
    jli_id_slot *table = jl_arena_push(&map->arena, slots * sizeof *table, _Alignof(jli_id_slot));
    if (!table) return JL_ERR_OUT_OF_MEMORY;
    memset(table, 0, slots * sizeof *table);
    jli_id_map old = *map;
    map->slots = table;
    map->mask = slots - 1;
    if (old.slots)
        for (uint32_t i = 0; i <= old.mask; i++)
            if (old.slots[i].id) map->slots[probe(map, old.slots[i].id)] = old.slots[i];
    return JL_OK;
}

jl_status jli_id_map_put(jli_id_map *map, uint64_t id, uint64_t value)
{
    if (id == 0) return JL_ERR_INVALID_ARGUMENT;
    if (map->slots) {
        jli_id_slot *s = &map->slots[probe(map, id)];
        if (s->id) {
            s->value = value;
            return JL_OK;
        }
    }
    if (!map->slots || (map->count + 1) * 2 > map->mask + 1) {
        jl_status s = grow(map);
        if (s != JL_OK) return s;
    }
    map->slots[probe(map, id)] = (jli_id_slot){id, value};
    map->count++;
    return JL_OK;
}

bool jli_id_map_remove(jli_id_map *map, uint64_t id)
{
    if (!map->count || id == 0) return false;
    uint32_t i = probe(map, id);
    if (!map->slots[i].id) return false;
    map->slots[i] = (jli_id_slot){0, 0};
    map->count--;
    /* Shift back every following entry of the run that its home no longer
     * reaches across the gap. */
    for (uint32_t j = (i + 1) & map->mask; map->slots[j].id; j = (j + 1) & map->mask) {
        uint32_t home = home_of(map->slots[j].id, map->mask);
        bool home_in_gap = (i <= j) ? (home <= i || home > j) : (home <= i && home > j);
        if (home_in_gap) {
            map->slots[i] = map->slots[j];
            map->slots[j] = (jli_id_slot){0, 0};
            i = j;
        }
    }
    return true;
}

void jli_id_map_clear(jli_id_map *map)
{
    if (map->slots) memset(map->slots, 0, ((size_t)map->mask + 1) * sizeof *map->slots);
    map->count = 0;
}
