/* entity_manager.h - the dual-arena entity manager with O(1) stable
 * removal (JULIET-SPEC-002 §2, §3; the removal design in docs/design.md,
 * "Removal and generational handles").
 *
 * Base entities live in one array reserved for the whole capacity at init
 * (it never moves, JULIET-SPEC-002 §2.5); derived structs in one arena per
 * class of the manager's registry, reserved at the class's first entity.
 * Destroy frees both slots onto free lists and bumps the slot's
 * generation, so pointers to survivors stay valid and a jl_handle to a
 * destroyed entity stays stale. IDs are (48-bit session tag << 16) +
 * counter: docs/design.md, "IDs and the collision bound".
 *
 * A program that holds a jl_world does not need this header: world.h
 * walks, finds and hands out handles. The manager's layout is private
 * (juliet/private/entity_manager.h). */
#ifndef JULIET_ENTITY_MANAGER_H
#define JULIET_ENTITY_MANAGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "entity.h"
#include "class_registry.h"
#include "status.h"

typedef struct jl_entity_manager jl_entity_manager; /* layout: juliet/private/entity_manager.h */

enum {
    JL_DEFAULT_CAPACITY = 100000, /* JULIET-SPEC-002 §2.2 */
    JL_MAX_CAPACITY = 16u << 20,  /* 16M entities: base array 768 MiB of address space */
    JL_ID_COUNTER_BITS = 16,      /* low bits of a minted ID; the tag has the other 48 */
};

/* Init options; a zero field means the default. */
typedef struct jl_manager_desc {
    uint32_t capacity;                /* most live entities at once; default JL_DEFAULT_CAPACITY */
    uint64_t id_tag;                  /* first 48-bit tag: minted IDs start at (id_tag << 16) + 1;
                          default: random per manager */
    const jl_class_registry *classes; /* the classes it allocates; default the program's
                                         (jl_program_classes). Must outlive the manager */
} jl_manager_desc;

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

/* The spec's AllocateEntity (JULIET-SPEC-002 §3.1): a base slot and a derived struct of cls,
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
#define JL_MAKE_ENTITY(manager, Type, x, y, z) ((Type *)jl_entity_make((manager), &Type##_class, (x), (y), (z)))

/* Gives a live entity its ID (deserialization, undo) and indexes it. An
 * entity whose ID is already set is re-indexed. Fails with
 * JL_ERR_INVALID_ARGUMENT for ID 0 and JL_ERR_DUPLICATE_ID if another live
 * entity has it; the entity is then unchanged. */
jl_status jl_entity_set_id(jl_entity_manager *manager, jl_entity *entity, uint64_t id);

/* A new ID, the next of this session's run (docs/design.md, "IDs and the
 * collision bound"), skipping 0 and IDs that are in use. Two managers
 * whose runs of tags do not overlap never collide. */
uint64_t jl_manager_mint_id(jl_entity_manager *manager);

/* Advances the counter past a loaded ID that lies ahead of it in this
 * session's run, within 2^32 IDs of its start (the tags it would move on
 * to; JULIET-SPEC-002 §4.4), so minting never repeats a loaded ID, even once the
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

/* Checks the invariants of JULIET-SPEC-002 §2.4 plus the ones of the removal design:
 * non-null, type coherence, array counts, both back-pointers, free lists,
 * the ID index. JL_OK or JL_ERR_INVARIANT with the first violation in err. */
jl_status jl_manager_check(const jl_entity_manager *manager, jl_error *err);

/* Whether a derived slot is free: its header then holds a link, tagged in
 * the low bit, which no (aligned) base pointer has. */
static inline bool jl_derived_is_free(const void *derived)
{
    return ((uintptr_t)((const jl_entity_header *)derived)->base & 1u) != 0;
}

/* Iteration over live base entities, in slot order; free slots are
 * skipped. Inline (juliet/private/entity_manager.h):
 *   for (jl_entity *e = jl_entities_first(m); e; e = jl_entities_next(m, e)) */
static inline jl_entity *jl_entities_first(const jl_entity_manager *m);
static inline jl_entity *jl_entities_next(const jl_entity_manager *m, jl_entity *e);

/* Iteration over the live derived structs of one class, in slot order;
 * none for a class the manager never allocated. Inline:
 *   for (enemy *d = jl_typed_first(m, &enemy_class); d; d = jl_typed_next(m, &enemy_class, d)) */
static inline void *jl_typed_first(const jl_entity_manager *m, const jl_class *cls);
static inline void *jl_typed_next(const jl_entity_manager *m, const jl_class *cls, void *derived);

/* Marks an entity changed (JULIET-SPEC-002 §6.3); every mutation through the public API
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

#include "private/entity_manager.h"

#endif
