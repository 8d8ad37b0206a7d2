/* changes_decode.c - a change link's bytes back into lists of edits
 * (changes.h). The input is hostile: the snapshot's bounded reader does
 * every read, counts are bounded by the bytes left before they drive a
 * loop, and the CRC is checked right after the magic and version, before
 * any content, so damage is reported as damage. */
#include <stdio.h>

#include "changes/changes_internal.h"

/* n bytes (a varint read from the stream: wider than size_t in wasm). */
static const uint8_t *read_sized(jli_snap_reader *r, uint64_t n, const char *what)
{
    if (!r->failed && n > jli_snap_left(r)) {
        jli_snap_fail(r, JL_ERR_CORRUPT, "truncated: %s needs %llu bytes, %zu left", what, (unsigned long long)n,
                      jli_snap_left(r));
        return NULL;
    }
    return jli_snap_read_bytes(r, (size_t)n, what);
}

/* The fields block of one changed entity (or the settings). */
static bool read_fields(jli_snap_reader *r, jl_arena *arena, jl_change_entity *e)
{
    /* A field is at least a key size, a one-byte key and a value size. */
    uint32_t n = jli_snap_read_count(r, UINT32_MAX, 3, "field count");
    if (r->failed) return false;
    if (n == 0) return jli_snap_fail(r, JL_ERR_CORRUPT, "a changed entity with no changed key");
    jl_change_field *fields = jl_arena_push(arena, (size_t)n * sizeof *fields, _Alignof(jl_change_field));
    if (!fields) return jli_snap_fail(r, JL_ERR_OUT_OF_MEMORY, "out of memory for %u keys", n);
    for (uint32_t f = 0; f < n; f++) {
        jl_change_field *field = &fields[f];
        uint64_t key_size = jli_snap_read_varint(r, "key size");
        const uint8_t *key = read_sized(r, key_size, "key");
        if (!key) return false;
        if (!jli_changes_is_key((const char *)key, (size_t)key_size)) {
            r->p = key; /* the offset names where the bad bytes start */
            return jli_snap_fail(r, JL_ERR_CORRUPT, "a key that is not [A-Za-z0-9_]+");
        }
        uint64_t value_size = jli_snap_read_varint(r, "value size");
        const uint8_t *value = value_size ? read_sized(r, value_size - 1, "value") : NULL;
        if (r->failed) return false;
        if (value && !jli_changes_is_value((const char *)value, (size_t)(value_size - 1))) {
            r->p = value;
            return jli_snap_fail(r, JL_ERR_CORRUPT, "a value with a line break or NUL");
        }
        *field = (jl_change_field){.key = (const char *)key,
                                   .key_size = (uint32_t)key_size,
                                   .value = value ? (const char *)value : NULL,
                                   .value_size = value ? (uint32_t)(value_size - 1) : 0};
        /* An empty value still points somewhere: NULL means removed. */
        if (value && value_size == 1) field->value = (const char *)key + key_size;
    }
    e->fields = fields;
    e->field_count = n;
    return true;
}

/* A list's count and ascending IDs into *list (entities pushed on arena);
 * each entity is at least min_bytes. */
static bool read_list(jli_snap_reader *r, jl_arena *arena, size_t min_bytes, const char *what, jl_change_entity **list,
                      uint32_t *count)
{
    uint32_t n = jli_snap_read_count(r, JL_CHANGES_MAX_ENTITIES, min_bytes, what);
    if (r->failed) return false;
    jl_change_entity *entities = jl_arena_push(arena, (size_t)n * sizeof *entities + 1, _Alignof(jl_change_entity));
    uint64_t *ids = jl_arena_push(arena, (size_t)n * sizeof *ids + 1, _Alignof(uint64_t));
    if (!entities || !ids) return jli_snap_fail(r, JL_ERR_OUT_OF_MEMORY, "out of memory for %u entities", n);
    if (!jli_snap_read_sorted_ids(r, n, ids, what)) return false;
    for (uint32_t i = 0; i < n; i++) entities[i] = (jl_change_entity){.id = ids[i]};
    *list = entities;
    *count = n;
    return true;
}

