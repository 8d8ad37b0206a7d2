/* test_world.c - loading and saving world directories (world.h): byte-for-
 * byte round trip of the sample world, dirty-only saves, deferred deletion,
 * injected I/O failures, failed files never touched, diagnostics, IDs of
 * two sessions, the field API and the dirty state machine. Every test works
 * on a copy of assets/ in a temporary directory. */
#include "persist_util.h"

#include <math.h>

#include "juliet/archive.h"
#include "sample_classes.h"
#include "sample_world_gen.h"
#include "juliet/world.h"
#include "test.h"
#include "world/world_internal.h" /* jli_world_init: worlds embedded in the tests */

static jl_world world;
static probe_fs fault;
static char dir[256], dir2[256];

/* A world over the counting file system, on a fresh copy of `source`
 * (NULL: an empty directory). */
static bool start(const char *source)
{
    jli_world_shutdown(&world);
    probe_init(&fault);
    CHECK_OR_FALSE(du_make_temp_dir(dir, sizeof dir, "test"));
    if (source) CHECK_OR_FALSE(du_copy_tree(source, dir));
    jl_world_desc desc = {.fs = &fault.table};
    CHECK_OR_FALSE(jli_world_init(&world, &desc) == JL_OK);
    return true;
}

static bool start_loaded(const char *source)
{
    CHECK_OR_FALSE(start(source));
    jl_status s = jl_world_load(&world, dir);
    if (s != JL_OK && world.diagnostic_count) {
        char line[1024];
        fprintf(stderr, "%s\n", jl_error_format(jl_world_diagnostic(&world, 0), line, sizeof line));
    }
    CHECK_OR_FALSE(s == JL_OK);
    probe_reset(&fault);
    return true;
}

static void finish(void)
{
    jli_world_shutdown(&world);
    du_remove_tree(dir);
    if (dir2[0]) du_remove_tree(dir2);
    dir2[0] = '\0';
}

static jl_entity *first_of(const jl_class *cls)
{
    for (jl_entity *e = jl_entities_first(&world.manager); e; e = jl_entities_next(&world.manager, e))
        if (e->derived_kind == cls) return e;
    return NULL;
}

static void entity_path(char *out, size_t size, uint64_t id) { jl_world_entity_path(out, size, dir, id); }

/* Removes the sample's first Inert; returns its ID, its file's path in path. */
static uint64_t remove_first_inert(char *path, size_t size)
{
    const uint64_t id = first_of(&sample_inert_class)->id;
    entity_path(path, size, id);
    return jl_world_remove(&world, id) == JL_OK ? id : 0;
}

static bool file_equals(const char *path, const char *text, size_t size)
{
    size_t n = 0;
    char *data = du_read(path, &n);
    bool same = data && n == size && memcmp(data, text, n) == 0;
    free(data);
    return same;
}

static bool has_diagnostic(jl_status status, const char *path_part, uint32_t line, const char *message_part)
{
    for (uint32_t i = 0; i < jl_world_diagnostic_count(&world); i++) {
        const jl_error *e = jl_world_diagnostic(&world, i);
        if (e->status == status && strstr(e->path, path_part) && e->line == line && strstr(e->message, message_part))
            return true;
    }
    return false;
}

/* ---- round trip and dirty-only saves ---- */

TEST(sample_world_round_trips_byte_for_byte)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    CHECK(jl_world_count(&world) == 36);
    CHECK(du_make_temp_dir(dir2, sizeof dir2, "test"));
    jl_world_mark_all_dirty(&world);
    jl_save_report report;
    CHECK(jl_world_save(&world, dir2, &report) == JL_OK);
    CHECK(report.written_count == 37); /* 36 entities and the settings */
    CHECK(report.failed_count == 0);
    CHECK(pu_same_tree(ASSETS "/sample_world", dir2));
    finish();
}

TEST(saving_an_unchanged_world_writes_zero_files)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    jl_save_report report;
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(report.written_count == 0 && report.deleted_count == 0);
    CHECK(fault.total == 0); /* not one write-side file-system call */
    finish();
}

TEST(save_writes_only_the_dirty_files)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    jl_entity *light = first_of(&sample_light_class), *prop = first_of(&sample_prop_class);
    jl_error err;
    CHECK(jl_world_set_field(&world, light->id, "intensity", "7.5", 3, &err) == JL_OK);
    CHECK(jl_world_set_field(&world, prop->id, "position", "1 2 3", 5, &err) == JL_OK);
    jl_save_report report;
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(report.written_count == 2);
    CHECK(fault.ops[JL_FS_OP_OPEN_WRITE] == 2 && fault.ops[JL_FS_OP_RENAME] == 2);
    CHECK(fault.ops[JL_FS_OP_REMOVE] == 0);
    char path[512];
    entity_path(path, sizeof path, light->id);
    CHECK(strcmp(report.written[0], path) == 0 || strcmp(report.written[1], path) == 0);
    size_t n = 0;
    char *text = du_read(path, &n);
    CHECK(text && strstr(text, "; intensity\n7.5\n"));
    free(text);
    CHECK(!light->is_dirty && !prop->is_dirty);
    /* Saving again writes nothing. */
    probe_reset(&fault);
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(fault.total == 0);
    finish();
}

TEST(save_flushes_its_files_once_before_renaming_them_and_the_directories_once)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    if (!probe_dir_batches(dir)) {
        printf("skipped: the file system of %s syncs file by file\n", dir);
        finish();
        return;
    }
    jl_world_mark_all_dirty(&world);
    CHECK(jl_world_save(&world, dir, NULL) == JL_OK);
    CHECK(fault.ops[JL_FS_OP_SYNC] == 0);
    CHECK(fault.ops[JL_FS_OP_BATCH_OPEN] == 2);
    CHECK(fault.ops[JL_FS_OP_SYNC_BATCH] == 2); /* Entities/ and the root, whatever the number of files */
    CHECK(fault.ops[JL_FS_OP_RENAME] == 37);
    CHECK(fault.ops[JL_FS_OP_SYNC_DIR] == 2);
    /* Every temporary is written before the flush, every rename after. */
    CHECK(fault.first[JL_FS_OP_BATCH_OPEN] < fault.first[JL_FS_OP_OPEN_WRITE]);
    CHECK(fault.first[JL_FS_OP_SYNC_BATCH] > fault.first[JL_FS_OP_OPEN_WRITE]);
    CHECK(fault.first[JL_FS_OP_SYNC_BATCH] < fault.first[JL_FS_OP_RENAME]);
    finish();
}

