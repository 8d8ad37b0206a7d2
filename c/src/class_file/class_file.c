/* class_file.c - a class file's text into a class record and back
 * (class_file.h; format in docs/format.md): the keys, the type line, the
 * C layout of the fields, the defaults, the comparison with a registered
 * class, and writing a class's file atomically. */
#include <stdio.h>
#include <string.h>

#include "archive/archive_internal.h"
#include "class_file/class_file_internal.h"
#include "class/class_registry_internal.h"
#include "juliet/entity.h"

/* The type word of an F32 field that may be infinite. */
static const char inf_suffix[] = "+inf";

static size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

static bool is_key_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* ---- parsing ---- */

typedef struct parser {
    jl_arena *keep;
    const char *path;
    jl_error *err;
} parser;

static jl_status fail_at(parser *p, const jl_archive_entry *e, bool at_value, size_t offset, const char *format,
                         const char *a)
{
    return jl_error_set(p->err, JL_ERR_PARSE, p->path, at_value ? e->value_line : e->key_line,
                        (at_value ? e->value_col : e->key_col) + (uint32_t)offset, format, a);
}

static jl_status out_of_memory(parser *p)
{
    return jl_error_set(p->err, JL_ERR_OUT_OF_MEMORY, p->path, 0, 0, "no room left for the class");
}

/* A NUL-terminated copy of t[0, n) in keep, or NULL. */
static char *keep_string(parser *p, const char *t, size_t n)
{
    char *c = jl_arena_push(p->keep, n + 1, 1);
    if (c) {
        memcpy(c, t, n);
        c[n] = '\0';
    }
    return c;
}

/* Reads `; class_version` or `; version`: a number from 1. */
static jl_status read_number(parser *p, jl_archive_entry *e, uint32_t *out)
{
    uint32_t col = 0;
    jl_error why;
    if (jl_value_parse(JL_FIELD_INDEX, 0, e->value, e->value_size, out, &col, &why) != JL_OK)
        return fail_at(p, e, true, col ? col - 1 : 0, "%s", why.message);
    if (*out == 0 || *out == JL_INDEX_MAX) return fail_at(p, e, true, 0, "%s", "expected a number from 1");
    return JL_OK;
}

/* The type word t[0, n): the field's type and flags. */
static bool parse_type(const char *t, size_t n, jl_field_type *type, uint32_t *flags)
{
    *flags = 0;
    const size_t suffix = sizeof inf_suffix - 1;
    if (n > suffix && memcmp(t + n - suffix, inf_suffix, suffix) == 0) {
        *flags = JL_FIELD_ALLOW_INF;
        n -= suffix;
    }
    for (int k = 0; k < JL_FIELD_TYPE_COUNT; k++) {
        if (jli_word_is(t, n, jl_field_type_name((jl_field_type)k))) {
            *type = (jl_field_type)k;
            return !*flags || *type == JL_FIELD_F32;
        }
    }
    return false;
}

/* The words of t[0, n) separated by blanks: starts and sizes into at and
 * len (room for max); returns how many, or max + 1 if there are more. */
static uint32_t split_words(const char *t, size_t n, uint32_t max, uint32_t *at, uint32_t *len)
{
    uint32_t count = 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && jli_is_blank(t[i])) i++;
        if (i == n) break;
        size_t start = i;
        while (i < n && !jli_is_blank(t[i])) i++;
        if (count == max) return max + 1;
        at[count] = (uint32_t)start;
        len[count++] = (uint32_t)(i - start);
    }
    return count;
}

/* The names of an ENUM field's type line (after the default word): kept
 * in keep and checked by jl_enum_check; a bad name is reported at its own
 * column (the first prefix of the list that fails holds it last). */
