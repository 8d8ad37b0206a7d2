/* fs.c - the native file-system table (POSIX, also Emscripten's FS) and the
 * helpers composed from its operations (fs.h).
 *
 * This is the only engine file that calls the operating system's file API;
 * everything else goes through a jl_fs table so tests can fault or count
 * each operation. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* d_type in struct dirent (glibc, musl) */
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#define _GNU_SOURCE /* syncfs */
#define HAVE_SYNCFS 1
#endif
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
#ifndef __EMSCRIPTEN__
#include <pthread.h>
#include <stdatomic.h>
#include <sys/file.h> /* flock */
#endif
#ifdef HAVE_SYNCFS
#include <sys/utsname.h>
#include <sys/vfs.h> /* fstatfs */
#endif

#include "base/base_internal.h"
#include "juliet/platform.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

jl_fs_stamp jl_fs_stamp_of(uint64_t ino, uint64_t dev, uint64_t size, int64_t mtime_ns)
{
    /* Inode and device in one number, never 0 (0 means no stamp). */
    uint64_t id = ino ^ (dev << 40 | dev >> 24) ^ (dev * 0x9e3779b97f4a7c15ull & 0xffff000000000000ull);
    return (jl_fs_stamp){.file = id ? id : 1, .size = size, .mtime_ns = mtime_ns};
}

#ifndef __EMSCRIPTEN__
static jl_fs_stamp stamp_of(const struct stat *st)
{
    return jl_fs_stamp_of((uint64_t)st->st_ino, (uint64_t)st->st_dev, (uint64_t)st->st_size,
                          (int64_t)st->st_mtim.tv_sec * 1000000000ll + st->st_mtim.tv_nsec);
}
#else
/* Emscripten's stat has whole seconds and a 32-bit inode, and its fstat
 * stats the path, not the open file. On the host's disk (NODERAWFS, as the
 * C suites run) the host's stat is asked (nanoseconds, the real inode); in
 * memory, the node's own. Fills out[0..3]
 * with the inode, the device, the size and the time in ms or ns (out[4]: 1
 * for ns); returns 0 or an errno value. */
/* EM_JS bodies are JavaScript, which clang-format would break. */
/* clang-format off */
EM_JS(int, wasm_stat, (const char *path, double *out), {
    var node;
    try {
        node = FS.lookupPath(UTF8ToString(path), {follow: true}).node;
    } catch (e) {
        return e.errno || 44 /* ENOENT */;
    }
    var f64 = HEAPF64.subarray(out >> 3, (out >> 3) + 5);
    /* Under NODERAWFS every path is the host's. */
    var host = typeof NODERAWFS !== 'undefined' && node.node_ops === NODERAWFS ? node.path : null;
    if (host !== null) {
        try {
            var st = require('fs').statSync(host, {bigint: true});
            f64[0] = Number(st.ino);
            f64[1] = Number(st.dev);
            f64[2] = Number(st.size);
            /* Whole seconds and the nanoseconds apart: a double holds both exactly. */
            var second = BigInt(1000000000);
            f64[3] = Number(st.mtimeNs / second);
            f64[4] = Number(st.mtimeNs % second);
            return 0;
        } catch (e) {
            return e.code && ERRNO_CODES[e.code] !== undefined ? ERRNO_CODES[e.code] : 29;
        }
    }
    f64[0] = node.id;
    f64[1] = 0;
    f64[2] = FS.isFile(node.mode) ? node.usedBytes : 0;
    f64[3] = Math.floor(node.timestamp / 1000);
    f64[4] = (node.timestamp % 1000) * 1000000;
    return 0;
});
/* clang-format on */

static int stat_path(const char *path, jl_fs_stamp *stamp)
{
    double v[5];
    int code = wasm_stat(path, v);
    if (code) return code;
    *stamp =
        jl_fs_stamp_of((uint64_t)v[0], (uint64_t)v[1], (uint64_t)v[2], (int64_t)v[3] * 1000000000ll + (int64_t)v[4]);
    return 0;
}
#endif

bool jl_fs_stamp_same(const jl_fs_stamp *a, const jl_fs_stamp *b)
{
    return a->file && a->file == b->file && a->size == b->size && a->mtime_ns == b->mtime_ns;
}

bool jl_fs_stamp_is_racy(const jl_fs_stamp *stamp, uint64_t now_ns)
{
    return stamp->mtime_ns > (int64_t)now_ns - JL_FS_RACY_NS;
}

/* Whether two stats of one open file, before and after reading it, say its
 * content stayed the same: natively a change of size or modification time
 * means another program wrote it in place meanwhile. Emscripten's fstat
 * stats the path, not the open file (on the host's disk, a file a save
 * renamed over it since), so there it tells nothing. */
static bool unchanged(const struct stat *before, const struct stat *after)
{
#ifdef __EMSCRIPTEN__
    (void)before;
    (void)after;
    return true;
#else
    return before->st_size == after->st_size && before->st_mtim.tv_sec == after->st_mtim.tv_sec &&
           before->st_mtim.tv_nsec == after->st_mtim.tv_nsec;
#endif
}

