/* archive_values.c - a field value's text form: parsing (strict, with the
 * column of the problem) and canonical formatting, for every field type
 * (archive.h). The file reader, jl_world_set_field, the snapshot codec and
 * the inspector's checks all go through these, so a value is checked the
 * same everywhere. */
#include <stdio.h>
#include <string.h>

#include "archive/archive_internal.h"
#include "base/base_internal.h"
#include "juliet/float_text.h"

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The color of the six hex digits at t into *out: how many of them are
 * hex from the first (6 when all are, and only then is *out set). */
static int color_digits(const char *t, jl_color *out)
{
    uint8_t rgb[3];
    for (int c = 0; c < 3; c++) {
        int hi = hex_value(t[2 * c]), lo = hex_value(t[2 * c + 1]);
        if (hi < 0) return 2 * c;
        if (lo < 0) return 2 * c + 1;
        rgb[c] = (uint8_t)(hi * 16 + lo);
    }
    *out = (jl_color){rgb[0], rgb[1], rgb[2]};
    return 6;
}

const char *jl_field_type_name(jl_field_type type)
{
    static const char *names[JL_FIELD_TYPE_COUNT] = {"f32", "index", "bool",   "vec3", "color", "entity_ref",
                                                     "i32", "u32",   "string", "enum", "vec2",  "quat"};
    return (unsigned)type < JL_FIELD_TYPE_COUNT ? names[type] : "unknown";
}

/* Parses one float token; *msg says why on failure, *bad the offset. */
static bool parse_f32(const char *t, size_t n, uint32_t flags, float *out, size_t *bad, const char **msg)
{
    size_t at = 0;
    switch (jl_f32_parse(t, n, out, &at)) {
    case JL_F32_OK:
        return true;
    case JL_F32_INF:
        if (flags & JL_FIELD_ALLOW_INF) return true;
        *bad = 0;
        *msg = "infinity is not allowed here";
        return false;
    case JL_F32_NAN:
        *bad = 0;
        *msg = "NaN is not allowed";
        return false;
    case JL_F32_RANGE:
        *bad = 0;
        *msg = "number out of float32 range";
        return false;
    case JL_F32_SYNTAX:
    default:
        *bad = at;
        *msg = at == 0 ? "expected a number" : "unexpected character in number";
        return false;
    }
}

static const char *const expected_numbers[5] = {"", "", "expected 2 numbers", "expected 3 numbers",
                                                "expected 4 numbers"};
static const char *const text_after_numbers[5] = {"", "", "unexpected text after 2 numbers",
                                                  "unexpected text after 3 numbers", "unexpected text after 4 numbers"};

/* The floats of a VEC2, VEC3 or QUAT. */
static inline int vector_size(jl_field_type type) { return type == JL_FIELD_VEC2 ? 2 : type == JL_FIELD_VEC3 ? 3 : 4; }

/* v's count floats into dst (jl_vec2/3 and jl_quat are packed floats), one
 * at a time: a wider load of floats just stored waits for the stores to
 * retire. */
static inline void store_floats(void *dst, const float *v, int count)
{
    for (int c = 0; c < count; c++) memcpy((float *)dst + c, &v[c], sizeof(float));
}

/* Plain numbers separated by blanks ("1.5 -2 0"), count of them (2 to 4),
 * at the start of t[0, n), parsed in one pass into v: the bytes they take,
 * or 0 for anything else, which the checks of parse_floats then take.
 * Inline, so each caller's count is a constant and the loop unrolls. */
static inline size_t plain_floats(const char *t, size_t n, int count, float *v)
{
    size_t i = 0;
    for (int c = 0;;) {
        size_t used = jli_f32_parse_plain(t + i, n - i, &v[c]);
        if (used == 0) return 0;
        i += used;
        if (++c == count) return i;
        if (i >= n || !jli_is_blank(t[i])) return 0;
        do i++;
        while (i < n && jli_is_blank(t[i]));
    }
}

/* Parses count (2 to 4) finite floats separated by blanks into v, saying
 * where and why on failure. */
