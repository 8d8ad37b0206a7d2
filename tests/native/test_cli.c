/* test_cli.c - the `juliet` tool as a user runs it: exit codes, the
 * path:line:col lines of validate, stats, fmt and gen. Each test runs the
 * built binary (build/native/juliet, found next to this test's directory)
 * on copies of assets/ in temporary directories. Natively only: a wasm
 * test cannot start processes. */
#include "persist_util.h"

#include <stdarg.h>

#include "juliet/snapshot.h"
#include "juliet/world_lock.h"
#include "test.h"

#include "cli_run.h"

static char dir[256], dir2[256];

/* dir: a fresh temporary directory, holding a copy of source unless NULL. */
static bool copy_of(const char *source)
{
    CHECK_OR_FALSE(du_make_temp_dir(dir, sizeof dir, "test"));
    if (source) CHECK_OR_FALSE(du_copy_tree(source, dir));
    return true;
}

/* Starts a test that runs the tool in dir (copy_of); where the tool cannot
 * run, NEED_JULIET ends the test there. */
#define START(source) \
    NEED_JULIET(); \
    CHECK(copy_of(source))

static void finish(void)
{
    du_remove_tree(dir);
    if (dir2[0]) du_remove_tree(dir2);
    dir2[0] = '\0';
}

/* An entity file that fails to load (its mesh_instance is not a number,
 * line 6), written as `name` under the copied world. */
static const char bad_entity[] = "; id\n0x7\n; class\nInert\n; mesh_instance\nseven\n";

static char bad_path[512]; /* where write_bad_entity wrote it */

static bool write_bad_entity(const char *name)
{
    CHECK_OR_FALSE(du_join(bad_path, sizeof bad_path, dir, name));
    CHECK_OR_FALSE(du_write(bad_path, bad_entity, sizeof bad_entity - 1));
    return true;
}

/* Starts a test on a copy of the sample world holding bad_entity as name
 * (its path in bad_path). */
#define START_WITH_BAD_ENTITY(name) \
    START(ASSETS "/sample_world"); \
    CHECK(write_bad_entity(name))

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++) n += *text == '\n';
    return n;
}

TEST(validate_accepts_the_sample_world)
{
    START(ASSETS "/sample_world");
    CHECK(run("validate %s", dir) == 0);
    CHECK(find_output("36 entities, 0 problems"));
    finish();
}

TEST(validate_reports_a_duplicate_id_with_both_paths)
{
    START(ASSETS "/malformed/worlds/duplicate_id");
    CHECK(run("validate %s", dir) == 1);
    CHECK(
        find_output("%s/Entities/4294967298.jasset:4:1: duplicate entity ID 0x0000000100000001: already loaded from "
                    "%s/Entities/4294967297.jasset\n",
                    dir, dir));
    finish();
}

TEST(validate_reports_a_reference_to_a_missing_entity)
{
    START(ASSETS "/malformed/worlds/dangling_reference");
    CHECK(run("validate %s", dir) == 1);
    CHECK(find_output("%s/Entities/4294967299.jasset:22:1: reference to missing entity", dir));
    finish();
}

TEST(validate_reports_every_bad_file_and_changes_nothing)
{
    START(ASSETS "/sample_world");
    char a[512], b[512], tmp[512];
    du_join(a, sizeof a, dir, "Entities/1.jasset");
    du_join(b, sizeof b, dir, "Entities/2.jasset");
    du_join(tmp, sizeof tmp, dir, "Entities/3.jasset.tmp");
    static const char text_a[] = "; id\n0x1\n; class\nLamp\n";
    static const char text_b[] = "; id\n0x2\n; class\nInert\n; mesh_instance\n-4\n";
    CHECK(du_write(a, text_a, sizeof text_a - 1));
    CHECK(du_write(b, text_b, sizeof text_b - 1));
    CHECK(du_write(tmp, "partial", 7));
    CHECK(run("validate %s", dir) == 1);
    /* A class this build lacks is kept as text: a warning, not a problem. */
    CHECK(find_output("%s:4:1: warning: unknown class 'Lamp' (kept as text)", a));
    CHECK(find_output("%s:6:1: mesh_instance: must be 0 or more", b));
    CHECK(find_output("37 entities, 1 problem, 1 warning"));
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
    static const char *const commands[] = {"validate", "stats", "fmt",     "gen",   "diff",
                                           "merge",    "share", "unshare", "schema"};
    for (int i = 0; i < 9; i++) {
        CHECK(run("%s --help", commands[i]) == 0);
        CHECK(strncmp(output, "usage: juliet ", 14) == 0);
    }
    CHECK(run("--help") == 0);
    CHECK(strstr(output, "validate") && strstr(output, "stats") && strstr(output, "fmt") && strstr(output, "gen"));
}

