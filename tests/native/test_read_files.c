/* test_read_files.c - reading many files at once (jl_fs_read_files, which
 * the native table does on two threads) gives what reading each in turn
 * gives: the same bytes, stamps and errors, in the caller's arena, and a
 * world loaded so has the same entities and diagnostics, in the same order. */
#include "disk_util.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs_probe.h"
#include "juliet/world.h"
#include "test.h"
#include "world/world_internal.h" /* jli_world_init */

#define SAMPLE JULIET_ASSETS_DIR "/sample_world"
enum { FILES = 200, MAX = 1000 };

static char root[512];
static char paths[FILES][700];
static const char *path_of[FILES];

/* FILES paths in root: files of growing sizes, file 50 a directory, 60
 * nothing, 80 a file over MAX bytes. */
static bool make_files(void)
{
    if (!du_make_temp_dir(root, sizeof root, "read_files")) return false;
    char text[2 * MAX];
    for (int i = 0; i < FILES; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/%03d.txt", root, i);
        path_of[i] = paths[i];
        size_t size = i == 80 ? sizeof text : (size_t)(i * 7 % MAX);
        memset(text, 'a' + i % 26, size);
        if (i == 50 ? mkdir(paths[i], 0700) != 0 : i != 60 && !du_write(paths[i], text, size)) return false;
    }
    return true;
}

static bool in_arena(const jl_arena *arena, const char *p)
{
    return (const uint8_t *)p >= arena->base && (const uint8_t *)p < arena->base + arena->used;
}

/* out[from..to) is what read_file gives for each of those paths. */
static bool same_as_read_file(const jl_arena *arena, const jl_fs_read *out, uint32_t from, uint32_t to)
{
    const jl_fs *fs = jl_fs_native();
    jl_arena one = {0};
    CHECK_OR_FALSE(jl_arena_init(&one, 4 * MAX) == JL_OK);
    bool ok = true;
    for (uint32_t i = from; ok && i < to; i++) {
        char *data;
        size_t size;
        jl_fs_stamp stamp;
        int code = fs->read_file(fs, path_of[i], MAX, &one, &data, &size, &stamp);
        ok = out[i].code == code;
        if (ok && code == 0)
            ok = out[i].size == size && memcmp(out[i].data, data, size) == 0 && out[i].data[size] == '\0' &&
                 jl_fs_stamp_same(&out[i].stamp, &stamp) && in_arena(arena, out[i].data);
        if (!ok) printf("file %u: code %d, read_file's %d\n", i, out[i].code, code);
        jl_arena_pop_to(&one, 0);
    }
    jl_arena_release(&one);
    return ok;
}

TEST(reading_many_files_gives_what_reading_each_gives)
{
    bool ok = make_files();
    jl_arena arena = {0};
    static jl_fs_read out[FILES];
    ok = ok && jl_arena_init(&arena, 64u << 20) == JL_OK;
    uint32_t got = ok ? jl_fs_read_files(jl_fs_native(), path_of, FILES, MAX, SIZE_MAX, &arena, out) : 0;
    ok = ok && got == FILES && out[50].code == EISDIR && out[60].code == ENOENT && out[80].code == EFBIG &&
         same_as_read_file(&arena, out, 0, FILES);
    jl_arena_release(&arena);
    du_remove_tree(root);
    CHECK(ok);
}

TEST(a_read_of_many_files_stops_near_its_budget_and_the_rest_follows)
{
    bool ok = make_files();
    jl_arena arena = {0};
    static jl_fs_read out[FILES];
    ok = ok && jl_arena_init(&arena, 64u << 20) == JL_OK;
    uint32_t done = 0, reads = 0;
    while (ok && done < FILES) {
        uint32_t got = jl_fs_read_files(jl_fs_native(), path_of + done, FILES - done, MAX, 2 * MAX, &arena, out + done);
        ok = got >= 1 && got <= FILES - done;
        done += got;
        reads++;
    }
    printf("%u files in %u reads of about %d bytes\n", done, reads, 2 * MAX);
    ok = ok && reads > 2 && same_as_read_file(&arena, out, 0, FILES);
    jl_arena_release(&arena);
    du_remove_tree(root);
    CHECK(ok);
}

/* The IDs and the diagnostics of the world in dir loaded through fs, one
 * line each, into out. */
static bool describe_load(const char *dir, const jl_fs *fs, char *out, size_t size)
{
    jl_world w = {0};
    jl_world_desc d = {.capacity = 256, .fs = fs};
    CHECK_OR_FALSE(jli_world_init(&w, &d) == JL_OK);
    jl_world_load(&w, dir);
    size_t at = (size_t)snprintf(out, size, "%u entities\n", jl_world_count(&w));
    for (jl_entity *e = jl_entities_first(&w.manager); e && at < size; e = jl_entities_next(&w.manager, e))
        at += (size_t)snprintf(out + at, size - at, "%llu\n", (unsigned long long)e->id);
    char line[1200];
    for (uint32_t i = 0; i < jl_world_diagnostic_count(&w) && at < size; i++)
        at += (size_t)snprintf(out + at, size - at, "%s\n",
                               jl_error_format(jl_world_diagnostic(&w, i), line, sizeof line));
    jli_world_shutdown(&w);
    return at < size;
}

TEST(a_world_read_many_files_at_once_loads_as_one_read_a_file_at_a_time)
{
    char dir[600], path[800];
    bool ok = du_make_temp_dir(root, sizeof root, "read_files_world") && du_join(dir, sizeof dir, root, "world") &&
              du_copy_tree(SAMPLE, dir);
    /* Among the sample's 36 files, in the order listed: a folder, one of
     * them that does not parse now, a link to nothing, a temporary and a
     * README. */
    ok =
        ok && snprintf(path, sizeof path, "%s/Entities/8620766500065640455x.jasset", dir) > 0 && mkdir(path, 0700) == 0;
    ok = ok && snprintf(path, sizeof path, "%s/Entities/8620766500065640460.jasset", dir) > 0 &&
         du_write(path, "not = [ a world file", 20);
    ok = ok && snprintf(path, sizeof path, "%s/Entities/8620766500065640499.jasset", dir) > 0 &&
         symlink("nowhere.jasset", path) == 0;
    ok = ok && snprintf(path, sizeof path, "%s/Entities/8620766500065640451.jasset.tmp", dir) > 0 &&
         du_write(path, "x", 1);
    ok = ok && snprintf(path, sizeof path, "%s/Entities/README", dir) > 0 && du_write(path, "x", 1);
    probe_fs probe; /* read_file one file at a time */
    probe_init(&probe);
    static char at_once[1 << 16], one_by_one[1 << 16];
    ok = ok && describe_load(dir, jl_fs_native(), at_once, sizeof at_once) &&
         describe_load(dir, &probe.table, one_by_one, sizeof one_by_one);
    printf("%s", at_once);
    if (ok && strcmp(at_once, one_by_one) != 0) printf("read a file at a time:\n%s", one_by_one);
    ok = ok && strcmp(at_once, one_by_one) == 0 && strstr(at_once, "35 entities") &&
         strstr(at_once, "is a directory") && strstr(at_once, "8620766500065640460.jasset") &&
         strstr(at_once, "8620766500065640499.jasset");
    du_remove_tree(root);
    CHECK(ok);
}