/* The renames done by the time of each batch's flush. */
static uint32_t flushes, renames_at_flush[4];

static int count_flush(const jl_fs *fs, intptr_t handle)
{
    if (flushes < 4) renames_at_flush[flushes] = fault.ops[JL_FS_OP_RENAME];
    flushes++;
    return probe_sync_batch(fs, handle);
}

TEST(a_save_of_more_files_than_a_batch_holds_flushes_and_renames_batch_by_batch)
{
    CHECK(start(NULL));
    if (!probe_dir_batches(dir)) {
        printf("skipped: the file system of %s syncs file by file\n", dir);
        finish();
        return;
    }
    jli_world_shutdown(&world);
    jl_world_desc desc = {.fs = &fault.table, .id_tag = sample_world_gen_tag(3)};
    CHECK(jli_world_init(&world, &desc) == JL_OK);
    world.save_batch_files = 8; /* JLI_SAVE_BATCH_FILES in a smaller world */
    CHECK(sample_world_generate(&world, 20, 3) == JL_OK);
    fault.table.sync_batch = count_flush;
    flushes = 0;
    jl_save_report report;
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(report.written_count == 21 && report.failed_count == 0);
    /* Each full batch flushed before any of its renames and renamed before
     * the next is flushed; then the last four entities and the settings
     * (each directory its own flush). */
    CHECK(flushes == 4);
    CHECK(renames_at_flush[0] == 0 && renames_at_flush[1] == 8);
    CHECK(renames_at_flush[2] == 16 && renames_at_flush[3] == 16);
    CHECK(fault.ops[JL_FS_OP_SYNC] == 0 && fault.ops[JL_FS_OP_RENAME] == 21);
    char entities[300];
    du_join(entities, sizeof entities, dir, "Entities");
    CHECK(pu_count(entities) == 20 && du_count_suffix(entities, ".tmp") == 0);
    finish();
}

TEST(save_syncs_each_file_before_renaming_it_and_the_directory_once)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    fault.no_batch = true; /* a file system without batches, as in wasm */
    jl_world_mark_all_dirty(&world);
    CHECK(jl_world_save(&world, dir, NULL) == JL_OK);
    CHECK(fault.ops[JL_FS_OP_SYNC] == 37);
    CHECK(fault.ops[JL_FS_OP_SYNC_BATCH] == 0);
    CHECK(fault.ops[JL_FS_OP_RENAME] == 37);
    CHECK(fault.ops[JL_FS_OP_SYNC_DIR] == 2); /* Entities/ and the root */
    /* The first rename comes after the first file sync. */
    CHECK(fault.first[JL_FS_OP_SYNC] && fault.first[JL_FS_OP_SYNC] < fault.first[JL_FS_OP_RENAME]);
    finish();
}

/* ---- deferred deletion ---- */

TEST(removed_entity_file_is_deleted_at_the_next_save_only)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    char path[512];
    const uint64_t id = remove_first_inert(path, sizeof path);
    CHECK(id != 0);
    CHECK(jl_world_find(&world, id) == NULL);
    CHECK(du_exists(path)); /* nothing touches the disk before a save */
    CHECK(fault.total == 0);
    jl_save_report report;
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(!du_exists(path));
    CHECK(report.deleted_count == 1 && strcmp(report.deleted[0], path) == 0);
    CHECK(report.written_count == 0);
    CHECK(world.manager.pending_count == 0);
    CHECK(pu_count(dir) == 2 && fault.ops[JL_FS_OP_REMOVE] == 1);
    finish();
}

TEST(deletions_happen_before_writes)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    jl_entity *a = first_of(&sample_inert_class), *b = first_of(&sample_light_class);
    CHECK(jl_world_set_field(&world, b->id, "intensity", "3", 1, NULL) == JL_OK);
    CHECK(jl_world_remove(&world, a->id) == JL_OK);
    CHECK(jl_world_save(&world, dir, NULL) == JL_OK);
    CHECK(fault.first[JL_FS_OP_REMOVE] && fault.first[JL_FS_OP_REMOVE] < fault.first[JL_FS_OP_OPEN_WRITE]);
    finish();
}

TEST(undone_removal_keeps_the_file)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    jl_entity *victim = first_of(&sample_prop_class);
    uint64_t id = victim->id;
    const char *text;
    size_t size;
    CHECK(jl_world_write_entity(&world, id, &text, &size) == JL_OK);
    char *saved = malloc(size);
    memcpy(saved, text, size);
    CHECK(jl_world_remove(&world, id) == JL_OK);
    /* Undo: the same entity, same ID, back from its text. */
    jl_entity *back = NULL;
    CHECK(jl_world_load_entity_text(&world, "undo", saved, size, true, &back, NULL) == JL_OK);
    free(saved);
    CHECK(back && back->id == id && back->is_dirty);
    jl_save_report report;
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(report.deleted_count == 0);
    CHECK(report.written_count == 1);
    char path[512];
    entity_path(path, sizeof path, id);
    CHECK(du_exists(path));
    finish();
}

TEST(entity_created_and_removed_before_a_save_touches_nothing)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    jl_entity *e = NULL;
    CHECK(jl_world_create(&world, "Prop", 0, 0, 0, &e) == JL_OK);
    CHECK(jl_world_remove(&world, e->id) == JL_OK);
    jl_save_report report;
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(report.deleted_count == 0 && report.written_count == 0 && report.failed_count == 0);
    finish();
}

/* A directory so deep that "Entities/<id>.jasset" under it does not fit in
 * a path (JL_ERROR_PATH_MAX) while the directory and its lock file do. */
