/* test_git_merge.c - team work on one world through real git (world.h,
 * "IDs"): two branches from the same committed world each add 1,000
 * entities and edit different existing entities through the library,
 * commit, and merge without a conflict; the merged world has no two files
 * with one ID and loads with every edit of both sides. Then a copied file
 * forces a duplicate ID, and `juliet validate` reports it with both paths.
 * Then two branches whose sessions drew one tag: git stops on add/add
 * conflicts, and `juliet validate --fix-duplicates` splits each of them.
 *
 * Each session mints IDs with its own random tag, as two people's editors
 * would (but the two that are made to collide). Natively only: a wasm test cannot start processes. */
#include "disk_util.h"

#ifndef __EMSCRIPTEN__
#include <sys/wait.h>
#endif

#include "juliet/archive.h"
#include "juliet/world.h"
#include "sample_world_gen.h"
#include "test.h"
#include "world/world_internal.h" /* jli_world_init: worlds embedded in the tests */

enum { BASE = 300, ADDED = 1000, EDITED = 100 };

#ifndef __EMSCRIPTEN__
static char repo[512], world_dir[600];

/* Runs a shell command in the repository, quietly; true if it exits 0. */
static bool sh(const char *format, const char *arg)
{
    char command[2048], inner[1024];
    snprintf(inner, sizeof inner, format, arg ? arg : "");
    snprintf(command, sizeof command, "cd '%s' && %s >/dev/null 2>&1", repo, inner);
    int status = system(command);
    return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Same, with stdout and stderr into out; returns the exit status. */
static int sh_output(const char *command, char *out, size_t size)
{
    char full[4096];
    snprintf(full, sizeof full, "cd '%s' && %s", repo, command);
    return du_run(full, out, size);
}

#define GIT "git -c user.name=t -c user.email=t@t -c commit.gpgsign=false -c core.autocrlf=false "

/* The IDs of the base world, in file-name order (the same on both branches). */
static uint64_t base_ids[BASE];

/* In the repository at repo: a generated world of count entities (seed)
 * committed on main as world/, its IDs in base_ids, its Entities/ path in
 * entities. */
static bool commit_base_world(uint32_t count, uint64_t seed, char *entities, size_t size)
{
    du_join(world_dir, sizeof world_dir, repo, "world");
    bool ok = sh(GIT "-c init.defaultBranch=main init -q .", NULL);
    jl_world w;
    jl_world_desc gd = {.capacity = count + 64, .id_tag = sample_world_gen_tag(seed)};
    ok = ok && jli_world_init(&w, &gd) == JL_OK && sample_world_generate(&w, count, seed) == JL_OK &&
         jl_world_save(&w, world_dir, NULL) == JL_OK;
    jli_world_shutdown(&w);
    ok = ok && sh(GIT "add -A && " GIT "commit -q -m base", NULL);
    du_join(entities, size, world_dir, "Entities");
    size_t n;
    char **names = du_list(entities, &n);
    ok = ok && n == count;
    for (size_t i = 0; ok && i < n; i++) base_ids[i] = strtoull(names[i], NULL, 10);
    du_free_names(names, n);
    return ok;
}

typedef struct branch_work {
    const char *name;
    uint64_t created[ADDED];
    uint32_t first_edit; /* edits base entities [first_edit, first_edit + EDITED) */
} branch_work;

static branch_work side_a = {.name = "a", .first_edit = 0};
static branch_work side_b = {.name = "b", .first_edit = EDITED};

static void edit_text(const branch_work *b, uint32_t i, char *out, size_t size)
{
    snprintf(out, size, "%s%u.25 %u -%u.5", b->name[0] == 'a' ? "" : "-", i, i % 7, i % 5);
}

/* On a fresh branch from main: load the world, create ADDED entities, move
 * EDITED existing ones, save, commit everything. */
static bool work_on_branch(branch_work *b)
{
    CHECK_OR_FALSE(sh(GIT "checkout -q -b %s main", b->name));
    jl_world w;
    jl_world_desc d = {.capacity = BASE + 2 * ADDED + 64}; /* a random ID tag, as any session */
    CHECK_OR_FALSE(jli_world_init(&w, &d) == JL_OK);
    CHECK_OR_FALSE(jl_world_load(&w, world_dir) == JL_OK);
    static const char *const classes[] = {"Inert", "Light", "Prop"};
    for (uint32_t i = 0; i < ADDED; i++) {
        jl_entity *e;
        CHECK_OR_FALSE(jl_world_create(&w, classes[i % 3], (float)i, 1.0f, (float)-i, &e) == JL_OK);
        b->created[i] = e->id;
    }
    char text[64];
    for (uint32_t i = b->first_edit; i < b->first_edit + EDITED; i++) {
        edit_text(b, i, text, sizeof text);
        CHECK_OR_FALSE(jl_world_set_field(&w, base_ids[i], "position", text, strlen(text), NULL) == JL_OK);
    }
    jl_save_report report;
    CHECK_OR_FALSE(jl_world_save(&w, world_dir, &report) == JL_OK);
    CHECK_OR_FALSE(report.written_count == ADDED + EDITED);
    jli_world_shutdown(&w);
    CHECK_OR_FALSE(sh(GIT "add -A && " GIT "commit -q -m 'work on %s'", b->name));
    return true;
}

/* Every edit and every creation of one side is in the merged world. */
static bool has_work_of(const jl_world *w, const branch_work *b)
{
    char want[64], got[JL_VALUE_TEXT_MAX];
    for (uint32_t i = 0; i < ADDED; i++) CHECK_OR_FALSE(jl_world_find(w, b->created[i]) != NULL);
    for (uint32_t i = b->first_edit; i < b->first_edit + EDITED; i++) {
        edit_text(b, i, want, sizeof want);
        CHECK_OR_FALSE(jl_world_get_field(w, base_ids[i], "position", got, NULL) == JL_OK);
        if (strcmp(got, want) != 0) {
            fprintf(stderr, "entity %u of branch %s: position %s, expected %s\n", i, b->name, got, want);
            return false;
        }
    }
    return true;
}

#endif

TEST(two_branches_add_and_edit_then_merge_without_conflict)
{
#ifdef __EMSCRIPTEN__
    printf("skipped: no processes (git) in wasm\n");
#else
    CHECK(system("git --version >/dev/null 2>&1") == 0);
    CHECK(du_make_memory_temp_dir(repo, sizeof repo, "git"));
    /* The committed world everyone starts from. */
    char entities[700];
    bool ok = commit_base_world(BASE, 7, entities, sizeof entities);

    ok = ok && work_on_branch(&side_a) && work_on_branch(&side_b);

    /* The merge: no conflict, nothing left unmerged. */
    char out[1 << 14];
    ok = ok && sh(GIT "checkout -q a", NULL);
    int merge = ok ? sh_output(GIT "merge --quiet --no-edit b", out, sizeof out) : -1;
    if (merge != 0) fprintf(stderr, "git merge failed (%d):\n%s\n", merge, out);
    ok = ok && merge == 0 && sh_output("git diff --name-only --diff-filter=U", out, sizeof out) == 0 && out[0] == '\0';

    /* No two files share an ID (the loader rejects the second of a pair),
     * every file loads, and both sides' work is there. */
    jl_world merged = {0};
    jl_world_desc md = {.capacity = BASE + 2 * ADDED + 64};
    ok = ok && jli_world_init(&merged, &md) == JL_OK;
    jl_status status = ok ? jl_world_load(&merged, world_dir) : JL_ERR_IO;
    char line[1200];
    for (uint32_t i = 0; i < jl_world_diagnostic_count(&merged) && i < 5; i++)
        fprintf(stderr, "%s\n", jl_error_format(jl_world_diagnostic(&merged, i), line, sizeof line));
    ok = ok && status == JL_OK && jl_world_diagnostic_count(&merged) == 0 &&
         jl_world_count(&merged) == BASE + 2 * ADDED && du_count_suffix(entities, ".jasset") == BASE + 2 * ADDED;
    ok = ok && has_work_of(&merged, &side_a) && has_work_of(&merged, &side_b);
    ok = ok && jl_world_check_references(&merged) == 0;
    printf("merged %u + %u + %u entities, %u + %u edits: %u entities load, %u diagnostics\n", BASE, ADDED, ADDED,
           EDITED, EDITED, jl_world_count(&merged), jl_world_diagnostic_count(&merged));
    jli_world_shutdown(&merged);

    /* A copied file duplicates an ID: validate names both files. A name
     * after the original's in byte order, so the copy is the second one. */
    char original[800], copy[800], name[40], cli[1100], command[2400];
    snprintf(name, sizeof name, "%llu.jasset", (unsigned long long)side_b.created[0]);
    du_join(original, sizeof original, entities, name);
    snprintf(name, sizeof name, "%llu9.jasset", (unsigned long long)side_b.created[0]);
    du_join(copy, sizeof copy, entities, name);
    size_t size = 0;
    char *text = du_read(original, &size);
    ok = ok && text && du_write(copy, text, size);
    free(text);
    bool have_cli = du_find_cli(cli, sizeof cli);
    if (!have_cli) fprintf(stderr, "juliet not found next to the test directory\n");
    snprintf(command, sizeof command, "'%s' validate '%s'", cli, world_dir);
    int exit_code = ok && have_cli ? sh_output(command, out, sizeof out) : -1;
    char expected[2000];
    snprintf(expected, sizeof expected, "%s:4:1: duplicate entity ID 0x%016llx: already loaded from %s\n", copy,
             (unsigned long long)side_b.created[0], original);
    if (exit_code != 1 || !strstr(out, expected))
        fprintf(stderr, "juliet validate exited %d:\n%.2000s\nexpected the line:\n%s", exit_code, out, expected);
    ok = ok && have_cli && exit_code == 1 && strstr(out, expected) != NULL;
    du_remove_tree(repo);
    CHECK(ok);
#endif
}

#ifndef __EMSCRIPTEN__
enum { SMALL_BASE = 20, COLLIDING = 3 };

/* One side of a merge whose session drew the other side's tag: it creates
 * COLLIDING entities (the last a prop whose parent is the first) and moves
 * the first base entity, then commits. texts gets the created files. */
static bool collide_on_branch(const char *branch, const char *const *classes, const char *position, uint64_t *created,
                              char **texts)
{
    CHECK_OR_FALSE(sh(GIT "checkout -q -b %s main", branch));
    jl_world w;
    jl_world_desc d = {.capacity = 256, .id_tag = 0x5ca1ab1e0000u}; /* the same on both sides */
    CHECK_OR_FALSE(jli_world_init(&w, &d) == JL_OK);
    CHECK_OR_FALSE(jl_world_load(&w, world_dir) == JL_OK);
    for (uint32_t i = 0; i < COLLIDING; i++) {
        jl_entity *e;
        CHECK_OR_FALSE(jl_world_create(&w, classes[i], (float)i, branch[0] == 'a' ? 1.0f : 2.0f, 0, &e) == JL_OK);
        created[i] = e->id;
    }
    char parent[32];
    snprintf(parent, sizeof parent, "0x%016llx", (unsigned long long)created[0]);
    CHECK_OR_FALSE(jl_world_set_field(&w, created[COLLIDING - 1], "parent", parent, strlen(parent), NULL) == JL_OK);
    CHECK_OR_FALSE(jl_world_set_field(&w, base_ids[0], "position", position, strlen(position), NULL) == JL_OK);
    CHECK_OR_FALSE(jl_world_save(&w, world_dir, NULL) == JL_OK);
    jli_world_shutdown(&w);
    char path[800];
    for (uint32_t i = 0; i < COLLIDING; i++) {
        CHECK_OR_FALSE(jl_world_entity_path(path, sizeof path, world_dir, created[i]));
        CHECK_OR_FALSE((texts[i] = du_read(path, NULL)) != NULL);
    }
    CHECK_OR_FALSE(sh(GIT "add -A && " GIT "commit -q -m 'work on %s'", branch));
    return true;
}

/* text is original with its id value replaced by id's. */
static bool same_but_id(const char *text, const char *original, uint64_t id)
{
    const char *at = strstr(original, "\n; id\n");
    if (!at) return false;
    at += 6;
    char want[4096];
    snprintf(want, sizeof want, "%.*s0x%016llx%s", (int)(at - original), original, (unsigned long long)id, at + 18);
    return strcmp(text, want) == 0;
}
#endif

TEST(an_add_add_conflict_of_colliding_ids_is_split_by_fix_duplicates)
{
#ifdef __EMSCRIPTEN__
    printf("skipped: no processes (git) in wasm\n");
#else
    CHECK(system("git --version >/dev/null 2>&1") == 0);
    char cli[1100];
    CHECK(du_find_cli(cli, sizeof cli));
    CHECK(du_make_memory_temp_dir(repo, sizeof repo, "git"));
    char entities[700];
    bool ok = commit_base_world(SMALL_BASE, 3, entities, sizeof entities);

    static const char *const classes_a[COLLIDING] = {"Inert", "Light", "Prop"};
    static const char *const classes_b[COLLIDING] = {"Light", "Inert", "Prop"};
    uint64_t ids_a[COLLIDING], ids_b[COLLIDING];
    char *texts_a[COLLIDING] = {0}, *texts_b[COLLIDING] = {0};
    ok = ok && collide_on_branch("a", classes_a, "1 2 3", ids_a, texts_a) &&
         collide_on_branch("b", classes_b, "4 5 6", ids_b, texts_b);
    ok = ok && memcmp(ids_a, ids_b, sizeof ids_a) == 0; /* one tag: the same IDs */

    /* The merge stops: add/add for each created file, a content conflict
     * for the entity both sides moved. */
    char out[1 << 15], command[4096];
    ok = ok && sh(GIT "checkout -q a", NULL);
    ok = ok && sh_output(GIT "merge --no-edit b", out, sizeof out) != 0;
    ok = ok && sh_output("git status --porcelain", out, sizeof out) == 0;
    char line[1200], base_path[800];
    for (uint32_t i = 0; ok && i < COLLIDING; i++) {
        snprintf(line, sizeof line, "AA world/Entities/%llu.jasset", (unsigned long long)ids_a[i]);
        ok = strstr(out, line) != NULL;
    }
    snprintf(line, sizeof line, "UU world/Entities/%llu.jasset", (unsigned long long)base_ids[0]);
    ok = ok && strstr(out, line) != NULL;
    if (!ok) fprintf(stderr, "git status:\n%s\n", out);

    /* The repair splits the three add/add conflicts, not the edit conflict. */
    snprintf(command, sizeof command, "'%s' validate --fix-duplicates '%s'", cli, world_dir);
    int code = ok ? sh_output(command, out, sizeof out) : -1;
    if (code != 1) fprintf(stderr, "validate --fix-duplicates exited %d:\n%s\n", code, out);
    ok = ok && code == 1;
    uint64_t moved[COLLIDING] = {0};
    for (uint32_t i = 0; ok && i < COLLIDING; i++) {
        snprintf(line, sizeof line, "split %s/Entities/%llu.jasset, created on both sides of a merge", world_dir,
                 (unsigned long long)ids_a[i]);
        const char *at = strstr(out, line);
        const char *now = at ? strstr(at, "theirs is now 0x") : NULL;
        ok = now != NULL;
        if (ok) moved[i] = strtoull(now + 14, NULL, 16);
    }
    jl_world_entity_path(base_path, sizeof base_path, world_dir, base_ids[0]);
    snprintf(line, sizeof line, "%s: has merge conflict markers, and git does not list it as created on both sides",
             base_path);
    ok = ok && strstr(out, line) != NULL;
    /* b's prop still names b's first entity's old ID, which a's keeps. */
    char moved_prop[800];
    jl_world_entity_path(moved_prop, sizeof moved_prop, world_dir, moved[COLLIDING - 1]);
    snprintf(line, sizeof line, "%s:22:1: refers to 0x%016llx", moved_prop, (unsigned long long)ids_a[0]);
    ok = ok && strstr(out, line) != NULL;
    if (!ok) fprintf(stderr, "validate --fix-duplicates said:\n%s\n", out);

    /* Each side's entity is there: a's in the old files, b's byte for byte
     * under its new ID. */
    char path[800];
    for (uint32_t i = 0; ok && i < COLLIDING; i++) {
        char *text_a = NULL, *text_b = NULL;
        ok = jl_world_entity_path(path, sizeof path, world_dir, ids_a[i]) && (text_a = du_read(path, NULL)) &&
             strcmp(text_a, texts_a[i]) == 0;
        ok = ok && jl_world_entity_path(path, sizeof path, world_dir, moved[i]) && (text_b = du_read(path, NULL)) &&
             same_but_id(text_b, texts_b[i], moved[i]);
        free(text_a);
        free(text_b);
    }
    for (uint32_t i = 0; i < COLLIDING; i++) {
        free(texts_a[i]);
        free(texts_b[i]);
    }

    /* The person settles the edit conflict; then the world is clean and the
     * merge can be committed. */
    snprintf(command, sizeof command, "git checkout --ours -- '%s' && '%s' validate '%s'", base_path, cli, world_dir);
    code = ok ? sh_output(command, out, sizeof out) : -1;
    snprintf(line, sizeof line, "%u entities, 0 problems", SMALL_BASE + 2 * COLLIDING);
    if (ok && (code != 0 || !strstr(out, line))) fprintf(stderr, "validate exited %d:\n%s\n", code, out);
    ok = ok && code == 0 && strstr(out, line) != NULL;
    ok = ok && sh(GIT "add -A && " GIT "commit -q --no-edit", NULL);
    du_remove_tree(repo);
    CHECK(ok);
#endif
}
