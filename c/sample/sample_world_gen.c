/* sample_world_gen.c - deterministic synthetic worlds (sample_world_gen.h),
 * through the public API only. */
#include "sample_world_gen.h"

#include <math.h>
#include <stdio.h>

#include "sample_classes.h"

static uint64_t next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull); /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A uniform integer in [0, n). */
static uint32_t below(uint64_t *state, uint32_t n) { return (uint32_t)((next(state) >> 32) * n >> 32); }

/* A short decimal in [lo, hi] with `steps_per_unit` steps per unit. */
static float step_value(uint64_t *state, int32_t lo, int32_t hi, int32_t steps_per_unit)
{
    uint32_t span = (uint32_t)((hi - lo) * steps_per_unit) + 1;
    int32_t k = lo * steps_per_unit + (int32_t)below(state, span);
    return (float)k / (float)steps_per_unit;
}

uint64_t sample_world_gen_tag(uint64_t seed)
{
    uint64_t state = seed ^ 0x4a554c494554ull; /* "JULIET" */
    uint32_t tag = (uint32_t)next(&state);
    /* The same files as before tags were 48 bits wide. */
    return (uint64_t)(tag ? tag : 1) << JL_ID_COUNTER_BITS;
}

jl_status sample_world_generate(jl_world *world, uint32_t count, uint64_t seed)
{
    uint64_t state = seed;
    const jl_class *const classes[3] = {&sample_inert_class, &sample_light_class, &sample_prop_class};
    uint64_t first = 0, previous = 0;
    for (uint32_t i = 0; i < count; i++) {
        /* Every class in the first three, then a mix: half inert, a fifth lights. */
        uint32_t roll = below(&state, 10);
        uint32_t c = i < 3 ? i : (roll < 5 ? 0 : roll < 7 ? 1 : 2);
        float x = step_value(&state, -500, 500, 100), y = step_value(&state, 0, 50, 100),
              z = step_value(&state, -500, 500, 100);
        jl_entity *e;
        jl_status s = jl_world_create(world, classes[c]->name, x, y, z, &e);
        if (s != JL_OK) return s;
        /* The world's class of that name must be the sample's record. */
        if (e->derived_kind != classes[c]) return JL_ERR_UNKNOWN_CLASS;
        if (c == 0) {
            sample_inert *inert = e->derived;
            inert->mesh_instance = below(&state, 8) == 0 ? JL_INDEX_MAX : below(&state, 256);
        } else if (c == 1) {
            sample_light *light = e->derived;
            uint32_t rgb = (uint32_t)next(&state);
            light->color = (jl_color){(uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb};
            light->intensity = step_value(&state, 0, 20, 10);
            light->radius = below(&state, 16) == 0 ? INFINITY : step_value(&state, 1, 100, 2);
            light->cast_shadows = below(&state, 3) != 0;
        } else {
            sample_prop *prop = e->derived;
            prop->mesh_instance = below(&state, 256);
            prop->density = (float)(1 + below(&state, 200)) / 10.0f;
            prop->is_static = below(&state, 4) == 0;
            if (below(&state, 4) == 0)
                prop->velocity = (jl_vec3){step_value(&state, -5, 5, 10), step_value(&state, -5, 5, 10),
                                           step_value(&state, -5, 5, 10)};
            if (previous && below(&state, 3) == 0) prop->parent = previous;
        }
        if (!first) first = e->id;
        previous = e->id;
    }
    if (!first) return JL_OK;
    char text[32];
    int size = snprintf(text, sizeof text, "0x%016llx", (unsigned long long)first);
    return jl_world_settings_set(world, "spawn_point", text, (size_t)size, NULL);
}
