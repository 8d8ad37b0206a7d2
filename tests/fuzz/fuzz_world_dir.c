/* fuzz_world_dir.c - libFuzzer target for loading and saving a whole world
 * directory (world.h), on an in-memory file system built from the input.
 *
 * Input format: sections, each starting with a header line
 *
 *   %% Entities/123.jasset      a file (its content: the lines up to the
 *                               next header)
 *   %% Entities/9.jasset/       a directory with that name
 *   %% ~Entities/5.jasset       an entry that cannot be resolved (a symlink
 *                               loop): listed as "other", reads fail ELOOP
 *   %% !Entities/6.jasset       a file that cannot be read (EACCES)
 *
 * Paths are relative to the world root (WorldSettings.jasset,
 * Entities/...); text before the first header is Entities/1.jasset. The
 * line end that closes a body is not part of the file, so a file that ends
 * in a newline is written with a blank line after it.
 *
 * Properties checked beyond "no sanitizer report":
 *  - the load keeps the manager's invariants, every diagnostic has a status
 *    and a message, the loaded entities are at most the files, and the
 *    temporaries (*.tmp) are gone afterwards;
 *  - marking everything dirty and saving succeeds (the file system does
 *    not fail), never touches a file that failed to load, and a fresh load
 *    of the result gives the same entities, each writing the same text. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "juliet/private/world_manager.h" /* white-box: the world's manager */
#include "juliet/world.h"
#include "fuzz.h"

/* ---- the in-memory file system ---- */

enum { MEM_ENTRIES = 512, MEM_PATH = 300 };
#define ROOT "w"

/* The file system is test scaffolding: keep it out of the coverage the
 * fuzzer steers by (its lookups would look like progress). */
#define SCAFFOLD __attribute__((no_sanitize("coverage")))

typedef struct mem_entry {
    char path[MEM_PATH]; /* "w/Entities/1.jasset"; empty = unused */
    uint32_t hash;       /* of path, checked before comparing */
    jl_fs_kind kind;
    int read_error; /* returned by read_file instead of the data */
    char *data;
    size_t size;
    uint64_t version; /* of its content: its stamp's time */
} mem_entry;

static uint64_t mem_versions; /* writes so far */

static mem_entry mem[MEM_ENTRIES];
static int mem_top; /* entries [mem_top, MEM_ENTRIES) have never been used */

SCAFFOLD static uint32_t path_hash(const char *path)
{
    uint32_t h = 2166136261u;
    for (; *path; path++) h = (h ^ (uint8_t)*path) * 16777619u;
    return h;
}

SCAFFOLD static mem_entry *mem_find(const char *path)
{
    uint32_t h = path_hash(path);
    for (int i = 0; i < mem_top; i++)
        if (mem[i].hash == h && mem[i].path[0] && strcmp(mem[i].path, path) == 0) return &mem[i];
    return NULL;
}

SCAFFOLD static void mem_clear(mem_entry *e)
{
    free(e->data);
    e->data = NULL;
    e->size = 0;
    e->path[0] = '\0';
    e->hash = 0;
    e->read_error = 0;
}

SCAFFOLD static void mem_reset(void)
{
    for (int i = 0; i < mem_top; i++) mem_clear(&mem[i]);
    mem_top = 0;
}

/* Adds (or replaces) an entry; its parent directories appear as needed.
 * NULL if the table is full or the path too long. */
SCAFFOLD static mem_entry *mem_add(const char *path, jl_fs_kind kind)
{
    size_t n = strlen(path);
    if (n == 0 || n >= MEM_PATH) return NULL;
    const char *slash = strrchr(path, '/');
    if (slash) {
        char parent[MEM_PATH];
        memcpy(parent, path, (size_t)(slash - path));
        parent[slash - path] = '\0';
        mem_entry *p = mem_find(parent);
        if (!p && !mem_add(parent, JL_FS_DIR)) return NULL;
        if (p && p->kind != JL_FS_DIR) return NULL;
    }
    mem_entry *e = mem_find(path);
    if (e) mem_clear(e);
    for (int i = 0; !e && i < mem_top; i++)
        if (!mem[i].path[0]) e = &mem[i];
    if (!e && mem_top < MEM_ENTRIES) e = &mem[mem_top++];
    if (!e) return NULL;
    memcpy(e->path, path, n + 1);
    e->hash = path_hash(path);
    e->kind = kind;
    return e;
}