TEST(stats_counts_entities_per_class_as_json)
{
    START(ASSETS "/sample_world");
    CHECK(run("stats %s --json", dir) == 0);
    CHECK(find_output("\"Inert\": {\"entities\": 16, "));
    CHECK(find_output("\"Light\": {\"entities\": 8, "));
    CHECK(find_output("\"Prop\": {\"entities\": 12, "));
    CHECK(find_output("\"entities\": 36, "));
    CHECK(find_output("\"failed_files\": 0}"));
    CHECK(run("stats %s", dir) == 0);
    CHECK(find_output("total"));
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
    START(NULL);
    /* No ' in the name: it is quoted for the shell with '...'. */
    char world[512];
    CHECK(du_join(world, sizeof world, dir, "w\x01\x1b\"q\\b\xff caf\xc3\xa9"));
    CHECK(du_copy_tree(ASSETS "/sample_world", world));
    CHECK(run("stats '%s' --json", world) == 0);
    CHECK(find_output("{\"dir\": \"%s/w\\u0001\\u001b\\\"q\\\\b\\u00ff caf\xc3\xa9\", ", dir) == output);
    CHECK(!has_raw_controls(output));
    finish();
}

TEST(diagnostics_escape_control_characters_in_file_names)
{
    START_WITH_BAD_ENTITY("Entities/\x1b]0;owned\x07\x1b[2J.jasset");
    CHECK(run("stats %s", dir) == 1);
    CHECK(find_output("%s/Entities/\\x1b]0;owned\\x07\\x1b[2J.jasset:6:1: ", dir));
    CHECK(!has_raw_controls(output));
    finish();
}

TEST(fmt_check_lists_files_not_in_canonical_form)
{
    START(ASSETS "/sample_world");
    CHECK(run("fmt %s --check", dir) == 0);
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
    CHECK(run("fmt %s --check", dir) == 1);
    CHECK(find_output("%s", path));
    CHECK(find_output("1 file would be reformatted"));
    /* fmt rewrites exactly that file, back to the original bytes. */
    CHECK(run("fmt %s", dir) == 0);
    CHECK(find_output("1 file reformatted"));
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
    START_WITH_BAD_ENTITY("Entities/7.jasset");
    CHECK(run("fmt %s", dir) == 1);
    CHECK(du_file_is(bad_path, bad_entity));
    finish();
}

TEST(gen_is_deterministic)
{
    START(NULL);
    CHECK(du_make_temp_dir(dir2, sizeof dir2, "test"));
    CHECK(run("gen %s/w --count 200 --seed 9", dir) == 0);
    CHECK(run("gen %s/w --count 200 --seed 9", dir2) == 0);
    char a[512], b[512];
    du_join(a, sizeof a, dir, "w");
    du_join(b, sizeof b, dir2, "w");
    CHECK(pu_same_tree(a, b));
    du_join(a, sizeof a, dir, "w/Entities");
    CHECK(pu_count(a) == 200);
    CHECK(run("validate %s/w", dir) == 0);
    finish();
}

TEST(gen_refuses_an_existing_world_and_bad_counts)
{
    START(ASSETS "/sample_world");
    CHECK(run("gen %s --count 5", dir) == 2);
    CHECK(strstr(output, "already holds a world") && count_lines(output) == 1);
    CHECK(run("gen %s/new --count zero", dir) == 2);
    CHECK(count_lines(output) == 1);
    CHECK(run("gen %s/new", dir) == 2);
    CHECK(find_output("--count N is required"));
    finish();
}

/* ---- validate --fix-duplicates ---- */

static const char kept_text[] =
    "; asset_type\nentity_instance\n; id\n0x0000000100000001\n; class\nInert\n"
    "; version\n1\n; class_version\n1\n; position\n0 0 0\n; mesh_instance\n7\n";
/* The other entity with that ID, as a person kept it from a merge: another
 * class, and an unknown key that must survive byte for byte. */
static const char later_text[] =
    "; asset_type\nentity_instance\n; id\n0x0000000100000001\n; class\nProp\n"
    "; version\n1\n; class_version\n1\n; position\n5 6 7\n; mesh_instance\n9\n"
    "; density\n2.5\n; is_static\nfalse\n; velocity\n0 0 0\n; parent\n"
    "0x0000000000000000\n; note\nfrom branch b\n";

static bool write_entity(const char *name, const char *text)
{
    char path[512];
    CHECK_OR_FALSE(du_join(path, sizeof path, dir, name));
    return du_write(path, text, strlen(text));
}

/* dir/Entities, made (empty) in a fresh dir. */
static bool make_entities_dir(void)
{
    char entities[512];
    CHECK_OR_FALSE(du_join(entities, sizeof entities, dir, "Entities"));
    CHECK_OR_FALSE(mkdir(entities, 0755) == 0);
    return true;
}

/* The number of files in dir/Entities. */
static int entity_files(void)
{
    char entities[512];
    du_join(entities, sizeof entities, dir, "Entities");
    return pu_count(entities);
}

/* A world of one entity, a second file carrying its ID, and references to
 * the ID from another entity (line 16) and from the settings (line 4). */
