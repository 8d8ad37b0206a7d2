/* class.h - class reflection: one record per entity type (spec 3.3, 4.3).
 *
 * A class record names a derived entity type, gives its version, size and
 * alignment, how to serialize it and how to set it to its defaults, and
 * lists its fields so that tools (the archive, the snapshot codec, the
 * inspector) work on any class without knowing it. Its kind and the CRC32
 * of its name are filled in when it is registered (class_registry.h): the
 * library itself defines no entity class; a program registers its own. */
#ifndef JULIET_CLASS_H
#define JULIET_CLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"

typedef struct jl_archive jl_archive; /* archive.h */
typedef struct jl_class jl_class;

/* "No index" for index fields such as a mesh instance (spec's indexMax). */
#define JL_INDEX_MAX UINT32_MAX

typedef enum jl_field_type {
    JL_FIELD_F32,        /* float; finite unless the field allows inf */
    JL_FIELD_INDEX,      /* uint32_t index into some table; JL_INDEX_MAX = none */
    JL_FIELD_BOOL,       /* bool */
    JL_FIELD_VEC3,       /* jl_vec3: three finite floats */
    JL_FIELD_COLOR,      /* jl_color: 8-bit r, g, b; written #rrggbb */
    JL_FIELD_ENTITY_REF, /* uint64_t ID of another entity; 0 = none */
    JL_FIELD_I32,        /* int32_t */
    JL_FIELD_U32,        /* uint32_t; every value is a number (no "none", unlike INDEX) */
    JL_FIELD_STRING,     /* jl_string: one line of UTF-8, its bytes in an arena */
    JL_FIELD_ENUM,       /* jl_enum_value: index into the field's jl_enum, written as a name */
    JL_FIELD_VEC2,       /* jl_vec2: two finite floats */
    JL_FIELD_QUAT,       /* jl_quat: x y z w, four finite floats (not required to be normalized) */
    JL_FIELD_TYPE_COUNT
} jl_field_type;

enum jl_field_flags {
    JL_FIELD_ALLOW_INF = 1u << 0, /* an F32 field that may be +inf or -inf (never NaN) */
};

typedef struct jl_vec2 {
    float x, y;
} jl_vec2;
typedef struct jl_vec3 {
    float x, y, z;
} jl_vec3;
typedef struct jl_quat {
    float x, y, z, w;
} jl_quat;
typedef struct jl_color {
    uint8_t r, g, b;
} jl_color;

/* A STRING field's value: size bytes of UTF-8 at data, with no control
 * character (U+0000-U+001F, U+007F-U+009F), whose canonical text fits in
 * one line (archive.h). The bytes are not owned by the struct: the archive
 * reader and jl_world_set_field copy them into an arena (the world's
 * strings, kept until the world is freed) and follow them with a NUL; a
 * class default may point at a string literal (JL_STRING). data may be
 * NULL when size is 0 (a zeroed struct is the empty string). */
typedef struct jl_string {
    const char *data;
    uint32_t size;
} jl_string;

/* Initializer of a jl_string holding a string literal: JL_STRING("Grunt"). */
#define JL_STRING(literal) \
    { \
        "" literal, (uint32_t)(sizeof(literal) - 1) \
    }

/* An ENUM field's value: the index of its name in the field's jl_enum. */
typedef uint16_t jl_enum_value;

enum {
    JL_ENUM_NAMES_MAX = 1024, /* most names one enum has */
    JL_ENUM_NAME_MAX = 64,    /* longest name (bytes) */
};

/* The names an ENUM field takes, in value order: value i is written
 * names[i]. A name is 1 to JL_ENUM_NAME_MAX bytes of A-Z a-z 0-9 _; names
 * are distinct; count is 1 to JL_ENUM_NAMES_MAX (jl_enum_check says
 * whether a descriptor holds). The strings must outlive every class using
 * the descriptor. */
typedef struct jl_enum {
    const char *const *names;
    uint32_t count;
} jl_enum;

/* Initializer of a jl_enum over a static array of names:
 *   static const char *const team_names[] = {"red", "blue"};
 *   static const jl_enum team_enum = JL_ENUM(team_names); */
#define JL_ENUM(name_array) \
    { \
        (name_array), (uint32_t)(sizeof(name_array) / sizeof((name_array)[0])) \
    }

/* One serialized member of a derived struct. name is the snake_case key of
 * the .jasset file; offset is from the start of the derived struct;
 * enumeration lists an ENUM field's names (NULL for every other type). */
typedef struct jl_field {
    const char *name;
    jl_field_type type;
    uint32_t offset;
    uint32_t flags;
    const jl_enum *enumeration;
} jl_field;

#define JL_FIELD(Type, member, field_type, flags) \
    { \
#member, (field_type), (uint32_t)offsetof(Type, member), (flags), NULL \
    }

/* An ENUM field over the jl_enum at enum_ptr; the member must be a
 * jl_enum_value (a compile error otherwise). */
