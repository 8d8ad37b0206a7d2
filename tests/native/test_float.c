/* test_float.c - float32 text: shortest round trip, correct rounding,
 * strictness, locale independence (float_text.h). The C library's printf
 * and strtof serve only as reference oracles here, in the C locale. */
#define _POSIX_C_SOURCE 200809L
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "juliet/float_text.h"
#include "test.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void) { return jt_xorshift(&rng_state); }

/* A float's bits and back: reading another member of a union is defined in C11. */
typedef union f32_bits {
    float f;
    uint32_t b;
} f32_bits;
static float from_bits(uint32_t b) { return (f32_bits){.b = b}.f; }
static uint32_t bits_of(float f) { return (f32_bits){.f = f}.b; }

static bool formats_as(float value, const char *expected)
{
    char out[JL_F32_TEXT_MAX + 1];
    uint32_t n = jl_f32_format(value, out);
    out[n] = '\0';
    if (strcmp(out, expected) != 0) {
        fprintf(stderr, "formatted %s, expected %s\n", out, expected);
        return false;
    }
    return true;
}

/* Formats and parses back; true if the bits survive. */
static bool round_trips(uint32_t bits)
{
    float f = from_bits(bits), g = 0;
    char out[JL_F32_TEXT_MAX];
    uint32_t n = jl_f32_format(f, out);
    jl_f32_parse_result r = jl_f32_parse(out, n, &g, NULL);
    if (isnan(f)) return r == JL_F32_NAN;
    if (isinf(f)) return r == JL_F32_INF && bits_of(g) == bits;
    return r == JL_F32_OK && bits_of(g) == bits;
}

TEST(formats_known_values)
{
    CHECK(formats_as(0.0f, "0"));
    CHECK(formats_as(-0.0f, "-0"));
    CHECK(formats_as(1.0f, "1"));
    CHECK(formats_as(0.1f, "0.1"));
    CHECK(formats_as(0.43f, "0.43"));
    CHECK(formats_as(-44.0f, "-44"));
    CHECK(formats_as(108.2f, "108.2"));
    CHECK(formats_as(12.5f, "12.5"));
    CHECK(formats_as(1e-6f, "0.000001"));
    CHECK(formats_as(1e-7f, "1e-7"));
    CHECK(formats_as(1e20f, "100000000000000000000"));
    CHECK(formats_as(1e21f, "1e+21"));
    CHECK(formats_as(16777216.0f, "16777216"));
    CHECK(formats_as(3.4028235e38f, "3.4028235e+38"));
    CHECK(formats_as(1.17549435e-38f, "1.1754944e-38"));
    CHECK(formats_as(from_bits(1), "1e-45"));
    CHECK(formats_as(INFINITY, "inf"));
    CHECK(formats_as(-INFINITY, "-inf"));
    CHECK(formats_as(NAN, "nan"));
}

TEST(round_trips_a_sample_of_bit_patterns)
{
    static const uint32_t edges[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x007fffffu, 0x00800000u,
                                     0x7f7fffffu, 0xff7fffffu, 0x3f800000u, 0x3f800001u, 0x3f7fffffu,
                                     0x4b800000u, 0x4b800001u, 0x7f800000u, 0xff800000u};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) CHECK(round_trips(edges[i]));
    /* Every power of two and its neighbours, then 4M random patterns. */
    for (uint32_t e = 0; e < 255; e++)
        for (int d = -2; d <= 2; d++) CHECK(round_trips((e << 23) + (uint32_t)d));
    for (int i = 0; i < 4000000; i++) CHECK(round_trips((uint32_t)rnd()));
}

TEST_SLOW(round_trips_every_float32)
{
    uint32_t b = 0;
    do {
        if (!round_trips(b)) {
            fprintf(stderr, "bits 0x%08x do not round-trip\n", b);
            CHECK(false);
        }
    } while (++b != 0);
}

/* Significant digits of our text (leading and trailing zeros of the
 * digit string do not count). */
