/* fs.h - the file system as a small table of operations.
 *
 * Everything the persistence layer does to disk goes through one jl_fs, one
 * function pointer per primitive operation (SQLite's VFS idea):
 * jl_fs_native() is the real one (POSIX natively, Emscripten's FS in wasm;
 * jl_fs_host() the host's disk under Node);
 * a test forwards to it and counts or faults (ENOSPC, EIO, EACCES) each
 * operation. Primitives return 0 or an errno value; the composed helpers
 * turn that into a jl_status and a jl_error naming the path and operation.
 * jl_fs_write_atomic writes an exclusive, unfollowed temporary beside the
 * file, fsyncs it and renames it over the file, so a crash leaves the old
 * or the new file, never a torn one (at worst a stray temporary, which the
 * loader ignores and removes under the world's lock); jl_fs_sync_dir syncs
 * the directory once per batch.
 *
 * A save of many files waits for the disk once, not once per file: it
 * opens a batch on the directory (jl_fs_batch_begin), writes and closes
 * every temporary in it unsynced (jl_fs_write_temp_in), makes them all
 * durable with one flush (jl_fs_batch_sync), and only then renames them
 * over their files and syncs the directory. Where the file system cannot
 * make a batch durable at once, each temporary is synced as it is
 * written, as jl_fs_write_atomic does. */
#ifndef JULIET_FS_H
#define JULIET_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "status.h"

/* What a directory entry is. Symlinks are followed (JL_FS_OTHER if the
 * target cannot be resolved, e.g. a loop). JL_FS_SPECIAL is a FIFO, socket
 * or device: never opened, since reading one may block forever. */
typedef enum jl_fs_kind { JL_FS_FILE = 0, JL_FS_DIR, JL_FS_OTHER, JL_FS_SPECIAL } jl_fs_kind;

typedef struct jl_fs_entry {
    const char *name; /* NUL-terminated, in the listing's arena */
    jl_fs_kind kind;
} jl_fs_entry;

/* What tells one version of a file from another without reading it, as
 * git's index keeps it: the file's identity (inode and device, folded into
 * one number), its size and its modification time. A rename over the path
 * changes the identity, a write in place the size or the time, except a
 * write within the same tick of a coarse clock as the version seen: for
 * such a "racy" stamp (jl_fs_stamp_is_racy) only the bytes can tell. */
typedef struct jl_fs_stamp {
    uint64_t file; /* inode and device; 0: no stamp (nothing known) */
    uint64_t size;
    int64_t mtime_ns; /* since the epoch */
} jl_fs_stamp;

/* One file of a read of many (read_files): what read_file gives for it. */
typedef struct jl_fs_read {
    int code;   /* 0, or read_file's errno value (nothing else set) */
    char *data; /* the bytes and a NUL after them, in the arena given */
    size_t size;
    jl_fs_stamp stamp;
} jl_fs_read;

typedef struct jl_fs jl_fs;

/* The operation table. `fs` is the table itself, so a wrapper can find its
 * own state through fs->user. Every operation returns 0 or an errno value. */
