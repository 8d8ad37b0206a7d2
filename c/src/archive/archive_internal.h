/* archive_internal.h - what the tokenizer, value, reader and writer files
 * of the archive share (archive.h is the public API). Internal names carry
 * the jli_ prefix. */
#ifndef JULIET_ARCHIVE_INTERNAL_H
#define JULIET_ARCHIVE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "juliet/archive.h"
#include "juliet/class_registry.h"

/* A blank inside a line: space or tab (what the tokenizer trims and what
 * separates vector components). */
static inline bool jli_is_blank(char c) { return c == ' ' || c == '\t'; }

/* True if t[0, n) is exactly the NUL-terminated word. */
static inline bool jli_word_is(const char *t, size_t n, const char *word)
{
    size_t w = strlen(word);
    return n == w && memcmp(t, word, w) == 0;
}

/* True if the entry's key is the NUL-terminated key. Keys are short: an
 * inline loop beats strlen plus memcmp. */
static inline bool jli_key_is(const jl_archive_entry *e, const char *key)
{
    const uint32_t n = e->key_size;
    /* The first byte rejects almost every miss; key is NUL-terminated, so a
     * mismatch stops the loop before it reads past key's end. */
    if (e->key[0] != key[0]) return false;
    uint32_t i = 1;
    for (; i < n; i++)
        if (e->key[i] != key[i]) return false;
    return key[n] == '\0';
}

/* ---- tokenizer (archive_tokenizer.c) ---- */

/* Character classes of the tokenizer: 1 = key character [A-Za-z0-9_],
 * 2 = blank (space, tab), 4 = a byte that cannot start a canonical value
 * line (blank, CR, LF, ';', NUL: those lines need the general rules). */
extern const uint8_t jli_char_class[256];

/* What is trimmed from a line's end: every CR, not just one, or a value
 * ending in CRs would lose one per save and never reach a canonical form. */
static inline bool jli_is_trailing_blank(char c) { return c == '\r' || (jli_char_class[(uint8_t)c] & 2); }

/* Length of the line at p: the offset of the first '\n' in [p, end), or
 * end - p. Eight bytes at a time where the target is little-endian (x86,
 * wasm): files are mostly short lines. */
static inline size_t jli_scan_line(const char *p, const char *end)
{
    const char *s = p;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    while (end - s >= 8) {
        uint64_t v;
        memcpy(&v, s, sizeof v);
        uint64_t nl = v ^ (ones * '\n');
        uint64_t hit = (nl - ones) & ~nl & highs;
        if (hit) return (size_t)(s - p) + ((size_t)__builtin_ctzll(hit) >> 3);
        s += 8;
    }
#endif
    while (s < end && *s != '\n') s++;
    return (size_t)(s - p);
}

/* jl_archive_tokenize for a file whose key lines may carry one argument:
 * `; field health` is the key "field health" (class files, class_file.h). */
jl_status jli_archive_tokenize_with_arguments(jl_archive *ar, jl_arena *arena, const char *text, size_t size,
                                              const char *path, jl_error *err);

/* ---- values (archive_values.c) ---- */

/* Why a value's text was refused: the offset of the problem in the text
 * and a message, either a literal or built in text. */
typedef struct jli_value_fail {
    size_t bad;
    const char *msg;
    char text[200];
} jli_value_fail;

/* Most bytes the canonical text of a value of any type but STRING takes
 * (a quat: four floats and three spaces; an enum name). */
enum { JLI_FIXED_TEXT_MAX = 128 };

/* Parses a value of field from t[0, n) into dst (no temporary: dst may be
 * partly written on failure). A STRING's bytes go to strings. JL_OK, or
 * JL_ERR_PARSE with fail->bad and fail->msg, JL_ERR_OUT_OF_MEMORY or
 * JL_ERR_INVALID_ARGUMENT with fail->msg. */
jl_status jli_value_parse_into(const jl_field *field, const char *t, size_t n, void *dst, jl_arena *strings,
                               jli_value_fail *fail);

/* The value at the start of t[0, n) in the form the engine writes it
 * (what almost every file holds), parsed into dst without the checks that
 * say what is wrong: the bytes it takes, or 0 for any other text (or a
 * type written no faster this way). What follows it is the caller's to
 * check; a text it takes whole, jli_value_parse_checked takes to the same
 * value (fuzz_values checks that). Never takes a blank at either end or a
 * line end. */
size_t jli_value_parse_plain(const jl_field *field, const char *t, size_t n, void *dst);

/* jli_value_parse_into without jli_value_parse_plain first: every form a
 * value may take, and where and why one fails. */
jl_status jli_value_parse_checked(const jl_field *field, const char *t, size_t n, void *dst, jl_arena *strings,
                                  jli_value_fail *fail);

/* Decimal digits of v (at most 20) / "0x" + 16 lower-case hex digits of v
 * at out; return the length (no NUL). The decimal writer may write scratch
 * bytes past the digits, up to out[JLI_DIGITS_ROOM) (10 bytes). */
uint32_t jli_format_u64(uint64_t v, char *out);
uint32_t jli_format_hex64(uint64_t v, char *out);

/* ---- strings (archive_string.c) ---- */

