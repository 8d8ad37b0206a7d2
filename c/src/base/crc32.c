/* crc32.c - CRC-32 (IEEE 802.3, reflected, as zlib and PNG compute it)
 * of class names, class files and snapshots (class.h). */
#include "juliet/class.h"

#include <stdatomic.h>
#include <stdbool.h>

/* table[0][b] is the CRC of the byte b; table[k][b] is table[k-1][b] moved
 * on by one zero byte: (table[k-1][b] >> 8) ^ table[0][table[k-1][b] & 0xff].
 * Eight tables, because a snapshot is checked whole on every decode: eight
 * bytes a step. They are made from that definition on the first call
 * (test_entity_manager.c holds jl_crc32 to the bitwise definition); the
 * loop reads them as it would read constant data, at the same speed. */
static uint32_t table[8][256];
static atomic_bool tables_made;
static atomic_flag making_tables = ATOMIC_FLAG_INIT;

/* Makes the tables once, whichever thread calls first: the others wait on
 * the flag, then see tables_made. */
static void make_tables(void)
{
    while (atomic_flag_test_and_set_explicit(&making_tables, memory_order_acquire)) {
    }
    if (!atomic_load_explicit(&tables_made, memory_order_relaxed)) {
        for (uint32_t b = 0; b < 256; b++) {
            /* A bit at a time, by the reflected polynomial 0xedb88320. */
            uint32_t c = b;
            for (int bit = 0; bit < 8; bit++) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
            table[0][b] = c;
        }
        for (int k = 1; k < 8; k++)
            for (uint32_t b = 0; b < 256; b++) table[k][b] = (table[k - 1][b] >> 8) ^ table[0][table[k - 1][b] & 0xff];
        atomic_store_explicit(&tables_made, true, memory_order_release);
    }
    atomic_flag_clear_explicit(&making_tables, memory_order_release);
}

static inline uint32_t little_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint32_t jl_crc32(const void *data, size_t size)
{
    if (!atomic_load_explicit(&tables_made, memory_order_acquire)) make_tables();
    const uint8_t *p = data;
    uint32_t crc = 0xffffffffu;
    /* Slicing by 8: the eight lookups of a step do not wait on each other,
     * where a byte at a time each waits on the one before. */
    for (; size >= 8; size -= 8, p += 8) {
        const uint32_t lo = crc ^ little_u32(p), hi = little_u32(p + 4);
        crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^ table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
              table[3][hi & 0xff] ^ table[2][(hi >> 8) & 0xff] ^ table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
    }
    for (; size; size--, p++) crc = (crc >> 8) ^ table[0][(crc ^ *p) & 0xff];
    return ~crc;
}