static bool parse_floats(const char *t, size_t n, int count, float *v, size_t *bad, const char **msg)
{
    size_t i = 0;
    for (int c = 0; c < count; c++) {
        if (c > 0) {
            if (i >= n) {
                *bad = i;
                *msg = expected_numbers[count];
                return false;
            }
            if (!jli_is_blank(t[i])) {
                /* the float parser stopped here: junk inside a number */
                *bad = i;
                *msg = "unexpected character in number";
                return false;
            }
            while (i < n && jli_is_blank(t[i])) i++;
            if (i >= n) {
                *bad = i;
                *msg = expected_numbers[count];
                return false;
            }
        }
        size_t start = i;
        while (i < n && !jli_is_blank(t[i])) i++;
        size_t at = 0;
        if (!parse_f32(t + start, i - start, 0, &v[c], &at, msg)) {
            *bad = start + at;
            return false;
        }
    }
    if (i != n) {
        *bad = i;
        while (*bad < n && jli_is_blank(t[*bad])) (*bad)++;
        *msg = text_after_numbers[count];
        return false;
    }
    return true;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 8 hex digits at t (first digit most significant), eight bytes at a
 * time; false if any byte is not a hex digit (the caller's byte loop then
 * says which). Per byte, for ASCII x: a digit is x in [0x30, 0x3a), a
 * letter (x | 0x20) in [0x61, 0x67); bytes are biased by 0x80 so the
 * subtractions never borrow across bytes. */
static inline bool hex8(const char *t, uint32_t *out)
{
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    uint64_t x;
    memcpy(&x, t, sizeof x);
    if (x & highs) return false;
    const uint64_t lower = x | (0x20 * ones);
    const uint64_t digit = ((x | highs) - 0x30 * ones) & ~((x | highs) - 0x3a * ones);
    const uint64_t letter = ((lower | highs) - 0x61 * ones) & ~((lower | highs) - 0x67 * ones);
    if (((digit | letter) & highs) != highs) return false;
    /* Nibble per byte: the low four bits, plus 9 for a letter. */
    uint64_t v = (x & 0x0f * ones) + ((letter & highs) >> 7) * 9;
    /* Byte 0 holds the most significant nibble: pack pairs, quads, halves. */
    v = ((v & 0x000f000f000f000full) << 4) | ((v >> 8) & 0x000f000f000f000full);
    v = ((v & 0x000000ff000000ffull) << 8) | ((v >> 16) & 0x000000ff000000ffull);
    v = ((v & 0x000000000000ffffull) << 16) | ((v >> 32) & 0x000000000000ffffull);
    *out = (uint32_t)v;
    return true;
}
#endif

/* The canonical 0x + 16 digits at the start of t[0, n), in two steps: the
 * 18 bytes they take, or 0 for any other text. */
static inline size_t plain_hex64(const char *t, size_t n, uint64_t *out)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t hi, lo;
    if (n >= 18 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') && hex8(t + 2, &hi) && hex8(t + 10, &lo)) {
        *out = (uint64_t)hi << 32 | lo;
        return 18;
    }
#else
    (void)t, (void)n, (void)out;
#endif
    return 0;
}

static bool parse_hex64(const char *t, size_t n, uint64_t *out, size_t *bad, const char **msg)
{
    if (n < 3 || t[0] != '0' || (t[1] != 'x' && t[1] != 'X')) {
        *bad = 0;
        *msg = "expected 0x and hex digits";
        return false;
    }
    uint64_t v = 0;
    for (size_t i = 2; i < n; i++) {
        int h = hex_value(t[i]);
        if (h < 0) {
            *bad = i;
            *msg = "unexpected character in hex number";
            return false;
        }
        if (i >= 18) {
            *bad = 0;
            *msg = "ID longer than 16 hex digits";
            return false;
        }
        v = (v << 4) | (uint64_t)h;
    }
    *out = v;
    return true;
}