static bool make_deep_dir(char *out, size_t size, const char *base, size_t length)
{
    CHECK_OR_FALSE(length < size && strlen(base) + 2 < length);
    strcpy(out, base);
    while (strlen(out) < length) {
        size_t n = strlen(out), part = length - n - 1;
        if (part > 200) part = 200;
        out[n] = '/';
        memset(out + n + 1, 'd', part);
        out[n + 1 + part] = '\0';
        CHECK_OR_FALSE(mkdir(out, 0755) == 0);
    }
    return true;
}

TEST(a_pending_deletion_whose_path_does_not_fit_is_reported_and_kept)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    jl_entity *victim = first_of(&sample_inert_class);
    uint64_t id = victim->id;
    CHECK(jl_world_remove(&world, id) == JL_OK);
    CHECK(du_make_temp_dir(dir2, sizeof dir2, "test"));
    char deep[JL_ERROR_PATH_MAX];
    CHECK(make_deep_dir(deep, sizeof deep, dir2, 490));
    jl_save_report report;
    CHECK(jl_world_save(&world, deep, &report) == JL_ERR_IO);
    CHECK(report.failed_count == 1 && report.deleted_count == 0);
    CHECK(report.error.status == JL_ERR_IO && strstr(report.error.message, "path too long"));
    char name[64];
    snprintf(name, sizeof name, "Entities/%llu.jasset", (unsigned long long)id);
    CHECK(strstr(report.error.message, name) != NULL);
    CHECK(world.manager.pending_count == 1 && world.manager.pending_deletions[0] == id);
    /* Still pending: the save into the world's own directory deletes it. */
    char path[512];
    entity_path(path, sizeof path, id);
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(report.deleted_count == 1 && !du_exists(path));
    CHECK(world.manager.pending_count == 0);
    finish();
}

/* ---- injected failures ---- */

/* Sets field of entity e to value, then saves with the file-system
 * operation op failing with errno code: the save fails saying message
 * (report in *report), and the entity stays dirty and its file as it was. */
static bool save_fails_keeping_the_file(jl_entity *e, const char *field, const char *value, int op, int code,
                                        const char *message, jl_save_report *report)
{
    char path[512];
    entity_path(path, sizeof path, e->id);
    size_t old_size = 0;
    char *old = du_read(path, &old_size);
    CHECK_OR_FALSE(old && jl_world_set_field(&world, e->id, field, value, strlen(value), NULL) == JL_OK);
    fault.fail_op = op;
    fault.fail_code = code;
    bool kept = jl_world_save(&world, dir, report) == JL_ERR_IO && report->error.status == JL_ERR_IO &&
                strstr(report->error.message, message) != NULL && e->is_dirty && file_equals(path, old, old_size);
    free(old);
    return kept;
}

TEST(failed_write_keeps_the_old_file_and_the_dirty_flag)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    jl_entity *light = first_of(&sample_light_class);
    jl_save_report report;
    CHECK(save_fails_keeping_the_file(light, "intensity", "9", JL_FS_OP_WRITE, ENOSPC, "no space left on device",
                                      &report));
    char path[512];
    entity_path(path, sizeof path, light->id);
    CHECK(strcmp(report.error.path, path) == 0);
    CHECK(report.written_count == 0 && report.failed_count == 1);
    CHECK(pu_count(dir) == 2); /* no temporary left behind */
    char entities[512];
    du_join(entities, sizeof entities, dir, "Entities");
    CHECK(pu_count(entities) == 36);
    /* The fault clears: the retry writes it. */
    fault.fail_op = -1;
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(report.written_count == 1 && !light->is_dirty);
    finish();
}

TEST(failed_rename_keeps_the_old_file_and_the_dirty_flag)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    jl_save_report report;
    CHECK(save_fails_keeping_the_file(first_of(&sample_prop_class), "density", "3.25", JL_FS_OP_RENAME, EIO,
                                      "rename failed", &report));
    finish();
}

TEST(failed_delete_stays_pending_until_a_save_succeeds)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    char path[512];
    const uint64_t id = remove_first_inert(path, sizeof path);
    CHECK(id != 0);
    fault.fail_op = JL_FS_OP_REMOVE;
    fault.fail_code = EACCES;
    jl_save_report report;
    CHECK(jl_world_save(&world, dir, &report) == JL_ERR_IO);
    CHECK(strstr(report.error.message, "permission denied") != NULL);
    CHECK(du_exists(path));
    CHECK(world.manager.pending_count == 1);
    fault.fail_op = -1;
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(!du_exists(path) && report.deleted_count == 1);
    finish();
}

TEST(failed_directory_sync_leaves_the_written_entities_dirty)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    jl_entity *light = first_of(&sample_light_class);
    CHECK(jl_world_set_field(&world, light->id, "cast_shadows", "false", 5, NULL) == JL_OK);
    fault.fail_op = JL_FS_OP_SYNC_DIR;
    fault.fail_code = EIO;
    CHECK(jl_world_save(&world, dir, NULL) == JL_ERR_IO);
    CHECK(light->is_dirty); /* the rename may not be durable: write it again next time */
    finish();
}

/* Fails each write-side operation of one save in turn (ENOSPC, EIO and
 * EACCES): the save never reports success, no file is left truncated, and a
 * retry writes everything. */
