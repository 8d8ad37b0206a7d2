/* juliet/private/world.h - layouts behind world.h.
 *
 * Private tier: what is declared here may change without notice, from one
 * release to the next. Programs use the headers one level up
 * (<juliet/world.h>), which include this one only because C needs a
 * struct's layout to put it on the caller's stack; they never read or
 * write these fields. */
#ifndef JULIET_PRIVATE_WORLD_H
#define JULIET_PRIVATE_WORLD_H

#include <stddef.h>
#include <stdint.h>

struct jl_world;
struct jl_class;

/* Where a world iteration (jl_world_iter) stands: the world it walks (NULL
 * once the walk ended), the class it keeps to (NULL: every class) and the
 * next slot it looks at, a base slot or a slot of the class's derived
 * structs. Slots, not pointers, so that the walk survives changes to the
 * world between two steps. */
typedef struct jl_world_iter_state {
    const struct jl_world *world;
    const struct jl_class *cls;
    size_t next;
} jl_world_iter_state;

#endif
