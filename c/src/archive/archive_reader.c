/* archive_reader.c - reading an entity from tokenized text (archive.h,
 * JULIET-SPEC-002 §4.3-§4.4): fields by key into the entity's own memory, the base
 * fields and versions, migrations, deserialize_entity_in_place, and the
 * unknown keys a file keeps. */
#include <string.h>

#include "archive/archive_internal.h"
#include "entity/entity_manager_internal.h"

static jl_status parse_error(jl_archive *ar, uint32_t line, uint32_t col, const char *format, const char *a,
                             const char *b)
{
    return jl_error_set(ar->err, JL_ERR_PARSE, ar->path, line, col, format, a, b);
}

/* jl_archive_find for a key spelled out here: the compiler turns the compare of
 * a known size into a couple of word compares. */
static inline jl_archive_entry *find_sized(jl_archive *ar, const char *key, uint32_t size)
{
    const uint32_t n = ar->entry_count;
    uint32_t i = ar->next_lookup < n ? ar->next_lookup : 0;
    for (uint32_t k = 0; k < n; k++) {
        jl_archive_entry *e = &ar->entries[i];
        if (e->key_size == size && memcmp(e->key, key, size) == 0) {
            ar->next_lookup = i + 1;
            return e;
        }
        if (++i == n) i = 0;
    }
    return NULL;
}
#define FIND_KNOWN(ar, literal) find_sized((ar), (literal), (uint32_t)sizeof(literal) - 1)

/* ---- reading fields ---- */

static jl_status entry_value_error(jl_archive *ar, const jl_archive_entry *e, size_t bad, const char *msg)
{
    return jl_error_set(ar->err, JL_ERR_PARSE, ar->path, e->value_line, e->value_col + (uint32_t)bad, "%.*s: %s",
                        (int)e->key_size, e->key, msg);
}

static jl_status read_entry(jl_archive *ar, jl_archive_entry *e, const jl_field *field, void *dst)
{
    e->used = true;
    jli_value_fail fail;
    jl_status s = jli_value_parse_into(field, e->value, e->value_size, dst, ar->strings, &fail);
    if (s == JL_OK) return JL_OK;
    if (s != JL_ERR_PARSE)
        return jl_error_set(ar->err, s, ar->path, e->value_line, e->value_col, "%.*s: %s", (int)e->key_size, e->key,
                            fail.msg);
    return entry_value_error(ar, e, fail.bad, fail.msg);
}

/* The base fields' descriptors (their keys are read by name below). */
static const jl_field id_field = {"id", JL_FIELD_ENTITY_REF, 0, 0, NULL};
static const jl_field version_field = {"version", JL_FIELD_INDEX, 0, 0, NULL};
static const jl_field position_field = {"position", JL_FIELD_VEC3, 0, 0, NULL};

jl_status jl_archive_read_field(jl_archive *ar, const jl_field *field, void *derived)
{
    jl_archive_entry *e = jl_archive_find(ar, field->name);
    if (!e) return JL_OK; /* absent: the default stays (JULIET-SPEC-002 §3.3) */
    return read_entry(ar, e, field, (char *)derived + field->offset);
}

jl_status jl_archive_read_f32(jl_archive *ar, const char *key, float *out, uint32_t flags)
{
    jl_archive_entry *e = jl_archive_find(ar, key);
    if (!e) return JL_ERR_NOT_FOUND;
    const jl_field field = {key, JL_FIELD_F32, 0, flags, NULL};
    return read_entry(ar, e, &field, out);
}

