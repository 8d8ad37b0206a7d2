/* entity_manager.h - the dual-arena entity manager (spec 2, 3) with stable
 * removal.
 *
 * Memory: base entities in one array reserved for the whole capacity at init
 * (it never moves, spec 2.5); derived structs in one arena per class,
 * reserved at the first allocation of the class (a manager has room for
 * every kind a registry can hold, JL_CLASS_MAX, but reserves only the ones
 * it uses); an open-addressing index from 64-bit ID to slot; all of it
 * committed as it is used.
 *
 * Classes: a manager allocates the classes of one registry
 * (class_registry.h), named at init; the program's by default, a world's
 * own for the manager of a world.
 *
 * Removal (the design chosen from entity_removal_brainstorm.md):
 * - destroy is O(1): the base slot and the derived slot become free and go
 *   on intrusive free lists (the links live in the free slots themselves)
 *   that the next allocations reuse; nothing else moves, so pointers to
 *   survivors stay valid;
 * - each base slot has a generation, bumped on destroy, so a jl_handle to a
 *   destroyed entity is stale forever, even after its slot is reused;
 * - iteration skips free slots in both kinds of array;
 * - jl_manager_compact() (at level load, scene change, before save) slides
 *   the derived structs of each class down into a dense prefix and fixes
 *   base->derived; base slots never move, so handles stay valid across it;
 * - the ID of every destroyed entity is queued in pending_deletions, which
 *   the world's save drains to delete files (brainstorm 2.4, 2.5).
 *
 * IDs. A minted ID is (tag << 16) + counter: a random 48-bit tag drawn per
 * manager (a session) and a 16-bit counter below it. When the counter runs
 * out the carry moves the session on to the next tag (tag + 1), so the IDs
 * of one session form one run of consecutive numbers, and a session that
 * mints L IDs uses s = ceil((L + 1) / 2^16) consecutive tags.
 *
 * Collisions over a project's life. Two sessions i, j (say two branches
 * later merged) can mint a common ID only if their runs of tags overlap:
 * with uniform random first tags, P <= (s_i + s_j - 1) / 2^48. Over k
 * sessions using S = s_1 + ... + s_k tags in all, by the union bound
 *   P(any collision) <= ((k - 1) * S - k * (k - 1) / 2) / 2^48.
 * For k = 10,000 sessions that each mint fewer than 65,535 IDs (s = 1):
 *   k * (k - 1) / 2 / 2^48 = 4.9995e7 / 2.81e14 = 1.8e-7.
 * Any mix of session sizes stays <= 1e-6 while S <= 33,100 tags, i.e. up
 * to ~1.5e9 IDs minted over the project's life (an average of ~150,000 per
 * session). Taking the next tag rather than a new random one is never
 * worse: s_i + s_j - 1 <= s_i * s_j, and it keeps a session's IDs in one
 * dense range for the O(1) index. The old form (a 32-bit tag over a 32-bit
 * counter) had k^2 / 2^33 = 1.2e-2 for the same 10,000 sessions; its IDs,
 * like any other 64-bit value but 0, stay valid.
 */
#ifndef JULIET_ENTITY_MANAGER_H
#define JULIET_ENTITY_MANAGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "entity.h"
#include "class_registry.h"
#include "status.h"

enum {
    JL_DEFAULT_CAPACITY = 100000,  /* spec 2.2 */
    JL_MAX_CAPACITY = 16u << 20,   /* 16M entities: base array 768 MiB of address space */
    JL_ID_COUNTER_BITS = 16,       /* low bits of a minted ID; the tag has the other 48 */
};

/* Init options; a zero field means the default. */
typedef struct jl_manager_desc {
    uint32_t capacity; /* most live entities at once; default JL_DEFAULT_CAPACITY */
    uint64_t id_tag;   /* first 48-bit tag: minted IDs start at (id_tag << 16) + 1;
                          default: random per manager */
    const jl_class_registry *classes; /* the classes it allocates; default the program's
                                         (jl_program_classes). Must outlive the manager */
} jl_manager_desc;

/* Derived structs of one class (spec 2.3). Slots [0, slots) hold live
 * structs and free ones; count of them are live. A free slot's header holds
 * a tagged link to the next free slot instead of a base pointer
 * (jl_derived_is_free), forming an intrusive free list. */
