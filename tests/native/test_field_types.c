/* test_field_types.c - the field types i32, u32, string, enum, vec2 and
 * quat: their sizes, their text (reading with its tolerances, canonical
 * writing, refusals with line and column), defaults, the value check, and
 * their snapshot columns. A compiled class of this file uses every one of
 * them; it is not in the registry, so entities of it are read and written
 * at the archive level, through a stand-in base entity. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive_internal.h"
#include "juliet/archive.h"
#include "snapshot/snapshot_internal.h"
#include "test.h"

/* ---- the class ---- */

typedef struct test_thing {
    JL_ENTITY_BASE;
    int32_t ammo;
    uint32_t score;
    jl_string display_name;
    jl_enum_value team;
    jl_vec2 waypoint;
    jl_quat facing;
} test_thing;

static const char *const team_names[] = {"red", "blue", "green"};
static const jl_enum team_enum = JL_ENUM(team_names);

static const jl_field thing_fields[] = {
    JL_FIELD(test_thing, ammo, JL_FIELD_I32, 0),
    JL_FIELD(test_thing, score, JL_FIELD_U32, 0),
    JL_FIELD(test_thing, display_name, JL_FIELD_STRING, 0),
    JL_ENUM_FIELD(test_thing, team, &team_enum, 0),
    JL_FIELD(test_thing, waypoint, JL_FIELD_VEC2, 0),
    JL_FIELD(test_thing, facing, JL_FIELD_QUAT, 0),
};
enum { AMMO, SCORE, DISPLAY_NAME, TEAM, WAYPOINT, FACING, FIELD_COUNT };

JL_DEFINE_ENTITY(test_thing, "Thing", 1, thing_fields, NULL,
                 {.ammo = -1, .display_name = JL_STRING("Grunt"), .team = 1, .facing = {0, 0, 0, 1}});

/* ---- helpers ---- */

static jl_arena scratch, strings;

static bool setup(void)
{
    jl_arena_release(&scratch);
    jl_arena_release(&strings);
    return jl_arena_init(&scratch, 16u << 20) == JL_OK && jl_arena_init(&strings, 16u << 20) == JL_OK;
}

/* A base entity standing in for one of the manager's, over *thing. */
static jl_entity stand_in(test_thing *thing)
{
    test_thing_class.default_init(thing);
    jl_entity e = {.derived_kind = &test_thing_class, .derived = thing, .position = {0, 0, 0, 1}};
    thing->base = NULL;
    return e;
}

/* Reads text as a file of the class into *thing (defaults first). */
static jl_status read_thing(const char *text, test_thing *thing, jl_error *err)
{
    jl_entity e = stand_in(thing);
    jl_archive ar;
    jl_status s = jl_archive_tokenize(&ar, &scratch, text, strlen(text), "thing.jasset", err);
    if (s != JL_OK) return s;
    ar.strings = &strings;
    uint64_t id = 0;
    return jl_archive_read_entity(&ar, &e, &id);
}

/* The canonical text of *thing as its entity file (in scratch). */
static const char *write_thing(test_thing *thing, size_t *size)
{
    jl_entity e = {.id = 0x10, .derived_kind = &test_thing_class, .derived = thing, .position = {0, 0, 0, 1}};
    jl_archive ar;
    jl_archive_begin_write(&ar, &scratch);
    if (jl_archive_write_entity(&ar, &e, NULL, 0) != JL_OK) return NULL;
    const char *text;
    if (jl_archive_end_write(&ar, &text, size) != JL_OK) return NULL;
    return text;
}

/* The text of the class's defaults, after the header. */
static const char defaults[] =
    "; ammo\n-1\n; score\n0\n; display_name\nGrunt\n; team\nblue\n"
    "; waypoint\n0 0\n; facing\n0 0 0 1\n";

static const char header[] =
    "; asset_type\nentity_instance\n; id\n0x0000000000000010\n; class\nThing\n"
    "; version\n1\n; class_version\n1\n; position\n0 0 0\n";

static bool string_is(jl_string s, const char *expected)
{
    return s.size == strlen(expected) && memcmp(s.data, expected, s.size) == 0;
}

/* The canonical text of a value of field f checked from text, or NULL with
 * *err set. */
static const char *check(const jl_field *f, const char *text, size_t size, jl_error *err)
{
    static char out[JL_VALUE_TEXT_MAX];
    return jl_value_check(f, text, size, out, NULL, err) == JL_OK ? out : NULL;
}

static const char *check_str(const jl_field *f, const char *text, jl_error *err)
{
    return check(f, text, strlen(text), err);
}

/* ---- sizes ---- */

