/* id_map.h - a map from nonzero 64-bit entity IDs to 64-bit values, in an
 * arena: open addressing with linear probing, at most half full. The world
 * keeps two: the IDs whose files save must never touch (value unused) and
 * the file prints of removed entities whose files are pending deletion.
 *
 * Growing moves the table to a fresh block at the top of its arena and
 * abandons the old one (geometric growth keeps the waste below half of the
 * arena's use); removal shifts the following entries back, so there are no
 * tombstones. */
#ifndef JULIET_ID_MAP_H
#define JULIET_ID_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "juliet/arena.h"

typedef struct jli_id_slot {
    uint64_t id; /* 0 = empty */
    uint64_t value;
} jli_id_slot;

typedef struct jli_id_map {
    jl_arena arena;
    jli_id_slot *slots; /* NULL until the first insert */
    uint32_t mask;      /* slots - 1 */
    uint32_t count;
} jli_id_map;

/* Reserves bytes of address space (nothing committed). JL_OK or
 * JL_ERR_OUT_OF_MEMORY. */
jl_status jli_id_map_init(jli_id_map *map, size_t bytes);

/* Returns the arena to the system. Safe on a zeroed map. */
void jli_id_map_release(jli_id_map *map);

/* True if id is in the map; *value (may be NULL) gets its value. */
bool jli_id_map_get(const jli_id_map *map, uint64_t id, uint64_t *value);

/* Sets id's value, adding it if needed. JL_ERR_INVALID_ARGUMENT for ID 0,
 * JL_ERR_OUT_OF_MEMORY if the table cannot grow (the map is unchanged). */
jl_status jli_id_map_put(jli_id_map *map, uint64_t id, uint64_t value);

/* Removes id; true if it was there. */
bool jli_id_map_remove(jli_id_map *map, uint64_t id);

/* Removes every ID, keeping the committed memory. */
void jli_id_map_clear(jli_id_map *map);

#endif
