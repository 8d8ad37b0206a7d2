/* bench_persistence.c - the persistence figures of the persistence issue:
 *
 *   save_mem        100k entities written to memory as .jasset text
 *   load_mem        the same texts tokenized and deserialized in place
 *   save_mem_schema, load_mem_schema  the same for 100k entities of a class
 *                   from a class file with the sample Prop's fields
 *   save_mem_prop, load_mem_prop      the same values as the compiled Prop
 *   read_dir        10k files listed and read into memory, nothing else
 *   load_dir        the same directory loaded as a world (ratio to read_dir)
 *   save_all        10k entities saved, every one dirty (atomic writes)
 *   save_all_floor  the same bytes written to new files with one flush of
 *                   the disk (ratio to save_all): what no save can beat
 *   save_all_replace_floor  the same bytes put in place of existing files
 *                   as a save must (a temporary each, one flush, renames,
 *                   the directory synced): what no atomic save can beat
 *   save_one_dirty  the same world saved with one dirty entity
 *
 * Each figure is total time / n (ns per entity, report.h); each is the best
 * of several runs so a stray scheduler hiccup does not decide it. The 10k
 * world lives in a temporary directory that is removed at the end. */
#define _POSIX_C_SOURCE 200809L
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#define _GNU_SOURCE /* syncfs */
#define HAVE_SYNCFS 1
#endif
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "juliet/archive.h"
#include "juliet/class_file.h"
#include "juliet/class_registry.h"
#include "juliet/fs.h"
#include "juliet/platform.h"
#include "juliet/world.h"
#include "sample_world_gen.h"
#include "report.h"

enum { MEM_N = 100000, DIR_N = 10000, RUNS = 5 };