/* One attempt of native_read_file. The open file is read to its end, its
 * size only a hint: a file renamed over the path meanwhile is not read, and
 * in wasm the size may be that file's. EAGAIN if it changed in place
 * while it was read. Emscripten's fstat stats the path, so there the stamp
 * is the path's, taken before the open: if another file takes its place in
 * between, the stamp is older than the bytes, and a later check compares
 * the bytes or reports a conflict (world_disk.c), never the other way. */
static int read_whole_once(const char *path, size_t max_size, jl_arena *arena, char **data, size_t *size,
                           jl_fs_stamp *stamp)
{
#ifdef __EMSCRIPTEN__
    jl_fs_stamp path_before;
    int stat_code = stat_path(path, &path_before);
    if (stat_code) return stat_code;
#endif
    int fd;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; fstat below
     * then refuses it. It changes nothing for a regular file. */
    do fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) return errno;
    struct stat st, after;
    int code = fstat(fd, &st) != 0                         ? errno
               : S_ISDIR(st.st_mode)                       ? EISDIR
               : !S_ISREG(st.st_mode)                      ? EINVAL
               : (uint64_t)st.st_size > (uint64_t)max_size ? EFBIG
                                                           : 0;
    size_t room = code ? 0 : (size_t)st.st_size + 1; /* and the NUL */
    char *buffer = code ? NULL : jl_arena_push(arena, room, 1);
    if (!code && !buffer) code = ENOMEM;
    size_t got = 0;
    while (!code) {
        if (got == room) {
            /* Longer than the size said: the buffer grows in place (nothing
             * else takes from the arena meanwhile), to max_size + 1 bytes. */
            size_t more = room < max_size + 1 - room ? room : max_size + 1 - room;
            if (!more) code = EFBIG;
            else if (jl_arena_push(arena, more, 1) != buffer + room) code = ENOMEM;
            else room += more;
            continue;
        }
        size_t asked = room - got;
        ssize_t n = read(fd, buffer + got, asked);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) code = errno;
        else if (n == 0) break;
        else got += (size_t)n;
        /* A regular file read short at the size fstat gave is at its end:
         * no read more to be told so (one system call of six a file). A
         * change meanwhile shows in the second fstat below. */
        if (!code && (size_t)n < asked && got == (size_t)st.st_size) break;
    }
    if (!code && (fstat(fd, &after) != 0 || !unchanged(&st, &after))) code = EAGAIN;
    close(fd);
#ifdef __EMSCRIPTEN__
    if (!code && stamp) *stamp = path_before;
#else
    if (!code && stamp) *stamp = stamp_of(&st);
#endif
    if (code) return code;
    buffer[got] = '\0';
    *data = buffer;
    *size = got;
    return 0;
}

#ifdef __EMSCRIPTEN__
/* Emscripten's path handling (normalize, resolve, a lookup per component)
 * costs tens of microseconds a call, most of opening a world of memory.
 * So a file of MEMFS in the directory listed last (memory_dir) is read
 * from its node: the one listed, or found by name in the directory's node.
 * Anything else (the host's disk above all, read afresh) goes
 * through POSIX (READ_BY_POSIX). A file that fits the room given (the
 * arena's committed free bytes) is copied there at once; a larger one by
 * wasm_memory_file_copy once the arena has made room. */
enum { READ_BY_POSIX = -1 };

/* The directory of memory listed last (size 0: the last listing was not of
 * memory, or failed), whose files read_memory_file takes from its node. */
static struct {
    char path[JL_ERROR_PATH_MAX];
    size_t size;
} memory_dir;

/* clang-format off */
EM_JS(int, wasm_memory_file_read, (const char *name, double max_size, char *room, double room_size), {
    var dir = Module['jlListed'], next = dir.cursor, node;
    if (typeof dir.changes === 'number' && dir.changes === Module['jlChanges']) {
        /* Nothing moved since the listing (pre.js counts the changes), and
         * the files are read in the order listed (wasm_memory_listing_order):
         * the next one, matched by its name's bytes, is the node listed. */
        if (dir.sortedAt && next < dir.sortedAt.length) {
            var listed = dir.bytes, at = dir.sortedAt[next], k = 0;
            while (listed[at + k] !== 0 && HEAPU8[name + k] === listed[at + k]) k++;
            if (listed[at + k] === 0 && HEAPU8[name + k] === 0) {
                dir.cursor = next + 1;
                node = dir.nodes[dir.order[next]];
            }
        }
    } else {
        /* Still where it was listed: each of its folders still in its
         * parent under its name. */
        for (var up = 0; up < dir.chain.length; up++) {
            var link = dir.chain[up];
            if (link.parent.contents[link.name] !== link) return -1;
        }
    }
    if (node === undefined) node = dir.node.contents[UTF8ToString(name)];
    if (!node) return -ERRNO_CODES.ENOENT;
    if (FS.isDir(node.mode)) return -ERRNO_CODES.EISDIR;
    if (!FS.isFile(node.mode)) return -1; /* a link: POSIX follows it */
    if (node.usedBytes > max_size) return -ERRNO_CODES.EFBIG;
    if (node.usedBytes < room_size) HEAPU8.set(MEMFS.getFileDataAsTypedArray(node), room);
    else Module['jlFile'] = node;
    return node.usedBytes;
});
/* clang-format on */