static bool make_duplicate_world(const char *later_name)
{
    CHECK_OR_FALSE(copy_of(NULL) && make_entities_dir());
    static const char ref_text[] =
        "; asset_type\nentity_instance\n; id\n0x0000000100000005\n; class\nProp\n"
        "; version\n1\n; class_version\n1\n; position\n1 1 1\n; mesh_instance\n3\n"
        "; parent\n0x0000000100000001\n";
    CHECK_OR_FALSE(write_entity("Entities/4294967297.jasset", kept_text));
    CHECK_OR_FALSE(write_entity(later_name, later_text));
    CHECK_OR_FALSE(write_entity("Entities/4294967301.jasset", ref_text));
    CHECK_OR_FALSE(write_entity("WorldSettings.jasset", "; version\n1\n; spawn_point\n0x0000000100000001\n"));
    return true;
}

/* The name in Entities/ that none of the given ones is, or NULL. */
static char *new_name(const char *const *known, int known_count)
{
    char entities[512];
    du_join(entities, sizeof entities, dir, "Entities");
    size_t n;
    char **names = du_list(entities, &n);
    char *found = NULL;
    for (size_t i = 0; i < n && !found; i++) {
        bool old = false;
        for (int k = 0; k < known_count; k++) old = old || strcmp(names[i], known[k]) == 0;
        if (!old) found = strdup(names[i]);
    }
    du_free_names(names, n);
    return found;
}

TEST(fix_duplicates_moves_the_later_file_to_a_fresh_id_and_lists_references)
{
    NEED_JULIET();
    CHECK(make_duplicate_world("Entities/4294967297_theirs.jasset"));
    CHECK(run("validate %s", dir) == 1); /* the duplicate, as the loader reports it */
    CHECK(run("validate --fix-duplicates %s", dir) == 0);

    /* The later file is gone; one new file holds its entity under a fresh ID. */
    char later[512], expected[1024];
    du_join(later, sizeof later, dir, "Entities/4294967297_theirs.jasset");
    CHECK(!du_exists(later));
    static const char *const known[] = {"4294967297.jasset", "4294967301.jasset"};
    char *name = new_name(known, 2);
    CHECK(name != NULL);
    uint64_t new_id = strtoull(name, NULL, 10);
    CHECK(new_id != 0 && new_id != 0x0000000100000001ull);
    char path[512];
    snprintf(path, sizeof path, "%s/Entities/%s", dir, name);
    snprintf(expected, sizeof expected, "%s/Entities/%llu.jasset", dir, (unsigned long long)new_id);
    CHECK(strcmp(path, expected) == 0); /* the file name is the new ID's */
    size_t size = 0;
    char *moved = du_read(path, &size);
    CHECK(moved != NULL);
    /* Byte for byte the later file, but the id value. */
    char want[sizeof later_text + 32];
    const char *id_at = strstr(later_text, "0x0000000100000001");
    int head = (int)(id_at - later_text);
    snprintf(want, sizeof want, "%.*s0x%016llx%s", head, later_text, (unsigned long long)new_id, id_at + 18);
    CHECK(size == strlen(want) && memcmp(moved, want, size) == 0);
    free(moved);
    /* The one in the ID's own file keeps it, unchanged. */
    du_join(path, sizeof path, dir, "Entities/4294967297.jasset");
    char *kept = du_read(path, &size);
    CHECK(kept && strcmp(kept, kept_text) == 0);
    free(kept);

    /* What was done, and every reference to the old ID with its position. */
    CHECK(find_output("moved %s to %s/Entities/%s: it carried 0x0000000100000001", later, dir, name));
    CHECK(
        find_output("%s/Entities/4294967301.jasset:16:1: refers to 0x0000000100000001 "
                    "(%s/Entities/4294967297.jasset): check whether the entity now 0x%016llx (%s/Entities/%s) "
                    "was meant\n",
                    dir, dir, (unsigned long long)new_id, dir, name));
    CHECK(find_output("%s/WorldSettings.jasset:4:1: refers to 0x0000000100000001", dir));
    CHECK(find_output("1 duplicate ID repaired, 2 references to check"));
    CHECK(find_output("3 entities, 0 problems"));
    free(name);

    /* Clean now; a second run has nothing to do. */
    CHECK(run("validate %s", dir) == 0);
    CHECK(run("validate --fix-duplicates %s", dir) == 0);
    CHECK(find_output("0 duplicate IDs repaired"));
    finish();
}

TEST(fix_duplicates_moves_the_second_file_when_no_file_has_the_ids_name)
{
    NEED_JULIET();
    CHECK(make_duplicate_world("Entities/b.jasset"));
    char a[512], b[512];
    du_join(a, sizeof a, dir, "Entities/4294967297.jasset");
    du_join(b, sizeof b, dir, "Entities/a.jasset");
    CHECK(rename(a, b) == 0);                             /* now a.jasset and b.jasset carry the ID */
    CHECK(run("validate --fix-duplicates %s", dir) == 1); /* a.jasset keeps the ID under a name that is not its own */
    CHECK(find_output("moved %s/Entities/b.jasset to ", dir));
    CHECK(find_output("which %s keeps", b));
    CHECK(find_output("%s:4:1: file name does not match its id 0x0000000100000001", b));
    CHECK(du_exists(b));
    finish();
}

