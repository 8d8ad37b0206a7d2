/* fs.c - the native file-system table (POSIX, also Emscripten's FS) and the
 * helpers composed from its operations (fs.h).
 *
 * This is the only engine file that calls the operating system's file API;
 * everything else goes through a jl_fs table so tests can fault or count
 * each operation. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* d_type in struct dirent (glibc, musl) */
#include "juliet/fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static int native_read_file(const jl_fs *fs, const char *path, jl_arena *arena, char **data,
                            size_t *size)
{
    (void)fs;
    int fd;
    do fd = open(path, O_RDONLY);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) return errno;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int code = errno;
        close(fd);
        return code;
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return EISDIR;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return EINVAL;
    }
    size_t want = (size_t)st.st_size;
    char *buffer = jl_arena_push(arena, want + 1, 1);
    if (!buffer) {
        close(fd);
        return ENOMEM;
    }
    /* Read until end of file rather than trusting st_size: the file may
     * shrink under us; it may not grow past what we reserved. */
    size_t got = 0;
    while (got < want) {
        ssize_t n = read(fd, buffer + got, want - got);
        if (n < 0) {
            if (errno == EINTR) continue;
            int code = errno;
            close(fd);
            return code;
        }
        if (n == 0) break;
        got += (size_t)n;
    }
    close(fd);
    buffer[got] = '\0';
    *data = buffer;
    *size = got;
    return 0;
}

static int compare_entries(const void *a, const void *b)
{
    return strcmp(((const jl_fs_entry *)a)->name, ((const jl_fs_entry *)b)->name);
}

static int native_list_dir(const jl_fs *fs, const char *path, jl_arena *arena,
                           jl_fs_entry **entries, uint32_t *count)
{
    (void)fs;
    DIR *dir = opendir(path);
    if (!dir) return errno;
    /* Names first (they go on the arena as they come), then the entry table,
     * which must be contiguous: two passes over the directory. */
    uint32_t n = 0;
    struct dirent *d;
    while ((d = readdir(dir)) != NULL) {
        if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0) continue;
        n++;
    }
    rewinddir(dir);
    jl_fs_entry *table = jl_arena_push(arena, (size_t)(n ? n : 1) * sizeof *table, _Alignof(jl_fs_entry));
    if (!table) {
        closedir(dir);
        return ENOMEM;
    }
    uint32_t i = 0;
    size_t path_len = strlen(path);
    while (i < n && (d = readdir(dir)) != NULL) {
        if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0) continue;
        size_t len = strlen(d->d_name);
        char *name = jl_arena_push(arena, len + 1, 1);
        if (!name) {
            closedir(dir);
            return ENOMEM;
        }
        memcpy(name, d->d_name, len + 1);
        jl_fs_kind kind = JL_FS_OTHER;
#if defined(DT_REG) && defined(DT_DIR) && defined(DT_LNK) && defined(DT_UNKNOWN)
        if (d->d_type == DT_REG) kind = JL_FS_FILE;
        else if (d->d_type == DT_DIR) kind = JL_FS_DIR;
        else if (d->d_type == DT_LNK || d->d_type == DT_UNKNOWN)
#endif
        {
            /* Follow symlinks; a loop or a dangling link stays OTHER. */
            char full[4096];
            if (path_len + 1 + len < sizeof full) {
                memcpy(full, path, path_len);
                full[path_len] = '/';
                memcpy(full + path_len + 1, d->d_name, len + 1);
                struct stat st;
                if (stat(full, &st) == 0) {
                    if (S_ISREG(st.st_mode)) kind = JL_FS_FILE;
                    else if (S_ISDIR(st.st_mode)) kind = JL_FS_DIR;
                }
            }
        }
        table[i].name = name;
        table[i].kind = kind;
        i++;
    }
    closedir(dir);
    qsort(table, i, sizeof *table, compare_entries);
    *entries = table;
    *count = i;
    return 0;
}

static int native_open_write(const jl_fs *fs, const char *path, intptr_t *handle)
{
    (void)fs;
    int fd;
    do fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) return errno;
    *handle = fd;
    return 0;
}

