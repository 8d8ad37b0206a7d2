/* entity_types.c - class records, field tables and defaults of the entity
 * types this build knows (entity_types.h). */
#include "juliet/entity_types.h"

#include "juliet/archive.h"

static const jl_field inert_fields[] = {
    JL_FIELD(jl_inert, mesh_instance, JL_FIELD_INDEX, 0),
};
JL_DEFINE_ENTITY(jl_inert, "Inert", JL_KIND_INERT, 1, 0x4c45ea8fu, inert_fields, NULL,
                 {.mesh_instance = JL_INDEX_MAX});

static const jl_field light_fields[] = {
    JL_FIELD(jl_light, color, JL_FIELD_COLOR, 0),
    JL_FIELD(jl_light, intensity, JL_FIELD_F32, 0),
    JL_FIELD(jl_light, radius, JL_FIELD_F32, JL_FIELD_ALLOW_INF),
    JL_FIELD(jl_light, cast_shadows, JL_FIELD_BOOL, 0),
};
/* Light version 1 wrote the radius under the key `range`; version 2 calls it
 * `radius`. A version 1 file keeps its light's reach. */
static jl_status light_migrate(jl_archive *ar, const jl_class *cls, void *derived, uint32_t from_version)
{
    (void)cls;
    jl_light *light = derived;
    if (from_version < 2) {
        jl_status s = jl_archive_read_f32(ar, "range", &light->radius, JL_FIELD_ALLOW_INF);
        if (s != JL_OK && s != JL_ERR_NOT_FOUND) return s;
    }
    return JL_OK;
}
JL_DEFINE_ENTITY(jl_light, "Light", JL_KIND_LIGHT, 2, 0xaadb73f3u, light_fields, light_migrate,
                 {.color = {255, 255, 255}, .intensity = 1.0f, .radius = 10.0f, .cast_shadows = true});

static const jl_field prop_fields[] = {
    JL_FIELD(jl_prop, mesh_instance, JL_FIELD_INDEX, 0),
    JL_FIELD(jl_prop, density, JL_FIELD_F32, 0),
    JL_FIELD(jl_prop, is_static, JL_FIELD_BOOL, 0),
    JL_FIELD(jl_prop, velocity, JL_FIELD_VEC3, 0),
    JL_FIELD(jl_prop, parent, JL_FIELD_ENTITY_REF, 0),
};
JL_DEFINE_ENTITY(jl_prop, "Prop", JL_KIND_PROP, 1, 0x0f5c6ad4u, prop_fields, NULL,
                 {.mesh_instance = JL_INDEX_MAX, .density = 1.0f});