SCAFFOLD static const char *parent_end(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash : path;
}

/* A stamp as a file system would give it: the entry, its size and version. */
SCAFFOLD static jl_fs_stamp mem_stamp(const mem_entry *e)
{
    return (jl_fs_stamp){.file = (uint64_t)(e - mem) + 1, .size = e->size, .mtime_ns = (int64_t)e->version};
}

SCAFFOLD static int mem_stat(const jl_fs *fs, const char *path, jl_fs_stamp *stamp)
{
    (void)fs;
    mem_entry *e = mem_find(path);
    if (!e) return ENOENT;
    *stamp = mem_stamp(e);
    return 0;
}

SCAFFOLD static int mem_no_lock(const jl_fs *fs, intptr_t handle)
{
    (void)fs;
    (void)handle;
    return ENOSYS;
}

SCAFFOLD static int mem_no_test_lock(const jl_fs *fs, const char *path)
{
    (void)fs;
    (void)path;
    return ENOSYS;
}

SCAFFOLD static int mem_read_file(const jl_fs *fs, const char *path, size_t max, jl_arena *arena, char **data,
                                  size_t *size, jl_fs_stamp *stamp)
{
    (void)fs;
    mem_entry *e = mem_find(path);
    if (!e) return ENOENT;
    if (e->kind == JL_FS_DIR) return EISDIR;
    if (e->kind == JL_FS_OTHER) return ELOOP;
    if (e->kind == JL_FS_SPECIAL) return EINVAL;
    if (e->read_error) return e->read_error;
    if (e->size > max) return EFBIG;
    char *copy = jl_arena_push(arena, e->size + 1, 1);
    if (!copy) return ENOMEM;
    if (e->size) memcpy(copy, e->data, e->size);
    copy[e->size] = '\0';
    *data = copy;
    *size = e->size;
    if (stamp) *stamp = mem_stamp(e);
    return 0;
}

SCAFFOLD static int compare_entries(const void *a, const void *b)
{
    return strcmp(((const jl_fs_entry *)a)->name, ((const jl_fs_entry *)b)->name);
}

SCAFFOLD static int mem_list_dir(const jl_fs *fs, const char *path, jl_arena *arena, jl_fs_entry **entries,
                                 uint32_t *count)
{
    (void)fs;
    mem_entry *dir = mem_find(path);
    if (!dir) return ENOENT;
    if (dir->kind != JL_FS_DIR) return ENOTDIR;
    size_t n = strlen(path);
    uint32_t k = 0;
    for (int i = 0; i < mem_top; i++)
        if (mem[i].path[0] && parent_end(mem[i].path) == mem[i].path + n && strncmp(mem[i].path, path, n) == 0) k++;
    jl_fs_entry *table = jl_arena_push(arena, (k ? k : 1) * sizeof *table, _Alignof(jl_fs_entry));
    if (!table) return ENOMEM;
    k = 0;
    for (int i = 0; i < mem_top; i++) {
        if (!(mem[i].path[0] && parent_end(mem[i].path) == mem[i].path + n && strncmp(mem[i].path, path, n) == 0))
            continue;
        const char *name = mem[i].path + n + 1;
        size_t len = strlen(name);
        char *copy = jl_arena_push(arena, len + 1, 1);
        if (!copy) return ENOMEM;
        memcpy(copy, name, len + 1);
        table[k].name = copy;
        table[k].kind = mem[i].kind;
        k++;
    }
    qsort(table, k, sizeof *table, compare_entries);
    *entries = table;
    *count = k;
    return 0;
}