TEST(every_fault_point_of_a_save_is_reported_and_recoverable)
{
    static const int codes[] = {ENOSPC, EIO, EACCES};
    CHECK(start_loaded(ASSETS "/sample_world"));
    /* Count the operations of the reference save once. */
    char reference[256];
    CHECK(du_make_temp_dir(reference, sizeof reference, "test"));
    CHECK(du_copy_tree(dir, reference));
    finish();
    uint32_t ops = 0;
    for (uint32_t at = 1;; at++) {
        for (int c = 0; c < 3; c++) {
            CHECK(start_loaded(reference));
            jl_entity *light = first_of(&sample_light_class), *inert = first_of(&sample_inert_class);
            CHECK(jl_world_set_field(&world, light->id, "intensity", "0.5", 3, NULL) == JL_OK);
            uint64_t removed_id = inert->id;
            CHECK(jl_world_remove(&world, removed_id) == JL_OK);
            jl_entity *created = NULL;
            CHECK(jl_world_create(&world, "Prop", 1, 1, 1, &created) == JL_OK);
            CHECK(jl_world_settings_set(&world, "time_of_day", "18", 2, NULL) == JL_OK);
            fault.fail_at = at;
            fault.fail_code = codes[c];
            jl_status s = jl_world_save(&world, dir, NULL);
            if (fault.total < at) { /* the save had fewer operations: all covered */
                CHECK(s == JL_OK);
                ops = at - 1;
                finish();
                break;
            }
            CHECK(s != JL_OK);
            /* Every entity file on disk parses: old or new, never cut. Only the
             * removed entity may be gone; the new one may not be there yet. */
            jl_world check;
            CHECK(jli_world_init(&check, NULL) == JL_OK);
            CHECK(jl_world_load(&check, dir) == JL_OK);
            CHECK(jl_world_count(&check) >= 35 && jl_world_count(&check) <= 37);
            jli_world_shutdown(&check);
            /* Retry without the fault: everything lands. */
            fault.fail_at = 0;
            CHECK(jl_world_save(&world, dir, NULL) == JL_OK);
            CHECK(jli_world_init(&check, NULL) == JL_OK);
            CHECK(jl_world_load(&check, dir) == JL_OK);
            CHECK(jl_world_count(&check) == 36);
            CHECK(jl_world_find(&check, created->id) != NULL);
            CHECK(jl_world_find(&check, removed_id) == NULL);
            char text[JL_VALUE_TEXT_MAX];
            CHECK(jl_world_get_field(&check, light->id, "intensity", text, NULL) == JL_OK && strcmp(text, "0.5") == 0);
            CHECK(jl_world_settings_get(&check, "time_of_day", text, NULL) == JL_OK && strcmp(text, "18") == 0);
            jli_world_shutdown(&check);
            finish();
        }
        if (ops) break;
        CHECK(at < 100);
    }
    CHECK(ops >= 10); /* remove, 2 files x (open, write, sync, close, rename), dir syncs */
    du_remove_tree(reference);
    finish();
}

/* ---- loading ---- */

TEST(leftover_temporary_files_are_ignored_and_removed)
{
    CHECK(start(ASSETS "/sample_world"));
    char tmp[512], tmp2[512];
    du_join(tmp, sizeof tmp, dir, "Entities/123.jasset.tmp");
    du_join(tmp2, sizeof tmp2, dir, "WorldSettings.jasset.tmp");
    CHECK(du_write(tmp, "; id\n0x", 7));
    CHECK(du_write(tmp2, "; vers", 6));
    CHECK(jl_world_load(&world, dir) == JL_OK);
    CHECK(jl_world_count(&world) == 36);
    CHECK(jl_world_diagnostic_count(&world) == 0);
    CHECK(!du_exists(tmp) && !du_exists(tmp2));
    finish();
}

TEST(a_bad_file_does_not_stop_loading_the_rest)
{
    CHECK(start(ASSETS "/sample_world"));
    char bad[512];
    du_join(bad, sizeof bad, dir, "Entities/4294967297.jasset");
    static const char text[] = "; id\n0x0000000100000001\n; class\nInert\n; mesh_instance\nlots\n";
    CHECK(du_write(bad, text, sizeof text - 1));
    CHECK(jl_world_load(&world, dir) == JL_ERR_PARSE);
    CHECK(jl_world_count(&world) == 36);
    CHECK(jl_world_diagnostic_count(&world) == 1);
    CHECK(has_diagnostic(JL_ERR_PARSE, "4294967297.jasset", 6, "mesh_instance: expected a whole number"));
    CHECK(world.stats.files_failed == 1);
    finish();
}

TEST(a_file_that_failed_to_load_is_never_rewritten)
{
    CHECK(start(ASSETS "/sample_world"));
    char bad[512];
    du_join(bad, sizeof bad, dir, "Entities/4294967297.jasset");
    static const char text[] = "; id\n0x0000000100000001\n; class\nInert\n; mesh_instance\nlots\n";
    CHECK(du_write(bad, text, sizeof text - 1));
    CHECK(jl_world_load(&world, dir) == JL_ERR_PARSE);
    /* An entity with the same ID arrives another way and is saved. */
    static const char good[] = "; id\n0x0000000100000001\n; class\nInert\n";
    jl_entity *e = NULL;
    CHECK(jl_world_load_entity_text(&world, "paste", good, sizeof good - 1, true, &e, NULL) == JL_OK);
    jl_world_mark_all_dirty(&world);
    jl_save_report report;
    CHECK(jl_world_save(&world, dir, &report) == JL_ERR_IO);
    CHECK(report.failed_count == 1 && strcmp(report.error.path, bad) == 0);
    CHECK(report.written_count == 37);
    CHECK(file_equals(bad, text, sizeof text - 1));
    /* Nor deleted. */
    CHECK(jl_world_remove(&world, e->id) == JL_OK);
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(file_equals(bad, text, sizeof text - 1));
    finish();
}

TEST(duplicate_ids_are_reported_with_both_paths)
{
    CHECK(start(ASSETS "/malformed/worlds/duplicate_id"));
    CHECK(jl_world_load(&world, dir) == JL_ERR_DUPLICATE_ID);
    CHECK(jl_world_count(&world) == 1);
    char first[512];
    du_join(first, sizeof first, dir, "Entities/4294967297.jasset");
    CHECK(has_diagnostic(JL_ERR_DUPLICATE_ID, "4294967298.jasset", 4, first));
    finish();
}

TEST(file_name_must_be_the_decimal_id)
{
    CHECK(start(ASSETS "/malformed/worlds/name_mismatch"));
    CHECK(jl_world_load(&world, dir) == JL_ERR_PARSE);
    CHECK(jl_world_count(&world) == 0);
    CHECK(has_diagnostic(JL_ERR_PARSE, "4294967299.jasset", 4, "(expected 4294967297.jasset)"));
    finish();
}

