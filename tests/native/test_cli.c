/* test_cli.c - the `juliet` tool as a user runs it: exit codes, the
 * path:line:col lines of validate, stats, fmt and gen. Each test runs the
 * built binary (build/native/juliet, found next to this test's directory)
 * on copies of assets/ in temporary directories. Natively only: a wasm
 * test cannot start processes. */
#include "persist_util.h"

#include "test.h"

static char juliet[1024];
static char output[1 << 16];
static char dir[256], dir2[256];

/* Runs `juliet ARGS` with stdout and stderr in `output`; returns the exit
 * status (-1 if it did not exit normally). */
static int run(const char *args) { return du_run_cli(juliet, args, output, sizeof output); }

static bool copy_of(const char *source)
{
    CHECK_OR_FALSE(du_make_temp_dir(dir, sizeof dir, "test"));
    CHECK_OR_FALSE(du_copy_tree(source, dir));
    return true;
}

/* Starts a test that runs the tool. A wasm build cannot start processes:
 * there the tests end at once (the native run covers the tool). */
#ifdef __EMSCRIPTEN__
#define NEED_JULIET() \
    if (!du_find_cli(juliet, sizeof juliet)) return
#else
#define NEED_JULIET() CHECK(du_find_cli(juliet, sizeof juliet))
#endif

static void finish(void)
{
    du_remove_tree(dir);
    if (dir2[0]) du_remove_tree(dir2);
    dir2[0] = '\0';
}

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++) n += *text == '\n';
    return n;
}

TEST(validate_accepts_the_sample_world)
{
    NEED_JULIET();
    CHECK(copy_of(ASSETS "/sample_world"));
    char args[512];
    snprintf(args, sizeof args, "validate %s", dir);
    CHECK(run(args) == 0);
    CHECK(strstr(output, "36 entities, 0 problems") != NULL);
    finish();
}

TEST(validate_reports_a_duplicate_id_with_both_paths)
{
    NEED_JULIET();
    CHECK(copy_of(ASSETS "/malformed/worlds/duplicate_id"));
    char args[512];
    snprintf(args, sizeof args, "validate %s", dir);
    CHECK(run(args) == 1);
    char expected[1024];
    snprintf(expected, sizeof expected,
             "%s/Entities/4294967298.jasset:4:1: duplicate entity ID 0x0000000100000001: already loaded from "
             "%s/Entities/4294967297.jasset\n",
             dir, dir);
    CHECK(strstr(output, expected) != NULL);
    finish();
}

TEST(validate_reports_a_reference_to_a_missing_entity)
{
    NEED_JULIET();
    CHECK(copy_of(ASSETS "/malformed/worlds/dangling_reference"));
    char args[512];
    snprintf(args, sizeof args, "validate %s", dir);
    CHECK(run(args) == 1);
    char expected[512];
    snprintf(expected, sizeof expected, "%s/Entities/4294967299.jasset:22:1: reference to missing entity", dir);
    CHECK(strstr(output, expected) != NULL);
    finish();
}

TEST(validate_reports_every_bad_file_and_changes_nothing)
{
    NEED_JULIET();
    CHECK(copy_of(ASSETS "/sample_world"));
    char a[512], b[512], tmp[512];
    du_join(a, sizeof a, dir, "Entities/1.jasset");
    du_join(b, sizeof b, dir, "Entities/2.jasset");
    du_join(tmp, sizeof tmp, dir, "Entities/3.jasset.tmp");
    static const char text_a[] = "; id\n0x1\n; class\nLamp\n";
    static const char text_b[] = "; id\n0x2\n; class\nInert\n; mesh_instance\n-4\n";
    CHECK(du_write(a, text_a, sizeof text_a - 1));
    CHECK(du_write(b, text_b, sizeof text_b - 1));
    CHECK(du_write(tmp, "partial", 7));
    char args[512];
    snprintf(args, sizeof args, "validate %s", dir);
    CHECK(run(args) == 1);
    char line_a[600], line_b[600];
    snprintf(line_a, sizeof line_a, "%s:4:1: unknown class 'Lamp'", a);
    snprintf(line_b, sizeof line_b, "%s:6:1: mesh_instance: expected a whole number", b);
    CHECK(strstr(output, line_a) && strstr(output, line_b));
    CHECK(strstr(output, "36 entities, 2 problems"));
    CHECK(du_exists(tmp)); /* validate is read-only */
    finish();
}

