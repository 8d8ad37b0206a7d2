/* float_text.c - shortest round-trip float32 formatting and correctly rounded
 * strict parsing, with no locale and no libc number conversion (float_text.h).
 *
 * Formatting follows Ulf Adams' Ryu (PLDI 2018) for binary32: the interval
 * of decimals that read back to the float is computed exactly with 64-bit
 * multiplications by tabulated powers of five, then digits are removed while
 * the interval still holds a shorter number. Parsing takes Clinger's fast
 * path (one correctly rounded double operation) when the digits and the
 * exponent are small, and otherwise (or when the double lands exactly on a
 * float32 midpoint, where double rounding could go wrong) decides between
 * neighbouring floats by comparing big integers exactly. */
#include "juliet/float_text.h"

#include <float.h>
#include <stdbool.h>
#include <string.h>

/* ---- formatting (Ryu, binary32) ---- */

enum { MANTISSA_BITS = 23, EXPONENT_BITS = 8, BIAS = 127, POW5_INV_BITS = 59, POW5_BITS = 61 };

/* POW5_INV[i] = floor(2^(pow5bits(i) - 1 + 59) / 5^i) + 1 */
static const uint64_t POW5_INV[31] = {
    0x0800000000000001u, 0x0666666666666667u, 0x051eb851eb851eb9u,
    0x04189374bc6a7efau, 0x068db8bac710cb2au, 0x053e2d6238da3c22u,
    0x0431bde82d7b634eu, 0x06b5fca6af2bd216u, 0x055e63b88c230e78u,
    0x044b82fa09b5a52du, 0x06df37f675ef6eaeu, 0x057f5ff85e592558u,
    0x0465e6604b7a8447u, 0x0709709a125da071u, 0x05a126e1a84ae6c1u,
    0x0480ebe7b9d58567u, 0x0734aca5f6226f0bu, 0x05c3bd5191b525a3u,
    0x049c97747490eae9u, 0x0760f253edb4ab0eu, 0x05e72843249088d8u,
    0x04b8ed0283a6d3e0u, 0x078e480405d7b966u, 0x060b6cd004ac9452u,
    0x04d5f0a66a23a9dbu, 0x07bcb43d769f762bu, 0x063090312bb2c4efu,
    0x04f3a68dbc8f03f3u, 0x07ec3daf94180651u, 0x065697bfa9acd1dau,
    0x051212ffbaf0a7e2u,
};

/* POW5[i] = 5^i scaled to exactly 61 bits (truncated). */
static const uint64_t POW5[47] = {
    0x1000000000000000u, 0x1400000000000000u, 0x1900000000000000u,
    0x1f40000000000000u, 0x1388000000000000u, 0x186a000000000000u,
    0x1e84800000000000u, 0x1312d00000000000u, 0x17d7840000000000u,
    0x1dcd650000000000u, 0x12a05f2000000000u, 0x174876e800000000u,
    0x1d1a94a200000000u, 0x12309ce540000000u, 0x16bcc41e90000000u,
    0x1c6bf52634000000u, 0x11c37937e0800000u, 0x16345785d8a00000u,
    0x1bc16d674ec80000u, 0x1158e460913d0000u, 0x15af1d78b58c4000u,
    0x1b1ae4d6e2ef5000u, 0x10f0cf064dd59200u, 0x152d02c7e14af680u,
    0x1a784379d99db420u, 0x108b2a2c28029094u, 0x14adf4b7320334b9u,
    0x19d971e4fe8401e7u, 0x1027e72f1f128130u, 0x1431e0fae6d7217cu,
    0x193e5939a08ce9dbu, 0x1f8def8808b02452u, 0x13b8b5b5056e16b3u,
    0x18a6e32246c99c60u, 0x1ed09bead87c0378u, 0x13426172c74d822bu,
    0x1812f9cf7920e2b6u, 0x1e17b84357691b64u, 0x12ced32a16a1b11eu,
    0x178287f49c4a1d66u, 0x1d6329f1c35ca4bfu, 0x125dfa371a19e6f7u,
    0x16f578c4e0a060b5u, 0x1cb2d6f618c878e3u, 0x11efc659cf7d4b8du,
    0x166bb7f0435c9e71u, 0x1c06a5ec5433c60du,
};