static bool read_all(jli_snap_reader *r, jl_arena *arena, jl_changes *out)
{
    uint64_t flags;
    if (!jli_snap_read_head(r, jli_changes_magic, "change link", JL_CHANGES_VERSION, JLI_CHANGES_FLAGS_KNOWN, &flags))
        return false;
    uint64_t name_size = jli_snap_read_varint(r, "world name size");
    if (!r->failed && name_size > JL_CHANGES_NAME_MAX)
        return jli_snap_fail(r, JL_ERR_CORRUPT, "a world name of %llu bytes", (unsigned long long)name_size);
    const uint8_t *name = jli_snap_read_bytes(r, name_size, "world name");
    if (r->failed) return false;
    out->world = (const char *)name;
    out->world_size = (uint32_t)name_size;
    if (flags & JLI_CHANGES_FLAG_SETTINGS) {
        out->has_settings = true;
        out->settings.print = jli_snap_read_u32(r, "settings print");
        if (!read_fields(r, arena, &out->settings)) return false;
    }

    jl_change_entity *list = NULL;
    /* Changed: an ID byte, a print and a field block of at least 4 bytes. */
    if (!read_list(r, arena, 9, "changed entities", &list, &out->changed_count)) return false;
    for (uint32_t i = 0; i < out->changed_count; i++) list[i].print = jli_snap_read_u32(r, "print");
    for (uint32_t i = 0; i < out->changed_count && !r->failed; i++) read_fields(r, arena, &list[i]);
    if (r->failed) return false;
    out->changed = list;

    /* Added: an ID byte and a text size. */
    if (!read_list(r, arena, 2, "added entities", &list, &out->added_count)) return false;
    for (uint32_t i = 0; i < out->added_count; i++) {
        uint64_t size = jli_snap_read_varint(r, "text size");
        const uint8_t *text = read_sized(r, size, "text");
        if (!text) return false;
        if (memchr(text, '\0', size)) return jli_snap_fail(r, JL_ERR_CORRUPT, "an added entity's text holds NUL");
        list[i].text = (const char *)text;
        list[i].text_size = (size_t)size;
    }
    out->added = list;

    /* Deleted: an ID byte and a print. */
    if (!read_list(r, arena, 5, "deleted entities", &list, &out->deleted_count)) return false;
    for (uint32_t i = 0; i < out->deleted_count; i++) list[i].print = jli_snap_read_u32(r, "print");
    if (r->failed) return false;
    out->deleted = list;
    if (jli_snap_left(r)) return jli_snap_fail(r, JL_ERR_CORRUPT, "%zu bytes after the lists", jli_snap_left(r));
    return true;
}

jl_status jl_changes_decode(const uint8_t *data, size_t size, jl_arena *arena, jl_changes *out, jl_error *err)
{
    *out = (jl_changes){0};
    if (!arena || !arena->base || (size && !data))
        return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "change link: no arena or no data");
    if (size > JL_CHANGES_MAX_BYTES)
        return jl_error_set(err, JL_ERR_CAPACITY, NULL, 0, 0, "change link of %zu bytes: the limit is %u", size,
                            (unsigned)JL_CHANGES_MAX_BYTES);
    const size_t mark = arena->used;
    jl_error local = {0};
    jli_snap_reader r = {.start = data, .p = data, .end = data + size, .err = err ? err : &local};
    if (read_all(&r, arena, out)) return JL_OK;
    jl_arena_pop_to(arena, mark);
    *out = (jl_changes){0};
    /* The reader speaks of a snapshot; this is a change link. */
    jl_error *e = r.err;
    static const char prefix[] = "snapshot byte";
    if (strncmp(e->message, prefix, sizeof prefix - 1) == 0) {
        char message[JL_ERROR_MESSAGE_MAX];
        snprintf(message, sizeof message, "change link byte%s", e->message + sizeof prefix - 1);
        jl_error_set(e, r.status, NULL, 0, 0, "%s", message);
    }
    return r.status;
}
