/* float_text.c - shortest round-trip float32 formatting and correctly rounded
 * strict parsing, with no locale and no libc number conversion (float_text.h).
 *
 * Formatting follows Raffaello Giulietti's Schubfach for binary32: the
 * interval of decimals that read back to the float is scaled by one
 * tabulated power of ten with three 64-bit multiplications, and one test
 * decides between the one shorter candidate and the two neighbours. A
 * float that reads back from a decimal of at most three places (most data
 * people and generators write) is found first, by one multiplication.
 * Parsing takes Clinger's fast path (one correctly rounded double
 * operation) when the digits and the exponent are small, and otherwise (or
 * when the double lands exactly on a float32 midpoint, where double
 * rounding could go wrong) decides between neighbouring floats by comparing
 * big integers exactly. */
#include "juliet/float_text.h"

#include <float.h>
#include <stdbool.h>
#include <string.h>

#include "base/base_internal.h"

/* ---- formatting (Schubfach, binary32) ---- */

enum { MANTISSA_BITS = 23, EXPONENT_BITS = 8, BIAS = 127, Q_MIN = 1 - BIAS - MANTISSA_BITS, K_MIN = -45 };

/* G[k - K_MIN] = floor(10^-k * 2^(62 - floor(log2(10^-k)))) + 1, for the
 * k = floor(log10(2^q)) (or of 3/4 * 2^q) of every float32: 10^-k as a
 * 63-bit significand rounded up, as Schubfach's float table has it. */
static const uint64_t G[77] = {
    0x59aedfc10d7279c6u, 0x47bf19673df52e38u, 0x72cb5bd86321e38du, 0x5bd5e313828182d7u, 0x4977e8dc68679be0u,
    0x758ca7c70d7292ffu, 0x5e0a1fd271287599u, 0x4b3b4ca85a86c47bu, 0x785ee10d5da46d91u, 0x604be73de4838adau,
    0x4d0985cb1d3608afu, 0x7b426fab61f00de4u, 0x629b8c891b267183u, 0x4ee2d6d415b85acfu, 0x7e37be2022c0914cu,
    0x64f964e68233a770u, 0x50c783eb9b5c85f3u, 0x409f9cbc7c4a04c3u, 0x6765c793fa10079eu, 0x52b7d2dcc80cd2e5u,
    0x422ca8b0a00a4251u, 0x69e10de76676d081u, 0x54b40b1f852bda01u, 0x43c33c1937564801u, 0x6c6b935b8bbd4001u,
    0x56bc75e2d6310001u, 0x4563918244f40001u, 0x6f05b59d3b200001u, 0x58d15e1762800001u, 0x470de4df82000001u,
    0x71afd498d0000001u, 0x5af3107a40000001u, 0x48c2739500000001u, 0x746a528800000001u, 0x5d21dba000000001u,
    0x4a817c8000000001u, 0x7735940000000001u, 0x5f5e100000000001u, 0x4c4b400000000001u, 0x7a12000000000001u,
    0x61a8000000000001u, 0x4e20000000000001u, 0x7d00000000000001u, 0x6400000000000001u, 0x5000000000000001u,
    0x4000000000000001u, 0x6666666666666667u, 0x51eb851eb851eb86u, 0x4189374bc6a7ef9eu, 0x68db8bac710cb296u,
    0x53e2d6238da3c212u, 0x431bde82d7b634dbu, 0x6b5fca6af2bd215fu, 0x55e63b88c230e77fu, 0x44b82fa09b5a52ccu,
    0x6df37f675ef6eae0u, 0x57f5ff85e5925580u, 0x465e6604b7a84466u, 0x709709a125da070au, 0x5a126e1a84ae6c08u,
    0x480ebe7b9d58566du, 0x734aca5f6226f0aeu, 0x5c3bd5191b525a25u, 0x49c97747490eae84u, 0x760f253edb4ab0d3u,
    0x5e72843249088d76u, 0x4b8ed0283a6d3df8u, 0x78e480405d7b9659u, 0x60b6cd004ac94514u, 0x4d5f0a66a23a9daau,
    0x7bcb43d769f762a9u, 0x63090312bb2c4eeeu, 0x4f3a68dbc8f03f25u, 0x7ec3daf941806507u, 0x65697bfa9acd1da0u,
    0x51212ffbaf0a7e19u, 0x40e7599625a1fe7bu,
};

/* floor(log10(2^q)), floor(log10(3/4 * 2^q)) and floor(log2(10^e)) by
 * fixed-point multiplication, exact over the float32 range (the right
 * shift of a negative product is arithmetic on every target we build). */
static inline int32_t flog10_pow2(int32_t q) { return (int32_t)(((int64_t)q * 661971961083) >> 41); }
static inline int32_t flog10_three_quarters_pow2(int32_t q)
{
    return (int32_t)(((int64_t)q * 661971961083 - 274743187321) >> 41);
}
static inline int32_t flog2_pow10(int32_t e) { return (int32_t)(((int64_t)e * 913124641741) >> 38); }

