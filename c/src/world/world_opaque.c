/* world_opaque.c - opaque entities (world.h): a file whose class neither
 * the program nor the world describes loads under a class the world makes
 * for that name, with no fields, so every key but the base ones is kept as
 * text (world_records.c) and written back unchanged. Also the warnings
 * the loader leaves for them, and their kept keys read one by one. */
#include <string.h>

#include "archive/archive_internal.h"
#include "class/class_registry_internal.h"
#include "world/world_internal.h"

/* ---- the class of an unknown name ---- */

jl_status jli_opaque_class_for(jl_world *w, jl_archive *ar, jl_error *err)
{
    jl_archive_entry *e = jl_archive_find(ar, "class");
    /* A value that is no class name at all stays the reader's to refuse. */
    if (!e || e->value_size == 0 || e->value_size > JL_CLASS_NAME_MAX) return JL_ERR_UNKNOWN_CLASS;
    const size_t mark = w->storage.arena.used;
    jl_class *cls = jl_arena_push(&w->storage.arena, sizeof *cls + e->value_size + 1, _Alignof(jl_class));
    if (!cls)
        return jl_error_set(err, JL_ERR_OUT_OF_MEMORY, ar->path, e->value_line, e->value_col,
                            "unknown class '%.*s': no room left to keep it as text", (int)e->value_size, e->value);
    char *name = (char *)(cls + 1);
    memcpy(name, e->value, e->value_size);
    name[e->value_size] = '\0';
    jli_opaque_class_init(cls, name);
    jl_status s = jli_registry_add(&w->classes, cls);
    if (s == JL_OK) return JL_OK;
    jl_arena_pop_to(&w->storage.arena, mark); /* nothing was pushed since */
    if (s == JL_ERR_CAPACITY)
        return jl_error_set(err, JL_ERR_CAPACITY, ar->path, e->value_line, e->value_col,
                            "unknown class '%.*s': cannot keep it as text, the world already has %u classes "
                            "(at most %u, unknown ones included)",
                            (int)e->value_size, e->value, (unsigned)JL_CLASS_MAX, (unsigned)JL_CLASS_MAX);
    if (s == JL_ERR_EXISTS) {
        const jl_class *other = jl_registry_find_crc(&w->classes, jl_crc32(e->value, e->value_size));
        return jl_error_set(err, JL_ERR_UNKNOWN_CLASS, ar->path, e->value_line, e->value_col,
                            "unknown class '%.*s': its name has the CRC32 of class '%s', it cannot be kept",
                            (int)e->value_size, e->value, other ? other->name : "?");
    }
    return JL_ERR_UNKNOWN_CLASS; /* not an identifier: the reader's error stands */
}

/* ---- warnings ---- */

/* A warning as the world keeps it: the rest is read from the entity. */
typedef struct jli_warning {
    uint64_t id;
    uint32_t line;
    uint16_t col;
    uint8_t kind;
} jli_warning;

void jli_opaque_warn(jl_world *w, jl_archive *ar, const jl_entity *entity)
{
    if (!jl_class_is_opaque(entity->derived_kind)) return;
    w->warning_total++;
    const jl_archive_entry *e = jl_archive_find(ar, "class");
    jli_warning *slot = jl_arena_push(&w->warn_arena, sizeof *slot, _Alignof(jli_warning));
    if (!slot) return; /* counted, not stored */
    *slot = (jli_warning){
        .id = entity->id,
        .line = e ? e->value_line : 0,
        .col = e && e->value_col <= UINT16_MAX ? (uint16_t)e->value_col : 0,
        .kind = entity->derived_kind->kind,
    };
    w->warning_count++;
}

uint32_t jl_world_warning_count(const jl_world *w) { return w->warning_count; }

bool jl_world_warning(const jl_world *w, uint32_t index, jl_error *out)
{
    if (index >= w->warning_count) return false;
    const jli_warning *x = &((const jli_warning *)w->warn_arena.base)[index];
    const jl_class *cls = jl_registry_at(&w->classes, x->kind);
    const jl_entity *e = jl_entity_find(&w->manager, x->id);
    const jli_entity_record *r = e ? jli_record_of(w, e) : NULL;
    /* The file it was loaded from: the loader names it so. */
    char path[JL_ERROR_PATH_MAX] = "";
    if (r && r->dir_at && !jl_world_entity_path(path, sizeof path, jli_storage_at(w, r->dir_at), x->id)) path[0] = '\0';
    jl_error_set(out, JL_ERR_UNKNOWN_CLASS, path, x->line, x->col, "unknown class '%s' (kept as text)",
                 cls ? cls->name : "?");
    return true;
}

void jli_warnings_clear(jl_world *w)
{
    jl_arena_pop_to(&w->warn_arena, 0);
    w->warning_count = 0;
    w->warning_total = 0;
}

/* ---- kept keys ---- */

/* The index-th kept line pair of text[0, size) (`; key\nvalue\n`...): the
 * key at *key (key_size bytes) and the value line at *line (line_size
 * bytes, blanks included). False past the last. */
static bool kept_at(const char *text, uint32_t size, uint32_t index, const char **key, uint32_t *key_size,
                    const char **line, uint32_t *line_size)
{
    const char *c = text, *end = text + size;
    for (uint32_t i = 0; c && c < end; i++) {
        const char *key_end = memchr(c, '\n', (size_t)(end - c));
        if (!key_end) return false;
        const char *value = key_end + 1;
        const char *value_end = memchr(value, '\n', (size_t)(end - value));
        if (!value_end) return false;
        if (i == index) {
            *key = c + 2; /* after "; " */
            *key_size = (uint32_t)(key_end - c - 2);
            *line = value;
            *line_size = (uint32_t)(value_end - value);
            return true;
        }
        c = value_end + 1;
    }
    return false;
}

uint32_t jl_world_kept_key_count(const jl_world *w, uint64_t id)
{
    uint32_t size = 0, n = 0, key_size, line_size;
    const char *text = jl_world_unknown_keys(w, id, &size), *key, *line;
    while (text && kept_at(text, size, n, &key, &key_size, &line, &line_size)) n++;
    return n;
}

const char *jl_world_kept_key(const jl_world *w, uint64_t id, uint32_t index, uint32_t *size)
{
    uint32_t text_size = 0, line_size;
    const char *text = jl_world_unknown_keys(w, id, &text_size), *key = NULL, *line;
    if (!text || !kept_at(text, text_size, index, &key, size, &line, &line_size)) {
        *size = 0;
        return NULL;
    }
    return key;
}

jl_status jli_kept_value(const jl_world *w, uint64_t id, const char *field, char *out, uint32_t *size)
{
    uint32_t text_size = 0, key_size, line_size;
    const char *text = jl_world_unknown_keys(w, id, &text_size), *key, *line;
    const size_t field_size = strlen(field);
    for (uint32_t i = 0; text && kept_at(text, text_size, i, &key, &key_size, &line, &line_size); i++) {
        if (key_size != field_size || memcmp(key, field, field_size) != 0) continue;
        /* The value as the reader sees it: without the blanks around it. */
        while (line_size && jli_is_blank(line[0])) line++, line_size--;
        while (line_size && jli_is_blank(line[line_size - 1])) line_size--;
        if (line_size >= JL_VALUE_TEXT_MAX) line_size = JL_VALUE_TEXT_MAX - 1;
        memcpy(out, line, line_size);
        out[line_size] = '\0';
        if (size) *size = line_size;
        return JL_OK;
    }
    return JL_ERR_NOT_FOUND;
}