TEST(fix_duplicates_leaves_a_byte_identical_copy_alone)
{
    START(ASSETS "/malformed/worlds/duplicate_id");
    char copy[512];
    CHECK(run("validate --fix-duplicates %s", dir) == 1);
    du_join(copy, sizeof copy, dir, "Entities/4294967298.jasset");
    CHECK(find_output("%s: duplicate ID not repaired: a byte-identical copy of ", copy));
    CHECK(find_output("0 duplicate IDs repaired"));
    CHECK(pu_same_tree(ASSETS "/malformed/worlds/duplicate_id", dir)); /* nothing changed */
    finish();
}

TEST(fix_duplicates_does_not_split_a_conflict_outside_git)
{
    START(NULL);
    CHECK(make_entities_dir());
    static const char conflicted[] =
        "; asset_type\nentity_instance\n; id\n0x0000000100000001\n; class\nInert\n"
        "; version\n1\n; class_version\n1\n; position\n<<<<<<< HEAD\n0 0 0\n"
        "=======\n1 1 1\n>>>>>>> b\n";
    CHECK(write_entity("Entities/4294967297.jasset", conflicted));
    char path[512];
    CHECK(run("validate --fix-duplicates %s", dir) == 1);
    du_join(path, sizeof path, dir, "Entities/4294967297.jasset");
    CHECK(find_output("%s: has merge conflict markers, and git does not list it", path));
    CHECK(du_file_is(path, conflicted));
    CHECK(entity_files() == 1);
    finish();
}

TEST(fix_duplicates_writes_nothing_while_another_writer_holds_the_world)
{
    NEED_JULIET();
    CHECK(make_duplicate_world("Entities/4294967297_theirs.jasset"));
    char lock[512], pid[32];
    du_join(lock, sizeof lock, dir, JL_WORLD_LOCK_NAME);
    snprintf(pid, sizeof pid, "%u\n", (unsigned)getpid()); /* alive: a save in progress */
    CHECK(du_write(lock, pid, strlen(pid)));
    CHECK(run("validate --fix-duplicates %s", dir) == 1);
    CHECK(find_output("duplicate ID not repaired: ") && find_output("world is locked by pid %u", (unsigned)getpid()));
    CHECK(find_output("0 duplicate IDs repaired"));
    CHECK(entity_files() == 3); /* nothing moved */
    CHECK(unlink(lock) == 0);
    CHECK(run("validate --fix-duplicates %s", dir) == 0);
    CHECK(!du_exists(lock)); /* released */
    finish();
}

/* ---- diff ---- */

/* The sample's Light 0x77a31d7500000002 with another intensity, its
 * position written with a trailing zero (formatting: no change). */
static const char brighter_light[] =
    "; asset_type\nentity_instance\n; id\n0x77a31d7500000002\n; class\nLight\n"
    "; version\n1\n; class_version\n2\n; position\n304.550 16.74 -269.94\n"
    "; color\n#a3e36d\n; intensity\n42\n; radius\n28.5\n; cast_shadows\ntrue\n";

/* dir2: the sample with the Light brighter and the Inert 0x77a31d7500000001 removed. */
static bool edited_copy_of_the_sample(void)
{
    CHECK_OR_FALSE(du_make_temp_dir(dir2, sizeof dir2, "test"));
    CHECK_OR_FALSE(du_copy_tree(ASSETS "/sample_world", dir2));
    char path[512];
    CHECK_OR_FALSE(du_join(path, sizeof path, dir2, "Entities/8620766500065640450.jasset"));
    CHECK_OR_FALSE(du_write(path, brighter_light, sizeof brighter_light - 1));
    CHECK_OR_FALSE(du_join(path, sizeof path, dir2, "Entities/8620766500065640449.jasset"));
    CHECK_OR_FALSE(remove(path) == 0);
    return true;
}

TEST(diff_of_equal_worlds_exits_0)
{
    START(ASSETS "/sample_world");
    CHECK(run("diff %s %s", ASSETS "/sample_world", dir) == 0);
    CHECK(find_output("the worlds are equal"));
    finish();
}

TEST(diff_lists_each_changed_entity_and_key_and_exits_1)
{
    START(ASSETS "/sample_world");
    CHECK(edited_copy_of_the_sample());
    CHECK(run("diff %s %s", dir, dir2) == 1);
    CHECK(
        find_output("removed 0x77a31d7500000001 Inert Entities/8620766500065640449.jasset\n"
                    "modified 0x77a31d7500000002 Light Entities/8620766500065640450.jasset\n"
                    "  intensity 18.1 → 42\n"));
    CHECK(!strstr(output, "position"));
    CHECK(find_output("2 changes"));
    CHECK(run("diff --json %s %s", dir, dir2) == 1);
    CHECK(
        find_output("{\"change\": \"modified\", \"id\": \"0x77a31d7500000002\", \"class\": \"Light\", "
                    "\"path\": \"Entities/8620766500065640450.jasset\", \"keys\": [{\"key\": \"intensity\", "
                    "\"old\": \"18.1\", \"new\": \"42\"}]}"));
    CHECK(find_output("\"equal\": false}"));
    /* The other way round: the Inert is added, with its keys. */
    CHECK(run("diff %s %s", dir2, dir) == 1);
    CHECK(find_output("added 0x77a31d7500000001 Inert Entities/8620766500065640449.jasset\n  version 1\n"));
    finish();
}

