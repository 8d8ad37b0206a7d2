/* base_internal.h - what the base layer's files share with the layers
 * above (private_api.h gives the order): the block pool and the ID map the
 * world keeps (block_pool.c, id_map.c), the float reader's fast path and the
 * digit writer of the formatters (float_text.c, archive_values.c), the text
 * print (text_print.c), the reads and listings of the file systems (fs.c,
 * fs_host.c). Six sections, each opening with what it is for. */
#ifndef JULIET_BASE_INTERNAL_H
#define JULIET_BASE_INTERNAL_H

#include <float.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "juliet/arena.h"
#include "juliet/fs.h"

/* How many times a read_file starts over when the file changed in place
 * while it was read (fs.c, fs_host.c); then it fails with EAGAIN. */
enum { JLI_FS_READ_ATTEMPTS = 8 };

/* jl_fs_read_files where a table reads one file at a time: read_file on
 * each in turn until about budget bytes are in (fs.c, fs_host.c). */
uint32_t jli_fs_read_each(const jl_fs *fs, const char *const *paths, uint32_t count, size_t max_size, size_t budget,
                          jl_arena *arena, jl_fs_read *out);

/* Directory listings (fs.c, fs_host.c): the packed entries a listing
 * gathered in the arena (per entry one jl_fs_kind byte, then the
 * NUL-terminated name), made the sorted table list_dir answers. */
int jli_fs_finish_listing(jl_arena *arena, const char *names, size_t names_size, jl_fs_entry **entries,
                          uint32_t *count);

/* Text print (text_print.c): a 64-bit fingerprint of text[0, size) (its
 * length included), never 0. */
uint64_t jli_text_print(const char *text, size_t size);

/* Block pool (block_pool.c): blocks of memory that can be given back, carved from one
 * arena: a block's size is rounded up to a power of two (16 bytes at
 * least) and a freed block goes on the free list of its size, which the
 * next request of that size takes first. The world keeps each file's
 * unknown keys and path in one block, given back when the entity is
 * removed or reloaded, so undoing an edit a thousand times needs the
 * memory of one copy. */

enum { JLI_POOL_CLASSES = 40 }; /* sizes 2^4 .. 2^43 */

typedef struct jli_block_pool {
    jl_arena arena;
    void *free[JLI_POOL_CLASSES]; /* per size class: the first free block; each holds the next */
} jli_block_pool;

/* Reserves bytes of address space (nothing committed). JL_OK or
 * JL_ERR_OUT_OF_MEMORY. */
jl_status jli_pool_init(jli_block_pool *pool, size_t bytes);

/* Returns the arena to the system: every block becomes invalid. Safe on a
 * zeroed pool. */
void jli_pool_release(jli_block_pool *pool);

/* A block of at least size bytes (size > 0), 8-byte aligned, or NULL when
 * the arena is used up. The memory is not zeroed. */
void *jli_pool_alloc(jli_block_pool *pool, size_t size);

/* Gives back a block from jli_pool_alloc; size is what was asked for it.
 * NULL is ignored. */
void jli_pool_free(jli_block_pool *pool, void *block, size_t size);

/* ID map (id_map.c): a map from nonzero 64-bit entity IDs to 64-bit values, in an
 * arena: open addressing with linear probing, at most half full. The world
 * keeps two: the IDs whose files save must never touch (value unused) and
 * the file prints of removed entities whose files are pending deletion.
 *
 * Growing moves the table to a fresh block at the top of its arena and
 * abandons the old one (geometric growth keeps the waste below half of the
 * arena's use); removal shifts the following entries back, so there are no
 * tombstones. */

typedef struct jli_id_slot {
    uint64_t id; /* 0 = empty */
    uint64_t value;
} jli_id_slot;

typedef struct jli_id_map {
    jl_arena arena;
    jli_id_slot *slots; /* NULL until the first insert */
    uint32_t mask;      /* slots - 1 */
    uint32_t count;
} jli_id_map;

/* Reserves bytes of address space (nothing committed). JL_OK or
 * JL_ERR_OUT_OF_MEMORY. */
jl_status jli_id_map_init(jli_id_map *map, size_t bytes);

/* Returns the arena to the system. Safe on a zeroed map. */
void jli_id_map_release(jli_id_map *map);

/* True if id is in the map; *value (may be NULL) gets its value. */
bool jli_id_map_get(const jli_id_map *map, uint64_t id, uint64_t *value);

/* Sets id's value, adding it if needed. JL_ERR_INVALID_ARGUMENT for ID 0,
 * JL_ERR_OUT_OF_MEMORY if the table cannot grow (the map is unchanged). */
jl_status jli_id_map_put(jli_id_map *map, uint64_t id, uint64_t value);

/* Removes id; true if it was there. */
bool jli_id_map_remove(jli_id_map *map, uint64_t id);

/* Removes every ID, keeping the committed memory. */
void jli_id_map_clear(jli_id_map *map);

/* Float text fast path: the archive reader's fast path for plain
 * decimals (juliet/float_text.h is the public float <-> text API). */

