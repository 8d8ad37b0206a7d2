/* world_lock.c - the world directory's lock file (world_lock.h). */
#include "juliet/world_lock.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "juliet/platform.h"

enum {
    RETRY_MS = 20,
    HOST_MAX = 64,
    LOCK_TEXT_MAX = 512,
    ATTEMPTS_MAX = 100, /* files that vanish or are taken over under us, in a row */
};
/* A lock file still without its holder's fields this long after it was
 * made: its maker died between creating and writing it. */
static const int64_t UNWRITTEN_STALE_NS = 10000000000ll;

/* What a lock file says of its holder. */
typedef struct holder {
    uint32_t pid;
    uint64_t started;
    char host[HOST_MAX];
    char token[sizeof((jl_world_lock *)0)->token];
    bool flock;
    bool written;      /* it names a pid (else it is being written, or its writer died) */
    jl_fs_stamp stamp; /* of the version read */
} holder;

static uint64_t parse_number(const char *p, const char *end)
{
    uint64_t v = 0;
    for (; p < end && *p >= '0' && *p <= '9' && v < UINT64_MAX / 10; p++) v = v * 10 + (uint64_t)(*p - '0');
    return v;
}

static void copy_word(char *out, size_t out_size, const char *p, const char *end)
{
    size_t n = (size_t)(end - p) < out_size - 1 ? (size_t)(end - p) : out_size - 1;
    memcpy(out, p, n);
    out[n] = '\0';
}

/* Reads "key value" lines; a file of one bare number is the pid alone (the
 * form of earlier versions). */
static void parse_holder(const char *text, size_t size, holder *h)
{
    const char *p = text, *end = text + size;
    if (p < end && *p >= '0' && *p <= '9') {
        uint64_t pid = parse_number(p, end);
        h->pid = pid <= UINT32_MAX ? (uint32_t)pid : 0;
    }
    while (p < end) {
        const char *line_end = memchr(p, '\n', (size_t)(end - p));
        if (!line_end) line_end = end;
        const char *space = memchr(p, ' ', (size_t)(line_end - p));
        if (space) {
            const char *value = space + 1;
            size_t key = (size_t)(space - p);
            if (key == 3 && memcmp(p, "pid", 3) == 0) {
                uint64_t pid = parse_number(value, line_end);
                h->pid = pid <= UINT32_MAX ? (uint32_t)pid : 0;
            } else if (key == 4 && memcmp(p, "host", 4) == 0) {
                copy_word(h->host, sizeof h->host, value, line_end);
            } else if (key == 7 && memcmp(p, "started", 7) == 0) {
                h->started = parse_number(value, line_end);
            } else if (key == 5 && memcmp(p, "token", 5) == 0) {
                copy_word(h->token, sizeof h->token, value, line_end);
            } else if (key == 5 && memcmp(p, "flock", 5) == 0) {
                h->flock = parse_number(value, line_end) == 1;
            }
        }
        p = line_end + 1;
    }
    h->written = h->pid != 0;
}

/* Reads the lock file at path: 0, or the errno value (ENOENT: gone). */
static int read_holder(const jl_fs *fs, const char *path, jl_arena *scratch, holder *h)
{
    *h = (holder){0};
    const size_t mark = scratch->used;
    char *text;
    size_t size;
    int code = fs->read_file(fs, path, LOCK_TEXT_MAX, scratch, &text, &size, &h->stamp);
    if (code == 0) parse_holder(text, size, h);
    jl_arena_pop_to(scratch, mark);
    return code;
}

static bool on_this_host(const holder *h)
{
    char mine[HOST_MAX];
    jl_platform_host(mine, sizeof mine);
    return h->host[0] == '\0' /* earlier versions: pid only */ || strcmp(h->host, mine) == 0;
}

/* True if the holder no longer runs: the kernel's lock is free (a native
 * holder), or its pid is gone or is another process's now. A file not
 * written yet is gone once its kernel lock is free (its maker locks it
 * before writing; one caught in between finds it taken over when it
 * checks, see create_lock) or, where there is no kernel lock, once old. */
static bool holder_gone(const jl_fs *fs, const char *path, const holder *h)
{
    if (!h->written) {
        int64_t age = (int64_t)jl_platform_wall_ns() - h->stamp.mtime_ns;
        return h->stamp.file && (age > UNWRITTEN_STALE_NS || fs->test_lock(fs, path) == 0);
    }
    if (!on_this_host(h)) return false;
    if (h->flock) {
        int code = fs->test_lock(fs, path);
        if (code == 0) return true;
        if (code != ENOSYS) return false; /* held, or cannot tell */
    }
    if (!jl_platform_pid_alive(h->pid)) return true;
    uint64_t started = h->started ? jl_platform_pid_start(h->pid) : 0;
    return started && started != h->started;
}

/* Moves the stale lock file aside and deletes it, if what was moved is the
 * version judged stale (another writer may have taken it over and made its
 * own meanwhile: that one is put back). True if it is gone. */
static bool take_over(const jl_fs *fs, const char *path, const holder *h)
{
    char aside[JL_ERROR_PATH_MAX];
    if (!jl_fs_unique_name(aside, sizeof aside, path, JL_FS_TEMP_SUFFIX)) return false;
    int code = fs->rename(fs, path, aside);
    if (code == ENOENT) return true; /* someone else removed it */
    if (code) return false;
    jl_fs_stamp moved;
    if (fs->stat(fs, aside, &moved) == 0 && jl_fs_stamp_same(&moved, &h->stamp)) {
        fs->remove(fs, aside);
        return true;
    }
    fs->rename(fs, aside, path);
    return false;
}