jl_status jl_serialize_fields(jl_archive *ar, const jl_class *cls, void *derived)
{
    if (ar->loading) {
        for (uint32_t i = 0; i < cls->field_count; i++) {
            const jl_field *f = &cls->fields[i];
            /* A canonical file has the fields in table order, right after
             * the last key found: try that entry inline before a search
             * (keys are unique, so both find the same entry). */
            const uint32_t at = ar->next_lookup;
            jl_archive_entry *e;
            if (at < ar->entry_count && jli_key_is(&ar->entries[at], f->name)) {
                e = &ar->entries[at];
                ar->next_lookup = at + 1;
            } else if ((e = jl_archive_find(ar, f->name)) == NULL) {
                continue; /* absent: the default stays (JULIET-SPEC-002 §3.3) */
            }
            jl_status s = read_entry(ar, e, f, (char *)derived + f->offset);
            if (s != JL_OK) return s;
        }
    } else {
        jli_archive_write_fields(ar, cls, derived);
    }
    return JL_OK;
}

/* ---- entities ---- */

static jl_status read_version(jl_archive *ar, jl_archive_entry *e, uint32_t *out)
{
    if (!e) {
        *out = 1;
        return JL_OK;
    }
    jl_status s = read_entry(ar, e, &version_field, out);
    if (s != JL_OK) return s;
    if (*out == 0 || *out == JL_INDEX_MAX) return entry_value_error(ar, e, 0, "version must be a number from 1");
    return JL_OK;
}

/* After the fields: an entity from a newer file is read-only, one from an
 * older file of its class is migrated. */
static jl_status apply_versions(jl_archive *ar, const jl_class *cls, jl_entity *entity)
{
    if (ar->file_version > JL_ENTITY_BASE_VERSION || ar->class_version > cls->version) {
        entity->flags |= JL_ENTITY_READ_ONLY;
    } else if (ar->class_version < cls->version && cls->migrate) {
        return cls->migrate(ar, cls, entity->derived, ar->class_version);
    }
    return JL_OK;
}

jl_status jl_archive_read_entity(jl_archive *ar, jl_entity *entity, uint64_t *id_out)
{
    const jl_class *cls = entity->derived_kind;
    jl_status s;
    /* Look keys up in canonical order: each search then hits at once. */
    ar->next_lookup = 0;
    jl_archive_entry *e = FIND_KNOWN(ar, "asset_type");
    if (e) {
        e->used = true;
        if (!jli_word_is(e->value, e->value_size, JLI_ENTITY_ASSET_TYPE))
            return entry_value_error(ar, e, 0, "expected " JLI_ENTITY_ASSET_TYPE);
    }
    jl_archive_entry *id_entry = FIND_KNOWN(ar, "id");
    e = FIND_KNOWN(ar, "class");
    if (e) e->used = true;
    if (!id_entry) return parse_error(ar, 0, 0, "missing key '%s'%s", "id", "");
    uint64_t id = 0;
    if ((s = read_entry(ar, id_entry, &id_field, &id)) != JL_OK) return s;
    if (id == 0) return entry_value_error(ar, id_entry, 0, "an entity ID of zero is not allowed");
    if ((s = read_version(ar, FIND_KNOWN(ar, "version"), &ar->file_version)) != JL_OK) return s;
    if ((s = read_version(ar, FIND_KNOWN(ar, "class_version"), &ar->class_version)) != JL_OK) return s;
    entity->position.w = 1.0f; /* JULIET-SPEC-002 §3.6: w is 1 whether or not the file has a position */
    e = FIND_KNOWN(ar, "position");
    if (e) {
        jl_vec3 p;
        if ((s = read_entry(ar, e, &position_field, &p)) != JL_OK) return s;
        entity->position = (jl_vec4){p.x, p.y, p.z, 1.0f};
    }
    if ((s = cls->serialize(ar, cls, entity->derived)) != JL_OK) return s;
    if ((s = apply_versions(ar, cls, entity)) != JL_OK) return s;
    *id_out = id;
    return JL_OK;
}

