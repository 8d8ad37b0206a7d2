/* float_text.h - float32 <-> decimal text, exact and locale-independent.
 *
 * Writing gives the shortest decimal that reads back to the identical
 * float32 bits (Schubfach, exact integer arithmetic, no printf), so a file
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
    JL_F32_SYNTAX, /* not a number: *bad_offset says where it stopped making sense */
    JL_F32_RANGE,  /* finite text whose value overflows float32 or underflows to zero */
    JL_F32_INF,    /* "inf" / "-inf" (the value is stored; the caller decides) */
    JL_F32_NAN,    /* "nan" (the value is stored; the caller decides) */
} jl_f32_parse_result;

/* Parses exactly text[0, size) as one float32: -?(digits[.digits]|.digits)
 * [(e|E)[+-]digits], or inf/-inf/nan. On JL_F32_SYNTAX *bad_offset is the
 * offset of the first byte that cannot belong to a number (bad_offset may
 * be NULL). *out is written for OK, INF and NAN only. */
jl_f32_parse_result jl_f32_parse(const char *text, size_t size, float *out, size_t *bad_offset);

#endif
