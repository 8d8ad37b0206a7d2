/* test_fix_duplicates.c - `juliet validate --fix-duplicates` on files named
 * after another entity's ID: swapped files and files in a row are renamed to
 * their own IDs' names with no ID changed, while a second file carrying an
 * ID still gets a fresh one; the repair holds the world's lock while it
 * reads, and a failure at any step of a swap keeps both texts on disk.
 *
 * Most tests run the built tool (cli_run.h) on worlds written in temporary
 * directories; the lock and fault tests also call the repair in-process
 * through a probe file system (fs_probe.h), for which CMake builds
 * c/cli/fix_duplicates.c into this suite. Natively only: a wasm test cannot
 * start processes, and the tool's code is not built there. */
#include "persist_util.h"

#include <fcntl.h>
#include <stdarg.h>

#include "juliet/world_lock.h"
#include "test.h"

#include "cli_run.h"

#ifdef JULIET_FIX_IN_PROCESS
#include "cli.h"
#define NEED_IN_PROCESS() NEED_JULIET()
#elif defined(__EMSCRIPTEN__)
#define NEED_IN_PROCESS() return
#else
#error "tests/native/CMakeLists.txt builds c/cli/fix_duplicates.c into this suite natively"
#endif

static char dir[256], before[256];

/* Three entities: A (Inert) and B (a Prop whose parent is A), and C (a
 * Prop whose parent is B); the settings' spawn point is A. Each file name
 * below is an ID's: A's, B's, C's and one no entity has. */
#define A_NAME "4294967297.jasset"
#define B_NAME "4294967298.jasset"
#define C_NAME "4294967301.jasset"
#define FREE_NAME "4294967299.jasset"
static const char a_text[] =
    "; asset_type\nentity_instance\n; id\n0x0000000100000001\n; class\nInert\n"
    "; version\n1\n; class_version\n1\n; position\n0 0 0\n; mesh_instance\n7\n";
static const char b_text[] =
    "; asset_type\nentity_instance\n; id\n0x0000000100000002\n; class\nProp\n"
    "; version\n1\n; class_version\n1\n; position\n5 6 7\n; mesh_instance\n9\n"
    "; parent\n0x0000000100000001\n; note\nfrom branch b\n";
static const char c_text[] =
    "; asset_type\nentity_instance\n; id\n0x0000000100000005\n; class\nProp\n"
    "; version\n1\n; class_version\n1\n; position\n1 1 1\n; mesh_instance\n3\n"
    "; parent\n0x0000000100000002\n";
/* Another entity with A's ID, as a merge may bring one. */
static const char second_a_text[] =
    "; asset_type\nentity_instance\n; id\n0x0000000100000001\n; class\nProp\n"
    "; version\n1\n; class_version\n1\n; position\n2 2 2\n; mesh_instance\n4\n";

static bool write_file(const char *name, const char *text)
{
    char path[512];
    CHECK_OR_FALSE(du_join(path, sizeof path, dir, name));
    return du_write(path, text, strlen(text));
}

/* dir: a fresh world with a_text, b_text and c_text in the files of the
 * names given (NULL: none), the settings, and a copy of it all in before. */
static bool make_world(const char *a_name, const char *b_name, const char *c_name)
{
    CHECK_OR_FALSE(du_make_temp_dir(dir, sizeof dir, "fixdup"));
    char path[512];
    CHECK_OR_FALSE(du_join(path, sizeof path, dir, "Entities"));
    CHECK_OR_FALSE(mkdir(path, 0755) == 0);
    char name[64];
    const char *names[] = {a_name, b_name, c_name}, *texts[] = {a_text, b_text, c_text};
    for (int i = 0; i < 3; i++) {
        if (!names[i]) continue;
        snprintf(name, sizeof name, "Entities/%s", names[i]);
        CHECK_OR_FALSE(write_file(name, texts[i]));
    }
    CHECK_OR_FALSE(write_file("WorldSettings.jasset", "; version\n1\n; spawn_point\n0x0000000100000001\n"));
    CHECK_OR_FALSE(du_make_temp_dir(before, sizeof before, "fixdup_before"));
    return du_copy_tree(dir, before);
}

static void finish(void)
{
    du_remove_tree(dir);
    du_remove_tree(before);
}

/* True if Entities/name holds exactly text. */
static bool holds(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/Entities/%s", dir, name);
    bool same = du_file_is(path, text);
    if (!same) fprintf(stderr, "%s does not hold the text expected\n", path);
    return same;
}

