/* world_lock.h - one writer at a time per world directory.
 *
 * A writer creates `<dir>/.juliet.lock` exclusively, writes who it is into
 * it (pid, host, the process's start time, a token of its own, whether it
 * also holds the kernel's lock) and deletes it when done. Natively it also
 * keeps the kernel's lock on the file, which the kernel drops however the
 * process dies. A lock whose holder no longer runs on this machine is stale
 * and taken over with a notice (moved aside, then checked to be the file
 * judged, so two writers never both take it); a live holder is waited for
 * and then reported; a lock written on another machine is never broken.
 * Every save holds the lock while it checks, writes, renames and deletes;
 * the loader deletes leftover temporaries only while holding it. The file's
 * text and what happens after a crash: docs/saving.md. */
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
