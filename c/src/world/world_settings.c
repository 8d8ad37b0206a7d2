/* world_settings.c - the class record of WorldSettings.jasset: its fields
 * and defaults (world.h). Not an entity class: it is not in the registry
 * and its struct has no base pointer. */
#include "archive/archive_internal.h"
#include "world/world_internal.h"

static const jl_field settings_fields[] = {
    JL_FIELD(jl_world_settings, gravity, JL_FIELD_VEC3, 0),
    JL_FIELD(jl_world_settings, ambient_color, JL_FIELD_COLOR, 0),
    JL_FIELD(jl_world_settings, ambient_intensity, JL_FIELD_F32, 0),
    JL_FIELD(jl_world_settings, time_of_day, JL_FIELD_F32, 0),
    JL_FIELD(jl_world_settings, spawn_point, JL_FIELD_ENTITY_REF, 0),
    /* Fields are only ever appended: a share link made before one was
     * added still opens, with that field's default (snapshot_world.c). */
    JL_FIELD(jl_world_settings, share_base, JL_FIELD_STRING, 0),
};

static void settings_default_init(void *p)
{
    *(jl_world_settings *)p = (jl_world_settings){
        .gravity = {0.0f, -9.81f, 0.0f},
        .ambient_color = {0x40, 0x40, 0x40},
        .ambient_intensity = 0.25f,
        .time_of_day = 12.0f,
        .spawn_point = 0,
        .share_base = JL_STRING(""),
    };
}

const jl_class jl_world_settings_class = {
    .name = "WorldSettings",
    .kind = 0xff, /* not an entity kind */
    .version = JL_WORLD_SETTINGS_VERSION,
    .crc = 0,
    .size_of = (uint32_t)sizeof(jl_world_settings),
    .alignment = (uint32_t) _Alignof(jl_world_settings),
    .serialize = jl_serialize_fields,
    .default_init = settings_default_init,
    .migrate = NULL,
    .fields = settings_fields,
    .field_count = (uint32_t)(sizeof settings_fields / sizeof settings_fields[0]),
};

void jli_world_settings_defaults(jl_world_settings *settings) { settings_default_init(settings); }

void jli_settings_write_text(jl_archive *ar, const jl_world_settings *settings, const char *unknown,
                             size_t unknown_size)
{
    jl_archive_write_key(ar, "version");
    char v[12];
    uint32_t version = JL_WORLD_SETTINGS_VERSION;
    uint32_t n = jl_value_format(JL_FIELD_INDEX, &version, v);
    v[n++] = '\n';
    jl_archive_write_raw(ar, v, n);
    jli_archive_write_fields(ar, &jl_world_settings_class, settings);
    if (unknown_size) jl_archive_write_raw(ar, unknown, unknown_size);
}