SCAFFOLD static int mem_open_write(const jl_fs *fs, const char *path, intptr_t *handle)
{
    (void)fs;
    mem_entry *e = mem_find(path);
    if (e) return EEXIST; /* created exclusively, as natively */
    e = mem_add(path, JL_FS_FILE);
    if (!e) return ENOSPC;
    *handle = (intptr_t)(e - mem) + 1;
    return 0;
}

SCAFFOLD static int mem_write(const jl_fs *fs, intptr_t handle, const void *data, size_t size)
{
    (void)fs;
    mem_entry *e = &mem[handle - 1];
    char *grown = realloc(e->data, e->size + size + 1);
    if (!grown) return ENOSPC;
    memcpy(grown + e->size, data, size);
    e->data = grown;
    e->size += size;
    e->version = ++mem_versions;
    return 0;
}

SCAFFOLD static int mem_ok_handle(const jl_fs *fs, intptr_t handle)
{
    (void)fs;
    (void)handle;
    return 0;
}

SCAFFOLD static int mem_rename(const jl_fs *fs, const char *from, const char *to)
{
    (void)fs;
    mem_entry *src = mem_find(from);
    if (!src) return ENOENT;
    mem_entry *dst = mem_find(to);
    if (dst && dst->kind == JL_FS_DIR) return EISDIR;
    if (dst) mem_clear(dst);
    size_t n = strlen(to);
    if (n >= MEM_PATH) return ENAMETOOLONG;
    memcpy(src->path, to, n + 1);
    src->hash = path_hash(to);
    return 0;
}

SCAFFOLD static int mem_sync_dir(const jl_fs *fs, const char *path)
{
    (void)fs;
    return mem_find(path) ? 0 : ENOENT;
}

SCAFFOLD static int mem_remove(const jl_fs *fs, const char *path)
{
    (void)fs;
    mem_entry *e = mem_find(path);
    if (!e) return ENOENT;
    if (e->kind == JL_FS_DIR) return EISDIR;
    mem_clear(e);
    return 0;
}

SCAFFOLD static int mem_make_dir(const jl_fs *fs, const char *path, const char *like)
{
    (void)fs;
    if (like && !mem_find(like)) return ENOENT;
    if (mem_find(path)) return EEXIST;
    return mem_add(path, JL_FS_DIR) ? 0 : ENOSPC;
}

SCAFFOLD static int mem_remove_dir(const jl_fs *fs, const char *path)
{
    (void)fs;
    mem_entry *e = mem_find(path);
    if (!e) return ENOENT;
    if (e->kind != JL_FS_DIR) return ENOTDIR;
    size_t n = strlen(path);
    for (int i = 0; i < mem_top; i++)
        if (mem[i].path[0] && parent_end(mem[i].path) == mem[i].path + n && strncmp(mem[i].path, path, n) == 0)
            return ENOTEMPTY;
    mem_clear(e);
    return 0;
}

static const jl_fs mem_fs = {
    .read_file = mem_read_file,
    .list_dir = mem_list_dir,
    .open_write = mem_open_write,
    .write = mem_write,
    .sync = mem_ok_handle,
    .close = mem_ok_handle,
    .rename = mem_rename,
    .sync_dir = mem_sync_dir,
    .remove = mem_remove,
    .stat = mem_stat,
    .lock = mem_no_lock,
    .test_lock = mem_no_test_lock,
    .make_dir = mem_make_dir,
    .remove_dir = mem_remove_dir,
};

/* ---- building the directory from the input ---- */

