/* fs_probe.h - the one jl_fs test double of the native suites: a table
 * that forwards to the native file system and counts, logs, faults or kills
 * at each operation.
 *
 *   probe_fs p;
 *   probe_init(&p);
 *   p.fail_at = 3; p.fail_code = ENOSPC;   fail the 3rd operation
 *   p.fail_op = JL_FS_OP_RENAME;           or fail every rename (-1: none)
 *   p.kill_after = 7;                      SIGKILL self right after the 7th
 *   jl_world_desc d = {.fs = &p.table};
 *
 * Operation numbers are 1-based and count every call made through the table
 * (reads and listings included): p.total so far, p.ops[op] per kind, and
 * p.first[op] the number of each kind's first call (0: none yet), which is
 * enough to check the order of two kinds; probe_start_log keeps every
 * operation with its paths, for finer checks. A failed operation behaves
 * like the real failure would: a failed write first writes half of its data
 * (a disk that fills up mid-file), a failed close still releases the
 * descriptor, a failed rename, remove, sync or make_dir changes nothing.
 *
 * skip_sync counts sync, sync_dir and sync_batch but does not call fsync
 * or syncfs: a process kill leaves the page cache intact, so the kill tests
 * do not need the disk flushes, and 10,000 fsyncs per run would dominate
 * their time. The order of flushes against renames, which is what power
 * loss depends on, is checked on the operation log instead.
 *
 * no_batch makes batch_open answer ENOSYS, as a file system that syncs
 * file by file does: the save then syncs each temporary, the path wasm and
 * other systems take.
 *
 * A test that needs more (a slow disk, a check at each read) replaces entries
 * of p.table with its own functions that call the probe_* one they replace;
 * p.owner can point them to the struct the probe is part of.
 *
 * The world lock's operations (world_lock.h) pass through unseen: these
 * tests are about the save's own files (the lock has tests of its own).
 *
 * Used by one test file at a time: everything is static. */
#ifndef JULIET_FS_PROBE_H
#define JULIET_FS_PROBE_H

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "juliet/fs.h"
#include "juliet/world_lock.h"

enum { PROBE_HANDLES = 64, PROBE_PATH = 512 };

typedef struct probe_op {
    uint8_t op;              /* JL_FS_OP_* */
    int result;              /* what the caller got */
    char path[PROBE_PATH];   /* the file or directory (for rename: the source) */
    char target[PROBE_PATH]; /* rename's destination, else empty */
} probe_op;

typedef struct probe_fs {
    jl_fs table; /* pass &probe.table to the world; table.user points back */
    const jl_fs *inner;
    void *owner;                    /* free for the test: the struct around the probe */
    uint32_t total;                 /* operations so far */
    uint32_t ops[JL_FS_OP_COUNT];   /* operations so far, per JL_FS_OP_* */
    uint32_t first[JL_FS_OP_COUNT]; /* number of the first of each kind; 0 = none */
    uint32_t fail_at;               /* 1-based operation to fail; 0 = none */
    int fail_op;                    /* JL_FS_OP_* of which every call fails; -1 = none */
    int fail_code;                  /* errno value for the failures */
    uint32_t failed;                /* faults injected */
    uint32_t kill_after;            /* raise SIGKILL right after this operation; 0 = never */
    int deny_read_code;             /* read_file of deny_read_path fails with it (EACCES for root) */
    char deny_read_path[PROBE_PATH];
    bool skip_sync;
    bool no_batch;
    probe_op *log; /* every operation, when log_capacity > 0 */
    uint32_t log_count, log_capacity;
    struct {
        intptr_t handle;
        char path[PROBE_PATH];
    } open[PROBE_HANDLES];
    intptr_t lock_handle; /* the world lock's file while it is written */
} probe_fs;

static inline probe_fs *probe_of(const jl_fs *fs) { return (probe_fs *)fs->user; }

/* The lock file, and the names it is moved aside to when taken over. */
static inline bool probe_is_lock(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    size_t m = sizeof JL_WORLD_LOCK_NAME - 1;
    return strncmp(name, JL_WORLD_LOCK_NAME, m) == 0 && (name[m] == '\0' || name[m] == '.');
}