jl_status jl_entity_deserialize_in_place(jl_entity_manager *manager, jl_archive *ar, jl_entity **out)
{
    *out = NULL;
    /* 1. The class first: it decides what to allocate. */
    jl_archive_entry *e = FIND_KNOWN(ar, "class");
    if (!e) return parse_error(ar, 0, 0, "missing key '%s'%s", "class", "");
    const jl_class *cls = jl_registry_find(manager->classes, e->value, e->value_size);
    if (!cls)
        return jl_error_set(ar->err, JL_ERR_UNKNOWN_CLASS, ar->path, e->value_line, e->value_col,
                            "unknown class '%.*s'", (int)e->value_size, e->value);
    /* 2. Memory in its final place (JULIET-SPEC-002 §3). */
    jl_entity *entity;
    jl_status s = jl_entity_allocate(manager, cls, &entity);
    if (s != JL_OK)
        return jl_error_set(ar->err, s, ar->path, 0, 0, "cannot allocate a %s: %s", cls->name, jl_status_name(s));
    /* 3. Stream every field into it. */
    uint64_t id = 0;
    s = jl_archive_read_entity(ar, entity, &id);
    if (s == JL_OK) {
        s = jl_entity_set_id(manager, entity, id);
        if (s == JL_ERR_DUPLICATE_ID) {
            jl_archive_entry *ide = FIND_KNOWN(ar, "id");
            jl_error_set(ar->err, s, ar->path, ide ? ide->value_line : 0, ide ? ide->value_col : 0,
                         "duplicate entity ID 0x%016llx", (unsigned long long)id);
        } else if (s != JL_OK) {
            jl_error_set(ar->err, s, ar->path, 0, 0, "cannot index entity: %s", jl_status_name(s));
        }
    }
    if (s != JL_OK) {
        jli_entity_rollback_allocation(manager, entity); /* the manager is as before the file */
        return s;
    }
    /* 4. Never mint this ID again; 5. it matches its file. */
    jl_manager_note_id(manager, id);
    entity->is_dirty = false;
    *out = entity;
    return JL_OK;
}

/* ---- canonical files in one pass ---- */

/* A canonical file (what the engine writes: docs/format.md) has its keys in
 * a known order, so each is matched where it is expected and its value
 * parsed at once: no token pass, no key search. */
typedef struct canonical_reader {
    const char *p, *end;       /* the text left; it ends with a line end */
    uint32_t pairs;            /* read so far */
    jl_archive_entry *entries; /* ar's, counted here (a register, not ar's
                                  field, which every entry store may change)
                                  and given to ar at the end */
    uint32_t count;
} canonical_reader;

static inline uint64_t word_at(const char *p)
{
    uint64_t x;
    memcpy(&x, p, sizeof x);
    return x;
}

/* Whether a[0, n) and b[0, n) hold the same bytes: eight at a time, as key
 * lines are short (memcmp's call costs more than the compare); the last
 * word ends at n, overlapping the one before it, and fewer than eight are
 * compared a byte at a time. */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
    if (n < 8) {
        for (; n; n--)
            if (*a++ != *b++) return false;
        return true;
    }
    for (size_t i = 0; i + 8 < n; i += 8)
        if (word_at(a + i) != word_at(b + i)) return false;
    return word_at(a + n - 8) == word_at(b + n - 8);
}

/* The size of the value line at r->p if the tokenizer would take it as it
 * stands (no blanks around the value, no CR, not a key line, not too
 * long); false if not. The text ends with '\n', so the scan stops in it. */
static inline bool value_line(const canonical_reader *r, size_t *size)
{
    const char *v = r->p;
    if (v >= r->end || (jli_char_class[(uint8_t)v[0]] & 4)) return false;
    *size = jli_scan_line(v, r->end);
    return *size <= JL_ARCHIVE_LINE_MAX && !jli_is_trailing_blank(v[*size - 1]);
}

/* Moves past the pair whose value line is at r->p, size bytes. A value
 * naming an entity (the ID, a reference) gets its entry, as
 * jl_archive_tokenize would fill it (used), but for the key's hash, which
 * only the tokenizer's duplicate check reads (a canonical file's keys are
 * distinct): those are the entries the world reads after a load (the ID's
 * line for a misnamed file, a reference's for its site), and the other
 * pairs are all used, so no unknown key needs theirs. Its lines follow
 * from the pairs before it; key_size bytes of key, which need not point
 * into the text. */
