/* cmd_world.c - the world commands of `juliet`: validate, stats, fmt, gen. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "juliet/archive.h"
#include "juliet/fs.h"
#include "juliet/world.h"
#include "sample_world_gen.h"

/* ---- validate ---- */

/* Prints every warning of the world as "path:line:col: warning: message";
 * returns how many. */
static uint32_t print_warnings(FILE *stream, const jl_world *world)
{
    uint32_t n = jl_world_warning_count(world);
    for (uint32_t i = 0; i < n; i++) {
        jl_error w;
        if (!jl_world_warning(world, i, &w)) break;
        jl_error shown = w;
        snprintf(shown.message, sizeof shown.message, "warning: %.*s", (int)sizeof w.message - 10, w.message);
        jl_cli_print_error(stream, &shown);
    }
    return n;
}

static const char validate_usage[] =
    "usage: juliet validate [--strict] [--fix-duplicates] DIR...\n\n"
    "Loads each world directory and prints every problem as\n"
    "path:line:col: message: parse errors, duplicate IDs (naming both\n"
    "files), file names that do not match their ID, and references to\n"
    "entities that do not exist. Without --fix-duplicates it changes nothing\n"
    "on disk. Exit status 1 if any problem was found (after the repairs,\n"
    "with --fix-duplicates).\n\n"
    "An entity whose class this build does not know is kept as text (its\n"
    "file is written back unchanged) and printed as a warning,\n"
    "path:line:col: warning: unknown class 'Name' (kept as text), which\n"
    "leaves the exit status 0; --strict counts warnings as problems.\n\n"
    "--fix-duplicates first repairs two entities that carry one ID after a\n"
    "merge: the later one gets a fresh ID and the file named by it, every\n"
    "other byte of its file unchanged, and the one in the ID's own file keeps\n"
    "it. The later one is the side git calls theirs when both branches\n"
    "created Entities/<id>.jasset (an add/add conflict; git add both files\n"
    "afterwards), else the file whose name is not the ID's (else the second\n"
    "in name order); a byte-identical copy is left alone. References to the\n"
    "ID are not changed: each is listed as path:line:col for a person to\n"
    "check. A file named after another entity's ID whose own ID's name is\n"
    "free, or held by a file misnamed in turn (two files whose texts were\n"
    "swapped), is no duplicate: it is renamed to its own ID's name, no ID\n"
    "changed. The repair holds the world's lock from its first read to its\n"
    "last write. The world is then validated as above.\n";

static int validate_run(int argc, char **argv)
{
    bool fix = false, strict = false;
    int dirs = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--fix-duplicates") == 0) fix = true;
        else if (strcmp(argv[i], "--strict") == 0) strict = true;
        else if (argv[i][0] == '-') return jl_cli_fail("validate", "unknown option '%s'", argv[i]);
        else dirs++;
    }
    if (!dirs) return jl_cli_fail("validate", "expected at least one world directory");
    uint32_t problems = 0, warnings = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') continue;
        jl_arena moves = {0};
        jl_cli_moved_id *moved = NULL;
        uint32_t moved_count = 0;
        if (fix) {
            jl_status s = jl_arena_init(&moves, (size_t)1 << 30);
            if (s == JL_OK) s = jl_cli_fix_duplicates(argv[i], &moves, &moved, &moved_count);
            if (s != JL_OK) {
                jl_arena_release(&moves);
                return jl_cli_fail("validate", "cannot create a world: %s", jl_status_name(s));
            }
        }
        jl_world *world;
        jl_status s = jl_cli_new_world(&world, true);
        if (s != JL_OK) {
            jl_arena_release(&moves);
            return jl_cli_fail("validate", "cannot create a world: %s", jl_status_name(s));
        }
        jl_world_load(world, argv[i]);
        jl_world_check_references(world);
        uint32_t n = jl_cli_print_diagnostics(stdout, world);
        uint32_t warned = print_warnings(stdout, world);
        uint32_t to_check = jl_cli_print_moved_references(world, argv[i], moved, moved_count);
        if (fix)
            fprintf(stderr, "%s: %u duplicate ID%s repaired, %u reference%s to check\n", argv[i], moved_count,
                    moved_count == 1 ? "" : "s", to_check, to_check == 1 ? "" : "s");
        fprintf(stderr, "%s: %u entities, %u problem%s, %u warning%s\n", argv[i], jl_world_count(world), n,
                n == 1 ? "" : "s", warned, warned == 1 ? "" : "s");
        problems += n;
        warnings += warned;
        jl_world_free(world);
        jl_arena_release(&moves);
    }
    return problems || (strict && warnings) ? JL_CLI_PROBLEMS : JL_CLI_OK;
}

JL_CLI_COMMAND(validate_command, "validate", validate_run, "report every problem of world directories", validate_usage)

/* ---- stats ---- */

static const char stats_usage[] =
    "usage: juliet stats DIR [--json]\n\n"
    "Counts the entities of a world per class, with the bytes of their files\n"
    "and totals. Classes this build does not know (entities kept as text)\n"
    "are counted too, marked \"(opaque)\" (\"opaque\": true in JSON). --json\n"
    "prints one JSON object instead of a table; in its \"dir\", control\n"
    "characters are written as \\u00XX and bytes that are not UTF-8 as\n"
    "\\u00XX of the byte (read as Latin-1). Problems found while loading go\n"
    "to stderr (exit status 1).\n";