/* A decimal number of at most max; range is the message past it. */
static bool parse_whole(const char *t, size_t n, uint64_t max, const char *range, uint64_t *out, size_t *bad,
                        const char **msg)
{
    if (n == 0 || t[0] < '0' || t[0] > '9') {
        *bad = 0;
        *msg = "expected a whole number";
        return false;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] < '0' || t[i] > '9') {
            *bad = i;
            *msg = "unexpected character in whole number";
            return false;
        }
        v = v * 10 + (uint64_t)(t[i] - '0');
        if (v > max) {
            *bad = 0;
            *msg = range;
            return false;
        }
    }
    *out = v;
    return true;
}

static bool parse_u32(const char *t, size_t n, uint32_t *out, size_t *bad, const char **msg)
{
    if (n > 1 && t[0] == '-' && t[1] >= '0' && t[1] <= '9') {
        *bad = 0; /* a whole number, below what the field takes */
        *msg = "must be 0 or more";
        return false;
    }
    uint64_t v;
    if (!parse_whole(t, n, UINT32_MAX, "number out of range (max 4294967295)", &v, bad, msg)) return false;
    *out = (uint32_t)v;
    return true;
}

static const char i32_range[] = "number out of range (-2147483648 to 2147483647)";

static bool parse_i32(const char *t, size_t n, int32_t *out, size_t *bad, const char **msg)
{
    const bool negative = n > 0 && t[0] == '-';
    uint64_t v;
    if (!parse_whole(t + negative, n - negative, negative ? UINT64_C(2147483648) : INT32_MAX, i32_range, &v, bad,
                     msg)) {
        if (*msg != i32_range) *bad += negative; /* a range error points at the whole number */
        return false;
    }
    *out = negative ? (int32_t)(-(int64_t)v) : (int32_t)v;
    return true;
}

/* The index of the name t[0, n) in e. */
static bool parse_enum(const jl_enum *e, const char *t, size_t n, jl_enum_value *out, jli_value_fail *fail)
{
    if (!e || !e->names) {
        fail->bad = 0;
        fail->msg = "enum field without names";
        return false;
    }
    for (uint32_t i = 0; i < e->count && i <= UINT16_MAX; i++) {
        if (strlen(e->names[i]) == n && memcmp(e->names[i], t, n) == 0) {
            *out = (jl_enum_value)i;
            return true;
        }
    }
    /* The message lists the names, as many as fit, each but the last
     * keeping room for ", ..." after it. */
    char *p = fail->text, *const end = fail->text + sizeof fail->text;
    p += snprintf(p, (size_t)(end - p), "expected one of");
    for (uint32_t i = 0; i < e->count; i++) {
        size_t need = (i ? 2 : 1) + strlen(e->names[i]) + (i + 1 < e->count ? 5 : 0) + 1;
        if ((size_t)(end - p) < need) {
            snprintf(p, (size_t)(end - p), ", ...");
            break;
        }
        p += snprintf(p, (size_t)(end - p), "%s%s", i ? ", " : " ", e->names[i]);
    }
    fail->bad = 0;
    fail->msg = fail->text;
    return false;
}