static uint64_t best(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* CPU time of this thread: on a shared machine the wall clock also counts
 * other processes' turns, so the memory figures print both. */
static uint64_t cpu_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void die(const char *what)
{
    fprintf(stderr, "bench_persistence: %s\n", what);
    exit(1);
}

/* ---- from memory ---- */

/* A world of capacity MEM_N; with class_dir, that world directory (its
 * Classes/ folder, no entity) is loaded first, so its class files are the
 * world's classes. */
static jl_world *memory_world(const jl_world_desc *desc, const char *class_dir)
{
    jl_world *w;
    if (jl_world_new(desc, &w) != JL_OK) die("world init failed");
    if (class_dir && (jl_world_load(w, class_dir) != JL_OK || jl_world_diagnostic_count(w))) die("class files failed");
    return w;
}

/* save_NAME: every entity of source appended to one buffer, one archive
 * each; load_NAME: the same texts tokenized and deserialized in place into
 * a fresh world (loaded from class_dir first, if not NULL). */
static void bench_texts(const char *save_name, const char *load_name, jl_world *source, const char *class_dir)
{
    jl_arena text_arena, offsets_arena;
    if (jl_arena_init(&text_arena, (size_t)512 << 20) != JL_OK ||
        jl_arena_init(&offsets_arena, (MEM_N + 1) * sizeof(size_t) + 4096) != JL_OK)
        die("out of memory");
    size_t *offsets = jl_arena_push(&offsets_arena, (MEM_N + 1) * sizeof(size_t), _Alignof(size_t));

    uint64_t save_ns = UINT64_MAX, save_cpu = UINT64_MAX;
    const char *all = NULL;
    for (int run = 0; run < RUNS; run++) {
        jl_arena_pop_to(&text_arena, 0);
        uint64_t c0 = cpu_now_ns();
        uint64_t t0 = jl_platform_now_ns();
        uint32_t i = 0;
        size_t total = 0;
        for (jl_world_iter it = jl_world_iter_all(source); jl_world_next(&it);) {
            const jl_entity *e = it.entity;
            jl_archive ar;
            jl_archive_begin_write(&ar, &text_arena);
            jl_archive_write_entity(&ar, e, NULL, 0);
            const char *text;
            size_t size;
            if (jl_archive_end_write(&ar, &text, &size) != JL_OK) die("write failed");
            if (i == 0) all = text;
            offsets[i++] = total;
            total += size;
        }
        offsets[i] = total;
        save_ns = best(save_ns, jl_platform_now_ns() - t0);
        save_cpu = best(save_cpu, cpu_now_ns() - c0);
    }
    bench_report(save_name, MEM_N, save_ns);
    bench_note("  cpu time %.1f ns/entity", (double)save_cpu / MEM_N);
    bench_note("  %.1f MB of .jasset text, %.0f bytes per entity", (double)offsets[MEM_N] / 1e6,
               (double)offsets[MEM_N] / MEM_N);

    /* The first run loads into memory new to the process; the others into
     * the memory of the world freed before it (jl_platform_release keeps
     * it), as a level loaded again does. */
    uint64_t load_ns = UINT64_MAX, load_cpu = UINT64_MAX, first_ns = 0;
    jl_platform_trim();
    for (int run = 0; run < RUNS; run++) {
        jl_world *w = memory_world(&(jl_world_desc){.capacity = MEM_N}, class_dir);
        uint64_t c0 = cpu_now_ns();
        uint64_t t0 = jl_platform_now_ns();
        for (uint32_t i = 0; i < MEM_N; i++) {
            if (jl_world_load_entity_text(w, NULL, all + offsets[i], offsets[i + 1] - offsets[i], false, NULL, NULL) !=
                JL_OK)
                die("load failed");
        }
        const uint64_t elapsed = jl_platform_now_ns() - t0;
        if (run == 0) first_ns = elapsed;
        load_ns = best(load_ns, elapsed);
        load_cpu = best(load_cpu, cpu_now_ns() - c0);
        bench_consume(jl_world_count(w));
        jl_world_free(w);
    }
    bench_report(load_name, MEM_N, load_ns);
    bench_note("  cpu time %.1f ns/entity", (double)load_cpu / MEM_N);
    bench_note("  first load, into memory new to the process: %.1f ns/entity", (double)first_ns / MEM_N);
    jl_arena_release(&text_arena);
    jl_arena_release(&offsets_arena);
}

static void bench_memory(void)
{
    jl_world *source;
    jl_world_desc desc = {.capacity = MEM_N, .id_tag = sample_world_gen_tag(7)};
    if (jl_world_new(&desc, &source) != JL_OK || sample_world_generate(source, MEM_N, 7) != JL_OK)
        die("cannot generate 100k entities");
    bench_texts("save_mem", "load_mem", source, NULL);
    jl_world_free(source);
}

/* ---- a class from a class file ---- */

static void remove_tree(const char *path);

/* Fills w with MEM_N entities of class_name (the fields of the sample's
 * Prop) holding varied values, written through the class's field table,
 * the way any tool sees a class. */
static void fill_props(jl_world *w, const char *class_name)
{
    const jl_class *cls = jl_world_class_find(w, class_name, strlen(class_name));
    if (!cls || cls->field_count != 5) die("no Prop-like class");
    uint64_t previous = 0;
    for (uint32_t i = 0; i < MEM_N; i++) {
        jl_entity *e;
        float x = (float)(i % 1000) * 0.25f, y = (float)(i % 37), z = -(float)(i % 611) * 0.5f;
        if (jl_world_create(w, class_name, x, y, z, &e) != JL_OK) die("create failed");
        char *d = e->derived;
        *(uint32_t *)(d + cls->fields[0].offset) = i % 3 ? i % 500 : JL_INDEX_MAX;
        *(float *)(d + cls->fields[1].offset) = 0.5f + (float)(i % 7) * 0.25f;
        *(bool *)(d + cls->fields[2].offset) = i % 3 == 0;
        if (i % 4 == 0)
            *(jl_vec3 *)(d + cls->fields[3].offset) = (jl_vec3){(float)(i % 5) * 0.5f, 0.0f, -(float)(i % 3)};
        *(uint64_t *)(d + cls->fields[4].offset) = i % 3 == 0 ? previous : 0;
        previous = e->id;
    }
}

/* save_mem_schema / load_mem_schema: 100k entities of PropData, a class
 * that exists only as a class file (the sample Prop's fields), through
 * the same reader and writer; save_mem_prop / load_mem_prop: the very same
 * values as the compiled Prop, for a like-for-like ratio. */
static void bench_schema(void)
{
    char dir[] = "/tmp/juliet-bench-schema-XXXXXX";
    if (!mkdtemp(dir)) die("cannot make a temporary directory");
    jl_arena arena;
    if (jl_arena_init(&arena, (size_t)1 << 20) != JL_OK) die("out of memory");
    const char *text;
    size_t size;
    if (jl_class_file_text(jl_class_find_by_name("Prop", 4), &arena, &text, &size, NULL) != JL_OK)
        die("no Prop class file");
    /* The same file under another name: compiled Prop would win over it. */
    static const char name_line[] = "; name\nProp\n";
    const char *at = strstr(text, name_line);
    if (!at) die("unexpected class file");
    char renamed[4096];
    int n = snprintf(renamed, sizeof renamed, "%.*s; name\nPropData\n%s", (int)(at - text), text,
                     at + sizeof name_line - 1);
    char classes[512];
    snprintf(classes, sizeof classes, "%s/Classes", dir);
    if (mkdir(classes, 0755) != 0) die("cannot make Classes/");
    jl_error err;
    if (jl_class_file_save(jl_fs_native(), dir, "PropData", renamed, (size_t)n, &arena, NULL, &err) != JL_OK)
        die("cannot write the class file");
    jl_arena_release(&arena);

    jl_world_desc desc = {.capacity = MEM_N, .id_tag = sample_world_gen_tag(9)};
    jl_world *file_source = memory_world(&desc, dir);
    fill_props(file_source, "PropData");
    bench_texts("save_mem_schema", "load_mem_schema", file_source, dir);
    jl_world_free(file_source);

    jl_world *compiled_source = memory_world(&desc, NULL);
    fill_props(compiled_source, "Prop");
    bench_texts("save_mem_prop", "load_mem_prop", compiled_source, NULL);
    jl_world_free(compiled_source);
    remove_tree(dir);
}

/* ---- from a directory ---- */

static void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (!d) {
        unlink(path);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char child[1024];
        snprintf(child, sizeof child, "%.500s/%.500s", path, e->d_name);
        remove_tree(child);
    }
    closedir(d);
    rmdir(path);
}