static inline void add_pair(canonical_reader *r, const char *key, size_t key_size, size_t size, bool names_entity)
{
    const uint32_t at = 2 * r->pairs++ + 1;
    if (names_entity)
        r->entries[r->count++] = (jl_archive_entry){.key = key,
                                                    .value = r->p,
                                                    .key_size = (uint32_t)key_size,
                                                    .value_size = (uint32_t)size,
                                                    .key_line = at,
                                                    .value_line = at + 1,
                                                    .key_col = 3,
                                                    .value_col = 1,
                                                    .used = true};
    r->p += size + 1;
}

/* Moves past the key line line[0, line_size) ("; key\n") at r->p; false
 * if the text there is not that line. */
static inline bool key_line(canonical_reader *r, const char *line, size_t line_size)
{
    if ((size_t)(r->end - r->p) <= line_size || !same_bytes(r->p, line, line_size)) return false;
    r->p += line_size;
    return true;
}

/* Reads the value line at r->p into dst as a value of field and appends
 * its pair (key_size bytes of key). A value in the engine's own form is
 * parsed where it lies and the parse finds its end (the text ends with a
 * line end, which no such value takes); any other is the whole line,
 * checked. False if the tokenizer would not take the line as it stands or
 * the value does not parse: the general path then says what is wrong. */
static inline bool take_value(canonical_reader *r, jl_arena *strings, const char *key, size_t key_size,
                              const jl_field *field, void *dst)
{
    const char *v = r->p;
    size_t size = jli_value_parse_plain(field, v, (size_t)(r->end - v), dst);
    if (size == 0 || v[size] != '\n' || size > JL_ARCHIVE_LINE_MAX) {
        jli_value_fail fail;
        if (!value_line(r, &size) || jli_value_parse_into(field, v, size, dst, strings, &fail) != JL_OK) return false;
    }
    add_pair(r, key, key_size, size, field->type == JL_FIELD_ENTITY_REF);
    return true;
}

/* The pairs of a canonical file's header. */
#define LITERAL_SIZE(s) (sizeof(s) - 1)
enum { CANONICAL_HEAD_PAIRS = 6 }; /* asset_type, id, class, version, class_version, position */

/* The size of name if it is a word ([A-Za-z0-9_]+), else 0: a key, or a
 * value the tokenizer takes as it stands. */
static size_t word_size(const char *name)
{
    size_t n = 0;
    while (jli_char_class[(uint8_t)name[n]] & 1) n++;
    return name[n] == '\0' ? n : 0;
}

/* The head and key lines of cls, built on the first file of the class;
 * NULL if keep is full. */
static const jli_key_lines *key_lines_of(jli_canonical_cache *cache, jl_arena *keep, const jl_class *cls)
{
    jli_key_lines *k = &cache->by_kind[cls->kind];
    if (k->cls == cls) return k;
    const size_t name_size = word_size(cls->name);
    size_t total = JLI_ENTITY_HEAD_MAX(name_size);
    bool canonical = name_size != 0 && cls->field_count <= JL_ARCHIVE_KEYS_MAX - CANONICAL_HEAD_PAIRS;
    for (uint32_t i = 0; i < cls->field_count && canonical; i++) {
        const size_t n = word_size(cls->fields[i].name);
        canonical = n - 1 < JL_ARCHIVE_KEY_MAX;
        total += n + 3;
    }
    if (!canonical || total > UINT16_MAX) {
        *k = (jli_key_lines){.cls = cls};
        return k;
    }
    uint16_t *at = jl_arena_push(keep, (cls->field_count + 1) * sizeof *at, _Alignof(uint16_t));
    char *text = at ? jl_arena_push(keep, total, 1) : NULL;
    if (!text) return NULL;
    *k = (jli_key_lines){.cls = cls, .at = at, .text = text};
    char *c = text + jli_write_entity_head(text, cls->name, name_size, cls->version);
    for (uint32_t i = 0; i < cls->field_count; i++) {
        const size_t n = strlen(cls->fields[i].name);
        at[i] = (uint16_t)(c - text);
        memcpy(c, "; ", 2);
        memcpy(c + 2, cls->fields[i].name, n);
        c[2 + n] = '\n';
        c += n + 3;
    }
    at[cls->field_count] = (uint16_t)(c - text);
    return k;
}

