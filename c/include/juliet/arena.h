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
    uint8_t *base;    /* start of the reservation; NULL before init */
    size_t reserved;  /* bytes reserved: the arena never grows past this */
    size_t committed; /* bytes committed (readable and writable) from base */
    size_t used;      /* bytes handed out from base */
} jl_arena;

/* Reserves reserve_bytes (rounded up to the page size) and commits nothing.
 * Returns JL_ERR_OUT_OF_MEMORY if the system refuses the reservation. */
jl_status jl_arena_init(jl_arena *arena, size_t reserve_bytes);

/* Returns the reservation to the system. Every pointer the arena handed out
 * becomes invalid. Safe on a zeroed or already released arena. */
void jl_arena_release(jl_arena *arena);

/* Returns size bytes aligned to align (a power of two), committing memory as
 * needed, or NULL when the reservation is used up or the commit fails; the
 * arena is unchanged on failure. The memory is not zeroed. Inline
 * (juliet/private/arena.h) because entity creation pushes twice per
 * entity. */
static inline void *jl_arena_push(jl_arena *arena, size_t size, size_t align);

/* Makes sure the first `bytes` bytes of the reservation are committed
 * without handing them out. Returns JL_ERR_OUT_OF_MEMORY past the reservation. */
static inline jl_status jl_arena_commit_to(jl_arena *arena, size_t bytes);

/* Forgets everything past mark (a previous value of arena->used). Memory
 * stays committed for reuse; pointers past mark become invalid. */
void jl_arena_pop_to(jl_arena *arena, size_t mark);

#include "private/arena.h"

#endif