TEST(diff_refuses_a_world_with_a_file_that_failed_to_load)
{
    START_WITH_BAD_ENTITY("Entities/7.jasset");
    CHECK(run("diff %s %s", ASSETS "/sample_world", dir) == 2);
    CHECK(find_output("7.jasset:6:"));
    CHECK(find_output("1 file failed to load: cannot compare"));
    CHECK(run("diff %s", dir) == 2);
    finish();
}

/* ---- merge ---- */

/* The sample's Light 0x77a31d7500000002 as the engine writes it, with
 * intensity and radius given. */
#define LIGHT(intensity, radius) \
    "; asset_type\nentity_instance\n; id\n0x77a31d7500000002\n; class\nLight\n" \
    "; version\n1\n; class_version\n2\n; position\n304.55 16.74 -269.94\n" \
    "; color\n#a3e36d\n; intensity\n" intensity "\n; radius\n" radius "\n; cast_shadows\ntrue\n"

/* Writes the three versions of a merge as base, ours and theirs in dir. */
static bool write_versions(const char *base, const char *ours, const char *theirs)
{
    const char *const names[3] = {"base", "ours", "theirs"}, *const texts[3] = {base, ours, theirs};
    char path[512];
    for (int i = 0; i < 3; i++)
        CHECK_OR_FALSE(du_join(path, sizeof path, dir, names[i]) && du_write(path, texts[i], strlen(texts[i])));
    return true;
}

/* True if the file name in dir holds exactly text. */
static bool holds(const char *name, const char *text)
{
    char path[512];
    size_t size = 0;
    CHECK_OR_FALSE(du_join(path, sizeof path, dir, name));
    char *data = du_read(path, &size);
    bool same = data && size == strlen(text) && memcmp(data, text, size) == 0;
    if (!same) fprintf(stderr, "%s holds:\n%.*s\nexpected:\n%s\n", path, data ? (int)size : 0, data ? data : "", text);
    free(data);
    return same;
}

TEST(merge_takes_each_sides_changes_and_exits_0)
{
    START(NULL);
    CHECK(write_versions(LIGHT("18.1", "28.5"), LIGHT("42", "28.5"), LIGHT("18.1", "3")));
    CHECK(run("merge %s/base %s/ours %s/theirs", dir, dir, dir) == 0);
    CHECK(strcmp(output, LIGHT("42", "3")) == 0);
    CHECK(run("merge %s/base %s/ours %s/theirs -o %s/out", dir, dir, dir, dir) == 0);
    CHECK(output[0] == '\0' && holds("out", LIGHT("42", "3")));
    finish();
}

TEST(merge_prints_each_conflict_keeps_ours_and_exits_1)
{
    START(NULL);
    CHECK(write_versions(LIGHT("18.1", "28.5"), LIGHT("42", "1"), LIGHT("7", "2")));
    CHECK(run("merge %s/base %s/ours %s/theirs -o %s/ours --path Entities/8620766500065640450.jasset", dir, dir, dir,
              dir) == 1);
    CHECK(
        find_output("Entities/8620766500065640450.jasset: conflict in intensity: ours 42, theirs 7 (kept ours)\n"
                    "Entities/8620766500065640450.jasset: conflict in radius: ours 1, theirs 2 (kept ours)\n"));
    CHECK(holds("ours", LIGHT("42", "1")));
    /* Without --path, the conflicts name OURS. */
    CHECK(run("merge %s/base %s/ours %s/theirs", dir, dir, dir) == 1);
    CHECK(find_output("%s/ours: conflict in intensity: ours 42, theirs 7 (kept ours)\n", dir));
    finish();
}

TEST(merge_of_a_file_that_does_not_tokenize_exits_2_naming_it_and_writes_nothing)
{
    START(NULL);
    CHECK(write_versions(LIGHT("18.1", "28.5"), LIGHT("42", "28.5"), "; id\n0x1\n; id\n0x2\n"));
    CHECK(run("merge %s/base %s/ours %s/theirs -o %s/out", dir, dir, dir, dir) == 2);
    CHECK(find_output("juliet merge: %s/theirs:3:3: duplicate key 'id'", dir));
    CHECK(pu_count(dir) == 3); /* nothing written, no temporary left */
    CHECK(run("merge %s/base %s/ours -o %s/out", dir, dir, dir) == 2);
    CHECK(find_output("juliet merge: expected three files"));
    finish();
}

#define GIT "git -c user.name=t -c user.email=t@t -c commit.gpgsign=false -c core.autocrlf=false "