struct jl_fs {
    void *user;
    /* Reads the whole regular file at path into memory from arena (one
     * extra NUL byte after the data, not counted in *size). EISDIR for a
     * directory, EINVAL for a non-regular file (never blocks on a FIFO),
     * EFBIG for a file larger than max_size (nothing read), ENOMEM if the
     * arena is full, EAGAIN if the file kept changing in place while it
     * was read (a read that saw it change starts over). The file opened is
     * read whole even if another is renamed over the path meanwhile.
     * *stamp (may be NULL) gets the stamp of the version read. */
    int (*read_file)(const jl_fs *fs, const char *path, size_t max_size, jl_arena *arena, char **data, size_t *size,
                     jl_fs_stamp *stamp);
    /* Reads the first of paths[0..count) as read_file would, one after
     * another, into arena and out[i], until about budget bytes are in (at
     * least one file when count > 0). Returns how many it read. May read on
     * several threads: then a world of many small files waits for about
     * the slowest of them, not for every system call in turn. May be NULL
     * in a table: jl_fs_read_files then calls read_file on each. */
    uint32_t (*read_files)(const jl_fs *fs, const char *const *paths, uint32_t count, size_t max_size, size_t budget,
                           jl_arena *arena, jl_fs_read *out);
    /* Lists the entries of a directory (without . and ..), sorted by name
     * bytewise, into arena. An error while reading the listing is returned,
     * never taken for its end. */
    int (*list_dir)(const jl_fs *fs, const char *path, jl_arena *arena, jl_fs_entry **entries, uint32_t *count);
    /* Creates path, which must not exist, for writing; *handle is opaque.
     * EEXIST if anything is there, a dangling symlink included: nothing is
     * ever written through a link or into another writer's file. */
    int (*open_write)(const jl_fs *fs, const char *path, intptr_t *handle);
    /* Writes all of data (retrying short writes). */
    int (*write)(const jl_fs *fs, intptr_t handle, const void *data, size_t size);
    /* Flushes the file's data to stable storage. */
    int (*sync)(const jl_fs *fs, intptr_t handle);
    /* Closes the handle (also after a failure; the handle is gone either way). */
    int (*close)(const jl_fs *fs, intptr_t handle);
    /* Renames from over to, atomically replacing to. */
    int (*rename)(const jl_fs *fs, const char *from, const char *to);
    /* Flushes a directory's entries (after renames and deletes). */
    int (*sync_dir)(const jl_fs *fs, const char *path);
    /* Deletes a file. ENOENT if there is none. */
    int (*remove)(const jl_fs *fs, const char *path);
    /* The stamp of the file at path (a symbolic link followed). ENOENT if
     * there is none. */
    int (*stat)(const jl_fs *fs, const char *path, jl_fs_stamp *stamp);
    /* Takes the kernel's lock (flock) on a file this process created and
     * holds open: held until the handle is closed or the process dies,
     * whichever comes first. EWOULDBLOCK if another process holds it;
     * ENOSYS where there are no such locks (wasm). */
    int (*lock)(const jl_fs *fs, intptr_t handle);
    /* Whether a process holds the kernel's lock on the file at path: 0 if
     * none does (it was never taken, or its holder died), EWOULDBLOCK if
     * one does, ENOSYS where there are no such locks, ENOENT if there is
     * no file. */
    int (*test_lock)(const jl_fs *fs, const char *path);
    /* Creates a directory; EEXIST if it exists. With like (may be NULL),
     * with the permissions and, where this process may set them, the owner
     * and group of the directory like (a folder a new world replaces). */
    int (*make_dir)(const jl_fs *fs, const char *path, const char *like);
    /* Deletes an empty directory. ENOTEMPTY if it is not empty. */
    int (*remove_dir)(const jl_fs *fs, const char *path);
    /* Starts a batch of files to be created in the directory path and made
     * durable together by sync_batch: one wait for all of them instead of
     * a sync each. *handle is opaque; it is taken before the batch's first
     * file is created, so that a failed write-back of any of them is
     * reported. ENOSYS where files can only be made durable one by one
     * (then each is synced): natively outside Linux, on a kernel whose
     * syncfs does not report write-back errors (before 5.8) or a file
     * system not known to flush whole on syncfs (network and FUSE file
     * systems among them), and in wasm but for jl_fs_host (there the
     * batch's files are fsynced all at once on another thread). May be
     * NULL in a table: the same as ENOSYS. A batch given up is released
     * with close. */
    int (*batch_open)(const jl_fs *fs, const char *path, intptr_t *handle);
    /* Flushes to stable storage the data and size of every file created in
     * the batch's directory and closed since batch_open, then releases the
     * handle (also after a failure: the handle is gone either way). On
     * failure none of them may be taken as durable. */
    int (*sync_batch)(const jl_fs *fs, intptr_t handle);
};

/* The process's real file system. The table is a constant; never NULL. */
const jl_fs *jl_fs_native(void);

/* In wasm under Node: the host's disk through Node's own fs, named by host
 * paths, with the native table's promises (stamps of the open file in
 * nanoseconds, exclusive unfollowed creates, real fsyncs). Emscripten's
 * file system costs tens of microseconds of path handling a call there.
 * NULL elsewhere (natively, in a browser). */
const jl_fs *jl_fs_host(void);

/* Names of the operations, for counters and messages: "read_file",
 * "list_dir", "open_write", "write", "sync", "close", "rename",
 * "sync_dir", "remove", "stat", "lock", "test_lock", "make_dir",
 * "remove_dir", "batch_open", "sync_batch". */
const char *jl_fs_op_name(uint32_t op);
enum {
    JL_FS_OP_READ_FILE = 0,
    JL_FS_OP_LIST_DIR,
    JL_FS_OP_OPEN_WRITE,
    JL_FS_OP_WRITE,
    JL_FS_OP_SYNC,
    JL_FS_OP_CLOSE,
    JL_FS_OP_RENAME,
    JL_FS_OP_SYNC_DIR,
    JL_FS_OP_REMOVE,
    JL_FS_OP_STAT,
    JL_FS_OP_LOCK,
    JL_FS_OP_TEST_LOCK,
    JL_FS_OP_MAKE_DIR,
    JL_FS_OP_REMOVE_DIR,
    JL_FS_OP_BATCH_OPEN,
    JL_FS_OP_SYNC_BATCH,
    JL_FS_OP_COUNT
};

/* Fills err with "<op> failed: <NAME>: <reason>" for errno value code at
 * path (the POSIX name, e.g. "ENOSPC: no space left on device", the same
 * natively and in wasm) and returns JL_ERR_IO (JL_ERR_NOT_FOUND for ENOENT). */
jl_status jl_fs_error(jl_error *err, const char *path, const char *op, int code);

/* fs->read_files, or read_file on each file in turn where the table has
 * none (a test's table faults read_file itself). */
uint32_t jl_fs_read_files(const jl_fs *fs, const char *const *paths, uint32_t count, size_t max_size, size_t budget,
                          jl_arena *arena, jl_fs_read *out);

