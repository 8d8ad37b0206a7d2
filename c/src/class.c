/* class.c - CRC32, defaults and field lookup of class records (class.h).
 * The registry of classes is class_registry.c. */
#include "juliet/class.h"

#include <string.h>

uint32_t jl_crc32(const void *data, size_t size)
{
    /* Four bits at a time: a 16-entry table, fast enough for class names
     * (hashed on every load by name) without a 1 KiB table. */
    static const uint32_t nibble[16] = {
        0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u,
        0x4db26158u, 0x5005713cu, 0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
        0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu,
    };
    const uint8_t *bytes = data;
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < size; i++) {
        crc ^= bytes[i];
        crc = (crc >> 4) ^ nibble[crc & 15u];
        crc = (crc >> 4) ^ nibble[crc & 15u];
    }
    return ~crc;
}

void jl_class_default_init(const jl_class *cls, void *derived)
{
    if (cls->default_init) cls->default_init(derived);
    else if (cls->defaults) memcpy(derived, cls->defaults, cls->size_of);
    else memset(derived, 0, cls->size_of);
}

const jl_field *jl_class_find_field(const jl_class *cls, const char *name)
{
    if (!cls || !name) return NULL;
    for (uint32_t i = 0; i < cls->field_count; i++)
        if (strcmp(cls->fields[i].name, name) == 0) return &cls->fields[i];
    return NULL;
}