#define JL_ENUM_FIELD(Type, member, enum_ptr, flags) \
    { \
#member, JL_FIELD_ENUM, \
            (uint32_t)offsetof(Type, member) + \
                0u * (uint32_t)sizeof(char[sizeof(((Type *)0)->member) == sizeof(jl_enum_value) ? 1 : -1]), \
            (flags), (enum_ptr) \
    }

/* Reads or writes every field of `derived` through the archive (archive.h
 * says which direction). The default for every class is
 * jl_serialize_fields, which walks cls->fields. */
typedef jl_status (*jl_serialize_fn)(jl_archive *ar, const jl_class *cls, void *derived);

/* Sets a freshly allocated derived struct to its defaults (spec 3.3).
 * NULL for a class whose defaults are data (jl_class.defaults). */
typedef void (*jl_default_init_fn)(void *derived);

/* Upgrades `derived`, just read from data written with class_version
 * from_version (< cls->version), to the current version. It may read keys
 * this version no longer has from ar. NULL when the class never changed. */
typedef jl_status (*jl_migrate_fn)(jl_archive *ar, const jl_class *cls, void *derived, uint32_t from_version);

/* "Not registered": the kind of a record no registry has taken yet. Kinds
 * of registered classes run from 0 to JL_CLASS_MAX - 1. */
#define JL_CLASS_KIND_NONE 0xffu

struct jl_class {
    const char *name;   /* "Enemy": the `; class` value of a .jasset file */
    uint8_t kind;       /* index into the manager's typed arrays; set by registration,
                                  JL_CLASS_KIND_NONE before */
    uint32_t version;   /* class_version written by this build */
    uint32_t crc;       /* CRC32 (IEEE) of name, set by registration; checked by
                                  ResolveEntityClass */
    uint32_t size_of;   /* sizeof the derived struct (>= sizeof(jl_entity_header)) */
    uint32_t alignment; /* _Alignof the derived struct */
    jl_serialize_fn serialize;
    jl_default_init_fn default_init; /* NULL: zero the struct */
    jl_migrate_fn migrate;
    const jl_field *fields;
    uint32_t field_count;
    const void *defaults; /* with no default_init: size_of bytes copied into a new struct
                                  (a class described by data, class_file.h); NULL: zeroes */
};

/* Bytes a value of the type occupies in a derived struct, and the
 * alignment it needs there (what a struct layout is computed from); 0 for
 * an unknown type. */
size_t jl_field_type_size(jl_field_type type);
size_t jl_field_type_alignment(jl_field_type type);

/* JL_OK if e is a valid enum descriptor (see jl_enum); otherwise
 * JL_ERR_INVALID_ARGUMENT with err saying which name is wrong and why. */
jl_status jl_enum_check(const jl_enum *e, jl_error *err);

/* Sets derived (cls->size_of bytes) to the class's defaults: its
 * default_init, else a copy of its defaults bytes, else zeroes. The base
 * pointer is left to the caller. */
void jl_class_default_init(const jl_class *cls, void *derived);

/* CRC32 (IEEE 802.3, as zlib's crc32) of size bytes. */
uint32_t jl_crc32(const void *data, size_t size);

/* True if cls is an opaque class: one a world made for a class name its
 * files use that neither the program nor the world describes (world.h,
 * "Opaque entities"). It has no fields; its entities keep every key but
 * the base ones as text. False for NULL. */
bool jl_class_is_opaque(const jl_class *cls);

/* The field of cls named name (NUL-terminated), or NULL. */
const jl_field *jl_class_find_field(const jl_class *cls, const char *name);

/* Defines the class record `Type##_class` for a derived struct Type and the
 * default-init stub that assigns it the initializer given last (the struct's
 * own defaults, spec 3.3). Use once per type, in a .c file of the program
 * that owns the type, then register the record before any world is created:
 *   JL_DEFINE_ENTITY(enemy, "Enemy", 1, enemy_fields, NULL, { .health = 100 });
 *   ...
 *   jl_class_register(&enemy_class);   (class_registry.h)
 * The record is not const: registration assigns its kind and computes the
 * CRC32 of its name. migrate_fn may be NULL (the class never changed). */
#define JL_DEFINE_ENTITY(Type, class_name, class_version, field_table, migrate_fn, ...) \
    static void Type##_default_init(void *derived) { *(Type *)derived = (Type)__VA_ARGS__; } \
    jl_class Type##_class = { \
        .name = (class_name), \
        .kind = JL_CLASS_KIND_NONE, \
        .version = (class_version), \
        .crc = 0, \
        .size_of = (uint32_t)sizeof(Type), \
        .alignment = (uint32_t) _Alignof(Type), \
        .serialize = jl_serialize_fields, \
        .default_init = Type##_default_init, \
        .migrate = (migrate_fn), \
        .fields = (field_table), \
        .field_count = (uint32_t)(sizeof(field_table) / sizeof((field_table)[0])), \
    }

/* Declares, in a header, the record JL_DEFINE_ENTITY(Type, ...) defines. */
#define JL_DECLARE_ENTITY(Type) extern jl_class Type##_class

/* The default serialize function: every field of cls->fields in order
 * (implemented by the archive module). */
jl_status jl_serialize_fields(jl_archive *ar, const jl_class *cls, void *derived);

#endif