/* clang-format off */
EM_JS(void, wasm_memory_file_copy, (char *out), {
    var node = Module['jlFile'];
    Module['jlFile'] = null;
    if (out) HEAPU8.set(MEMFS.getFileDataAsTypedArray(node), out);
});
/* clang-format on */

/* READ_BY_POSIX, or what native_read_file returns for a file of memory. */
static int read_memory_file(const char *path, size_t max_size, jl_arena *arena, char **data, size_t *size,
                            jl_fs_stamp *stamp)
{
    const char *slash = strrchr(path, '/');
    if (!slash || !memory_dir.size || (size_t)(slash - path) != memory_dir.size ||
        memcmp(path, memory_dir.path, memory_dir.size) != 0)
        return READ_BY_POSIX;
    char *top = arena->base ? (char *)arena->base + arena->used : NULL;
    const size_t room = top ? arena->committed - arena->used : 0;
    int measured = wasm_memory_file_read(slash + 1, (double)max_size, top, (double)room);
    if (measured < 0) return measured == READ_BY_POSIX ? READ_BY_POSIX : -measured;
    const bool copied = (size_t)measured < room;
    char *buffer = jl_arena_push(arena, (size_t)measured + 1, 1); /* where it was copied, if it was */
    if (!buffer) {
        wasm_memory_file_copy(NULL); /* only drops the measured file */
        return ENOMEM;
    }
    if (!copied) wasm_memory_file_copy(buffer);
    if (stamp && stat_path(path, stamp) != 0) *stamp = (jl_fs_stamp){0};
    buffer[measured] = '\0';
    *data = buffer;
    *size = (size_t)measured;
    return 0;
}
#endif

static int native_read_file(const jl_fs *fs, const char *path, size_t max_size, jl_arena *arena, char **data,
                            size_t *size, jl_fs_stamp *stamp)
{
    (void)fs;
#ifdef __EMSCRIPTEN__
    int memory = read_memory_file(path, max_size, arena, data, size, stamp);
    if (memory != READ_BY_POSIX) return memory;
#endif
    const size_t mark = arena->used;
    int code = EAGAIN;
    for (int attempt = 0; attempt < JLI_FS_READ_ATTEMPTS && code == EAGAIN; attempt++) {
        jl_arena_pop_to(arena, mark);
        code = read_whole_once(path, max_size, arena, data, size, stamp);
    }
    if (code) jl_arena_pop_to(arena, mark);
    return code;
}

#ifndef __EMSCRIPTEN__
/* A read of many files shared by two threads: each takes the next file
 * not taken yet, so that the files taken are always the first ones. The
 * system calls of one file (open, fstat, read, fstat, close) take most of
 * a world's open; two threads make them side by side. */
typedef struct read_share {
    const char *const *paths;
    uint32_t count;
    size_t max_size, budget;
    jl_fs_read *out;
    atomic_uint next;    /* the next file to take */
    atomic_size_t bytes; /* read so far, by both */
    jl_arena *helper;    /* the second thread's memory */
} read_share;

static void read_shared(read_share *share, jl_arena *arena)
{
    /* The helper stops where its memory might not hold the largest file. */
    const bool bounded = arena == share->helper;
    while (atomic_load(&share->bytes) < share->budget &&
           (!bounded || arena->reserved - arena->used > share->max_size + 1)) {
        uint32_t i = atomic_fetch_add(&share->next, 1);
        if (i >= share->count) return;
        jl_fs_read *r = &share->out[i];
        r->code = native_read_file(NULL, share->paths[i], share->max_size, arena, &r->data, &r->size, &r->stamp);
        if (!r->code) atomic_fetch_add(&share->bytes, r->size + 1);
    }
}

static void *read_shared_helper(void *share)
{
    read_share *s = share;
    read_shared(s, s->helper);
    return NULL;
}

/* Fewer files than this are read on the caller's thread alone: starting a
 * thread costs about as much as reading a few files. The helper's memory
 * holds HELPER_BYTES and one file more; nor does it help with files that
 * may be larger than that. */
enum { READ_ALONE_MAX = 16 };
static const size_t HELPER_BYTES = 16u << 20;

