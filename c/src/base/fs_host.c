/* fs_host.c - the host's disk under Node, for the wasm build (fs.h,
 * jl_fs_host): each operation one call into Node's fs, made by the module's
 * host layer (Module.jlHost, c/wasm/pre.js), on host paths. Through
 * Emscripten's FS (NODEFS) the same operations cost a path walk in
 * JavaScript each and several host calls; a save of 1,500 files spent most
 * of its time there.
 *
 * Values cross as numbers: errno values in Emscripten's numbering (the
 * engine's own), a stamp as five doubles (inode, device, size, whole
 * seconds, nanoseconds). A file's bytes and a listing are measured by one
 * call and copied into the arena by a second, once C has made room. */
#include "juliet/fs.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <errno.h>

#include "base/base_internal.h"

/* EM_JS bodies are JavaScript, which clang-format would break. */
/* clang-format off */
EM_JS(int, host_available, (void), { return Module['jlHost'] ? 1 : 0; });
EM_JS(double, host_read_measure, (const char *path, double max_size, double *stamp, double racy_sec), {
    return Module['jlHost'].readMeasure(UTF8ToString(path), max_size, stamp, racy_sec);
});
EM_JS(int, host_read_many, (const char *const *paths, int count, double max_size, double budget), {
    return Module['jlHost'].readMany(paths, count, max_size, budget);
});
EM_JS(double, host_take, (int i, double *stamp), { return Module['jlHost'].take(i, stamp); });
EM_JS(double, host_list_measure, (const char *path), {
    return Module['jlHost'].listMeasure(UTF8ToString(path));
});
EM_JS(void, host_copy, (char *out), { Module['jlHost'].copy(out); });
EM_JS(int, host_open_write, (const char *path), { return Module['jlHost'].openWrite(UTF8ToString(path)); });
EM_JS(int, host_write, (int fd, const void *data, double size), { return Module['jlHost'].write(fd, data, size); });
EM_JS(int, host_sync, (int fd), { return Module['jlHost'].sync(fd); });
EM_JS(int, host_batch_open, (const char *dir), { return Module['jlHost'].batchOpen(UTF8ToString(dir)); });
EM_JS(int, host_sync_batch, (int handle), { return Module['jlHost'].syncBatch(handle); });
EM_JS(int, host_close, (int fd), { return Module['jlHost'].close(fd); });
EM_JS(int, host_rename, (const char *from, const char *to), {
    return Module['jlHost'].rename(UTF8ToString(from), UTF8ToString(to));
});
EM_JS(int, host_sync_dir, (const char *path), { return Module['jlHost'].syncDir(UTF8ToString(path)); });
EM_JS(int, host_remove, (const char *path), { return Module['jlHost'].remove(UTF8ToString(path)); });
EM_JS(int, host_stat, (const char *path, double *stamp), {
    return Module['jlHost'].stat(UTF8ToString(path), stamp);
});
EM_JS(int, host_make_dir, (const char *path, const char *like), {
    return Module['jlHost'].makeDir(UTF8ToString(path), like ? UTF8ToString(like) : null);
});
EM_JS(int, host_remove_dir, (const char *path), { return Module['jlHost'].removeDir(UTF8ToString(path)); });
/* clang-format on */

static jl_fs_stamp stamp_of(const double v[5])
{
    return jl_fs_stamp_of((uint64_t)v[0], (uint64_t)v[1], (uint64_t)v[2], (int64_t)v[3] * 1000000000ll + (int64_t)v[4]);
}

static int host_fs_read_file(const jl_fs *fs, const char *path, size_t max_size, jl_arena *arena, char **data,
                             size_t *size, jl_fs_stamp *stamp)
{
    (void)fs;
    double v[5];
    double measured = -EAGAIN;
    for (int attempt = 0; attempt < JLI_FS_READ_ATTEMPTS && measured == -EAGAIN; attempt++)
        measured = host_read_measure(path, (double)max_size, v, (double)JL_FS_RACY_NS / 1e9);
    if (measured < 0) return (int)-measured;
    char *buffer = jl_arena_push(arena, (size_t)measured + 1, 1);
    host_copy(buffer); /* NULL: only drops the bytes measured */
    if (!buffer) return ENOMEM;
    buffer[(size_t)measured] = '\0';
    *data = buffer;
    *size = (size_t)measured;
    if (stamp) *stamp = stamp_of(v);
    return 0;
}

/* Two threads side by side (the host's readMany), each file then copied
 * as host_fs_read_file copies it. A file that changed while it was read
 * is read again alone, as often as read_file tries. */