/* Lists Entities/ and reads every file, as the loader does, minus parsing. */
static uint64_t read_everything(const char *dir, jl_arena *arena)
{
    const jl_fs *fs = jl_fs_native();
    char entities[512], path[1024];
    snprintf(entities, sizeof entities, "%s/Entities", dir);
    jl_arena_pop_to(arena, 0);
    jl_fs_entry *list;
    uint32_t n;
    if (fs->list_dir(fs, entities, arena, &list, &n)) die("cannot list the world");
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < n; i++) {
        size_t mark = arena->used;
        jl_fs_join(path, sizeof path, entities, list[i].name);
        char *data;
        size_t size;
        if (fs->read_file(fs, path, SIZE_MAX, arena, &data, &size, NULL)) die("cannot read a file");
        bytes += size;
        jl_arena_pop_to(arena, mark);
    }
    return bytes;
}

/* The file texts of every entity of w, for write_floor: n (id, offset,
 * size) triples and the bytes, in arena. */
typedef struct floor_file {
    uint64_t id;
    size_t at, size;
} floor_file;

static floor_file *floor_texts(jl_world *w, jl_arena *arena, uint32_t *n)
{
    jl_arena_pop_to(arena, 0);
    floor_file *files = jl_arena_push(arena, (size_t)jl_world_count(w) * sizeof *files, _Alignof(floor_file));
    if (!files) die("out of memory");
    uint32_t i = 0;
    for (jl_world_iter it = jl_world_iter_all(w); jl_world_next(&it);) {
        const char *text;
        size_t size;
        if (jl_world_write_entity(w, it.entity->id, &text, &size) != JL_OK) die("cannot write an entity");
        char *copy = jl_arena_push(arena, size, 1);
        if (!copy) die("out of memory");
        memcpy(copy, text, size);
        files[i++] = (floor_file){.id = it.entity->id, .at = (size_t)(copy - (char *)arena->base), .size = size};
    }
    *n = i;
    return files;
}

static void sync_fd(int fd)
{
    if (fsync(fd) != 0) die("fsync failed");
}

/* Writes file's bytes to a new file at path; fsyncs it where there is no
 * syncfs to flush them all at once. */