static uint32_t native_read_files(const jl_fs *fs, const char *const *paths, uint32_t count, size_t max_size,
                                  size_t budget, jl_arena *arena, jl_fs_read *out)
{
    (void)fs;
    read_share share = {.paths = paths, .count = count, .max_size = max_size, .budget = budget, .out = out};
    atomic_init(&share.next, 0);
    atomic_init(&share.bytes, 0);
    jl_arena helper = {0};
    pthread_t thread;
    bool helping = count > READ_ALONE_MAX && max_size <= HELPER_BYTES &&
                   jl_arena_init(&helper, HELPER_BYTES + max_size + 1) == JL_OK;
    share.helper = &helper;
    if (helping && pthread_create(&thread, NULL, read_shared_helper, &share) != 0) helping = false;
    read_shared(&share, arena);
    if (helping) pthread_join(thread, NULL);
    uint32_t taken = atomic_load(&share.next);
    if (taken > count) taken = count;
    /* The helper's files move into the caller's arena, where read_file
     * would have put them. */
    const uintptr_t helper_from = (uintptr_t)helper.base, helper_to = helper_from + helper.used;
    for (uint32_t i = 0; helping && i < taken; i++) {
        jl_fs_read *r = &out[i];
        /* As numbers: pointers into two arenas do not compare in C. */
        const uintptr_t at = (uintptr_t)r->data;
        if (r->code || at < helper_from || at >= helper_to) continue;
        char *moved = jl_arena_push(arena, r->size + 1, 1);
        if (!moved) r->code = ENOMEM;
        else r->data = memcpy(moved, r->data, r->size + 1);
    }
    jl_arena_release(&helper);
    return taken;
}
#endif

static int compare_entries(const void *a, const void *b)
{
    return strcmp(((const jl_fs_entry *)a)->name, ((const jl_fs_entry *)b)->name);
}

/* The packed listing (per entry one kind byte, then the NUL-terminated
 * name): where the entry after the one at `at` starts. */
static size_t next_packed(const char *names, size_t at) { return at + 1 + strlen(names + at + 1) + 1; }

int jli_fs_finish_listing(jl_arena *arena, const char *names, size_t names_size, jl_fs_entry **entries, uint32_t *count)
{
    uint32_t n = 0;
    for (size_t at = 0; at < names_size; at = next_packed(names, at)) n++;
    jl_fs_entry *table = jl_arena_push(arena, (size_t)(n ? n : 1) * sizeof *table, _Alignof(jl_fs_entry));
    if (!table) return ENOMEM;
    uint32_t i = 0;
    for (size_t at = 0; at < names_size; at = next_packed(names, at))
        table[i++] = (jl_fs_entry){.name = names + at + 1, .kind = (jl_fs_kind)names[at]};
    qsort(table, n, sizeof *table, compare_entries);
    *entries = table;
    *count = n;
    return 0;
}

#ifdef __EMSCRIPTEN__
/* Emscripten's readdir looks every entry up, and a file system may refuse
 * to look up a FIFO or socket: the whole listing fails. Listing names
 * through FS.readdir and looking each up on its own keeps the other entries. A directory of
 * memory has its entries' nodes at hand: they are kept for the reads of its
 * files (wasm_memory_file_read). The packed form is the one jli_fs_finish_listing
 * reads; the first call measures, the second copies what the first read. */
/* clang-format off */
EM_JS(int, wasm_list_dir_measure, (const char *path), {
    var dir = UTF8ToString(path), names, node;
    Module['jlListed'] = null;
    try {
        node = FS.lookupPath(dir, {follow: true}).node;
        /* A directory of memory: its names, their kinds and its files (see
         * wasm_memory_file_read) are in its node. */
        var memory = typeof MEMFS !== 'undefined' && !!node.mount && node.mount.type === MEMFS &&
                     FS.isDir(node.mode) && FS.getPath(node) === dir;
        names = memory ? Object.keys(node.contents) : FS.readdir(dir);
    } catch (e) {
        return -(e.errno || 29);
    }
    /* One kind byte, the name, a NUL: one string, encoded once. */
    var packed = "", nodes = [];
    for (var i = 0; i < names.length; i++) {
        var name = names[i];
        if (name === '.' || name === '..') continue;
        var kind = 2; /* JL_FS_OTHER */
        var child = memory ? node.contents[name] : null;
        if (memory) nodes.push(child);
        try {
            var mode = child && !FS.isLink(child.mode) ? child.mode : FS.stat(dir + '/' + name).mode;
            kind = FS.isFile(mode) ? 0 : FS.isDir(mode) ? 1 : 3;
        } catch (e) {
            /* A file system that refuses to look up a FIFO, socket or device
             * (EINVAL); anything else is a loop or a dangling link. */
            if (e.errno === 28) kind = 3;
        }
        packed += String.fromCharCode(kind) + name + String.fromCharCode(0);
    }
    var bytes = new TextEncoder().encode(packed);
    Module['jlListing'] = bytes;
    if (memory) {
        var chain = [];
        for (var up = node; up.parent !== up; up = up.parent) chain.push(up);
        Module['jlListed'] = {node: node, chain: chain, bytes: bytes, nodes: nodes,
                              changes: Module['jlChanges'], sortedAt: null, order: null, cursor: 0};
    }
    return bytes.length;
});
/* clang-format on */

/* The directory of memory listed last, sorted: per entry, the offset of its
 * name in the listing (name_at) and its index there (order). Its files
 * are read in this order (see wasm_memory_file_read). */
/* clang-format off */
EM_JS(void, wasm_memory_listing_order, (const uint32_t *name_at, const uint32_t *order, int count), {
    var dir = Module['jlListed'];
    if (!dir) return;
    dir.sortedAt = HEAPU32.slice(name_at >> 2, (name_at >> 2) + count);
    dir.order = HEAPU32.slice(order >> 2, (order >> 2) + count);
});
/* clang-format on */