/* How many files in Entities/ hold exactly text, whatever their names. */
static int copies_of(const char *text)
{
    char entities[512];
    du_join(entities, sizeof entities, dir, "Entities");
    size_t n;
    char **names = du_list(entities, &n);
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        du_join(path, sizeof path, entities, names[i]);
        found += du_file_is(path, text);
    }
    du_free_names(names, n);
    return found;
}

static int entity_files(void)
{
    char entities[512];
    du_join(entities, sizeof entities, dir, "Entities");
    return pu_count(entities);
}

/* The world is as make_world left it. */
static bool unchanged(void) { return pu_same_tree(before, dir); }

/* Runs the repair in-process on dir through fs, with what it prints on
 * stdout and stderr in output (cli_run.h); false if it failed to run. */
static bool fix_in_process(const jl_fs *fs)
{
#ifdef JULIET_FIX_IN_PROCESS
    char path[300];
    snprintf(path, sizeof path, "%s.out", dir);
    fflush(stdout);
    fflush(stderr);
    int saved_out = dup(1), saved_err = dup(2);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK_OR_FALSE(saved_out >= 0 && saved_err >= 0 && fd >= 0);
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
    jl_arena moves = {0};
    jl_cli_moved_id *moved;
    uint32_t count;
    jl_status s = jl_arena_init(&moves, (size_t)1 << 20);
    if (s == JL_OK) s = jl_cli_fix_duplicates_fs(fs, dir, &moves, &moved, &count);
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
    jl_arena_release(&moves);
    size_t size = 0;
    char *text = du_read(path, &size);
    unlink(path);
    CHECK_OR_FALSE(text != NULL);
    snprintf(output, sizeof output, "%s", text);
    free(text);
    return s == JL_OK;
#else
    (void)fs;
    return false;
#endif
}

/* ---- what is renamed and what is repaired ---- */

/* Runs the tool's repair on dir: it succeeds by renames alone (renamed
 * files, no ID repaired), leaving A's, B's and C's texts each in its own
 * ID's file and no other file (no fresh ID, no temporary left). */
static bool repaired_by_renames(int renamed)
{
    CHECK_OR_FALSE(run("validate --fix-duplicates %s", dir) == 0);
    CHECK_OR_FALSE(holds(A_NAME, a_text) && holds(B_NAME, b_text) && holds(C_NAME, c_text));
    CHECK_OR_FALSE(entity_files() == 3);
    CHECK_OR_FALSE(find_output("%s: %d misnamed %s renamed", dir, renamed, renamed == 1 ? "file" : "files"));
    CHECK_OR_FALSE(find_output("%s: 0 duplicate IDs repaired", dir));
    return true;
}

TEST(swapped_files_are_renamed_to_their_own_names_and_no_id_changes)
{
    NEED_JULIET();
    CHECK(make_world(B_NAME, A_NAME, C_NAME)); /* A's text in B's file, B's in A's */
    CHECK(run("validate %s", dir) == 1);
    CHECK(find_output("file name does not match its id"));

    CHECK(repaired_by_renames(2));
    CHECK(find_output("renamed %s/Entities/" A_NAME " to %s/Entities/" B_NAME ", the name of its ID 0x0000000100000002",
                      dir, dir));
    CHECK(find_output("renamed %s/Entities/" B_NAME " to %s/Entities/" A_NAME ", the name of its ID 0x0000000100000001",
                      dir, dir));
    CHECK(find_output("%s: 0 duplicate IDs repaired, 0 references to check", dir));
    CHECK(strstr(output, "moved ") == NULL);
    /* B's parent, C's parent and the spawn point all still find their entity. */
    CHECK(find_output("%s: 3 entities, 0 problems", dir));
    finish();
}

TEST(a_file_named_after_another_id_moves_to_its_own_free_name)
{
    NEED_JULIET();
    CHECK(make_world(FREE_NAME, B_NAME, C_NAME));
    CHECK(repaired_by_renames(1));
    CHECK(find_output("renamed %s/Entities/" FREE_NAME " to %s/Entities/" A_NAME, dir, dir));
    CHECK(find_output("%s: 3 entities, 0 problems", dir));
    finish();
}

/* The test of a world whose three texts are all misnamed (A's in a_name,
 * and so on): the tool renames each into place. */
static void all_three_renamed(const char *a_name, const char *b_name, const char *c_name)
{
    NEED_JULIET();
    CHECK(make_world(a_name, b_name, c_name));
    CHECK(repaired_by_renames(3));
    finish();
}

TEST(misnamed_files_in_a_row_each_move_to_their_own_name)
{
    /* A in a free ID's file, B in A's, C in B's: C moves to its free name,
     * then B, then A. */
    all_three_renamed(FREE_NAME, A_NAME, B_NAME);
}

