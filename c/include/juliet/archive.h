/* archive.h - the .jasset text format: tokenizer, reader and writer
 * (JULIET-SPEC-002 §4).
 *
 * An entity file is `; key` lines, each followed by its value line, in a
 * fixed order: asset_type, id, class, version, class_version, position,
 * the class's fields, then the keys this build does not know, verbatim.
 * Reading is by key; what is tolerated and what is refused (JL_ERR_PARSE
 * or JL_ERR_UNKNOWN_CLASS with the line and column), the text of each
 * value type and versions: docs/format.md. A file newer than this build
 * loads read-only; an older class_version is upgraded by the class's
 * migrate hook.
 *
 * Spec names -> C names: Archive jl_archive, tokenize_archive
 * jl_archive_tokenize, serialize jl_archive_write_entity /
 * jl_archive_read_entity, deserialize_entity_in_place
 * jl_entity_deserialize_in_place, kEntityBaseVersion JL_ENTITY_BASE_VERSION. */
#ifndef JULIET_ARCHIVE_H
#define JULIET_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "class.h"
#include "entity.h"
#include "entity_manager.h"
#include "status.h"

enum {
    JL_ENTITY_BASE_VERSION = 1, /* `; version` written by this build */
    JL_ARCHIVE_LINE_MAX = 4096, /* longest line (bytes, without the line end) */
    JL_ARCHIVE_KEYS_MAX = 1024, /* most keys in one file */
    JL_ARCHIVE_KEY_MAX = 64,    /* longest key */
    /* Largest file read at all: JL_ARCHIVE_KEYS_MAX full key and value lines
     * take about 4.3 MB; a larger file is refused before it is read. */
    JL_ARCHIVE_FILE_MAX = 8 << 20,
};

/* One `; key` line and its value line, pointing into the tokenized text
 * (which must outlive the archive). Lines and columns are 1-based; columns
 * count bytes. */
typedef struct jl_archive_entry {
    const char *key;
    const char *value; /* without the blanks around it: what fields parse */
    uint32_t key_size;
    uint32_t value_size;
    uint32_t key_line;    /* line of `; key` */
    uint32_t value_line;  /* line of the value */
    uint32_t key_col;     /* column of the key's first character */
    uint32_t value_col;   /* column of the value's first character */
    uint32_t hash;        /* of the key, for duplicate detection */
    bool used;            /* read by a field, the header or a migration */
    uint16_t value_trail; /* blanks after the value on its line (CRs before
                             the LF excluded); with the value_col - 1 blanks
                             before it, what an unknown key keeps */
} jl_archive_entry;

/* The spec's Archive (jl_archive, class.h): one object for both
 * directions. Zero-initialize one on the stack, then call
 * jl_archive_tokenize (loading) or jl_archive_begin_write (saving); its
 * fields are private (juliet/private/archive.h). */

/* The spec's tokenize_archive: splits text[0, size) into key/value entries
 * allocated from arena (the text itself is not copied and must outlive the
 * archive). Sets ar->loading. On a malformed file returns JL_ERR_PARSE with
 * the line and column in err (JL_ERR_OUT_OF_MEMORY if arena is full); the
 * arena may then hold a partial entry table, which the caller pops. */
jl_status jl_archive_tokenize(jl_archive *ar, jl_arena *arena, const char *text, size_t size, const char *path,
                              jl_error *err);

/* The entry for key (NUL-terminated) or NULL. Does not mark it used. */
jl_archive_entry *jl_archive_find(jl_archive *ar, const char *key);

/* Reads one field of cls from the archive into derived: JL_OK (also when the
 * key is absent: the default stays), or JL_ERR_PARSE at the value's line and
 * column. */
jl_status jl_archive_read_field(jl_archive *ar, const jl_field *field, void *derived);

/* Parses text[0, size) as a value of field (its type, flags and, for an
 * ENUM, its names) into dst (the field's memory). The same parser as the
 * file reader, so setting a field from the inspector is validated exactly
 * like a file. A STRING's bytes are copied into strings (and followed by a
 * NUL); the jl_string at dst points at them. On failure dst and strings are
 * untouched, and the status is JL_ERR_PARSE (*bad_col the 1-based column
 * within text, err->message why; err's path and line are left to the
 * caller), JL_ERR_OUT_OF_MEMORY (strings is full) or
 * JL_ERR_INVALID_ARGUMENT (a STRING with no strings arena, an ENUM field
 * with no names). bad_col and err may be NULL. */
jl_status jl_field_parse(const jl_field *field, const char *text, size_t size, void *dst, jl_arena *strings,
                         uint32_t *bad_col, jl_error *err);

/* jl_field_parse for a field of type `type` with `flags` and nothing else:
 * every type but STRING and ENUM (which fail with
 * JL_ERR_INVALID_ARGUMENT). */
jl_status jl_value_parse(jl_field_type type, uint32_t flags, const char *text, size_t size, void *dst,
                         uint32_t *bad_col, jl_error *err);

/* Room for the canonical text of any value plus a NUL: a string's text is
 * at most a line. */
enum { JL_VALUE_TEXT_MAX = JL_ARCHIVE_LINE_MAX + 1 };