/* 1 if the listing measured is of a directory of memory. */
/* clang-format off */
EM_JS(int, wasm_list_dir_copy, (char *out), {
    var bytes = Module['jlListing'];
    Module['jlListing'] = null;
    if (out) HEAPU8.set(bytes, out);
    return Module['jlListed'] ? 1 : 0;
});
/* clang-format on */

/* Hands the sorted listing to wasm_memory_listing_order: each entry's
 * name offset in the packed names and its index among them (the names
 * start at rising offsets in listing order: a binary search finds it). */
static void order_memory_listing(jl_arena *arena, const char *names, size_t names_size, const jl_fs_entry *entries,
                                 uint32_t count)
{
    const size_t mark = arena->used;
    uint32_t *starts = jl_arena_push(arena, 3 * (size_t)count * sizeof *starts + 1, _Alignof(uint32_t));
    if (starts) { /* else files are found by name alone */
        uint32_t *name_at = starts + count, *order = name_at + count, n = 0;
        for (size_t at = 0; at < names_size; at = next_packed(names, at)) starts[n++] = (uint32_t)at + 1;
        for (uint32_t j = 0; j < count; j++) {
            uint32_t target = (uint32_t)(entries[j].name - names), lo = 0, hi = count - 1;
            while (lo < hi) {
                uint32_t mid = lo + (hi - lo) / 2;
                if (starts[mid] < target) lo = mid + 1;
                else hi = mid;
            }
            name_at[j] = target;
            order[j] = lo;
        }
        wasm_memory_listing_order(name_at, order, (int)count);
    }
    jl_arena_pop_to(arena, mark);
}

static int native_list_dir(const jl_fs *fs, const char *path, jl_arena *arena, jl_fs_entry **entries, uint32_t *count)
{
    (void)fs;
    memory_dir.size = 0;
    int size = wasm_list_dir_measure(path);
    if (size < 0) return -size;
    char *names = jl_arena_push(arena, (size_t)size + 1, 1);
    if (!names) {
        wasm_list_dir_copy(NULL); /* only drops the measured listing */
        return ENOMEM;
    }
    const bool memory = wasm_list_dir_copy(names);
    int code = jli_fs_finish_listing(arena, names, (size_t)size, entries, count);
    const size_t path_size = strlen(path);
    if (code == 0 && memory && path_size < sizeof memory_dir.path) {
        memcpy(memory_dir.path, path, path_size + 1);
        memory_dir.size = path_size;
        order_memory_listing(arena, names, (size_t)size, *entries, *count);
    }
    return code;
}
#else
static jl_fs_kind kind_of_mode(mode_t mode)
{
    if (S_ISREG(mode)) return JL_FS_FILE;
    if (S_ISDIR(mode)) return JL_FS_DIR;
    return JL_FS_SPECIAL;
}

static int native_list_dir(const jl_fs *fs, const char *path, jl_arena *arena, jl_fs_entry **entries, uint32_t *count)
{
    (void)fs;
    DIR *dir = opendir(path);
    if (!dir) return errno;
    /* Packed names go on the arena as they come; the entry table is built
     * after, from them. */
    char *names = (char *)arena->base + arena->used;
    size_t names_size = 0, path_len = strlen(path);
    int code = 0;
    for (;;) {
        errno = 0;
        struct dirent *d = readdir(dir);
        if (!d) {
            code = errno; /* 0 at the end; anything else is a failed listing */
            break;
        }
        if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0) continue;
        size_t len = strlen(d->d_name);
        jl_fs_kind kind = JL_FS_OTHER;
        if (d->d_type == DT_REG) kind = JL_FS_FILE;
        else if (d->d_type == DT_DIR) kind = JL_FS_DIR;
        else if (d->d_type == DT_FIFO || d->d_type == DT_SOCK || d->d_type == DT_CHR || d->d_type == DT_BLK)
            kind = JL_FS_SPECIAL;
        else {
            /* A symlink (followed; a loop or a dangling link stays OTHER),
             * or a file system that does not fill d_type. */
            char full[4096];
            struct stat st;
            if (path_len + 1 + len < sizeof full) {
                memcpy(full, path, path_len);
                full[path_len] = '/';
                memcpy(full + path_len + 1, d->d_name, len + 1);
                if (stat(full, &st) == 0) kind = kind_of_mode(st.st_mode);
            }
        }
        char *entry = jl_arena_push(arena, len + 2, 1);
        if (!entry) {
            code = ENOMEM;
            break;
        }
        entry[0] = (char)kind;
        memcpy(entry + 1, d->d_name, len + 1);
        names_size += len + 2;
    }
    closedir(dir);
    if (code) return code;
    return jli_fs_finish_listing(arena, names, names_size, entries, count);
}
#endif

static int native_open_write(const jl_fs *fs, const char *path, intptr_t *handle)
{
    (void)fs;
    int fd;
    /* O_EXCL fails on any existing name, a symlink included, so O_NOFOLLOW
     * only makes sure. */
    do fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
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
    /* In wasm: a no-op on MEMFS, the host's fsync under NODERAWFS. */
    return fsync((int)handle) == 0 ? 0 : errno;
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
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return errno;
    int code = fsync(fd) == 0 ? 0 : errno;
    close(fd);
    /* Some file systems refuse fsync on directories: nothing more to do. */
    if (code == EINVAL || code == EROFS) code = 0;
    return code;
}

