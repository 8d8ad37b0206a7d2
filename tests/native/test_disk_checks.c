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
static void entity_path(char *out, size_t size, uint64_t id) { jl_world_entity_path(out, size, dir, id); }

/* Replaces the file at path as `git checkout` does: a new file renamed over it. */
static bool replace_on_disk(const char *path, const char *text)
{
    char temp[800];
    snprintf(temp, sizeof temp, "%s.outside", path);
    return du_write(temp, text, strlen(text)) && rename(temp, path) == 0;
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

/* *w initialised and loaded from dir through fs (NULL: the native one). */
static bool load(jl_world *w, const jl_fs *fs)
{
    jl_world_desc d = {.capacity = 256, .fs = fs};
    return jli_world_init(w, &d) == JL_OK && jl_world_load(w, dir) == JL_OK;
}

/* A copy of the sample world loaded: its first entity, that entity's file
 * and the bytes the file held after the load. */
typedef struct {
    jl_world w;
    uint64_t id;
    char path[800];
    char *text; /* malloc'd; freed by unload */
    size_t size;
} loaded;

/* *f loaded from a fresh copy of the sample (sample_copy(label)); false if
 * any step failed. The world is initialised first, so that unload(f) ends
 * the test either way. */
static bool load_first(loaded *f, const char *label)
{
    jl_world_desc d = {.capacity = 256};
    f->id = 0;
    f->path[0] = '\0';
    f->text = NULL;
    f->size = 0;
    bool ok = jli_world_init(&f->w, &d) == JL_OK && sample_copy(label) && jl_world_load(&f->w, dir) == JL_OK &&
              jl_world_count(&f->w) > 0;
    if (ok) {
        f->id = jl_entities_first(&f->w.manager)->id;
        entity_path(f->path, sizeof f->path, f->id);
        f->text = du_read(f->path, &f->size);
    }
    return ok && f->text;
}

/* The end of a test on *f: its world shut down, its text freed, root
 * removed; returns ok. */
static bool unload(loaded *f, bool ok)
{
    free(f->text);
    jli_world_shutdown(&f->w);
    return finish(ok);
}

/* Sets the position of f's entity (it becomes dirty). */
static bool set_position(loaded *f, const char *value)
{
    return jl_world_set_field(&f->w, f->id, "position", value, strlen(value), NULL) == JL_OK;
}

/* Changes one digit of the position in an entity file's text: other bytes
 * of the same size. False if the text has no position. */
static bool change_position_digit(char *text)
{
    char *p = text ? strstr(text, "; position\n") : NULL;
    if (!p) return false;
    p += strlen("; position\n");
    *p = *p == '9' ? '8' : '9';
    return true;
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
    bool ok = load(&w, &race.probe.table) && move_all(&w, "7");
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
    if (!ok)
        fprintf(stderr, "status %s, %u conflicts, %u written: %s\n", jl_status_name(s), r.conflict_count,
                r.written_count, r.error.message);
    /* The other program's files are as it left them; the edits stay pending. */
    ok = ok && du_file_is(race.victims[0], "; replaced by another program\n") &&
         du_file_is(race.victims[1], "; replaced by another program\n") && jl_world_find(&w, ids[0])->is_dirty &&
         jl_world_find(&w, ids[1])->is_dirty;
    /* And the next save says so again, writing nothing over them. */
    ok = ok && jl_world_save(&w, dir, &r) == JL_ERR_CONFLICT && r.conflict_count == 2 && r.written_count == 0 &&
         du_file_is(race.victims[1], "; replaced by another program\n");
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
    bool ok = load(&a, NULL) && load(&b, NULL);
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
    ok = ok && saved && jl_world_save(&a, dir, &r) == JL_ERR_CONFLICT && r.conflict_count == 1 && reported(&r, path) &&
         r.written_count == jl_world_count(&a) /* the settings too */;
    if (!ok) fprintf(stderr, "%u conflicts, %u written: %s\n", r.conflict_count, r.written_count, r.error.message);
    ok = ok && du_file_is(path, saved ? saved : "");
    free(saved);
    jli_world_shutdown(&a);
    jli_world_shutdown(&b);
    CHECK(finish(ok));
}

TEST(a_file_deleted_on_disk_since_the_load_is_not_written_back)
{
    loaded f;
    bool ok = load_first(&f, "deleted");
    jl_save_report r;
    ok = ok && set_position(&f, "1 2 3") && unlink(f.path) == 0 && jl_world_save(&f.w, dir, &r) == JL_ERR_CONFLICT &&
         r.conflict_count == 1 && strstr(r.error.message, "deleted on disk") && !du_exists(f.path);
    CHECK(unload(&f, ok));
}

TEST(a_deletion_of_a_file_changed_on_disk_is_a_conflict_and_stays_pending)
{
    loaded f;
    bool ok = load_first(&f, "delete");
    jl_save_report r;
    ok = ok && jl_world_remove(&f.w, f.id) == JL_OK && replace_on_disk(f.path, "; rewritten elsewhere\n") &&
         jl_world_save(&f.w, dir, &r) == JL_ERR_CONFLICT && r.conflict_count == 1 && r.deleted_count == 0 &&
         strstr(r.error.message, "not deleted") && du_file_is(f.path, "; rewritten elsewhere\n");
    /* Still pending: the next save says so again. */
    ok = ok && jl_world_save(&f.w, dir, &r) == JL_ERR_CONFLICT && r.conflict_count == 1;
    CHECK(unload(&f, ok));
}

TEST(a_removal_undone_keeps_the_file_it_read_and_checks_it)
{
    loaded f;
    bool ok = load_first(&f, "undo");
    jl_save_report r;
    /* Removed, back (an undo), edited: its file is still the one read. */
    ok = ok && jl_world_remove(&f.w, f.id) == JL_OK &&
         jl_world_restore_entity_text(&f.w, f.id, f.text, f.size, NULL) == JL_OK && set_position(&f, "4 4 4") &&
         replace_on_disk(f.path, "; rewritten elsewhere\n") && jl_world_save(&f.w, dir, &r) == JL_ERR_CONFLICT &&
         r.conflict_count == 1 && du_file_is(f.path, "; rewritten elsewhere\n");
    CHECK(unload(&f, ok));
}

/* ---- what the stamp cannot tell ---- */

TEST(a_write_in_place_that_keeps_the_stamp_is_caught_by_the_bytes)
{
    loaded f;
    bool ok = load_first(&f, "racy");
    /* Same inode, same size, the old modification time put back: only the
     * bytes differ (a write within the same clock tick looks like this). */
    struct stat st;
    ok = ok && stat(f.path, &st) == 0;
    if (ok) {
        ok = change_position_digit(f.text);
        int fd = open(f.path, O_WRONLY);
        ok = ok && fd >= 0 && write(fd, f.text, f.size) == (ssize_t)f.size;
        if (fd >= 0) close(fd);
        struct timespec times[2] = {st.st_atim, st.st_mtim};
        ok = ok && utimensat(AT_FDCWD, f.path, times, 0) == 0;
    }
    jl_save_report r = {0};
    if (!ok) fprintf(stderr, "could not write %s in place with its old time\n", f.path);
    ok = ok && set_position(&f, "5 5 5") && jl_world_save(&f.w, dir, &r) == JL_ERR_CONFLICT && r.conflict_count == 1 &&
         du_file_is(f.path, f.text);
    if (!ok) fprintf(stderr, "save: %s (%u conflicts)\n", r.error.message, r.conflict_count);
    CHECK(unload(&f, ok));
}

TEST(a_file_touched_with_the_same_bytes_is_written)
{
    loaded f;
    bool ok = load_first(&f, "touch");
    /* A checkout that wrote the same bytes: a new inode, a new time. */
    jl_save_report r;
    ok = ok && replace_on_disk(f.path, f.text) && set_position(&f, "6 6 6") && jl_world_save(&f.w, dir, &r) == JL_OK &&
         r.written_count == 1 && r.conflict_count == 0;
    CHECK(unload(&f, ok));
}

TEST(a_file_saved_then_changed_elsewhere_is_a_conflict_at_the_next_save)
{
    loaded f;
    bool ok = load_first(&f, "resave");
    jl_save_report r;
    ok = ok && set_position(&f, "1 1 1") && jl_world_save(&f.w, dir, &r) == JL_OK &&
         replace_on_disk(f.path, "; after our save\n") && set_position(&f, "2 2 2") &&
         jl_world_save(&f.w, dir, &r) == JL_ERR_CONFLICT && du_file_is(f.path, "; after our save\n");
    CHECK(unload(&f, ok));
}

TEST(reload_file_takes_the_version_the_caller_saw_or_refuses_another)
{
    loaded f;
    char name[64];
    bool ok = load_first(&f, "reload");
    snprintf(name, sizeof name, "Entities/%s", ok ? strrchr(f.path, '/') + 1 : "");
    char *edited = f.text ? strdup(f.text) : NULL;
    /* Another program's edit, which the caller saw: taken, then saved over. */
    jl_save_report r;
    jl_error err;
    ok = ok && change_position_digit(edited) && replace_on_disk(f.path, edited) &&
         jl_world_reload_file(&f.w, dir, name, edited, f.size, NULL, &err) == JL_OK &&
         !jl_world_find(&f.w, f.id)->is_dirty && set_position(&f, "3 3 3") && jl_world_save(&f.w, dir, &r) == JL_OK &&
         r.written_count == 1;
    /* A version the caller did not see: refused, the world unchanged. */
    ok = ok && replace_on_disk(f.path, f.text) &&
         jl_world_reload_file(&f.w, dir, name, edited, f.size, NULL, &err) == JL_ERR_CONFLICT &&
         strstr(err.message, "changed on disk");
    free(edited);
    CHECK(unload(&f, ok));
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
        jl_world_lock lock;
        jt_hold_world_lock(&lock, dir);
        raise(SIGKILL);
    }
    int status = 0;
    bool ok = child > 0 && waitpid(child, &status, 0) == child && WIFSIGNALED(status);
    char lock_path[700];
    du_join(lock_path, sizeof lock_path, dir, JL_WORLD_LOCK_NAME);
    ok = ok && du_exists(lock_path);
    jl_world w;
    jl_save_report r;
    ok = ok && load(&w, NULL) && move_all(&w, "2") && jl_world_save(&w, dir, &r) == JL_OK &&
         strstr(r.notice, "no longer running") && !du_exists(lock_path);
    if (!ok) fprintf(stderr, "save: %s\n", r.error.message);
    jli_world_shutdown(&w);
    CHECK(finish(ok));
#endif
}
