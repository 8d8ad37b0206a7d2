/* float_text.h - float32 <-> decimal text, exact and locale-independent.
 *
 * Writing gives the shortest decimal that reads back to the identical
 * float32 bits (Ryu-style, exact integer arithmetic, no printf), so a file
 * written under any C locale (de_DE included) has the same bytes. Reading
 * is strict (the whole text must be one number) and correctly rounded
 * (round half to even), with no strtod and no locale either.
 *
 * Canonical text: the digits of the shortest representation, in plain
 * notation when the decimal exponent is in [-6, 21) ("0.43", "-44", "108.2",
 * "0.000001"), otherwise scientific with a signed exponent ("1e-7",
 * "1.5e+30", "3.4028235e+38"), as JavaScript prints numbers; "-0" keeps the
 * sign bit, "inf" and "-inf" for infinities, "nan" for a NaN (which no
 * field accepts). */
#ifndef JULIET_FLOAT_TEXT_H
#define JULIET_FLOAT_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Longest text jl_f32_format writes ("-1.17549435e-38" is 15) plus slack. */
enum { JL_F32_TEXT_MAX = 24 };

/* Writes the canonical text of value to out (at least JL_F32_TEXT_MAX
 * bytes; not NUL-terminated) and returns its length. Never fails. Bytes of
 * out past the returned length (within JL_F32_TEXT_MAX) may be overwritten:
 * the digits are moved in 8-byte pieces. */
uint32_t jl_f32_format(float value, char *out);

typedef enum jl_f32_parse_result {
    JL_F32_OK = 0,
    JL_F32_SYNTAX,   /* not a number: *end_col says where it stopped making sense */
    JL_F32_RANGE,    /* finite text whose value overflows float32 or underflows to zero */
    JL_F32_INF,      /* "inf" / "-inf" (the value is stored; the caller decides) */
    JL_F32_NAN,      /* "nan" (the value is stored; the caller decides) */
} jl_f32_parse_result;

/* Parses exactly text[0, size) as one float32: -?(digits[.digits]|.digits)
 * [(e|E)[+-]digits], or inf/-inf/nan. On JL_F32_SYNTAX *bad_offset is the
 * offset of the first byte that cannot belong to a number (bad_offset may
 * be NULL). *out is written for OK, INF and NAN only. */
jl_f32_parse_result jl_f32_parse(const char *text, size_t size, float *out, size_t *bad_offset);

/* ---- internal: the archive reader's fast path ---- */

#include <float.h>
#include <stdbool.h>

/* Parses the plain decimal -?D+(.D+)? at the start of text[0, size) when
 * its value is exactly w / 10^f with w <= 2^24 and f <= 10 (all the digits
 * of hand-made and generated data), and returns the bytes it used; 0 when
 * the text does not start that way (the caller then uses jl_f32_parse on
 * the whole token, which gives the same float for every text this takes).
 * What follows the number is the caller's business ("12.5 3" yields 4).
 * w and 10^f are exact in float32, so one float division is the correctly
 * rounded result; that needs float arithmetic evaluated in float
 * (FLT_EVAL_METHOD 0: SSE, wasm), else this always declines. */
static inline size_t jl_f32_parse_plain(const char *text, size_t size, float *out)
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

#endif