TEST(references_to_missing_entities_are_reported)
{
    CHECK(start(ASSETS "/malformed/worlds/dangling_reference"));
    CHECK(jl_world_load(&world, dir) == JL_OK);
    CHECK(jl_world_check_references(&world) == 1);
    CHECK(has_diagnostic(JL_ERR_NOT_FOUND, "4294967299.jasset", 22, "missing entity 0x00000001000000ff"));
    /* The same problem asked of the site alone, adding no diagnostic. */
    const uint32_t diagnostics = jl_world_diagnostic_count(&world);
    jl_error err;
    bool found = false;
    for (uint32_t i = 0; i < jl_world_reference_count(&world); i++) {
        if (!jl_world_reference_missing(&world, i, &err)) continue;
        CHECK(!found && err.status == JL_ERR_NOT_FOUND && err.line == 22);
        CHECK(strstr(err.message, "missing entity 0x00000001000000ff") != NULL);
        found = true;
    }
    CHECK(found && jl_world_diagnostic_count(&world) == diagnostics);
    CHECK(!jl_world_reference_missing(&world, jl_world_reference_count(&world), &err));
    finish();
}

TEST(sample_world_references_all_resolve)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    CHECK(world.ref_count >= 3);
    CHECK(jl_world_check_references(&world) == 0);
    finish();
}

TEST(missing_world_directory_is_a_diagnostic)
{
    CHECK(start(NULL));
    char missing[512];
    du_join(missing, sizeof missing, dir, "nope");
    CHECK(jl_world_load(&world, missing) == JL_ERR_NOT_FOUND);
    CHECK(has_diagnostic(JL_ERR_NOT_FOUND, "nope", 0, "no such file or directory"));
    finish();
}

TEST(an_entity_file_that_is_a_directory_is_a_diagnostic)
{
    CHECK(start(ASSETS "/sample_world"));
    char sub[512];
    du_join(sub, sizeof sub, dir, "Entities/4294967297.jasset");
    CHECK(mkdir(sub, 0755) == 0);
    CHECK(jl_world_load(&world, dir) == JL_ERR_IO);
    CHECK(jl_world_count(&world) == 36);
    CHECK(has_diagnostic(JL_ERR_IO, "4294967297.jasset", 0, "is a directory"));
    finish();
}

TEST(read_only_entities_are_never_rewritten_or_removed)
{
    CHECK(start(ASSETS "/sample_world"));
    char src[512], dst[512];
    du_join(dst, sizeof dst, dir, "Entities/8589934594.jasset");
    snprintf(src, sizeof src, ASSETS "/compat/newer_class_version.jasset");
    size_t n = 0;
    char *text = du_read(src, &n);
    CHECK(text && du_write(dst, text, n));
    CHECK(jl_world_load(&world, dir) == JL_OK);
    CHECK(jl_world_is_read_only(&world, 0x0000000200000002ull));
    CHECK(jl_world_set_field(&world, 0x0000000200000002ull, "intensity", "2", 1, NULL) == JL_ERR_READ_ONLY);
    CHECK(jl_world_remove(&world, 0x0000000200000002ull) == JL_ERR_READ_ONLY);
    jl_world_mark_all_dirty(&world);
    jl_save_report report;
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(report.written_count == 37);
    CHECK(file_equals(dst, text, n));
    /* Destroyed behind the world's back, its file still stays. */
    CHECK(jl_entity_destroy(&world.manager, jl_world_find(&world, 0x0000000200000002ull)) == JL_OK);
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(report.deleted_count == 0);
    CHECK(file_equals(dst, text, n));
    free(text);
    finish();
}

TEST(unknown_keys_survive_a_save)
{
    CHECK(start(ASSETS "/sample_world"));
    char dst[512];
    du_join(dst, sizeof dst, dir, "Entities/8589934596.jasset");
    size_t n = 0;
    char *text = du_read(ASSETS "/compat/unknown_keys.jasset", &n);
    CHECK(text && du_write(dst, text, n));
    free(text);
    CHECK(jl_world_load(&world, dir) == JL_OK);
    uint32_t size = 0;
    const char *unknown = jl_world_unknown_keys(&world, 0x0000000200000004ull, &size);
    CHECK(unknown && size == strlen("; wind_factor\n0.3\n; tags\ncrate wooden\n"));
    CHECK(jl_world_set_field(&world, 0x0000000200000004ull, "density", "4", 1, NULL) == JL_OK);
    CHECK(jl_world_save(&world, dir, NULL) == JL_OK);
    text = du_read(dst, &n);
    CHECK(text && strstr(text, "; density\n4\n; is_static"));
    CHECK(text && strstr(text, "; parent\nnone\n; wind_factor\n0.3\n; tags\ncrate wooden\n"));
    free(text);
    finish();
}

/* ---- what the world keeps of its files: storage given back ---- */

/* An entity file for ID 0x0000000300000001 (a Prop whose parent is `parent`)
 * ending in unknown keys note0, note1, ... whose values hold `unknown_bytes`
 * bytes of 'x' in all, at most 4,000 per line; the text is malloc'd. */
static char *prop_with_unknown_keys(uint64_t parent, size_t unknown_bytes, size_t *size)
{
    const size_t room = 512 + unknown_bytes + 32 * (unknown_bytes / 4000 + 1);
    char *text = malloc(room);
    if (!text) return NULL;
    size_t n = (size_t)snprintf(text, room,
                                "; asset_type\nentity_instance\n; id\n0x0000000300000001\n; class\nProp\n"
                                "; version\n1\n; class_version\n1\n; position\n1 2 3\n; mesh_instance\nnone\n"
                                "; density\n1\n; is_static\nfalse\n; velocity\n0 0 0\n; parent\n0x%016llx\n",
                                (unsigned long long)parent);
    for (int key = 0; unknown_bytes; key++) {
        size_t line = unknown_bytes < 4000 ? unknown_bytes : 4000;
        n += (size_t)snprintf(text + n, room - n, "; note%d\n", key);
        memset(text + n, 'x', line);
        n += line;
        text[n++] = '\n';
        unknown_bytes -= line;
    }
    *size = n;
    return text;
}

enum { SMALL_STORAGE = 64 * 1024 };

