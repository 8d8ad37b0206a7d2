/* class_registry.c - registries of entity classes: registration with its
 * checks, and the constant-time lookups by (kind, crc), name and CRC
 * (class_registry.h; JULIET-SPEC-002 §4.3). */
#include "juliet/class_registry.h"

#include <stdbool.h>
#include <string.h>

#include "class/class_registry_internal.h"
#include "juliet/entity.h"

_Static_assert(JL_CLASS_MAX <= JL_CLASS_KIND_NONE, "kinds fit the spec's uint8 and spare KIND_NONE");
_Static_assert((JL_CLASS_NAME_SLOTS & (JL_CLASS_NAME_SLOTS - 1)) == 0, "the name table is a power of two");
_Static_assert(JL_CLASS_NAME_SLOTS >= 2 * JL_CLASS_MAX, "the name table stays under half full");

/* The program's compiled classes (jl_class_register). */
static jl_class_registry program;

/* ---- checks of a record ---- */

static bool is_identifier(const char *name, size_t size)
{
    if (size == 0 || size > JL_CLASS_NAME_MAX || (name[0] >= '0' && name[0] <= '9')) return false;
    for (size_t i = 0; i < size; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    }
    return true;
}

/* Keys every entity file has for its base entity (archive.h): a field
 * named like one could never be read back. */
static bool is_base_key(const char *name)
{
    static const char *const keys[] = {"asset_type", "id", "class", "version", "class_version", "position"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(name, keys[i]) == 0) return true;
    return false;
}

static bool field_is_valid(const jl_class *cls, uint32_t index)
{
    const jl_field *f = &cls->fields[index];
    if (!f->name || !f->name[0] || is_base_key(f->name)) return false;
    size_t size = jl_field_type_size(f->type);
    if (size == 0 || f->offset < sizeof(jl_entity_header) || f->offset > cls->size_of ||
        size > cls->size_of - f->offset)
        return false;
    for (uint32_t j = 0; j < index; j++)
        if (strcmp(cls->fields[j].name, f->name) == 0) return false;
    return true;
}

/* Whether the record can live in a typed array and be read and written. */
static bool record_is_valid(const jl_class *cls)
{
    if (!cls->name || !is_identifier(cls->name, strlen(cls->name)) || cls->version == 0) return false;
    if (cls->size_of < sizeof(jl_entity_header)) return false;
    uint32_t align = cls->alignment;
    if (align < _Alignof(jl_entity_header) || (align & (align - 1)) || align > 4096) return false;
    if (!cls->serialize || (cls->field_count && !cls->fields)) return false;
    for (uint32_t i = 0; i < cls->field_count; i++)
        if (!field_is_valid(cls, i)) return false;
    return true;
}

/* ---- the name table ---- */

/* The bucket holding the class whose name has CRC crc, or the empty bucket
 * where it would go. */
static uint32_t name_bucket(const jl_class_registry *reg, uint32_t crc)
{
    uint32_t i = crc & (JL_CLASS_NAME_SLOTS - 1);
    while (reg->by_name[i] && reg->by_kind[reg->by_name[i] - 1]->crc != crc) i = (i + 1) & (JL_CLASS_NAME_SLOTS - 1);
    return i;
}

/* ---- adding ---- */

jl_status jli_registry_add(jl_class_registry *reg, jl_class *cls)
{
    if (!cls) return JL_ERR_INVALID_ARGUMENT;
    if (cls->kind < reg->count && reg->by_kind[cls->kind] == cls) return JL_OK; /* already here */
    if (!record_is_valid(cls)) return JL_ERR_INVALID_ARGUMENT;
    uint32_t crc = jl_crc32(cls->name, strlen(cls->name));
    uint32_t bucket = name_bucket(reg, crc);
    if (reg->by_name[bucket]) return JL_ERR_EXISTS; /* that name, or another with its CRC */
    if (reg->count >= JL_CLASS_MAX) return JL_ERR_CAPACITY;
    uint8_t kind = (uint8_t)reg->count++;
    cls->kind = kind;
    cls->crc = crc;
    reg->by_kind[kind] = cls;
    reg->by_name[bucket] = (uint8_t)(kind + 1);
    return JL_OK;
}

/* ---- lookups ---- */

uint32_t jl_registry_count(const jl_class_registry *reg) { return reg->count; }

const jl_class *jl_registry_at(const jl_class_registry *reg, uint32_t kind)
{
    return kind < reg->count ? reg->by_kind[kind] : NULL;
}

const jl_class *jl_registry_resolve(const jl_class_registry *reg, uint8_t kind, uint32_t crc)
{
    const jl_class *cls = kind < reg->count ? reg->by_kind[kind] : NULL;
    return cls && cls->crc == crc ? cls : NULL;
}

const jl_class *jl_registry_find_crc(const jl_class_registry *reg, uint32_t crc)
{
    uint8_t slot = reg->by_name[name_bucket(reg, crc)];
    return slot ? reg->by_kind[slot - 1] : NULL;
}

const jl_class *jl_registry_find(const jl_class_registry *reg, const char *name, size_t name_size)
{
    if (!name || name_size == 0 || name_size > JL_CLASS_NAME_MAX) return NULL;
    const jl_class *cls = jl_registry_find_crc(reg, jl_crc32(name, name_size));
    /* A CRC match is not proof: compare the name too. */
    if (cls && strlen(cls->name) == name_size && memcmp(cls->name, name, name_size) == 0) return cls;
    return NULL;
}

/* ---- the program's registry ---- */

jl_status jl_class_register(jl_class *cls) { return jli_registry_add(&program, cls); }

const jl_class_registry *jl_program_classes(void) { return &program; }

const jl_class *jl_class_resolve(uint8_t kind, uint32_t crc) { return jl_registry_resolve(&program, kind, crc); }

const jl_class *jl_class_find_by_name(const char *name, size_t name_size)
{
    return jl_registry_find(&program, name, name_size);
}

uint32_t jl_class_count(void) { return program.count; }

const jl_class *jl_class_at(uint32_t kind) { return jl_registry_at(&program, kind); }