TEST(validate_without_arguments_fails_with_one_line)
{
    NEED_JULIET();
    CHECK(run("validate") == 2);
    CHECK(count_lines(output) == 1);
    CHECK(strncmp(output, "juliet validate: ", 17) == 0);
    CHECK(run("frobnicate") == 2);
    CHECK(count_lines(output) == 1);
}

TEST(every_command_has_help)
{
    NEED_JULIET();
    static const char *const commands[] = {"validate", "stats", "fmt", "gen"};
    for (int i = 0; i < 4; i++) {
        char args[64];
        snprintf(args, sizeof args, "%s --help", commands[i]);
        CHECK(run(args) == 0);
        CHECK(strncmp(output, "usage: juliet ", 14) == 0);
    }
    CHECK(run("--help") == 0);
    CHECK(strstr(output, "validate") && strstr(output, "stats") && strstr(output, "fmt") && strstr(output, "gen"));
}

TEST(stats_counts_entities_per_class_as_json)
{
    NEED_JULIET();
    CHECK(copy_of(ASSETS "/sample_world"));
    char args[512];
    snprintf(args, sizeof args, "stats %s --json", dir);
    CHECK(run(args) == 0);
    CHECK(strstr(output, "\"Inert\": {\"entities\": 16, ") != NULL);
    CHECK(strstr(output, "\"Light\": {\"entities\": 8, ") != NULL);
    CHECK(strstr(output, "\"Prop\": {\"entities\": 12, ") != NULL);
    CHECK(strstr(output, "\"entities\": 36, ") != NULL);
    CHECK(strstr(output, "\"failed_files\": 0}") != NULL);
    snprintf(args, sizeof args, "stats %s", dir);
    CHECK(run(args) == 0);
    CHECK(strstr(output, "total") != NULL);
    CHECK(run("stats --frob") == 2);
    finish();
}

/* True if text holds a C0 control other than LF, DEL, or ESC's 8-bit
 * twin 0x9b: what must never reach a terminal from a file name. */
static bool has_raw_controls(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if ((*p < 0x20 && *p != '\n') || *p == 0x7f || *p == 0x9b || *p == 0xff) return true;
    return false;
}

TEST(stats_json_escapes_control_and_non_utf8_bytes_in_the_directory_name)
{
    NEED_JULIET();
    CHECK(du_make_temp_dir(dir, sizeof dir, "test"));
    /* No ' in the name: it is quoted for the shell with '...'. */
    char world[512];
    CHECK(du_join(world, sizeof world, dir, "w\x01\x1b\"q\\b\xff caf\xc3\xa9"));
    CHECK(du_copy_tree(ASSETS "/sample_world", world));
    char args[1024];
    snprintf(args, sizeof args, "stats '%s' --json", world);
    CHECK(run(args) == 0);
    char expected[1024];
    snprintf(expected, sizeof expected, "{\"dir\": \"%s/w\\u0001\\u001b\\\"q\\\\b\\u00ff caf\xc3\xa9\", ", dir);
    if (!strstr(output, expected)) fprintf(stderr, "output: %s\nexpected: %s\n", output, expected);
    CHECK(strstr(output, expected) == output);
    CHECK(!has_raw_controls(output));
    finish();
}

TEST(diagnostics_escape_control_characters_in_file_names)
{
    NEED_JULIET();
    CHECK(copy_of(ASSETS "/sample_world"));
    char bad[512];
    du_join(bad, sizeof bad, dir, "Entities/\x1b]0;owned\x07\x1b[2J.jasset");
    static const char text[] = "; id\n0x7\n; class\nInert\n; mesh_instance\nseven\n";
    CHECK(du_write(bad, text, sizeof text - 1));
    char args[512];
    snprintf(args, sizeof args, "stats %s", dir);
    CHECK(run(args) == 1);
    char expected[512];
    snprintf(expected, sizeof expected, "%s/Entities/\\x1b]0;owned\\x07\\x1b[2J.jasset:6:1: ", dir);
    if (!strstr(output, expected)) fprintf(stderr, "output: %s\nexpected: %s\n", output, expected);
    CHECK(strstr(output, expected) != NULL);
    CHECK(!has_raw_controls(output));
    finish();
}