TEST(reloading_an_entity_many_times_keeps_its_unknown_keys_and_references)
{
    /* Each reload keeps 2 KB; 2,000 of them would need 4 MB without the
     * storage of the last one coming back (and 2,000 pending deletions, 8
     * times what a world of 64 entities holds, without the entity coming
     * back cancelling its own). */
    jl_world *w = NULL;
    jl_world_desc desc = {.capacity = 64, .storage_bytes = SMALL_STORAGE};
    CHECK(jl_world_new(&desc, &w) == JL_OK);
    jl_entity *parent = NULL;
    CHECK(jl_world_create(w, "Inert", 0, 0, 0, &parent) == JL_OK);
    size_t size = 0;
    char *text = prop_with_unknown_keys(parent->id, 2000, &size);
    CHECK(text);
    const uint64_t id = 0x0000000300000001ull;
    CHECK(jl_world_load_entity_text(w, "Entities/12884901889.jasset", text, size, false, NULL, NULL) == JL_OK);
    const uint32_t sites = jl_world_reference_count(w);
    CHECK(sites == 1);
    bool ok = true;
    for (int i = 0; i < 2000 && ok; i++) {
        /* An undo: the entity goes, and comes back from its text. */
        ok = jl_world_remove(w, id) == JL_OK && jl_world_reference_count(w) == 0 &&
             jl_world_load_entity_text(w, "Entities/12884901889.jasset", text, size, true, NULL, NULL) == JL_OK;
        uint32_t kept = 0;
        const char *unknown = jl_world_unknown_keys(w, id, &kept);
        ok = ok && unknown && kept == 8 + 2000 + 1 && memcmp(unknown, "; note0\nxxx", 11) == 0;
        ok = ok && jl_world_reference_count(w) == sites && jl_world_manager(w)->pending_count == 0;
    }
    CHECK(ok);
    const jl_world_ref *site = jl_world_reference(w, 0);
    CHECK(site && site->target == parent->id && strcmp(site->path, "Entities/12884901889.jasset") == 0);
    CHECK(site->line == 22 && site->col == 1);
    CHECK(jl_world_check_references(w) == 0);
    /* What save writes still has the unknown key. */
    const char *written;
    size_t written_size;
    CHECK(jl_world_write_entity(w, id, &written, &written_size) == JL_OK);
    CHECK(written_size == size && memcmp(written, text, size) == 0);
    free(text);
    jl_world_free(w);
}

TEST(reloading_the_settings_many_times_keeps_their_unknown_keys)
{
    jl_world *w = NULL;
    jl_world_desc desc = {.storage_bytes = SMALL_STORAGE};
    CHECK(jl_world_new(&desc, &w) == JL_OK);
    static const char head[] = "; version\n1\n; spawn_point\n0x0000000000000007\n; weather\n";
    char text[sizeof head + 3000];
    memcpy(text, head, sizeof head - 1);
    memset(text + sizeof head - 1, 'r', 2999);
    text[sizeof head - 1 + 2999] = '\n';
    const size_t size = sizeof head - 1 + 3000;
    bool ok = true;
    for (int i = 0; i < 1000 && ok; i++)
        ok = jl_world_load_settings_text(w, "WorldSettings.jasset", text, size, i > 0, NULL) == JL_OK &&
             jl_world_reference_count(w) == 1;
    CHECK(ok);
    const char *written;
    size_t written_size;
    CHECK(jl_world_write_settings(w, &written, &written_size) == JL_OK);
    CHECK(written_size > 3000 && memcmp(written + written_size - 3010, "; weather\nrrr", 13) == 0);
    CHECK(jl_world_check_references(w) == 1); /* entity 7 does not exist: one site, not 1,000 */
    jl_world_free(w);
}

TEST(unknown_keys_that_do_not_fit_fail_the_load_with_an_error)
{
    jl_world *w = NULL;
    jl_world_desc desc = {.storage_bytes = SMALL_STORAGE};
    CHECK(jl_world_new(&desc, &w) == JL_OK);
    size_t size = 0;
    char *text = prop_with_unknown_keys(0, 100 * 1000, &size);
    CHECK(text);
    jl_error err = {0};
    jl_entity *e = (jl_entity *)&err;
    CHECK(jl_world_load_entity_text(w, "big.jasset", text, size, false, &e, &err) == JL_ERR_OUT_OF_MEMORY);
    CHECK(e == NULL && jl_world_count(w) == 0 && jl_world_find(w, 0x0000000300000001ull) == NULL);
    CHECK(strcmp(err.path, "big.jasset") == 0 && strstr(err.message, "unknown keys") != NULL);
    CHECK(jl_world_diagnostic_count(w) == 1 && jl_world_diagnostic(w, 0)->status == JL_ERR_OUT_OF_MEMORY);
    jl_error check;
    CHECK(jl_manager_check(jl_world_manager(w), &check) == JL_OK);
    /* The same text with a small unknown key still loads: nothing leaked. */
    free(text);
    text = prop_with_unknown_keys(0, 100, &size);
    CHECK(text && jl_world_load_entity_text(w, "small.jasset", text, size, false, &e, NULL) == JL_OK && e);
    free(text);
    jl_world_free(w);
}

TEST(a_world_file_whose_unknown_keys_do_not_fit_is_reported_and_never_rewritten)
{
    CHECK(start(ASSETS "/sample_world"));
    size_t size = 0;
    char *text = prop_with_unknown_keys(0, 100 * 1000, &size);
    char path[512];
    entity_path(path, sizeof path, 0x0000000300000001ull);
    CHECK(text && du_write(path, text, size));
    jl_world *w = NULL;
    jl_world_desc desc = {.storage_bytes = SMALL_STORAGE};
    CHECK(jl_world_new(&desc, &w) == JL_OK);
    CHECK(jl_world_load(w, dir) == JL_ERR_OUT_OF_MEMORY);
    CHECK(jl_world_count(w) == 36);
    const jl_error *d = jl_world_diagnostic(w, 0);
    CHECK(d && strcmp(d->path, path) == 0 && strstr(d->message, "storage"));
    jl_world_mark_all_dirty(w);
    jl_save_report report;
    CHECK(jl_world_save(w, dir, &report) == JL_OK);
    CHECK(report.written_count == 37);
    CHECK(file_equals(path, text, size));
    free(text);
    jl_world_free(w);
    finish();
}