jl_status jli_value_parse_checked(const jl_field *field, const char *t, size_t n, void *dst, jl_arena *strings,
                                  jli_value_fail *fail)
{
    size_t *bad = &fail->bad;
    const char **msg = &fail->msg;
    bool ok;
    switch (field->type) {
    case JL_FIELD_F32:
        ok = parse_f32(t, n, field->flags, dst, bad, msg);
        break;
    case JL_FIELD_INDEX:
        if (jli_word_is(t, n, "none")) {
            *(uint32_t *)dst = JL_INDEX_MAX;
            return JL_OK;
        }
        ok = parse_u32(t, n, dst, bad, msg);
        break;
    case JL_FIELD_U32:
        ok = parse_u32(t, n, dst, bad, msg);
        break;
    case JL_FIELD_I32:
        ok = parse_i32(t, n, dst, bad, msg);
        break;
    case JL_FIELD_BOOL:
        if (jli_word_is(t, n, "true")) *(bool *)dst = true;
        else if (jli_word_is(t, n, "false")) *(bool *)dst = false;
        else {
            *bad = 0;
            *msg = "expected true or false";
            return JL_ERR_PARSE;
        }
        return JL_OK;
    case JL_FIELD_VEC2:
    case JL_FIELD_VEC3:
    case JL_FIELD_QUAT: {
        /* Parsed into a temporary: the file reader's dst is the field. */
        float v[4];
        const int count = vector_size(field->type);
        ok = parse_floats(t, n, count, v, bad, msg);
        if (ok) store_floats(dst, v, count);
        break;
    }
    case JL_FIELD_COLOR: {
        if (n != 7 || t[0] != '#') {
            *bad = 0;
            *msg = "expected a color #rrggbb";
            return JL_ERR_PARSE;
        }
        const int hex = color_digits(t + 1, dst);
        if (hex < 6) {
            *bad = (size_t)(1 + hex);
            *msg = "expected a hex digit in color";
            return JL_ERR_PARSE;
        }
        return JL_OK;
    }
    case JL_FIELD_ENTITY_REF:
        if (jli_word_is(t, n, "none")) {
            *(uint64_t *)dst = 0;
            return JL_OK;
        }
        ok = parse_hex64(t, n, dst, bad, msg);
        break;
    case JL_FIELD_ENUM:
        if (!field->enumeration || !field->enumeration->names) {
            *bad = 0;
            *msg = "enum field without names";
            return JL_ERR_INVALID_ARGUMENT;
        }
        ok = parse_enum(field->enumeration, t, n, dst, fail);
        break;
    case JL_FIELD_STRING:
        return jli_string_parse(t, n, dst, strings, fail);
    default:
        *bad = 0;
        *msg = "field of unknown type";
        return JL_ERR_PARSE;
    }
    return ok ? JL_OK : JL_ERR_PARSE;
}

/* A whole number of at most nine digits (no room to overflow) at the
 * start of t[0, n): the bytes it takes, or 0. */
static inline size_t plain_whole(const char *t, size_t n, uint32_t *out)
{
    uint32_t v = 0;
    size_t i = 0;
    for (; i < n && i < 10 && (unsigned)(t[i] - '0') < 10u; i++) v = v * 10 + (uint32_t)(t[i] - '0');
    if (i - 1 >= 9) return 0;
    *out = v;
    return i;
}

/* The bytes word takes at the start of t[0, n), or 0. */
static inline size_t plain_word(const char *t, size_t n, const char *word, size_t size)
{
    return n >= size && memcmp(t, word, size) == 0 ? size : 0;
}

size_t jli_value_parse_plain(const jl_field *field, const char *t, size_t n, void *dst)
{
    float v[4];
    size_t used;
    switch (field->type) {
    case JL_FIELD_F32:
        return jli_f32_parse_plain(t, n, dst);
    case JL_FIELD_INDEX:
        if ((used = plain_word(t, n, "none", 4)) != 0) *(uint32_t *)dst = JL_INDEX_MAX;
        else used = plain_whole(t, n, dst);
        return used;
    case JL_FIELD_U32:
        return plain_whole(t, n, dst);
    case JL_FIELD_BOOL:
        if ((used = plain_word(t, n, "true", 4)) != 0) *(bool *)dst = true;
        else if ((used = plain_word(t, n, "false", 5)) != 0) *(bool *)dst = false;
        return used;
    case JL_FIELD_VEC2:
        if ((used = plain_floats(t, n, 2, v)) != 0) store_floats(dst, v, 2);
        return used;
    case JL_FIELD_VEC3:
        if ((used = plain_floats(t, n, 3, v)) != 0) store_floats(dst, v, 3);
        return used;
    case JL_FIELD_QUAT:
        if ((used = plain_floats(t, n, 4, v)) != 0) store_floats(dst, v, 4);
        return used;
    case JL_FIELD_COLOR:
        return n >= 7 && t[0] == '#' && color_digits(t + 1, dst) == 6 ? 7 : 0;
    case JL_FIELD_ENTITY_REF:
        if ((used = plain_word(t, n, "none", 4)) != 0) *(uint64_t *)dst = 0;
        else used = plain_hex64(t, n, dst);
        return used;
    default:
        return 0;
    }
}

jl_status jli_value_parse_into(const jl_field *field, const char *t, size_t n, void *dst, jl_arena *strings,
                               jli_value_fail *fail)
{
    if (n != 0 && jli_value_parse_plain(field, t, n, dst) == n) return JL_OK;
    return jli_value_parse_checked(field, t, n, dst, strings, fail);
}

