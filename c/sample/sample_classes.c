/* sample_classes.c - class records, field tables, defaults and migration of
 * the sample game's entity classes (sample_classes.h). */
#include "sample_classes.h"

#include "juliet/archive.h"
#include "juliet/class_registry.h"

static const jl_field inert_fields[] = {
    JL_FIELD(sample_inert, mesh_instance, JL_FIELD_INDEX, 0),
};
JL_DEFINE_ENTITY(sample_inert, "Inert", 1, inert_fields, NULL, {.mesh_instance = JL_INDEX_MAX});

static const jl_field light_fields[] = {
    JL_FIELD(sample_light, color, JL_FIELD_COLOR, 0),
    JL_FIELD(sample_light, intensity, JL_FIELD_F32, 0),
    JL_FIELD(sample_light, radius, JL_FIELD_F32, JL_FIELD_ALLOW_INF),
    JL_FIELD(sample_light, cast_shadows, JL_FIELD_BOOL, 0),
};
/* Light version 1 wrote the radius under the key `range`; version 2 calls it
 * `radius`. A version 1 file keeps its light's reach. */
static jl_status light_migrate(jl_archive *ar, const jl_class *cls, void *derived, uint32_t from_version)
{
    (void)cls;
    sample_light *light = derived;
    if (from_version < 2) {
        jl_status s = jl_archive_read_f32(ar, "range", &light->radius, JL_FIELD_ALLOW_INF);
        if (s != JL_OK && s != JL_ERR_NOT_FOUND) return s;
    }
    return JL_OK;
}
JL_DEFINE_ENTITY(sample_light, "Light", 2, light_fields, light_migrate,
                 {.color = {255, 255, 255}, .intensity = 1.0f, .radius = 10.0f, .cast_shadows = true});

static const jl_field prop_fields[] = {
    JL_FIELD(sample_prop, mesh_instance, JL_FIELD_INDEX, 0), JL_FIELD(sample_prop, density, JL_FIELD_F32, 0),
    JL_FIELD(sample_prop, is_static, JL_FIELD_BOOL, 0),      JL_FIELD(sample_prop, velocity, JL_FIELD_VEC3, 0),
    JL_FIELD(sample_prop, parent, JL_FIELD_ENTITY_REF, 0),
};
JL_DEFINE_ENTITY(sample_prop, "Prop", 1, prop_fields, NULL, {.mesh_instance = JL_INDEX_MAX, .density = 1.0f});

jl_status sample_register_classes(void)
{
    jl_class *classes[] = {&sample_inert_class, &sample_light_class, &sample_prop_class};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        jl_status s = jl_class_register(classes[i]);
        if (s != JL_OK) return s;
    }
    return JL_OK;
}
