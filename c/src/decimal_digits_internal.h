/* decimal_digits_internal.h - the decimal digits of an unsigned integer,
 * written without a division per digit: the one digit writer of the float
 * and integer formatters (float_text.c, archive_values.c). */
#ifndef JULIET_DECIMAL_DIGITS_INTERNAL_H
#define JULIET_DECIMAL_DIGITS_INTERNAL_H

#include <stdint.h>
#include <string.h>

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
    static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
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