TEST(every_type_has_its_size_alignment_and_name)
{
    CHECK(jl_field_type_size(JL_FIELD_I32) == 4 && jl_field_type_alignment(JL_FIELD_I32) == 4);
    CHECK(jl_field_type_size(JL_FIELD_U32) == 4 && jl_field_type_alignment(JL_FIELD_U32) == 4);
    CHECK(jl_field_type_size(JL_FIELD_ENUM) == 2 && jl_field_type_alignment(JL_FIELD_ENUM) == 2);
    CHECK(jl_field_type_size(JL_FIELD_VEC2) == 8 && jl_field_type_alignment(JL_FIELD_VEC2) == 4);
    CHECK(jl_field_type_size(JL_FIELD_QUAT) == 16 && jl_field_type_alignment(JL_FIELD_QUAT) == 4);
    CHECK(jl_field_type_size(JL_FIELD_STRING) == sizeof(jl_string));
    CHECK(jl_field_type_alignment(JL_FIELD_STRING) == _Alignof(jl_string));
    CHECK(jl_field_type_size(JL_FIELD_VEC3) == 12 && jl_field_type_alignment(JL_FIELD_COLOR) == 1);
    CHECK(jl_field_type_size(JL_FIELD_TYPE_COUNT) == 0 && jl_field_type_alignment(JL_FIELD_TYPE_COUNT) == 0);
    static const char *const names[JL_FIELD_TYPE_COUNT] = {"f32", "index", "bool",   "vec3", "color", "entity_ref",
                                                           "i32", "u32",   "string", "enum", "vec2",  "quat"};
    for (int t = 0; t < JL_FIELD_TYPE_COUNT; t++) {
        CHECK(strcmp(jl_field_type_name((jl_field_type)t), names[t]) == 0);
        CHECK(jl_field_type_size((jl_field_type)t) > 0);
        CHECK(jl_field_type_size((jl_field_type)t) % jl_field_type_alignment((jl_field_type)t) == 0);
    }
    /* The existing types keep their numbers (snapshots name types by them). */
    CHECK(JL_FIELD_F32 == 0 && JL_FIELD_ENTITY_REF == 5 && JL_FIELD_I32 == 6 && JL_FIELD_QUAT == 11);
}

/* ---- files ---- */

/* Reads the header followed by fields into *thing, writes it back, and
 * says whether the text written is the header followed by expected. */
static bool reads_and_writes(const char *fields, test_thing *thing, const char *expected)
{
    CHECK_OR_FALSE(setup());
    char text[1024];
    snprintf(text, sizeof text, "%s%s", header, fields);
    jl_error err = {0};
    CHECK_OR_FALSE(read_thing(text, thing, &err) == JL_OK);
    size_t size;
    const char *written = write_thing(thing, &size);
    size_t n = strlen(header), m = strlen(expected);
    CHECK_OR_FALSE(written && size == n + m);
    return memcmp(written, header, n) == 0 && memcmp(written + n, expected, m) == 0;
}

TEST(a_canonical_file_reads_every_type_and_writes_back_byte_identical)
{
    static const char fields[] =
        "; ammo\n-2147483648\n; score\n4294967295\n; display_name\nGrunt the \"Second\" \\o/\n"
        "; team\ngreen\n; waypoint\n1.5 -2\n; facing\n0 0.70710677 0 0.70710677\n";
    test_thing thing;
    CHECK(reads_and_writes(fields, &thing, fields));
    CHECK(thing.ammo == INT32_MIN);
    CHECK(thing.score == UINT32_MAX);
    CHECK(string_is(thing.display_name, "Grunt the \"Second\" \\o/"));
    CHECK(thing.display_name.data[thing.display_name.size] == '\0');
    CHECK(thing.team == 2);
    CHECK(thing.waypoint.x == 1.5f && thing.waypoint.y == -2.0f);
    CHECK(thing.facing.x == 0 && thing.facing.y == 0.70710677f && thing.facing.w == 0.70710677f);
}

TEST(a_file_without_the_new_keys_keeps_the_defaults)
{
    test_thing thing;
    CHECK(reads_and_writes("", &thing, defaults));
    CHECK(thing.ammo == -1 && thing.score == 0 && string_is(thing.display_name, "Grunt") && thing.team == 1);
    CHECK(thing.facing.w == 1 && thing.waypoint.x == 0);
}

TEST(tolerated_forms_read_and_are_written_canonically)
{
    static const char fields[] =
        "; ammo\n  -0007 \n; score\n\t0042\n; display_name\n  \"plain\"  \n"
        "; team\nred\r\n; waypoint\n1 \t 2\n; facing\n 1  2\t3   4 \n";
    static const char canonical[] =
        "; ammo\n-7\n; score\n42\n; display_name\nplain\n; team\nred\n"
        "; waypoint\n1 2\n; facing\n1 2 3 4\n";
    test_thing thing;
    CHECK(reads_and_writes(fields, &thing, canonical));
    CHECK(thing.ammo == -7 && thing.score == 42 && string_is(thing.display_name, "plain") && thing.team == 0);
    /* -0 is 0 for an i32. */
    char zero[256];
    snprintf(zero, sizeof zero, "; ammo\n0\n%s", defaults + strlen("; ammo\n-1\n"));
    CHECK(reads_and_writes("; ammo\n-0\n", &thing, zero) && thing.ammo == 0);
}