static int stats_run(int argc, char **argv)
{
    const char *dir;
    bool json;
    int bad = jl_cli_one_dir("stats", argc, argv, "--json", &json, &dir);
    if (bad) return bad;
    /* Any name the system can open fits (a byte escapes to 6 at most). */
    static char dir_json[6 * 4096 + 1];
    if (json && jl_text_escape(dir, strlen(dir), JL_ESCAPE_JSON, dir_json, sizeof dir_json) >= sizeof dir_json)
        return jl_cli_fail("stats", "directory name too long");
    jl_world *world;
    jl_status s = jl_cli_new_world(&world, true);
    if (s != JL_OK) return jl_cli_fail("stats", "cannot create a world: %s", jl_status_name(s));
    jl_world_load(world, dir);
    uint32_t problems = jl_cli_print_diagnostics(stderr, world);
    /* Per class of the world's registry: the classes it loaded files of. */
    const jl_world_stats *st = jl_world_get_stats(world);
    uint32_t classes = jl_world_class_count(world);
    uint64_t entities = 0, bytes = st->settings_bytes;
    for (uint32_t k = 0; k < classes; k++) {
        entities += st->entities[k];
        bytes += st->bytes[k];
    }
    if (json) {
        printf("{\"dir\": \"%s\", \"classes\": {", dir_json);
        for (uint32_t k = 0; k < classes; k++)
            printf("%s\"%s\": {\"entities\": %u, \"bytes\": %llu%s}", k ? ", " : "", jl_world_class_at(world, k)->name,
                   st->entities[k], (unsigned long long)st->bytes[k],
                   jl_class_is_opaque(jl_world_class_at(world, k)) ? ", \"opaque\": true" : "");
        printf("}, \"entities\": %llu, \"bytes\": %llu, \"settings_bytes\": %llu, \"failed_files\": %u}\n",
               (unsigned long long)entities, (unsigned long long)bytes, (unsigned long long)st->settings_bytes,
               st->files_failed);
    } else {
        printf("%-14s %10s %12s\n", "class", "entities", "bytes");
        for (uint32_t k = 0; k < classes; k++) {
            const jl_class *cls = jl_world_class_at(world, k);
            printf("%-14s %10u %12llu%s\n", cls->name, st->entities[k], (unsigned long long)st->bytes[k],
                   jl_class_is_opaque(cls) ? "  (opaque)" : "");
        }
        printf("%-14s %10s %12llu\n", "WorldSettings", "", (unsigned long long)st->settings_bytes);
        printf("%-14s %10llu %12llu\n", "total", (unsigned long long)entities, (unsigned long long)bytes);
        if (st->files_failed) printf("%u file%s failed to load\n", st->files_failed, st->files_failed == 1 ? "" : "s");
    }
    jl_world_free(world);
    return problems ? JL_CLI_PROBLEMS : JL_CLI_OK;
}

JL_CLI_COMMAND(stats_command, "stats", stats_run, "entities per class, totals and bytes of a world", stats_usage)

/* ---- fmt ---- */

static const char fmt_usage[] =
    "usage: juliet fmt DIR [--check]\n\n"
    "Rewrites every file of a world that is not in canonical form (key order,\n"
    "shortest floats, LF line ends), atomically, leaving canonical files\n"
    "untouched. Files that fail to load are reported and never rewritten.\n"
    "--check changes nothing: it lists the files that would change and exits\n"
    "with status 1 if there are any.\n";

/* True if the file at path differs from text (or cannot be read). */
static bool differs(const jl_fs *fs, jl_arena *arena, const char *path, const char *text, size_t size)
{
    size_t mark = arena->used;
    char *data;
    size_t data_size;
    bool result = fs->read_file(fs, path, JL_ARCHIVE_FILE_MAX, arena, &data, &data_size, NULL) != 0 ||
                  data_size != size || memcmp(data, text, size) != 0;
    jl_arena_pop_to(arena, mark);
    return result;
}