/* g * cp / 2^95 rounded to odd: the high 64 bits of the product shifted
 * right by 31, the lowest bit set when any of the 32 bits below it is. */
static inline uint32_t round_to_odd(uint64_t g, uint64_t cp)
{
#if defined(__SIZEOF_INT128__)
    const uint64_t x1 = (uint64_t)(((unsigned __int128)g * cp) >> 64);
#else
    const uint64_t g_lo = (uint32_t)g, g_hi = g >> 32, c_lo = (uint32_t)cp, c_hi = cp >> 32;
    const uint64_t mid = ((g_lo * c_lo) >> 32) + (uint32_t)(g_hi * c_lo) + (uint32_t)(g_lo * c_hi);
    const uint64_t x1 = g_hi * c_hi + ((g_hi * c_lo) >> 32) + ((g_lo * c_hi) >> 32) + (mid >> 32);
#endif
    return (uint32_t)((x1 >> 31) | (((x1 & 0xffffffffu) + 0xffffffffu) >> 32));
}

/* The shortest decimal digits * 10^exponent that reads back to the
 * finite, positive float c * 2^q, the closest to it when several are as
 * short (ties to an even last digit); digits may end in zeros.
 *
 * Raffaello Giulietti's Schubfach ("The Schubfach way to render doubles",
 * 2020; his Java FloatToDecimal for binary32): with k = floor(log10(2^q)),
 * the rounding interval [vbl, vbr] scaled by 10^-k (and by 4) is computed
 * with one 64-bit multiplication each, rounded to odd, which keeps every
 * comparison below exact. The interval is less than 10 units of 10^k wide,
 * so it holds at most one multiple of 10 (one digit shorter, then trailing
 * zeros are stripped by the caller); otherwise the answer is s or s + 1,
 * the neighbours of v at 10^k. Unlike Java's, which wants two digits at
 * least, this tries the shorter candidate for every s. */
static inline void shortest(uint32_t c, int32_t q, uint32_t *digits, int32_t *exponent)
{
    const uint32_t out = c & 1; /* an odd significand excludes the bounds (reading rounds to even) */
    const uint64_t cb = (uint64_t)c << 2, cbr = cb + 2;
    uint64_t cbl;
    int32_t k;
    if (c != 1u << MANTISSA_BITS || q == Q_MIN) {
        cbl = cb - 2;
        k = flog10_pow2(q);
    } else { /* at a power of two the gap below is half the gap above */
        cbl = cb - 1;
        k = flog10_three_quarters_pow2(q);
    }
    const int32_t h = q + flog2_pow10(-k) + 33;
    const uint64_t g = G[k - K_MIN];
    const uint32_t vb = round_to_odd(g, cb << h);
    const uint32_t vbl = round_to_odd(g, cbl << h);
    const uint32_t vbr = round_to_odd(g, cbr << h);

    const uint32_t s = vb >> 2;
    const uint32_t sp10 = s / 10 * 10, tp10 = sp10 + 10;
    const bool upin = vbl + out <= sp10 << 2;
    const bool wpin = (tp10 << 2) + out <= vbr;
    if (upin != wpin) {
        *digits = upin ? sp10 : tp10;
        *exponent = k;
        return;
    }
    const uint32_t t = s + 1;
    const bool uin = vbl + out <= s << 2;
    const bool win = (t << 2) + out <= vbr;
    *exponent = k;
    if (uin != win) {
        *digits = uin ? s : t;
        return;
    }
    const int32_t cmp = (int32_t)vb - (int32_t)((s + t) << 1); /* 4v against 2(s + t): v against the midpoint */
    *digits = cmp < 0 || (cmp == 0 && (s & 1) == 0) ? s : t;
}

static inline uint32_t rotate_right(uint32_t v, unsigned r) { return (v >> r) | (v << (32 - r)); }

/* Removes the trailing zeros of digits (> 0), adding their count to
 * *exponent. Two at a time with Dragonbox's divisibility test (Junekey
 * Jeon, 2020): n is a multiple of 100 exactly when n times the inverse of
 * 25 modulo 2^32, rotated right by 2, is at most (2^32 - 1) / 100, and then
 * that is n / 100; likewise with 5 and 10. */
static inline uint32_t strip_zeros(uint32_t n, int32_t *exponent)
{
    const uint32_t inv5 = 0xcccccccdu, inv25 = inv5 * inv5;
    for (;;) {
        const uint32_t r = rotate_right(n * inv25, 2);
        if (r > UINT32_MAX / 100) break;
        n = r;
        *exponent += 2;
    }
    const uint32_t r = rotate_right(n * inv5, 1);
    if (r <= UINT32_MAX / 10) {
        n = r;
        *exponent += 1;
    }
    return n;
}

