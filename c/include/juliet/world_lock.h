/* world_lock.h - one writer at a time per world directory.
 *
 * A writer creates `<dir>/.juliet.lock` exclusively (open_write of fs.h),
 * writes who it is into it and deletes it when done:
 *
 *   pid 1234          the holder's process
 *   host studio-7     the machine it runs on
 *   started 5678901   when that process started (0: unknown), so that a
 *                     reused pid is not taken for the holder
 *   token 9f3c...     this acquisition's own mark
 *   flock 1           held with the kernel's lock as well (natively)
 *
 * Natively the holder also keeps the kernel's lock (fs.h: lock) on the file
 * while it holds it, as SQLite does: the kernel drops it when the process
 * dies, however it dies. A writer that finds the file therefore knows a
 * dead native holder for certain; a holder without the kernel's lock (wasm
 * under Node) is judged by its pid and start time. A lock whose holder no
 * longer runs on this machine is stale and taken over, with a notice; a
 * live holder is waited for (up to wait_ms) and then reported; a lock
 * written on another machine is reported, never broken: its pid means
 * nothing here. Taking over moves the stale file aside under a temporary
 * name and checks that what it moved is the file it judged (its token), so
 * two writers that find one stale lock never both take it.
 *
 * Every save (world.h) holds the lock while it checks, writes, renames and
 * deletes, and the loader deletes leftover temporary files only while it
 * holds the lock, so it can never delete the temporary a running save is
 * writing.
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
    char token[17];               /* this acquisition's mark, in the file */
    intptr_t handle;              /* the open lock file (the kernel's lock), -1 if none */
    jl_arena *scratch;            /* acquire's, for release to read the file back */
    bool held;
    /* Set when a stale lock was taken over: "took over the lock of pid N
     * (no longer running)"; empty otherwise. */
    char notice[160];
} jl_world_lock;

/* Takes the lock of world directory dir, waiting up to wait_ms for another
 * holder to finish (0: a single try). scratch is used for reading the
 * holder's file and restored. On success *lock is held (lock->notice says
 * if a stale lock was taken over); JL_ERR_LOCKED with err naming the
 * holder's pid, machine and the lock file if a live process or another
 * machine holds it; JL_ERR_NOT_FOUND if dir does not exist; JL_ERR_IO for
 * other failures. Nothing is changed on failure. */
jl_status jl_world_lock_acquire(jl_world_lock *lock, const jl_fs *fs, const char *dir, uint32_t wait_ms,
                                jl_arena *scratch, jl_error *err);

/* Deletes the lock file if held and still this acquisition's (its token),
 * then lets the kernel's lock go. Safe on a lock not held. Uses the
 * scratch arena acquire was given. */
void jl_world_lock_release(jl_world_lock *lock, const jl_fs *fs);

#endif