static void write_new(const char *path, floor_file file, const jl_arena *arena)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) die("cannot create a file");
    const char *p = (const char *)arena->base + file.at;
    for (size_t left = file.size; left;) {
        ssize_t k = write(fd, p, left);
        if (k <= 0) die("cannot write a file");
        p += k;
        left -= (size_t)k;
    }
#ifndef HAVE_SYNCFS
    sync_fd(fd);
#endif
    close(fd);
}

/* save_all_floor: the same bytes as save_all written to new files of a
 * new directory dir (no temporaries, renames or checks), then made durable
 * with one flush of the file system (syncfs; an fsync of each file where
 * there is none) and one sync of each directory. Returns the time taken. */
static uint64_t write_floor(const char *dir, const floor_file *files, uint32_t n, const jl_arena *arena)
{
    char entities[512], path[1024];
    snprintf(entities, sizeof entities, "%s/Entities", dir);
    uint64_t t0 = jl_platform_now_ns();
    if (mkdir(dir, 0755) != 0 || mkdir(entities, 0755) != 0) die("cannot create the floor's directory");
    for (uint32_t i = 0; i < n; i++) {
        if (!jl_world_entity_path(path, sizeof path, dir, files[i].id)) die("path too long");
        write_new(path, files[i], arena);
    }
    int root = open(dir, O_RDONLY), sub = open(entities, O_RDONLY);
    if (root < 0 || sub < 0) die("cannot open the floor's directory");
#ifdef HAVE_SYNCFS
    if (syncfs(sub) != 0) die("syncfs failed");
#endif
    sync_fd(sub);
    sync_fd(root);
    close(sub);
    close(root);
    return jl_platform_now_ns() - t0;
}

/* save_all_replace_floor: the same bytes put in place of the files
 * write_floor made in dir, as an atomic save must: each written to a
 * temporary beside its file, one flush of the file system (or an fsync of
 * each), each renamed over its file, the directory synced. Nothing is read
 * or checked. Returns the time taken. */
static uint64_t replace_floor(const char *dir, const floor_file *files, uint32_t n, const jl_arena *arena)
{
    char entities[512], path[1024], temp[1040];
    snprintf(entities, sizeof entities, "%s/Entities", dir);
    uint64_t t0 = jl_platform_now_ns();
    for (uint32_t i = 0; i < n; i++) {
        if (!jl_world_entity_path(path, sizeof path, dir, files[i].id)) die("path too long");
        snprintf(temp, sizeof temp, "%s.new", path);
        write_new(temp, files[i], arena);
    }
    int sub = open(entities, O_RDONLY);
    if (sub < 0) die("cannot open the floor's directory");
#ifdef HAVE_SYNCFS
    if (syncfs(sub) != 0) die("syncfs failed");
#endif
    for (uint32_t i = 0; i < n; i++) {
        if (!jl_world_entity_path(path, sizeof path, dir, files[i].id)) die("path too long");
        snprintf(temp, sizeof temp, "%s.new", path);
        if (rename(temp, path) != 0) die("cannot rename a file");
    }
    sync_fd(sub);
    close(sub);
    return jl_platform_now_ns() - t0;
}