/* Whether c * 2^q (-32 <= q <= -10: 2^-9 <= value < 2^14) reads back from
 * a decimal of at most three places, w / 1000 (into *w): the decimals of
 * hand-made and generated data. There the interval that reads back to the
 * float is narrower than 0.001, so w / 1000 is the only such decimal in it,
 * and a decimal with fewer significant digits would be one too: w / 1000
 * is the shortest, Schubfach's answer, found without its multiplications.
 * In units of 2^q / 1000, the float is c * 1000 and w / 1000 is w << -q;
 * the interval reaches half a step of 2^q up and down (a quarter down at a
 * power of two), its bounds included for an even c (reading ties to even). */
static inline bool three_places(uint32_t c, int32_t q, uint32_t *w)
{
    const uint32_t s = (uint32_t)-q;
    const uint64_t scaled = (uint64_t)c * 1000, nearest = (scaled + (1ull << (s - 1))) >> s;
    const uint64_t back = nearest << s;
    const uint64_t up = 500, down = c == 1u << MANTISSA_BITS ? 250 : 500;
    const bool even = (c & 1) == 0;
    const bool in = back >= scaled ? back - scaled < up || (back - scaled == up && even)
                                   : scaled - back < down || (scaled - back == down && even);
    *w = (uint32_t)nearest;
    return in;
}

static uint32_t copy_text(char *out, const char *text)
{
    uint32_t n = (uint32_t)strlen(text);
    memcpy(out, text, n);
    return n;
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
 * past the returned length, all within 23 bytes of out, are scratch. The
 * digits are written first (at most 10 bytes, JLI_DIGITS_ROOM below 23),
 * which gives their count. */
static uint32_t write_decimal(char *out, uint32_t digits, int32_t exponent)
{
    const uint32_t length = jli_digits_write(out, digits);
    /* point = position of the decimal point after the first digit count, as
     * in ECMAScript Number::toString: value = 0.d1d2... * 10^point. */
    const int32_t point = exponent + (int32_t)length;
    if (exponent >= 0 && point <= 21) { /* an integer: digits, then zeros */
        for (int32_t i = (int32_t)length; i < point; i++) out[i] = '0';
        return (uint32_t)point;
    }
    if (point > 0 && point <= 21) {         /* 0 < point < length <= 9 */
        insert_point(out, (uint32_t)point); /* last byte written: out[point + 8] <= out[16] */
        return length + 1;
    }
    if (point > -6 && point <= 0) { /* "0.", -point zeros (at most 5), digits: written again there */
        memcpy(out, "0.000000", 8);
        jli_digits_write(out + 2 - point, digits); /* last byte written: out[7 + 9 - 1] */
        return 2 + (uint32_t)-point + length;
    }
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
    /* value = c * 2^q; a subnormal has no implicit bit and the exponent of the smallest normal */
    const uint32_t c = ieee_exponent ? (1u << MANTISSA_BITS) | ieee_mantissa : ieee_mantissa;
    const int32_t q = ieee_exponent ? (int32_t)ieee_exponent + Q_MIN - 1 : Q_MIN;
    /* An integer below 2^24 is its own shortest text: its neighbours are at
     * most 1 away, so no decimal with fewer digits reads back to it (the
     * fast path of Giulietti's FloatToDecimal). */
    if (q <= 0 && q > -MANTISSA_BITS - 1 && (c & ((1u << -q) - 1)) == 0)
        return pos + jli_digits_write(out + pos, c >> -q);
    if (q >= -32 && q <= -10 && three_places(c, q, &digits)) {
        exponent = -3;
    } else {
        shortest(c, q, &digits, &exponent);
    }
    digits = strip_zeros(digits, &exponent); /* one spelling per value: "1.25", never "1.250" */
    /* The sign plus at most 1 + 22 bytes: within JL_F32_TEXT_MAX. */
    return pos + write_decimal(out + pos, digits, exponent);
}

/* ---- parsing ---- */

enum {
    FAST_DIGITS = 19,  /* digits that always fit a uint64 */
    KEPT_DIGITS = 800, /* more than any float32 midpoint has (about 112):
                           the rest only matter as "non-zero or not" */
    BIG_LIMBS = 128,   /* 4096 bits: 10^846 * 2^150 and 800 digits * 2^150 fit */
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
    static const uint32_t small[13] = {1,     5,      25,      125,     625,      3125,     15625,
                                       78125, 390625, 1953125, 9765625, 48828125, 244140625};
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
    uint32_t skip;    /* leading zero digits to skip (across runs) */
    uint32_t count;   /* significant digits, all of them */
    int32_t exponent; /* of the last significant digit kept */
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

static const double POW10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

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
    uint64_t w = 0; /* the first FAST_DIGITS significant digits */
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
