/* fs_preread.c - a file system over another that answers read_file from
 * files read already (base_internal.h, jli_preread_fs): a host that reads a
 * world's files faster than the file system under the engine does (Node's
 * own fs under the wasm build, against Emscripten's NODEFS) reads them
 * first, and the world's load takes them from memory, everything else it
 * does (listings, the lock, temporaries) going to the disk as usual. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/base_internal.h"

static int compare_paths(const void *a, const void *b)
{
    return strcmp(((const jl_fs_preread *)a)->path, ((const jl_fs_preread *)b)->path);
}

/* The file of path not handed out yet, or NULL. Reads come in path order
 * (a directory's listing is sorted): the one after the last is tried first. */
static jl_fs_preread *find(jli_preread_fs *p, const char *path)
{
    if (p->next < p->count && strcmp(p->files[p->next].path, path) == 0) return &p->files[p->next++];
    jl_fs_preread key = {.path = path};
    jl_fs_preread *f = bsearch(&key, p->files, p->count, sizeof *p->files, compare_paths);
    if (f) p->next = (uint32_t)(f - p->files) + 1;
    return f;
}

static int preread_read_file(const jl_fs *fs, const char *path, size_t max_size, jl_arena *arena, char **data,
                             size_t *size, jl_fs_stamp *stamp)
{
    jli_preread_fs *p = fs->user;
    jl_fs_preread *f = p->count ? find(p, path) : NULL;
    if (!f || !f->data) return p->under->read_file(p->under, path, max_size, arena, data, size, stamp);
    if (f->size > max_size) return EFBIG;
    char *buffer = jl_arena_push(arena, f->size + 1, 1);
    if (!buffer) return ENOMEM;
    memcpy(buffer, f->data, f->size);
    buffer[f->size] = '\0';
    f->data = NULL; /* handed out: a later read is the disk's */
    *data = buffer;
    *size = f->size;
    if (stamp) *stamp = f->stamp;
    return 0;
}

/* Every other operation is the file system's under it. */

static int preread_list_dir(const jl_fs *fs, const char *path, jl_arena *arena, jl_fs_entry **entries, uint32_t *count)
{
    const jl_fs *u = ((jli_preread_fs *)fs->user)->under;
    return u->list_dir(u, path, arena, entries, count);
}

static int preread_open_write(const jl_fs *fs, const char *path, intptr_t *handle)
{
    const jl_fs *u = ((jli_preread_fs *)fs->user)->under;
    return u->open_write(u, path, handle);
}

static int preread_write(const jl_fs *fs, intptr_t handle, const void *data, size_t size)
{
    const jl_fs *u = ((jli_preread_fs *)fs->user)->under;
    return u->write(u, handle, data, size);
}

static int preread_sync(const jl_fs *fs, intptr_t handle)
{
    const jl_fs *u = ((jli_preread_fs *)fs->user)->under;
    return u->sync(u, handle);
}

static int preread_close(const jl_fs *fs, intptr_t handle)
{
    const jl_fs *u = ((jli_preread_fs *)fs->user)->under;
    return u->close(u, handle);
}

static int preread_rename(const jl_fs *fs, const char *from, const char *to)
{
    const jl_fs *u = ((jli_preread_fs *)fs->user)->under;
    return u->rename(u, from, to);
}

static int preread_sync_dir(const jl_fs *fs, const char *path)
{
    const jl_fs *u = ((jli_preread_fs *)fs->user)->under;
    return u->sync_dir(u, path);
}

static int preread_remove(const jl_fs *fs, const char *path)
{
    const jl_fs *u = ((jli_preread_fs *)fs->user)->under;
    return u->remove(u, path);
}

static int preread_stat(const jl_fs *fs, const char *path, jl_fs_stamp *stamp)
{
    const jl_fs *u = ((jli_preread_fs *)fs->user)->under;
    return u->stat(u, path, stamp);
}

static int preread_lock(const jl_fs *fs, intptr_t handle)
{
    const jl_fs *u = ((jli_preread_fs *)fs->user)->under;
    return u->lock(u, handle);
}

static int preread_test_lock(const jl_fs *fs, const char *path)
{
    const jl_fs *u = ((jli_preread_fs *)fs->user)->under;
    return u->test_lock(u, path);
}

static int preread_make_dir(const jl_fs *fs, const char *path, const char *like)
{
    const jl_fs *u = ((jli_preread_fs *)fs->user)->under;
    return u->make_dir(u, path, like);
}

static int preread_remove_dir(const jl_fs *fs, const char *path)
{
    const jl_fs *u = ((jli_preread_fs *)fs->user)->under;
    return u->remove_dir(u, path);
}

static int preread_batch_open(const jl_fs *fs, const char *path, intptr_t *handle)
{
    const jl_fs *u = ((jli_preread_fs *)fs->user)->under;
    return u->batch_open ? u->batch_open(u, path, handle) : ENOSYS;
}

static int preread_sync_batch(const jl_fs *fs, intptr_t handle)
{
    const jl_fs *u = ((jli_preread_fs *)fs->user)->under;
    return u->sync_batch(u, handle);
}

void jli_preread_fs_init(jli_preread_fs *p, const jl_fs *under, jl_fs_preread *files, uint32_t count)
{
    if (count > 1) qsort(files, count, sizeof *files, compare_paths);
    *p = (jli_preread_fs){
        .fs =
            {
                .user = p,
                .read_file = preread_read_file,
                .list_dir = preread_list_dir,
                .open_write = preread_open_write,
                .write = preread_write,
                .sync = preread_sync,
                .close = preread_close,
                .rename = preread_rename,
                .sync_dir = preread_sync_dir,
                .remove = preread_remove,
                .stat = preread_stat,
                .lock = preread_lock,
                .test_lock = preread_test_lock,
                .make_dir = preread_make_dir,
                .remove_dir = preread_remove_dir,
                .batch_open = preread_batch_open,
                .sync_batch = preread_sync_batch,
            },
        .under = under,
        .files = files,
        .count = count,
    };
}
