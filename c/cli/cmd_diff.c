/* cmd_diff.c - `juliet diff OLDER NEWER`: the review of what changed
 * between two world directories, entity by entity and key by key (diff.h:
 * the same comparison the inspector's Pending changes shows). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "juliet/archive.h"
#include "juliet/diff.h"

static const char diff_usage[] =
    "usage: juliet diff OLDER NEWER [--json]\n\n"
    "Compares two world directories (for instance two git worktrees of one\n"
    "level) and prints every entity added, removed or modified, with each\n"
    "changed key as `key old → new`, then the settings if they differ. Files\n"
    "are compared by their canonical text: formatting alone is no change.\n"
    "--json prints one JSON object: {\"equal\", \"changes\": [{\"change\",\n"
    "\"id\", \"class\", \"path\", \"keys\": [{\"key\", \"old\", \"new\"}]}]}, with\n"
    "null for a missing side (and for the settings' id and class).\n\n"
    "Exit status 0 when the worlds are equal, 1 when they differ, 2 when a\n"
    "file of either failed to load (its diagnostics are printed: a world\n"
    "with files left out cannot be compared).\n";

/* What a diff prints: a text review or JSON, and where the JSON stands. */
typedef struct review {
    bool json;
    bool first_change;
    bool first_key;
    bool added; /* the entity being printed is new: keys without arrows */
    jl_arena *scratch;
} review;

/* Escaped text of one value or name: a line at most, each byte at worst
 * six characters. */
static char escaped[6 * JL_ARCHIVE_LINE_MAX + 1];

static const char *escape(const char *text, size_t size, jl_escape_style style)
{
    jl_text_escape(text, size, style, escaped, sizeof escaped);
    return escaped;
}

static void print_json_string(const char *text, size_t size)
{
    if (!text) fputs("null", stdout);
    else printf("\"%s\"", escape(text, size, JL_ESCAPE_JSON));
}

static void print_value(const char *text, size_t size)
{
    fputs(text ? escape(text, size, JL_ESCAPE_TERMINAL) : "(none)", stdout);
}

/* The keys an entity's first line says already (its kind, ID and class). */
static bool in_first_line(const char *key, size_t size)
{
    static const char *const keys[] = {"asset_type", "id", "class"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strlen(keys[i]) == size && memcmp(keys[i], key, size) == 0) return true;
    return false;
}

static jl_status print_key(void *ctx, const jl_key_change *c)
{
    review *r = ctx;
    if (r->json) {
        printf("%s{\"key\": ", r->first_key ? "" : ", ");
        print_json_string(c->key, c->key_size);
        fputs(", \"old\": ", stdout);
        print_json_string(c->old_value, c->old_size);
        fputs(", \"new\": ", stdout);
        print_json_string(c->new_value, c->new_size);
        fputs("}", stdout);
        r->first_key = false;
        return JL_OK;
    }
    /* A new entity's header keys are said by its first line already. */
    if (r->added && in_first_line(c->key, c->key_size)) return JL_OK;
    printf("  %s ", escape(c->key, c->key_size, JL_ESCAPE_TERMINAL));
    if (!r->added) {
        print_value(c->old_value, c->old_size);
        fputs(" → ", stdout);
    }
    print_value(c->new_value, c->new_size);
    fputs("\n", stdout);
    return JL_OK;
}

static const char *const change_names[] = {"added", "removed", "modified"};

static jl_status print_change(void *ctx, const jl_entity_change *c)
{
    review *r = ctx;
    char id[19] = "", under_dot[64];
    const char *path = "WorldSettings.jasset"; /* relative to either world */
    if (c->id) {
        snprintf(id, sizeof id, "0x%016llx", (unsigned long long)c->id);
        jl_world_entity_path(under_dot, sizeof under_dot, ".", c->id);
        path = under_dot + 2;
    }
    if (r->json) {
        printf("%s\n    {\"change\": \"%s\", \"id\": ", r->first_change ? "" : ",", change_names[c->kind]);
        print_json_string(c->id ? id : NULL, strlen(id));
        fputs(", \"class\": ", stdout);
        print_json_string(c->class_name, c->class_name ? strlen(c->class_name) : 0);
        printf(", \"path\": \"%s\", \"keys\": [", path);
        r->first_key = true;
    } else if (c->id) {
        printf("%s %s %s %s\n", change_names[c->kind], id, c->class_name, path);
    } else {
        printf("%s %s\n", change_names[c->kind], path);
    }
    r->first_change = false;
    jl_status s = JL_OK;
    if (c->kind != JL_CHANGE_REMOVED) {
        /* An added entity is every key of its text against nothing. */
        r->added = c->kind == JL_CHANGE_ADDED;
        jl_error err = {0};
        s = jl_text_diff(r->added ? "" : c->old_text, r->added ? 0 : c->old_size, path, c->new_text, c->new_size, path,
                         r->scratch, print_key, r, NULL, &err);
    }
    if (r->json) fputs("]}", stdout);
    return s;
}

/* Loads dir into a new world; false (its diagnostics printed) if a file
 * failed to load or the world could not be created. */
static bool load(const char *dir, jl_world **world)
{
    jl_status s = jl_cli_new_world(world, false);
    if (s != JL_OK) {
        jl_cli_fail("diff", "cannot create a world: %s", jl_status_name(s));
        return false;
    }
    jl_world_load(*world, dir);
    const uint32_t failed = jl_cli_print_diagnostics(stderr, *world);
    if (failed == 0) return true;
    fprintf(stderr, "juliet diff: %s: %u file%s failed to load: cannot compare\n", dir, failed, failed == 1 ? "" : "s");
    return false;
}

static int diff_run(int argc, char **argv)
{
    const char *dirs[2];
    int dir_count = 0;
    review r = {.first_change = true};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) r.json = true;
        else if (argv[i][0] == '-') return jl_cli_fail("diff", "unknown option '%s'", argv[i]);
        else if (dir_count == 2) return jl_cli_fail("diff", "expected two world directories, got more");
        else dirs[dir_count++] = argv[i];
    }
    if (dir_count != 2) return jl_cli_fail("diff", "expected two world directories");

    jl_world *older = NULL, *newer = NULL;
    jl_arena scratch = {0};
    int code = JL_CLI_USAGE;
    if (load(dirs[0], &older) && load(dirs[1], &newer) && jl_arena_init(&scratch, (size_t)1 << 30) == JL_OK) {
        r.scratch = &scratch;
        if (r.json) fputs("{\"changes\": [", stdout);
        uint32_t changes = 0;
        jl_status s = jl_world_diff(older, newer, &scratch, print_change, &r, &changes);
        if (r.json) printf("%s], \"equal\": %s}\n", changes ? "\n" : "", changes ? "false" : "true");
        if (s != JL_OK) {
            jl_cli_fail("diff", "cannot compare: %s", jl_status_name(s));
        } else {
            fprintf(stderr, changes ? "%u change%s\n" : "the worlds are equal\n", changes, changes == 1 ? "" : "s");
            code = changes ? JL_CLI_PROBLEMS : JL_CLI_OK;
        }
    }
    jl_arena_release(&scratch);
    if (older) jl_world_free(older);
    if (newer) jl_world_free(newer);
    return code;
}

JL_CLI_COMMAND(diff_command, "diff", diff_run, "what changed between two world directories", diff_usage)
