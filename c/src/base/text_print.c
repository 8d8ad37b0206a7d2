/* text_print.c - a 64-bit fingerprint of a text: tells apart the texts an
 * editor produces (whether a file still holds what was read or written),
 * not texts made to collide. */
#include <string.h>

#include "base/base_internal.h"

static inline uint64_t rotl(uint64_t v, int r) { return (v << r) | (v >> (64 - r)); }

uint64_t jli_text_print(const char *text, size_t size)
{
    /* Eight bytes a step (murmur3's mixing constants), the length in the
     * seed, a full avalanche at the end. Not adversarial: it tells apart
     * texts an editor produces. */
    const uint64_t k1 = 0x87c37b91114253d5ull, k2 = 0x4cf5ad432745937full;
    uint64_t h = 0x9e3779b97f4a7c15ull ^ ((uint64_t)size * k2);
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        uint64_t v;
        memcpy(&v, text + i, sizeof v);
        h ^= rotl(v * k1, 31) * k2;
        h = rotl(h, 27) * 5 + 0x52dce729;
    }
    uint64_t tail = 0;
    for (size_t j = 0; i + j < size; j++) tail |= (uint64_t)(uint8_t)text[i + j] << (8 * j);
    h ^= rotl(tail * k1, 31) * k2;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h ? h : 1; /* 0 means "no print" */
}
