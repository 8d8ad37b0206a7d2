/* test_disk_checks.c - a save replaces or deletes a file only while it is
 * the version the world read or wrote (world_disk.c): another program's
 * change that lands between a load and a save, or during a save, is a
 * conflict, left alone and reported, never overwritten. */
#include "disk_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fs_probe.h"
#include "juliet/platform.h"
#include "juliet/world.h"
#include "juliet/world_lock.h"
#include "test.h"
#include "world/world_internal.h" /* jli_world_init: worlds embedded in the tests */

#define SAMPLE JULIET_ASSETS_DIR "/sample_world"

static char root[512], dir[600];

static bool sample_copy(const char *label)
{
    return du_make_temp_dir(root, sizeof root, label) && du_join(dir, sizeof dir, root, "world") &&
           du_copy_tree(SAMPLE, dir);
}

static bool finish(bool ok)
{
    du_remove_tree(root);
    return ok;
}

/* The path of entity id's file in dir. */
static void entity_path(char *out, size_t size, uint64_t id)
{
    jl_world_entity_path(out, size, dir, id);
}

/* Replaces the file at path as `git checkout` does: a new file renamed over it. */
static bool replace_on_disk(const char *path, const char *text)
{
    char temp[800];
    snprintf(temp, sizeof temp, "%s.outside", path);
    return du_write(temp, text, strlen(text)) && rename(temp, path) == 0;
}

static bool file_is(const char *path, const char *text)
{
    size_t size = 0;
    char *now = du_read(path, &size);
    bool same = now && size == strlen(text) && memcmp(now, text, size) == 0;
    free(now);
    return same;
}

/* Sets every entity's position to x 0 0 (all dirty). */
static bool move_all(jl_world *w, const char *x)
{
    bool ok = true;
    char value[32];
    int n = snprintf(value, sizeof value, "%s 0 0", x);
    for (jl_entity *e = jl_entities_first(&w->manager); ok && e; e = jl_entities_next(&w->manager, e))
        ok = jl_world_set_field(w, e->id, "position", value, (size_t)n, NULL) == JL_OK;
    return ok;
}

/* *w loaded from dir; *id its first entity, path that entity's file. */
static bool load_first(jl_world *w, uint64_t *id, char *path, size_t size)
{
    jl_world_desc d = {.capacity = 256};
    bool ok = jli_world_init(w, &d) == JL_OK && jl_world_load(w, dir) == JL_OK && jl_world_count(w) > 0;
    *id = ok ? jl_entities_first(&w->manager)->id : 0;
    if (ok) entity_path(path, size, *id);
    return ok;
}

static bool reported(const jl_save_report *r, const char *path)
{
    for (uint32_t i = 0; i < r->conflict_count; i++)
        if (strcmp(r->conflicts[i], path) == 0) return true;
    return false;
}

/* ---- during a save ---- */

/* The probe of a save that another program races: at the save's first
 * rename, two entity files it has yet to write are replaced on disk. */
static struct {
    probe_fs probe;
    char victims[2][800];
    bool replaced;
} race;

static int racing_rename(const jl_fs *fs, const char *from, const char *to)
{
    if (!race.replaced) {
        race.replaced = true;
        for (int i = 0; i < 2; i++)
            if (!replace_on_disk(race.victims[i], "; replaced by another program\n")) return EIO;
    }
    return probe_rename(fs, from, to);
}