/* Whether the text at head (up to end) starts with the head of k's class. */
static inline bool is_head_of(const char *head, const char *end, const jli_key_lines *k)
{
    return (size_t)(end - head) > k->at[0] && same_bytes(head, k->text, k->at[0]);
}

/* The lines of the class whose head is at head (up to end): files come in
 * runs of a few classes, so the heads of the last ones are tried first (a
 * mismatch is told by the second word, which holds the name's start), then
 * the registry by the name. NULL if there is no such class, or it reads its
 * own way (it may look for keys anywhere), or the head is not what this
 * build writes (another version: the general path migrates it or keeps it
 * read-only). */
static const jli_key_lines *class_at(const char *head, const char *end, jli_canonical_cache *cache, jl_arena *keep,
                                     const jl_class_registry *classes)
{
    uint32_t seen = 0;
    const jli_key_lines *k = NULL;
    for (; seen < JLI_RECENT_CLASSES && cache->recent[seen]; seen++) {
        const jli_key_lines *lines = &cache->by_kind[cache->recent[seen]->kind];
        if (lines->cls == cache->recent[seen] && lines->at && is_head_of(head, end, lines)) {
            k = lines;
            break;
        }
    }
    if (!k) {
        static const char class_line[] = "\n; class\n";
        const char *name = head + LITERAL_SIZE(class_line);
        if (end <= name || !same_bytes(head, class_line, LITERAL_SIZE(class_line))) return NULL;
        const jl_class *cls = jl_registry_find(classes, name, jli_scan_line(name, end));
        if (!cls || cls->serialize != jl_serialize_fields || cls->kind >= JL_CLASS_MAX) return NULL;
        k = key_lines_of(cache, keep, cls);
        if (!k || !k->at || !is_head_of(head, end, k)) return NULL;
    }
    /* The latest first: the others move down over its place (or the last). */
    if (seen == JLI_RECENT_CLASSES) seen--;
    for (; seen; seen--) cache->recent[seen] = cache->recent[seen - 1]; /* a few: no memmove call */
    cache->recent[0] = k->cls;
    return k;
}