/* Runs a shell command line in dir (its output in `output`); its exit status. */
static int in_dir(const char *command)
{
    char line[4096];
    snprintf(line, sizeof line, "cd '%s' && %s", dir, command);
    return du_run(line, output, sizeof output);
}

/* In dir, a repository whose .jasset files git merges with `juliet merge`,
 * holding Entities/1.jasset as base on main; then branch `other` changes it
 * to theirs and main to ours, each committed. */
static bool repo_with_two_edits(const char *base, const char *ours, const char *theirs)
{
    char command[2048], path[512];
    CHECK_OR_FALSE(in_dir(GIT "-c init.defaultBranch=main init -q . && mkdir Entities") == 0);
    snprintf(command, sizeof command, "git config merge.juliet.driver \"'%s' merge %%O %%A %%B -o %%A --path %%P\"",
             juliet);
    CHECK_OR_FALSE(in_dir(command) == 0);
    CHECK_OR_FALSE(du_join(path, sizeof path, dir, ".gitattributes") && du_write(path, "*.jasset merge=juliet\n", 22));
    CHECK_OR_FALSE(du_join(path, sizeof path, dir, "Entities/1.jasset"));
    CHECK_OR_FALSE(du_write(path, base, strlen(base)) && in_dir(GIT "add -A && " GIT "commit -q -m base") == 0);
    CHECK_OR_FALSE(in_dir("git checkout -q -b other") == 0 && du_write(path, theirs, strlen(theirs)));
    CHECK_OR_FALSE(in_dir(GIT "commit -q -am theirs && git checkout -q main") == 0);
    CHECK_OR_FALSE(du_write(path, ours, strlen(ours)) && in_dir(GIT "commit -q -am ours") == 0);
    return true;
}

TEST(merge_as_git_merge_driver_merges_two_branches_edits_of_one_entity)
{
    START(NULL);
    if (in_dir("git --version") != 0) {
        printf("skipped: no git\n");
        finish();
        return;
    }
    CHECK(repo_with_two_edits(LIGHT("18.1", "28.5"), LIGHT("42", "28.5"), LIGHT("18.1", "3")));
    CHECK(in_dir(GIT "merge -q --no-edit other") == 0);
    CHECK(holds("Entities/1.jasset", LIGHT("42", "3")));
    finish();

    /* Both change the intensity: git stops on the file, which holds ours'
     * intensity and theirs' radius, without conflict markers. */
    START(NULL);
    CHECK(repo_with_two_edits(LIGHT("18.1", "28.5"), LIGHT("42", "28.5"), LIGHT("7", "3")));
    CHECK(in_dir(GIT "merge --no-edit other") == 1);
    CHECK(find_output("Entities/1.jasset: conflict in intensity: ours 42, theirs 7 (kept ours)\n"));
    CHECK(find_output("CONFLICT"));
    CHECK(holds("Entities/1.jasset", LIGHT("42", "3")));
    CHECK(in_dir("git diff --name-only --diff-filter=U") == 0 && strcmp(output, "Entities/1.jasset\n") == 0);
    finish();
}

/* ---- entities of classes this build does not describe ---- */

TEST(validate_warns_about_an_unknown_class_and_strict_makes_it_fail)
{
    START(ASSETS "/opaque_world");
    CHECK(run("validate %s", dir) == 0);
    CHECK(find_output("%s/Entities/8589934593.jasset:6:1: warning: unknown class 'Grunt' (kept as text)\n", dir));
    CHECK(find_output("%s/Entities/8589934595.jasset:6:1: warning: unknown class 'Door' (kept as text)\n", dir));
    CHECK(find_output("5 entities, 0 problems, 3 warnings"));
    CHECK(run("validate --strict %s", dir) == 1);
    CHECK(find_output("5 entities, 0 problems, 3 warnings"));
    CHECK(run("validate --strict %s", ASSETS "/sample_world") == 0);
    CHECK(run("validate --help") == 0 && find_output("--strict"));
    finish();
}

TEST(fmt_leaves_files_of_unknown_classes_byte_identical)
{
    START(ASSETS "/opaque_world");
    CHECK(run("fmt --check %s", dir) == 0);
    CHECK(find_output("0 files would be reformatted"));
    CHECK(run("fmt %s", dir) == 0);
    CHECK(pu_same_tree(dir, ASSETS "/opaque_world"));
    finish();
}

TEST(stats_counts_unknown_classes_and_marks_them)
{
    START(ASSETS "/opaque_world");
    CHECK(run("stats %s --json", dir) == 0);
    CHECK(find_output("\"Grunt\": {\"entities\": 2, \"bytes\": 307, \"opaque\": true}"));
    CHECK(find_output("\"Door\": {\"entities\": 1, \"bytes\": 113, \"opaque\": true}"));
    CHECK(find_output("\"Inert\": {\"entities\": 1, \"bytes\": 191}")); /* described: not marked */
    CHECK(find_output("\"entities\": 5, "));
    CHECK(run("stats %s", dir) == 0);
    CHECK(find_output("Grunt                   2          307  (opaque)\n"));
    finish();
}