TEST(a_file_replaced_on_disk_during_a_save_is_a_conflict_left_alone_and_still_pending)
{
    CHECK(sample_copy("race"));
    probe_init(&race.probe);
    race.probe.table.rename = racing_rename;
    race.replaced = false;
    jl_world w;
    jl_world_desc d = {.capacity = 256, .fs = &race.probe.table};
    bool ok = jli_world_init(&w, &d) == JL_OK && jl_world_load(&w, dir) == JL_OK && move_all(&w, "7");
    /* The last two entities of the save's order: written after the first rename. */
    uint64_t ids[2] = {0, 0};
    for (jl_entity *e = jl_entities_first(&w.manager); e; e = jl_entities_next(&w.manager, e)) {
        ids[0] = ids[1];
        ids[1] = e->id;
    }
    entity_path(race.victims[0], sizeof race.victims[0], ids[0]);
    entity_path(race.victims[1], sizeof race.victims[1], ids[1]);
    jl_save_report r;
    jl_status s = ok ? jl_world_save(&w, dir, &r) : JL_ERR_INVARIANT;
    ok = ok && s == JL_ERR_CONFLICT && r.conflict_count == 2 && reported(&r, race.victims[0]) &&
         reported(&r, race.victims[1]) && r.written_count == jl_world_count(&w) - 2 &&
         r.error.status == JL_ERR_CONFLICT && strstr(r.error.message, "changed on disk since this world read it") &&
         strstr(r.error.message, "not overwritten");
    if (!ok) fprintf(stderr, "status %s, %u conflicts, %u written: %s\n", jl_status_name(s), r.conflict_count,
                     r.written_count, r.error.message);
    /* The other program's files are as it left them; the edits stay pending. */
    ok = ok && file_is(race.victims[0], "; replaced by another program\n") &&
         file_is(race.victims[1], "; replaced by another program\n") && jl_world_find(&w, ids[0])->is_dirty &&
         jl_world_find(&w, ids[1])->is_dirty;
    /* And the next save says so again, writing nothing over them. */
    ok = ok && jl_world_save(&w, dir, &r) == JL_ERR_CONFLICT && r.conflict_count == 2 && r.written_count == 0 &&
         file_is(race.victims[1], "; replaced by another program\n");
    jli_world_shutdown(&w);
    CHECK(finish(ok));
}

/* ---- between a load and a save ---- */

/* Two worlds of one directory: a (loaded first, as `juliet fmt` loads)
 * and b, which saves an edit before a does. */
TEST(a_save_that_landed_after_the_load_is_never_reverted_by_a_full_rewrite)
{
    CHECK(sample_copy("fmt"));
    jl_world a, b;
    jl_world_desc d = {.capacity = 256};
    bool ok = jli_world_init(&a, &d) == JL_OK && jl_world_load(&a, dir) == JL_OK;
    ok = ok && jli_world_init(&b, &d) == JL_OK && jl_world_load(&b, dir) == JL_OK;
    uint64_t id = jl_entities_first(&b.manager)->id;
    char path[800];
    entity_path(path, sizeof path, id);
    jl_save_report r;
    ok = ok && jl_world_set_field(&b, id, "position", "9 9 9", 5, NULL) == JL_OK &&
         jl_world_save(&b, dir, &r) == JL_OK && r.written_count == 1;
    size_t size;
    char *saved = du_read(path, &size);
    /* a rewrites everything it read: all but b's file. */
    jl_world_mark_all_dirty(&a);
    ok = ok && saved && jl_world_save(&a, dir, &r) == JL_ERR_CONFLICT && r.conflict_count == 1 &&
         reported(&r, path) && r.written_count == jl_world_count(&a) /* the settings too */;
    if (!ok) fprintf(stderr, "%u conflicts, %u written: %s\n", r.conflict_count, r.written_count, r.error.message);
    ok = ok && file_is(path, saved ? saved : "");
    free(saved);
    jli_world_shutdown(&a);
    jli_world_shutdown(&b);
    CHECK(finish(ok));
}

TEST(a_file_deleted_on_disk_since_the_load_is_not_written_back)
{
    CHECK(sample_copy("deleted"));
    jl_world w;
    uint64_t id;
    char path[800];
    bool ok = load_first(&w, &id, path, sizeof path);
    jl_save_report r;
    ok = ok && jl_world_set_field(&w, id, "position", "1 2 3", 5, NULL) == JL_OK && unlink(path) == 0 &&
         jl_world_save(&w, dir, &r) == JL_ERR_CONFLICT && r.conflict_count == 1 &&
         strstr(r.error.message, "deleted on disk") && !du_exists(path);
    jli_world_shutdown(&w);
    CHECK(finish(ok));
}

TEST(a_deletion_of_a_file_changed_on_disk_is_a_conflict_and_stays_pending)
{
    CHECK(sample_copy("delete"));
    jl_world w;
    uint64_t id;
    char path[800];
    bool ok = load_first(&w, &id, path, sizeof path);
    jl_save_report r;
    ok = ok && jl_world_remove(&w, id) == JL_OK && replace_on_disk(path, "; rewritten elsewhere\n") &&
         jl_world_save(&w, dir, &r) == JL_ERR_CONFLICT && r.conflict_count == 1 && r.deleted_count == 0 &&
         strstr(r.error.message, "not deleted") && file_is(path, "; rewritten elsewhere\n");
    /* Still pending: the next save says so again. */
    ok = ok && jl_world_save(&w, dir, &r) == JL_ERR_CONFLICT && r.conflict_count == 1;
    jli_world_shutdown(&w);
    CHECK(finish(ok));
}