static jl_status parse_enum_names(parser *p, const jl_archive_entry *e, const char *t, uint32_t count,
                                  const uint32_t *at, const uint32_t *len, jl_enum **out)
{
    const char **names = jl_arena_push(p->keep, count * sizeof *names, _Alignof(const char *));
    jl_enum *en = jl_arena_push(p->keep, sizeof *en, _Alignof(jl_enum));
    if (!names || !en) return out_of_memory(p);
    for (uint32_t i = 0; i < count; i++)
        if (!(names[i] = keep_string(p, t + at[i], len[i]))) return out_of_memory(p);
    *en = (jl_enum){names, count};
    jl_error why;
    if (jl_enum_check(en, &why) == JL_OK) {
        *out = en;
        return JL_OK;
    }
    /* Checking is prefix-monotone (a name fails for itself or an earlier
     * one): search the shortest failing prefix. */
    uint32_t lo = 1, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        jl_enum prefix = {names, mid};
        if (jl_enum_check(&prefix, NULL) == JL_OK) lo = mid + 1;
        else hi = mid;
    }
    jl_enum prefix = {names, lo};
    jl_enum_check(&prefix, &why);
    size_t offset = (size_t)(t - e->value) + at[lo - 1];
    if (count > JL_ENUM_NAMES_MAX) offset = 0;
    return fail_at(p, e, true, offset, "%s", why.message);
}

/* One `; field NAME` entry: name, type, flags, enum names (the default is
 * read once the layout is known); *default_at gets the default's offset in
 * the value and *default_size its size. */
static jl_status parse_field(parser *p, const jl_archive_entry *e, jl_field *f, uint32_t *default_at,
                             uint32_t *default_size)
{
    const char *name = e->key + 6; /* after "field " */
    size_t name_size = e->key_size - 6;
    static const char *const base_keys[] = {"asset_type", "id", "class", "version", "class_version", "position"};
    for (size_t i = 0; i < sizeof base_keys / sizeof base_keys[0]; i++)
        if (jli_word_is(name, name_size, base_keys[i]))
            return fail_at(p, e, false, 6, "field '%s': the name of a key every entity file has", base_keys[i]);
    const char *v = e->value;
    size_t n = e->value_size, type_size = 0;
    while (type_size < n && !jli_is_blank(v[type_size])) type_size++;
    if (!parse_type(v, type_size, &f->type, &f->flags))
        return fail_at(p, e, true, 0, "%s",
                       "unknown field type (expected f32, f32+inf, index, bool, vec3, color, entity_ref, i32, "
                       "u32, string, enum, vec2 or quat)");
    if (!(f->name = keep_string(p, name, name_size))) return out_of_memory(p);
    size_t d = type_size;
    while (d < n && jli_is_blank(v[d])) d++;
    *default_at = (uint32_t)d;
    *default_size = (uint32_t)(n - d);
    f->enumeration = NULL;
    if (f->type != JL_FIELD_ENUM) return JL_OK;

    /* enum: the default word, then every name. */
    enum { WORDS_MAX = JL_ENUM_NAMES_MAX + 1 };
    uint32_t at[WORDS_MAX], len[WORDS_MAX];
    uint32_t words = split_words(v + d, n - d, WORDS_MAX, at, len);
    if (words < 2) return fail_at(p, e, true, n, "%s", "an enum field needs its default, then its names");
    if (words > WORDS_MAX) return fail_at(p, e, true, d, "more than %s names", "1024");
    *default_size = len[0];
    jl_enum *en = NULL;
    jl_status s = parse_enum_names(p, e, v + d, words - 1, at + 1, len + 1, &en);
    f->enumeration = en;
    return s;
}

/* The C layout: the entity header, then each field at the next multiple
 * of its alignment; the size rounded up to the largest alignment. */
static void lay_out(jl_class *cls, jl_field *fields)
{
    size_t offset = sizeof(jl_entity_header), align = _Alignof(jl_entity_header);
    for (uint32_t i = 0; i < cls->field_count; i++) {
        size_t a = jl_field_type_alignment(fields[i].type);
        offset = align_up(offset, a);
        fields[i].offset = (uint32_t)offset;
        offset += jl_field_type_size(fields[i].type);
        if (a > align) align = a;
    }
    cls->size_of = (uint32_t)align_up(offset, align);
    cls->alignment = (uint32_t)align;
}

static bool is_field_key(const jl_archive_entry *e) { return e->key_size > 6 && memcmp(e->key, "field ", 6) == 0; }