TEST(fmt_check_lists_files_not_in_canonical_form)
{
    NEED_JULIET();
    CHECK(copy_of(ASSETS "/sample_world"));
    char args[512];
    snprintf(args, sizeof args, "fmt %s --check", dir);
    CHECK(run(args) == 0);
    /* Make one file non-canonical: CRLF line ends, keys out of order. */
    char path[512];
    du_join(path, sizeof path, dir, "Entities/8620766500065640449.jasset");
    size_t n = 0;
    char *text = du_read(path, &n);
    CHECK(text != NULL);
    char *crlf = malloc(2 * n + 1);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '\n') crlf[m++] = '\r';
        crlf[m++] = text[i];
    }
    CHECK(du_write(path, crlf, m));
    CHECK(run(args) == 1);
    CHECK(strstr(output, path) != NULL);
    CHECK(strstr(output, "1 file would be reformatted"));
    /* fmt rewrites exactly that file, back to the original bytes. */
    snprintf(args, sizeof args, "fmt %s", dir);
    CHECK(run(args) == 0);
    CHECK(strstr(output, "1 file reformatted"));
    size_t back_n = 0;
    char *back = du_read(path, &back_n);
    CHECK(back && back_n == n && memcmp(back, text, n) == 0);
    free(text);
    free(crlf);
    free(back);
    CHECK(pu_same_tree(ASSETS "/sample_world", dir));
    finish();
}

TEST(fmt_never_rewrites_a_file_that_fails_to_load)
{
    NEED_JULIET();
    CHECK(copy_of(ASSETS "/sample_world"));
    char bad[512];
    du_join(bad, sizeof bad, dir, "Entities/7.jasset");
    static const char text[] = "; id\n0x7\n; class\nInert\n; mesh_instance\nseven\n";
    CHECK(du_write(bad, text, sizeof text - 1));
    char args[512];
    snprintf(args, sizeof args, "fmt %s", dir);
    CHECK(run(args) == 1);
    size_t n = 0;
    char *after = du_read(bad, &n);
    CHECK(after && n == sizeof text - 1 && memcmp(after, text, n) == 0);
    free(after);
    finish();
}

TEST(gen_is_deterministic)
{
    NEED_JULIET();
    CHECK(du_make_temp_dir(dir, sizeof dir, "test"));
    CHECK(du_make_temp_dir(dir2, sizeof dir2, "test"));
    char args[512];
    snprintf(args, sizeof args, "gen %s/w --count 200 --seed 9", dir);
    CHECK(run(args) == 0);
    snprintf(args, sizeof args, "gen %s/w --count 200 --seed 9", dir2);
    CHECK(run(args) == 0);
    char a[512], b[512];
    du_join(a, sizeof a, dir, "w");
    du_join(b, sizeof b, dir2, "w");
    CHECK(pu_same_tree(a, b));
    du_join(a, sizeof a, dir, "w/Entities");
    CHECK(pu_count(a) == 200);
    snprintf(args, sizeof args, "validate %s/w", dir);
    CHECK(run(args) == 0);
    finish();
}

TEST(gen_refuses_an_existing_world_and_bad_counts)
{
    NEED_JULIET();
    CHECK(copy_of(ASSETS "/sample_world"));
    char args[512];
    snprintf(args, sizeof args, "gen %s --count 5", dir);
    CHECK(run(args) == 2);
    CHECK(strstr(output, "already holds a world") && count_lines(output) == 1);
    snprintf(args, sizeof args, "gen %s/new --count zero", dir);
    CHECK(run(args) == 2);
    CHECK(count_lines(output) == 1);
    snprintf(args, sizeof args, "gen %s/new", dir);
    CHECK(run(args) == 2);
    CHECK(strstr(output, "--count N is required"));
    finish();
}

