/* entity_types.h - the entity classes this build knows.
 *
 * To add a class: a struct starting with JL_ENTITY_BASE, a kind below, a
 * field table and JL_DEFINE_ENTITY in entity_types.c, and a line in the
 * registry (entity_classes in class.c). Field defaults are the initializer passed to
 * JL_DEFINE_ENTITY, and survive allocation and partial files (spec 3.3). */
#ifndef JULIET_ENTITY_TYPES_H
#define JULIET_ENTITY_TYPES_H

#include "entity.h"

typedef enum jl_entity_kind {
    JL_KIND_INERT = 0,
    JL_KIND_LIGHT = 1,
    JL_KIND_PROP = 2,
    JL_KIND_COUNT
} jl_entity_kind;

/* Inert: a static mesh instance. */
typedef struct jl_inert {
    JL_ENTITY_BASE;
    uint32_t mesh_instance; /* default JL_INDEX_MAX: no mesh yet */
} jl_inert;

/* Light: a point light. */
typedef struct jl_light {
    JL_ENTITY_BASE;
    jl_color color;    /* default white */
    float intensity;   /* default 1.0 */
    float radius;      /* default 10.0; +inf lights the whole level */
    bool cast_shadows; /* default true */
} jl_light;

/* Prop: a movable physics object that can hang from another entity. */
typedef struct jl_prop {
    JL_ENTITY_BASE;
    uint32_t mesh_instance; /* default JL_INDEX_MAX */
    float density;          /* default 1.0 (water) */
    bool is_static;         /* default false */
    jl_vec3 velocity;       /* default 0 0 0 */
    uint64_t parent;        /* ID of the entity it is attached to; 0 = none */
} jl_prop;

extern const jl_class jl_inert_class;
extern const jl_class jl_light_class;
extern const jl_class jl_prop_class;

#endif
