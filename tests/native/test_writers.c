/* test_writers.c - what protects a world from other writers and hostile
 * trees: the world lock (world_lock.h), exclusive temporaries that never
 * follow a link, new worlds written all or nothing (jl_world_save_new), and
 * files that must never be opened or read whole.
 *
 * The tests with two processes use fork(): under Emscripten they report a
 * skip (the same engine code runs natively). */
#define _GNU_SOURCE
#include "disk_util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fs_probe.h"
#include "persist_util.h"
#include "juliet/platform.h"
#include "juliet/world.h"
#include "sample_world_gen.h"
#include "juliet/world_lock.h"
#include "test.h"
#include "world/world_internal.h" /* jli_world_init: worlds embedded in the tests */

#define SAMPLE JULIET_ASSETS_DIR "/sample_world"

/* A test's fresh temporary directory, and the world directory in it. */
static char root[512], dir[600];

/* The path of the first entity file of dir, and its ID. */
static bool first_entity(char *path, size_t size, uint64_t *id)
{
    char entities[700];
    du_join(entities, sizeof entities, dir, "Entities");
    size_t n;
    char **names = du_list(entities, &n);
    bool ok = names && n > 0 && du_join(path, size, entities, names[0]);
    if (ok) *id = strtoull(names[0], NULL, 10);
    du_free_names(names, n);
    return ok;
}

/* dir: a copy of the sample world in a fresh root; path (NULL: not wanted)
 * gets the path of its first entity file, id that entity's ID. */
static bool sample_copy(const char *label, char *path, size_t size, uint64_t *id)
{
    return du_make_temp_dir(root, sizeof root, label) && du_join(dir, sizeof dir, root, "world") &&
           du_copy_tree(SAMPLE, dir) && (!path || first_entity(path, size, id));
}

/* The end of a test: root removed; returns ok. */
static bool finish(bool ok)
{
    du_remove_tree(root);
    return ok;
}

static bool write_lock(const char *content)
{
    char path[700];
    du_join(path, sizeof path, dir, JL_WORLD_LOCK_NAME);
    return du_write(path, content, strlen(content));
}

/* A pid no process has: a child that has exited and been reaped. Where
 * there is no fork() (wasm), 0: the test is skipped, its root removed. */
static pid_t dead_pid_or_skip(void)
{
#ifdef __EMSCRIPTEN__
    printf("skipped: no fork() in wasm\n");
    du_remove_tree(root);
    return 0;
#else
    pid_t pid = fork();
    if (pid == 0) _exit(0);
    waitpid(pid, NULL, 0);
    return pid;
#endif
}

TEST(save_fails_with_the_pid_of_a_running_lock_holder_and_writes_nothing)
{
    char path[800], lock_text[32];
    uint64_t id;
    CHECK(sample_copy("locked", path, sizeof path, &id));
    size_t before_size;
    char *before = du_read(path, &before_size);
    /* This very process holds it: certainly running. */
    snprintf(lock_text, sizeof lock_text, "%u\n", (unsigned)getpid());
    bool ok = before && write_lock(lock_text);

    jl_world w;
    jl_world_desc d = {.capacity = 256, .lock_wait_ms = 60};
    ok = ok && jli_world_init(&w, &d) == JL_OK && jl_world_load(&w, dir) == JL_OK;
    ok = ok && jl_world_set_field(&w, id, "position", "1 2 3", 5, NULL) == JL_OK;
    jl_save_report report;
    char expected[64];
    snprintf(expected, sizeof expected, "world is locked by pid %u", (unsigned)getpid());
    ok = ok && jl_world_save(&w, dir, &report) == JL_ERR_LOCKED && report.error.status == JL_ERR_LOCKED &&
         strstr(report.error.message, expected) && strstr(report.error.path, JL_WORLD_LOCK_NAME) &&
         report.written_count == 0;
    if (!ok) fprintf(stderr, "report: %s: %s\n", report.error.path, report.error.message);
    size_t after_size;
    char *after = du_read(path, &after_size);
    ok = ok && after && after_size == before_size && memcmp(after, before, before_size) == 0;
    ok = ok && jl_world_find(&w, id)->is_dirty; /* still pending */

    /* Once the holder is done, the same save goes through. */
    char lock_path[700];
    du_join(lock_path, sizeof lock_path, dir, JL_WORLD_LOCK_NAME);
    ok = ok && unlink(lock_path) == 0 && jl_world_save(&w, dir, &report) == JL_OK && report.written_count == 1 &&
         !du_exists(lock_path);
    jli_world_shutdown(&w);
    free(before);
    free(after);
    CHECK(finish(ok));
}