/* ---- IDs ---- */

TEST(loaded_ids_advance_the_generator)
{
    CHECK(start(ASSETS "/sample_world"));
    /* The same tag as the sample's IDs: a session continuing that world. */
    jli_world_shutdown(&world);
    jl_world_desc desc = {.id_tag = 0x77a31d750000u}; /* 0x77a31d75 in the 48-bit tag form */
    CHECK(jli_world_init(&world, &desc) == JL_OK);
    CHECK(jl_world_load(&world, dir) == JL_OK);
    uint64_t max = 0;
    for (jl_entity *e = jl_entities_first(&world.manager); e; e = jl_entities_next(&world.manager, e))
        if (e->id > max) max = e->id;
    jl_entity *e = NULL;
    CHECK(jl_world_create(&world, "Inert", 0, 0, 0, &e) == JL_OK);
    CHECK(e->id > max);
    finish();
}

TEST(two_sessions_from_one_world_mint_disjoint_ids)
{
    CHECK(start(ASSETS "/sample_world"));
    jl_world other;
    CHECK(jli_world_init(&other, NULL) == JL_OK);
    CHECK(jl_world_load(&world, dir) == JL_OK);
    CHECK(jl_world_load(&other, dir) == JL_OK);
    CHECK(world.manager.id_tag != other.manager.id_tag); /* 2^-48 chance of a false failure */
    for (int i = 0; i < 1000; i++) {
        jl_entity *a = NULL, *b = NULL;
        CHECK(jl_world_create(&world, "Prop", 0, 0, 0, &a) == JL_OK);
        CHECK(jl_world_create(&other, "Prop", 0, 0, 0, &b) == JL_OK);
        CHECK(jl_world_find(&other, a->id) == NULL);
        CHECK(jl_world_find(&world, b->id) == NULL);
    }
    jli_world_shutdown(&other);
    finish();
}

/* ---- the field API and the dirty state machine ---- */

TEST(set_field_validates_exactly_like_the_file_reader)
{
    CHECK(start(NULL));
    jl_entity *e = NULL;
    CHECK(jl_world_create(&world, "Light", 0, 0, 0, &e) == JL_OK);
    e->is_dirty = false;
    jl_error err = {0};
    CHECK(jl_world_set_field(&world, e->id, "intensity", "inf", 3, &err) == JL_ERR_PARSE);
    CHECK(strstr(err.message, "infinity is not allowed here") != NULL);
    CHECK(jl_world_set_field(&world, e->id, "intensity", "2.5abc", 6, &err) == JL_ERR_PARSE);
    CHECK(err.col == 4);
    CHECK(JL_DOWNCAST(sample_light, e)->intensity == 1.0f); /* unchanged */
    CHECK(!e->is_dirty);
    CHECK(jl_world_set_field(&world, e->id, "radius", "inf", 3, &err) == JL_OK);
    CHECK(isinf(JL_DOWNCAST(sample_light, e)->radius));
    CHECK(e->is_dirty);
    CHECK(jl_world_set_field(&world, e->id, "brightness", "1", 1, &err) == JL_ERR_NOT_FOUND);
    CHECK(jl_world_set_field(&world, 12345, "radius", "1", 1, &err) == JL_ERR_NOT_FOUND);
    finish();
}

TEST(get_field_returns_canonical_text)
{
    CHECK(start(NULL));
    jl_entity *e = NULL;
    CHECK(jl_world_create(&world, "Prop", 0.5f, -1, 2, &e) == JL_OK);
    char out[JL_VALUE_TEXT_MAX];
    uint32_t n = 0;
    CHECK(jl_world_get_field(&world, e->id, "position", out, &n) == JL_OK);
    CHECK(strcmp(out, "0.5 -1 2") == 0 && n == 8);
    CHECK(jl_world_get_field(&world, e->id, "density", out, NULL) == JL_OK && strcmp(out, "1") == 0);
    CHECK(jl_world_get_field(&world, e->id, "mesh_instance", out, NULL) == JL_OK && strcmp(out, "none") == 0);
    CHECK(jl_world_get_field(&world, e->id, "parent", out, NULL) == JL_OK && strcmp(out, "none") == 0);
    CHECK(jl_world_get_field(&world, e->id, "class", out, NULL) == JL_OK && strcmp(out, "Prop") == 0);
    CHECK(jl_world_get_field(&world, e->id, "id", out, NULL) == JL_OK && strncmp(out, "0x", 2) == 0);
    CHECK(jl_world_get_field(&world, e->id, "nope", out, NULL) == JL_ERR_NOT_FOUND);
    finish();
}

TEST(write_entity_is_what_save_writes)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    jl_entity *e = first_of(&sample_inert_class); /* the one with an unknown key */
    const char *text;
    size_t size;
    CHECK(jl_world_write_entity(&world, e->id, &text, &size) == JL_OK);
    char path[512];
    entity_path(path, sizeof path, e->id);
    CHECK(file_equals(path, text, size));
    finish();
}

TEST(class_schema_gives_default_values_as_text)
{
    char out[JL_VALUE_TEXT_MAX];
    CHECK(jl_class_default_text(&sample_light_class, 0, out) == JL_OK && strcmp(out, "#ffffff") == 0);
    CHECK(jl_class_default_text(&sample_light_class, 2, out) == JL_OK && strcmp(out, "10") == 0);
    CHECK(jl_class_default_text(&sample_inert_class, 0, out) == JL_OK && strcmp(out, "none") == 0);
    CHECK(jl_class_default_text(&jl_world_settings_class, 0, out) == JL_OK && strcmp(out, "0 -9.81 0") == 0);
    CHECK(jl_class_default_text(&sample_inert_class, 1, out) == JL_ERR_NOT_FOUND);
    CHECK(strcmp(jl_field_type_name(sample_prop_class.fields[4].type), "entity_ref") == 0);
}

