/* world_lock.c - the world directory's lock file (world_lock.h). */
#include "juliet/world_lock.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "juliet/platform.h"

enum { RETRY_MS = 20 };

/* The pid written in the lock file, or 0 if it holds none (yet: the holder
 * may be between creating and writing it). -1 if the file is gone. */
static int64_t holder_pid(const jl_fs *fs, const char *path, jl_arena *scratch)
{
    const size_t mark = scratch->used;
    char *text;
    size_t size;
    int code = fs->read_file(fs, path, 64, scratch, &text, &size);
    int64_t pid = code == ENOENT ? -1 : 0;
    if (code == 0) {
        for (size_t i = 0; i < size && text[i] >= '0' && text[i] <= '9' && pid < UINT32_MAX; i++)
            pid = pid * 10 + (text[i] - '0');
        if (pid > UINT32_MAX) pid = 0;
    }
    jl_arena_pop_to(scratch, mark);
    return pid;
}

static jl_status create_lock(jl_world_lock *lock, const jl_fs *fs, int *code)
{
    intptr_t handle;
    *code = fs->open_write(fs, lock->path, &handle);
    if (*code) return JL_ERR_IO;
    char text[16];
    int n = snprintf(text, sizeof text, "%u\n", (unsigned)jl_platform_pid());
    *code = fs->write(fs, handle, text, (size_t)n);
    int close_code = fs->close(fs, handle);
    if (!*code) *code = close_code;
    if (*code) {
        fs->remove(fs, lock->path);
        return JL_ERR_IO;
    }
    lock->held = true;
    return JL_OK;
}

jl_status jl_world_lock_acquire(jl_world_lock *lock, const jl_fs *fs, const char *dir, uint32_t wait_ms,
                                jl_arena *scratch, jl_error *err)
{
    lock->held = false;
    if (!jl_fs_join(lock->path, sizeof lock->path, dir, JL_WORLD_LOCK_NAME))
        return jl_error_set(err, JL_ERR_IO, dir, 0, 0, "path too long");
    uint32_t waited = 0, vanished = 0;
    for (;;) {
        int code;
        if (create_lock(lock, fs, &code) == JL_OK) return JL_OK;
        if (code != EEXIST) return jl_fs_error(err, lock->path, "lock", code);
        int64_t pid = holder_pid(fs, lock->path, scratch);
        /* Released in between: try again at once, a bounded number of times
         * (a dangling symlink of that name would vanish on every read). */
        if (pid < 0 && ++vanished < 100) continue;
        if (pid < 0) pid = 0;
        if (pid > 0 && !jl_platform_pid_alive((uint32_t)pid))
            return jl_error_set(err, JL_ERR_LOCKED, lock->path, 0, 0,
                                "world is locked by pid %lld, which is no longer running: if no other "
                                "program is saving this world, delete this file",
                                (long long)pid);
        if (waited >= wait_ms) {
            if (pid > 0)
                return jl_error_set(err, JL_ERR_LOCKED, lock->path, 0, 0,
                                    "world is locked by pid %lld (another program is saving it); try again",
                                    (long long)pid);
            return jl_error_set(err, JL_ERR_LOCKED, lock->path, 0, 0,
                                "world is locked by a process that did not write its pid: if no other "
                                "program is saving this world, delete this file");
        }
        jl_platform_sleep_ms(RETRY_MS);
        waited += RETRY_MS;
    }
}

void jl_world_lock_release(jl_world_lock *lock, const jl_fs *fs)
{
    if (!lock->held) return;
    fs->remove(fs, lock->path);
    lock->held = false;
}
