/* block_pool.c - power-of-two blocks with free lists, over an arena
 * (base_internal.h). */
#include "base/base_internal.h"

#include <string.h>

enum { MIN_SHIFT = 4 };

/* The size class of a request: the smallest c with 2^(c + MIN_SHIFT) >= size. */
static unsigned class_of(size_t size)
{
    unsigned c = 0;
    while (((size_t)1 << (c + MIN_SHIFT)) < size) c++;
    return c;
}

jl_status jli_pool_init(jli_block_pool *pool, size_t bytes)
{
    *pool = (jli_block_pool){0};
    return jl_arena_init(&pool->arena, bytes);
}

void jli_pool_release(jli_block_pool *pool)
{
    jl_arena_release(&pool->arena);
    *pool = (jli_block_pool){0};
}

void *jli_pool_alloc(jli_block_pool *pool, size_t size)
{
    unsigned c = class_of(size ? size : 1);
    if (c >= JLI_POOL_CLASSES) return NULL;
    void *block = pool->free[c];
    if (block) {
        memcpy(&pool->free[c], block, sizeof block); /* the next free block */
        return block;
    }
    return jl_arena_push(&pool->arena, (size_t)1 << (c + MIN_SHIFT), 8);
}

void jli_pool_free(jli_block_pool *pool, void *block, size_t size)
{
    if (!block) return;
    unsigned c = class_of(size ? size : 1);
    memcpy(block, &pool->free[c], sizeof block);
    pool->free[c] = block;
}