TEST(a_removal_undone_keeps_the_file_it_read_and_checks_it)
{
    CHECK(sample_copy("undo"));
    jl_world w;
    uint64_t id;
    char path[800];
    bool ok = load_first(&w, &id, path, sizeof path);
    size_t size;
    char *text = du_read(path, &size);
    jl_save_report r;
    /* Removed, back (an undo), edited: its file is still the one read. */
    ok = ok && text && jl_world_remove(&w, id) == JL_OK &&
         jl_world_restore_entity_text(&w, id, text, size, NULL) == JL_OK &&
         jl_world_set_field(&w, id, "position", "4 4 4", 5, NULL) == JL_OK &&
         replace_on_disk(path, "; rewritten elsewhere\n") && jl_world_save(&w, dir, &r) == JL_ERR_CONFLICT &&
         r.conflict_count == 1 && file_is(path, "; rewritten elsewhere\n");
    free(text);
    jli_world_shutdown(&w);
    CHECK(finish(ok));
}

/* ---- what the stamp cannot tell ---- */

TEST(a_write_in_place_that_keeps_the_stamp_is_caught_by_the_bytes)
{
    CHECK(sample_copy("racy"));
    jl_world w;
    uint64_t id;
    char path[800];
    bool ok = load_first(&w, &id, path, sizeof path);
    /* Same inode, same size, the old modification time put back: only the
     * bytes differ (a write within the same clock tick looks like this). */
    struct stat st;
    size_t size;
    char *text = du_read(path, &size);
    ok = ok && text && stat(path, &st) == 0;
    if (ok) {
        char *p = strstr(text, "; position\n");
        if (p) p[strlen("; position\n")] = p[strlen("; position\n")] == '9' ? '8' : '9';
        int fd = open(path, O_WRONLY);
        ok = p && fd >= 0 && write(fd, text, size) == (ssize_t)size;
        if (fd >= 0) close(fd);
        struct timespec times[2] = {st.st_atim, st.st_mtim};
        ok = ok && utimensat(AT_FDCWD, path, times, 0) == 0;
    }
    jl_save_report r = {0};
    if (!ok) fprintf(stderr, "could not write %s in place with its old time\n", path);
    ok = ok && jl_world_set_field(&w, id, "position", "5 5 5", 5, NULL) == JL_OK &&
         jl_world_save(&w, dir, &r) == JL_ERR_CONFLICT && r.conflict_count == 1 && file_is(path, text);
    if (!ok) fprintf(stderr, "save: %s (%u conflicts)\n", r.error.message, r.conflict_count);
    free(text);
    jli_world_shutdown(&w);
    CHECK(finish(ok));
}

TEST(a_file_touched_with_the_same_bytes_is_written)
{
    CHECK(sample_copy("touch"));
    jl_world w;
    uint64_t id;
    char path[800];
    bool ok = load_first(&w, &id, path, sizeof path);
    size_t size;
    char *text = du_read(path, &size);
    /* A checkout that wrote the same bytes: a new inode, a new time. */
    jl_save_report r;
    ok = ok && text && replace_on_disk(path, text) && jl_world_set_field(&w, id, "position", "6 6 6", 5, NULL) == JL_OK &&
         jl_world_save(&w, dir, &r) == JL_OK && r.written_count == 1 && r.conflict_count == 0;
    free(text);
    jli_world_shutdown(&w);
    CHECK(finish(ok));
}

TEST(a_file_saved_then_changed_elsewhere_is_a_conflict_at_the_next_save)
{
    CHECK(sample_copy("resave"));
    jl_world w;
    uint64_t id;
    char path[800];
    bool ok = load_first(&w, &id, path, sizeof path);
    jl_save_report r;
    ok = ok && jl_world_set_field(&w, id, "position", "1 1 1", 5, NULL) == JL_OK &&
         jl_world_save(&w, dir, &r) == JL_OK && replace_on_disk(path, "; after our save\n") &&
         jl_world_set_field(&w, id, "position", "2 2 2", 5, NULL) == JL_OK &&
         jl_world_save(&w, dir, &r) == JL_ERR_CONFLICT && file_is(path, "; after our save\n");
    jli_world_shutdown(&w);
    CHECK(finish(ok));
}