enum { LINK_SIZE = 1 << 14 }; /* a share link's buffer */

/* Runs `juliet share dir` and puts the link it prints into link. */
static bool share_link(char link[LINK_SIZE])
{
    CHECK_OR_FALSE(run("share %s", dir) == 0);
    const char *at = find_output("http://"); /* stdout and stderr share the output */
    CHECK_OR_FALSE(at && sscanf(at, "%16383s", link) == 1 && strchr(link, '#'));
    return true;
}

TEST(unshare_into_an_empty_folder_keeps_the_folders_permissions_and_owner)
{
    START(ASSETS "/sample_world");
    char link[LINK_SIZE];
    CHECK(share_link(link));
    CHECK(du_make_temp_dir(dir2, sizeof dir2, "private"));
    CHECK(chmod(dir2, 0700) == 0);
    /* Another owner can be kept only by root, who can give it. */
    const bool root = geteuid() == 0;
    if (root) CHECK(chown(dir2, 4242, 4343) == 0);
    CHECK(run("unshare '%s' %s", link, dir2) == 0);
    struct stat st;
    CHECK(stat(dir2, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0700);
    if (root) CHECK(st.st_uid == 4242 && st.st_gid == 4343);
    CHECK(pu_same_tree(dir2, ASSETS "/sample_world"));
    finish();
}

TEST(share_and_unshare_keep_the_text_of_unknown_classes)
{
    START(ASSETS "/opaque_world");
    char link[LINK_SIZE];
    CHECK(share_link(link));
    CHECK(du_make_temp_dir(dir2, sizeof dir2, "unshared"));
    du_remove_tree(dir2);
    CHECK(run("unshare '%s' %s", link, dir2) == 0);
    CHECK(pu_same_tree(dir2, ASSETS "/opaque_world"));
    finish();
}

/* Writes the sample's settings into dir with share_base set to base. */
static bool set_share_base(const char *base)
{
    char path[512], text[1024];
    CHECK_OR_FALSE(du_join(path, sizeof path, dir, "WorldSettings.jasset"));
    snprintf(text, sizeof text,
             "; version\n1\n; gravity\n0 -9.81 0\n; ambient_color\n#404040\n; ambient_intensity\n0.25\n"
             "; time_of_day\n12\n; spawn_point\n0x77a31d7500000001\n; share_base\n%s\n",
             base);
    CHECK_OR_FALSE(du_write(path, text, strlen(text)));
    return true;
}

TEST(share_makes_links_that_open_at_the_worlds_share_base)
{
    START(ASSETS "/sample_world");
    CHECK(set_share_base("https://team.example/tools/juliet/"));
    CHECK(run("share %s", dir) == 0);
    CHECK(find_output("https://team.example/tools/juliet/#"));
    CHECK(!find_output("only on this machine"));
    /* --base, for one run, wins over the setting. */
    CHECK(run("share %s --base http://build-server:8080/juliet/", dir) == 0);
    CHECK(find_output("http://build-server:8080/juliet/#"));
    CHECK(!find_output("https://team.example/"));
    finish();
}

TEST(share_without_a_base_says_the_link_opens_only_on_this_machine)
{
    START(ASSETS "/sample_world");
    CHECK(run("share %s", dir) == 0);
    CHECK(find_output("http://localhost:5173/#"));
    CHECK(
        find_output("juliet share: the link opens only on this machine; for one others can open, set "
                    "share_base in WorldSettings.jasset or give --base URL"));
    finish();
}

/* A world whose link is longer than a browser opens: 320 entities, each
 * with an unknown key of 4,000 characters that do not deflate well. */
static bool write_world_too_long_for_a_link(void)
{
    CHECK_OR_FALSE(make_entities_dir());
    static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    uint32_t state = 1;
    for (uint32_t i = 1; i <= 320; i++) {
        char note[4001], name[64], text[4200];
        for (size_t k = 0; k < sizeof note - 1; k++) {
            state = state * 1664525u + 1013904223u;
            note[k] = letters[state >> 26];
        }
        note[sizeof note - 1] = '\0';
        const unsigned long long id = (1ull << 32) + i;
        snprintf(name, sizeof name, "Entities/%llu.jasset", id);
        snprintf(text, sizeof text,
                 "; asset_type\nentity_instance\n; id\n0x%016llx\n; class\nInert\n; version\n1\n; class_version\n1\n"
                 "; position\n0 0 0\n; mesh_instance\n1\n; note\n%s\n",
                 id, note);
        CHECK_OR_FALSE(write_entity(name, text));
    }
    return true;
}

TEST(share_says_when_a_link_is_longer_than_a_browser_opens)
{
    NEED_JULIET();
    CHECK(copy_of(NULL));
    CHECK(write_world_too_long_for_a_link());
    /* The link and the words go to a file: the link would not fit the output. */
    char out[512];
    CHECK(du_make_temp_dir(dir2, sizeof dir2, "link"));
    CHECK(du_join(out, sizeof out, dir2, "out.txt"));
    CHECK(run("share %s > %s", dir, out) == 0);
    size_t size = 0;
    char *text = du_read(out, &size);
    const char *link = text ? strstr(text, "http://localhost:5173/#") : NULL;
    CHECK(link);
    const size_t length = link ? strcspn(link, "\n") : 0;
    CHECK(length > JL_SNAPSHOT_LINK_MAX);
    char expected[512];
    snprintf(expected, sizeof expected,
             "juliet share: this link has %zu characters, more than a browser opens from its address (1000000): "
             "save it to a file and open that with the inspector's Open snapshot file, or write the world back "
             "with `juliet unshare - DIR < FILE`\n",
             length);
    CHECK(text && strstr(text, expected));
    free(text);
    /* The sample's link says nothing of it. */
    finish();
    START(ASSETS "/sample_world");
    CHECK(run("share %s", dir) == 0);
    CHECK(!find_output("more than a browser opens"));
    finish();
}

TEST(share_refuses_a_base_that_is_not_an_http_address)
{
    START(ASSETS "/sample_world");
    CHECK(run("share %s --base 'javascript:alert(1)//'", dir) == 2);
    CHECK(find_output("juliet share: --base javascript:alert(1)//: not an http:// or https:// address"));
    CHECK(run("share %s --base 'https://user:secret@team.example/'", dir) == 2);
    CHECK(find_output("it carries a user name or password"));
    CHECK(run("share %s --base https://", dir) == 2);
    CHECK(find_output("it names no host"));
    CHECK(set_share_base("javascript:alert(1)//"));
    CHECK(run("share %s", dir) == 2);
    CHECK(
        find_output("juliet share: share_base 'javascript:alert(1)//' in %s/WorldSettings.jasset: not an "
                    "http:// or https:// address (fix it, or give --base URL)",
                    dir));
    CHECK(!find_output("#")); /* no link printed */
    /* A good --base is the way around a bad setting. */
    CHECK(run("share %s --base https://team.example/", dir) == 0);
    CHECK(find_output("https://team.example/#"));
    finish();
}

/* Runs `juliet share --changes old new` and puts the link into link. */
static bool change_link(const char *old, const char *now, char link[LINK_SIZE])
{
    CHECK_OR_FALSE(run("share --changes %s %s --base https://team.example/", old, now) == 0);
    const char *at = find_output("https://team.example/#");
    CHECK_OR_FALSE(at && sscanf(at, "%16383s", link) == 1);
    return true;
}

TEST(share_changes_and_unshare_changes_turn_a_copy_of_the_old_world_into_the_new)
{
    START(ASSETS "/sample_world");
    CHECK(edited_copy_of_the_sample());
    char link[LINK_SIZE];
    CHECK(change_link(ASSETS "/sample_world", dir2, link));
    CHECK(find_output("2 entities changed"));
    CHECK(strlen(link) < 200);
    CHECK(run("unshare --changes '%s' %s", link, dir) == 0);
    CHECK(find_output("changed Entities/8620766500065640450.jasset\n"));
    CHECK(find_output("deleted Entities/8620766500065640449.jasset\n"));
    CHECK(find_output("2 changes applied, 1 file written, 1 deleted"));
    CHECK(run("diff %s %s", dir, dir2) == 0);
    finish();
}

TEST(unshare_changes_over_a_file_changed_since_the_link_applies_nothing_and_exits_1)
{
    START(ASSETS "/sample_world");
    CHECK(edited_copy_of_the_sample());
    char link[LINK_SIZE], path[512];
    CHECK(change_link(ASSETS "/sample_world", dir2, link));
    /* Someone else changed the light in the target meanwhile. */
    CHECK(du_join(path, sizeof path, dir, "Entities/8620766500065640450.jasset"));
    CHECK(du_write(path, brighter_light, sizeof brighter_light - 1));
    CHECK(run("unshare --changes '%s' %s", link, dir) == 1);
    CHECK(
        find_output("%s/Entities/8620766500065640450.jasset: conflict: the file changed (or is gone) since the "
                    "link was made",
                    dir));
    CHECK(find_output("1 conflict, 0 failures: nothing applied to %s", dir));
    CHECK(du_join(path, sizeof path, dir, "Entities/8620766500065640449.jasset"));
    CHECK(access(path, F_OK) == 0); /* the deletion was not applied either */
    finish();
}

TEST(unshare_changes_refuses_a_world_link_and_a_damaged_one)
{
    START(ASSETS "/sample_world");
    char link[LINK_SIZE];
    CHECK(share_link(link));
    CHECK(run("unshare --changes '%s' %s", link, dir) == 2);
    CHECK(find_output("not a valid change link: change link byte 0: not a Juliet change link (bad magic)"));
    CHECK(run("unshare --changes 'https://team.example/#AAAA' %s", dir) == 2);
    CHECK(find_output("juliet unshare: not a change link: "));
    CHECK(run("share --changes %s", dir) == 2);
    CHECK(find_output("--changes needs two world directories"));
    finish();
}
