/* class_file_world.c - the classes a world holds from class files
 * (class_file.h): loading Classes/<Name>.jclass before the entities,
 * registering each in the world's registry (or reporting why not), and
 * writing them into a world's first directory. Records live in the
 * world's storage arena, never given back before jl_world_free (entities
 * point at them). */
#include <errno.h>
#include <string.h>

#include "class_file/class_file_internal.h"
#include "class/class_registry_internal.h"
#include "world/world_internal.h"

/* The world's classes from files, by kind (NULL: a compiled class). */
struct jli_class_files {
    const jli_class_file *by_kind[JL_CLASS_MAX];
};

const jli_class_file *jli_class_file_of(const jl_world *w, const jl_class *cls)
{
    if (!w->class_files || !cls || cls->kind >= JL_CLASS_MAX) return NULL;
    const jli_class_file *cf = w->class_files->by_kind[cls->kind];
    return cf && &cf->cls == cls ? cf : NULL;
}

jl_status jli_class_file_add(jl_world *w, const char *path, const char *text, size_t size, const char *expected_name,
                             jl_error *err)
{
    jl_arena *keep = &w->storage.arena;
    const size_t mark = keep->used;
    if (!w->class_files) {
        w->class_files = jl_arena_push(keep, sizeof *w->class_files, _Alignof(struct jli_class_files));
        if (!w->class_files) return jl_error_set(err, JL_ERR_OUT_OF_MEMORY, path, 0, 0, "no room left for classes");
        memset(w->class_files, 0, sizeof *w->class_files);
    }
    const size_t file_mark = keep->used;
    jli_class_file *cf;
    jl_status s = jli_class_file_parse(keep, &w->scratch, path, text, size, expected_name, &cf, err);
    if (s != JL_OK) return s;

    const jl_class *known = jl_registry_find(&w->classes, cf->cls.name, strlen(cf->cls.name));
    if (known && jl_class_is_opaque(known)) {
        /* Entities of that name loaded as text before this file came (a
         * served world's file added on disk): they stay so until the world
         * is opened again, when the file is read before them. */
        jl_arena_pop_to(keep, file_mark);
        return jl_error_set(err, JL_ERR_PARSE, path, cf->name_pos.line, cf->name_pos.col,
                            "class %s came after entities of it, which are kept as text until the world is "
                            "opened again",
                            cf->cls.name);
    }
    if (known) {
        /* One class per name: the one known first stays (compiled, or the
         * file loaded first); this file only has to agree with it. */
        const jli_class_file *other = jli_class_file_of(w, known);
        bool agrees = jli_class_file_agrees(cf, known, other ? other->path : "the compiled class", err);
        jl_arena_pop_to(keep, file_mark);
        return agrees ? JL_OK : JL_ERR_PARSE;
    }
    s = jli_registry_add(&w->classes, &cf->cls);
    if (s != JL_OK) {
        jl_arena_pop_to(keep, w->class_files ? file_mark : mark);
        const char *why = s == JL_ERR_CAPACITY ? "the world has the most classes it can hold"
                          : s == JL_ERR_EXISTS ? "another class's name has the same CRC32"
                                               : "not a class this build can lay out";
        return jl_error_set(err, s == JL_ERR_CAPACITY ? s : JL_ERR_PARSE, path, cf->name_pos.line, cf->name_pos.col,
                            "class %s: %s", cf->cls.name, why);
    }
    w->class_files->by_kind[cf->cls.kind] = cf;
    return JL_OK;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

/* The class name a class file's name gives (name without .jclass) into
 * out (JL_CLASS_NAME_MAX + 2 bytes): a stem too long to be a name is cut
 * one byte past the limit, so the parser reports it. */
static void class_name_of_file(const char *name, char *out)
{
    size_t stem = strlen(name) - (sizeof JL_CLASS_FILE_SUFFIX - 1);
    if (stem > JL_CLASS_NAME_MAX) stem = JL_CLASS_NAME_MAX + 1;
    memcpy(out, name, stem);
    out[stem] = '\0';
}

void jli_class_files_load(jl_world *w, const char *dir)
{
    const size_t mark = w->scratch.used;
    char folder[JL_ERROR_PATH_MAX], path[JL_ERROR_PATH_MAX];
    jl_fs_entry *entries = NULL;
    uint32_t count = 0;
    jl_error e;
    if (!jl_fs_join(folder, sizeof folder, dir, JL_CLASS_FILES_DIR)) return;
    int code = w->fs->list_dir(w->fs, folder, &w->scratch, &entries, &count);
    if (code == ENOENT || code == ENOTDIR) count = 0; /* no class files */
    else if (code) {
        jl_fs_error(&e, folder, "list_dir", code);
        jli_world_add_diagnostic(w, &e);
        count = 0;
    }
    for (uint32_t i = 0; i < count; i++) {
        const char *name = entries[i].name;
        if (!ends_with(name, JL_CLASS_FILE_SUFFIX) || jl_fs_is_temp_name(name)) continue;
        if (!jl_fs_join(path, sizeof path, folder, name)) {
            jl_error_set(&e, JL_ERR_IO, folder, 0, 0, "file name too long: %.80s", name);
            jli_world_add_diagnostic(w, &e);
            continue;
        }
        const size_t file_mark = w->scratch.used;
        char *text;
        size_t size;
        jl_status s = jli_world_read_file(w, path, entries[i].kind, &text, &size, NULL);
        if (s == JL_ERR_NOT_FOUND) {
            jl_fs_error(&e, path, "read_file", ENOENT); /* gone since the listing */
            jli_world_add_diagnostic(w, &e);
        } else if (s == JL_OK) {
            char expected[JL_CLASS_NAME_MAX + 2];
            class_name_of_file(name, expected);
            /* The text moves to the storage arena: the scratch copy goes. */
            if (jli_class_file_add(w, path, text, size, expected, &e) != JL_OK) jli_world_add_diagnostic(w, &e);
        }
        jl_arena_pop_to(&w->scratch, file_mark);
    }
    jl_arena_pop_to(&w->scratch, mark);
}

jl_status jli_class_files_save(jl_world *w, const char *dir, jl_save_report *report)
{
    for (uint32_t k = 0; w->class_files && k < JL_CLASS_MAX; k++) {
        const jli_class_file *cf = w->class_files->by_kind[k];
        if (!cf) continue;
        jl_error e;
        jl_status s = jl_class_file_save(w->fs, dir, cf->cls.name, cf->text, cf->text_size, &w->scratch, NULL, &e);
        if (s != JL_OK) {
            jli_report_failure(report, &e);
            return s;
        }
    }
    return JL_OK;
}

jl_status jl_world_load_class_text(jl_world *w, const char *path, const char *text, size_t size, jl_error *err)
{
    const char *name = path ? strrchr(path, '/') : NULL;
    name = name ? name + 1 : path;
    char expected[JL_CLASS_NAME_MAX + 2];
    if (name && ends_with(name, JL_CLASS_FILE_SUFFIX)) class_name_of_file(name, expected);
    /* The parser keeps what it needs in the world's storage. */
    return jli_class_file_add(w, path, text, size, name && ends_with(name, JL_CLASS_FILE_SUFFIX) ? expected : NULL,
                              err);
}
