/* juliet/private/entity_manager.h - the entity manager's layout: its
 * arrays, free lists, ID index and pending deletions, and the inline
 * iteration of entity_manager.h that reads them.
 *
 * Private tier: what is declared here may change without notice, from one
 * release to the next. Programs use the headers one level up
 * (<juliet/entity_manager.h>, or <juliet/world.h> for a world's entities),
 * which include this one only because C needs the layout to put a manager
 * in the caller's memory and to inline the iteration; they never read or
 * write these fields. */
#ifndef JULIET_PRIVATE_ENTITY_MANAGER_H
#define JULIET_PRIVATE_ENTITY_MANAGER_H

#include <stddef.h>
#include <stdint.h>

#include "../entity_manager.h" /* the API laid out here; it includes this header at its end */

/* Derived structs of one class (JULIET-SPEC-002 §2.3). Slots [0, slots)
 * hold live structs and free ones; count of them are live. A free slot's header holds
 * a tagged link to the next free slot instead of a base pointer
 * (jl_derived_is_free), forming an intrusive free list. */
typedef struct jl_typed_array {
    const jl_class *cls; /* the class of this kind; NULL until its first allocation,
                            which reserves the arena */
    jl_arena arena;
    void *array;      /* first slot; NULL until the first allocation */
    size_t count;     /* live derived structs */
    size_t slots;     /* slots handed out, live or free: the iteration bound */
    size_t stride;    /* bytes from one slot to the next */
    size_t free_head; /* byte offset of the first free slot + 1; 0 = none */
    size_t free_count;
} jl_typed_array;

/* One bucket of the ID index: the ID's hash and its slot + 1 (0 = empty). */
typedef struct jl_id_bucket {
    uint32_t hash;
    uint32_t slot_plus_one;
} jl_id_bucket;

struct jl_entity_manager {
    jl_arena entity_arena;
    jl_entity *entities; /* slot array; never moves */
    uint32_t capacity;
    uint32_t slots; /* slots handed out, live or free: the iteration bound */
    uint32_t count; /* live entities */

    uint32_t free_head; /* first free base slot + 1; 0 = none. A free slot's id
                            holds the next one + 1: an intrusive free list */
    uint32_t free_count;
    uint32_t generation_floor; /* generation of slots handed out for the first time */
    uint32_t max_generation;   /* highest generation any slot has had */

    uint32_t index_count; /* IDs indexed, in own_index, loaded_index or the hash table */
    jl_arena own_arena;
    uint32_t *own_index;    /* ID - (id_tag << 16) -> slot + 1 (0 = none) */
    uint32_t own_limit;     /* IDs less than this past (id_tag << 16) are in own_index */
    jl_arena loaded_arena;  /* reserved when loaded_index is taken */
    uint32_t *loaded_index; /* ID - loaded_base -> slot + 1, like own_index, for the run
                               of the first ID of another session while none is hashed;
                               NULL until then */
    uint64_t loaded_base;
    jl_arena index_arena;
    jl_id_bucket *index;   /* other IDs -> slot, linear probing, load at most 1/2 */
    uint32_t index_mask;   /* buckets - 1 (a power of two) */
    uint32_t hashed_count; /* IDs in the hash table */

    const jl_class_registry *classes;     /* where the classes it allocates are registered */
    jl_typed_array by_type[JL_CLASS_MAX]; /* indexed by kind */

    uint64_t id_tag;     /* this session's first tag (48 bits) */
    uint64_t id_counter; /* the next minted ID is (id_tag << 16) + id_counter */

    jl_arena pending_arena;
    uint64_t *pending_deletions; /* IDs destroyed since the last save */
    uint32_t pending_count;
};

/* The inline iteration of entity_manager.h. jli_entities_skip_free and
 * jli_typed_skip_free are the loops' step: the first live slot from e
 * (from slot) on, or NULL. */
static inline jl_entity *jli_entities_skip_free(const jl_entity_manager *m, jl_entity *e)
{
    jl_entity *end = m->entities + m->slots;
    while (e < end && !e->derived) ++e;
    return e < end ? e : 0;
}
static inline jl_entity *jl_entities_first(const jl_entity_manager *m)
{
    return jli_entities_skip_free(m, m->entities);
}
static inline jl_entity *jl_entities_next(const jl_entity_manager *m, jl_entity *e)
{
    return jli_entities_skip_free(m, e + 1);
}

static inline void *jli_typed_skip_free(const jl_typed_array *t, char *slot)
{
    char *end = (char *)t->array + t->slots * t->stride;
    while (slot < end && jl_derived_is_free(slot)) slot += t->stride;
    return slot < end ? slot : 0;
}
static inline void *jl_typed_first(const jl_entity_manager *m, const jl_class *cls)
{
    if (cls->kind >= JL_CLASS_MAX) return 0;
    const jl_typed_array *t = &m->by_type[cls->kind];
    return t->cls == cls && t->array ? jli_typed_skip_free(t, (char *)t->array) : 0;
}
static inline void *jl_typed_next(const jl_entity_manager *m, const jl_class *cls, void *derived)
{
    const jl_typed_array *t = &m->by_type[cls->kind];
    return jli_typed_skip_free(t, (char *)derived + t->stride);
}

#endif
