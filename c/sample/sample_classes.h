/* sample_classes.h - the sample game's entity classes: Inert, Light, Prop.
 *
 * They are not part of the library: they are the classes of the sample world
 * (assets/sample_world), defined and registered here the way any game
 * defines and registers its own (class_registry.h). The `juliet` CLI, the
 * sample game's wasm module (sample_wasm_classes.c; the npm library's has no
 * class compiled in), the tests, benchmarks and fuzz targets call
 * sample_register_classes() at start-up.
 *
 * Field defaults are the initializer passed to JL_DEFINE_ENTITY in
 * sample_classes.c, and survive allocation and partial files (JULIET-SPEC-002 §3.3). */
#ifndef JULIET_SAMPLE_CLASSES_H
#define JULIET_SAMPLE_CLASSES_H

#include "juliet/class.h"
#include "juliet/entity.h"
#include "juliet/status.h"

/* Inert: a static mesh instance. */
typedef struct sample_inert {
    JL_ENTITY_BASE;
    uint32_t mesh_instance; /* default JL_INDEX_MAX: no mesh yet */
} sample_inert;

/* Light: a point light. Version 2; version 1 called radius `range`. */
typedef struct sample_light {
    JL_ENTITY_BASE;
    jl_color color;    /* default white */
    float intensity;   /* default 1.0 */
    float radius;      /* default 10.0; +inf lights the whole level */
    bool cast_shadows; /* default true */
} sample_light;

/* Prop: a movable physics object that can hang from another entity. */
typedef struct sample_prop {
    JL_ENTITY_BASE;
    uint32_t mesh_instance; /* default JL_INDEX_MAX */
    float density;          /* default 1.0 (water) */
    bool is_static;         /* default false */
    jl_vec3 velocity;       /* default 0 0 0 */
    uint64_t parent;        /* ID of the entity it is attached to; 0 = none */
} sample_prop;

JL_DECLARE_ENTITY(sample_inert); /* "Inert" */
JL_DECLARE_ENTITY(sample_light); /* "Light" */
JL_DECLARE_ENTITY(sample_prop);  /* "Prop" */

/* Registers Inert, Light and Prop, in that order, in the program's registry
 * (jl_class_register): call it once at start-up, before creating worlds.
 * Calling it again changes nothing. Returns JL_OK or the first failure of
 * jl_class_register (e.g. JL_ERR_EXISTS if the program registered another
 * class of one of these names). */
jl_status sample_register_classes(void);

#endif