static int native_remove(const jl_fs *fs, const char *path)
{
    (void)fs;
    return unlink(path) == 0 ? 0 : errno;
}

static int native_stat(const jl_fs *fs, const char *path, jl_fs_stamp *stamp)
{
    (void)fs;
#ifdef __EMSCRIPTEN__
    return stat_path(path, stamp);
#else
    struct stat st;
    if (stat(path, &st) != 0) return errno;
    *stamp = stamp_of(&st);
    return 0;
#endif
}

static int native_lock(const jl_fs *fs, intptr_t handle)
{
    (void)fs;
#ifdef __EMSCRIPTEN__
    (void)handle;
    return ENOSYS;
#else
    int r;
    do r = flock((int)handle, LOCK_EX | LOCK_NB);
    while (r != 0 && errno == EINTR);
    return r == 0 ? 0 : errno == EAGAIN ? EWOULDBLOCK : errno;
#endif
}

static int native_test_lock(const jl_fs *fs, const char *path)
{
    (void)fs;
#ifdef __EMSCRIPTEN__
    (void)path;
    return ENOSYS;
#else
    /* Taken and let go at once: the holder's lock, if any, refuses it. */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return errno;
    int code = native_lock(fs, fd);
    close(fd);
    return code;
#endif
}

static int native_make_dir(const jl_fs *fs, const char *path, const char *like)
{
    (void)fs;
    struct stat st;
    if (like && stat(like, &st) != 0) return errno;
    if (mkdir(path, 0755) != 0) return errno;
    if (!like) return 0;
    /* chmod after mkdir: the umask does not apply to it. Another owner can
     * be given only by root: a user's own folder already has theirs. */
    int code = chmod(path, st.st_mode & 07777) == 0 ? 0 : errno;
    if (!code && (st.st_uid != getuid() || st.st_gid != getgid()) && chown(path, st.st_uid, st.st_gid) != 0 &&
        errno != EPERM)
        code = errno;
    if (code) rmdir(path);
    return code;
}

static int native_remove_dir(const jl_fs *fs, const char *path)
{
    (void)fs;
    return rmdir(path) == 0 ? 0 : errno;
}

#ifdef HAVE_SYNCFS
/* Whether the running kernel's syncfs reports write-back errors: since
 * Linux 5.8 it returns an error that struck any file of the file system
 * since the descriptor was opened; before, it returned 0 regardless, so a
 * batch synced that way could rename torn files over good ones. Asked once
 * (0: not yet, 1: yes, 2: no). */
static bool syncfs_reports_errors(void)
{
    static _Atomic int known;
    int k = known;
    if (!k) {
        struct utsname u;
        unsigned major = 0, minor = 0;
        bool parsed = uname(&u) == 0 && sscanf(u.release, "%u.%u", &major, &minor) == 2;
        k = parsed && (major > 5 || (major == 5 && minor >= 8)) ? 1 : 2;
        known = k;
    }
    return k == 1;
}

/* File systems whose syncfs writes back every dirty file, data and size,
 * commits the journal (or log, or transaction) and flushes the device's
 * cache, as an fsync of each would: ext2/3/4 (one driver), XFS, Btrfs,
 * F2FS; tmpfs has nothing to flush. Others (NFS, FUSE, overlay, ...) may
 * not pass a syncfs on to where the data lives: there each file is synced. */
static bool syncfs_flushes_whole(const struct statfs *st)
{
    switch ((unsigned long)st->f_type) {
    case 0xEF53ul:     /* EXT4_SUPER_MAGIC */
    case 0x58465342ul: /* XFS_SUPER_MAGIC */
    case 0x9123683Eul: /* BTRFS_SUPER_MAGIC */
    case 0xF2F52010ul: /* F2FS_SUPER_MAGIC */
    case 0x01021994ul: /* TMPFS_MAGIC */
        return true;
    default:
        return false;
    }
}
#endif

static int native_batch_open(const jl_fs *fs, const char *path, intptr_t *handle)
{
    (void)fs;
#ifdef HAVE_SYNCFS
    if (!syncfs_reports_errors()) return ENOSYS;
    /* The descriptor samples the file system's write-back errors now, before
     * any file of the batch exists: syncfs reports every one after. */
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return errno;
    struct statfs st;
    int code = fstatfs(fd, &st) != 0 ? errno : syncfs_flushes_whole(&st) ? 0 : ENOSYS;
    if (code) {
        close(fd);
        return code;
    }
    *handle = fd;
    return 0;
#else
    /* Elsewhere each file is synced on its own; so in wasm, where a sync
     * is a no-op in memory (worlds on the host's disk under Node have
     * jl_fs_host, which batches). */
    (void)path;
    (void)handle;
    return ENOSYS;
#endif
}