/* A save against the lock file `text`: its status and report, the sample
 * entity id removed (its file is to be deleted). */
static jl_status save_against_lock(const char *text, uint64_t id, jl_save_report *report)
{
    jl_world w;
    jl_world_desc d = {.capacity = 256, .lock_wait_ms = 60};
    jl_status s = write_lock(text) && jli_world_init(&w, &d) == JL_OK && jl_world_load(&w, dir) == JL_OK &&
                          jl_world_remove(&w, id) == JL_OK
                      ? jl_world_save(&w, dir, report)
                      : JL_ERR_INVARIANT;
    jli_world_shutdown(&w);
    return s;
}

/* The lock file still holds text. */
static bool lock_is(const char *text)
{
    char lock_path[700];
    du_join(lock_path, sizeof lock_path, dir, JL_WORLD_LOCK_NAME);
    return du_file_is(lock_path, text);
}

/* The text of a lock file in today's form, as a holder with these
 * particulars writes it. */
static void lock_text(char *out, size_t size, unsigned pid, const char *host, unsigned long long started, int flock)
{
    snprintf(out, size, "pid %u\nhost %s\nstarted %llu\ntoken 0123456789abcdef\nflock %d\n", pid, host, started, flock);
}

TEST(a_lock_left_by_a_dead_process_is_taken_over_with_a_notice)
{
    char path[800], lock_path[700], text[64];
    uint64_t id;
    CHECK(sample_copy("stale", path, sizeof path, &id));
    pid_t gone = dead_pid_or_skip();
    if (gone == 0) return;
    /* The form earlier versions wrote: the pid alone. */
    snprintf(text, sizeof text, "%u\n", (unsigned)gone);
    jl_save_report report;
    bool ok = save_against_lock(text, id, &report) == JL_OK && report.deleted_count == 1 &&
              strstr(report.notice, "no longer running");
    if (!ok) fprintf(stderr, "report: %s / notice: %s\n", report.error.message, report.notice);
    du_join(lock_path, sizeof lock_path, dir, JL_WORLD_LOCK_NAME);
    ok = ok && !du_exists(path) && !du_exists(lock_path);
    CHECK(finish(ok));
}

/* A lock file its maker created and died before writing: natively its
 * kernel lock is free, so it is taken over at once (not after 10 s); one
 * whose maker holds the kernel lock while writing is waited for. */
TEST(an_empty_lock_is_taken_over_at_once_when_its_kernel_lock_is_free_and_waited_for_while_held)
{
    char path[800];
    uint64_t id;
    CHECK(sample_copy("unwritten", path, sizeof path, &id));
#ifdef __EMSCRIPTEN__
    printf("skipped: no kernel lock in wasm\n");
    du_remove_tree(root);
#else
    char lock_path[700];
    du_join(lock_path, sizeof lock_path, dir, JL_WORLD_LOCK_NAME);
    /* Held by its maker (another open file: the kernel lock is per open). */
    int maker = write_lock("") ? open(lock_path, O_RDONLY) : -1;
    bool ok = maker >= 0 && flock(maker, LOCK_EX | LOCK_NB) == 0;
    jl_save_report report;
    ok = ok && save_against_lock("", id, &report) == JL_ERR_LOCKED &&
         strstr(report.error.message, "has not written its pid yet") && du_exists(path);
    if (maker >= 0) close(maker);
    ok = ok && save_against_lock("", id, &report) == JL_OK && report.deleted_count == 1 && !du_exists(path) &&
         !du_exists(lock_path);
    CHECK(finish(ok));
#endif
}