/* One refused value line: what the file holds after its key (on line 14,
 * right after the header's twelve lines and its own key line), the column
 * the error points at and what the message says. */
typedef struct refusal {
    const char *key, *value;
    uint32_t col;
    const char *message;
} refusal;

TEST(refused_values_name_the_line_and_column)
{
    static const refusal cases[] = {
        {"ammo", "2147483648", 1, "out of range (-2147483648 to 2147483647)"},
        {"ammo", "-2147483649", 1, "out of range"},
        {"ammo", "+1", 1, "expected a whole number"},
        {"ammo", "-", 2, "expected a whole number"},
        {"ammo", "-1x", 3, "unexpected character in whole number"},
        {"ammo", "1.5", 2, "unexpected character"},
        {"score", "4294967296", 1, "max 4294967295"},
        {"score", "none", 1, "expected a whole number"},
        {"score", "-1", 1, "must be 0 or more"},
        {"score", "-", 1, "expected a whole number"},
        {"team", "purple", 1, "expected one of red, blue, green"},
        {"team", "Red", 1, "expected one of"},
        {"team", "1", 1, "expected one of"},
        {"waypoint", "1", 2, "expected 2 numbers"},
        {"waypoint", "1 2 3", 5, "unexpected text after 2 numbers"},
        {"waypoint", "1 nan", 3, "NaN is not allowed"},
        {"facing", "0 0 0", 6, "expected 4 numbers"},
        {"facing", "0 0 0 inf", 7, "infinity is not allowed"},
        {"facing", "0 0 0 1 0", 9, "unexpected text after 4 numbers"},
        {"display_name", "\"open", 6, "no closing quote"},
        {"display_name", "\"a\"b", 4, "unexpected text after the closing quote"},
        {"display_name", "\"a\\nb\"", 3, "unknown escape"},
        {"display_name", "\"a\\", 4, "no closing quote"},
        {"display_name", "a\tb", 2, "control character"},
        {"display_name", "a\x7f", 2, "control character"},
        {"display_name", "a\xc2\x85", 2, "control character"},
        {"display_name", "ab\xc0\x80", 3, "invalid UTF-8"},
        {"display_name", "ab\xed\xa0\x80", 3, "invalid UTF-8"},
        {"display_name", "\xf4\x90\x80\x80", 1, "invalid UTF-8"},
        {"display_name", "x\xe2\x82", 2, "invalid UTF-8"},
        {"display_name", "\xff", 1, "invalid UTF-8"},
        {"display_name", "\"\xe2\x82\"", 2, "invalid UTF-8"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(setup());
        char text[1024];
        snprintf(text, sizeof text, "%s; %s\n%s\n", header, cases[i].key, cases[i].value);
        test_thing thing;
        jl_error err = {0};
        if (read_thing(text, &thing, &err) != JL_ERR_PARSE) {
            fprintf(stderr, "case %zu (%s) was not refused\n", i, cases[i].value);
            CHECK(false);
        }
        if (err.line != 14 || err.col != cases[i].col || !strstr(err.message, cases[i].message) ||
            strncmp(err.message, cases[i].key, strlen(cases[i].key)) != 0 || strcmp(err.path, "thing.jasset") != 0) {
            fprintf(stderr, "case %zu (%s): %s:%u:%u: %s\n", i, cases[i].value, err.path, err.line, err.col,
                    err.message);
            CHECK(false);
        }
    }
}

TEST(a_string_field_needs_a_strings_arena_and_room_in_it)
{
    CHECK(setup());
    char text[1024];
    snprintf(text, sizeof text, "%s; display_name\nsome text\n", header);
    test_thing thing;
    jl_entity e = stand_in(&thing);
    jl_archive ar;
    jl_error err = {0};
    CHECK(jl_archive_tokenize(&ar, &scratch, text, strlen(text), "thing.jasset", &err) == JL_OK);
    uint64_t id;
    CHECK(jl_archive_read_entity(&ar, &e, &id) == JL_ERR_INVALID_ARGUMENT);
    CHECK(err.line == 14 && err.col == 1 && strstr(err.message, "strings arena"));
    /* A full arena: out of memory, and nothing pushed. */
    jl_arena full;
    CHECK(jl_arena_init(&full, 4096) == JL_OK);
    CHECK(jl_arena_push(&full, full.reserved - 4, 1) != NULL);
    size_t used = full.used;
    const jl_field *f = &thing_fields[DISPLAY_NAME];
    jl_string s = {0};
    CHECK(jl_field_parse(f, "some text", 9, &s, &full, NULL, &err) == JL_ERR_OUT_OF_MEMORY);
    CHECK(full.used == used && s.data == NULL);
    CHECK(jl_field_parse(f, "abc", 3, &s, &full, NULL, &err) == JL_OK && string_is(s, "abc"));
    CHECK(full.used == used + 4);
    /* The empty string takes no arena. */
    CHECK(jl_field_parse(f, "\"\"", 2, &s, NULL, NULL, &err) == JL_OK && s.size == 0 && s.data && !*s.data);
    jl_arena_release(&full);
}

/* ---- strings ---- */

/* format, then parse: the same bytes; and the text is canonical (parsing
 * and formatting it again gives it back). */
static bool round_trips(const char *bytes, size_t n, const char *expected_text)
{
    char text[JL_VALUE_TEXT_MAX];
    jl_string s = {bytes, (uint32_t)n};
    uint32_t len = jl_field_format(&thing_fields[DISPLAY_NAME], &s, text);
    CHECK_OR_FALSE(len <= JL_ARCHIVE_LINE_MAX);
    if (expected_text) CHECK_OR_FALSE(len == strlen(expected_text) && memcmp(text, expected_text, len) == 0);
    jl_string back = {0};
    jl_error err = {0};
    CHECK_OR_FALSE(jl_field_parse(&thing_fields[DISPLAY_NAME], text, len, &back, &strings, NULL, &err) == JL_OK);
    CHECK_OR_FALSE(back.size == n && memcmp(back.data, bytes, n) == 0);
    char again[JL_VALUE_TEXT_MAX];
    CHECK_OR_FALSE(jl_field_format(&thing_fields[DISPLAY_NAME], &back, again) == len);
    CHECK_OR_FALSE(memcmp(again, text, len) == 0);
    return true;
}

TEST(strings_have_one_canonical_text_that_reads_back_exactly)
{
    CHECK(setup());
    /* The string's bytes and length, and its canonical text (NULL: itself). */
    static const struct {
        const char *bytes;
        size_t size;
        const char *text;
    } cases[] = {
        {"Grunt the Second", 16, NULL},
        {"", 0, "\"\""},
        {" lead", 5, "\" lead\""},
        {"trail ", 6, "\"trail \""},
        {" ", 1, "\" \""},
        {";semi", 5, "\";semi\""},
        {"\"quoted\"", 8, "\"\\\"quoted\\\"\""},
        {"\"", 1, "\"\\\"\""},
        {"in \"the\" middle; ok", 19, NULL},
        {"C:\\games\\", 9, NULL},
        {" C:\\x\\ ", 7, "\" C:\\\\x\\\\ \""},
        {"none", 4, NULL},
        {"#", 1, NULL},
        {"h\xc3\xa9llo \xe2\x9c\x93 \xf0\x9f\x98\x80", 15, NULL},
        {"\xef\xbb\xbf"
         "bom",
         6, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(round_trips(cases[i].bytes, cases[i].size, cases[i].text ? cases[i].text : cases[i].bytes));
    /* A string as long as a line fits; one quoted byte more does not. */
    static char longest[JL_ARCHIVE_LINE_MAX + 1];
    memset(longest, 'x', sizeof longest);
    CHECK(round_trips(longest, JL_ARCHIVE_LINE_MAX, NULL));
    longest[0] = ' ';
    CHECK(round_trips(longest, JL_ARCHIVE_LINE_MAX - 2, NULL));
    jl_string s = {longest, JL_ARCHIVE_LINE_MAX - 1};
    size_t bad;
    CHECK(jli_string_problem(&s, &bad) != NULL);
    s.size = JL_ARCHIVE_LINE_MAX - 2;
    CHECK(jli_string_problem(&s, &bad) == NULL);
}

TEST(a_string_refuses_text_no_file_could_hold)
{
    CHECK(setup());
    const jl_field *f = &thing_fields[DISPLAY_NAME];
    jl_error err = {0};
    CHECK(!check_str(f, "", &err) && err.status == JL_ERR_PARSE && err.col == 1);
    CHECK(!check_str(f, " a", &err) && err.col == 1 && strstr(err.message, "written in quotes"));
    CHECK(!check_str(f, "a ", &err) && err.col == 2 && strstr(err.message, "written in quotes"));
    CHECK(!check_str(f, ";a", &err) && err.col == 1 && strstr(err.message, "';'"));
    CHECK(!check(f, "a\0b", 3, &err) && err.col == 2 && strstr(err.message, "control character"));
    CHECK(!check_str(f, "a\nb", &err) && err.col == 2);
    /* Longer than a line, quoted or not. */
    static char text[JL_ARCHIVE_LINE_MAX + 8];
    memset(text, 'y', sizeof text);
    CHECK(!check(f, text, JL_ARCHIVE_LINE_MAX + 1, &err) && strstr(err.message, "too long"));
    CHECK(check(f, text, JL_ARCHIVE_LINE_MAX, &err) != NULL);
    text[0] = '"';
    text[JL_ARCHIVE_LINE_MAX + 1] = '"';
    /* quoted 4096 bytes needing no quotes: the canonical text fits */
    CHECK(check(f, text, JL_ARCHIVE_LINE_MAX + 2, &err) != NULL);
    text[1] = ' ';
    CHECK(!check(f, text, JL_ARCHIVE_LINE_MAX + 2, &err) && strstr(err.message, "too long"));
}

TEST(values_no_parser_gives_are_written_so_that_they_never_read_back)
{
    CHECK(setup());
    char out[JL_VALUE_TEXT_MAX];
    const jl_field *f = &thing_fields[DISPLAY_NAME];
    jl_error err = {0};
    jl_string back;
    /* A line break set by C code would split the line: written as an escape the reader refuses. */
    jl_string bad = {"a\nb", 3};
    uint32_t n = jl_field_format(f, &bad, out);
    CHECK(n == 8 && memcmp(out, "\"a\\x0ab\"", 8) == 0);
    CHECK(jl_field_parse(f, out, n, &back, &strings, NULL, &err) == JL_ERR_PARSE && strstr(err.message, "escape"));
    /* Too long: cut at the line limit with no closing quote. */
    static char big[JL_ARCHIVE_LINE_MAX * 2];
    memset(big, '"', sizeof big);
    jl_string huge = {big, (uint32_t)sizeof big};
    n = jl_field_format(f, &huge, out);
    CHECK(n <= JL_ARCHIVE_LINE_MAX && n >= JL_ARCHIVE_LINE_MAX - 1 && out[0] == '"');
    CHECK(jl_field_parse(f, out, n, &back, &strings, NULL, &err) == JL_ERR_PARSE);
    memset(big, 'z', sizeof big);
    n = jl_field_format(f, &huge, out);
    CHECK(n == JL_ARCHIVE_LINE_MAX && jl_field_parse(f, out, n, &back, &strings, NULL, &err) == JL_ERR_PARSE);
    /* An enum value past its names: its number, which no file reads. */
    jl_enum_value v = 7;
    n = jl_field_format(&thing_fields[TEAM], &v, out);
    CHECK(n == 1 && out[0] == '7');
    CHECK(jl_field_parse(&thing_fields[TEAM], out, n, &v, NULL, NULL, &err) == JL_ERR_PARSE);
    /* A zeroed jl_string is the empty string. */
    jl_string zero = {0};
    CHECK(jl_field_format(f, &zero, out) == 2 && memcmp(out, "\"\"", 2) == 0);
}

/* ---- checks and defaults ---- */

TEST(the_value_check_gives_canonical_text_or_the_column_of_the_problem)
{
    const jl_field i32 = {.type = JL_FIELD_I32}, u32 = {.type = JL_FIELD_U32}, vec2 = {.type = JL_FIELD_VEC2},
                   quat = {.type = JL_FIELD_QUAT}, string = {.type = JL_FIELD_STRING};
    jl_error err = {0};
    const char *text;
    CHECK((text = check_str(&i32, "-042", &err)) && strcmp(text, "-42") == 0);
    CHECK((text = check_str(&i32, "2147483647", &err)) && strcmp(text, "2147483647") == 0);
    CHECK((text = check_str(&u32, "007", &err)) && strcmp(text, "7") == 0);
    CHECK((text = check_str(&vec2, "1.50  -0", &err)) && strcmp(text, "1.5 -0") == 0);
    CHECK((text = check_str(&quat, "0 0 0 1", &err)) && strcmp(text, "0 0 0 1") == 0);
    CHECK((text = check_str(&quat, "1e3 .5 -2.25 3", &err)) && strcmp(text, "1000 0.5 -2.25 3") == 0);
    CHECK((text = check_str(&string, "\"plain\"", &err)) && strcmp(text, "plain") == 0);
    CHECK((text = check_str(&string, "\" x\"", &err)) && strcmp(text, "\" x\"") == 0);
    CHECK((text = check_str(&thing_fields[TEAM], "green", &err)) && strcmp(text, "green") == 0);
    CHECK(!check_str(&i32, "1 2", &err) && err.status == JL_ERR_PARSE && err.col == 2);
    CHECK(!check_str(&vec2, "1,2", &err) && err.col == 2);
    CHECK(!check_str(&thing_fields[TEAM], "GREEN", &err) && err.col == 1 &&
          strcmp(err.message, "expected one of red, blue, green") == 0);
    /* An enum with no names (a type alone) cannot be checked. */
    const jl_field bare_enum = {.type = JL_FIELD_ENUM};
    CHECK(!check_str(&bare_enum, "red", &err) && err.status == JL_ERR_INVALID_ARGUMENT);
    uint16_t v;
    CHECK(jl_value_parse(JL_FIELD_ENUM, 0, "red", 3, &v, NULL, &err) == JL_ERR_INVALID_ARGUMENT);
    jl_string s;
    CHECK(jl_value_parse(JL_FIELD_STRING, 0, "abc", 3, &s, NULL, &err) == JL_ERR_INVALID_ARGUMENT);
    CHECK(jl_value_parse(JL_FIELD_STRING, 0, "\"\"", 2, &s, NULL, &err) == JL_OK && s.size == 0);
    /* A failed check leaves the output empty. */
    char out[JL_VALUE_TEXT_MAX] = "x";
    uint32_t size = 9;
    CHECK(jl_value_check(&i32, "x", 1, out, &size, &err) == JL_ERR_PARSE && out[0] == '\0' && size == 0);
}

TEST(a_long_enum_list_is_cut_in_the_message)
{
    static const char *const many[] = {"alpha_one",        "bravo_two",         "charlie_three",   "delta_four",
                                       "echo_five",        "foxtrot_six",       "golf_seven",      "hotel_eight",
                                       "india_nine",       "juliet_ten",        "kilo_eleven",     "lima_twelve",
                                       "mike_thirteen",    "november_fourteen", "oscar_fifteen",   "papa_sixteen",
                                       "quebec_seventeen", "romeo_eighteen",    "sierra_nineteen", "tango_twenty"};
    static const jl_enum many_enum = JL_ENUM(many);
    const jl_field f = {.type = JL_FIELD_ENUM, .enumeration = &many_enum};
    jl_error err = {0};
    CHECK(!check_str(&f, "zulu", &err));
    CHECK(strncmp(err.message, "expected one of alpha_one, bravo_two", 36) == 0);
    size_t n = strlen(err.message);
    CHECK(n > 5 && strcmp(err.message + n - 5, ", ...") == 0);
    CHECK(jl_enum_check(&many_enum, &err) == JL_OK);
}

TEST(defaults_are_written_as_canonical_text)
{
    char out[JL_VALUE_TEXT_MAX];
    static const char *const expected[FIELD_COUNT] = {"-1", "0", "Grunt", "blue", "0 0", "0 0 0 1"};
    for (uint32_t i = 0; i < FIELD_COUNT; i++) {
        CHECK(jl_class_default_text(&test_thing_class, i, out) == JL_OK);
        CHECK(strcmp(out, expected[i]) == 0);
    }
    CHECK(jl_class_default_text(&test_thing_class, FIELD_COUNT, out) == JL_ERR_NOT_FOUND);
}

TEST(enum_descriptors_are_checked)
{
    jl_error err = {0};
    CHECK(jl_enum_check(&team_enum, &err) == JL_OK);
    static const char *const twice[] = {"a", "b", "a"};
    static const char *const blank[] = {"a b"};
    static const char *const empty[] = {""};
    static const char *const dash[] = {"x-y"};
    const jl_enum cases[] = {JL_ENUM(twice), JL_ENUM(blank), JL_ENUM(empty), JL_ENUM(dash), {team_names, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(jl_enum_check(&cases[i], &err) == JL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "1 to 1024") != NULL);
    CHECK(jl_enum_check(NULL, &err) == JL_ERR_INVALID_ARGUMENT);
    static char long_name[JL_ENUM_NAME_MAX + 2];
    memset(long_name, 'n', JL_ENUM_NAME_MAX + 1);
    const char *const too_long[] = {long_name};
    const jl_enum long_enum = {too_long, 1};
    CHECK(jl_enum_check(&long_enum, &err) == JL_ERR_INVALID_ARGUMENT);
    long_name[JL_ENUM_NAME_MAX] = '\0';
    CHECK(jl_enum_check(&long_enum, &err) == JL_OK);
}

/* ---- snapshot columns ---- */

enum { ROWS = 5 };

/* An encoder over ROWS rows of scratch (nothing but the columns needs it). */
static bool encoder_for(jli_snap_encoder *enc, jl_arena *arena, jl_error *err)
{
    *enc = (jli_snap_encoder){.arena = arena, .err = err};
    enc->floats = jl_arena_push(arena, ROWS * sizeof(float), 4);
    enc->refs = jl_arena_push(arena, ROWS * sizeof(uint64_t), 8);
    enc->scratch.spans = jl_arena_push(arena, ROWS * sizeof(uint64_t), 8);
    enc->scratch.mants = jl_arena_push(arena, ROWS * sizeof(int64_t), 8);
    enc->scratch.exps = jl_arena_push(arena, ROWS, 1);
    enc->w.arena = arena;
    return enc->floats && enc->refs && enc->scratch.spans && enc->scratch.mants && enc->scratch.exps;
}

static test_thing rows_data[ROWS];

static void fill_rows(void)
{
    static const char *const names[ROWS] = {"", "Grunt", " padded ", "caf\xc3\xa9 \"x\"", "\\"};
    for (int i = 0; i < ROWS; i++) {
        test_thing_class.default_init(&rows_data[i]);
        rows_data[i].ammo = i == 0 ? INT32_MIN : i == 1 ? INT32_MAX : -i;
        rows_data[i].score = i == 0 ? UINT32_MAX : (uint32_t)i * 1000u;
        rows_data[i].display_name = (jl_string){names[i], (uint32_t)strlen(names[i])};
        rows_data[i].team = (jl_enum_value)(i % 3);
        rows_data[i].waypoint = (jl_vec2){0.5f * (float)i, -1.25f};
        rows_data[i].facing = (jl_quat){0, -0.0f, 1e-7f * (float)i, 1};
    }
}

/* Encodes the new fields' columns of rows_data into *bytes (in scratch). */
static jl_status encode_rows(const uint8_t **bytes, size_t *size, jl_error *err)
{
    jli_snap_encoder enc;
    if (!encoder_for(&enc, &scratch, err)) return JL_ERR_OUT_OF_MEMORY;
    const uint8_t *rows[ROWS];
    for (int i = 0; i < ROWS; i++) rows[i] = (const uint8_t *)&rows_data[i];
    jli_snap_rows r = {.rows = rows, .n = ROWS};
    for (uint32_t f = 0; f < FIELD_COUNT; f++) {
        jl_status st = jli_snap_write_field(&enc, &test_thing_class, &thing_fields[f], &r);
        if (st != JL_OK) return st;
    }
    *bytes = enc.w.start;
    *size = enc.w.size;
    return JL_OK;
}

/* Encodes the columns of freshly filled rows_data (scratch is reset). */
static bool encode_fresh_rows(const uint8_t **bytes, size_t *size)
{
    CHECK_OR_FALSE(setup());
    fill_rows();
    jl_error err = {0};
    return encode_rows(bytes, size, &err) == JL_OK;
}

/* Decodes the columns of fields [first, first + count) of ROWS rows into
 * staging (zeroed first), all of size bytes: the status of the reader. */
static jl_status decode_columns(const uint8_t *bytes, size_t size, test_thing *staging, uint32_t first, uint32_t count,
                                jl_error *err)
{
    static uint64_t spans[ROWS];
    jli_snap_decoder d = {0};
    d.r = (jli_snap_reader){.start = bytes, .p = bytes, .end = bytes + size, .err = err};
    d.spans = spans;
    d.scratch = &scratch;
    memset(staging, 0, ROWS * sizeof *staging);
    jli_snap_class_entry entry = {.cls = &test_thing_class, .count = ROWS, .staging = (uint8_t *)staging};
    for (uint32_t f = first; f < first + count; f++)
        if (!jli_snap_read_field(&d, &entry, &thing_fields[f])) return d.r.status;
    return jli_snap_left(&d.r) == 0 ? JL_OK : JL_ERR_CORRUPT;
}

static jl_status decode_rows(const uint8_t *bytes, size_t size, test_thing *staging, jl_error *err)
{
    return decode_columns(bytes, size, staging, 0, FIELD_COUNT, err);
}

TEST(snapshot_columns_carry_every_new_type_exactly)
{
    const uint8_t *bytes;
    size_t size;
    CHECK(encode_fresh_rows(&bytes, &size));
    test_thing back[ROWS];
    jl_error err = {0};
    CHECK(decode_rows(bytes, size, back, &err) == JL_OK);
    for (int i = 0; i < ROWS; i++) {
        CHECK(back[i].ammo == rows_data[i].ammo && back[i].score == rows_data[i].score);
        CHECK(back[i].display_name.size == rows_data[i].display_name.size);
        CHECK(memcmp(back[i].display_name.data, rows_data[i].display_name.data, back[i].display_name.size) == 0);
        CHECK(back[i].team == rows_data[i].team);
        CHECK(memcmp(&back[i].waypoint, &rows_data[i].waypoint, sizeof(jl_vec2)) == 0);
        CHECK(memcmp(&back[i].facing, &rows_data[i].facing, sizeof(jl_quat)) == 0);
    }
    /* The strings' bytes follow their sizes: the last bytes of the stream
     * are not theirs (the vec2 and quat columns come after). */
    CHECK(size > 40);
}

TEST(the_encoder_refuses_values_the_decoder_would_refuse)
{
    CHECK(setup());
    fill_rows();
    jl_error err = {0};
    const uint8_t *bytes;
    size_t size;
    rows_data[2].team = 3;
    CHECK(encode_rows(&bytes, &size, &err) == JL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "Thing.team") && strstr(err.message, "enum"));
    fill_rows();
    rows_data[3].display_name = (jl_string){"tab\there", 8};
    CHECK(encode_rows(&bytes, &size, &err) == JL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "Thing.display_name") && strstr(err.message, "control character"));
    fill_rows();
    rows_data[0].facing.x = NAN;
    CHECK(encode_rows(&bytes, &size, &err) == JL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "Thing.facing is NaN"));
}

/* Offset of the string column (after the i32 and u32 columns) in bytes. */
static size_t skip_int_column(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (p[i] & 0x80) i++; /* varint base */
    i++;
    unsigned width = p[i++];
    return i + (size_t)width * n;
}

TEST(hostile_snapshot_columns_are_refused)
{
    const uint8_t *bytes;
    size_t size;
    CHECK(encode_fresh_rows(&bytes, &size));
    jl_error err = {0};
    uint8_t *copy = malloc(size + 16);
    CHECK(copy != NULL);
    test_thing back[ROWS];
    /* Where the string column starts: after the i32 and u32 columns. */
    size_t strings_at = skip_int_column(bytes, ROWS);
    strings_at += skip_int_column(bytes + strings_at, ROWS);
    /* Sizes column: base 0 then width 1, then one byte per row. */
    CHECK(bytes[strings_at] == 0 && bytes[strings_at + 1] == 1);
    size_t sizes_at = strings_at + 2, text_at = sizes_at + ROWS;
    CHECK(bytes[sizes_at + 1] == 5 && memcmp(bytes + text_at, "Grunt", 5) == 0);

    /* A control byte inside a string. */
    memcpy(copy, bytes, size);
    copy[text_at + 2] = '\n';
    CHECK(decode_rows(copy, size, back, &err) == JL_ERR_CORRUPT);
    CHECK(strstr(err.message, "control character") && strstr(err.message, "display_name"));
    /* Invalid UTF-8. */
    memcpy(copy, bytes, size);
    copy[text_at] = (uint8_t)0xc0;
    CHECK(decode_rows(copy, size, back, &err) == JL_ERR_CORRUPT && strstr(err.message, "UTF-8"));
    /* A size past what is left. */
    memcpy(copy, bytes, size);
    copy[sizes_at + 1] = 0xff;
    CHECK(decode_rows(copy, size, back, &err) == JL_ERR_CORRUPT);
    /* A size past a line: base above JL_ARCHIVE_LINE_MAX. */
    memcpy(copy, bytes, size);
    copy[strings_at] = 0x81;
    copy[strings_at + 1] = 0x40; /* varint 0x2001 = 8193, then the width byte is the old first size */
    CHECK(decode_rows(copy, size, back, &err) == JL_ERR_CORRUPT);
    /* Truncated anywhere: refused, never read past the end. */
    for (size_t cut = 0; cut < size; cut++) {
        uint8_t *part = malloc(cut ? cut : 1);
        CHECK(part != NULL);
        memcpy(part, bytes, cut);
        jl_status st = decode_rows(part, cut, back, &err);
        free(part);
        CHECK(st == JL_ERR_CORRUPT);
    }
    free(copy);
}

TEST(an_enum_index_past_the_names_is_refused)
{
    CHECK(setup());
    /* One column: base 3 (the name count), width 0. */
    const uint8_t bytes[] = {3, 0}, good[] = {2, 0};
    jl_error err = {0};
    test_thing staging[ROWS];
    CHECK(decode_columns(bytes, sizeof bytes, staging, TEAM, 1, &err) == JL_ERR_CORRUPT);
    CHECK(strstr(err.message, "out of range"));
    CHECK(decode_columns(good, sizeof good, staging, TEAM, 1, &err) == JL_OK && staging[4].team == 2);
}

TEST(an_enum_field_schema_crc_depends_on_its_names)
{
    jl_class other = test_thing_class;
    jl_field fields[FIELD_COUNT];
    memcpy(fields, thing_fields, sizeof fields);
    static const char *const reordered[] = {"blue", "red", "green"};
    static const jl_enum reordered_enum = JL_ENUM(reordered);
    other.fields = fields;
    CHECK(jli_snap_schema_crc(&other) == jli_snap_schema_crc(&test_thing_class));
    fields[TEAM].enumeration = &reordered_enum;
    CHECK(jli_snap_schema_crc(&other) != jli_snap_schema_crc(&test_thing_class));
}