/* Creates the lock file exclusively, takes the kernel's lock on it where
 * there is one, and writes who holds it. 0, or the errno value (EEXIST:
 * someone holds or left it). */
static int create_lock(jl_world_lock *lock, const jl_fs *fs)
{
    intptr_t handle;
    int code = fs->open_write(fs, lock->path, &handle);
    if (code) return code;
    /* A writer testing the file may hold its kernel lock for a moment. */
    int locked = EWOULDBLOCK;
    for (int i = 0; i < 50 && locked == EWOULDBLOCK; i++) {
        locked = fs->lock(fs, handle);
        if (locked == EWOULDBLOCK) jl_platform_sleep_ms(1);
    }
    char host[HOST_MAX], text[LOCK_TEXT_MAX];
    jl_platform_host(host, sizeof host);
    const uint32_t pid = jl_platform_pid();
    int n = snprintf(text, sizeof text, "pid %u\nhost %s\nstarted %llu\ntoken %s\nflock %d\n", (unsigned)pid, host,
                     (unsigned long long)jl_platform_pid_start(pid), lock->token, locked == 0);
    code = fs->write(fs, handle, text, n > 0 && (size_t)n < sizeof text ? (size_t)n : 0);
    if (code || locked != 0) {
        /* Without the kernel's lock the handle holds nothing. */
        int close_code = fs->close(fs, handle);
        if (!code) code = close_code;
        handle = -1;
    }
    if (code) {
        fs->remove(fs, lock->path);
        return code;
    }
    /* Still the file there: another writer may have judged it left by a
     * dead maker while it was not written yet, and taken it over. */
    holder h;
    if (handle >= 0 && lock->scratch &&
        (read_holder(fs, lock->path, lock->scratch, &h) != 0 || strcmp(h.token, lock->token) != 0)) {
        fs->close(fs, handle);
        return EEXIST;
    }
    lock->handle = handle;
    lock->held = true;
    return 0;
}

static jl_status locked_error(jl_error *err, const jl_world_lock *lock, const holder *h)
{
    if (!h->written)
        return jl_error_set(err, JL_ERR_LOCKED, lock->path, 0, 0,
                            "world is locked by a process that has not written its pid yet; try again");
    if (!on_this_host(h))
        return jl_error_set(err, JL_ERR_LOCKED, lock->path, 0, 0,
                            "world is locked by pid %u on %s, another machine: never broken from here; if "
                            "no program there is saving this world, delete this file",
                            (unsigned)h->pid, h->host);
    return jl_error_set(err, JL_ERR_LOCKED, lock->path, 0, 0,
                        "world is locked by pid %u (another program is saving it); try again", (unsigned)h->pid);
}

jl_status jl_world_lock_acquire(jl_world_lock *lock, const jl_fs *fs, const char *dir, uint32_t wait_ms,
                                jl_arena *scratch, jl_error *err)
{
    *lock = (jl_world_lock){.handle = -1, .scratch = scratch};
    if (!jl_fs_join(lock->path, sizeof lock->path, dir, JL_WORLD_LOCK_NAME))
        return jl_error_set(err, JL_ERR_IO, dir, 0, 0, "path too long");
    snprintf(lock->token, sizeof lock->token, "%016llx", (unsigned long long)jl_platform_entropy64());
    uint32_t waited = 0, attempts = 0;
    for (;;) {
        int code = create_lock(lock, fs);
        if (code == 0) return JL_OK;
        if (code != EEXIST) return jl_fs_error(err, lock->path, "lock", code);
        holder h;
        code = read_holder(fs, lock->path, scratch, &h);
        /* Released in between, or taken over: try again at once, a bounded
         * number of times (a dangling symlink of that name would vanish on
         * every read). */
        if (code == ENOENT && ++attempts < ATTEMPTS_MAX) continue;
        if (code && code != ENOENT) return jl_fs_error(err, lock->path, "read_file", code);
        if (code == 0 && holder_gone(fs, lock->path, &h) && ++attempts < ATTEMPTS_MAX) {
            if (take_over(fs, lock->path, &h) && h.written)
                snprintf(lock->notice, sizeof lock->notice,
                         "took over the lock left by pid %u, which is no longer running", (unsigned)h.pid);
            continue;
        }
        if (waited >= wait_ms) return locked_error(err, lock, &h);
        jl_platform_sleep_ms(RETRY_MS);
        waited += RETRY_MS;
    }
}

void jl_world_lock_release(jl_world_lock *lock, const jl_fs *fs)
{
    if (!lock->held) return;
    /* Still ours: a writer that took it over for stale (it judged this
     * process gone) has its own file there now, never deleted from here. */
    holder h;
    int code = lock->scratch ? read_holder(fs, lock->path, lock->scratch, &h) : EINVAL;
    if (code != 0 || strcmp(h.token, lock->token) == 0) fs->remove(fs, lock->path);
    if (lock->handle >= 0) fs->close(fs, lock->handle);
    lock->handle = -1;
    lock->held = false;
}