static int native_write(const jl_fs *fs, intptr_t handle, const void *data, size_t size)
{
    (void)fs;
    const char *p = data;
    while (size) {
        ssize_t n = write((int)handle, p, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (n == 0) return EIO;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

static int native_sync(const jl_fs *fs, intptr_t handle)
{
    (void)fs;
#ifdef __EMSCRIPTEN__
    (void)handle;
    return 0; /* MEMFS/IDBFS: persistence is the embedder's syncfs */
#else
    return fsync((int)handle) == 0 ? 0 : errno;
#endif
}

static int native_close(const jl_fs *fs, intptr_t handle)
{
    (void)fs;
    return close((int)handle) == 0 ? 0 : errno;
}

static int native_rename(const jl_fs *fs, const char *from, const char *to)
{
    (void)fs;
    return rename(from, to) == 0 ? 0 : errno;
}

static int native_sync_dir(const jl_fs *fs, const char *path)
{
    (void)fs;
#ifdef __EMSCRIPTEN__
    (void)path;
    return 0; /* directories cannot be opened for fsync there */
#else
    int fd = open(path, O_RDONLY | O_DIRECTORY);
    if (fd < 0) return errno;
    int code = fsync(fd) == 0 ? 0 : errno;
    close(fd);
    /* Some file systems refuse fsync on directories: nothing more to do. */
    if (code == EINVAL || code == EROFS) code = 0;
    return code;
#endif
}

static int native_remove(const jl_fs *fs, const char *path)
{
    (void)fs;
    return unlink(path) == 0 ? 0 : errno;
}

static int native_make_dir(const jl_fs *fs, const char *path)
{
    (void)fs;
    return mkdir(path, 0755) == 0 ? 0 : errno;
}

static const jl_fs native_fs = {
    .user = NULL,
    .read_file = native_read_file,
    .list_dir = native_list_dir,
    .open_write = native_open_write,
    .write = native_write,
    .sync = native_sync,
    .close = native_close,
    .rename = native_rename,
    .sync_dir = native_sync_dir,
    .remove = native_remove,
    .make_dir = native_make_dir,
};

const jl_fs *jl_fs_native(void) { return &native_fs; }

const char *jl_fs_op_name(uint32_t op)
{
    static const char *names[JL_FS_OP_COUNT] = {"read_file", "list_dir", "open_write", "write",
                                                "sync",      "close",    "rename",     "sync_dir",
                                                "remove",    "make_dir"};
    return op < JL_FS_OP_COUNT ? names[op] : "unknown";
}

/* strerror's wording differs between libcs; the engine's own keeps
 * diagnostics identical natively and in wasm. */
static const char *reason(int code)
{
    switch (code) {
    case ENOENT: return "no such file or directory";
    case EACCES: return "permission denied";
    case EPERM: return "operation not permitted";
    case ENOSPC: return "no space left on device";
    case EIO: return "input/output error";
    case EISDIR: return "is a directory";
    case ENOTDIR: return "not a directory";
    case ELOOP: return "too many levels of symbolic links";
    case EEXIST: return "file exists";
    case ENOMEM: return "out of memory";
    case EINVAL: return "not a regular file";
    case EROFS: return "read-only file system";
#ifdef EDQUOT
    case EDQUOT: return "disk quota exceeded";
#endif
    case ENAMETOOLONG: return "file name too long";
    case EMFILE: return "too many open files";
    default: return "system error";
    }
}

jl_status jl_fs_error(jl_error *err, const char *path, const char *op, int code)
{
    jl_status status = code == ENOENT ? JL_ERR_NOT_FOUND : JL_ERR_IO;
    return jl_error_set(err, status, path, 0, 0, "%s failed: %s (errno %d)", op, reason(code), code);
}

bool jl_fs_join(char *out, size_t out_size, const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    while (a > 1 && dir[a - 1] == '/') a--;
    if (a + 1 + b + 1 > out_size) {
        if (out_size) out[0] = '\0';
        return false;
    }
    memcpy(out, dir, a);
    out[a] = '/';
    memcpy(out + a + 1, name, b + 1);
    return true;
}

bool jl_fs_is_temp_name(const char *name)
{
    size_t n = strlen(name), s = sizeof JL_FS_TEMP_SUFFIX - 1;
    return n > s && memcmp(name + n - s, JL_FS_TEMP_SUFFIX, s) == 0;
}

jl_status jl_fs_write_atomic(const jl_fs *fs, const char *path, const void *data, size_t size,
                             jl_error *err)
{
    char temp[JL_ERROR_PATH_MAX];
    size_t n = strlen(path);
    if (n + sizeof JL_FS_TEMP_SUFFIX > sizeof temp)
        return jl_error_set(err, JL_ERR_IO, path, 0, 0, "path too long");
    memcpy(temp, path, n);
    memcpy(temp + n, JL_FS_TEMP_SUFFIX, sizeof JL_FS_TEMP_SUFFIX);

    intptr_t handle;
    int code = fs->open_write(fs, temp, &handle);
    if (code) return jl_fs_error(err, path, "open_write", code);
    const char *op = "write";
    code = fs->write(fs, handle, data, size);
    if (!code) {
        op = "sync";
        code = fs->sync(fs, handle);
    }
    int close_code = fs->close(fs, handle);
    if (!code && close_code) {
        op = "close";
        code = close_code;
    }
    if (!code) {
        op = "rename";
        code = fs->rename(fs, temp, path);
    }
    if (code) {
        /* The target was never touched; drop the partial temporary. If even
         * that fails, the loader's cleanup deletes it later. */
        fs->remove(fs, temp);
        return jl_fs_error(err, path, op, code);
    }
    return JL_OK;
}

jl_status jl_fs_ensure_dir(const jl_fs *fs, const char *path, jl_error *err)
{
    int code = fs->make_dir(fs, path);
    if (code == 0 || code == EEXIST) return JL_OK;
    return jl_fs_error(err, path, "make_dir", code);
}