TEST(a_lock_whose_pid_now_belongs_to_another_process_is_taken_over)
{
    char path[800], host[64], text[256];
    uint64_t id;
    CHECK(sample_copy("reused", path, sizeof path, &id));
    jl_platform_host(host, sizeof host);
    uint64_t started = jl_platform_pid_start((uint32_t)getpid());
    if (!started) {
        printf("skipped: process start times cannot be read here\n");
        du_remove_tree(root);
        return;
    }
    /* This process's pid, but a process that started at another time. */
    lock_text(text, sizeof text, (unsigned)getpid(), host, (unsigned long long)started + 1, 0);
    jl_save_report report;
    bool ok = save_against_lock(text, id, &report) == JL_OK && strstr(report.notice, "no longer running");
    if (!ok) fprintf(stderr, "report: %s\n", report.error.message);
    CHECK(finish(ok && !du_exists(path)));
}

TEST(a_lock_of_a_running_process_on_this_machine_is_waited_for_then_reported)
{
    char path[800], host[64], text[256];
    uint64_t id;
    CHECK(sample_copy("live", path, sizeof path, &id));
    jl_platform_host(host, sizeof host);
    lock_text(text, sizeof text, (unsigned)getpid(), host,
              (unsigned long long)jl_platform_pid_start((uint32_t)getpid()), 0);
    jl_save_report report;
    bool ok = save_against_lock(text, id, &report) == JL_ERR_LOCKED &&
              strstr(report.error.message, "another program is saving it") && report.notice[0] == '\0';
    if (!ok) fprintf(stderr, "report: %s\n", report.error.message);
    CHECK(finish(ok && du_exists(path) && lock_is(text)));
}

TEST(a_lock_written_on_another_machine_is_reported_and_never_broken)
{
    char path[800], text[256];
    uint64_t id;
    CHECK(sample_copy("remote", path, sizeof path, &id));
    pid_t gone = dead_pid_or_skip();
    if (gone == 0) return;
    /* Its pid runs nowhere here, which says nothing of the other machine. */
    lock_text(text, sizeof text, (unsigned)gone, "build-farm-17.invalid", 5, 1);
    jl_save_report report;
    bool ok = save_against_lock(text, id, &report) == JL_ERR_LOCKED &&
              strstr(report.error.message, "on build-farm-17.invalid, another machine") &&
              strstr(report.error.message, "never broken");
    if (!ok) fprintf(stderr, "report: %s\n", report.error.message);
    /* Nothing deleted, and the lock is as it was. */
    CHECK(finish(ok && du_exists(path) && lock_is(text)));
}

TEST(save_waits_for_a_holder_that_finishes_soon)
{
#ifdef __EMSCRIPTEN__
    printf("skipped: no fork() in wasm\n");
#else
    char path[800];
    uint64_t id;
    CHECK(sample_copy("waits", path, sizeof path, &id));
    jl_world w;
    jl_world_desc d = {.capacity = 256, .lock_wait_ms = 3000};
    bool ok = jli_world_init(&w, &d) == JL_OK && jl_world_load(&w, dir) == JL_OK &&
              jl_world_set_field(&w, id, "position", "4 5 6", 5, NULL) == JL_OK;
    int ready[2];
    ok = ok && pipe(ready) == 0;
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        /* Another writer: holds the lock for 300 ms. */
        jl_world_lock lock;
        jt_hold_world_lock(&lock, dir);
        if (write(ready[1], "x", 1) != 1) _exit(2);
        usleep(300 * 1000);
        jl_world_lock_release(&lock, jl_fs_native());
        _exit(0);
    }
    char c;
    ok = ok && child > 0 && read(ready[0], &c, 1) == 1;
    uint64_t start = jl_platform_now_ns();
    jl_save_report report;
    ok = ok && jl_world_save(&w, dir, &report) == JL_OK && report.written_count == 1;
    double waited_ms = (double)(jl_platform_now_ns() - start) / 1e6;
    int status = 1;
    ok = ok && waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    printf("waited %.0f ms for the other writer\n", waited_ms);
    ok = ok && waited_ms >= 100; /* it did wait rather than write beside the holder */
    jli_world_shutdown(&w);
    CHECK(finish(ok));
#endif
}

