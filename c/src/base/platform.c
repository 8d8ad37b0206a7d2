/* platform.c - address space, commit, entropy and clock from the system.
 * The only file of the engine that asks the system for memory. */
/* MAP_ANONYMOUS, MAP_NORESERVE, getentropy; clock_gettime, which
 * Emscripten's libc hides under plain -std=c11. */
#define _DEFAULT_SOURCE

#include "juliet/platform.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#else
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

size_t jl_platform_page_size(void)
{
#if defined(__EMSCRIPTEN__)
    return 65536;
#else
    static size_t page;
    if (!page) page = (size_t)sysconf(_SC_PAGESIZE);
    return page;
#endif
}

#if defined(__EMSCRIPTEN__)
size_t jl_platform_large_page_size(size_t reserve_bytes)
{
    (void)reserve_bytes;
    return jl_platform_page_size();
}

/* No virtual memory in wasm: a reservation is one block of the Emscripten
 * heap. Commit zeroes what it hands over, as fresh pages are natively, so
 * that a large reservation costs nothing until it is used. */
void *jl_platform_reserve(size_t size) { return malloc(size); }
bool jl_platform_commit(void *ptr, size_t size)
{
    memset(ptr, 0, size);
    return true;
}
void jl_platform_release(void *ptr, size_t size, size_t committed)
{
    (void)size;
    (void)committed;
    free(ptr); /* the heap hands the block out again: its pages stay in place */
}
void jl_platform_trim(void) {}
bool jl_platform_keeps_released(void) { return false; }
#else
enum { HUGE_PAGE = 2u << 20 };

size_t jl_platform_large_page_size(size_t reserve_bytes)
{
    return reserve_bytes >= HUGE_PAGE ? HUGE_PAGE : jl_platform_page_size();
}

/* Released reservations kept for reuse (see jl_platform_release): the
 * committed part of each is zero, the rest as in a new reservation. A spin
 * lock guards them: the sections are a few loads and stores. */
enum { KEPT_MAX = 32 }; /* more than the arenas of a world */
typedef struct kept_reservation {
    uint8_t *ptr;
    size_t size, committed;
} kept_reservation;
static kept_reservation kept[KEPT_MAX];
static size_t kept_bytes;
static atomic_flag kept_lock = ATOMIC_FLAG_INIT;

static void lock_kept(void)
{
    while (atomic_flag_test_and_set_explicit(&kept_lock, memory_order_acquire)) {
    }
}

static void unlock_kept(void) { atomic_flag_clear_explicit(&kept_lock, memory_order_release); }

/* The first kept reservation of `size` bytes (0: of any size), taken out
 * of the list; {0} if there is none. */
static kept_reservation take_kept(size_t size)
{
    kept_reservation r = {0};
    lock_kept();
    for (int i = 0; i < KEPT_MAX && !r.ptr; i++) {
        if (kept[i].ptr && (size == 0 || kept[i].size == size)) {
            r = kept[i];
            kept_bytes -= r.committed;
            kept[i] = (kept_reservation){0};
        }
    }
    unlock_kept();
    return r;
}

/* A free place in the list for `committed` more bytes, or -1; with the
 * lock held. */
static int kept_room(size_t committed)
{
    if (committed > JL_PLATFORM_KEPT_BYTES - kept_bytes) return -1;
    for (int i = 0; i < KEPT_MAX; i++)
        if (!kept[i].ptr) return i;
    return -1;
}

/* Keeps a released reservation whose first `committed` bytes are zero, if
 * there is room; false if not. */
static bool keep(uint8_t *ptr, size_t size, size_t committed)
{
    lock_kept();
    int i = kept_room(committed);
    if (i >= 0) {
        kept[i] = (kept_reservation){ptr, size, committed};
        kept_bytes += committed;
    }
    unlock_kept();
    return i >= 0;
}

static bool has_room(size_t committed)
{
    lock_kept();
    bool room = kept_room(committed) >= 0;
    unlock_kept();
    return room;
}

bool jl_platform_keeps_released(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return false;
#elif defined(__has_feature)
    return !__has_feature(address_sanitizer);
#else
    return true;
#endif
}

void jl_platform_trim(void)
{
    for (kept_reservation r; (r = take_kept(0)).ptr;) munmap(r.ptr, r.size);
}

