/* test_bad_input.c - the bad-input catalogue beyond single malformed files
 * (assets/malformed/catalogue/README.md): a 10 MB line, 100,000 keys, a
 * directory named like an entity file, an unreadable file, a symlink loop,
 * and leftover temporaries. Each gets its own diagnostic (status, path,
 * line, column, message) and the rest of the world loads.
 *
 * The single-file rejections of the persistence issue are in
 * assets/malformed/expected.tsv and tested by test_archive.c. */
#include "disk_util.h"

#include "fs_probe.h"
#include "juliet/archive.h"
#include "juliet/world.h"
#include "test.h"
#include "world/world_internal.h" /* jli_world_init: worlds embedded in the tests */

#define CATALOGUE JULIET_ASSETS_DIR "/malformed/catalogue"

typedef struct expected_diagnostic {
    const char *name; /* file name under Entities/ */
    jl_status status;
    uint32_t line, col;
    const char *message; /* contained in the message */
} expected_diagnostic;

/* The world's diagnostic for Entities/name, or NULL. */
static const jl_error *diagnostic_for(const jl_world *w, const char *entities, const char *name)
{
    char path[1200];
    du_join(path, sizeof path, entities, name);
    for (uint32_t i = 0; i < jl_world_diagnostic_count(w); i++)
        if (strcmp(jl_world_diagnostic(w, i)->path, path) == 0) return jl_world_diagnostic(w, i);
    return NULL;
}

/* Larger than JL_ARCHIVE_FILE_MAX: the loader must refuse it by its size. */
static bool write_10mb_line(const char *path)
{
    const char header[] = "; asset_type\nentity_instance\n; id\n0x0000000100000006\n; class\nInert\n; note\n";
    const size_t line = 10u << 20;
    char *text = malloc(sizeof header - 1 + line + 1);
    if (!text) return false;
    memcpy(text, header, sizeof header - 1);
    memset(text + sizeof header - 1, 'x', line);
    text[sizeof header - 1 + line] = '\n';
    bool ok = du_write(path, text, sizeof header - 1 + line + 1);
    free(text);
    return ok;
}

static bool write_100000_keys(const char *path)
{
    const size_t cap = 100000 * 24 + 256;
    char *text = malloc(cap);
    if (!text) return false;
    size_t n = (size_t)snprintf(text, cap, "; asset_type\nentity_instance\n; id\n0x0000000100000007\n; class\nProp\n");
    for (int i = 0; i < 100000 - 3; i++) n += (size_t)snprintf(text + n, cap - n, "; key_%d\n%d\n", i, i);
    bool ok = du_write(path, text, n);
    free(text);
    return ok;
}

