/* sample_world_gen.h - deterministic synthetic worlds of the sample game's
 * classes (sample_classes.h, registered before the world is created) for
 * tests, benchmarks and `juliet gen`.
 *
 * The same (count, seed) gives the same entities, field values and IDs on
 * every machine: the world's ID tag is derived from the seed, and values
 * come from a splitmix64 stream, rounded to short decimals so files look
 * like hand-made ones (positions to 0.01, intensities to 0.1). Every class
 * appears; about a third of the props hang from an earlier entity (parent),
 * and the settings' spawn_point names the first entity. */
#ifndef JULIET_SAMPLE_WORLD_GEN_H
#define JULIET_SAMPLE_WORLD_GEN_H

#include <stdint.h>

#include "juliet/status.h"
#include "juliet/world.h"

/* The ID tag sample_world_generate expects the world to have been initialized
 * with (jl_world_desc.id_tag), so that IDs depend only on the seed. It is
 * a 32-bit value shifted into the 48-bit tag, so the IDs are those the
 * 32-bit tags of earlier versions gave: (value << 32) + counter. */
uint64_t sample_world_gen_tag(uint64_t seed);

/* Adds count new entities (dirty) to world and points the settings' spawn
 * point at the first one (settings dirty). JL_ERR_CAPACITY or
 * JL_ERR_OUT_OF_MEMORY if the world is too small, JL_ERR_UNKNOWN_CLASS if
 * the world does not know the sample classes (the entities created so far
 * stay). */
jl_status sample_world_generate(jl_world *world, uint32_t count, uint64_t seed);

#endif
