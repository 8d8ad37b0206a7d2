/* float_text_internal.h - the archive reader's fast path for plain
 * decimals (float_text.h is the public float <-> text API). */
#ifndef JULIET_FLOAT_TEXT_INTERNAL_H
#define JULIET_FLOAT_TEXT_INTERNAL_H

#include <float.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#endif
