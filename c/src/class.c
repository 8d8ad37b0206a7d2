/* class.c - CRC32 and class resolution by (kind, crc) and by name (spec 4.3). */
#include "juliet/class.h"

#include <string.h>

#include "juliet/entity_types.h"

/* The registry: the class of each kind, indexed by kind. */
static const jl_class *const entity_classes[JL_KIND_COUNT] = {
    [JL_KIND_INERT] = &jl_inert_class,
    [JL_KIND_LIGHT] = &jl_light_class,
    [JL_KIND_PROP] = &jl_prop_class,
};

uint32_t jl_crc32(const void *data, size_t size)
{
    /* Table-free bitwise CRC: it only hashes class names. */
    const uint8_t *bytes = data;
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < size; i++) {
        crc ^= bytes[i];
        for (int bit = 0; bit < 8; bit++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

const jl_class *jl_class_resolve(uint8_t kind, uint32_t crc)
{
    if (kind >= JL_KIND_COUNT) return NULL;
    const jl_class *cls = entity_classes[kind];
    if (!cls || cls->crc != crc) return NULL;
    return cls;
}

const jl_class *jl_class_find_by_name(const char *name, size_t name_size)
{
    if (!name || name_size == 0) return NULL;
    uint32_t crc = jl_crc32(name, name_size);
    for (uint8_t kind = 0; kind < JL_KIND_COUNT; kind++) {
        const jl_class *cls = jl_class_resolve(kind, crc);
        /* A CRC match is not proof: compare the name too. */
        if (cls && strlen(cls->name) == name_size && memcmp(cls->name, name, name_size) == 0)
            return cls;
    }
    return NULL;
}

const jl_field *jl_class_find_field(const jl_class *cls, const char *name)
{
    if (!cls || !name) return NULL;
    for (uint32_t i = 0; i < cls->field_count; i++)
        if (strcmp(cls->fields[i].name, name) == 0) return &cls->fields[i];
    return NULL;
}

uint32_t jl_class_count(void) { return JL_KIND_COUNT; }

const jl_class *jl_class_at(uint32_t kind)
{
    return kind < JL_KIND_COUNT ? entity_classes[kind] : NULL;
}