static jl_status parse_entries(parser *p, jl_archive *ar, const char *expected_name, jli_class_file *cf)
{
    jl_class *cls = &cf->cls;
    jl_archive_entry *name = NULL, *version = NULL;
    uint32_t field_count = 0;
    for (uint32_t i = 0; i < ar->entry_count; i++) {
        jl_archive_entry *e = &ar->entries[i];
        if (is_field_key(e)) field_count++;
        else if (jli_key_is(e, "name")) name = e;
        else if (jli_key_is(e, "class_version")) version = e;
        else if (jli_key_is(e, "asset_type") && !jli_word_is(e->value, e->value_size, "class"))
            return fail_at(p, e, true, 0, "%s", "expected class (this is not a class file)");
        else if (jli_key_is(e, "version")) {
            uint32_t v;
            jl_status s = read_number(p, e, &v);
            if (s != JL_OK) return s;
            if (v > JL_CLASS_FILE_VERSION)
                return fail_at(p, e, true, 0, "%s", "a class file of a newer format than this build reads: not loaded");
        }
        /* Any other key is the user's (documentation, ranges): kept in the text. */
    }
    if (!name) return jl_error_set(p->err, JL_ERR_PARSE, p->path, 1, 1, "missing key 'name'");
    size_t name_size = name->value_size;
    if (name_size == 0 || name_size > JL_CLASS_NAME_MAX || (name->value[0] >= '0' && name->value[0] <= '9'))
        return fail_at(p, name, true, 0, "%s", "a class name has 1 to 63 of A-Z a-z 0-9 _, not starting with a digit");
    for (size_t i = 0; i < name_size; i++)
        if (!is_key_char(name->value[i])) return fail_at(p, name, true, i, "%s", "a class name has only A-Z a-z 0-9 _");
    if (expected_name && !jli_word_is(name->value, name_size, expected_name))
        return fail_at(p, name, true, 0, "the class is named in its file name: expected %s", expected_name);
    cf->name_pos = (jli_text_pos){name->key_line, name->key_col};
    cf->version_pos = cf->name_pos;
    cls->version = 1;
    if (version) {
        jl_status s = read_number(p, version, &cls->version);
        if (s != JL_OK) return s;
        cf->version_pos = (jli_text_pos){version->key_line, version->key_col};
    }
    if (!(cls->name = keep_string(p, name->value, name_size))) return out_of_memory(p);

    jl_field *fields = jl_arena_push(p->keep, (field_count ? field_count : 1) * sizeof *fields, _Alignof(jl_field));
    jli_text_pos *pos = jl_arena_push(p->keep, (field_count ? field_count : 1) * sizeof *pos, 4);
    uint32_t *defaults = jl_arena_push(p->keep, 2 * (field_count ? field_count : 1) * sizeof *defaults, 4);
    const jl_archive_entry **at =
        jl_arena_push(p->keep, (field_count ? field_count : 1) * sizeof *at, _Alignof(jl_archive_entry *));
    if (!fields || !pos || !defaults || !at) return out_of_memory(p);
    cls->field_count = 0;
    for (uint32_t i = 0; i < ar->entry_count; i++) {
        const jl_archive_entry *e = &ar->entries[i];
        if (!is_field_key(e)) continue;
        uint32_t k = cls->field_count++;
        jl_status s = parse_field(p, e, &fields[k], &defaults[2 * k], &defaults[2 * k + 1]);
        if (s != JL_OK) return s;
        pos[k] = (jli_text_pos){e->key_line, e->key_col};
        at[k] = e;
    }
    cls->fields = fields;
    cf->field_pos = pos;
    lay_out(cls, fields);

    /* The defaults, in the struct's own layout: allocation copies them. */
    unsigned char *proto = jl_arena_push(p->keep, cls->size_of, cls->alignment);
    if (!proto) return out_of_memory(p);
    memset(proto, 0, cls->size_of);
    for (uint32_t k = 0; k < cls->field_count; k++) {
        const jl_archive_entry *e = at[k];
        uint32_t d = defaults[2 * k], size = defaults[2 * k + 1];
        if (size == 0) continue; /* no default: zero, as a compiled struct with no initializer */
        jli_value_fail fail;
        jl_status s = jli_value_parse_into(&fields[k], e->value + d, size, proto + fields[k].offset, p->keep, &fail);
        if (s == JL_ERR_OUT_OF_MEMORY) return out_of_memory(p);
        if (s != JL_OK) {
            char what[JL_ERROR_MESSAGE_MAX];
            snprintf(what, sizeof what, "default of %s: %s", fields[k].name, fail.msg);
            return fail_at(p, e, true, d + (s == JL_ERR_PARSE ? fail.bad : 0), "%s", what);
        }
    }
    cls->defaults = proto;
    return JL_OK;
}