typedef struct jl_typed_array {
    const jl_class *cls; /* the class of this kind; NULL until its first allocation,
                            which reserves the arena */
    jl_arena arena;
    void *array;        /* first slot; NULL until the first allocation */
    size_t count;       /* live derived structs */
    size_t slots;       /* slots handed out, live or free: the iteration bound */
    size_t stride;      /* bytes from one slot to the next */
    size_t free_head;     /* byte offset of the first free slot + 1; 0 = none */
    size_t free_count;
} jl_typed_array;

/* One bucket of the ID index: the ID's hash and its slot + 1 (0 = empty). */
typedef struct jl_id_bucket {
    uint32_t hash;
    uint32_t slot_plus_one;
} jl_id_bucket;

typedef struct jl_entity_manager {
    jl_arena entity_arena;
    jl_entity *entities; /* slot array; never moves */
    uint32_t capacity;
    uint32_t slots;      /* slots handed out, live or free: the iteration bound */
    uint32_t count;      /* live entities */

    uint32_t free_head;  /* first free base slot + 1; 0 = none. A free slot's id
                            holds the next one + 1: an intrusive free list */
    uint32_t free_count;
    uint32_t generation_floor; /* generation of slots handed out for the first time */
    uint32_t max_generation;   /* highest generation any slot has had */

    uint32_t index_count;  /* IDs indexed, in own_index, loaded_index or the hash table */
    jl_arena own_arena;
    uint32_t *own_index;   /* ID - (id_tag << 16) -> slot + 1 (0 = none) */
    uint32_t own_limit;    /* IDs less than this past (id_tag << 16) are in own_index */
    jl_arena loaded_arena; /* reserved when loaded_index is taken */
    uint32_t *loaded_index; /* ID - loaded_base -> slot + 1, like own_index, for the run
                               of the first ID of another session while none is hashed;
                               NULL until then */
    uint64_t loaded_base;
    jl_arena index_arena;
    jl_id_bucket *index;   /* other IDs -> slot, linear probing, load at most 1/2 */
    uint32_t index_mask;   /* buckets - 1 (a power of two) */
    uint32_t hashed_count; /* IDs in the hash table */

    const jl_class_registry *classes; /* where the classes it allocates are registered */
    jl_typed_array by_type[JL_CLASS_MAX]; /* indexed by kind */

    uint64_t id_tag;     /* this session's first tag (48 bits) */
    uint64_t id_counter; /* the next minted ID is (id_tag << 16) + id_counter */

    jl_arena pending_arena;
    uint64_t *pending_deletions; /* IDs destroyed since the last save */
    uint32_t pending_count;
} jl_entity_manager;

/* Reserves the manager's arenas (nothing committed yet; a class's typed
 * array is reserved at its first entity) and binds the manager to its
 * registry (desc->classes, else the program's). desc may be NULL.
 * Returns JL_ERR_INVALID_ARGUMENT for a capacity above JL_MAX_CAPACITY or
 * an id_tag wider than 48 bits, and
 * JL_ERR_OUT_OF_MEMORY if address space is refused; the manager is then
 * zeroed and needs no shutdown. */
jl_status jl_manager_init(jl_entity_manager *manager, const jl_manager_desc *desc);

/* Releases every arena. Every pointer into the manager becomes invalid.
 * Safe twice and on a zeroed manager. */
void jl_manager_shutdown(jl_entity_manager *manager);

/* Removes every entity at once (a level unload) without queueing pending
 * deletions, keeping the committed memory for the next level. Handles taken
 * before stay stale. */
void jl_manager_reset(jl_entity_manager *manager);

/* The spec's AllocateEntity (3.1): a base slot and a derived struct of cls,
 * defaults applied, pointers wired both ways, ID 0, dirty, position zero.
 * Fails with JL_ERR_INVALID_ARGUMENT (cls NULL or not the class its kind
 * names in the manager's registry), JL_ERR_CAPACITY or JL_ERR_OUT_OF_MEMORY
 * (also when the first entity of a class cannot reserve its arena),
 * leaving the manager unchanged and *out NULL. */
jl_status jl_entity_allocate(jl_entity_manager *manager, const jl_class *cls, jl_entity **out);

/* The spec's MakeEntity: allocate, assign a freshly minted ID and the
 * position. Returns the derived struct, or NULL on failure (same reasons as
 * jl_entity_allocate; the manager is unchanged). */
void *jl_entity_make(jl_entity_manager *manager, const jl_class *cls, float x, float y, float z);