TEST(load_leaves_temporaries_alone_while_a_writer_holds_the_lock)
{
    char entities[700], temp[800], lock_text[32];
    CHECK(sample_copy("busy", NULL, 0, NULL));
    du_join(entities, sizeof entities, dir, "Entities");
    du_join(temp, sizeof temp, entities, "12345.jasset.999-1.tmp");
    snprintf(lock_text, sizeof lock_text, "%u\n", (unsigned)getpid());
    bool ok = du_write(temp, "half a fi", 9) && write_lock(lock_text);
    for (int locked = 1; locked >= 0 && ok; locked--) {
        jl_world w;
        jl_world_desc d = {.capacity = 256};
        ok = jli_world_init(&w, &d) == JL_OK && jl_world_load(&w, dir) == JL_OK && jl_world_diagnostic_count(&w) == 0;
        /* While the lock is held the temporary may be a running save's. */
        ok = ok && du_exists(temp) == (locked == 1);
        jli_world_shutdown(&w);
        char lock_path[700];
        du_join(lock_path, sizeof lock_path, dir, JL_WORLD_LOCK_NAME);
        if (locked) ok = ok && unlink(lock_path) == 0;
        else ok = ok && !du_exists(lock_path); /* the load let its own lock go */
    }
    CHECK(finish(ok));
}

/* A tree may carry symlinks named like temporaries (git stores links): a
 * save never writes through one, to a file outside the world or inside. */
TEST(save_never_writes_through_a_symlink_named_like_a_temporary)
{
    char path[800], victim[700], link_path[900];
    uint64_t id;
    CHECK(sample_copy("links", path, sizeof path, &id));
    du_join(victim, sizeof victim, root, "outside.txt");
    bool ok = du_write(victim, "precious\n", 9);
    /* The old fixed name, and the next unique names this process would try. */
    snprintf(link_path, sizeof link_path, "%s.tmp", path);
    ok = ok && symlink(victim, link_path) == 0;
    /* The counter's current value, then links at the next 8 names. */
    char name[900];
    ok = ok && jl_fs_unique_name(name, sizeof name, path, ".tmp");
    unsigned counter = (unsigned)strtoul(strrchr(name, '-') + 1, NULL, 10);
    for (unsigned n = counter + 1; n <= counter + 8 && ok; n++) {
        snprintf(name, sizeof name, "%s.%u-%u.tmp", path, (unsigned)getpid(), n);
        ok = symlink(victim, name) == 0;
    }
    du_join(link_path, sizeof link_path, dir, "WorldSettings.jasset.tmp");
    ok = ok && symlink(victim, link_path) == 0;

    jl_world w;
    jl_world_desc d = {.capacity = 256, .keep_temp_files = true};
    ok = ok && jli_world_init(&w, &d) == JL_OK && jl_world_load(&w, dir) == JL_OK;
    jl_world_mark_all_dirty(&w);
    jl_save_report report;
    ok = ok && jl_world_save(&w, dir, &report) == JL_OK;
    if (!ok) fprintf(stderr, "save: %s: %s\n", report.error.path, report.error.message);
    size_t size;
    char *text = du_read(victim, &size);
    ok = ok && text && size == 9 && memcmp(text, "precious\n", 9) == 0;
    free(text);
    /* The entity file is a regular file with the entity in it. */
    struct stat st;
    ok = ok && lstat(path, &st) == 0 && S_ISREG(st.st_mode);
    jli_world_shutdown(&w);
    CHECK(finish(ok));
}

/* ---- two writers ---- */

#ifndef __EMSCRIPTEN__
/* The file system of one writer process: every write is slowed down so the
 * other writer's steps fall in between, and at the end of each save (the
 * directory sync, lock still held) every file it renamed into place must
 * still hold its bytes. */
typedef struct writer_fs {
    probe_fs probe;
    uint32_t seed;
    char position[96];     /* the position line this save writes everywhere */
    char renamed[64][256]; /* the entity files this save put in place */
    uint32_t renamed_count;
    uint32_t landed_wrong; /* files that did not hold it at the end of a save */
} writer_fs;

static writer_fs writer;

static int writer_write(const jl_fs *fs, intptr_t handle, const void *data, size_t size)
{
    writer.seed = writer.seed * 1103515245u + 12345u;
    if ((writer.seed >> 16) % 4 == 0) usleep((writer.seed >> 8) % 2000);
    return probe_write(fs, handle, data, size);
}

