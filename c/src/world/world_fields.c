/* world_fields.c - entities and settings as text through the API: a field
 * set from text (parsed exactly as in a file) or read as canonical text,
 * and an entity's or the settings' whole file text (world.h). */
#include <string.h>

#include "archive/archive_internal.h"
#include "world/world_internal.h"

jl_status jl_world_write_entity(jl_world *w, uint64_t id, const char **text, size_t *size)
{
    const jl_entity *e = jl_entity_find(&w->manager, id);
    *text = NULL;
    *size = 0;
    if (!e) return JL_ERR_NOT_FOUND;
    jl_arena_pop_to(&w->scratch, 0);
    jl_archive ar;
    jl_archive_begin_write(&ar, &w->scratch);
    jl_status s = jli_world_write_entity_text(w, e, &ar);
    jl_status s2 = jl_archive_end_write(&ar, text, size);
    return s != JL_OK ? s : s2;
}

jl_status jl_world_write_settings(jl_world *w, const char **text, size_t *size)
{
    jl_arena_pop_to(&w->scratch, 0);
    jl_archive ar;
    jl_archive_begin_write(&ar, &w->scratch);
    jl_status s = jli_world_write_settings_text(w, &ar);
    jl_status s2 = jl_archive_end_write(&ar, text, size);
    return s != JL_OK ? s : s2;
}

/* ---- fields ---- */

static jl_status set_value(jl_world *w, const jl_field *f, void *base, const char *field, const char *text, size_t size,
                           jl_error *err)
{
    uint32_t col = 0;
    jl_error local;
    jl_status s = jl_field_parse(f, text, size, (char *)base + f->offset, &w->strings, &col, &local);
    if (s != JL_OK) return jl_error_set(err, s, NULL, 1, col, "%s: %s", field, local.message);
    return JL_OK;
}

jl_status jl_world_set_field(jl_world *w, uint64_t id, const char *field, const char *text, size_t size, jl_error *err)
{
    static const jl_field position = {"position", JL_FIELD_VEC3, 0, 0, NULL};
    jl_entity *e = jl_entity_find(&w->manager, id);
    if (!e) return jl_error_set(err, JL_ERR_NOT_FOUND, NULL, 0, 0, "no entity 0x%016llx", (unsigned long long)id);
    if (e->flags & JL_ENTITY_READ_ONLY)
        return jl_error_set(err, JL_ERR_READ_ONLY, NULL, 0, 0, "entity 0x%016llx is read-only (newer file format)",
                            (unsigned long long)id);
    const bool is_position = strcmp(field, "position") == 0;
    if (!is_position && jl_class_is_opaque(e->derived_kind))
        return jl_error_set(err, JL_ERR_UNKNOWN_CLASS, NULL, 0, 0,
                            "class %s is unknown to this build: its key '%s' is kept as text and cannot be set",
                            e->derived_kind->name, field);
    const jl_field *f = is_position ? &position : jl_class_find_field(e->derived_kind, field);
    if (!f)
        return jl_error_set(err, JL_ERR_NOT_FOUND, NULL, 0, 0, "class %s has no field '%s'", e->derived_kind->name,
                            field);
    jli_entity_record *r = jli_record_for(w, e);
    const uint64_t before = jli_files_before_change(w, e, r);
    jl_vec3 p;
    jl_status s = set_value(w, f, is_position ? (void *)&p : e->derived, field, text, size, err);
    if (s != JL_OK) return s;
    if (is_position) jl_entity_set_position(e, p.x, p.y, p.z);
    /* Dirty, unless the entity came back to exactly its file. */
    jli_files_after_change(w, e, r, before);
    return JL_OK;
}

static void terminate(char *out, uint32_t n, uint32_t *size)
{
    out[n] = '\0';
    if (size) *size = n;
}

jl_status jl_world_get_field(const jl_world *w, uint64_t id, const char *field, char *out, uint32_t *size)
{
    const jl_entity *e = jl_entity_find(&w->manager, id);
    if (!e) return JL_ERR_NOT_FOUND;
    if (strcmp(field, "position") == 0) {
        terminate(out, jl_value_format(JL_FIELD_VEC3, &e->position, out), size);
        return JL_OK;
    }
    if (strcmp(field, "id") == 0) {
        terminate(out, jl_value_format(JL_FIELD_ENTITY_REF, &e->id, out), size);
        return JL_OK;
    }
    if (strcmp(field, "class_version") == 0) {
        const uint32_t version = jli_entity_class_version(e);
        terminate(out, jl_value_format(JL_FIELD_U32, &version, out), size);
        return JL_OK;
    }
    if (strcmp(field, "class") == 0) {
        size_t n = strlen(e->derived_kind->name);
        if (n >= JL_VALUE_TEXT_MAX) n = JL_VALUE_TEXT_MAX - 1;
        memcpy(out, e->derived_kind->name, n);
        terminate(out, (uint32_t)n, size);
        return JL_OK;
    }
    const jl_field *f = jl_class_find_field(e->derived_kind, field);
    if (!f) return jl_class_is_opaque(e->derived_kind) ? jli_kept_value(w, id, field, out, size) : JL_ERR_NOT_FOUND;
    terminate(out, jl_field_format(f, (const char *)e->derived + f->offset, out), size);
    return JL_OK;
}

jl_status jl_world_settings_set(jl_world *w, const char *field, const char *text, size_t size, jl_error *err)
{
    if (w->settings_read_only || w->settings_failed)
        return jl_error_set(err, JL_ERR_READ_ONLY, NULL, 0, 0,
                            "the world settings are read-only (newer or unreadable file)");
    const jl_field *f = jl_class_find_field(&jl_world_settings_class, field);
    if (!f) return jl_error_set(err, JL_ERR_NOT_FOUND, NULL, 0, 0, "the world settings have no field '%s'", field);
    const uint64_t before = jli_files_before_settings_change(w);
    jl_status s = set_value(w, f, &w->settings, field, text, size, err);
    if (s == JL_OK) jli_files_after_settings_change(w, before); /* dirty, unless back to their file */
    return s;
}

jl_status jl_world_settings_get(const jl_world *w, const char *field, char *out, uint32_t *size)
{
    const jl_field *f = jl_class_find_field(&jl_world_settings_class, field);
    if (!f) return JL_ERR_NOT_FOUND;
    terminate(out, jl_field_format(f, (const char *)&w->settings + f->offset, out), size);
    return JL_OK;
}
