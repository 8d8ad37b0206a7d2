/* arena.h - linear arenas over reserved address space.
 *
 * An arena reserves its whole capacity once (address space natively, one
 * block in wasm) and commits memory as it is used, so what it hands out never
 * moves and the memory actually used grows with the data, not the capacity.
 * Every engine allocation comes from an arena; only platform.c asks the
 * system for memory. */
#ifndef JULIET_ARENA_H
#define JULIET_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

typedef struct jl_arena {
    uint8_t *base;     /* start of the reservation; NULL before init */
    size_t reserved;   /* bytes reserved: the arena never grows past this */
    size_t committed;  /* bytes committed (readable and writable) from base */
    size_t used;       /* bytes handed out from base */
} jl_arena;

/* Reserves reserve_bytes (rounded up to the page size) and commits nothing.
 * Returns JL_ERR_OUT_OF_MEMORY if the system refuses the reservation. */
jl_status jl_arena_init(jl_arena *arena, size_t reserve_bytes);

/* Returns the reservation to the system. Every pointer the arena handed out
 * becomes invalid. Safe on a zeroed or already released arena. */
void jl_arena_release(jl_arena *arena);

/* Internal (the jli_ prefix): the slow paths of the two inline functions
 * below, which ask the system for memory. They are declared here only
 * because the inline fast paths call them; use jl_arena_push and
 * jl_arena_commit_to. */
void *jli_arena_push_slow(jl_arena *arena, size_t size, size_t align);
jl_status jli_arena_commit_slow(jl_arena *arena, size_t bytes);

/* Returns size bytes aligned to align (a power of two), committing memory as
 * needed, or NULL when the reservation is used up or the commit fails; the
 * arena is unchanged on failure. The memory is not zeroed. Inline because
 * entity creation pushes twice per entity. */
static inline void *jl_arena_push(jl_arena *arena, size_t size, size_t align)
{
    if (arena->base && align && !(align & (align - 1))) {
        uintptr_t start = ((uintptr_t)arena->base + arena->used + (align - 1)) & ~(uintptr_t)(align - 1);
        size_t offset = (size_t)(start - (uintptr_t)arena->base);
        if (offset <= arena->committed && size <= arena->committed - offset) {
            arena->used = offset + size;
            return arena->base + offset;
        }
    }
    return jli_arena_push_slow(arena, size, align);
}

/* Makes sure the first `bytes` bytes of the reservation are committed
 * without handing them out. Returns JL_ERR_OUT_OF_MEMORY past the reservation. */
static inline jl_status jl_arena_commit_to(jl_arena *arena, size_t bytes)
{
    return bytes <= arena->committed ? JL_OK : jli_arena_commit_slow(arena, bytes);
}

/* Forgets everything past mark (a previous value of arena->used). Memory
 * stays committed for reuse; pointers past mark become invalid. */
void jl_arena_pop_to(jl_arena *arena, size_t mark);

#endif