static inline void probe_copy(char *dst, const char *src)
{
    size_t n = src ? strlen(src) : 0;
    if (n >= PROBE_PATH) n = PROBE_PATH - 1;
    if (n) memcpy(dst, src, n);
    dst[n] = '\0';
}

static inline const char *probe_handle_path(probe_fs *p, intptr_t handle)
{
    for (int i = 0; i < PROBE_HANDLES; i++)
        if (p->open[i].handle == handle && p->open[i].path[0]) return p->open[i].path;
    return "";
}

/* Starts an operation: counts it and says whether it is one to fail. */
static inline bool probe_begin(probe_fs *p, uint32_t op)
{
    p->ops[op]++;
    p->total++;
    if (!p->first[op]) p->first[op] = p->total;
    if ((p->fail_at && p->total == p->fail_at) || p->fail_op == (int)op) {
        p->failed++;
        return true;
    }
    return false;
}

/* Ends an operation: logs it, then dies if this was the kill point. */
static inline int probe_end(probe_fs *p, uint32_t op, const char *path, const char *target, int result)
{
    if (p->log_capacity) {
        if (p->log_count == p->log_capacity) {
            p->log_capacity *= 2;
            p->log = realloc(p->log, p->log_capacity * sizeof *p->log);
            if (!p->log) abort();
        }
        probe_op *o = &p->log[p->log_count++];
        o->op = (uint8_t)op;
        o->result = result;
        probe_copy(o->path, path);
        probe_copy(o->target, target);
    }
    if (p->kill_after && p->total == p->kill_after) raise(SIGKILL);
    return result;
}

static inline int probe_read_file(const jl_fs *fs, const char *path, size_t max, jl_arena *arena, char **data,
                                  size_t *size, jl_fs_stamp *stamp)
{
    probe_fs *p = probe_of(fs);
    if (probe_is_lock(path)) return p->inner->read_file(p->inner, path, max, arena, data, size, stamp);
    int r;
    if (probe_begin(p, JL_FS_OP_READ_FILE)) r = p->fail_code;
    else if (p->deny_read_code && strcmp(path, p->deny_read_path) == 0) r = p->deny_read_code;
    else r = p->inner->read_file(p->inner, path, max, arena, data, size, stamp);
    return probe_end(p, JL_FS_OP_READ_FILE, path, NULL, r);
}

static inline int probe_list_dir(const jl_fs *fs, const char *path, jl_arena *arena, jl_fs_entry **entries,
                                 uint32_t *count)
{
    probe_fs *p = probe_of(fs);
    int r =
        probe_begin(p, JL_FS_OP_LIST_DIR) ? p->fail_code : p->inner->list_dir(p->inner, path, arena, entries, count);
    return probe_end(p, JL_FS_OP_LIST_DIR, path, NULL, r);
}

/* Remembers which path an open handle is for (its writes and syncs name it). */
static inline void probe_note_open(probe_fs *p, intptr_t handle, const char *path)
{
    for (int i = 0; i < PROBE_HANDLES; i++) {
        if (p->open[i].path[0]) continue;
        p->open[i].handle = handle;
        probe_copy(p->open[i].path, path);
        break;
    }
}

static inline int probe_open_write(const jl_fs *fs, const char *path, intptr_t *handle)
{
    probe_fs *p = probe_of(fs);
    if (probe_is_lock(path)) {
        int r = p->inner->open_write(p->inner, path, handle);
        if (r == 0) p->lock_handle = *handle;
        return r;
    }
    int r = probe_begin(p, JL_FS_OP_OPEN_WRITE) ? p->fail_code : p->inner->open_write(p->inner, path, handle);
    if (r == 0) probe_note_open(p, *handle, path);
    return probe_end(p, JL_FS_OP_OPEN_WRITE, path, NULL, r);
}