static int fmt_run(int argc, char **argv)
{
    const char *dir;
    bool check;
    int bad = jl_cli_one_dir("fmt", argc, argv, "--check", &check, &dir);
    if (bad) return bad;
    jl_world *world;
    jl_status s = jl_cli_new_world(&world, check);
    if (s != JL_OK) return jl_cli_fail("fmt", "cannot create a world: %s", jl_status_name(s));
    jl_arena files;
    if (jl_arena_init(&files, (size_t)1 << 30) != JL_OK) {
        jl_world_free(world);
        return jl_cli_fail("fmt", "out of memory");
    }
    s = jl_world_load(world, dir);
    uint32_t problems = jl_cli_print_diagnostics(stderr, world);
    const jl_fs *fs = jl_fs_native();
    char path[JL_ERROR_PATH_MAX];
    uint32_t changed = 0;
    bool listing_ok = !(s == JL_ERR_NOT_FOUND && jl_world_count(world) == 0 && problems);
    for (jl_world_iter it = jl_world_iter_all(world); listing_ok && jl_world_next(&it);) {
        jl_entity *e = it.entity;
        if (e->flags & JL_ENTITY_READ_ONLY) continue; /* never rewritten */
        const char *text;
        size_t size;
        if (jl_world_write_entity(world, e->id, &text, &size) != JL_OK) continue;
        if (!jl_world_entity_path(path, sizeof path, dir, e->id)) continue;
        if (!differs(fs, &files, path, text, size)) continue;
        changed++;
        if (check) printf("%s\n", path);
        else jl_entity_touch(e);
    }
    const uint32_t unwritable = JL_SETTINGS_READ_ONLY | JL_SETTINGS_FAILED;
    if (listing_ok && !(jl_world_settings_state(world) & unwritable) &&
        jl_fs_join(path, sizeof path, dir, "WorldSettings.jasset") && jl_world_get_stats(world)->settings_bytes) {
        const char *text;
        size_t size;
        if (jl_world_write_settings(world, &text, &size) == JL_OK && differs(fs, &files, path, text, size)) {
            changed++;
            if (check) printf("%s\n", path);
            else jl_world_settings_touch(world);
        }
    }
    int result = problems ? JL_CLI_PROBLEMS : JL_CLI_OK;
    if (check) {
        if (changed) result = JL_CLI_PROBLEMS;
        fprintf(stderr, "%u file%s would be reformatted\n", changed, changed == 1 ? "" : "s");
    } else if (changed) {
        jl_save_report report;
        s = jl_world_save(world, dir, &report);
        for (uint32_t i = 0; i < report.written_count; i++) printf("%s\n", report.written[i]);
        jl_cli_print_save_problems(stderr, &report);
        if (s != JL_OK) result = JL_CLI_PROBLEMS;
        fprintf(stderr, "%u file%s reformatted\n", report.written_count, report.written_count == 1 ? "" : "s");
    }
    jl_arena_release(&files);
    jl_world_free(world);
    return result;
}

JL_CLI_COMMAND(fmt_command, "fmt", fmt_run, "rewrite a world's files in canonical form", fmt_usage)

/* ---- gen ---- */

static const char gen_usage[] =
    "usage: juliet gen DIR --count N [--seed S]\n\n"
    "Writes a synthetic world of N entities of the sample game's classes\n"
    "(Inert, Light, Prop; parent references, settings) into DIR, which must not exist or be empty (it is written\n"
    "beside DIR and renamed into place: all of it or nothing). The same N\n"
    "and S (default 1) give the same files, IDs included, on every machine.\n";

static int gen_run(int argc, char **argv)
{
    const char *dir = NULL;
    uint64_t count = 0, seed = 1;
    bool have_count = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--count") == 0 || strcmp(argv[i], "--seed") == 0) {
            bool is_count = argv[i][2] == 'c';
            if (i + 1 >= argc) return jl_cli_fail("gen", "%s needs a value", argv[i]);
            uint64_t v;
            if (!jl_cli_parse_u64(argv[i + 1], is_count ? JL_MAX_CAPACITY : UINT64_MAX, &v) || (is_count && v == 0))
                return jl_cli_fail("gen", "%s must be a whole number%s, not '%s'", argv[i],
                                   is_count ? " from 1 to 16777216" : "", argv[i + 1]);
            if (is_count) {
                count = v;
                have_count = true;
            } else {
                seed = v;
            }
            i++;
        } else if (argv[i][0] == '-') {
            return jl_cli_fail("gen", "unknown option '%s'", argv[i]);
        } else if (dir) {
            return jl_cli_fail("gen", "expected one directory, got '%s' too", argv[i]);
        } else {
            dir = argv[i];
        }
    }
    if (!dir) return jl_cli_fail("gen", "expected a directory");
    if (!have_count) return jl_cli_fail("gen", "--count N is required");

    int code = jl_cli_check_new_dir("gen", dir);
    if (code) return code;

    jl_world *world;
    jl_world_desc desc = {.capacity = (uint32_t)count > JL_DEFAULT_CAPACITY ? (uint32_t)count : 0,
                          .id_tag = sample_world_gen_tag(seed)};
    jl_status s = jl_world_new(&desc, &world);
    if (s != JL_OK) return jl_cli_fail("gen", "cannot create a world: %s", jl_status_name(s));
    s = sample_world_generate(world, (uint32_t)count, seed);
    if (s != JL_OK) {
        jl_world_free(world);
        return jl_cli_fail("gen", "cannot generate %llu entities: %s", (unsigned long long)count, jl_status_name(s));
    }
    jl_save_report report;
    s = jl_world_save_new(world, dir, &report);
    int result = JL_CLI_OK;
    jl_cli_print_save_problems(stderr, &report);
    if (s != JL_OK) result = JL_CLI_PROBLEMS;
    fprintf(stderr, "wrote %u files to %s\n", report.written_count, dir);
    jl_world_free(world);
    return result;
}

JL_CLI_COMMAND(gen_command, "gen", gen_run, "write a deterministic synthetic world", gen_usage)