/* Parses the text of a STRING value (archive.h: the text itself, or quoted
 * with \" and \\) from t[0, n): on success its bytes are copied into
 * strings, followed by a NUL, and *out points at them. Failures as
 * jli_value_parse_into; nothing is pushed on strings then. */
jl_status jli_string_parse(const char *t, size_t n, jl_string *out, jl_arena *strings, jli_value_fail *fail);

/* Writes the canonical text of s at out (room for JL_ARCHIVE_LINE_MAX
 * bytes) and returns its length (see jl_field_format for invalid values). */
uint32_t jli_string_format(const jl_string *s, char *out);

/* NULL if s is a valid STRING value (UTF-8, no control character, its
 * canonical text within a line), else why not, with *bad the offset of the
 * byte at fault. */
const char *jli_string_problem(const jl_string *s, size_t *bad);

/* ---- writing (archive_writer.c) ---- */

/* The save direction of jl_serialize_fields: every field of cls->fields. */
void jli_archive_write_fields(jl_archive *ar, const jl_class *cls, const void *derived);

/* What an entity file written by this build holds: it starts with
 * JLI_ENTITY_LEAD, then the ID's value; the head follows, from the ID's
 * line end to the position's value (jli_write_entity_head). */
#define JLI_ASSET_TYPE_LINE "; asset_type\n"
#define JLI_ENTITY_ASSET_TYPE "entity_instance"
#define JLI_ENTITY_LEAD JLI_ASSET_TYPE_LINE JLI_ENTITY_ASSET_TYPE "\n; id\n"
#define JLI_ENTITY_HEAD_MAX(name_size) ((name_size) + 80)

/* Writes the head of an entity of the class named name[0, name_size) at
 * class_version at c (room for JLI_ENTITY_HEAD_MAX(name_size)): the ID's
 * line end, the class, version and class_version pairs, the position's key
 * line. Returns its size. */
size_t jli_write_entity_head(char *c, const char *name, size_t name_size, uint32_t class_version);

/* ---- canonical files (archive_reader.c) ---- */

/* What the canonical reader learns once per class: the lines a canonical
 * file of it holds after its ID's value, so that they are matched by word
 * compares: the head (jli_write_entity_head), then each field's key line
 * ("; name\n"). Kept as long as the classes it names, the
 * lines on an arena that lives as long. */
typedef struct jli_key_lines {
    const jl_class *cls; /* whose lines these are; NULL: not built yet */
    const uint16_t *at;  /* the head is text[0, at[0]), field i's key line
                            text[at[i], at[i + 1]); NULL: a class no
                            canonical file can hold */
    const char *text;
} jli_key_lines;

/* The canonical reader's memory of a world's classes (zeroed at first):
 * the classes of the last files read (the latest first), and each class's
 * key lines. A world's registry only grows, so a name found once names the
 * same class after. */
enum { JLI_RECENT_CLASSES = 4 };
typedef struct jli_canonical_cache {
    const jl_class *recent[JLI_RECENT_CLASSES];
    jli_key_lines by_kind[JL_CLASS_MAX];
} jli_canonical_cache;

/* jl_archive_tokenize then jl_entity_deserialize_in_place in one pass, for
 * a file in canonical form (docs/format.md) with this build's versions, of
 * a class read by jl_serialize_fields, whose ID is expected_id (0: any),
 * with cache the world's (key lines pushed on keep): the same entity, and
 * ar as those would leave it for what the world reads after a load: the
 * entries of the values naming an entity (the ID, references), as the
 * tokenizer fills them, every other pair used (entries pushed on arena,
 * STRING values on strings). JL_ERR_NOT_FOUND for any other text
 * (also one of another version, or a malformed one): the manager is then
 * as before, err may hold a message, and the caller pops arena and
 * strings and takes the general path, which finds and reports the same
 * problem. */
jl_status jli_entity_read_canonical(jl_entity_manager *manager, jli_canonical_cache *cache, jl_arena *keep,
                                    jl_archive *ar, jl_arena *arena, jl_arena *strings, const char *text, size_t size,
                                    const char *path, uint64_t expected_id, jl_error *err, jl_entity **out);

/* ---- unknown keys (archive_reader.c) ---- */

/* Bytes jl_archive_collect_unknown would append (0 if every entry was used). */
size_t jli_archive_unknown_size(const jl_archive *ar);

/* Writes the unknown keys' lines at out, which has jli_archive_unknown_size
 * bytes of room. */
void jli_archive_copy_unknown(const jl_archive *ar, char *out);

/* ---- opaque entities (archive_opaque.c) ---- */

/* The derived struct of an opaque class (one that files name but neither
 * the program nor the world describes): no fields, only the class_version
 * its file had, written back as it was. Every other key of its file is an
 * unknown key, kept verbatim. */
typedef struct jli_opaque_entity {
    jl_entity *base;
    uint32_t class_version;
} jli_opaque_entity;

/* Fills *cls as the opaque class named name (NUL-terminated, kept by the
 * caller as long as the record): no fields, and a version no file exceeds,
 * so its entities are never read-only for their class_version alone. */
void jli_opaque_class_init(jl_class *cls, const char *name);

/* The class_version written for entity: its class's, or for an opaque
 * entity the one its file had. */
uint32_t jli_entity_class_version(const jl_entity *entity);

#endif