/* ceil(log2(5^e)) for e > 0 (1 for e == 0, which the tables expect). */
static inline int32_t pow5bits(int32_t e) { return (int32_t)(((uint32_t)e * 1217359u) >> 19) + 1; }
/* floor(log10(2^e)) and floor(log10(5^e)) for the exponents used here. */
static inline uint32_t log10_pow2(int32_t e) { return ((uint32_t)e * 78913u) >> 18; }
static inline uint32_t log10_pow5(int32_t e) { return ((uint32_t)e * 732923u) >> 20; }

static inline uint32_t pow5_factor(uint32_t value)
{
    uint32_t count = 0;
    while (value % 5 == 0) {
        value /= 5;
        count++;
    }
    return count;
}
static inline bool multiple_of_pow5(uint32_t value, uint32_t p) { return pow5_factor(value) >= p; }
static inline bool multiple_of_pow2(uint32_t value, uint32_t p) { return (value & ((1u << p) - 1)) == 0; }

/* (m * factor) >> shift, with shift > 32, in 64-bit pieces. */
static inline uint32_t mul_shift(uint32_t m, uint64_t factor, int32_t shift)
{
    uint64_t lo = (uint64_t)m * (uint32_t)factor;
    uint64_t hi = (uint64_t)m * (uint32_t)(factor >> 32);
    uint64_t sum = (lo >> 32) + hi;
    return (uint32_t)(sum >> (shift - 32));
}

/* Shortest decimal digits*10^exponent in the rounding interval of the
 * finite, non-zero float with fields (mantissa, exponent). */