SCAFFOLD static void add_section(const char *header, size_t header_size, const char *body, size_t body_size)
{
    jl_fs_kind kind = JL_FS_FILE;
    int read_error = 0;
    if (header_size && header[0] == '~') kind = JL_FS_OTHER, header++, header_size--;
    else if (header_size && header[0] == '!') read_error = EACCES, header++, header_size--;
    if (header_size && header[header_size - 1] == '/') kind = JL_FS_DIR, header_size--;
    char path[MEM_PATH];
    if (header_size == 0 || header_size + sizeof ROOT + 1 > sizeof path) return;
    if (memchr(header, '\0', header_size)) return;
    memcpy(path, ROOT "/", sizeof ROOT);
    memcpy(path + sizeof ROOT, header, header_size);
    path[sizeof ROOT + header_size] = '\0';
    /* No empty components, no "." or "..": the tree stays a tree. */
    if (strstr(path, "//") || strstr(path, "/./") || strstr(path, "/../") || path[strlen(path) - 1] == '/' ||
        strcmp(parent_end(path), "/..") == 0 || strcmp(parent_end(path), "/.") == 0)
        return;
    mem_entry *existing = mem_find(path);
    if (existing && existing->kind == JL_FS_DIR) return; /* keep the tree under it consistent */
    /* A directory named like a save's temporary (given, or the parent of a
     * file) would make that save fail, as on a real disk; the loader's
     * handling of it is not in question. */
    for (const char *c = path; (c = strstr(c, ".tmp")) != NULL; c += 4)
        if (c[4] == '/' || (c[4] == '\0' && kind == JL_FS_DIR)) return;
    mem_entry *e = mem_add(path, kind);
    if (!e) return;
    e->read_error = read_error;
    if (kind == JL_FS_FILE && body_size) {
        e->data = malloc(body_size);
        if (!e->data) abort();
        memcpy(e->data, body, body_size);
        e->size = body_size;
    }
}

