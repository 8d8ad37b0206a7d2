/* juliet/private/world_manager.h - the entity manager inside a world, for
 * white-box tests, fuzz targets and benchmarks (invariant checks, pending
 * deletions, figures).
 *
 * Private tier: what is declared here may change without notice, from one
 * release to the next. Programs use the headers one level up: world.h
 * walks, counts, finds and hands out handles to a world's entities. No
 * public header includes this one. */
#ifndef JULIET_PRIVATE_WORLD_MANAGER_H
#define JULIET_PRIVATE_WORLD_MANAGER_H

#include "../entity_manager.h"
#include "../world.h"

/* The world's entity manager; valid until jl_world_free. Changing entities
 * through it bypasses the world: a destroyed entity's file is then deleted
 * at the next save, but nothing else the world keeps about it is updated. */
jl_entity_manager *jl_world_manager(jl_world *world);

#endif
