/* world_util.h - what the world suites that work in memory share. */
#ifndef JULIET_TEST_WORLD_UTIL_H
#define JULIET_TEST_WORLD_UTIL_H

#include <stdbool.h>
#include <string.h>

#include "juliet/world.h"

/* Replaces entity id by a new entity loaded from its own text, as an undo
 * step does (jl_world_restore_entity_text). True if it took. */
static inline bool wu_restore_own_text(jl_world *world, uint64_t id)
{
    const char *text;
    size_t size;
    static char copy[1 << 16]; /* the text lives in the world's scratch, which the restore reuses */
    if (jl_world_write_entity(world, id, &text, &size) != JL_OK || size > sizeof copy) return false;
    memcpy(copy, text, size);
    return jl_world_restore_entity_text(world, id, copy, size, NULL) == JL_OK;
}

#endif