static inline int probe_write(const jl_fs *fs, intptr_t handle, const void *data, size_t size)
{
    probe_fs *p = probe_of(fs);
    if (handle == p->lock_handle) return p->inner->write(p->inner, handle, data, size);
    int r;
    if (probe_begin(p, JL_FS_OP_WRITE)) {
        /* A disk that fills up halfway through the file. */
        p->inner->write(p->inner, handle, data, size / 2);
        r = p->fail_code;
    } else {
        r = p->inner->write(p->inner, handle, data, size);
    }
    return probe_end(p, JL_FS_OP_WRITE, probe_handle_path(p, handle), NULL, r);
}

static inline int probe_sync(const jl_fs *fs, intptr_t handle)
{
    probe_fs *p = probe_of(fs);
    int r = probe_begin(p, JL_FS_OP_SYNC) ? p->fail_code : p->skip_sync ? 0 : p->inner->sync(p->inner, handle);
    return probe_end(p, JL_FS_OP_SYNC, probe_handle_path(p, handle), NULL, r);
}

static inline int probe_close(const jl_fs *fs, intptr_t handle)
{
    probe_fs *p = probe_of(fs);
    if (handle == p->lock_handle) {
        p->lock_handle = -1;
        return p->inner->close(p->inner, handle);
    }
    bool fail = probe_begin(p, JL_FS_OP_CLOSE);
    /* The descriptor is released either way (as close(2) does). */
    int r = p->inner->close(p->inner, handle);
    if (fail) r = p->fail_code;
    char path[PROBE_PATH];
    probe_copy(path, probe_handle_path(p, handle));
    for (int i = 0; i < PROBE_HANDLES; i++)
        if (p->open[i].handle == handle) p->open[i].path[0] = '\0';
    return probe_end(p, JL_FS_OP_CLOSE, path, NULL, r);
}

static inline int probe_rename(const jl_fs *fs, const char *from, const char *to)
{
    probe_fs *p = probe_of(fs);
    if (probe_is_lock(from)) return p->inner->rename(p->inner, from, to);
    int r = probe_begin(p, JL_FS_OP_RENAME) ? p->fail_code : p->inner->rename(p->inner, from, to);
    return probe_end(p, JL_FS_OP_RENAME, from, to, r);
}

static inline int probe_sync_dir(const jl_fs *fs, const char *path)
{
    probe_fs *p = probe_of(fs);
    int r = probe_begin(p, JL_FS_OP_SYNC_DIR) ? p->fail_code : p->skip_sync ? 0 : p->inner->sync_dir(p->inner, path);
    return probe_end(p, JL_FS_OP_SYNC_DIR, path, NULL, r);
}

static inline int probe_remove(const jl_fs *fs, const char *path)
{
    probe_fs *p = probe_of(fs);
    if (probe_is_lock(path)) return p->inner->remove(p->inner, path);
    int r = probe_begin(p, JL_FS_OP_REMOVE) ? p->fail_code : p->inner->remove(p->inner, path);
    return probe_end(p, JL_FS_OP_REMOVE, path, NULL, r);
}

static inline int probe_stat(const jl_fs *fs, const char *path, jl_fs_stamp *stamp)
{
    probe_fs *p = probe_of(fs);
    if (probe_is_lock(path)) return p->inner->stat(p->inner, path, stamp);
    int r = probe_begin(p, JL_FS_OP_STAT) ? p->fail_code : p->inner->stat(p->inner, path, stamp);
    return probe_end(p, JL_FS_OP_STAT, path, NULL, r);
}

static inline int probe_batch_open(const jl_fs *fs, const char *path, intptr_t *handle)
{
    probe_fs *p = probe_of(fs);
    int r = probe_begin(p, JL_FS_OP_BATCH_OPEN) ? p->fail_code
            : p->no_batch                       ? ENOSYS
                                                : p->inner->batch_open(p->inner, path, handle);
    if (r == 0) probe_note_open(p, *handle, path);
    return probe_end(p, JL_FS_OP_BATCH_OPEN, path, NULL, r);
}