static void shortest(uint32_t ieee_mantissa, uint32_t ieee_exponent, uint32_t *digits, int32_t *exponent)
{
    int32_t e2;
    uint32_t m2;
    if (ieee_exponent == 0) {
        e2 = 1 - BIAS - MANTISSA_BITS - 2;
        m2 = ieee_mantissa;
    } else {
        e2 = (int32_t)ieee_exponent - BIAS - MANTISSA_BITS - 2;
        m2 = (1u << MANTISSA_BITS) | ieee_mantissa;
    }
    const bool accept_bounds = (m2 & 1) == 0; /* round half to even on read */

    /* The interval [mm, mp] * 2^e2 around mv * 2^e2; the lower half-gap is
     * narrower at a power of two. */
    const uint32_t mv = 4 * m2;
    const uint32_t mp = 4 * m2 + 2;
    const uint32_t mm_shift = ieee_mantissa != 0 || ieee_exponent <= 1;
    const uint32_t mm = 4 * m2 - 1 - mm_shift;

    uint32_t vr, vp, vm;
    int32_t e10;
    bool vm_trailing_zeros = false, vr_trailing_zeros = false;
    uint8_t last_removed = 0;
    if (e2 >= 0) {
        const uint32_t q = log10_pow2(e2);
        e10 = (int32_t)q;
        const int32_t k = POW5_INV_BITS + pow5bits((int32_t)q) - 1;
        const int32_t i = -e2 + (int32_t)q + k;
        vr = mul_shift(mv, POW5_INV[q], i);
        vp = mul_shift(mp, POW5_INV[q], i);
        vm = mul_shift(mm, POW5_INV[q], i);
        if (q != 0 && (vp - 1) / 10 <= vm / 10) {
            /* One removed digit is needed even if the loop below does not run. */
            const int32_t l = POW5_INV_BITS + pow5bits((int32_t)(q - 1)) - 1;
            last_removed = (uint8_t)(mul_shift(mv, POW5_INV[q - 1], -e2 + (int32_t)q - 1 + l) % 10);
        }
        if (q <= 9) {
            /* At most one of mp, mv, mm is a multiple of 5. */
            if (mv % 5 == 0)
                vr_trailing_zeros = multiple_of_pow5(mv, q);
            else if (accept_bounds)
                vm_trailing_zeros = multiple_of_pow5(mm, q);
            else
                vp -= multiple_of_pow5(mp, q);
        }
    } else {
        const uint32_t q = log10_pow5(-e2);
        e10 = (int32_t)q + e2;
        const int32_t i = -e2 - (int32_t)q;
        const int32_t k = pow5bits(i) - POW5_BITS;
        int32_t j = (int32_t)q - k;
        vr = mul_shift(mv, POW5[i], j);
        vp = mul_shift(mp, POW5[i], j);
        vm = mul_shift(mm, POW5[i], j);
        if (q != 0 && (vp - 1) / 10 <= vm / 10) {
            j = (int32_t)q - 1 - (pow5bits(i + 1) - POW5_BITS);
            last_removed = (uint8_t)(mul_shift(mv, POW5[i + 1], j) % 10);
        }
        if (q <= 1) {
            /* mv = 4 * m2 has at least two trailing zero bits. */
            vr_trailing_zeros = true;
            if (accept_bounds)
                vm_trailing_zeros = mm_shift == 1;
            else
                --vp;
        } else if (q < 31) {
            vr_trailing_zeros = multiple_of_pow2(mv, q - 1);
        }
    }

    int32_t removed = 0;
    uint32_t output;
    if (vm_trailing_zeros || vr_trailing_zeros) {
        /* Rare general case: exact ties and bounds matter. */
        while (vp / 10 > vm / 10) {
            vm_trailing_zeros &= vm % 10 == 0;
            vr_trailing_zeros &= last_removed == 0;
            last_removed = (uint8_t)(vr % 10);
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        if (vm_trailing_zeros) {
            while (vm % 10 == 0) {
                vr_trailing_zeros &= last_removed == 0;
                last_removed = (uint8_t)(vr % 10);
                vr /= 10;
                vp /= 10;
                vm /= 10;
                removed++;
            }
        }
        if (vr_trailing_zeros && last_removed == 5 && vr % 2 == 0) last_removed = 4; /* ...50..0: to even */
        output = vr + ((vr == vm && (!accept_bounds || !vm_trailing_zeros)) || last_removed >= 5);
    } else {
        while (vp / 10 > vm / 10) {
            last_removed = (uint8_t)(vr % 10);
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        output = vr + (vr == vm || last_removed >= 5);
    }
    *digits = output;
    *exponent = e10 + removed;
}

/* The common case of hand-made data, without Ryu: a float in [2^-10, 2^24)
 * that is k / 10^d for the smallest d <= 9 ("12.5", "-483.22"). x = |v| *
 * 10^d and the half-gap h to the neighbouring floats times 10^d are exact in
 * double (24 + 21 bits), so "the integer k nearest x reads back as v" is
 * |x - k| < h, or == h with v's mantissa even (ties to even). The smallest
 * such d gives the shortest digits and k the closest of them: exactly what
 * Ryu returns, because the rounding interval is symmetric around v when the
 * mantissa field is not zero (the only case taken here). Checked against
 * Ryu for every float of the range. */
static bool short_decimal(float value, uint32_t ieee_mantissa, uint32_t ieee_exponent, uint32_t *digits,
                          int32_t *exponent)
{
    if (ieee_mantissa == 0 || ieee_exponent < BIAS - 10 || ieee_exponent >= BIAS + 24) return false;
    static const double pow10[10] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    const double v = value < 0 ? -(double)value : (double)value;
    /* Half the distance between v and its neighbours: 2^(e - 24). */
    uint64_t half_bits = (uint64_t)(ieee_exponent - BIAS - 24 + 1023) << 52;
    double half;
    memcpy(&half, &half_bits, sizeof half);
    const bool even = (ieee_mantissa & 1) == 0;
    for (int d = 0; d <= 9; d++) {
        double x = v * pow10[d];
        if (x >= 1e9) return false; /* more digits than a float ever needs */
        uint32_t k = (uint32_t)x;
        double frac = x - (double)k;
        if (frac > 0.5 || (frac == 0.5 && (k & 1))) {
            k++;
            frac = 1.0 - frac;
        }
        double h = half * pow10[d];
        if (frac < h || (frac == h && even)) {
            if (d == 0)
                while (k % 10 == 0) { /* k > 0: v >= 2^-10 */
                    k /= 10;
                    d--;
                }
            *digits = k;
            *exponent = -d;
            return true;
        }
    }
    return false;
}

static uint32_t decimal_length(uint32_t v)
{
    return v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : v < 100000 ? 5 : v < 1000000 ? 6
         : v < 10000000 ? 7 : v < 100000000 ? 8 : v < 1000000000 ? 9 : 10;
}

static uint32_t copy_text(char *out, const char *text)
{
    uint32_t n = (uint32_t)strlen(text);
    memcpy(out, text, n);
    return n;
}

/* "00" to "99": two digits per division halves the divisions by ten. */
static const char DIGIT_PAIRS[201] =
    "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
    "5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/* Writes the length (= decimal_length(v)) digits of v at out. */
static inline void write_digits(char *out, uint32_t v, uint32_t length)
{
    char *p = out + length;
    while (v >= 100) {
        const uint32_t r = v % 100;
        v /= 100;
        p -= 2;
        memcpy(p, DIGIT_PAIRS + 2 * r, 2);
    }
    if (v >= 10) memcpy(p - 2, DIGIT_PAIRS + 2 * v, 2);
    else p[-1] = (char)('0' + v);
}

/* Opens a one-byte gap at out[at] for the decimal point by moving the (at
 * most 8) digits after it right with one 8-byte copy instead of a byte
 * loop. The copy may carry scratch bytes past the text; they stay within
 * the JL_F32_TEXT_MAX bytes of the caller's buffer (see the callers). */
static inline void insert_point(char *out, uint32_t at)
{
    uint64_t tail;
    memcpy(&tail, out + at, sizeof tail);
    memcpy(out + at + 1, &tail, sizeof tail);
    out[at] = '.';
}

/* Writes digits * 10^exponent (digits has no trailing zero, at most 9
 * digits) in canonical notation at out; returns its length. Bytes written
 * past the returned length, all within 23 bytes of out, are scratch. */
static uint32_t write_decimal(char *out, uint32_t digits, int32_t exponent)
{
    const uint32_t length = decimal_length(digits);
    /* point = position of the decimal point after the first digit count, as
     * in ECMAScript Number::toString: value = 0.d1d2... * 10^point. */
    const int32_t point = exponent + (int32_t)length;
    if (exponent >= 0 && point <= 21) { /* an integer: digits, then zeros */
        write_digits(out, digits, length);
        for (int32_t i = (int32_t)length; i < point; i++) out[i] = '0';
        return (uint32_t)point;
    }
    if (point > 0 && point <= 21) { /* 0 < point < length <= 9 */
        write_digits(out, digits, length);
        insert_point(out, (uint32_t)point); /* last byte written: out[point + 8] <= out[16] */
        return length + 1;
    }
    if (point > -6 && point <= 0) { /* "0.", -point zeros (at most 5), digits */
        memcpy(out, "0.000000", 8);
        write_digits(out + 2 - point, digits, length);
        return 2 + (uint32_t)-point + length;
    }
    write_digits(out, digits, length);
    uint32_t pos = 1;
    if (length > 1) {
        insert_point(out, 1); /* last byte written: out[9] */
        pos = length + 1;
    }
    out[pos++] = 'e';
    int32_t e = point - 1;
    out[pos++] = e < 0 ? '-' : '+';
    if (e < 0) e = -e;
    if (e >= 10) out[pos++] = (char)('0' + e / 10);
    out[pos++] = (char)('0' + e % 10);
    return pos;
}

uint32_t jl_f32_format(float value, char *out)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    const bool negative = (bits >> 31) != 0;
    const uint32_t ieee_mantissa = bits & ((1u << MANTISSA_BITS) - 1);
    const uint32_t ieee_exponent = (bits >> MANTISSA_BITS) & ((1u << EXPONENT_BITS) - 1);

    if (ieee_exponent == 0xff) {
        if (ieee_mantissa) return copy_text(out, "nan");
        return copy_text(out, negative ? "-inf" : "inf");
    }
    uint32_t pos = 0;
    if (negative) out[pos++] = '-';
    if (ieee_exponent == 0 && ieee_mantissa == 0) {
        out[pos++] = '0';
        return pos;
    }

    uint32_t digits;
    int32_t exponent;
    if (!short_decimal(value, ieee_mantissa, ieee_exponent, &digits, &exponent)) {
        shortest(ieee_mantissa, ieee_exponent, &digits, &exponent);
        while (digits % 10 == 0) { /* one spelling per value: "1.25", never "1.250" */
            digits /= 10;
            exponent++;
        }
    }
    /* The sign plus at most 1 + 22 bytes: within JL_F32_TEXT_MAX. */
    return pos + write_decimal(out + pos, digits, exponent);
}

/* ---- parsing ---- */

enum {
    FAST_DIGITS = 19,   /* digits that always fit a uint64 */
    KEPT_DIGITS = 800,  /* more than any float32 midpoint has (about 112):
                           the rest only matter as "non-zero or not" */
    BIG_LIMBS = 128,    /* 4096 bits: 10^846 * 2^150 and 800 digits * 2^150 fit */
};

typedef struct big {
    uint32_t n; /* limbs in use; no leading zero limbs */
    uint32_t limb[BIG_LIMBS];
} big;

static void big_set(big *b, uint64_t v)
{
    b->n = 0;
    while (v) {
        b->limb[b->n++] = (uint32_t)v;
        v >>= 32;
    }
}

static void big_mul_small(big *b, uint32_t m, uint32_t add)
{
    uint64_t carry = add;
    for (uint32_t i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->limb[i] * m + carry;
        b->limb[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && b->n < BIG_LIMBS) b->limb[b->n++] = (uint32_t)carry;
}

static void big_mul_pow5(big *b, uint32_t e)
{
    while (e >= 13) {
        big_mul_small(b, 1220703125u, 0); /* 5^13 */
        e -= 13;
    }
    static const uint32_t small[13] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625,
                                       1953125, 9765625, 48828125, 244140625};
    if (e) big_mul_small(b, small[e], 0);
}

static void big_shl(big *b, uint32_t bits)
{
    if (b->n == 0) return;
    uint32_t words = bits / 32, rest = bits % 32;
    if (rest) {
        uint32_t carry = 0;
        for (uint32_t i = 0; i < b->n; i++) {
            uint32_t v = b->limb[i];
            b->limb[i] = (v << rest) | carry;
            carry = v >> (32 - rest);
        }
        if (carry && b->n < BIG_LIMBS) b->limb[b->n++] = carry;
    }
    if (words) {
        if (b->n + words > BIG_LIMBS) words = BIG_LIMBS - b->n; /* cannot happen within the bounds above */
        memmove(b->limb + words, b->limb, b->n * sizeof b->limb[0]);
        memset(b->limb, 0, words * sizeof b->limb[0]);
        b->n += words;
    }
}

static int big_cmp(const big *a, const big *b)
{
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (uint32_t i = a->n; i-- > 0;)
        if (a->limb[i] != b->limb[i]) return a->limb[i] < b->limb[i] ? -1 : 1;
    return 0;
}

/* The decimal number being parsed: significant digits (leading zeros
 * dropped, at most KEPT_DIGITS kept) times 10^exponent, plus whether any
 * dropped digit was non-zero. */
typedef struct decimal {
    const char *digits[2]; /* the digit runs before and after the point */
    uint32_t run_size[2];
    uint32_t skip;         /* leading zero digits to skip (across runs) */
    uint32_t count;        /* significant digits, all of them */
    int32_t exponent;      /* of the last significant digit kept */
    bool sticky;
} decimal;

/* Compares the decimal with (2 * m + 1) * 2^(e - 1), the midpoint above the
 * float m * 2^e. */
static int compare_with_midpoint(const decimal *d, uint32_t m, int32_t e)
{
    big lhs, rhs;
    big_set(&lhs, 0);
    uint32_t kept = d->count < KEPT_DIGITS ? d->count : KEPT_DIGITS;
    uint32_t skip = d->skip, taken = 0;
    for (int r = 0; r < 2 && taken < kept; r++) {
        for (uint32_t i = 0; i < d->run_size[r] && taken < kept; i++) {
            if (skip) {
                skip--;
                continue;
            }
            if (lhs.n == 0) big_set(&lhs, (uint32_t)(d->digits[r][i] - '0'));
            else big_mul_small(&lhs, 10, (uint32_t)(d->digits[r][i] - '0'));
            taken++;
        }
    }
    big_set(&rhs, 2 * (uint64_t)m + 1);
    int32_t e2 = e - 1;
    /* lhs * 10^exponent  vs  rhs * 2^e2, moved to integers on both sides. */
    if (d->exponent >= 0) {
        big_mul_pow5(&lhs, (uint32_t)d->exponent);
        big_shl(&lhs, (uint32_t)d->exponent);
    } else {
        big_mul_pow5(&rhs, (uint32_t)-d->exponent);
        e2 -= d->exponent; /* the 2^-exponent half of 10^-exponent */
    }
    if (e2 >= 0) big_shl(&rhs, (uint32_t)e2);
    else big_shl(&lhs, (uint32_t)-e2);
    int c = big_cmp(&lhs, &rhs);
    if (c == 0 && d->sticky) c = 1;
    return c;
}

/* The non-negative float with bits b as m * 2^e (m includes the implicit bit). */
static void split_bits(uint32_t b, uint32_t *m, int32_t *e)
{
    uint32_t exp_field = b >> MANTISSA_BITS, mant = b & ((1u << MANTISSA_BITS) - 1);
    if (exp_field == 0) {
        *m = mant;
        *e = 1 - BIAS - MANTISSA_BITS;
    } else {
        *m = mant | (1u << MANTISSA_BITS);
        *e = (int32_t)exp_field - BIAS - MANTISSA_BITS;
    }
}

static float from_bits(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static uint32_t to_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* Exact rounding of a positive decimal, starting from a candidate within a
 * few units in the last place. Returns false on overflow or underflow. */
static bool round_exactly(const decimal *d, uint32_t candidate, uint32_t *result)
{
    const uint32_t max_finite = 0x7f7fffffu;
    uint32_t b = candidate > max_finite ? max_finite : candidate;
    for (int guard = 0; guard < 64; guard++) {
        uint32_t m;
        int32_t e;
        split_bits(b, &m, &e);
        int above = compare_with_midpoint(d, m, e);
        if (above > 0 || (above == 0 && (b & 1))) {
            if (b == max_finite) return false; /* at or past FLT_MAX + half an ulp */
            b++;
            continue;
        }
        if (b > 0) {
            split_bits(b - 1, &m, &e);
            int below = compare_with_midpoint(d, m, e);
            if (below < 0 || (below == 0 && (b & 1))) {
                b--;
                continue;
            }
        }
        break;
    }
    if (b == 0) return false; /* a non-zero number that rounds to zero */
    *result = b;
    return true;
}

static const double POW10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* 10^0 .. 10^10, each exact in float32. */
static const float POW10F[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool equals_word(const char *text, size_t size, const char *word)
{
    size_t n = strlen(word);
    return size == n && memcmp(text, word, n) == 0;
}

jl_f32_parse_result jl_f32_parse(const char *text, size_t size, float *out, size_t *bad_offset)
{
    size_t bad_dummy;
    if (!bad_offset) bad_offset = &bad_dummy;
    size_t i = 0;
    bool negative = false;
    if (i < size && text[i] == '-') {
        negative = true;
        i++;
    }
    /* Fast path: plain digits with an optional fraction, at most 19 in all
     * (what files are made of: "12.5", "-483.22", "0"). */
    {
        const char *p = text + i, *const end = text + size;
        uint64_t w = 0;
        while (p < end && (unsigned)(*p - '0') < 10u) w = w * 10 + (uint64_t)(*p++ - '0');
        size_t digits = (size_t)(p - (text + i)), frac = 0;
        if (p < end && *p == '.') {
            const char *f0 = ++p;
            while (p < end && (unsigned)(*p - '0') < 10u) w = w * 10 + (uint64_t)(*p++ - '0');
            frac = (size_t)(p - f0);
            digits += frac;
            if (frac == 0) digits = 0; /* "1." is not a number: the general path says where */
        }
        if (p == end && digits > 0 && digits <= FAST_DIGITS) {
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
            /* w and 10^frac both exact in float32 (2^24, 5^10 < 2^24): one
             * IEEE float division is the correctly rounded result. Needs
             * float arithmetic done in float, hence the FLT_EVAL_METHOD
             * test (x87 would round twice). */
            if (w <= (1u << 24) && frac <= 10) {
                const float f = (float)w / POW10F[frac];
                *out = negative ? -f : f;
                return JL_F32_OK;
            }
#endif
            /* One correctly rounded double division, then the
             * double-to-float rounding, which is right unless the double
             * sits exactly on a float midpoint. */
            if (w <= (1ull << 53) && frac <= 22) {
                double q = (double)w / POW10[frac];
                float f = (float)q;
                bool safe = true;
                if ((double)f != q) {
                    uint32_t fb = to_bits(f);
                    uint32_t other = (double)f < q ? fb + 1 : fb - 1;
                    safe = ((double)f + (double)from_bits(other)) * 0.5 != q;
                }
                if (safe && (f != 0.0f || w == 0)) {
                    *out = negative ? -f : f;
                    return JL_F32_OK;
                }
            }
        }
    }
    if (equals_word(text + i, size - i, "inf")) {
        *out = negative ? -from_bits(0x7f800000u) : from_bits(0x7f800000u);
        return JL_F32_INF;
    }
    if (equals_word(text + i, size - i, "nan")) {
        *out = from_bits(0x7fc00000u);
        return JL_F32_NAN;
    }

    decimal d = {0};
    uint64_t w = 0;         /* the first FAST_DIGITS significant digits */
    uint32_t in_w = 0;
    int64_t frac_digits = 0;
    bool any_digit = false;
    for (int run = 0; run < 2; run++) {
        size_t start = i;
        while (i < size && is_digit(text[i])) {
            char c = text[i];
            if (d.count == 0 && c == '0') {
                d.skip++;
            } else {
                if (d.count < KEPT_DIGITS) {
                    if (in_w < FAST_DIGITS) {
                        w = w * 10 + (uint64_t)(c - '0');
                        in_w++;
                    }
                } else if (c != '0') {
                    d.sticky = true;
                }
                d.count++;
            }
            if (run == 1) frac_digits++;
            i++;
        }
        d.digits[run] = text + start;
        d.run_size[run] = (uint32_t)(i - start);
        if (i > start) any_digit = true;
        if (run == 0) {
            if (i < size && text[i] == '.') {
                i++;
                if (i >= size || !is_digit(text[i])) {
                    *bad_offset = i;
                    return JL_F32_SYNTAX;
                }
            } else {
                break;
            }
        }
    }
    if (!any_digit) {
        *bad_offset = i;
        return JL_F32_SYNTAX;
    }
    int32_t exp10 = 0;
    if (i < size && (text[i] == 'e' || text[i] == 'E')) {
        i++;
        bool exp_negative = false;
        if (i < size && (text[i] == '+' || text[i] == '-')) exp_negative = text[i++] == '-';
        if (i >= size || !is_digit(text[i])) {
            *bad_offset = i;
            return JL_F32_SYNTAX;
        }
        while (i < size && is_digit(text[i])) {
            if (exp10 < 100000000) exp10 = exp10 * 10 + (text[i] - '0');
            i++;
        }
        if (exp_negative) exp10 = -exp10;
    }
    if (i != size) {
        *bad_offset = i;
        return JL_F32_SYNTAX;
    }

    if (d.count == 0) {
        *out = negative ? -0.0f : 0.0f;
        return JL_F32_OK;
    }
    /* value = 0.d1d2...dn * 10^(lead): bounds every later computation. */
    const int64_t lead64 = (int64_t)exp10 - frac_digits + (int64_t)d.count;
    if (lead64 > 39 || lead64 < -45) return JL_F32_RANGE; /* >= 1e39 or < 1e-45 (rounds to 0) */
    const int32_t lead = (int32_t)lead64;
    const uint32_t kept = d.count < KEPT_DIGITS ? d.count : KEPT_DIGITS;
    d.exponent = lead - (int32_t)kept;

    /* Exponent of the last digit in w. */
    const int32_t w_exponent = lead - (int32_t)in_w;
    const bool exact_w = in_w == d.count;
    uint32_t bits;
    double approx;
    if (w_exponent >= 0) {
        approx = (double)w;
        int32_t e = w_exponent;
        while (e > 22) {
            approx *= 1e22;
            e -= 22;
        }
        approx *= POW10[e];
    } else {
        approx = (double)w;
        int32_t e = -w_exponent;
        while (e > 22) {
            approx /= 1e22;
            e -= 22;
        }
        approx /= POW10[e];
    }

    const double overflow_edge = 340282356779733661637539395458142568448.0; /* 2^128 - 2^103 */
    bool fast = exact_w && w <= (1ull << 53) && w_exponent >= -22 && w_exponent <= 22;
    if (fast) {
        /* approx is the correctly rounded double of the exact value. */
        if (approx >= overflow_edge) {
            if (approx > overflow_edge) return JL_F32_RANGE;
            fast = false; /* exactly on the edge: decide exactly */
        } else {
            float f = (float)approx;
            bits = to_bits(f);
            if ((double)f != approx) {
                uint32_t other = (double)f < approx ? bits + 1 : bits - 1;
                double mid = ((double)f + (double)from_bits(other)) * 0.5;
                if (mid == approx) fast = false; /* double rounding could err */
            }
            if (fast && bits == 0) return JL_F32_RANGE;
        }
    }
    if (!fast) {
        uint32_t candidate;
        if (!(approx < overflow_edge)) candidate = 0x7f7fffffu;
        else candidate = to_bits((float)approx);
        if (!round_exactly(&d, candidate, &bits)) return JL_F32_RANGE;
    }
    *out = negative ? -from_bits(bits) : from_bits(bits);
    return JL_F32_OK;
}