SCAFFOLD static void build_directory(const char *text, size_t size)
{
    mem_reset();
    mem_add(ROOT, JL_FS_DIR);
    static const char first[] = "Entities/1.jasset";
    const char *end = text + size, *p = text, *body = text;
    const char *header = first;
    size_t header_size = sizeof first - 1;
    for (;;) {
        /* p is at the start of a line. */
        if (p == end || (end - p >= 3 && memcmp(p, "%% ", 3) == 0)) {
            size_t body_size = (size_t)(p - body);
            /* The line end that closes a body (before the next header or
             * at the end of the input) is not part of the file. */
            if (body_size && body[body_size - 1] == '\n') body_size--;
            if (!(header == first && body_size == 0)) add_section(header, header_size, body, body_size);
            if (p == end) break;
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            header = p + 3;
            header_size = (size_t)((nl ? nl : end) - header);
            p = body = nl ? nl + 1 : end;
            continue;
        }
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
}

/* ---- the properties ---- */

/* Regular files ending in suffix at the world root or in Entities/ (the
 * two directories a world owns; anything deeper or elsewhere is not its). */
SCAFFOLD static uint32_t count_files(const char *suffix)
{
    uint32_t n = 0;
    size_t m = strlen(suffix);
    for (int i = 0; i < mem_top; i++) {
        const char *path = mem[i].path;
        size_t len = strlen(path), dir = (size_t)(parent_end(path) - path);
        bool owned_dir = (dir == sizeof ROOT - 1 && memcmp(path, ROOT, dir) == 0) ||
                         (dir == sizeof ROOT "/Entities" - 1 && memcmp(path, ROOT "/Entities", dir) == 0);
        if (path[0] && owned_dir && mem[i].kind == JL_FS_FILE && len >= m && strcmp(path + len - m, suffix) == 0) n++;
    }
    return n;
}

/* Snapshot of the entries that failed to load: they must survive the save
 * byte for byte. */
typedef struct kept_file {
    char path[MEM_PATH];
    char *data;
    size_t size;
} kept_file;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_register_classes();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    build_directory((const char *)data, size);
    const uint32_t jasset_files = count_files(".jasset");

    jl_world *a;
    jl_world_desc desc = {.capacity = 1024, .id_tag = 0x0f0f0f0fu, .fs = &mem_fs};
    FUZZ_ASSERT(jl_world_new(&desc, &a) == JL_OK);
    jl_status s = jl_world_load(a, ROOT);
    jl_error err;
    FUZZ_ASSERT(jl_manager_check(jl_world_manager(a), &err) == JL_OK);
    FUZZ_ASSERT(jl_world_count(a) <= jasset_files);
    FUZZ_ASSERT(count_files(".tmp") == 0);
    FUZZ_ASSERT((s == JL_OK) == (jl_world_diagnostic_count(a) == 0));
    for (uint32_t i = 0; i < jl_world_diagnostic_count(a); i++) {
        const jl_error *d = jl_world_diagnostic(a, i);
        FUZZ_ASSERT(d->status != JL_OK && d->message[0] != '\0');
    }
    jl_world_check_references(a);
    /* Files the world does not own: remember them as they are. */
    kept_file *kept = calloc(MEM_ENTRIES, sizeof *kept);
    FUZZ_ASSERT(kept);
    uint32_t kept_count = 0;
    for (int i = 0; i < mem_top; i++) {
        if (!mem[i].path[0] || mem[i].kind != JL_FS_FILE) continue;
        const char *name = parent_end(mem[i].path) + 1;
        uint64_t id = strtoull(name, NULL, 10);
        bool owned = false;
        for (jl_world_iter it = jl_world_iter_all(a); !owned && jl_world_next(&it);)
            owned = it.entity->id == id && !(it.entity->flags & JL_ENTITY_READ_ONLY);
        if (strcmp(mem[i].path, ROOT "/WorldSettings.jasset") == 0)
            owned = !(jl_world_settings_state(a) & (JL_SETTINGS_FAILED | JL_SETTINGS_READ_ONLY));
        if (owned) continue;
        kept_file *k = &kept[kept_count++];
        memcpy(k->path, mem[i].path, sizeof k->path);
        k->data = malloc(mem[i].size + 1);
        FUZZ_ASSERT(k->data);
        if (mem[i].size) memcpy(k->data, mem[i].data, mem[i].size);
        k->size = mem[i].size;
    }

    jl_world_mark_all_dirty(a);
    jl_save_report report;
    s = jl_world_save(a, ROOT, &report);
    if (s != JL_OK) {
        char line[1024];
        fprintf(stderr, "save failed: %s\n", jl_error_format(&report.error, line, sizeof line));
        FUZZ_ASSERT(s == JL_OK);
    }
    for (uint32_t i = 0; i < kept_count; i++) {
        mem_entry *e = mem_find(kept[i].path);
        FUZZ_ASSERT(e && e->kind == JL_FS_FILE && e->size == kept[i].size);
        FUZZ_ASSERT(kept[i].size == 0 || memcmp(e->data, kept[i].data, kept[i].size) == 0);
        free(kept[i].data);
    }
    free(kept);

    /* What was saved loads back to the same entities and texts. */
    jl_world *b;
    FUZZ_ASSERT(jl_world_new(&desc, &b) == JL_OK);
    jl_world_load(b, ROOT);
    FUZZ_ASSERT(jl_world_count(b) == jl_world_count(a));
    for (jl_world_iter it = jl_world_iter_all(a); jl_world_next(&it);) {
        const jl_entity *e = it.entity;
        FUZZ_ASSERT(jl_world_find(b, e->id) != NULL);
        const char *text;
        size_t text_size;
        FUZZ_ASSERT(jl_world_write_entity(a, e->id, &text, &text_size) == JL_OK);
        char *copy = malloc(text_size + 1);
        FUZZ_ASSERT(copy);
        memcpy(copy, text, text_size);
        copy[text_size] = '\0';
        const size_t copy_size = text_size;
        FUZZ_ASSERT(jl_world_write_entity(b, e->id, &text, &text_size) == JL_OK);
        if (!(text_size == copy_size && memcmp(copy, text, text_size) == 0)) {
            fprintf(stderr, "entity 0x%016llx:\n--- first load\n%s--- after save and reload\n%.*s",
                    (unsigned long long)e->id, copy, (int)text_size, text);
            FUZZ_ASSERT(!"a saved entity reloads with other text");
        }
        free(copy);
    }
    jl_world_free(b);
    jl_world_free(a);
    mem_reset();
    return 0;
}
