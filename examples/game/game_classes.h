/* game_classes.h - the example game's own entity classes.
 *
 * A game on the Juliet engine defines its classes in its own source: a
 * struct that starts with JL_ENTITY_BASE, a field table and
 * JL_DEFINE_ENTITY (game_classes.c), then registers them at start-up
 * (game_register_classes) before it creates a world. No library file
 * changes. */
#ifndef EXAMPLE_GAME_CLASSES_H
#define EXAMPLE_GAME_CLASSES_H

#include <juliet/class.h>
#include <juliet/entity.h>
#include <juliet/status.h>

/* Enemy: something that chases a target. */
typedef struct enemy {
    JL_ENTITY_BASE;
    float health;       /* default 100 */
    float speed;        /* metres per second, default 3.5 */
    uint64_t target;    /* ID of the entity it chases; 0 = none */
    jl_vec3 home;       /* where it returns to, default 0 0 0 */
    bool aggressive;    /* default true */
    jl_string name;     /* shown over its head, default "Grunt" */
    jl_enum_value rank; /* grunt (the default), elite or boss */
    int32_t level;      /* may be negative (a weakened enemy), default 1 */
    jl_quat facing;     /* orientation, default identity 0 0 0 1 */
    jl_vec2 patrol;     /* half extents of its patrol area on the ground, default 4 4 */
    uint64_t parent;    /* ID of its squad's leader (the editor's outliner shows it under it); 0 = none */
} enemy;

/* Pickup: an item lying in the level. */
typedef struct pickup {
    JL_ENTITY_BASE;
    uint32_t item;  /* index into the game's item table; JL_INDEX_MAX = none (the default) */
    float amount;   /* default 1 */
    bool respawns;  /* default true */
    jl_color glow;  /* default #ffd700 */
    uint32_t stock; /* how many it hands out before it is gone; default 1 */
} pickup;

JL_DECLARE_ENTITY(enemy);  /* "Enemy" */
JL_DECLARE_ENTITY(pickup); /* "Pickup" */

/* Registers Enemy and Pickup (jl_class_register). Call once at start-up,
 * before creating worlds; JL_OK or the first failure. */
jl_status game_register_classes(void);

#endif
