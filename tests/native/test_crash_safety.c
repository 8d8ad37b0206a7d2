/* test_crash_safety.c - a save killed with SIGKILL at any point loses no
 * data (world.h "Saving", fs.h "Atomic replace").
 *
 * The test process holds an edited, unsaved world (save_scenario.h) and
 * forks a child per kill point; the child saves through a probe file system
 * (fs_probe.h) that raises SIGKILL right after its Nth operation. The parent
 * then checks the directory: every .jasset file is byte for byte its old or
 * its new version, no entity alive in memory lost its file, and a fresh load
 * reports nothing, loads every file and deletes the temporaries. Then it
 * puts the old world back for the next kill point. Where the disk flushes
 * a batch of files at once (fs.h), kills fall between the batch's steps
 * too; the same save synced file by file is killed as well.
 *
 * Under Emscripten there is no fork: the kill tests report a skip there (the
 * native and sanitizer runs cover them); the operation-order test runs
 * everywhere. */
#include "disk_util.h"

#include <signal.h>
#include <sys/types.h>
#ifndef __EMSCRIPTEN__
#include <sys/wait.h>
#endif

#include "fs_probe.h"
#include "juliet/world_lock.h"
#include "save_scenario.h"
#include "test.h"

enum { KILLED = 1, COMPLETED = 0, BROKEN = -1 };

/* Under AddressSanitizer every operation costs several times more; the
 * sanitizer run checks the same code paths for memory errors with fewer
 * kills, the plain native run does the full count. */
#if defined(__SANITIZE_ADDRESS__)
#define KILL_SCALE 5
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KILL_SCALE 5
#endif
#endif
#ifndef KILL_SCALE
#define KILL_SCALE 1
#endif

#ifndef __EMSCRIPTEN__
/* Saves s->world in a child that dies right after operation `op` (never if
 * 0); returns KILLED, COMPLETED (the save ended first) or BROKEN. With
 * ops_out the child reports how many operations the save made. */
static int save_in_child(scenario *s, uint32_t op, uint32_t *ops_out)
{
    int fds[2];
    if (ops_out && pipe(fds) != 0) return BROKEN;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) return BROKEN;
    if (pid == 0) {
        probe_reset(&s->probe);
        s->probe.kill_after = op;
        s->probe.skip_sync = true;
        jl_status st = jl_world_save(&s->world, s->dir, NULL);
        if (ops_out) {
            uint32_t n = s->probe.total;
            if (write(fds[1], &n, sizeof n) != sizeof n) _exit(4);
        }
        _exit(st == JL_OK ? 3 : 5);
    }
    uint32_t n = 0;
    if (ops_out) {
        close(fds[1]);
        if (read(fds[0], &n, sizeof n) != sizeof n) n = 0;
        close(fds[0]);
        *ops_out = n;
    }
    int status;
    if (waitpid(pid, &status, 0) != pid) return BROKEN;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) return KILLED;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 3) return COMPLETED;
    fprintf(stderr, "save child ended with status 0x%x\n", status);
    return BROKEN;
}

typedef struct kill_totals {
    uint32_t kills, with_temp, mixed, max_new, stale_locks;
} kill_totals;

/* A save killed after it took its lock leaves the lock file behind: the
 * next writer takes it over at once (its holder is gone), with a notice,
 * and no person has to delete anything. *left says whether there was one. */
static bool stale_lock_taken_over(const char *dir, bool *left)
{
    char lock_path[700];
    du_join(lock_path, sizeof lock_path, dir, JL_WORLD_LOCK_NAME);
    *left = du_exists(lock_path);
    if (!*left) return true; /* killed before the lock was taken, or after it was let go */
    jl_arena scratch;
    jl_world_lock lock;
    jl_error err = {0};
    bool ok = jl_arena_init(&scratch, 1 << 20) == JL_OK &&
              jl_world_lock_acquire(&lock, jl_fs_native(), dir, 0, &scratch, &err) == JL_OK && lock.held &&
              strstr(lock.notice, "no longer running") != NULL;
    if (!ok) fprintf(stderr, "stale lock not taken over: %s\n", err.message);
    if (ok) jl_world_lock_release(&lock, jl_fs_native());
    jl_arena_release(&scratch);
    return ok && !du_exists(lock_path);
}