TEST(directory_problems_each_get_a_diagnostic_and_the_rest_loads)
{
    char root[512], dir[600], entities[700], path[800];
    CHECK(du_make_temp_dir(root, sizeof root, "catalogue"));
    du_join(dir, sizeof dir, root, "world");
    bool ok = du_copy_tree(CATALOGUE, dir);
    du_join(entities, sizeof entities, dir, "Entities");
    du_join(path, sizeof path, entities, "4294967302.jasset");
    ok = ok && write_10mb_line(path);
    du_join(path, sizeof path, entities, "4294967303.jasset");
    ok = ok && write_100000_keys(path);
    /* The copy keeps the loop a loop. */
    du_join(path, sizeof path, entities, "4294967300.jasset");
    struct stat st;
    ok = ok && lstat(path, &st) == 0 && S_ISLNK(st.st_mode);

    /* Unreadable: permissions do not stop root, the file-system table does. */
    probe_fs probe;
    probe_init(&probe);
    du_join(path, sizeof path, entities, "4294967301.jasset");
    bool as_root = geteuid() == 0;
    if (as_root) {
        probe.deny_read_code = EACCES;
        probe_copy(probe.deny_read_path, path);
    } else {
        ok = ok && chmod(path, 0) == 0;
    }
    printf("unreadable file made by %s\n", as_root ? "the fs table (EACCES: running as root)" : "chmod 000");

    jl_world w = {0};
    jl_world_desc d = {.capacity = 64, .fs = &probe.table};
    ok = ok && jli_world_init(&w, &d) == JL_OK;
    jl_status status = ok ? jl_world_load(&w, dir) : JL_ERR_IO;
    char line[1200];
    for (uint32_t i = 0; i < jl_world_diagnostic_count(&w); i++)
        printf("  %s\n", jl_error_format(jl_world_diagnostic(&w, i), line, sizeof line));

    static const expected_diagnostic expected[] = {
        {"4294967299.jasset", JL_ERR_IO, 0, 0, "read_file failed: is a directory"},
        {"4294967300.jasset", JL_ERR_IO, 0, 0, "read_file failed: too many levels of symbolic links"},
        {"4294967301.jasset", JL_ERR_IO, 0, 0, "read_file failed: permission denied"},
        /* Refused by its size, before a byte of it is read. */
        {"4294967302.jasset", JL_ERR_PARSE, 0, 0, "file too large"},
        {"4294967303.jasset", JL_ERR_PARSE, 2 * JL_ARCHIVE_KEYS_MAX + 1, 3, "more than 1024 keys in one file"},
    };
    const size_t n_expected = sizeof expected / sizeof expected[0];
    ok = ok && status != JL_OK && jl_world_diagnostic_count(&w) == n_expected;
    for (size_t i = 0; ok && i < n_expected; i++) {
        const jl_error *e = diagnostic_for(&w, entities, expected[i].name);
        if (!e || e->status != expected[i].status || e->line != expected[i].line || e->col != expected[i].col ||
            !strstr(e->message, expected[i].message)) {
            fprintf(stderr, "%s: expected %s at %u:%u \"%s\"\n", expected[i].name, jl_status_name(expected[i].status),
                    expected[i].line, expected[i].col, expected[i].message);
            ok = false;
        }
    }
    /* The rest of the world: both good entities, nothing half-loaded. */
    ok = ok && jl_world_count(&w) == 2 && jl_world_find(&w, 0x100000001ull) && jl_world_find(&w, 0x100000002ull);
    jl_error err;
    ok = ok && jl_manager_check(&w.manager, &err) == JL_OK;
    /* And a full save touches none of the bad entries. */
    jl_world_mark_all_dirty(&w);
    jl_save_report report;
    /* The two entities and the settings (defaults: there was no file). */
    ok = ok && jl_world_save(&w, dir, &report) == JL_OK && report.written_count == 3 && report.deleted_count == 0;
    du_join(path, sizeof path, entities, "4294967303.jasset");
    ok = ok && du_exists(path);
    du_join(path, sizeof path, entities, "4294967299.jasset");
    ok = ok && lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
    du_join(path, sizeof path, entities, "4294967300.jasset");
    ok = ok && lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
    jli_world_shutdown(&w);
    du_join(path, sizeof path, entities, "4294967301.jasset");
    chmod(path, 0644);
    du_remove_tree(root);
    CHECK(ok);
}

/* An interrupted save's temporaries (a half-written entity, a half-written
 * settings file) are ignored, the real files load, and the leftovers are
 * deleted; `keep_temp_files` (juliet validate) leaves them alone. */
TEST(leftover_temporaries_are_ignored_and_cleaned)
{
    char root[512], dir[600], entities[700], path[800];
    CHECK(du_make_temp_dir(root, sizeof root, "leftovers"));
    du_join(dir, sizeof dir, root, "world");
    bool ok = du_copy_tree(JULIET_ASSETS_DIR "/sample_world", dir);
    du_join(entities, sizeof entities, dir, "Entities");
    size_t n;
    char **names = du_list(entities, &n);
    ok = ok && n > 1;
    du_join(path, sizeof path, entities, names[0]);
    size_t size = 0;
    char *text = du_read(path, &size);
    char temp[900];
    snprintf(temp, sizeof temp, "%s.tmp", path);
    ok = ok && text && du_write(temp, text, size / 2);
    /* A temporary whose entity file does not exist yet (a created entity). */
    du_join(temp, sizeof temp, entities, "12345.jasset.tmp");
    ok = ok && du_write(temp, text, size);
    du_join(temp, sizeof temp, dir, "WorldSettings.jasset.tmp");
    ok = ok && du_write(temp, "; version\n", 10);
    free(text);

    for (int keep = 1; keep >= 0 && ok; keep--) {
        jl_world w;
        jl_world_desc d = {.capacity = 256, .keep_temp_files = keep == 1};
        ok = jli_world_init(&w, &d) == JL_OK && jl_world_load(&w, dir) == JL_OK && jl_world_diagnostic_count(&w) == 0 &&
             jl_world_count(&w) == n;
        size_t left = du_count_suffix(entities, ".tmp") + du_count_suffix(dir, ".tmp");
        ok = ok && left == (keep ? 3u : 0u);
        jli_world_shutdown(&w);
    }
    du_free_names(names, n);
    du_remove_tree(root);
    CHECK(ok);
}