TEST(create_by_class_name_gives_a_dirty_entity_with_a_fresh_id)
{
    CHECK(start(NULL));
    jl_entity *a = NULL, *b = NULL;
    CHECK(jl_world_create(&world, "Inert", 1, 2, 3, &a) == JL_OK);
    CHECK(jl_world_create(&world, "Inert", 1, 2, 3, &b) == JL_OK);
    CHECK(a->id && b->id && a->id != b->id);
    CHECK(a->is_dirty && b->is_dirty);
    CHECK(a->position.x == 1 && a->position.w == 1);
    CHECK(jl_world_create(&world, "Lamp", 0, 0, 0, &a) == JL_ERR_UNKNOWN_CLASS);
    CHECK(a == NULL);
    finish();
}

TEST(dirty_flag_follows_the_spec_state_machine)
{
    CHECK(start(NULL));
    jl_entity *e = NULL;
    CHECK(jl_world_create(&world, "Light", 0, 0, 0, &e) == JL_OK);
    CHECK(e->is_dirty); /* created */
    CHECK(jl_world_save(&world, dir, NULL) == JL_OK);
    CHECK(!e->is_dirty); /* saved */
    CHECK(jl_world_set_field(&world, e->id, "color", "#102030", 7, NULL) == JL_OK);
    CHECK(e->is_dirty); /* mutated */
    CHECK(jl_world_save(&world, dir, NULL) == JL_OK);
    CHECK(!e->is_dirty);
    CHECK(jl_world_set_field(&world, e->id, "position", "4 5 6", 5, NULL) == JL_OK);
    CHECK(e->is_dirty);
    CHECK(jl_world_save(&world, dir, NULL) == JL_OK);
    uint64_t id = e->id;
    jl_world fresh;
    CHECK(jli_world_init(&fresh, NULL) == JL_OK);
    CHECK(jl_world_load(&fresh, dir) == JL_OK);
    jl_entity *loaded = jl_world_find(&fresh, id);
    CHECK(loaded && !loaded->is_dirty); /* loaded */
    CHECK(loaded->position.y == 5);
    jli_world_shutdown(&fresh);
    finish();
}

TEST(settings_load_save_and_validate)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    char out[JL_VALUE_TEXT_MAX];
    CHECK(jl_world_settings_get(&world, "gravity", out, NULL) == JL_OK && strcmp(out, "0 -9.81 0") == 0);
    jl_error err = {0};
    CHECK(jl_world_settings_set(&world, "gravity", "0 -9.81", 7, &err) == JL_ERR_PARSE);
    CHECK(!world.settings_dirty);
    CHECK(jl_world_settings_set(&world, "gravity", "0 -1.62 0", 9, &err) == JL_OK);
    CHECK(world.settings_dirty);
    jl_save_report report;
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(report.written_count == 1 && strstr(report.written[0], "WorldSettings.jasset"));
    char path[512];
    du_join(path, sizeof path, dir, "WorldSettings.jasset");
    char *text = du_read(path, NULL);
    CHECK(text && strncmp(text, "; version\n1\n; gravity\n0 -1.62 0\n", 32) == 0);
    free(text);
    finish();
}

TEST(settings_that_failed_to_load_are_never_replaced_or_rewritten)
{
    CHECK(start(ASSETS "/sample_world"));
    char path[512];
    du_join(path, sizeof path, dir, "WorldSettings.jasset");
    static const char broken[] = "; version\n1\n; gravity\n0 -9.81\n";
    CHECK(du_write(path, broken, sizeof broken - 1));
    CHECK(jl_world_load(&world, dir) == JL_ERR_PARSE);
    CHECK(world.settings_failed);
    /* Text that would load fine is refused: it would be saved over the file. */
    static const char good[] = "; version\n1\n; time_of_day\n18\n";
    jl_error err = {0};
    CHECK(jl_world_load_settings_text(&world, "paste", good, sizeof good - 1, false, &err) == JL_ERR_READ_ONLY);
    CHECK(err.status == JL_ERR_READ_ONLY && strstr(err.message, "read-only"));
    CHECK(world.settings_failed && !world.settings_dirty);
    CHECK(jl_world_settings_set(&world, "time_of_day", "18", 2, NULL) == JL_ERR_READ_ONLY);
    jl_world_mark_all_dirty(&world);
    jl_save_report report;
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(report.written_count == 36);
    CHECK(file_equals(path, broken, sizeof broken - 1));
    finish();
}

TEST(loading_the_same_directory_twice_keeps_its_files_writable)
{
    CHECK(start_loaded(ASSETS "/sample_world"));
    CHECK(jl_world_load(&world, dir) == JL_ERR_DUPLICATE_ID); /* every file again */
    CHECK(jl_world_count(&world) == 36);
    jl_entity *light = first_of(&sample_light_class);
    CHECK(jl_world_set_field(&world, light->id, "intensity", "6", 1, NULL) == JL_OK);
    jl_save_report report;
    CHECK(jl_world_save(&world, dir, &report) == JL_OK);
    CHECK(report.written_count == 1);
    finish();
}

TEST(shutdown_twice_is_harmless)
{
    jl_world w;
    CHECK(jli_world_init(&w, NULL) == JL_OK);
    jli_world_shutdown(&w);
    jli_world_shutdown(&w);
    jl_world zeroed = {0};
    jli_world_shutdown(&zeroed);
}

TEST(a_world_from_new_is_used_through_its_pointer_and_freed)
{
    jl_world *w = NULL;
    jl_world_desc desc = {.capacity = 64};
    CHECK(jl_world_new(&desc, &w) == JL_OK && w != NULL);
    CHECK(jl_world_load(w, ASSETS "/sample_world") == JL_OK);
    CHECK(jl_world_count(w) == 36 && jl_world_manager(w)->count == 36);
    CHECK(jl_world_settings_state(w) == 0);
    jl_world_settings_touch(w);
    CHECK(jl_world_settings_state(w) == JL_SETTINGS_DIRTY);
    jl_world_free(w);
    jl_world_free(NULL);
    desc.capacity = JL_MAX_CAPACITY + 1;
    w = (jl_world *)&desc;
    CHECK(jl_world_new(&desc, &w) == JL_ERR_INVALID_ARGUMENT && w == NULL);
}