static int significant_digits(const char *text)
{
    char digits[32];
    int n = 0;
    for (const char *p = text; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9') digits[n++] = *p;
    int start = 0;
    while (start < n && digits[start] == '0') start++;
    while (n > start && digits[n - 1] == '0') n--;
    return n - start;
}

/* True if f's text reads back to f and no shorter precision does. */
static bool is_shortest(float f)
{
    char out[JL_F32_TEXT_MAX + 1];
    out[jl_f32_format(f, out)] = '\0';
    if (strtof(out, NULL) != f) {
        fprintf(stderr, "%s does not read back to %.9g\n", out, (double)f);
        return false;
    }
    for (int p = 1, ours = significant_digits(out); p < ours; p++) {
        char ref[64];
        snprintf(ref, sizeof ref, "%.*e", p - 1, (double)f);
        if (strtof(ref, NULL) == f) {
            fprintf(stderr, "%s is not shortest: %s\n", out, ref);
            return false;
        }
    }
    return true;
}

TEST(writes_the_shortest_digits)
{
    for (int i = 0; i < 200000; i++) {
        float f = from_bits((uint32_t)rnd());
        if (isfinite(f) && f != 0) CHECK(is_shortest(f));
    }
}

/* The decimals of at most three places below 2^14 (most of hand-made and
 * generated data) take a path of their own: they and their neighbours. */
TEST(writes_the_shortest_digits_of_three_place_decimals)
{
    for (uint32_t w = 1; w < 17000000; w += 1 + (uint32_t)(rnd() % 193)) {
        char text[32];
        snprintf(text, sizeof text, "%u.%03u", w / 1000, w % 1000);
        const float f = strtof(text, NULL);
        CHECK(is_shortest(f) && is_shortest(nextafterf(f, 0)) && is_shortest(nextafterf(f, INFINITY)));
        /* Up to 6 significant digits a decimal is its float's text: "12.5", not "12.500". */
        size_t n = strlen(text);
        while (text[n - 1] == '0') n--;
        text[text[n - 1] == '.' ? n - 1 : n] = '\0';
        if (significant_digits(text) <= 6) CHECK(formats_as(f, text));
    }
}

TEST(parses_like_a_correctly_rounded_reference)
{
    for (int i = 0; i < 1000000; i++) {
        char text[80];
        int n = 0, digits = 1 + (int)(rnd() % 30), point = (int)(rnd() % (uint64_t)(digits + 1));
        if (rnd() & 1) text[n++] = '-';
        for (int d = 0; d < digits; d++) {
            if (d == point && d > 0) text[n++] = '.';
            text[n++] = (char)('0' + rnd() % 10);
        }
        if (rnd() & 1) n += snprintf(text + n, sizeof text - (size_t)n, "e%d", (int)(rnd() % 90) - 45);
        text[n] = '\0';
        float ours = 0;
        jl_f32_parse_result r = jl_f32_parse(text, (size_t)n, &ours, NULL);
        float ref = strtof(text, NULL);
        if (r == JL_F32_OK) {
            if (bits_of(ours) != bits_of(ref))
                fprintf(stderr, "%s: 0x%08x, reference 0x%08x\n", text, bits_of(ours), bits_of(ref));
            CHECK(bits_of(ours) == bits_of(ref));
        } else {
            /* Only overflow to infinity or underflow to zero may be refused. */
            CHECK(r == JL_F32_RANGE);
            CHECK(isinf(ref) || ref == 0.0f);
        }
    }
}

static bool parses_to(const char *text, uint32_t expected_bits)
{
    float f = 0;
    jl_f32_parse_result r = jl_f32_parse(text, strlen(text), &f, NULL);
    if (r != JL_F32_OK || bits_of(f) != expected_bits) {
        fprintf(stderr, "%s: result %d bits 0x%08x, expected 0x%08x\n", text, r, bits_of(f), expected_bits);
        return false;
    }
    return true;
}

TEST(parses_halfway_cases_to_even)
{
    /* 1 + 2^-24 is exactly between 1 and the next float: ties to even (1). */
    CHECK(parses_to("1.000000059604644775390625", 0x3f800000u));
    CHECK(parses_to("1.0000000596046447753906251", 0x3f800001u));
    CHECK(parses_to("1.0000000596046447753906249", 0x3f800000u));
    /* 1 + 3 * 2^-24 is between 1+2^-23 (odd) and 1+2^-22 (even). */
    CHECK(parses_to("1.000000178813934326171875", 0x3f800002u));
    CHECK(parses_to("16777217", 0x4b800000u));
    CHECK(parses_to("16777219", 0x4b800002u));
    /* The largest float and just below the overflow edge. */
    CHECK(parses_to("340282346638528859811704183484516925440", 0x7f7fffffu));
    CHECK(parses_to("3.4028235677973365e38", 0x7f7fffffu));
    /* Subnormals: the smallest, and a 100-digit input. */
    CHECK(parses_to("1e-45", 0x00000001u));
    CHECK(
        parses_to("1."
                  "4012984643248170709237295832899161312802619418765157717570682838897910826858606014866381883621215820"
                  "312500000000000000000000000000000000001e-45",
                  0x00000001u));
    CHECK(parses_to("-0", 0x80000000u));
    CHECK(parses_to(".5", 0x3f000000u));
    CHECK(parses_to("0.000", 0x00000000u));
}

static jl_f32_parse_result parse_result(const char *text, size_t *bad)
{
    float f;
    return jl_f32_parse(text, strlen(text), &f, bad);
}

TEST(rejects_trailing_junk_with_its_offset)
{
    static const struct {
        const char *text;
        size_t at; /* where the text stops being a number */
    } cases[] = {
        {"2.5abc", 3}, {"12,5", 2} /* a German decimal comma is not a point */,
        {"", 0},       {"+1", 0},
        {"1.", 2},     {"1e", 2},
        {" 1", 0},     {"1 ", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t bad = 99;
        CHECK(parse_result(cases[i].text, &bad) == JL_F32_SYNTAX && bad == cases[i].at);
    }
    CHECK(parse_result("infinity", NULL) == JL_F32_SYNTAX);
}

TEST(reports_overflow_and_underflow_as_out_of_range)
{
    CHECK(parse_result("1e39", NULL) == JL_F32_RANGE);
    CHECK(parse_result("-3.5e38", NULL) == JL_F32_RANGE);
    CHECK(parse_result("340282356779733661637539395458142568448", NULL) ==
          JL_F32_RANGE); /* the edge ties to infinity */
    CHECK(parse_result("3.4028235677973367e38", NULL) == JL_F32_RANGE);
    CHECK(parse_result("1e-46", NULL) == JL_F32_RANGE);
    CHECK(parse_result("7.006492321624085354618647916449580656401309709382578858785341419448955413429303e-46", NULL) ==
          JL_F32_RANGE); /* exactly half the smallest subnormal: ties to zero */
    CHECK(parse_result("1e99999999999", NULL) == JL_F32_RANGE);
    CHECK(parse_result("0e99999", NULL) == JL_F32_OK); /* zero is zero at any scale */
}

TEST(reports_nan_and_infinity_for_the_caller_to_decide)
{
    float f = 0;
    CHECK(jl_f32_parse("inf", 3, &f, NULL) == JL_F32_INF);
    CHECK(isinf(f) && f > 0);
    CHECK(jl_f32_parse("-inf", 4, &f, NULL) == JL_F32_INF);
    CHECK(isinf(f) && f < 0);
    CHECK(jl_f32_parse("nan", 3, &f, NULL) == JL_F32_NAN);
    CHECK(isnan(f));
}

/* Formats and parses a fixed sample into one byte string. */
static size_t sample_text(char *out, size_t size)
{
    size_t n = 0;
    uint64_t saved = rng_state;
    rng_state = 42;
    for (int i = 0; i < 2000 && n + JL_F32_TEXT_MAX + 1 < size; i++) {
        float f = from_bits((uint32_t)rnd());
        if (isnan(f)) continue;
        n += jl_f32_format(f, out + n);
        out[n++] = '\n';
    }
    rng_state = saved;
    return n;
}

/* Tries to switch LC_ALL to a locale whose decimal point is a comma,
 * compiling one with localedef into a temporary LOCPATH if none is
 * installed. */
static bool enter_comma_locale(void)
{
    static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "de_DE", "fr_FR.UTF-8", NULL};
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; names[i]; i++)
            if (setlocale(LC_ALL, names[i]) && strcmp(localeconv()->decimal_point, ",") == 0) return true;
#ifndef __EMSCRIPTEN__
        if (pass == 0) {
            char dir[] = "/tmp/juliet_locale_XXXXXX";
            if (!mkdtemp(dir)) return false;
            char command[256];
            snprintf(command, sizeof command, "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1", dir);
            if (system(command) != 0) return false;
            setenv("LOCPATH", dir, 1);
        }
#endif
    }
    return false;
}

TEST(writes_and_reads_the_same_bytes_under_a_german_locale)
{
    static char in_c[64 * 1024], in_de[64 * 1024];
    setlocale(LC_ALL, "C");
    size_t n_c = sample_text(in_c, sizeof in_c);
    if (!enter_comma_locale()) {
#ifdef __EMSCRIPTEN__
        /* The wasm libc has only the C locale: nothing can differ there. */
        return;
#else
        fprintf(stderr, "could not enter a locale with a decimal comma (localedef missing?)\n");
        CHECK(false);
#endif
    }
    /* The locale is live: the C library itself now writes a comma. */
    char probe[16];
    snprintf(probe, sizeof probe, "%.1f", 2.5);
    CHECK(strcmp(probe, "2,5") == 0);
    size_t n_de = sample_text(in_de, sizeof in_de);
    CHECK(n_c == n_de && memcmp(in_c, in_de, n_c) == 0);
    float f = 0;
    CHECK(jl_f32_parse("2.5", 3, &f, NULL) == JL_F32_OK && f == 2.5f);
    CHECK(jl_f32_parse("2,5", 3, &f, NULL) == JL_F32_SYNTAX);
    setlocale(LC_ALL, "C");
}
