/* test_escape.c - text from outside made safe to print (status.h):
 * jl_text_escape in its terminal and JSON styles, and the diagnostics of
 * jl_error_format, which escape file names and messages. */
#include <string.h>

#include "juliet/status.h"
#include "test.h"

/* True if s holds no C0 control, DEL or byte outside ASCII. */
static bool plain_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f) return false;
    return true;
}

static const char *formatted(const char *path, uint32_t line, uint32_t col, const char *message)
{
    static char out[JL_ERROR_TEXT_MAX];
    jl_error err = {0};
    jl_error_set(&err, JL_ERR_PARSE, path, line, col, "%s", message);
    return jl_error_format(&err, out, sizeof out);
}

TEST(diagnostics_escape_control_characters_in_file_names)
{
    const char *text = formatted("w/\x1b]0;owned\x07/Entities/\x1b[2J\t1.jasset", 3, 7, "expected a number");
    CHECK(strcmp(text, "w/\\x1b]0;owned\\x07/Entities/\\x1b[2J\\x091.jasset:3:7: expected a number") == 0);
    CHECK(plain_ascii(text));
}

TEST(diagnostics_escape_del_c1_controls_and_bytes_that_are_not_utf8)
{
    /* DEL, U+009B (CSI as one code point), a lone 0x9b, a cut sequence,
     * an overlong '/', a UTF-16 surrogate. */
    const char *text = formatted(
        "a\x7f"
        "b\xc2\x9b"
        "c\x9b"
        "d\xe2\x82"
        "e\xc0\xaf"
        "f\xed\xa0\x80.jasset",
        0, 0, "unknown class 'X\x1b[31m'");
    CHECK(strcmp(text,
                 "a\\x7fb\\u009bc\\x9bd\\xe2\\x82e\\xc0\\xaff\\xed\\xa0\\x80.jasset: unknown class "
                 "'X\\x1b[31m'") == 0);
    CHECK(plain_ascii(text));
}

TEST(diagnostics_print_valid_utf8_names_unchanged)
{
    const char *name = "mondes/caf\xc3\xa9/Entit\xc3\xa9s/\xe2\x82\xac\xf0\x9f\x98\x80 \\ \xc2\xa0.jasset";
    char expected[256];
    snprintf(expected, sizeof expected, "%s:1:2: bad", name);
    CHECK(strcmp(formatted(name, 1, 2, "bad"), expected) == 0);
}

TEST(diagnostics_are_cut_between_whole_escapes)
{
    jl_error err = {0};
    jl_error_set(&err, JL_ERR_IO, "ab\x1b", 0, 0, "m");
    char out[6]; /* room for "ab" and the NUL, not for "\x1b" */
    CHECK(strcmp(jl_error_format(&err, out, sizeof out), "ab") == 0);
    char whole[16];
    CHECK(strcmp(jl_error_format(&err, whole, sizeof whole), "ab\\x1b: m") == 0);
}

TEST(json_escape_gives_valid_json_for_control_and_non_utf8_bytes)
{
    static const char in[] = "w\"q\\b\x01\x1b\x7f\xc2\x9b\xff caf\xc3\xa9";
    char out[128];
    size_t n = jl_text_escape(in, sizeof in - 1, JL_ESCAPE_JSON, out, sizeof out);
    static const char expected[] = "w\\\"q\\\\b\\u0001\\u001b\\u007f\\u009b\\u00ff caf\xc3\xa9";
    CHECK(n == sizeof expected - 1);
    CHECK(strcmp(out, expected) == 0);
}

TEST(escape_returns_the_whole_length_when_the_output_is_cut)
{
    char out[4];
    CHECK(jl_text_escape("\x01xy", 3, JL_ESCAPE_JSON, out, sizeof out) == 8);
    CHECK(out[0] == '\0'); /* "\u0001" does not fit: nothing after it is written either */
    CHECK(jl_text_escape("abc\x01", 4, JL_ESCAPE_TERMINAL, NULL, 0) == 7);
}