/* Room for a value of any field type. */
typedef union any_value {
    float f;
    uint32_t u;
    int32_t i;
    bool b;
    jl_vec2 v2;
    jl_vec3 v3;
    jl_quat q;
    jl_color c;
    uint64_t id;
    jl_string s;
    jl_enum_value e;
} any_value;

jl_status jl_field_parse(const jl_field *field, const char *text, size_t size, void *dst, jl_arena *strings,
                         uint32_t *bad_col, jl_error *err)
{
    /* Parse into a temporary so a failure leaves dst untouched (a string's
     * bytes are pushed only once the text is known to be good). */
    any_value tmp;
    jli_value_fail fail = {0};
    jl_status s = jli_value_parse_into(field, text, size, &tmp, strings, &fail);
    if (s != JL_OK) {
        if (bad_col) *bad_col = (uint32_t)fail.bad + 1;
        return jl_error_set(err, s, NULL, 0, (uint32_t)fail.bad + 1, "%s", fail.msg);
    }
    memcpy(dst, &tmp, jl_field_type_size(field->type));
    if (bad_col) *bad_col = 0;
    return JL_OK;
}

jl_status jl_value_parse(jl_field_type type, uint32_t flags, const char *text, size_t size, void *dst,
                         uint32_t *bad_col, jl_error *err)
{
    const jl_field field = {.type = type, .flags = flags};
    return jl_field_parse(&field, text, size, dst, NULL, bad_col, err);
}

uint32_t jli_format_u64(uint64_t v, char *out)
{
    if (v <= UINT32_MAX) return jli_digits_write(out, (uint32_t)v);
    /* The digits above the last eight (at most 12: recursion depth 2), then those eight. */
    const uint64_t high = v / 100000000;
    const uint32_t n = jli_format_u64(high, out);
    jli_digits_write8(out + n, (uint32_t)(v - high * 100000000));
    return n + 8;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 8 lower-case hex digits of v at out, all at once: each nibble is
 * spread to its own byte (most significant first, as a little-endian store
 * wants it), then 0-9 and a-f become ASCII by adding '0' and, where the
 * nibble is 10 or more, the distance from '9' + 1 to 'a'. */
static inline void hex8_format(uint32_t v, char *out)
{
    const uint64_t ones = 0x0101010101010101ull;
    uint64_t x = v;
    x = ((x >> 16) | (x << 32)) & 0x0000ffff0000ffffull;
    x = ((x >> 8) & 0x000000ff000000ffull) | ((x & 0x000000ff000000ffull) << 16);
    x = ((x >> 4) & 0x000f000f000f000full) | ((x & 0x000f000f000f000full) << 8);
    x += 0x30 * ones + (((x + 0x06 * ones) >> 4) & ones) * ('a' - '9' - 1);
    memcpy(out, &x, sizeof x);
}
#endif

uint32_t jli_format_hex64(uint64_t v, char *out)
{
    out[0] = '0';
    out[1] = 'x';
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    hex8_format((uint32_t)(v >> 32), out + 2);
    hex8_format((uint32_t)v, out + 10);
#else
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) out[2 + i] = digits[(v >> (60 - 4 * i)) & 15];
#endif
    return 18;
}

/* The text of an ENUM value: its name (cut at JL_ENUM_NAME_MAX bytes, a
 * longer name being no valid name), or its decimal number when it has
 * none, which no file reads back. */
static uint32_t format_enum(const jl_enum *e, jl_enum_value v, char *out)
{
    if (!e || !e->names || v >= e->count) return jli_format_u64(v, out);
    const char *name = e->names[v];
    uint32_t n = 0;
    while (n < JL_ENUM_NAME_MAX && name[n]) {
        out[n] = name[n];
        n++;
    }
    return n;
}

/* Floats separated by one space. */
static uint32_t format_floats(const float *v, int count, char *out)
{
    uint32_t n = jl_f32_format(v[0], out);
    for (int c = 1; c < count; c++) {
        out[n++] = ' ';
        n += jl_f32_format(v[c], out + n);
    }
    return n;
}