static int writer_rename(const jl_fs *fs, const char *from, const char *to)
{
    int r = probe_rename(fs, from, to);
    if (r == 0 && du_ends_with(to, ".jasset") && writer.renamed_count < 64)
        snprintf(writer.renamed[writer.renamed_count++], sizeof writer.renamed[0], "%s", to);
    return r;
}

/* Syncing Entities/ ends a save's writes, with the lock still held: every
 * entity file this save put in place must hold its position now. */
static int writer_sync_dir(const jl_fs *fs, const char *path)
{
    if (du_ends_with(path, "/Entities")) {
        for (uint32_t i = 0; i < writer.renamed_count; i++) {
            size_t size;
            char *text = du_read(writer.renamed[i], &size);
            if (!(text && strstr(text, writer.position))) writer.landed_wrong++;
            free(text);
        }
    }
    return probe_sync_dir(fs, path);
}
#endif

/* Two processes save the same world over and over, each its own values,
 * each loading it afresh first. Before the lock and the unique temporaries,
 * a save could report success while the other's temporary landed, or leave
 * a 0-byte file; before the per-file check, a save would overwrite the
 * other's save that landed after its load. Now a file the other changed
 * since is a conflict, left alone. */
TEST(two_writer_processes_leave_every_file_whole_and_every_save_landed)
{
#ifdef __EMSCRIPTEN__
    printf("skipped: no fork() in wasm\n");
#else
    CHECK(sample_copy("writers", NULL, 0, NULL));
    enum { WRITERS = 2, SAVES = 25 };
    pid_t pids[WRITERS];
    fflush(stdout);
    for (int k = 0; k < WRITERS; k++) {
        pids[k] = fork();
        if (pids[k] != 0) continue;
        /* A writer: load, set every entity's position to its own value,
         * save; check, while the lock is still held, that what it wrote is
         * what the files hold. Exit status: saves that failed or did not land. */
        probe_init(&writer.probe);
        writer.probe.table.write = writer_write;
        writer.probe.table.rename = writer_rename;
        writer.probe.table.sync_dir = writer_sync_dir;
        writer.seed = (uint32_t)getpid();
        int bad = 0, locked = 0, conflicts = 0;
        for (int i = 0; i < SAVES; i++) {
            jl_world w;
            jl_world_desc d = {.capacity = 256, .fs = &writer.probe.table, .lock_wait_ms = 10000};
            if (jli_world_init(&w, &d) != JL_OK || jl_world_load(&w, dir) != JL_OK) {
                bad++;
                continue;
            }
            char value[64];
            int n = snprintf(value, sizeof value, "%d %d 0", k + 1, i);
            snprintf(writer.position, sizeof writer.position, "; position\n%s\n", value);
            for (jl_entity *e = jl_entities_first(&w.manager); e; e = jl_entities_next(&w.manager, e))
                jl_world_set_field(&w, e->id, "position", value, (size_t)n, NULL);
            jl_save_report report;
            writer.renamed_count = 0;
            jl_status s = jl_world_save(&w, dir, &report);
            if (s == JL_ERR_LOCKED) locked++;
            else if (s == JL_ERR_CONFLICT && report.conflict_count > 0) conflicts++;
            else if (s != JL_OK) bad++;
            jli_world_shutdown(&w);
        }
        printf("writer %d: %d of %d saves met files the other had changed since its load (conflicts)\n", k, conflicts,
               SAVES);
        if (locked || writer.landed_wrong)
            fprintf(stderr, "writer %d: %d saves found the world locked, %u files did not hold what was saved\n", k,
                    locked, writer.landed_wrong);
        bad += (int)writer.landed_wrong;
        _exit(bad > 100 ? 100 : bad);
    }
    bool ok = true;
    for (int k = 0; k < WRITERS; k++) {
        int status = 0;
        ok = ok && waitpid(pids[k], &status, 0) == pids[k] && WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (!ok) fprintf(stderr, "writer %d ended with status 0x%x\n", k, status);
    }
    /* Every file whole, the world loads clean, every position one a writer
     * saved (a load during the other's save may see some files of it: a
     * save then writes the rest, each file from one save, whole). */
    jl_world w;
    jl_world_desc d = {.capacity = 256};
    ok = ok && jli_world_init(&w, &d) == JL_OK && jl_world_load(&w, dir) == JL_OK &&
         jl_world_diagnostic_count(&w) == 0 && jl_world_count(&w) > 1;
    char value[80];
    for (jl_entity *e = jl_entities_first(&w.manager); ok && e; e = jl_entities_next(&w.manager, e)) {
        int writer_no = 0, save_no = -1;
        ok = jl_world_get_field(&w, e->id, "position", value, NULL) == JL_OK &&
             sscanf(value, "%d %d", &writer_no, &save_no) == 2 && writer_no >= 1 && writer_no <= WRITERS &&
             save_no >= 0 && save_no < SAVES;
        if (!ok) fprintf(stderr, "a position no writer saved: %s\n", value);
    }
    printf("%d writers x %d saves; every file whole and from one of them\n", WRITERS, SAVES);
    jli_world_shutdown(&w);
    char entities[700];
    du_join(entities, sizeof entities, dir, "Entities");
    ok = ok && du_count_suffix(entities, ".tmp") == 0;
    CHECK(finish(ok));
#endif
}