static int native_sync_batch(const jl_fs *fs, intptr_t handle)
{
    (void)fs;
#ifdef HAVE_SYNCFS
    int code = syncfs((int)handle) == 0 ? 0 : errno;
    close((int)handle);
    return code;
#else
    (void)handle; /* never handed out: native_batch_open refuses here */
    return ENOSYS;
#endif
}

static const jl_fs native_fs = {
    .user = NULL,
    .read_file = native_read_file,
#ifndef __EMSCRIPTEN__
    .read_files = native_read_files,
#endif
    .list_dir = native_list_dir,
    .open_write = native_open_write,
    .write = native_write,
    .sync = native_sync,
    .close = native_close,
    .rename = native_rename,
    .sync_dir = native_sync_dir,
    .remove = native_remove,
    .stat = native_stat,
    .lock = native_lock,
    .test_lock = native_test_lock,
    .make_dir = native_make_dir,
    .remove_dir = native_remove_dir,
    .batch_open = native_batch_open,
    .sync_batch = native_sync_batch,
};

const jl_fs *jl_fs_native(void) { return &native_fs; }

const char *jl_fs_op_name(uint32_t op)
{
    static const char *names[JL_FS_OP_COUNT] = {
        "read_file", "list_dir", "open_write", "write",     "sync",     "close",      "rename",     "sync_dir",
        "remove",    "stat",     "lock",       "test_lock", "make_dir", "remove_dir", "batch_open", "sync_batch"};
    return op < JL_FS_OP_COUNT ? names[op] : "unknown";
}

/* strerror's wording differs between libcs, and Emscripten numbers errno
 * values its own way: the engine's names and words keep diagnostics
 * identical natively and in wasm. */
static const struct {
    int code;
    const char *name, *reason;
} reasons[] = {
    {ENOENT, "ENOENT", "no such file or directory"},
    {EACCES, "EACCES", "permission denied"},
    {EPERM, "EPERM", "operation not permitted"},
    {ENOSPC, "ENOSPC", "no space left on device"},
    {EIO, "EIO", "input/output error"},
    {EISDIR, "EISDIR", "is a directory"},
    {ENOTDIR, "ENOTDIR", "not a directory"},
    {ELOOP, "ELOOP", "too many levels of symbolic links"},
    {EEXIST, "EEXIST", "file exists"},
    {ENOMEM, "ENOMEM", "out of memory"},
    {EINVAL, "EINVAL", "not a regular file"},
    {EFBIG, "EFBIG", "file too large"},
    {EAGAIN, "EAGAIN", "the file kept changing while it was read"},
    {ENOTEMPTY, "ENOTEMPTY", "directory not empty"},
    {EROFS, "EROFS", "read-only file system"},
#ifdef EDQUOT
    {EDQUOT, "EDQUOT", "disk quota exceeded"},
#endif
    {ENAMETOOLONG, "ENAMETOOLONG", "file name too long"},
    {EMFILE, "EMFILE", "too many open files"},
    {ENFILE, "ENFILE", "too many open files in the system"},
    {EBUSY, "EBUSY", "device or resource busy"},
    {EXDEV, "EXDEV", "not on the same file system"},
    {ENOSYS, "ENOSYS", "not supported here"},
    {EBADF, "EBADF", "bad file descriptor"},
    {ETXTBSY, "ETXTBSY", "text file busy"},
    {ESTALE, "ESTALE", "stale file handle"},
};

jl_status jl_fs_error(jl_error *err, const char *path, const char *op, int code)
{
    jl_status status = code == ENOENT ? JL_ERR_NOT_FOUND : JL_ERR_IO;
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (reasons[i].code == code)
            return jl_error_set(err, status, path, 0, 0, "%s failed: %s (%s)", op, reasons[i].reason, reasons[i].name);
    return jl_error_set(err, status, path, 0, 0, "%s failed: system error %d", op, code);
}

uint32_t jl_fs_read_files(const jl_fs *fs, const char *const *paths, uint32_t count, size_t max_size, size_t budget,
                          jl_arena *arena, jl_fs_read *out)
{
    if (fs->read_files) return fs->read_files(fs, paths, count, max_size, budget, arena, out);
    return jli_fs_read_each(fs, paths, count, max_size, budget, arena, out);
}

