/* arena.c - linear arenas over a reservation committed on demand. */
#include "juliet/arena.h"

#include "juliet/platform.h"

/* Commits grow geometrically (so a million pushes cost a few dozen system
 * calls) but by at most this much at once (so a small arena stays small). */
enum { COMMIT_MIN = 64 * 1024, COMMIT_STEP_MAX = 64 * 1024 * 1024 };

static size_t round_up(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

jl_status jl_arena_init(jl_arena *arena, size_t reserve_bytes)
{
    *arena = (jl_arena){0};
    if (reserve_bytes == 0) return JL_ERR_INVALID_ARGUMENT;
    size_t page = jl_platform_page_size();
    if (reserve_bytes > SIZE_MAX - page) return JL_ERR_OUT_OF_MEMORY;
    size_t size = round_up(reserve_bytes, page);
    void *base = jl_platform_reserve(size);
    if (!base) return JL_ERR_OUT_OF_MEMORY;
    arena->base = base;
    arena->reserved = size;
    return JL_OK;
}

void jl_arena_release(jl_arena *arena)
{
    if (arena->base) jl_platform_release(arena->base, arena->reserved, arena->committed);
    *arena = (jl_arena){0};
}

jl_status jli_arena_commit_slow(jl_arena *arena, size_t bytes)
{
    if (bytes <= arena->committed) return JL_OK;
    if (bytes > arena->reserved) return JL_ERR_OUT_OF_MEMORY;
    size_t step = arena->committed < COMMIT_MIN ? COMMIT_MIN : arena->committed;
    if (step > COMMIT_STEP_MAX) step = COMMIT_STEP_MAX;
    size_t target = arena->committed + step;
    if (target < bytes) target = bytes;
    /* Past the first large page, commits end on large pages: the blocks
     * may then be huge pages. Below it, pages: a small arena stays small. */
    size_t unit = jl_platform_large_page_size(arena->reserved);
    target = round_up(target, target > unit ? unit : jl_platform_page_size());
    if (target > arena->reserved) target = arena->reserved;
    if (!jl_platform_commit(arena->base + arena->committed, target - arena->committed)) return JL_ERR_OUT_OF_MEMORY;
    arena->committed = target;
    return JL_OK;
}

void *jli_arena_push_slow(jl_arena *arena, size_t size, size_t align)
{
    if (!arena->base || align == 0 || (align & (align - 1))) return NULL;
    uintptr_t start = ((uintptr_t)arena->base + arena->used + (align - 1)) & ~(uintptr_t)(align - 1);
    size_t offset = (size_t)(start - (uintptr_t)arena->base);
    if (offset > arena->reserved || size > arena->reserved - offset) return NULL;
    if (jl_arena_commit_to(arena, offset + size) != JL_OK) return NULL;
    arena->used = offset + size;
    return arena->base + offset;
}

void jl_arena_pop_to(jl_arena *arena, size_t mark)
{
    if (mark < arena->used) arena->used = mark;
}
