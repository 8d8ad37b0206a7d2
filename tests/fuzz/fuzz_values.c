/* fuzz_values.c - libFuzzer target for the text of one field value
 * (archive.h: jl_field_parse, jl_field_format). The first input byte picks
 * a field (every type; f32 with and without infinities; an enum with four
 * names), the rest is the value's text, as jl_world_set_field gets it.
 *
 * Properties checked beyond "no sanitizer report":
 *  - a refused text is JL_ERR_PARSE with a column inside the text (or just
 *    past its end) and a message, and leaves the destination untouched;
 *  - an accepted text gives a value whose canonical text fits a value line
 *    as it is: at most JL_ARCHIVE_LINE_MAX bytes, not empty, no blank at
 *    either end, no leading ';', no line end or NUL;
 *  - that text reads back to the same value (a string's bytes, a float's
 *    bits), and formats to itself (canonical form is a fixed point);
 *  - the parser's fast path for the engine's own forms agrees with the
 *    checked parser alone: the same verdict and the same value. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive_internal.h"
#include "juliet/archive.h"
#include "fuzz.h"

static jl_arena arena;

static const char *const names[] = {"red", "blue", "green", "a_b_1"};
static const jl_enum names_enum = JL_ENUM(names);

static const jl_field fields[] = {
    {"f", JL_FIELD_F32, 0, 0, NULL},         {"f", JL_FIELD_F32, 0, JL_FIELD_ALLOW_INF, NULL},
    {"f", JL_FIELD_INDEX, 0, 0, NULL},       {"f", JL_FIELD_BOOL, 0, 0, NULL},
    {"f", JL_FIELD_VEC3, 0, 0, NULL},        {"f", JL_FIELD_COLOR, 0, 0, NULL},
    {"f", JL_FIELD_ENTITY_REF, 0, 0, NULL},  {"f", JL_FIELD_I32, 0, 0, NULL},
    {"f", JL_FIELD_U32, 0, 0, NULL},         {"f", JL_FIELD_STRING, 0, 0, NULL},
    {"f", JL_FIELD_ENUM, 0, 0, &names_enum}, {"f", JL_FIELD_VEC2, 0, 0, NULL},
    {"f", JL_FIELD_QUAT, 0, 0, NULL},
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (jl_arena_init(&arena, 64u << 20) != JL_OK) abort();
    return 0;
}

/* Room for a value of any type, zeroed so padding compares equal. */
typedef union value {
    uint8_t bytes[32];
    jl_string string;
} value;

static bool same_value(const jl_field *f, const value *a, const value *b)
{
    if (f->type != JL_FIELD_STRING) return memcmp(a->bytes, b->bytes, jl_field_type_size(f->type)) == 0;
    return a->string.size == b->string.size && memcmp(a->string.data, b->string.data, a->string.size) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    const jl_field *f = &fields[data[0] % (sizeof fields / sizeof fields[0])];
    const char *text = (const char *)data + 1;
    const size_t n = size - 1;
    jl_arena_pop_to(&arena, 0);

    value v, untouched;
    memset(&v, 0xa5, sizeof v);
    untouched = v;
    uint32_t col = 0;
    jl_error err = {0};
    jl_status s = jl_field_parse(f, text, n, &v, &arena, &col, &err);
    value checked;
    memset(&checked, 0xa5, sizeof checked);
    jli_value_fail fail = {0};
    FUZZ_ASSERT(jli_value_parse_checked(f, text, n, &checked, &arena, &fail) == s);
    if (s == JL_OK) FUZZ_ASSERT(same_value(f, &v, &checked));
    if (s != JL_OK) {
        FUZZ_ASSERT(s == JL_ERR_PARSE);
        FUZZ_ASSERT(col >= 1 && col <= n + 1 && err.col == col);
        FUZZ_ASSERT(err.message[0] != '\0');
        FUZZ_ASSERT(memcmp(&v, &untouched, sizeof v) == 0);
        FUZZ_ASSERT(arena.used == 0);
        return 0;
    }

    static char out[JL_VALUE_TEXT_MAX], again[JL_VALUE_TEXT_MAX];
    uint32_t len = jl_field_format(f, &v, out);
    FUZZ_ASSERT(len >= 1 && len <= JL_ARCHIVE_LINE_MAX);
    FUZZ_ASSERT(out[0] != ' ' && out[0] != '\t' && out[0] != ';');
    FUZZ_ASSERT(out[len - 1] != ' ' && out[len - 1] != '\t');
    FUZZ_ASSERT(!memchr(out, '\n', len) && !memchr(out, '\r', len) && !memchr(out, '\0', len));

    value back;
    memset(&back, 0, sizeof back);
    FUZZ_ASSERT(jl_field_parse(f, out, len, &back, &arena, NULL, &err) == JL_OK);
    FUZZ_ASSERT(same_value(f, &v, &back));
    FUZZ_ASSERT(jl_field_format(f, &back, again) == len && memcmp(again, out, len) == 0);
    return 0;
}