TEST(three_files_in_a_cycle_are_each_renamed_to_their_own_name)
{
    all_three_renamed(C_NAME, A_NAME, B_NAME); /* A in C's file, B in A's, C in B's */
}

TEST(a_second_entity_with_an_id_in_another_ids_file_still_gets_a_fresh_id)
{
    NEED_JULIET();
    CHECK(make_world(A_NAME, B_NAME, C_NAME));
    CHECK(write_file("Entities/" FREE_NAME, second_a_text));
    CHECK(run("validate --fix-duplicates %s", dir) == 0);
    CHECK(holds(A_NAME, a_text));
    CHECK(entity_files() == 4);           /* the second one under a fresh ID's name */
    CHECK(copies_of(second_a_text) == 0); /* its id value changed */
    CHECK(find_output("moved %s/Entities/" FREE_NAME " to %s/Entities/", dir, dir));
    CHECK(find_output("it carried 0x0000000100000001, which %s/Entities/" A_NAME " keeps", dir));
    CHECK(find_output("%s: 1 duplicate ID repaired, 2 references to check", dir));
    CHECK(find_output("%s: 0 misnamed files renamed", dir));
    finish();
}

TEST(a_byte_identical_copy_in_another_ids_file_is_left_alone)
{
    NEED_JULIET();
    CHECK(make_world(A_NAME, B_NAME, C_NAME));
    CHECK(write_file("Entities/" FREE_NAME, a_text));
    char copy[512];
    CHECK(du_join(copy, sizeof copy, before, "Entities/" FREE_NAME) && du_write(copy, a_text, strlen(a_text)));
    CHECK(run("validate --fix-duplicates %s", dir) == 1);
    CHECK(find_output("%s/Entities/" FREE_NAME ": duplicate ID not repaired: a byte-identical copy of ", dir));
    CHECK(find_output("%s: 0 misnamed files renamed", dir));
    CHECK(unchanged());
    finish();
}

/* ---- the world's lock ---- */

TEST(a_repair_while_another_process_holds_the_lock_changes_nothing)
{
    NEED_JULIET();
    CHECK(make_world(B_NAME, A_NAME, C_NAME));
    jl_arena scratch = {0};
    CHECK(jl_arena_init(&scratch, (size_t)1 << 20) == JL_OK);
    jl_world_lock lock = {0};
    jl_error err = {0};
    CHECK(jl_world_lock_acquire(&lock, jl_fs_native(), dir, 0, &scratch, &err) == JL_OK);
    int status = run("validate --fix-duplicates %s", dir);
    jl_world_lock_release(&lock, jl_fs_native());
    jl_arena_release(&scratch);
    CHECK(status == 1); /* still misnamed */
    CHECK(find_output("misnamed file not renamed: ") && find_output("locked"));
    CHECK(find_output("%s: 0 misnamed files renamed", dir));
    CHECK(unchanged());
    /* Once the lock is free, the same run repairs. */
    CHECK(run("validate --fix-duplicates %s", dir) == 0);
    CHECK(find_output("%s: 2 misnamed files renamed", dir));
    finish();
}

static char lock_path[512];
static uint32_t reads, unlocked_reads;

/* The probe's read, counting the reads of world files made while the
 * world's lock file is absent. */
static int read_counting_unlocked(const jl_fs *fs, const char *path, size_t max, jl_arena *arena, char **data,
                                  size_t *size, jl_fs_stamp *stamp)
{
    if (!probe_is_lock(path)) {
        reads++;
        unlocked_reads += !du_exists(lock_path);
    }
    return probe_read_file(fs, path, max, arena, data, size, stamp);
}

TEST(every_file_the_repair_reads_is_read_under_the_lock)
{
    NEED_IN_PROCESS();
    CHECK(make_world(B_NAME, A_NAME, C_NAME));
    CHECK(du_join(lock_path, sizeof lock_path, dir, JL_WORLD_LOCK_NAME));
    probe_fs p;
    probe_init(&p);
    p.table.read_file = read_counting_unlocked;
    reads = unlocked_reads = 0;
    CHECK(fix_in_process(&p.table));
    CHECK(find_output("%s: 2 misnamed files renamed", dir));
    CHECK(reads >= 4); /* the settings, each entity, and the files the repair decides on */
    CHECK(unlocked_reads == 0);
    CHECK(!du_exists(lock_path)); /* released at the end */
    finish();
}

/* ---- failures during a swap ---- */

/* After the repair of the swapped world ran with a fault: each entity's
 * text is on disk exactly once, and the world is either as it was or
 * repaired, never half of it. */