/* ---- new worlds: never merged, all or nothing ---- */

/* A directory holding a world with a settings file from a newer version. */
static bool newer_world(char *settings, size_t size)
{
    static const char newer[] = "; version\n99\n; gravity\n0 -1 0\n";
    return du_make_temp_dir(root, sizeof root, "newer") && du_join(dir, sizeof dir, root, "world") &&
           mkdir(dir, 0755) == 0 && du_join(settings, size, dir, "WorldSettings.jasset") &&
           du_write(settings, newer, sizeof newer - 1);
}

static bool generated(jl_world *w, uint32_t count)
{
    jl_world_desc d = {.capacity = 1024, .id_tag = 7};
    return jli_world_init(w, &d) == JL_OK && sample_world_generate(w, count, 1) == JL_OK;
}

TEST(new_world_is_never_merged_into_a_directory_holding_one)
{
    char settings[700];
    CHECK(newer_world(settings, sizeof settings));
    size_t before_size;
    char *before = du_read(settings, &before_size);
    jl_world w;
    bool ok = before && generated(&w, 20);
    jl_save_report report;
    ok = ok && jl_world_save_new(&w, dir, &report) == JL_ERR_EXISTS && report.written_count == 0 &&
         strstr(report.error.message, "already holds a world");
    size_t after_size;
    char *after = du_read(settings, &after_size);
    ok = ok && after && after_size == before_size && memcmp(after, before, before_size) == 0 && pu_count(root) == 1;
    /* An empty directory is fine, and then holds the whole world. */
    char empty[700];
    du_join(empty, sizeof empty, root, "empty");
    ok = ok && mkdir(empty, 0755) == 0 && jl_world_save_new(&w, empty, &report) == JL_OK &&
         report.written_count == 21 && strncmp(report.written[0], empty, strlen(empty)) == 0;
    jli_world_shutdown(&w);
    free(before);
    free(after);
    CHECK(finish(ok));
}

/* A failure at any step of writing a new world leaves no directory (and no
 * temporary sibling): never a partial world that validates as complete. */
