/* test_digits.c - integer text (the digit writer of base_internal.h and
 * the integer field types): the same digits as printf at every digit-count
 * boundary and on random values, and nothing written past the room the
 * writers promise. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "archive/archive_internal.h"
#include "base/base_internal.h"
#include "test.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) { return jt_xorshift(&rng_state); }

/* jli_format_u64(v) equals printf's "%llu", and the bytes after its room
 * (the digits, at least JLI_DIGITS_ROOM) are untouched. */
static bool formats_u64_like_printf(uint64_t v)
{
    char out[40], expected[32];
    memset(out, '#', sizeof out);
    uint32_t n = jli_format_u64(v, out);
    int m = snprintf(expected, sizeof expected, "%" PRIu64, v);
    CHECK_OR_FALSE((int)n == m && memcmp(out, expected, n) == 0);
    uint32_t room = n > JLI_DIGITS_ROOM ? n : JLI_DIGITS_ROOM;
    for (uint32_t i = room; i < sizeof out; i++) CHECK_OR_FALSE(out[i] == '#');
    return true;
}

TEST(writes_unsigned_integers_like_printf)
{
    /* Every power of ten and its neighbours, the 32-bit and 64-bit ends. */
    uint64_t p = 1;
    for (int e = 0; e <= 19; e++, p *= 10)
        for (int d = -1; d <= 1; d++)
            if (p + (uint64_t)d != 0 || d == 0) CHECK(formats_u64_like_printf(p + (uint64_t)(int64_t)d));
    CHECK(formats_u64_like_printf(0));
    CHECK(formats_u64_like_printf(UINT32_MAX));
    CHECK(formats_u64_like_printf((uint64_t)UINT32_MAX + 1));
    CHECK(formats_u64_like_printf(UINT64_MAX));
    for (int i = 0; i < 1000000; i++) {
        uint64_t v = rnd() >> (rnd() % 64); /* every length equally often */
        CHECK(formats_u64_like_printf(v));
    }
}

TEST(writes_every_digit_count_of_a_uint32)
{
    for (uint32_t v = 0; v < 100000; v++) CHECK(formats_u64_like_printf(v));
    for (uint64_t v = 100000; v <= UINT32_MAX; v += 65521) CHECK(formats_u64_like_printf(v));
}

TEST(writes_signed_and_index_fields)
{
    char out[JL_VALUE_TEXT_MAX];
    int32_t i = INT32_MIN;
    uint32_t n = jl_value_format(JL_FIELD_I32, &i, out);
    CHECK(n == 11 && memcmp(out, "-2147483648", n) == 0);
    i = -7;
    n = jl_value_format(JL_FIELD_I32, &i, out);
    CHECK(n == 2 && memcmp(out, "-7", n) == 0);
    uint32_t u = 4294967294u;
    n = jl_value_format(JL_FIELD_INDEX, &u, out);
    CHECK(n == 10 && memcmp(out, "4294967294", n) == 0);
    u = JL_INDEX_MAX;
    n = jl_value_format(JL_FIELD_INDEX, &u, out);
    CHECK(n == 4 && memcmp(out, "none", n) == 0);
}
