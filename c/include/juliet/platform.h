/* platform.h - the only place the engine asks the system for memory.
 *
 * Natively: reserve address space without backing (mmap PROT_NONE) and commit
 * pages on demand (mprotect). In wasm there is no virtual memory: reserve
 * takes one block from the Emscripten heap and commit is a no-op. */
#ifndef JULIET_PLATFORM_H
#define JULIET_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Granularity of reserve and commit sizes. */
size_t jl_platform_page_size(void);

/* The commit granularity worth using past the first large page of a
 * reservation of reserve_bytes: natively 2 MiB for reservations of at
 * least that much (jl_platform_reserve aligns them, and whole 2 MiB blocks
 * committed may get huge pages: one page fault instead of 512), else the
 * page size. */
size_t jl_platform_large_page_size(size_t reserve_bytes);

/* Reserves size bytes (a multiple of the page size) of address space.
 * Returns NULL on failure. */
void *jl_platform_reserve(size_t size);

/* Makes [ptr, ptr+size) readable and writable, and zero the first time it
 * is committed in a reservation; ptr and size page-aligned and inside one
 * reservation. Returns false if the system refuses. */
bool jl_platform_commit(void *ptr, size_t size);

/* Releases a whole reservation made by jl_platform_reserve, of which the
 * first `committed` bytes were committed. Natively, a few released
 * reservations (at most JL_PLATFORM_KEPT_BYTES of committed memory) are
 * zeroed and kept for the next reservations of the same sizes: a world
 * made again (a level reloaded, a file opened twice) then writes to memory
 * already in place instead of taking a page fault per page, which costs
 * more than the rest of a load on some machines. */
void jl_platform_release(void *ptr, size_t size, size_t committed);
enum { JL_PLATFORM_KEPT_BYTES = 256 << 20 };

/* Returns the reservations jl_platform_release kept to the system (after
 * closing a large world, or to measure memory new to the process). */
void jl_platform_trim(void);

/* Whether jl_platform_release keeps reservations for reuse: natively, but
 * not under AddressSanitizer, where a use after release must still fault. */
bool jl_platform_keeps_released(void);

/* 64 bits from the system's entropy source (falls back to time and address
 * bits if none is available). Used to pick a session's ID tag. */
uint64_t jl_platform_entropy64(void);

/* Monotonic clock in nanoseconds, for benchmarks and progress reports. */
uint64_t jl_platform_now_ns(void);

/* Wall-clock time in nanoseconds since the epoch, the clock file times
 * are taken from (whether a file's stamp is racy, fs.h). */
uint64_t jl_platform_wall_ns(void);

/* This process's ID (in wasm: Node's process.pid, 0 in a browser), for lock
 * files and unique temporary names. */
uint32_t jl_platform_pid(void);

/* When process pid started, in the system's own unit (Linux: clock ticks
 * since boot, from /proc), so that a pid reused by a later process is told
 * apart; 0 if it cannot be told (no such process, no /proc, a browser). */
uint64_t jl_platform_pid_start(uint32_t pid);

/* This machine's name into out (NUL-terminated, truncated to out_size;
 * "browser" in a browser, "" if unknown), for lock files: a lock written
 * on another machine sharing the directory is never judged by local pids. */
void jl_platform_host(char *out, size_t out_size);

/* False only if no process with ID pid runs on this machine (a lock left by
 * a dead process). True when it cannot be told, e.g. in a browser. */
bool jl_platform_pid_alive(uint32_t pid);

/* Waits about ms milliseconds (a lock held by another writer). */
void jl_platform_sleep_ms(uint32_t ms);

#endif