/* Replaces path with data atomically (see the file comment). On failure the
 * old file is untouched, the temporary is removed when possible, and err
 * names path and the failed operation. Does not sync the directory. */
jl_status jl_fs_write_atomic(const jl_fs *fs, const char *path, const void *data, size_t size, jl_error *err);

/* The first half of jl_fs_write_atomic: data written, synced and closed in
 * a new temporary beside path, whose name goes into temp (JL_ERROR_PATH_MAX
 * bytes) and whose stamp into *stamp (may be NULL). The caller then renames
 * it over path (jl_fs_commit_temp) or removes it. On failure there is no
 * temporary and err names path and the failed operation. */
jl_status jl_fs_write_temp(const jl_fs *fs, const char *path, const void *data, size_t size, char *temp,
                           jl_fs_stamp *stamp, jl_error *err);

/* The second half: renames temp over path; on failure removes temp, path
 * untouched, and err names path. */
jl_status jl_fs_commit_temp(const jl_fs *fs, const char *temp, const char *path, jl_error *err);

/* A batch of temporaries made durable with one wait (see the file
 * comment). Zero-initialised: no batch. `open` false after
 * jl_fs_batch_begin means the file system syncs file by file. */
typedef struct jl_fs_batch {
    intptr_t handle;
    bool open;
} jl_fs_batch;

/* Starts a batch for temporaries created in directory dir (fs->batch_open).
 * JL_OK also where fs cannot batch: then batch->open is false and
 * jl_fs_write_temp_in syncs each file. On failure there is no batch and err
 * names dir and "batch_open". */
jl_status jl_fs_batch_begin(const jl_fs *fs, const char *dir, jl_fs_batch *batch, jl_error *err);

/* jl_fs_write_temp into a batch: with an open batch (path in the batch's
 * directory) the temporary is written and closed but durable only once
 * jl_fs_batch_sync returns JL_OK, and must not be renamed over path before;
 * with none (batch NULL or not open), synced as jl_fs_write_temp does. */
jl_status jl_fs_write_temp_in(const jl_fs *fs, const jl_fs_batch *batch, const char *path, const void *data,
                              size_t size, char *temp, jl_fs_stamp *stamp, jl_error *err);

/* Makes every temporary written in the batch durable with one flush and
 * ends the batch (JL_OK at once if it is not open). On failure err names
 * dir and "sync_batch" and none of them may be renamed: the caller removes
 * them. The batch is over either way. */
jl_status jl_fs_batch_sync(const jl_fs *fs, jl_fs_batch *batch, const char *dir, jl_error *err);

/* Ends a batch without making its temporaries durable (the caller removes
 * them). Safe on a batch that is over or never began. */
void jl_fs_batch_abandon(const jl_fs *fs, jl_fs_batch *batch);

/* True if two stamps are of the same version of a file (both known). */
bool jl_fs_stamp_same(const jl_fs_stamp *a, const jl_fs_stamp *b);

/* The stamp of a file from what a stat of it gives: its inode and device
 * (folded into the identity, never 0), size and modification time. The one
 * fold every stamp is made with, so that the stamps of every table on the
 * same disk (jl_fs_native, jl_fs_host) compare equal. */
jl_fs_stamp jl_fs_stamp_of(uint64_t ino, uint64_t dev, uint64_t size, int64_t mtime_ns);

/* True if a stamp taken at wall-clock time now_ns (jl_platform_wall_ns)
 * cannot tell that version from a later write in place: its modification
 * time is within JL_FS_RACY_NS of now, the coarsest clock tick of the file
 * systems a world lives on (2 s on FAT, a scheduler tick elsewhere), with
 * room for a little clock skew. */
bool jl_fs_stamp_is_racy(const jl_fs_stamp *stamp, uint64_t now_ns);
#define JL_FS_RACY_NS 3000000000ll

/* Creates path as a directory unless it already exists. */
jl_status jl_fs_ensure_dir(const jl_fs *fs, const char *path, jl_error *err);

/* Deletes dir and everything under it (at most a few levels deep: made for
 * a world directory this process created, never a user's tree). Returns 0
 * or the first errno value; goes on past failures. */
int jl_fs_remove_tree(const jl_fs *fs, const char *dir, jl_arena *scratch);

/* True for the name of a temporary file jl_fs_write_atomic may leave behind
 * (ends in ".tmp"). */
bool jl_fs_is_temp_name(const char *name);

/* The suffix of a temporary's name (see the file comment). */
#define JL_FS_TEMP_SUFFIX ".tmp"

/* Writes "<path>.<pid>-<n><suffix>" into out with n from a process-wide
 * counter, for a name no other process or earlier call uses. false if it
 * does not fit. */
bool jl_fs_unique_name(char *out, size_t out_size, const char *path, const char *suffix);

/* Joins dir and name with one '/' into out (NUL-terminated). Returns false
 * (and writes an empty string) if it does not fit in out_size. */
bool jl_fs_join(char *out, size_t out_size, const char *dir, const char *name);

#endif