/* Writes the canonical text of the value of field at src into out (room
 * for JL_VALUE_TEXT_MAX bytes) and returns its length, not NUL-terminated.
 * Values no parser gives (they can only be set by C code writing the struct
 * directly) are still written, so that the file fails to load rather than
 * load another value: an ENUM value past its names as its decimal number,
 * a STRING that is not valid as its bytes, and a STRING whose text would
 * pass JL_ARCHIVE_LINE_MAX bytes cut there, quoted with no closing quote. */
uint32_t jl_field_format(const jl_field *field, const void *src, char *out);

/* jl_field_format for a field of type `type` (an ENUM has no names then:
 * its decimal number is written). */
uint32_t jl_value_format(jl_field_type type, const void *src, char *out);

/* Checks text[0, size) as a value of field, as jl_field_parse does, and
 * writes the value's canonical text into out (JL_VALUE_TEXT_MAX bytes,
 * NUL-terminated) with its length in *out_size (may be NULL). Nothing is
 * kept: a string is parsed into memory of the call's own. Failures as
 * jl_field_parse (err->col holds the column), out is then empty. */
jl_status jl_value_check(const jl_field *field, const char *text, size_t size, char *out, uint32_t *out_size,
                         jl_error *err);

/* Name of a field type: "f32", "index", "bool", "vec3", "color",
 * "entity_ref", "i32", "u32", "string", "enum", "vec2", "quat"; "unknown"
 * for any other value. */
const char *jl_field_type_name(jl_field_type type);

/* The default value of field field_index of cls as canonical text into out
 * (JL_VALUE_TEXT_MAX bytes, NUL-terminated). JL_ERR_NOT_FOUND past the end. */
jl_status jl_class_default_text(const jl_class *cls, uint32_t field_index, char *out);

/* Reads a float32 key (used by migrations for keys a class dropped): JL_OK
 * and marks the entry used, JL_ERR_NOT_FOUND if absent, JL_ERR_PARSE if
 * malformed (flags as in jl_field: JL_FIELD_ALLOW_INF). */
jl_status jl_archive_read_f32(jl_archive *ar, const char *key, float *out, uint32_t flags);

/* Starts writing into out: the text grows contiguously at the top of out, so
 * nothing else may be pushed on out until jl_archive_end_write. */
void jl_archive_begin_write(jl_archive *ar, jl_arena *out);

/* Finishes writing: *text and *size give the written text (in out, valid until out
 * is popped below it). JL_ERR_OUT_OF_MEMORY if the arena ran out. */
jl_status jl_archive_end_write(jl_archive *ar, const char **text, size_t *size);

/* Appends raw bytes / a `; key` line plus a value line. */
void jl_archive_write_raw(jl_archive *ar, const char *data, size_t size);
void jl_archive_write_key(jl_archive *ar, const char *key);
void jl_archive_write_field(jl_archive *ar, const jl_field *field, const void *derived);

/* Writes an entity file (the spec's serialize, saving): header, position, the
 * class's fields through cls->serialize, then `extra` verbatim (the unknown
 * key/value lines kept from its file, each ending in '\n'; may be NULL). */
jl_status jl_archive_write_entity(jl_archive *ar, const jl_entity *entity, const char *extra, size_t extra_size);

/* Reads the base fields (version, class_version, id, position) and the
 * class's fields into an allocated entity (the spec's serialize, loading), then
 * runs the migration if class_version is older, and sets
 * JL_ENTITY_READ_ONLY if a version is newer. Does not assign the ID to the
 * manager; *id_out gets it. JL_ERR_PARSE on bad values. */
jl_status jl_archive_read_entity(jl_archive *ar, jl_entity *entity, uint64_t *id_out);

/* The spec's deserialize_entity_in_place (JULIET-SPEC-002 §4.4): resolves `; class` in the
 * manager's registry (a world's manager: the world's classes), allocates
 * the entity in manager, streams every field into it, gives it
 * its ID (jl_entity_set_id: duplicates are rejected), advances the ID
 * generator (jl_manager_note_id) and clears its dirty flag. On any failure
 * the allocation is rolled back (the manager is as before the call), *out is
 * NULL and err says where: JL_ERR_PARSE, JL_ERR_UNKNOWN_CLASS,
 * JL_ERR_DUPLICATE_ID, JL_ERR_CAPACITY or JL_ERR_OUT_OF_MEMORY. */
jl_status jl_entity_deserialize_in_place(jl_entity_manager *manager, jl_archive *ar, jl_entity **out);

/* Appends the entries nobody used (unknown keys) to out as `; key\nvalue\n`
 * lines, in file order, each value line exactly as the file had it (blanks
 * included; its line end becomes LF): *text points at them in out and
 * *size is their total size (NULL and 0 if there are none: nothing is
 * pushed then). JL_OK, or JL_ERR_OUT_OF_MEMORY (also in ar->err) if out is
 * full: *text is then NULL, *size 0 and out unchanged. */
jl_status jl_archive_collect_unknown(jl_archive *ar, jl_arena *out, const char **text, size_t *size);

#include "private/archive.h"

#endif