TEST(reload_file_takes_the_version_the_caller_saw_or_refuses_another)
{
    CHECK(sample_copy("reload"));
    jl_world w;
    uint64_t id;
    char path[800], name[64];
    bool ok = load_first(&w, &id, path, sizeof path);
    snprintf(name, sizeof name, "Entities/%s", strrchr(path, '/') + 1);
    size_t size;
    char *text = du_read(path, &size);
    char *edited = text ? strdup(text) : NULL;
    char *p = edited ? strstr(edited, "; position\n") : NULL;
    if (p) p[strlen("; position\n")] = p[strlen("; position\n")] == '9' ? '8' : '9';
    /* Another program's edit, which the caller saw: taken, then saved over. */
    jl_save_report r;
    jl_error err;
    ok = ok && p && replace_on_disk(path, edited) &&
         jl_world_reload_file(&w, dir, name, edited, size, NULL, &err) == JL_OK &&
         !jl_world_find(&w, id)->is_dirty && jl_world_set_field(&w, id, "position", "3 3 3", 5, NULL) == JL_OK &&
         jl_world_save(&w, dir, &r) == JL_OK && r.written_count == 1;
    /* A version the caller did not see: refused, the world unchanged. */
    ok = ok && replace_on_disk(path, text) &&
         jl_world_reload_file(&w, dir, name, edited, size, NULL, &err) == JL_ERR_CONFLICT &&
         strstr(err.message, "changed on disk");
    free(text);
    free(edited);
    jli_world_shutdown(&w);
    CHECK(finish(ok));
}

/* ---- the lock and the leftovers of dead processes ---- */

TEST(a_new_worlds_leftover_of_a_dead_process_is_removed_and_a_live_ones_kept)
{
    CHECK(du_make_temp_dir(root, sizeof root, "leftover"));
    du_join(dir, sizeof dir, root, "world");
    char dead[700], live[700], file[800];
    /* pid 0x7ffffffe is above any pid_max: no process has it. */
    snprintf(dead, sizeof dead, "%s/.world.2147483646-1.new", root);
    /* This process's own: a save of it in progress. */
    snprintf(live, sizeof live, "%s/.world.%u-1.new", root, (unsigned)jl_platform_pid());
    snprintf(file, sizeof file, "%s/WorldSettings.jasset", dead);
    bool ok = mkdir(dead, 0755) == 0 && du_write(file, "x", 1) && mkdir(live, 0755) == 0;
    jl_world w;
    jl_world_desc d = {.capacity = 16};
    jl_save_report r;
    ok = ok && jli_world_init(&w, &d) == JL_OK && jl_world_create(&w, "Prop", 1, 2, 3, NULL) == JL_OK &&
         jl_world_save_new(&w, dir, &r) == JL_OK;
    ok = ok && !du_exists(dead) && du_exists(live) && du_exists(dir);
    jli_world_shutdown(&w);
    CHECK(finish(ok));
}

TEST(a_save_after_a_save_whose_process_was_killed_takes_the_lock_over)
{
#ifdef __EMSCRIPTEN__
    printf("skipped: no fork() in wasm\n");
#else
    CHECK(sample_copy("killed"));
    /* A holder that took the lock and died without letting it go. */
    pid_t child = fork();
    if (child == 0) {
        jl_arena scratch;
        jl_world_lock lock;
        if (jl_arena_init(&scratch, 1 << 16) != JL_OK ||
            jl_world_lock_acquire(&lock, jl_fs_native(), dir, 0, &scratch, NULL) != JL_OK)
            _exit(1);
        raise(SIGKILL);
    }
    int status = 0;
    bool ok = child > 0 && waitpid(child, &status, 0) == child && WIFSIGNALED(status);
    char lock_path[700];
    du_join(lock_path, sizeof lock_path, dir, JL_WORLD_LOCK_NAME);
    ok = ok && du_exists(lock_path);
    jl_world w;
    jl_world_desc d = {.capacity = 256};
    jl_save_report r;
    ok = ok && jli_world_init(&w, &d) == JL_OK && jl_world_load(&w, dir) == JL_OK && move_all(&w, "2") &&
         jl_world_save(&w, dir, &r) == JL_OK && strstr(r.notice, "no longer running") && !du_exists(lock_path);
    if (!ok) fprintf(stderr, "save: %s\n", r.error.message);
    jli_world_shutdown(&w);
    CHECK(finish(ok));
#endif
}