uint32_t jl_field_format(const jl_field *field, const void *src, char *out)
{
    static const char hex[] = "0123456789abcdef";
    switch (field->type) {
    case JL_FIELD_F32:
        return jl_f32_format(*(const float *)src, out);
    case JL_FIELD_INDEX: {
        uint32_t v = *(const uint32_t *)src;
        if (v == JL_INDEX_MAX) {
            memcpy(out, "none", 4);
            return 4;
        }
        return jli_format_u64(v, out);
    }
    case JL_FIELD_U32:
        return jli_format_u64(*(const uint32_t *)src, out);
    case JL_FIELD_I32: {
        int32_t v = *(const int32_t *)src;
        if (v >= 0) return jli_format_u64((uint32_t)v, out);
        out[0] = '-';
        return 1 + jli_format_u64((uint64_t)0 - (uint64_t)v, out + 1);
    }
    case JL_FIELD_BOOL:
        if (*(const bool *)src) {
            memcpy(out, "true", 4);
            return 4;
        }
        memcpy(out, "false", 5);
        return 5;
    case JL_FIELD_VEC2:
        return format_floats(src, 2, out);
    case JL_FIELD_VEC3:
        return format_floats(src, 3, out);
    case JL_FIELD_QUAT:
        return format_floats(src, 4, out);
    case JL_FIELD_COLOR: {
        const jl_color *c = src;
        out[0] = '#';
        out[1] = hex[c->r >> 4];
        out[2] = hex[c->r & 15];
        out[3] = hex[c->g >> 4];
        out[4] = hex[c->g & 15];
        out[5] = hex[c->b >> 4];
        out[6] = hex[c->b & 15];
        return 7;
    }
    case JL_FIELD_ENTITY_REF: {
        uint64_t id = *(const uint64_t *)src;
        if (id == 0) {
            memcpy(out, "none", 4);
            return 4;
        }
        return jli_format_hex64(id, out);
    }
    case JL_FIELD_ENUM:
        return format_enum(field->enumeration, *(const jl_enum_value *)src, out);
    case JL_FIELD_STRING:
        return jli_string_format(src, out);
    default:
        return 0;
    }
}

uint32_t jl_value_format(jl_field_type type, const void *src, char *out)
{
    const jl_field field = {.type = type};
    return jl_field_format(&field, src, out);
}

jl_status jl_value_check(const jl_field *field, const char *text, size_t size, char *out, uint32_t *out_size,
                         jl_error *err)
{
    out[0] = '\0';
    if (out_size) *out_size = 0;
    /* A string is parsed into this buffer, through an arena over it: the
     * arena is committed from the start, so a push never asks the system
     * for memory, and it is never released. A valid string's bytes are at
     * most a line. */
    char bytes[JL_VALUE_TEXT_MAX];
    jl_arena local = {.base = (uint8_t *)bytes, .reserved = sizeof bytes, .committed = sizeof bytes};
    any_value value;
    jl_status s = jl_field_parse(field, text, size, &value, &local, NULL, err);
    if (s != JL_OK) return s;
    uint32_t n = jl_field_format(field, &value, out);
    out[n] = '\0';
    if (out_size) *out_size = n;
    return JL_OK;
}

jl_status jl_class_default_text(const jl_class *cls, uint32_t field_index, char *out)
{
    if (!cls || field_index >= cls->field_count) return JL_ERR_NOT_FOUND;
    /* Every compiled class struct is small: its defaults are built in a
     * stack buffer. A class described by data has them as bytes. */
    _Alignas(16) unsigned char buffer[512];
    const unsigned char *defaults = cls->default_init ? NULL : cls->defaults;
    if (!defaults) {
        if (cls->size_of > sizeof buffer) return JL_ERR_INVALID_ARGUMENT;
        jl_class_default_init(cls, buffer);
        defaults = buffer;
    }
    const jl_field *f = &cls->fields[field_index];
    uint32_t n = jl_field_format(f, defaults + f->offset, out);
    out[n] = '\0';
    return JL_OK;
}
