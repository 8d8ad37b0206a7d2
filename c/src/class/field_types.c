/* field_types.c - what each field type is in memory: its size and
 * alignment in a derived struct, and the checks of an enum's names
 * (class.h). The text form of each type is archive_values.c's. */
#include <stdalign.h>
#include <string.h>

#include "juliet/class.h"

size_t jl_field_type_size(jl_field_type type)
{
    switch (type) {
    case JL_FIELD_F32:
        return sizeof(float);
    case JL_FIELD_INDEX:
        return sizeof(uint32_t);
    case JL_FIELD_BOOL:
        return sizeof(bool);
    case JL_FIELD_VEC3:
        return sizeof(jl_vec3);
    case JL_FIELD_COLOR:
        return sizeof(jl_color);
    case JL_FIELD_ENTITY_REF:
        return sizeof(uint64_t);
    case JL_FIELD_I32:
        return sizeof(int32_t);
    case JL_FIELD_U32:
        return sizeof(uint32_t);
    case JL_FIELD_STRING:
        return sizeof(jl_string);
    case JL_FIELD_ENUM:
        return sizeof(jl_enum_value);
    case JL_FIELD_VEC2:
        return sizeof(jl_vec2);
    case JL_FIELD_QUAT:
        return sizeof(jl_quat);
    default:
        return 0;
    }
}

size_t jl_field_type_alignment(jl_field_type type)
{
    switch (type) {
    case JL_FIELD_F32:
        return alignof(float);
    case JL_FIELD_INDEX:
        return alignof(uint32_t);
    case JL_FIELD_BOOL:
        return alignof(bool);
    case JL_FIELD_VEC3:
        return alignof(jl_vec3);
    case JL_FIELD_COLOR:
        return alignof(jl_color);
    case JL_FIELD_ENTITY_REF:
        return alignof(uint64_t);
    case JL_FIELD_I32:
        return alignof(int32_t);
    case JL_FIELD_U32:
        return alignof(uint32_t);
    case JL_FIELD_STRING:
        return alignof(jl_string);
    case JL_FIELD_ENUM:
        return alignof(jl_enum_value);
    case JL_FIELD_VEC2:
        return alignof(jl_vec2);
    case JL_FIELD_QUAT:
        return alignof(jl_quat);
    default:
        return 0;
    }
}

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

jl_status jl_enum_check(const jl_enum *e, jl_error *err)
{
    if (!e || !e->names || e->count == 0 || e->count > JL_ENUM_NAMES_MAX)
        return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "an enum has 1 to %d names", JL_ENUM_NAMES_MAX);
    for (uint32_t i = 0; i < e->count; i++) {
        const char *name = e->names[i];
        if (!name) return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "enum name %u is missing", i);
        size_t n = strlen(name);
        if (n == 0 || n > JL_ENUM_NAME_MAX)
            return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "enum name %u: a name has 1 to %d bytes", i,
                                JL_ENUM_NAME_MAX);
        for (size_t c = 0; c < n; c++)
            if (!is_name_char(name[c]))
                return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0,
                                    "enum name '%.64s': only A-Z a-z 0-9 _ may appear in a name", name);
        /* Names are few (at most JL_ENUM_NAMES_MAX): a quadratic scan is
         * cheaper than any table. */
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(e->names[j], name) == 0)
                return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "enum name '%.64s' appears twice", name);
    }
    return JL_OK;
}