static void bench_directory(void)
{
    char dir[] = "/tmp/juliet_bench_XXXXXX";
    if (!mkdtemp(dir)) die("cannot create a temporary directory");
    {
        jl_world *w;
        jl_world_desc desc = {.id_tag = sample_world_gen_tag(11)};
        if (jl_world_new(&desc, &w) != JL_OK || sample_world_generate(w, DIR_N, 11) != JL_OK) die("cannot generate");
        if (jl_world_save(w, dir, NULL) != JL_OK) die("cannot save the 10k world");
        jl_world_free(w);
    }
    jl_arena arena;
    if (jl_arena_init(&arena, (size_t)64 << 20) != JL_OK) die("out of memory");

    /* Warm the page cache once, then alternate the two measurements. */
    bench_consume(read_everything(dir, &arena));
    uint64_t read_ns = UINT64_MAX, load_ns = UINT64_MAX;
    for (int run = 0; run < RUNS; run++) {
        uint64_t t0 = jl_platform_now_ns();
        bench_consume(read_everything(dir, &arena));
        read_ns = best(read_ns, jl_platform_now_ns() - t0);

        jl_world *w;
        if (jl_world_new(NULL, &w) != JL_OK) die("world init failed");
        t0 = jl_platform_now_ns();
        if (jl_world_load(w, dir) != JL_OK || jl_world_count(w) != DIR_N) die("load failed");
        load_ns = best(load_ns, jl_platform_now_ns() - t0);
        jl_world_free(w);
    }
    bench_report("read_dir", DIR_N, read_ns);
    bench_report("load_dir", DIR_N, load_ns);
    bench_note("  load_dir / read_dir = %.2f (target <= 1.5)", (double)load_ns / (double)read_ns);

    /* Saves: everything dirty, then one dirty entity. */
    jl_world *w;
    if (jl_world_new(NULL, &w) != JL_OK || jl_world_load(w, dir) != JL_OK) die("load failed");

    /* The floor first, in directories beside the world: on an ext4 without
     * a journal, creating files skips every inode freed in the last 30 s,
     * so after the saves' renames freed 10,000 the floor's creates would
     * pay for them. The floor deletes nothing until the end. */
    uint32_t floor_n = 0;
    const floor_file *files = floor_texts(w, &arena, &floor_n);
    char floor_base[] = "/tmp/juliet_floor_XXXXXX", floor_dir[64];
    if (!mkdtemp(floor_base)) die("cannot create a temporary directory");
    uint64_t floor_ns = UINT64_MAX, replace_ns = UINT64_MAX;
    for (int run = 0; run < 2; run++) {
        snprintf(floor_dir, sizeof floor_dir, "%s/%d", floor_base, run);
        floor_ns = best(floor_ns, write_floor(floor_dir, files, floor_n, &arena));
    }
    uint64_t all_ns = UINT64_MAX, one_ns = UINT64_MAX;
    uint32_t one_written = 0;
    for (int run = 0; run < 2; run++) {
        jl_world_mark_all_dirty(w);
        jl_save_report report;
        uint64_t t0 = jl_platform_now_ns();
        if (jl_world_save(w, dir, &report) != JL_OK) die("save failed");
        all_ns = best(all_ns, jl_platform_now_ns() - t0);
    }
    /* After the saves, as each of them after another's renames: a rename
     * over a file frees the old one's blocks, which the next writes pay. */
    for (int run = 0; run < 2; run++) {
        snprintf(floor_dir, sizeof floor_dir, "%s/%d", floor_base, run);
        replace_ns = best(replace_ns, replace_floor(floor_dir, files, floor_n, &arena));
    }
    for (int run = 0; run < RUNS; run++) {
        jl_world_iter it = jl_world_iter_all(w);
        for (int k = 0; k <= run * 97; k++) jl_world_next(&it);
        jl_entity *e = it.entity;
        jl_entity_set_position(e, (float)run, 1, 2);
        jl_save_report report;
        uint64_t t0 = jl_platform_now_ns();
        if (jl_world_save(w, dir, &report) != JL_OK) die("save failed");
        one_ns = best(one_ns, jl_platform_now_ns() - t0);
        one_written = report.written_count;
    }
    bench_report("save_all", DIR_N, all_ns);
    bench_report("save_all_floor", DIR_N, floor_ns);
    bench_note("  save_all / save_all_floor = %.2f (the same bytes written to new files with one flush)",
               (double)all_ns / (double)floor_ns);
    bench_report("save_all_replace_floor", DIR_N, replace_ns);
    bench_note(
        "  save_all / save_all_replace_floor = %.2f (the same bytes put in place of existing files: "
        "temporaries, one flush, renames)",
        (double)all_ns / (double)replace_ns);
    bench_report("save_one_dirty", DIR_N, one_ns);
    bench_note("  one dirty entity: %u file written, %.3f%% of a full save (target <= 1%%)", one_written,
               100.0 * (double)one_ns / (double)all_ns);
    jl_world_free(w);
    jl_arena_release(&arena);
    remove_tree(dir);
    remove_tree(floor_base);
}

int main(int argc, char **argv)
{
    bench_init(argc, argv);
    if (bench_wants("save_mem load_mem")) bench_memory();
    if (bench_wants("save_mem_schema load_mem_schema save_mem_prop load_mem_prop")) bench_schema();
    if (bench_wants("read_dir load_dir save_all save_all_floor save_all_replace_floor save_one_dirty"))
        bench_directory();
    return 0;
}