/* After a kill: the disk holds old or new versions only, the lock is
 * taken over, a fresh load is clean and deletes the temporaries, then
 * the old world is put back. */
static bool check_after_kill(scenario *s, uint32_t op, uint32_t capacity, kill_totals *t)
{
    scenario_state st;
    bool left;
    if (!stale_lock_taken_over(s->dir, &left)) {
        fprintf(stderr, "after a kill at operation %u\n", op);
        return false;
    }
    t->stale_locks += left;
    if (!scenario_verify_reload(s, s->dir, capacity, true, &st)) {
        fprintf(stderr, "after a kill at operation %u\n", op);
        return false;
    }
    t->kills++;
    t->with_temp += st.temp_files > 0;
    t->mixed += st.new_files > 0 && st.old_files > 0;
    if (st.new_files > t->max_new) t->max_new = (uint32_t)st.new_files;
    return true;
}
#endif

#ifndef __EMSCRIPTEN__
/* Kills a 50-entity save after each of its operations in turn, then lets
 * one complete; file_by_file: on a file system that syncs each file
 * (fs_probe.h no_batch), else in batches where the disk has them, so that
 * kills also fall between a batch's steps (begun, written, flushed,
 * renamed). */
static void kill_after_every_operation(bool file_by_file)
{
    scenario s;
    if (!scenario_build(&s, 50, 0x50e)) {
        scenario_free(&s);
        CHECK(false);
    }
    s.probe.no_batch = file_by_file;
    CHECK(s.modified > 0 && s.removed > 0 && s.created > 0);
    kill_totals t = {0};
    uint32_t op = 1;
    int r;
    bool ok = true;
    while (ok && (r = save_in_child(&s, op, NULL)) == KILLED) {
        ok = check_after_kill(&s, op, 256, &t);
        op++;
    }
    /* The last run saved to the end: every file is its new version. */
    scenario_state st;
    bool complete = ok && r == COMPLETED && scenario_check_disk_ex(&s, s.dir, &st, false, true) &&
                    scenario_check_reload(s.dir, 256);
    printf(
        "50 entities (%u modified, %u removed, %u created), %s: killed after each of %u operations; "
        "%u kills left temporaries, %u left a mix of old and new files, %u a stale lock\n",
        s.modified, s.removed, s.created, file_by_file || !probe_dir_batches(s.dir) ? "file by file" : "in batches",
        op - 1, t.with_temp, t.mixed, t.stale_locks);
    scenario_free(&s);
    CHECK(ok);
    CHECK(complete);
    /* Every kill but the one before the lock was taken left it, reported stale. */
    CHECK(t.stale_locks == op - 2);
    /* Every deletion, every step of every file write and the directory
     * syncs: well over a hundred kill points. */
    CHECK(op - 1 > 100);
    CHECK(t.with_temp > 0 && t.mixed > 0);
}
#endif

TEST(kill_after_every_operation_of_a_50_entity_save)
{
#ifdef __EMSCRIPTEN__
    printf("skipped: no fork() in wasm\n");
#else
    kill_after_every_operation(false);
#endif
}

TEST(kill_after_every_operation_of_a_50_entity_save_synced_file_by_file)
{
#ifdef __EMSCRIPTEN__
    printf("skipped: no fork() in wasm\n");
#else
    kill_after_every_operation(true);
#endif
}

#ifndef __EMSCRIPTEN__
/* Kills the save of an n-entity world after `kills` operation numbers drawn
 * from a seeded generator, then lets one save complete. */