uint32_t jli_fs_read_each(const jl_fs *fs, const char *const *paths, uint32_t count, size_t max_size, size_t budget,
                          jl_arena *arena, jl_fs_read *out)
{
    uint32_t i = 0;
    for (size_t bytes = 0; i < count && bytes < budget; i++) {
        jl_fs_read *r = &out[i];
        r->code = fs->read_file(fs, paths[i], max_size, arena, &r->data, &r->size, &r->stamp);
        if (!r->code) bytes += r->size + 1;
    }
    return i;
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

static int remove_tree_at(const jl_fs *fs, const char *dir, jl_arena *scratch, int depth)
{
    const size_t mark = scratch->used;
    jl_fs_entry *entries;
    uint32_t count;
    int first = fs->list_dir(fs, dir, scratch, &entries, &count);
    if (first) return first;
    char path[JL_ERROR_PATH_MAX];
    for (uint32_t i = 0; i < count; i++) {
        int code = ENAMETOOLONG;
        if (jl_fs_join(path, sizeof path, dir, entries[i].name)) {
            if (entries[i].kind == JL_FS_DIR && depth > 0) code = remove_tree_at(fs, path, scratch, depth - 1);
            else code = fs->remove(fs, path);
        }
        if (code && !first) first = code;
    }
    jl_arena_pop_to(scratch, mark);
    int code = fs->remove_dir(fs, dir);
    return first ? first : code;
}

bool jl_fs_unique_name(char *out, size_t out_size, const char *path, const char *suffix)
{
    static _Atomic uint32_t counter;
    uint32_t n = ++counter;
    int written = snprintf(out, out_size, "%s.%u-%u%s", path, (unsigned)jl_platform_pid(), (unsigned)n, suffix);
    if (written < 0 || (size_t)written >= out_size) {
        if (out_size) out[0] = '\0';
        return false;
    }
    return true;
}

jl_status jl_fs_write_temp(const jl_fs *fs, const char *path, const void *data, size_t size, char *temp,
                           jl_fs_stamp *stamp, jl_error *err)
{
    return jl_fs_write_temp_in(fs, NULL, path, data, size, temp, stamp, err);
}

jl_status jl_fs_write_temp_in(const jl_fs *fs, const jl_fs_batch *batch, const char *path, const void *data,
                              size_t size, char *temp, jl_fs_stamp *stamp, jl_error *err)
{
    intptr_t handle;
    int code = EEXIST;
    /* A name taken means a leftover of a process that had this pid: pick the
     * next one rather than touch it. */
    for (int attempt = 0; attempt < 64 && code == EEXIST; attempt++) {
        if (!jl_fs_unique_name(temp, JL_ERROR_PATH_MAX, path, JL_FS_TEMP_SUFFIX))
            return jl_error_set(err, JL_ERR_IO, path, 0, 0, "path too long");
        code = fs->open_write(fs, temp, &handle);
    }
    if (code) return jl_fs_error(err, path, "open_write", code);
    const char *op = "write";
    code = fs->write(fs, handle, data, size);
    /* In an open batch the flush comes once for all (jl_fs_batch_sync). */
    if (!code && !(batch && batch->open)) {
        op = "sync";
        code = fs->sync(fs, handle);
    }
    int close_code = fs->close(fs, handle);
    if (!code && close_code) {
        op = "close";
        code = close_code;
    }
    /* The temporary is ours (created exclusively): its stamp is the new
     * file's once renamed (a rename keeps the inode and the times). */
    if (!code && stamp) {
        op = "stat";
        code = fs->stat(fs, temp, stamp);
    }
    if (code) {
        /* The target was never touched; drop the partial temporary. If even
         * that fails, a later load under the world's lock deletes it. */
        fs->remove(fs, temp);
        return jl_fs_error(err, path, op, code);
    }
    return JL_OK;
}

jl_status jl_fs_commit_temp(const jl_fs *fs, const char *temp, const char *path, jl_error *err)
{
    int code = fs->rename(fs, temp, path);
    if (code) {
        fs->remove(fs, temp);
        return jl_fs_error(err, path, "rename", code);
    }
    return JL_OK;
}

jl_status jl_fs_batch_begin(const jl_fs *fs, const char *dir, jl_fs_batch *batch, jl_error *err)
{
    *batch = (jl_fs_batch){0};
    int code = fs->batch_open ? fs->batch_open(fs, dir, &batch->handle) : ENOSYS;
    if (code == ENOSYS) return JL_OK; /* file by file */
    if (code) return jl_fs_error(err, dir, "batch_open", code);
    batch->open = true;
    return JL_OK;
}

jl_status jl_fs_batch_sync(const jl_fs *fs, jl_fs_batch *batch, const char *dir, jl_error *err)
{
    if (!batch->open) return JL_OK;
    batch->open = false;
    int code = fs->sync_batch(fs, batch->handle);
    return code ? jl_fs_error(err, dir, "sync_batch", code) : JL_OK;
}

void jl_fs_batch_abandon(const jl_fs *fs, jl_fs_batch *batch)
{
    if (!batch->open) return;
    batch->open = false;
    fs->close(fs, batch->handle); /* nothing of it is kept: its result tells nothing */
}

jl_status jl_fs_write_atomic(const jl_fs *fs, const char *path, const void *data, size_t size, jl_error *err)
{
    char temp[JL_ERROR_PATH_MAX];
    jl_status s = jl_fs_write_temp(fs, path, data, size, temp, NULL, err);
    return s == JL_OK ? jl_fs_commit_temp(fs, temp, path, err) : s;
}

int jl_fs_remove_tree(const jl_fs *fs, const char *dir, jl_arena *scratch)
{
    enum { MAX_DEPTH = 4 };
    return remove_tree_at(fs, dir, scratch, MAX_DEPTH);
}

jl_status jl_fs_ensure_dir(const jl_fs *fs, const char *path, jl_error *err)
{
    int code = fs->make_dir(fs, path, NULL);
    if (code == 0 || code == EEXIST) return JL_OK;
    return jl_fs_error(err, path, "make_dir", code);
}