static bool both_texts_kept(void)
{
    CHECK_OR_FALSE(copies_of(a_text) == 1 && copies_of(b_text) == 1 && copies_of(c_text) == 1);
    CHECK_OR_FALSE(entity_files() == 3);
    bool repaired = holds(A_NAME, a_text) && holds(B_NAME, b_text);
    CHECK_OR_FALSE(repaired || unchanged());
    return true;
}

TEST(a_failure_at_any_step_of_a_swap_keeps_both_texts_on_disk)
{
    NEED_IN_PROCESS();
    /* A run without faults: the number of its operations, three of them renames. */
    CHECK(make_world(B_NAME, A_NAME, C_NAME));
    probe_fs p;
    probe_init(&p);
    CHECK(fix_in_process(&p.table));
    CHECK(holds(A_NAME, a_text) && holds(B_NAME, b_text));
    CHECK(p.ops[JL_FS_OP_RENAME] == 3);
    const uint32_t total = p.total;
    finish();

    uint32_t renames_failed = 0;
    for (uint32_t n = 1; n <= total; n++) {
        CHECK(make_world(B_NAME, A_NAME, C_NAME));
        probe_reset(&p);
        p.fail_at = n;
        p.fail_code = EIO;
        bool ran = fix_in_process(&p.table);
        if (!ran || !both_texts_kept()) fprintf(stderr, "operation %u failed; output:\n%s\n", n, output);
        CHECK(ran && both_texts_kept());
        /* The other file of the pair then tries the same swap again. */
        if (p.failed && strstr(output, "rename failed")) {
            renames_failed++;
            CHECK(find_output("misnamed file not renamed: "));
        }
        finish();
    }
    CHECK(renames_failed == 3);
}

/* The swapped world repaired in-process through a probe whose renames go
 * through rename, which fails them with EACCES where it sets fail_op. */
static bool fix_swapped_world_renaming_with(int (*rename)(const jl_fs *fs, const char *from, const char *to))
{
    CHECK_OR_FALSE(make_world(B_NAME, A_NAME, C_NAME));
    probe_fs p;
    probe_init(&p);
    p.fail_code = EACCES;
    p.table.rename = rename;
    return fix_in_process(&p.table);
}

/* Renames from B's file fail; the others go through. */
static int rename_failing_from_b_file(const jl_fs *fs, const char *from, const char *to)
{
    char b_file[512];
    du_join(b_file, sizeof b_file, dir, "Entities/" B_NAME);
    probe_fs *p = probe_of(fs);
    p->fail_op = strcmp(from, b_file) == 0 ? JL_FS_OP_RENAME : -1;
    return probe_rename(fs, from, to);
}

TEST(a_swap_whose_second_step_fails_is_undone)
{
    NEED_IN_PROCESS();
    CHECK(fix_swapped_world_renaming_with(rename_failing_from_b_file));
    /* A's file went aside, B's could not take its place: A's came back. */
    CHECK(find_output("%s/Entities/" A_NAME ": misnamed file not renamed: %s/Entities/" B_NAME ": rename failed", dir,
                      dir));
    CHECK(find_output("%s: 0 misnamed files renamed", dir));
    CHECK(strstr(output, "could not be moved back") == NULL);
    CHECK(unchanged()); /* no temporary left either */
    finish();
}

/* Renames fail from the second on, the undo of the first included. */
static int rename_failing_after_the_first(const jl_fs *fs, const char *from, const char *to)
{
    probe_fs *p = probe_of(fs);
    if (p->ops[JL_FS_OP_RENAME] >= 1) p->fail_op = JL_FS_OP_RENAME;
    return probe_rename(fs, from, to);
}

TEST(a_swap_that_cannot_be_undone_says_where_the_moved_text_is)
{
    NEED_IN_PROCESS();
    CHECK(fix_swapped_world_renaming_with(rename_failing_after_the_first));
    /* B's text went aside first; A's could not take its place, nor B's come back. */
    CHECK(find_output("%s/Entities/" A_NAME ": misnamed file not renamed: ", dir));
    CHECK(find_output("%s/Entities/" A_NAME ": moved to %s/Entities/" A_NAME ".", dir, dir));
    CHECK(find_output(".swap.jasset, and could not be moved back: rename it by hand"));
    CHECK(find_output("%s: 0 misnamed files renamed", dir));
    CHECK(copies_of(a_text) == 1 && copies_of(b_text) == 1);
    CHECK(holds(B_NAME, a_text)); /* where it was */
    /* The one aside is no temporary the loader deletes: validate names it. */
    CHECK(run("validate %s", dir) == 1);
    CHECK(find_output(".swap.jasset:4:1: file name does not match its id 0x0000000100000002 (expected " B_NAME ")"));
    finish();
}