jl_status jli_class_file_parse(jl_arena *keep, jl_arena *scratch, const char *path, const char *text, size_t size,
                               const char *expected_name, jli_class_file **out, jl_error *err)
{
    *out = NULL;
    const size_t keep_mark = keep->used, scratch_mark = scratch->used;
    parser p = {.keep = keep, .path = path, .err = err};
    jli_class_file *cf = jl_arena_push(keep, sizeof *cf, _Alignof(jli_class_file));
    char *copy = cf ? jl_arena_push(keep, size + 1, 1) : NULL;
    const char *kept_path = copy ? keep_string(&p, path ? path : "", path ? strlen(path) : 0) : NULL;
    jl_status s;
    if (!kept_path) {
        s = out_of_memory(&p);
    } else {
        memcpy(copy, text, size);
        copy[size] = '\0';
        *cf = (jli_class_file){
            .cls = {.kind = JL_CLASS_KIND_NONE, .serialize = jl_serialize_fields},
            .path = kept_path,
            .text = copy,
            .text_size = (uint32_t)size,
        };
        jl_archive ar;
        s = jli_archive_tokenize_with_arguments(&ar, scratch, copy, size, path, err);
        if (s == JL_OK) s = parse_entries(&p, &ar, expected_name, cf);
    }
    jl_arena_pop_to(scratch, scratch_mark);
    if (s != JL_OK) {
        jl_arena_pop_to(keep, keep_mark);
        return s;
    }
    *out = cf;
    return JL_OK;
}

/* ---- comparing ---- */

static bool differ(const jli_class_file *file, jli_text_pos at, const char *other_desc, jl_error *err, const char *what)
{
    jl_error_set(err, JL_ERR_PARSE, file->path, at.line, at.col, "class %s differs from %s: %s (%s is used)",
                 file->cls.name, other_desc, what, other_desc);
    return false;
}

static void type_word(const jl_field *f, char *out, size_t size)
{
    snprintf(out, size, "%s%s", jl_field_type_name(f->type), (f->flags & JL_FIELD_ALLOW_INF) ? inf_suffix : "");
}

bool jli_class_file_agrees(const jli_class_file *file, const jl_class *other, const char *other_desc, jl_error *err)
{
    const jl_class *cls = &file->cls;
    char what[JL_ERROR_MESSAGE_MAX];
    if (cls->version != other->version) {
        snprintf(what, sizeof what, "class_version %u here, %u there", cls->version, other->version);
        return differ(file, file->version_pos, other_desc, err, what);
    }
    uint32_t common = cls->field_count < other->field_count ? cls->field_count : other->field_count;
    for (uint32_t i = 0; i < common; i++) {
        const jl_field *a = &cls->fields[i], *b = &other->fields[i];
        char ta[32], tb[32];
        type_word(a, ta, sizeof ta);
        type_word(b, tb, sizeof tb);
        if (strcmp(a->name, b->name) != 0) {
            snprintf(what, sizeof what, "field %u is %.64s here, %.64s there", i + 1, a->name, b->name);
            return differ(file, file->field_pos[i], other_desc, err, what);
        }
        if (strcmp(ta, tb) != 0) {
            snprintf(what, sizeof what, "field %.64s is %s here, %s there", a->name, ta, tb);
            return differ(file, file->field_pos[i], other_desc, err, what);
        }
        if (a->type == JL_FIELD_ENUM) {
            const jl_enum *x = a->enumeration, *y = b->enumeration;
            bool same = y && x->count == y->count;
            for (uint32_t n = 0; same && n < x->count; n++) same = strcmp(x->names[n], y->names[n]) == 0;
            if (!same) {
                snprintf(what, sizeof what, "field %.64s has other enum names", a->name);
                return differ(file, file->field_pos[i], other_desc, err, what);
            }
        }
        char da[JL_VALUE_TEXT_MAX], db[JL_VALUE_TEXT_MAX];
        if (jl_class_default_text(cls, i, da) != JL_OK || jl_class_default_text(other, i, db) != JL_OK ||
            strcmp(da, db) != 0) {
            snprintf(what, sizeof what, "field %.64s defaults to %.60s here, %.60s there", a->name, da, db);
            return differ(file, file->field_pos[i], other_desc, err, what);
        }
    }
    if (cls->field_count != other->field_count) {
        bool more = cls->field_count > other->field_count;
        snprintf(what, sizeof what, "%u fields here, %u there%s%.64s", cls->field_count, other->field_count,
                 more ? ": no field " : ": missing field ",
                 more ? cls->fields[common].name : other->fields[common].name);
        return differ(file, more ? file->field_pos[common] : file->name_pos, other_desc, err, what);
    }
    return true;
}