/* Parses the plain decimal -?D+(.D+)? at the start of text[0, size) when
 * its value is exactly w / 10^f with w <= 2^24 and f <= 10 (all the digits
 * of hand-made and generated data), and returns the bytes it used; 0 when
 * the text does not start that way (the caller then uses jl_f32_parse on
 * the whole token, which gives the same float for every text this takes).
 * What follows the number is the caller's business ("12.5 3" yields 4).
 * w and 10^f are exact in float32, so one float division is the correctly
 * rounded result; that needs float arithmetic evaluated in float
 * (FLT_EVAL_METHOD 0: SSE, wasm), else this always declines. */
static inline size_t jli_f32_parse_plain(const char *text, size_t size, float *out)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    static const float pow10f[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
    const char *p = text, *const end = text + size;
    const bool negative = p < end && *p == '-';
    p += negative;
    const char *const first = p;
    uint64_t w = 0;
    while (p < end && (unsigned)(*p - '0') < 10u) w = w * 10 + (uint64_t)(*p++ - '0');
    size_t digits = (size_t)(p - first), frac = 0;
    if (digits == 0) return 0;
    if (p < end && *p == '.') {
        const char *const f0 = ++p;
        while (p < end && (unsigned)(*p - '0') < 10u) w = w * 10 + (uint64_t)(*p++ - '0');
        frac = (size_t)(p - f0);
        if (frac == 0) return 0; /* "1." is not a number */
        digits += frac;
    }
    /* 19 digits cannot wrap w; more may have, so they are declined */
    if (digits > 19 || w > (1u << 24) || frac > 10) return 0;
    const float f = (float)w / pow10f[frac];
    *out = negative ? -f : f;
    return (size_t)(p - text);
#else
    (void)text;
    (void)size;
    (void)out;
    return 0;
#endif
}

/* Decimal digits: the decimal digits of an unsigned integer, written
 * without a division per digit: the one digit writer of the float and
 * integer formatters (float_text.c, archive_values.c). */

/* Bytes jli_digits_write may write: the 10 digits of a uint32, or 8 (one
 * 8-byte store) for fewer digits; those past the digits are scratch. */
enum { JLI_DIGITS_ROOM = 10 };

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 8 decimal digits of v < 10^8 as ASCII, the most significant in the
 * lowest byte (the first in memory). The digits are split in place within
 * one 64-bit word: 4 + 4 (v / 10^4 in the low half), then each half 2 + 2,
 * then each pair 1 + 1; each quotient comes from a multiplication by a
 * rounded-up reciprocal, exact for the operands of each step (below 10^4:
 * 10486 / 2^20 for 1/100; below 100: 103 / 2^10 for 1/10). */
static inline uint64_t jli_digits8(uint32_t v)
{
    const uint64_t high = v / 10000;
    uint64_t x = high | ((uint64_t)(v - high * 10000) << 32);
    const uint64_t hundreds = ((x * 10486) >> 20) & 0x0000007f0000007full;
    x = (x << 16) - hundreds * ((100 << 16) - 1);
    const uint64_t tens = ((x * 103) >> 10) & 0x000f000f000f000full;
    x = (x << 8) - tens * ((10 << 8) - 1);
    return x | 0x3030303030303030ull;
}

/* Writes the 8 digits of v < 10^8 at out, with leading zeros. */
static inline void jli_digits_write8(char *out, uint32_t v)
{
    const uint64_t word = jli_digits8(v);
    memcpy(out, &word, 8);
}

/* Writes the decimal digits of v (no leading zero; "0" for 0) at out and
 * returns their count. May write scratch bytes up to out[JLI_DIGITS_ROOM). */
static inline uint32_t jli_digits_write(char *out, uint32_t v)
{
    if (v < 10) { /* versions, small indices: one byte beats the word */
        out[0] = (char)('0' + v);
        return 1;
    }
    uint32_t n = 0;
    if (v >= 100000000) { /* nine or ten digits: the leading one or two first */
        const uint32_t lead = v / 100000000;
        v -= lead * 100000000;
        if (lead >= 10) out[n++] = (char)('0' + lead / 10);
        out[n++] = (char)('0' + lead % 10);
        jli_digits_write8(out + n, v);
        return n + 8;
    }
    /* Leading zero digits are the low zero bytes (before | '0'): drop them
     * by shifting the word down; v | 1 keeps one digit for 0. */
    const uint64_t word = jli_digits8(v);
    const uint32_t zeros = (uint32_t)__builtin_ctzll((word ^ 0x3030303030303030ull) | (1ull << 56)) / 8;
    const uint64_t shifted = word >> (8 * zeros);
    memcpy(out, &shifted, 8);
    return 8 - zeros;
}
#else
/* Portable versions: digits from the end, in pairs. */
static inline void jli_digits_write8(char *out, uint32_t v)
{
    for (int i = 7; i >= 0; i--) {
        out[i] = (char)('0' + v % 10);
        v /= 10;
    }
}

static inline uint32_t jli_digits_write(char *out, uint32_t v)
{
    static const char pairs[201] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    char buf[10];
    char *p = buf + 10;
    while (v >= 100) {
        const uint32_t r = v % 100;
        v /= 100;
        p -= 2;
        memcpy(p, pairs + 2 * r, 2);
    }
    if (v >= 10) {
        p -= 2;
        memcpy(p, pairs + 2 * v, 2);
    } else {
        *--p = (char)('0' + v);
    }
    const uint32_t n = (uint32_t)(buf + 10 - p);
    memcpy(out, p, n);
    return n;
}
#endif

#endif
