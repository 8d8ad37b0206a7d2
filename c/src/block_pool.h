/* block_pool.h - blocks of memory that can be given back, carved from one
 * arena: a block's size is rounded up to a power of two (16 bytes at
 * least) and a freed block goes on the free list of its size, which the
 * next request of that size takes first. The world keeps each file's
 * unknown keys and path in one block, given back when the entity is
 * removed or reloaded, so undoing an edit a thousand times needs the
 * memory of one copy. */
#ifndef JULIET_BLOCK_POOL_H
#define JULIET_BLOCK_POOL_H

#include <stddef.h>

#include "juliet/arena.h"

enum { JLI_POOL_CLASSES = 40 }; /* sizes 2^4 .. 2^43 */

typedef struct jli_block_pool {
    jl_arena arena;
    void *free[JLI_POOL_CLASSES]; /* per size class: the first free block; each holds the next */
} jli_block_pool;

/* Reserves bytes of address space (nothing committed). JL_OK or
 * JL_ERR_OUT_OF_MEMORY. */
jl_status jli_pool_init(jli_block_pool *pool, size_t bytes);

/* Returns the arena to the system: every block becomes invalid. Safe on a
 * zeroed pool. */
void jli_pool_release(jli_block_pool *pool);

/* A block of at least size bytes (size > 0), 8-byte aligned, or NULL when
 * the arena is used up. The memory is not zeroed. */
void *jli_pool_alloc(jli_block_pool *pool, size_t size);

/* Gives back a block from jli_pool_alloc; size is what was asked for it.
 * NULL is ignored. */
void jli_pool_free(jli_block_pool *pool, void *block, size_t size);

#endif