TEST(new_world_appears_whole_or_not_at_all)
{
    CHECK(du_make_temp_dir(root, sizeof root, "whole"));
    du_join(dir, sizeof dir, root, "world");
    probe_fs probe;
    probe_init(&probe);
    jl_world w;
    bool ok = generated(&w, 30);
    w.fs = &probe.table;
    uint32_t faults = 0;
    for (uint32_t at = 1; ok; at++) {
        probe_reset(&probe);
        probe.fail_at = at;
        probe.fail_code = ENOSPC;
        probe.skip_sync = true; /* the order of syncs is not what this test checks */
        jl_save_report report;
        jl_status s = jl_world_save_new(&w, dir, &report);
        if (probe.failed == 0) {
            ok = s == JL_OK && report.written_count == 31 && pu_count(root) == 1;
            break;
        }
        faults++;
        if (pu_count(root) == 1 && (s == JL_OK || strstr(report.error.message, "sync_dir"))) {
            /* The last steps: the world is in place, and the search of its
             * parent for dead saves' leftovers failed (nothing to report:
             * the next save looks again) or its parent's sync failed
             * (reported). It must be whole. */
            jl_world check;
            jl_world_desc d = {.capacity = 1024};
            ok = jli_world_init(&check, &d) == JL_OK && jl_world_load(&check, dir) == JL_OK &&
                 jl_world_count(&check) == 30;
            jli_world_shutdown(&check);
            du_remove_tree(dir);
            jl_world_mark_all_dirty(&w); /* its files are gone again */
            continue;
        }
        /* Failed: nothing at dir, nothing beside it. */
        ok = s != JL_OK && report.error.status != JL_OK && !du_exists(dir) && pu_count(root) == 0;
        if (!ok)
            fprintf(stderr, "fault at operation %u: status %s, %d entries in %s\n", at, jl_status_name(s),
                    pu_count(root), root);
    }
    printf("%u fault points, each left nothing behind\n", faults);
    jli_world_shutdown(&w);
    jl_world check;
    jl_world_desc d = {.capacity = 1024};
    ok = ok && faults > 60 && jli_world_init(&check, &d) == JL_OK && jl_world_load(&check, dir) == JL_OK &&
         jl_world_count(&check) == 30;
    jli_world_shutdown(&check);
    CHECK(finish(ok));
}

/* ---- files that are never opened or read whole ---- */

TEST(fifo_entity_and_settings_files_are_reported_never_opened)
{
#ifdef __EMSCRIPTEN__
    printf("skipped: no FIFOs in wasm's file system\n");
#else
    char fifo[800];
    CHECK(sample_copy("fifo", NULL, 0, NULL));
    du_join(fifo, sizeof fifo, dir, "Entities/4294967310.jasset");
    bool ok = mkfifo(fifo, 0644) == 0;
    char settings[700];
    du_join(settings, sizeof settings, dir, "WorldSettings.jasset");
    ok = ok && unlink(settings) == 0 && mkfifo(settings, 0644) == 0;
    alarm(20); /* a reader blocked on a FIFO fails the test instead of hanging it */
    jl_world w;
    jl_world_desc d = {.capacity = 256};
    ok = ok && jli_world_init(&w, &d) == JL_OK && jl_world_load(&w, dir) == JL_ERR_IO && jl_world_count(&w) == 36;
    uint32_t reported = 0;
    for (uint32_t i = 0; i < jl_world_diagnostic_count(&w); i++) {
        const jl_error *e = jl_world_diagnostic(&w, i);
        if (strstr(e->message, "not a regular file") && (strcmp(e->path, fifo) == 0 || strcmp(e->path, settings) == 0))
            reported++;
    }
    ok = ok && reported == 2 && jl_world_diagnostic_count(&w) == 2;
    /* Settings that failed to load are never written over. */
    jl_world_mark_all_dirty(&w);
    ok = ok && jl_world_save(&w, dir, NULL) == JL_OK;
    struct stat st;
    ok = ok && lstat(settings, &st) == 0 && S_ISFIFO(st.st_mode);
    alarm(0);
    jli_world_shutdown(&w);
    CHECK(finish(ok));
#endif
}

TEST(huge_file_is_refused_by_its_size_without_being_read)
{
    char huge[800];
    CHECK(sample_copy("huge", NULL, 0, NULL));
    du_join(huge, sizeof huge, dir, "Entities/4294967311.jasset");
    /* 1,000 MB that take no disk: a sparse file. */
    int fd = open(huge, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    bool ok = fd >= 0 && ftruncate(fd, (off_t)1000 << 20) == 0;
    if (fd >= 0) close(fd);
    jl_world w;
    jl_world_desc d = {.capacity = 256};
    ok = ok && jli_world_init(&w, &d) == JL_OK && jl_world_load(&w, dir) == JL_ERR_PARSE && jl_world_count(&w) == 36;
    const jl_error *e = jl_world_diagnostic(&w, 0);
    ok = ok && jl_world_diagnostic_count(&w) == 1 && strcmp(e->path, huge) == 0 && strstr(e->message, "too large");
    /* Nothing near the file's size was committed to read it. */
    printf("scratch memory committed by the load: %zu KiB\n", w.scratch.committed / 1024);
    ok = ok && w.scratch.committed < ((size_t)16 << 20);
    jli_world_shutdown(&w);
    CHECK(finish(ok));
}