/* Releases the handle either way, as the real one does. */
static inline int probe_sync_batch(const jl_fs *fs, intptr_t handle)
{
    probe_fs *p = probe_of(fs);
    int r;
    if (probe_begin(p, JL_FS_OP_SYNC_BATCH)) {
        p->inner->close(p->inner, handle); /* a failed flush still lets go of it */
        r = p->fail_code;
    } else if (p->skip_sync) {
        r = p->inner->close(p->inner, handle);
    } else {
        r = p->inner->sync_batch(p->inner, handle);
    }
    char path[PROBE_PATH];
    probe_copy(path, probe_handle_path(p, handle));
    for (int i = 0; i < PROBE_HANDLES; i++)
        if (p->open[i].handle == handle) p->open[i].path[0] = '\0';
    return probe_end(p, JL_FS_OP_SYNC_BATCH, path, NULL, r);
}

/* The kernel's lock is the world lock's alone: it passes through unseen. */
static inline int probe_lock(const jl_fs *fs, intptr_t handle)
{
    return probe_of(fs)->inner->lock(probe_of(fs)->inner, handle);
}

static inline int probe_test_lock(const jl_fs *fs, const char *path)
{
    return probe_of(fs)->inner->test_lock(probe_of(fs)->inner, path);
}

static inline int probe_make_dir(const jl_fs *fs, const char *path, const char *like)
{
    probe_fs *p = probe_of(fs);
    int r = probe_begin(p, JL_FS_OP_MAKE_DIR) ? p->fail_code : p->inner->make_dir(p->inner, path, like);
    return probe_end(p, JL_FS_OP_MAKE_DIR, path, NULL, r);
}

static inline int probe_remove_dir(const jl_fs *fs, const char *path)
{
    probe_fs *p = probe_of(fs);
    int r = probe_begin(p, JL_FS_OP_REMOVE_DIR) ? p->fail_code : p->inner->remove_dir(p->inner, path);
    return probe_end(p, JL_FS_OP_REMOVE_DIR, path, NULL, r);
}

/* A probe that forwards everything to the native table and logs nothing. */
static inline void probe_init(probe_fs *p)
{
    memset(p, 0, sizeof *p);
    p->inner = jl_fs_native();
    p->fail_op = -1;
    p->lock_handle = -1;
    p->table = (jl_fs){
        .user = p,
        .read_file = probe_read_file,
        .list_dir = probe_list_dir,
        .open_write = probe_open_write,
        .write = probe_write,
        .sync = probe_sync,
        .close = probe_close,
        .rename = probe_rename,
        .sync_dir = probe_sync_dir,
        .remove = probe_remove,
        .stat = probe_stat,
        .lock = probe_lock,
        .test_lock = probe_test_lock,
        .make_dir = probe_make_dir,
        .remove_dir = probe_remove_dir,
        .batch_open = probe_batch_open,
        .sync_batch = probe_sync_batch,
    };
}

/* Whether the real file system makes a batch of files in dir durable with
 * one flush (fs.h: batch_open), rather than syncing file by file: then a
 * save's log shows batch_open and sync_batch where it would show a sync for
 * each file. */
static inline bool probe_dir_batches(const char *dir)
{
    const jl_fs *native = jl_fs_native();
    intptr_t handle;
    if (native->batch_open(native, dir, &handle) != 0) return false;
    native->close(native, handle);
    return true;
}

/* Starts logging every operation (freed by probe_free). */
static inline void probe_start_log(probe_fs *p)
{
    p->log_capacity = 256;
    p->log_count = 0;
    p->log = malloc(p->log_capacity * sizeof *p->log);
    if (!p->log) abort();
}

/* Counters back to zero, no fault, no kill; the log is kept but emptied. */
static inline void probe_reset(probe_fs *p)
{
    p->total = 0;
    memset(p->ops, 0, sizeof p->ops);
    memset(p->first, 0, sizeof p->first);
    p->fail_at = 0;
    p->fail_op = -1;
    p->fail_code = 0;
    p->failed = 0;
    p->kill_after = 0;
    p->log_count = 0;
}

static inline void probe_free(probe_fs *p)
{
    free(p->log);
    p->log = NULL;
    p->log_count = p->log_capacity = 0;
}

#endif