static uint32_t host_fs_read_files(const jl_fs *fs, const char *const *paths, uint32_t count, size_t max_size,
                                   size_t budget, jl_arena *arena, jl_fs_read *out)
{
    int taken = host_read_many(paths, (int)count, (double)max_size, (double)budget);
    if (taken < 0) return jli_fs_read_each(fs, paths, count, max_size, budget, arena, out);
    for (uint32_t i = 0; i < (uint32_t)taken; i++) {
        jl_fs_read *r = &out[i];
        double v[5];
        double measured = host_take((int)i, v);
        if (measured == -EAGAIN) {
            r->code = host_fs_read_file(fs, paths[i], max_size, arena, &r->data, &r->size, &r->stamp);
            continue;
        }
        r->code = measured < 0 ? (int)-measured : 0;
        if (r->code) continue;
        r->data = jl_arena_push(arena, (size_t)measured + 1, 1);
        host_copy(r->data); /* NULL: only drops the bytes measured */
        if (!r->data) {
            r->code = ENOMEM;
            continue;
        }
        r->size = (size_t)measured;
        r->data[r->size] = '\0';
        r->stamp = stamp_of(v);
    }
    return (uint32_t)taken;
}

static int host_fs_list_dir(const jl_fs *fs, const char *path, jl_arena *arena, jl_fs_entry **entries, uint32_t *count)
{
    (void)fs;
    double measured = host_list_measure(path);
    if (measured < 0) return (int)-measured;
    char *names = jl_arena_push(arena, (size_t)measured + 1, 1);
    host_copy(names);
    if (!names) return ENOMEM;
    return jli_fs_finish_listing(arena, names, (size_t)measured, entries, count);
}

static int host_fs_open_write(const jl_fs *fs, const char *path, intptr_t *handle)
{
    (void)fs;
    int fd = host_open_write(path);
    if (fd < 0) return -fd;
    *handle = fd;
    return 0;
}

static int host_fs_write(const jl_fs *fs, intptr_t handle, const void *data, size_t size)
{
    (void)fs;
    return host_write((int)handle, data, (double)size);
}

static int host_fs_sync(const jl_fs *fs, intptr_t handle)
{
    (void)fs;
    return host_sync((int)handle);
}

static int host_fs_close(const jl_fs *fs, intptr_t handle)
{
    (void)fs;
    return host_close((int)handle);
}

static int host_fs_rename(const jl_fs *fs, const char *from, const char *to)
{
    (void)fs;
    return host_rename(from, to);
}

static int host_fs_sync_dir(const jl_fs *fs, const char *path)
{
    (void)fs;
    return host_sync_dir(path);
}

static int host_fs_remove(const jl_fs *fs, const char *path)
{
    (void)fs;
    return host_remove(path);
}

static int host_fs_stat(const jl_fs *fs, const char *path, jl_fs_stamp *stamp)
{
    (void)fs;
    double v[5];
    int code = host_stat(path, v);
    if (!code) *stamp = stamp_of(v);
    return code;
}

/* Node has no flock: the world lock goes by its pid and host (world_lock.c). */
static int host_fs_lock(const jl_fs *fs, intptr_t handle)
{
    (void)fs;
    (void)handle;
    return ENOSYS;
}

static int host_fs_test_lock(const jl_fs *fs, const char *path)
{
    (void)fs;
    (void)path;
    return ENOSYS;
}

static int host_fs_make_dir(const jl_fs *fs, const char *path, const char *like)
{
    (void)fs;
    return host_make_dir(path, like);
}

static int host_fs_remove_dir(const jl_fs *fs, const char *path)
{
    (void)fs;
    return host_remove_dir(path);
}

/* A batch's files are synced all at once on a helper thread, this one
 * waiting (each file its own fsync: a write-back error is the file's). */
static int host_fs_batch_open(const jl_fs *fs, const char *path, intptr_t *handle)
{
    (void)fs;
    *handle = host_batch_open(path);
    return 0;
}

static int host_fs_sync_batch(const jl_fs *fs, intptr_t handle)
{
    (void)fs;
    return host_sync_batch((int)handle);
}

static const jl_fs host_fs = {
    .user = NULL,
    .read_file = host_fs_read_file,
    .read_files = host_fs_read_files,
    .list_dir = host_fs_list_dir,
    .open_write = host_fs_open_write,
    .write = host_fs_write,
    .sync = host_fs_sync,
    .close = host_fs_close,
    .rename = host_fs_rename,
    .sync_dir = host_fs_sync_dir,
    .remove = host_fs_remove,
    .stat = host_fs_stat,
    .lock = host_fs_lock,
    .test_lock = host_fs_test_lock,
    .make_dir = host_fs_make_dir,
    .remove_dir = host_fs_remove_dir,
    .batch_open = host_fs_batch_open,
    .sync_batch = host_fs_sync_batch,
};

const jl_fs *jl_fs_host(void) { return host_available() ? &host_fs : NULL; }

#else

const jl_fs *jl_fs_host(void) { return NULL; }

#endif