static void kill_at_random_operations(uint32_t n, uint32_t kills, uint64_t seed)
{
    scenario s;
    if (!scenario_build(&s, n, seed)) {
        scenario_free(&s);
        CHECK(false);
    }
    uint32_t capacity = n * 2 + 64;
    /* A dry run counts the operations of the whole save. */
    uint32_t total = 0;
    int r = save_in_child(&s, 0, &total);
    scenario_state st;
    bool ok = r == COMPLETED && total > 0 && scenario_check_disk_ex(&s, s.dir, &st, false, true);
    ok = ok && scenario_check_disk(&s, s.dir, &st, true);
    kill_totals t = {0};
    uint64_t rng = seed;
    for (uint32_t i = 0; ok && i < kills; i++) {
        uint32_t op = 1 + (uint32_t)(scenario_rng(&rng) % total);
        r = save_in_child(&s, op, NULL);
        ok = r == KILLED && check_after_kill(&s, op, capacity, &t);
        if (!ok) fprintf(stderr, "kill %u of %u, at operation %u of %u\n", i + 1, kills, op, total);
    }
    bool complete = ok && save_in_child(&s, 0, NULL) == COMPLETED &&
                    scenario_check_disk_ex(&s, s.dir, &st, false, true) && scenario_check_reload(s.dir, capacity);
    printf(
        "%u entities (%u modified, %u removed, %u created), save of %u operations: %u kills at random "
        "operations (seed 0x%llx); %u left temporaries, %u a mix of old and new files, up to %u new files\n",
        n, s.modified, s.removed, s.created, total, t.kills, (unsigned long long)seed, t.with_temp, t.mixed, t.max_new);
    scenario_free(&s);
    CHECK(ok);
    CHECK(complete);
    CHECK(t.kills == kills && t.with_temp > 0 && t.mixed > 0);
}
#endif

TEST(kill_at_200_random_moments_of_a_10000_entity_save)
{
#ifdef __EMSCRIPTEN__
    printf("skipped: no fork() in wasm\n");
#else
    kill_at_random_operations(10000, 200 / KILL_SCALE, 0x10000c0ffeeull);
#endif
}

/* The directory of path (a probe log's), into out. */
static void dir_of(char *out, const char *path)
{
    probe_copy(out, path);
    char *slash = strrchr(out, '/');
    if (slash) *slash = '\0';
}

/* The ordering a power cut depends on, checked on the operation log of a
 * complete save: deletions first; each file written to a temporary in the
 * same directory and closed, its bytes made durable before it is renamed
 * over its target: by a sync of its own between its writes and its close
 * where the file system syncs file by file (file_by_file: fs_probe.h
 * no_batch), else by the flush of the batch it was written in, begun in its
 * directory before the temporary was created and flushed after it was
 * closed; the directory synced after the last rename; nothing else
 * written. With batches the save waits for the disk a fixed number of
 * times, whatever the number of files. */