/* Typed MakeEntity for a class defined by JL_DEFINE_ENTITY(Type, ...):
 * JL_MAKE_ENTITY(manager, enemy, x, y, z) -> enemy *. */
#define JL_MAKE_ENTITY(manager, Type, x, y, z) \
    ((Type *)jl_entity_make((manager), &Type##_class, (x), (y), (z)))

/* Gives a live entity its ID (deserialization, undo) and indexes it. An
 * entity whose ID is already set is re-indexed. Fails with
 * JL_ERR_INVALID_ARGUMENT for ID 0 and JL_ERR_DUPLICATE_ID if another live
 * entity has it; the entity is then unchanged. */
jl_status jl_entity_set_id(jl_entity_manager *manager, jl_entity *entity, uint64_t id);

/* A new ID, the next of this session's run (see "IDs" above), skipping 0
 * and IDs that are in use. Two managers whose runs of tags do not overlap
 * never collide. */
uint64_t jl_manager_mint_id(jl_entity_manager *manager);

/* Advances the counter past a loaded ID that lies ahead of it in this
 * session's run, within 2^32 IDs of its start (the tags it would move on
 * to; spec 4.4), so minting never repeats a loaded ID, even once the
 * entity is destroyed. Other IDs are left alone. */
void jl_manager_note_id(jl_entity_manager *manager, uint64_t id);

/* O(1) destroy: frees both slots, bumps the generation, unindexes the ID and
 * queues it in pending_deletions (if it had one). Pointers to the entity
 * and its derived struct become invalid; every other pointer stays valid.
 * JL_ERR_INVALID_ARGUMENT if entity is NULL, free or not in this manager. */
jl_status jl_entity_destroy(jl_entity_manager *manager, jl_entity *entity);

/* The live entity with that ID in O(1), or NULL (also for ID 0). */
jl_entity *jl_entity_find(const jl_entity_manager *manager, uint64_t id);

/* Empties pending_deletions, once the save has deleted their files. */
void jl_manager_forget_pending_deletions(jl_entity_manager *manager);

/* A handle to a live entity, and back. jl_handle_resolve returns NULL for a
 * handle whose entity was destroyed (stale) or that was never valid. */
jl_handle jl_entity_handle(const jl_entity_manager *manager, const jl_entity *entity);
jl_entity *jl_handle_resolve(const jl_entity_manager *manager, jl_handle handle);

/* Makes every typed array dense again: live derived structs slide down to
 * [0, count), base->derived is fixed for each moved one, free lists are
 * emptied. Base slots do not move. Invalidates derived pointers only. */
void jl_manager_compact(jl_entity_manager *manager);

/* Checks the invariants of spec 2.4 plus the ones of the removal design:
 * non-null, type coherence, array counts, both back-pointers, free lists,
 * the ID index. JL_OK or JL_ERR_INVARIANT with the first violation in err. */
jl_status jl_manager_check(const jl_entity_manager *manager, jl_error *err);

/* Whether a derived slot is free: its header then holds a link, tagged in
 * the low bit, which no (aligned) base pointer has. */
static inline bool jl_derived_is_free(const void *derived)
{
    return ((uintptr_t)((const jl_entity_header *)derived)->base & 1u) != 0;
}

/* Iteration over live base entities, in slot order (jli_entities_skip_free
 * is the loop's internal step, not API):
 *   for (jl_entity *e = jl_entities_first(m); e; e = jl_entities_next(m, e)) */
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

/* Iteration over the live derived structs of one class, in slot order
 * (jli_typed_skip_free is the internal step); none for a class the
 * manager never allocated:
 *   for (enemy *d = jl_typed_first(m, &enemy_class); d; d = jl_typed_next(m, &enemy_class, d)) */
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

/* Marks an entity changed (spec 6.3); every mutation through the public API
 * calls it. */
static inline void jl_entity_touch(jl_entity *entity) { entity->is_dirty = true; }

/* Moves an entity and marks it dirty. */
static inline void jl_entity_set_position(jl_entity *entity, float x, float y, float z)
{
    entity->position.x = x;
    entity->position.y = y;
    entity->position.z = z;
    entity->position.w = 1.0f;
    entity->is_dirty = true;
}

/* Bytes committed by all of the manager's arenas (what it really uses). */
size_t jl_manager_committed_bytes(const jl_entity_manager *manager);

#endif
