/* persist_util.h - helpers shared by the persistence suites
 * (test_archive.c, test_world.c, test_cli.c): tree comparisons and a jl_fs
 * wrapper that counts and faults operations, on top of the file helpers of
 * disk_util.h. Test code only: it may use the C library freely. */
#ifndef JULIET_PERSIST_UTIL_H
#define JULIET_PERSIST_UTIL_H

#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disk_util.h"
#include "juliet/fs.h"
#include "juliet/world_lock.h"

#define ASSETS JULIET_ASSETS_DIR

/* Number of entries in a directory (-1 if it cannot be opened). */
static inline int pu_count(const char *path)
{
    DIR *d = opendir(path);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

/* True if the two directory trees hold the same names with the same bytes. */
static inline bool pu_same_tree(const char *a, const char *b)
{
    if (pu_count(a) != pu_count(b)) return false;
    DIR *d = opendir(a);
    if (!d) return false;
    bool same = true;
    struct dirent *e;
    while (same && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char pa[1024], pb[1024];
        du_join(pa, sizeof pa, a, e->d_name);
        du_join(pb, sizeof pb, b, e->d_name);
        struct stat st;
        if (stat(pa, &st) != 0) {
            same = false;
        } else if (S_ISDIR(st.st_mode)) {
            same = pu_same_tree(pa, pb);
        } else {
            size_t na = 0, nb = 0;
            char *da = du_read(pa, &na), *db = du_read(pb, &nb);
            same = da && db && na == nb && memcmp(da, db, na) == 0;
            if (!same) fprintf(stderr, "differs: %s %s\n", pa, pb);
            free(da);
            free(db);
        }
    }
    closedir(d);
    return same;
}

/* ---- a file system that counts operations and fails the chosen one ---- */

typedef struct pu_fault_fs {
    jl_fs fs;              /* first: the world gets &fault.fs */
    const jl_fs *real;
    uint32_t ops[JL_FS_OP_COUNT]; /* calls per operation */
    uint32_t total;               /* calls of write-side operations, in order */
    uint32_t fail_at;             /* 1-based index into that order; 0 = never */
    int fail_code;                /* errno to return */
    int fail_op;                  /* or: fail every call of this op (-1 = none) */
    char log[4096];               /* "op path\n" of write-side operations */
    intptr_t lock_handle;         /* the world lock's file while it is written */
} pu_fault_fs;

static inline pu_fault_fs *pu_self(const jl_fs *fs) { return (pu_fault_fs *)fs->user; }

/* The world lock's operations (world_lock.h) pass through uncounted and
 * unfaulted: these suites are about the save's own files; the lock has
 * tests of its own. */
static inline bool pu_is_lock(const char *path) { return path && du_ends_with(path, "/" JL_WORLD_LOCK_NAME); }

/* Counts a write-side operation and decides whether it fails. */
static inline int pu_step(const jl_fs *fs, uint32_t op, const char *path)
{
    pu_fault_fs *f = pu_self(fs);
    f->ops[op]++;
    f->total++;
    size_t used = strlen(f->log);
    if (used + 300 < sizeof f->log)
        snprintf(f->log + used, sizeof f->log - used, "%s %s\n", jl_fs_op_name(op), path ? path : "-");
    if ((f->fail_at && f->total == f->fail_at) || f->fail_op == (int)op) return f->fail_code;
    return 0;
}

static inline int pu_read_file(const jl_fs *fs, const char *path, size_t max, jl_arena *arena, char **data,
                               size_t *size)
{
    pu_fault_fs *f = pu_self(fs);
    f->ops[JL_FS_OP_READ_FILE]++;
    if (f->fail_op == JL_FS_OP_READ_FILE) return f->fail_code;
    return f->real->read_file(f->real, path, max, arena, data, size);
}
static inline int pu_list_dir(const jl_fs *fs, const char *path, jl_arena *arena, jl_fs_entry **e, uint32_t *n)
{
    pu_fault_fs *f = pu_self(fs);
    f->ops[JL_FS_OP_LIST_DIR]++;
    if (f->fail_op == JL_FS_OP_LIST_DIR) return f->fail_code;
    return f->real->list_dir(f->real, path, arena, e, n);
}
static inline int pu_open_write(const jl_fs *fs, const char *path, intptr_t *h)
{
    if (pu_is_lock(path)) {
        int r = pu_self(fs)->real->open_write(pu_self(fs)->real, path, h);
        if (r == 0) pu_self(fs)->lock_handle = *h;
        return r;
    }
    int c = pu_step(fs, JL_FS_OP_OPEN_WRITE, path);
    return c ? c : pu_self(fs)->real->open_write(pu_self(fs)->real, path, h);
}
static inline int pu_write_op(const jl_fs *fs, intptr_t h, const void *data, size_t size)
{
    if (h == pu_self(fs)->lock_handle) return pu_self(fs)->real->write(pu_self(fs)->real, h, data, size);
    int c = pu_step(fs, JL_FS_OP_WRITE, NULL);
    if (c) {
        /* A realistic failure: half the bytes reach the file first. */
        pu_self(fs)->real->write(pu_self(fs)->real, h, data, size / 2);
        return c;
    }
    return pu_self(fs)->real->write(pu_self(fs)->real, h, data, size);
}
static inline int pu_sync(const jl_fs *fs, intptr_t h)
{
    int c = pu_step(fs, JL_FS_OP_SYNC, NULL);
    return c ? c : pu_self(fs)->real->sync(pu_self(fs)->real, h);
}
static inline int pu_close(const jl_fs *fs, intptr_t h)
{
    int real = pu_self(fs)->real->close(pu_self(fs)->real, h); /* the handle goes either way */
    if (h == pu_self(fs)->lock_handle) {
        pu_self(fs)->lock_handle = -1;
        return real;
    }
    int c = pu_step(fs, JL_FS_OP_CLOSE, NULL);
    return c ? c : real;
}
static inline int pu_rename(const jl_fs *fs, const char *from, const char *to)
{
    int c = pu_step(fs, JL_FS_OP_RENAME, to);
    return c ? c : pu_self(fs)->real->rename(pu_self(fs)->real, from, to);
}
static inline int pu_sync_dir(const jl_fs *fs, const char *path)
{
    int c = pu_step(fs, JL_FS_OP_SYNC_DIR, path);
    return c ? c : pu_self(fs)->real->sync_dir(pu_self(fs)->real, path);
}
static inline int pu_remove(const jl_fs *fs, const char *path)
{
    if (pu_is_lock(path)) return pu_self(fs)->real->remove(pu_self(fs)->real, path);
    int c = pu_step(fs, JL_FS_OP_REMOVE, path);
    return c ? c : pu_self(fs)->real->remove(pu_self(fs)->real, path);
}
static inline int pu_make_dir(const jl_fs *fs, const char *path)
{
    int c = pu_step(fs, JL_FS_OP_MAKE_DIR, path);
    return c ? c : pu_self(fs)->real->make_dir(pu_self(fs)->real, path);
}
static inline int pu_remove_dir(const jl_fs *fs, const char *path)
{
    int c = pu_step(fs, JL_FS_OP_REMOVE_DIR, path);
    return c ? c : pu_self(fs)->real->remove_dir(pu_self(fs)->real, path);
}

static inline void pu_fault_init(pu_fault_fs *f)
{
    memset(f, 0, sizeof *f);
    f->real = jl_fs_native();
    f->fail_op = -1;
    f->lock_handle = -1;
    f->fs = (jl_fs){.user = f, .read_file = pu_read_file, .list_dir = pu_list_dir, .open_write = pu_open_write,
                    .write = pu_write_op, .sync = pu_sync, .close = pu_close, .rename = pu_rename,
                    .sync_dir = pu_sync_dir, .remove = pu_remove, .make_dir = pu_make_dir,
                    .remove_dir = pu_remove_dir};
}

/* Forgets the counts (keeps the fault settings). */
static inline void pu_fault_reset_counts(pu_fault_fs *f)
{
    memset(f->ops, 0, sizeof f->ops);
    f->total = 0;
    f->log[0] = '\0';
}

/* Calls that change the disk: open_write, rename, remove, make_dir. */
static inline uint32_t pu_disk_changes(const pu_fault_fs *f)
{
    return f->ops[JL_FS_OP_OPEN_WRITE] + f->ops[JL_FS_OP_RENAME] + f->ops[JL_FS_OP_REMOVE];
}

#endif