/* ---- writing ---- */

jl_status jl_class_file_text(const jl_class *cls, jl_arena *arena, const char **text, size_t *size, jl_error *err)
{
    *text = NULL;
    *size = 0;
    const size_t mark = arena->used;
    jl_archive ar;
    jl_archive_begin_write(&ar, arena);
    char line[JL_VALUE_TEXT_MAX + 64];
    jl_archive_write_key(&ar, "asset_type");
    jl_archive_write_raw(&ar, "class\n", 6);
    jl_archive_write_key(&ar, "name");
    int n = snprintf(line, sizeof line, "%s\n", cls->name);
    jl_archive_write_raw(&ar, line, (size_t)n);
    jl_archive_write_key(&ar, "class_version");
    n = snprintf(line, sizeof line, "%u\n", cls->version);
    jl_archive_write_raw(&ar, line, (size_t)n);
    for (uint32_t i = 0; i < cls->field_count; i++) {
        const jl_field *f = &cls->fields[i];
        n = snprintf(line, sizeof line, "field %s", f->name);
        jl_archive_write_key(&ar, line);
        char def[JL_VALUE_TEXT_MAX];
        if (jl_class_default_text(cls, i, def) != JL_OK) {
            jl_arena_pop_to(arena, mark);
            return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "class %s: no default for field %s",
                                cls->name, f->name);
        }
        type_word(f, line, sizeof line);
        jl_archive_write_raw(&ar, line, strlen(line));
        jl_archive_write_raw(&ar, " ", 1);
        jl_archive_write_raw(&ar, def, strlen(def));
        for (uint32_t k = 0; f->type == JL_FIELD_ENUM && f->enumeration && k < f->enumeration->count; k++) {
            jl_archive_write_raw(&ar, " ", 1);
            jl_archive_write_raw(&ar, f->enumeration->names[k], strlen(f->enumeration->names[k]));
        }
        jl_archive_write_raw(&ar, "\n", 1);
    }
    if (jl_archive_end_write(&ar, text, size) != JL_OK) {
        jl_arena_pop_to(arena, mark);
        return jl_error_set(err, JL_ERR_OUT_OF_MEMORY, NULL, 0, 0, "class %s: no room for its text", cls->name);
    }
    return JL_OK;
}

jl_status jl_class_file_save(const jl_fs *fs, const char *dir, const char *class_name, const char *text, size_t size,
                             jl_arena *scratch, bool *written, jl_error *err)
{
    if (written) *written = false;
    char folder[JL_ERROR_PATH_MAX], name[JL_CLASS_NAME_MAX + sizeof JL_CLASS_FILE_SUFFIX + 1], path[JL_ERROR_PATH_MAX];
    snprintf(name, sizeof name, "%.*s%s", (int)JL_CLASS_NAME_MAX, class_name, JL_CLASS_FILE_SUFFIX);
    if (!jl_fs_join(folder, sizeof folder, dir, JL_CLASS_FILES_DIR) || !jl_fs_join(path, sizeof path, folder, name))
        return jl_error_set(err, JL_ERR_IO, dir, 0, 0, "path too long");
    /* An identical file stays untouched (its time stamp too). */
    const size_t mark = scratch->used;
    char *old = NULL;
    size_t old_size = 0;
    int code = fs->read_file(fs, path, size + 1, scratch, &old, &old_size, NULL);
    bool same = code == 0 && old_size == size && memcmp(old, text, size) == 0;
    jl_arena_pop_to(scratch, mark);
    if (same) return JL_OK;
    jl_status s = jl_fs_ensure_dir(fs, folder, err);
    if (s == JL_OK) s = jl_fs_write_atomic(fs, path, text, size, err);
    if (s != JL_OK) return s;
    code = fs->sync_dir(fs, folder);
    if (code) return jl_fs_error(err, folder, "sync_dir", code);
    if (written) *written = true;
    return JL_OK;
}
