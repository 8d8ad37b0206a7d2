/* entity.h - the 48-byte base entity and the header of every derived struct.
 *
 * Base entities live in one flat array that never moves (spec 2.2, 2.5);
 * derived structs live in one arena per class (spec 2.3). Each points at the
 * other (spec 2.4): base->derived and derived->base. */
#ifndef JULIET_ENTITY_H
#define JULIET_ENTITY_H

#include <stdbool.h>
#include <stdint.h>

#include "class.h"

typedef struct jl_vec4 {
    float x, y, z, w;
} jl_vec4;

enum jl_entity_flags {
    /* Loaded from a file whose version or class_version is newer than this
     * build: shown, never rewritten (the archive sets it). */
    JL_ENTITY_READ_ONLY = 1u << 0,
};

/* The base entity (spec 6.2). A slot whose `derived` is NULL is free: its
 * entity was destroyed and the slot waits on the free list for reuse. */
typedef struct jl_entity {
    uint64_t id;                  /* unique, 0 = not assigned yet */
    const jl_class *derived_kind; /* class of the derived struct */
    void *derived;                /* the derived struct; NULL in a free slot */
    jl_vec4 position;             /* x, y, z; w is 1 */
    bool is_dirty;                /* differs from its file on disk (spec 6.3) */
    uint8_t flags;                /* jl_entity_flags */
    uint16_t reserved;            /* zero; keeps the layout explicit */
    uint32_t generation;          /* bumped when the slot's entity is destroyed */
} jl_entity;

#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(jl_entity) == 48, "the base entity is 48 bytes on 64-bit targets (spec 2.2)");
#endif

/* The first member of every derived struct (the spec's DECLARE_ENTITY). */
#define JL_ENTITY_BASE jl_entity *base

/* What every derived struct starts with, for type-agnostic code. */
typedef struct jl_entity_header {
    JL_ENTITY_BASE;
} jl_entity_header;

/* A reference to an entity that survives its destruction: the slot index
 * plus the slot's generation at the time. {0, 0} is never valid. */
typedef struct jl_handle {
    uint32_t index;
    uint32_t generation;
} jl_handle;

static inline bool jl_entity_is_alive(const jl_entity *entity) { return entity->derived != 0; }

/* The derived struct of entity if it is of class cls, else NULL (spec's
 * DownCast). entity may be NULL. */
static inline void *jl_entity_downcast(const jl_entity *entity, const jl_class *cls)
{
    return (entity && entity->derived_kind == cls) ? entity->derived : 0;
}

/* Typed DownCast for a class defined by JL_DEFINE_ENTITY(Type, ...):
 * JL_DOWNCAST(enemy, entity) -> enemy * or NULL. */
#define JL_DOWNCAST(Type, entity) ((Type *)jl_entity_downcast((entity), &Type##_class))

#endif