jl_status jli_entity_read_canonical(jl_entity_manager *manager, jli_canonical_cache *cache, jl_arena *keep,
                                    jl_archive *ar, jl_arena *arena, jl_arena *strings, const char *text, size_t size,
                                    const char *path, uint64_t expected_id, jl_error *err, jl_entity **out)
{
    *out = NULL;
    if (size == 0 || text[size - 1] != '\n') return JL_ERR_NOT_FOUND;
    *ar = (jl_archive){
        .loading = true, .path = path, .err = err, .file_version = JL_ENTITY_BASE_VERSION, .strings = strings};
    ar->entries = jl_arena_push(arena, JL_ARCHIVE_KEYS_MAX * sizeof *ar->entries, _Alignof(jl_archive_entry));
    if (!ar->entries) return JL_ERR_NOT_FOUND;
    /* A failed read below means the general path fails too (the same value
     * text), and it then says so in err. */
    static const char lead[] = JLI_ENTITY_LEAD;
    if (size <= LITERAL_SIZE(lead) || !same_bytes(text, lead, LITERAL_SIZE(lead))) return JL_ERR_NOT_FOUND;
    canonical_reader r = {text + LITERAL_SIZE(lead), text + size, 1 /* asset_type */, ar->entries, 0};
    uint64_t id = 0;
    if (!take_value(&r, strings, "id", LITERAL_SIZE("id"), &id_field, &id) || id == 0 ||
        (expected_id && id != expected_id))
        return JL_ERR_NOT_FOUND;
    const char *const head = r.p - 1; /* the ID's line end */
    const jli_key_lines *keys = class_at(head, r.end, cache, keep, manager->classes);
    if (!keys) return JL_ERR_NOT_FOUND;
    const jl_class *cls = keys->cls;
    jli_manager_prefetch_id(manager, id);
    /* The head holds this build's versions: nothing to migrate, not read-only. */
    ar->class_version = cls->version;
    r.pairs += 3; /* class, version, class_version */
    r.p = head + keys->at[0];
    jl_vec3 position;
    if (!take_value(&r, strings, "position", LITERAL_SIZE("position"), &position_field, &position))
        return JL_ERR_NOT_FOUND;

    jl_entity *entity;
    if (jl_entity_allocate(manager, cls, &entity) != JL_OK) return JL_ERR_NOT_FOUND;
    entity->position = (jl_vec4){position.x, position.y, position.z, 1.0f};
    for (uint32_t i = 0; i < cls->field_count; i++) {
        const jl_field *f = &cls->fields[i];
        const char *line = keys->text + keys->at[i];
        const size_t line_size = keys->at[i + 1] - keys->at[i];
        if (!key_line(&r, line, line_size) ||
            !take_value(&r, strings, line + 2, line_size - 3, f, (char *)entity->derived + f->offset))
            goto decline;
    }
    /* Keys the class does not know follow: the general path keeps them. */
    if (r.p != r.end || jl_entity_set_id(manager, entity, id) != JL_OK) goto decline;
    jl_manager_note_id(manager, id);
    entity->is_dirty = false;
    ar->entry_count = r.count;
    ar->last_line = 2 * r.pairs;
    jl_arena_pop_to(arena, (size_t)((uint8_t *)(ar->entries + ar->entry_count) - arena->base));
    *out = entity;
    return JL_OK;
decline:
    jli_entity_rollback_allocation(manager, entity);
    return JL_ERR_NOT_FOUND;
}

/* The value's whole line as the file has it, without its line end: the
 * blanks before the value (value_col - 1 of them: a value line holds
 * nothing else before its value), the value, the blanks after it. */
static const char *entry_line(const jl_archive_entry *e, size_t *size)
{
    *size = (size_t)(e->value_col - 1) + e->value_size + e->value_trail;
    return e->value - (e->value_col - 1);
}

/* ---- unknown keys ---- */

size_t jli_archive_unknown_size(const jl_archive *ar)
{
    size_t total = 0, line_size;
    for (uint32_t i = 0; i < ar->entry_count; i++) {
        if (ar->entries[i].used) continue;
        entry_line(&ar->entries[i], &line_size);
        total += 2 + ar->entries[i].key_size + 1 + line_size + 1;
    }
    return total;
}

void jli_archive_copy_unknown(const jl_archive *ar, char *c)
{
    size_t line_size;
    for (uint32_t i = 0; i < ar->entry_count; i++) {
        const jl_archive_entry *e = &ar->entries[i];
        if (e->used) continue;
        *c++ = ';';
        *c++ = ' ';
        memcpy(c, e->key, e->key_size);
        c += e->key_size;
        *c++ = '\n';
        const char *line = entry_line(e, &line_size);
        memcpy(c, line, line_size);
        c += line_size;
        *c++ = '\n';
    }
}

jl_status jl_archive_collect_unknown(jl_archive *ar, jl_arena *out, const char **text, size_t *size)
{
    *text = NULL;
    *size = jli_archive_unknown_size(ar);
    if (*size == 0) return JL_OK;
    char *c = jl_arena_push(out, *size, 1);
    if (!c) {
        *size = 0;
        return jl_error_set(ar->err, JL_ERR_OUT_OF_MEMORY, ar->path, 0, 0, "no room left to keep the unknown keys");
    }
    jli_archive_copy_unknown(ar, c);
    *text = c;
    return JL_OK;
}
