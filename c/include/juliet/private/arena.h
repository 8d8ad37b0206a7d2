/* juliet/private/arena.h - the inline fast paths of arena.h and the slow
 * paths they fall back on, which ask the system for memory.
 *
 * Private tier: what is declared here may change without notice, from one
 * release to the next. Programs use the headers one level up
 * (<juliet/arena.h>: jl_arena_push, jl_arena_commit_to), which include this
 * one only because C needs an inline function's body where it is called. */
#ifndef JULIET_PRIVATE_ARENA_H
#define JULIET_PRIVATE_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include "../arena.h" /* the API defined here; it includes this header at its end */

void *jli_arena_push_slow(jl_arena *arena, size_t size, size_t align);
jl_status jli_arena_commit_slow(jl_arena *arena, size_t bytes);

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

static inline jl_status jl_arena_commit_to(jl_arena *arena, size_t bytes)
{
    return bytes <= arena->committed ? JL_OK : jli_arena_commit_slow(arena, bytes);
}

#endif
