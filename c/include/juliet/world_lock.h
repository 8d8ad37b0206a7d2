/* world_lock.h - one writer at a time per world directory.
 *
 * In the manner of git's index.lock: a writer creates `<dir>/.juliet.lock`
 * exclusively (open_write of fs.h), writes its process ID into it, and
 * deletes it when done. A second writer that finds the file waits a little
 * (the holder may be finishing) and then fails with "world is locked by pid
 * N", never writes beside it. A lock whose process no longer runs is stale:
 * reported as such, with the file to delete, and never broken silently,
 * since the pid may belong to another machine sharing the directory, or
 * have been reused.
 *
 * Every save (world.h) holds the lock while it writes, renames and deletes,
 * and the loader deletes leftover temporary files only while it holds the
 * lock, so it can never delete the temporary a running save is writing.
 */
#ifndef JULIET_WORLD_LOCK_H
#define JULIET_WORLD_LOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "fs.h"
#include "status.h"

/* The lock file's name inside a world directory. */
#define JL_WORLD_LOCK_NAME ".juliet.lock"

typedef struct jl_world_lock {
    char path[JL_ERROR_PATH_MAX]; /* the lock file, while held */
    bool held;
} jl_world_lock;

/* Takes the lock of world directory dir, waiting up to wait_ms for another
 * holder to finish (0: a single try). scratch is used for reading the
 * holder's pid and restored. On success *lock is held; JL_ERR_LOCKED with
 * err naming the holder's pid and the lock file if another process holds
 * it or left it behind; JL_ERR_NOT_FOUND if dir does not exist; JL_ERR_IO
 * for other failures. Nothing is changed on failure. */
jl_status jl_world_lock_acquire(jl_world_lock *lock, const jl_fs *fs, const char *dir, uint32_t wait_ms,
                                jl_arena *scratch, jl_error *err);

/* Deletes the lock file if held. Safe on a lock not held. */
void jl_world_lock_release(jl_world_lock *lock, const jl_fs *fs);

#endif