static void check_save_order(bool file_by_file, uint64_t seed)
{
    scenario s;
    if (!scenario_build(&s, 50, seed)) {
        scenario_free(&s);
        CHECK(false);
    }
    s.probe.no_batch = file_by_file;
    const bool batches = !file_by_file && probe_dir_batches(s.dir);
    probe_reset(&s.probe);
    probe_start_log(&s.probe);
    jl_save_report report;
    jl_status st = jl_world_save(&s.world, s.dir, &report);
    probe_fs *p = &s.probe;
    bool ok = st == JL_OK;
    uint32_t first_open = UINT32_MAX, last_rename = 0, renames = 0, removes = 0, waits = 0, in_batch = 0;
    char dir[PROBE_PATH];
    for (uint32_t i = 0; ok && i < p->log_count; i++) {
        const probe_op *o = &p->log[i];
        if (o->op == JL_FS_OP_SYNC || o->op == JL_FS_OP_SYNC_BATCH || o->op == JL_FS_OP_SYNC_DIR) waits++;
        if (o->op == JL_FS_OP_OPEN_WRITE && first_open == UINT32_MAX) first_open = i;
        if (o->op == JL_FS_OP_REMOVE) {
            removes++;
            if (first_open != UINT32_MAX) {
                fprintf(stderr, "deletion of %s after a write began\n", o->path);
                ok = false;
            }
        }
        if (o->op == JL_FS_OP_OPEN_WRITE && !du_ends_with(o->path, ".tmp")) {
            fprintf(stderr, "%s opened for writing in place\n", o->path);
            ok = false;
        }
        if (o->op != JL_FS_OP_RENAME) continue;
        renames++;
        last_rename = i;
        /* from = to + ".<pid>-<n>.tmp", same directory. */
        size_t tl = strlen(o->target);
        if (strncmp(o->path, o->target, tl) != 0 || o->path[tl] != '.' || strchr(o->path + tl, '/') ||
            !du_ends_with(o->path, ".tmp")) {
            fprintf(stderr, "rename %s -> %s is not a same-directory temporary\n", o->path, o->target);
            ok = false;
        }
        /* The temporary's own operations since it was opened must be
         * write..., [sync,] close: its sync there unless a batch flushes it. */
        uint32_t j = i;
        while (j > 0 && !(p->log[j - 1].op == JL_FS_OP_OPEN_WRITE && strcmp(p->log[j - 1].path, o->path) == 0)) j--;
        bool opened = j > 0, wrote = false, synced = false, closed = false, in_order = true;
        uint32_t closed_at = 0;
        for (uint32_t k = j; k < i; k++) {
            const probe_op *b = &p->log[k];
            if (strcmp(b->path, o->path) != 0) continue;
            if (b->op == JL_FS_OP_WRITE) in_order = in_order && !synced && !closed, wrote = true;
            else if (b->op == JL_FS_OP_SYNC) in_order = in_order && wrote && !closed, synced = true;
            else if (b->op == JL_FS_OP_CLOSE) in_order = in_order && wrote, closed = true, closed_at = k;
            else if (b->op == JL_FS_OP_STAT) in_order = in_order && closed; /* the new file's stamp */
            else in_order = false;
        }
        /* Its batch: the last one begun in its directory before it was
         * created; flushed by the first sync_batch of that directory after. */
        dir_of(dir, o->path);
        uint32_t begun = j;
        while (begun > 0 && !(p->log[begun - 1].op == JL_FS_OP_BATCH_OPEN && strcmp(p->log[begun - 1].path, dir) == 0))
            begun--;
        bool batched = begun > 0 && p->log[begun - 1].result == 0, flushed = false;
        for (uint32_t k = begun; batched && k < i && !flushed; k++) {
            const probe_op *b = &p->log[k];
            if (b->op != JL_FS_OP_SYNC_BATCH || strcmp(b->path, dir) != 0) continue;
            flushed = b->result == 0 && k > closed_at;
            if (!flushed) break; /* flushed before the temporary was closed: not durable */
        }
        in_batch += batched;
        if (!(opened && wrote && closed && in_order && (batched ? flushed && !synced : synced))) {
            fprintf(stderr, "%s renamed without open, write, %s, close before it\n", o->path,
                    batched ? "close and its batch's flush" : "sync");
            ok = false;
        }
    }
    bool dir_synced = false;
    for (uint32_t i = last_rename; i < p->log_count; i++)
        if (p->log[i].op == JL_FS_OP_SYNC_DIR && du_ends_with(p->log[i].path, "/Entities")) dir_synced = true;
    uint32_t expected_writes = s.modified + s.created + 1; /* + the settings */
    printf("%s: %u deletions, %u files replaced (%u flushed in a batch), %u operations, %u waits for the disk\n",
           batches ? "in batches" : "file by file", removes, renames, in_batch, p->log_count, waits);
    ok = ok && removes == s.removed && renames == expected_writes && report.written_count == expected_writes &&
         report.deleted_count == s.removed && dir_synced;
    /* Batched: one flush and one directory sync for the entities, the same
     * for the settings. File by file: a sync each, and the two directories. */
    ok = ok && in_batch == (batches ? renames : 0) && waits == (batches ? 4 : renames + 2);
    scenario_free(&s);
    CHECK(ok);
}

TEST(save_flushes_each_batch_before_renaming_its_files_and_the_directory_after) { check_save_order(false, 0x0bde); }

TEST(save_syncs_each_file_before_renaming_it_and_the_directory_after) { check_save_order(true, 0x0bde); }

TEST_SLOW(kill_at_1000_random_moments_of_a_10000_entity_save)
{
#ifdef __EMSCRIPTEN__
    printf("skipped: no fork() in wasm\n");
#else
    kill_at_random_operations(10000, 1000, 0x5105eedull);
#endif
}
