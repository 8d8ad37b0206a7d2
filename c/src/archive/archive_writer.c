/* archive_writer.c - writing .jasset text (archive.h, JULIET-SPEC-002 §4: serialize
 * when saving). Text is appended to the top of an arena in large steps, so
 * writing an entity is a run of memcpy and digit loops with no allocation
 * per value. */
#include <string.h>

#include "archive/archive_internal.h"
#include "juliet/float_text.h"

enum { WRITE_STEP = 64 * 1024 };

void jl_archive_begin_write(jl_archive *ar, jl_arena *out)
{
    *ar = (jl_archive){.loading = false, .out = out};
    char *p = (char *)out->base + out->used;
    ar->out_begin = ar->out_cursor = ar->out_limit = p;
}

/* Makes room for n more bytes at the cursor. The text stays contiguous
 * because nothing else pushes on the arena while writing. */
static bool reserve(jl_archive *ar, size_t n)
{
    if ((size_t)(ar->out_limit - ar->out_cursor) >= n) return true;
    if (ar->out_failed) return false;
    size_t step = n > WRITE_STEP ? n : WRITE_STEP;
    char *more = jl_arena_push(ar->out, step, 1);
    if (!more || more != ar->out_limit) {
        ar->out_failed = true;
        return false;
    }
    ar->out_limit += step;
    return true;
}

void jl_archive_write_raw(jl_archive *ar, const char *data, size_t size)
{
    if (!reserve(ar, size)) return;
    memcpy(ar->out_cursor, data, size);
    ar->out_cursor += size;
}

void jl_archive_write_key(jl_archive *ar, const char *key)
{
    size_t n = strlen(key);
    if (!reserve(ar, n + 3)) return;
    ar->out_cursor[0] = ';';
    ar->out_cursor[1] = ' ';
    memcpy(ar->out_cursor + 2, key, n);
    ar->out_cursor[2 + n] = '\n';
    ar->out_cursor += n + 3;
}

/* Room one field's "; key\nvalue\n" may take: any type but STRING, and a
 * STRING (its text is at most a line). */
enum {
    FIELD_TEXT_MAX = 3 + JL_ARCHIVE_KEY_MAX + JLI_FIXED_TEXT_MAX + 1,
    STRING_FIELD_TEXT_MAX = 3 + JL_ARCHIVE_KEY_MAX + JL_ARCHIVE_LINE_MAX + 1,
};

/* Writes one field at the cursor, which has FIELD_TEXT_MAX bytes of room
 * (STRING_FIELD_TEXT_MAX for a string). The key is cut at
 * JL_ARCHIVE_KEY_MAX bytes (what that room allows); strlen and memcpy beat
 * a byte loop that tests both ends. */
static inline void write_field_unchecked(jl_archive *ar, const jl_field *field, const void *derived)
{
    char *c = ar->out_cursor;
    size_t n = strlen(field->name);
    if (n > JL_ARCHIVE_KEY_MAX) n = JL_ARCHIVE_KEY_MAX;
    c[0] = ';';
    c[1] = ' ';
    memcpy(c + 2, field->name, n);
    c += 2 + n;
    *c++ = '\n';
    c += jl_field_format(field, (const char *)derived + field->offset, c);
    *c++ = '\n';
    ar->out_cursor = c;
}

void jl_archive_write_field(jl_archive *ar, const jl_field *field, const void *derived)
{
    if (!reserve(ar, field->type == JL_FIELD_STRING ? STRING_FIELD_TEXT_MAX : FIELD_TEXT_MAX)) return;
    write_field_unchecked(ar, field, derived);
}

void jli_archive_write_fields(jl_archive *ar, const jl_class *cls, const void *derived)
{
    /* One room check for every field when the current step has room for
     * all of them at their worst (the usual case: the text grows in 64 KiB
     * steps); otherwise, and from the first string on, field by field,
     * growing as needed. */
    const uint32_t n = cls->field_count;
    uint32_t i = 0;
    if ((size_t)(ar->out_limit - ar->out_cursor) / FIELD_TEXT_MAX >= n)
        for (; i < n && cls->fields[i].type != JL_FIELD_STRING; i++)
            write_field_unchecked(ar, &cls->fields[i], derived);
    for (; i < n; i++) jl_archive_write_field(ar, &cls->fields[i], derived);
}

jl_status jl_archive_end_write(jl_archive *ar, const char **text, size_t *size)
{
    jl_arena *out = ar->out;
    size_t used = (size_t)(ar->out_cursor - (char *)out->base);
    jl_arena_pop_to(out, used);
    ar->out_limit = ar->out_cursor;
    *text = ar->out_begin;
    *size = (size_t)(ar->out_cursor - ar->out_begin);
    if (ar->out_failed) return jl_error_set(ar->err, JL_ERR_OUT_OF_MEMORY, ar->path, 0, 0, "out of memory writing");
    return JL_OK;
}

/* ---- entities ---- */

/* Copies n bytes to c and returns the end; the caller reserved the room. */
static inline char *put(char *c, const char *text, size_t n)
{
    memcpy(c, text, n);
    return c + n;
}
#define PUT_LITERAL(c, literal) put((c), (literal), sizeof(literal) - 1)

size_t jli_write_entity_head(char *c, const char *name, size_t name_size, uint32_t class_version)
{
    char *const start = c;
    c = PUT_LITERAL(c, "\n; class\n");
    c = put(c, name, name_size);
    c = PUT_LITERAL(c, "\n; version\n");
    c += jli_format_u64(JL_ENTITY_BASE_VERSION, c);
    c = PUT_LITERAL(c, "\n; class_version\n");
    c += jli_format_u64(class_version, c);
    c = PUT_LITERAL(c, "\n; position\n");
    return (size_t)(c - start);
}

jl_status jl_archive_write_entity(jl_archive *ar, const jl_entity *entity, const char *extra, size_t extra_size)
{
    const jl_class *cls = entity->derived_kind;
    size_t name = strlen(cls->name);
    /* The fixed header in one reservation: lead, ID, head, position, line end. */
    if (!reserve(ar, sizeof JLI_ENTITY_LEAD + 2 * JLI_FIXED_TEXT_MAX + JLI_ENTITY_HEAD_MAX(name)))
        return JL_ERR_OUT_OF_MEMORY;
    char *c = ar->out_cursor;
    c = PUT_LITERAL(c, JLI_ENTITY_LEAD);
    c += jli_format_hex64(entity->id, c);
    c += jli_write_entity_head(c, cls->name, name, jli_entity_class_version(entity));
    c += jl_value_format(JL_FIELD_VEC3, &entity->position, c);
    *c++ = '\n';
    ar->out_cursor = c;
    jl_status s = cls->serialize(ar, cls, entity->derived);
    if (s != JL_OK) return s;
    if (extra_size) jl_archive_write_raw(ar, extra, extra_size);
    return ar->out_failed ? JL_ERR_OUT_OF_MEMORY : JL_OK;
}