void *jl_platform_reserve(size_t size)
{
    kept_reservation reused = take_kept(size);
    if (reused.ptr) return reused.ptr;
    /* PROT_NONE + NORESERVE: address space only, no swap or RAM accounted. */
    const size_t slack = size >= HUGE_PAGE ? HUGE_PAGE : 0;
    if (size > SIZE_MAX - slack) return NULL;
    uint8_t *raw = mmap(NULL, size + slack, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    if (!slack) return raw;
    /* Aligned to 2 MiB, the rest of the slack given back: a committed
     * 2 MiB block is then a huge page's place. */
    uint8_t *ptr = (uint8_t *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (ptr > raw) munmap(raw, (size_t)(ptr - raw));
    if (ptr + size < raw + size + slack) munmap(ptr + size, (size_t)(raw + size + slack - (ptr + size)));
#ifdef MADV_HUGEPAGE
    /* Filling a 100,000-entity world otherwise takes a page fault every
     * 4 KiB, slower than reading its text. */
    (void)madvise(ptr, size, MADV_HUGEPAGE);
#endif
    return ptr;
}

bool jl_platform_commit(void *ptr, size_t size) { return mprotect(ptr, size, PROT_READ | PROT_WRITE) == 0; }

void jl_platform_release(void *ptr, size_t size, size_t committed)
{
    if (!ptr) return;
    /* Zeroed while its pages are in place, a reservation is as good as a
     * new one for its next user, whose commits then find them. Past what
     * this user committed it is made new again: an earlier user may have
     * committed more. Sanitizer builds keep nothing, so that a use after
     * release still faults. */
    if (jl_platform_keeps_released() && has_room(committed)) {
        memset(ptr, 0, committed);
        uint8_t *tail = (uint8_t *)ptr + committed;
        if (size > committed) {
            (void)mprotect(tail, size - committed, PROT_NONE);
            (void)madvise(tail, size - committed, MADV_DONTNEED);
        }
        if (keep(ptr, size, committed)) return; /* else taken in between */
    }
    munmap(ptr, size);
}
#endif

uint64_t jl_platform_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t jl_platform_wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The start time in /proc/<pid>/stat: field 22, counted after the command
 * name's closing parenthesis (the name itself may hold spaces and ')'). */
static uint64_t start_of_stat(const char *text)
{
    const char *p = strrchr(text, ')');
    if (!p) return 0;
    for (int field = 2; field < 22; field++) {
        p = strchr(p + 1, ' ');
        if (!p) return 0;
    }
    uint64_t start = 0;
    for (p++; *p >= '0' && *p <= '9'; p++) start = start * 10 + (uint64_t)(*p - '0');
    return start;
}

#if defined(__EMSCRIPTEN__)
/* EM_JS bodies are JavaScript, which clang-format would break. */
/* clang-format off */
EM_JS(int, wasm_proc_stat, (uint32_t pid, char *out, int out_size), {
    try {
        if (typeof process !== 'object' || !process.versions || !process.versions.node) return 0;
        var text = require('fs').readFileSync('/proc/' + pid + '/stat', 'latin1');
        return stringToUTF8(text.slice(0, out_size - 1), out, out_size) || text.length;
    } catch (e) {
        return 0;
    }
});
/* clang-format on */

/* clang-format off */
EM_JS(void, wasm_host, (char *out, int out_size), {
    var name = "";
    try {
        name = typeof process === 'object' && process.versions && process.versions.node
                   ? require('os').hostname() : 'browser';
    } catch (e) {
    }
    stringToUTF8(name, out, out_size);
});
/* clang-format on */

uint64_t jl_platform_pid_start(uint32_t pid)
{
    char text[1024];
    if (pid == 0 || wasm_proc_stat(pid, text, (int)sizeof text) <= 0) return 0;
    return start_of_stat(text);
}

void jl_platform_host(char *out, size_t out_size)
{
    if (out_size) wasm_host(out, (int)out_size);
}

/* clang-format off */
EM_JS(uint32_t, wasm_pid, (void), {
    return typeof process === 'object' && process.pid ? process.pid : 0;
});
/* clang-format on */

/* clang-format off */
EM_JS(int, wasm_pid_alive, (uint32_t pid), {
    if (typeof process !== 'object' || typeof process.kill !== 'function') return 1;
    try {
        process.kill(pid, 0);
        return 1;
    } catch (e) {
        return e.code === 'ESRCH' ? 0 : 1;
    }
});
/* clang-format on */

uint32_t jl_platform_pid(void) { return wasm_pid(); }
bool jl_platform_pid_alive(uint32_t pid) { return pid == 0 || wasm_pid_alive(pid); }
void jl_platform_sleep_ms(uint32_t ms)
{
    /* No blocking sleep without threads or asyncify: a short busy wait. */
    double until = emscripten_get_now() + ms;
    while (emscripten_get_now() < until) {
    }
}
#else
uint32_t jl_platform_pid(void) { return (uint32_t)getpid(); }

uint64_t jl_platform_pid_start(uint32_t pid)
{
    char path[32], text[1024];
    snprintf(path, sizeof path, "/proc/%u/stat", (unsigned)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return 0;
    text[n] = '\0';
    return start_of_stat(text);
}

void jl_platform_host(char *out, size_t out_size)
{
    if (!out_size) return;
    if (gethostname(out, out_size) != 0) out[0] = '\0';
    out[out_size - 1] = '\0';
}
bool jl_platform_pid_alive(uint32_t pid)
{
    /* Signal 0 checks existence only; EPERM means it runs as another user. */
    return pid == 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH;
}
void jl_platform_sleep_ms(uint32_t ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}
#endif

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

uint64_t jl_platform_entropy64(void)
{
    uint64_t value = 0;
#if defined(__EMSCRIPTEN__)
    /* crypto.getRandomValues in the browser, crypto.randomFillSync in Node. */
    value = (uint64_t)(emscripten_random() * 4294967296.0);
    value = (value << 32) ^ (uint64_t)(emscripten_random() * 4294967296.0);
    value ^= (uint64_t)(emscripten_get_now() * 1000.0);
#else
    if (getentropy(&value, sizeof value) != 0) value = 0;
#endif
    /* Fold in time and an address so that even without entropy two
     * processes differ. */
    static int anchor;
    value ^= mix64(jl_platform_now_ns() ^ (uint64_t)(uintptr_t)&anchor);
    return mix64(value);
}
