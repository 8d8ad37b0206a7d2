/* test_restore.c - an entity or the settings back to exactly what their
 * file holds is clean (world.h): edits set back, jl_world_restore_entity_text
 * and jl_world_restore_settings_text (undo and redo), a removed entity
 * coming back with its file, and a text that fails leaving everything as
 * it was. Every test works on a copy of assets/ in a temporary directory,
 * through the public API (and, white-box, the manager's pending deletions). */
#include "disk_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "juliet/archive.h"
#include "sample_classes.h"
#include "juliet/private/world_manager.h" /* white-box: the world's manager */
#include "juliet/world.h"
#include "test.h"

#define ASSETS JULIET_ASSETS_DIR

static jl_world *world;
static char dir[256];

/* A new world, loaded from dir if load. */
static bool open_world(bool load)
{
    jl_world_desc desc = {.capacity = 256};
    CHECK_OR_FALSE(jl_world_new(&desc, &world) == JL_OK);
    if (load) CHECK_OR_FALSE(jl_world_load(world, dir) == JL_OK);
    return true;
}

/* A world loaded from a fresh copy of source (NULL: an empty directory). */
static bool start(const char *source)
{
    CHECK_OR_FALSE(du_make_temp_dir(dir, sizeof dir, "restore"));
    if (source) CHECK_OR_FALSE(du_copy_tree(source, dir));
    return open_world(source != NULL);
}

/* The world dropped, unsaved, and loaded again from its files. */
static bool reload(void)
{
    jl_world_free(world);
    return open_world(true);
}

/* The copies text_of made, freed by finish. */
static char *copies[4];
static int copy_count;

static void finish(void)
{
    jl_world_free(world);
    world = NULL;
    du_remove_tree(dir);
    while (copy_count) free(copies[--copy_count]);
}

static jl_entity *first_of(const jl_class *cls)
{
    jl_world_iter it = jl_world_iter_class(world, cls);
    return jl_world_next(&it) ? it.entity : NULL;
}

/* A NUL-terminated copy of the canonical text of entity id (0: the
 * settings), valid until finish. */
static char *text_of(uint64_t id, size_t *size)
{
    const char *text;
    jl_status s = id ? jl_world_write_entity(world, id, &text, size) : jl_world_write_settings(world, &text, size);
    if (s != JL_OK || copy_count == (int)(sizeof copies / sizeof copies[0])) return NULL;
    char *copy = malloc(*size + 1);
    if (!copy) return NULL;
    copies[copy_count++] = copy;
    memcpy(copy, text, *size);
    copy[*size] = '\0'; /* for strstr */
    return copy;
}

/* The text of the entity start_with_text_of started on, as its file holds
 * it; valid until finish. */
static char *file_text;
static size_t file_size;

/* Starts on the sample world with file_text the text of its first entity of
 * class cls; returns that entity's ID (0 on failure). */
static uint64_t start_with_text_of(const jl_class *cls)
{
    if (!start(ASSETS "/sample_world")) return 0;
    const uint64_t id = first_of(cls)->id;
    file_text = text_of(id, &file_size);
    return file_text ? id : 0;
}

/* The value start_on_light read. */
static char was[JL_VALUE_TEXT_MAX];

/* Starts on the sample world; returns the ID of its first light, with the
 * text of its field in was; 0 on failure. */
static uint64_t start_on_light(const char *field)
{
    if (!start(ASSETS "/sample_world")) return 0;
    uint64_t id = first_of(&sample_light_class)->id;
    return jl_world_get_field(world, id, field, was, NULL) == JL_OK ? id : 0;
}

/* Sets a field of entity id from value (NUL-terminated); true if it took. */
static bool set(uint64_t id, const char *field, const char *value)
{
    return jl_world_set_field(world, id, field, value, strlen(value), NULL) == JL_OK;
}

/* The same for the settings. */
static bool set_setting(const char *field, const char *value)
{
    return jl_world_settings_set(world, field, value, strlen(value), NULL) == JL_OK;
}

static bool is_dirty(uint64_t id)
{
    const jl_entity *e = jl_world_find(world, id);
    return e && e->is_dirty;
}

static bool pending(uint64_t id)
{
    const jl_entity_manager *m = jl_world_manager(world);
    for (uint32_t i = 0; i < m->pending_count; i++)
        if (m->pending_deletions[i] == id) return true;
    return false;
}

/* Restores entity id to text[0, size) (NULL: removed); true if it took. */
static bool restore(uint64_t id, const char *text, size_t size)
{
    return jl_world_restore_entity_text(world, id, text, size, NULL) == JL_OK;
}

/* Saves and checks how many files were written and deleted. */
static bool saves(uint32_t written, uint32_t deleted)
{
    jl_save_report report;
    CHECK_OR_FALSE(jl_world_save(world, dir, &report) == JL_OK);
    CHECK_OR_FALSE(report.written_count == written && report.deleted_count == deleted);
    return true;
}

/* ---- edits set back ---- */

TEST(a_field_set_back_to_its_file_value_is_clean)
{
    const uint64_t id = start_on_light("intensity");
    char position[JL_VALUE_TEXT_MAX];
    CHECK(id && jl_world_get_field(world, id, "position", position, NULL) == JL_OK);
    CHECK(set(id, "intensity", "7.5") && is_dirty(id));
    CHECK(set(id, "intensity", was) && !is_dirty(id));
    CHECK(set(id, "position", "1 2 3") && is_dirty(id));
    CHECK(set(id, "position", position) && !is_dirty(id));
    /* Back to the same value typed another way: clean too. */
    char typed[JL_VALUE_TEXT_MAX + 8];
    snprintf(typed, sizeof typed, "%s%s", was, strchr(was, '.') ? "0" : ".0");
    CHECK(set(id, "intensity", "7.5") && is_dirty(id));
    CHECK(set(id, "intensity", typed) && !is_dirty(id));
    CHECK(saves(0, 0));
    CHECK(set(id, "intensity", "7.5"));
    CHECK(saves(1, 0));
    finish();
}

TEST(a_set_that_changes_nothing_still_marks_the_entity_dirty)
{
    /* Spec 6.3: any change through the API marks it (a save rewrites it). */
    const uint64_t id = start_on_light("radius");
    CHECK(id);
    CHECK(set(id, "radius", was) && is_dirty(id));
    CHECK(set(id, "radius", was) && is_dirty(id));
    CHECK(set_setting("time_of_day", "12"));
    CHECK(jl_world_settings_state(world) == JL_SETTINGS_DIRTY);
    CHECK(saves(2, 0));
    finish();
}

TEST(an_edit_set_back_on_a_file_not_in_canonical_form_is_clean_and_the_file_kept)
{
    CHECK(start(ASSETS "/sample_world"));
    /* CRLF, blank lines, keys out of order: what a hand edit leaves. */
    size_t size = 0;
    char *bytes = du_read(ASSETS "/compat/tolerated.jasset", &size);
    char path[512];
    CHECK(bytes && jl_world_entity_path(path, sizeof path, dir, 0x0000000200000005ull));
    CHECK(du_write(path, bytes, size));
    CHECK(reload());
    const uint64_t id = 0x0000000200000005ull;
    CHECK(!is_dirty(id));
    CHECK(set(id, "density", "2") && is_dirty(id));
    CHECK(set(id, "density", "0.75") && !is_dirty(id));
    CHECK(saves(0, 0));
    size_t now_size = 0;
    char *now = du_read(path, &now_size);
    CHECK(now && now_size == size && memcmp(now, bytes, size) == 0);
    free(now);
    free(bytes);
    finish();
}

TEST(an_entity_saved_then_edited_back_is_clean)
{
    CHECK(start(NULL));
    jl_entity *e = NULL;
    CHECK(jl_world_create(world, "Prop", 1, 2, 3, &e) == JL_OK);
    const uint64_t id = e->id;
    CHECK(set(id, "density", "1") && is_dirty(id)); /* no file yet */
    CHECK(saves(1, 0));                             /* the settings are still the defaults: no file */
    CHECK(set(id, "density", "3") && is_dirty(id));
    CHECK(set(id, "density", "1") && !is_dirty(id));
    finish();
}

TEST(a_setting_set_back_to_its_file_value_is_clean)
{
    CHECK(start(ASSETS "/sample_world"));
    CHECK(set_setting("time_of_day", "18"));
    CHECK(jl_world_settings_state(world) & JL_SETTINGS_DIRTY);
    CHECK(reload());
    char time_of_day[JL_VALUE_TEXT_MAX];
    CHECK(jl_world_settings_get(world, "time_of_day", time_of_day, NULL) == JL_OK);
    CHECK(set_setting("time_of_day", "18"));
    CHECK(set_setting("time_of_day", time_of_day));
    CHECK(jl_world_settings_state(world) == 0);
    CHECK(saves(0, 0));
    finish();
}

TEST(settings_of_a_world_without_a_settings_file_set_back_write_no_file)
{
    CHECK(start(NULL));
    CHECK(set_setting("gravity", "0 -1 0"));
    CHECK(jl_world_settings_state(world) == JL_SETTINGS_DIRTY);
    CHECK(set_setting("gravity", "0 -9.81 0"));
    CHECK(jl_world_settings_state(world) == 0);
    CHECK(saves(0, 0));
    finish();
}

TEST(mark_all_dirty_forgets_the_files_so_everything_is_rewritten)
{
    const uint64_t id = start_on_light("intensity");
    CHECK(id);
    CHECK(set(id, "intensity", "7.5"));
    jl_world_mark_all_dirty(world);
    CHECK(set(id, "intensity", was) && is_dirty(id));
    CHECK(saves(37, 0));
    finish();
}

/* ---- restoring an entity ---- */

TEST(restoring_the_same_text_after_a_removal_is_clean_and_cancels_the_deletion)
{
    const uint64_t id = start_with_text_of(&sample_prop_class);
    CHECK(id);
    CHECK(jl_world_remove(world, id) == JL_OK && pending(id));
    CHECK(restore(id, file_text, file_size));
    CHECK(jl_world_find(world, id) && !is_dirty(id) && !pending(id));
    char path[512];
    CHECK(jl_world_entity_path(path, sizeof path, dir, id));
    CHECK(saves(0, 0) && du_exists(path));
    finish();
}

TEST(restoring_other_text_is_dirty_and_the_file_text_again_is_clean)
{
    size_t changed_size = 0;
    const uint64_t id = start_with_text_of(&sample_light_class);
    CHECK(id && set(id, "cast_shadows", "false"));
    char *changed = text_of(id, &changed_size);
    CHECK(changed);
    /* Undo, redo, undo. */
    CHECK(restore(id, file_text, file_size) && !is_dirty(id));
    CHECK(restore(id, changed, changed_size) && is_dirty(id));
    char value[JL_VALUE_TEXT_MAX];
    CHECK(jl_world_get_field(world, id, "cast_shadows", value, NULL) == JL_OK && strcmp(value, "false") == 0);
    CHECK(restore(id, file_text, file_size) && !is_dirty(id));
    CHECK(saves(0, 0));
    CHECK(restore(id, changed, changed_size));
    CHECK(saves(1, 0));
    finish();
}

TEST(restoring_no_text_removes_and_restoring_it_back_keeps_the_file)
{
    const uint64_t id = start_with_text_of(&sample_inert_class);
    CHECK(id);
    CHECK(restore(id, NULL, 0));
    CHECK(!jl_world_find(world, id) && pending(id));
    CHECK(restore(id, NULL, 0)); /* already gone */
    CHECK(restore(id, file_text, file_size) && !is_dirty(id));
    CHECK(saves(0, 0));
    finish();
}

TEST(a_restored_entity_whose_file_was_deleted_is_dirty)
{
    const uint64_t id = start_with_text_of(&sample_inert_class);
    CHECK(id && jl_world_remove(world, id) == JL_OK);
    CHECK(saves(0, 1));
    CHECK(restore(id, file_text, file_size) && is_dirty(id));
    CHECK(saves(1, 0));
    finish();
}

TEST(restoring_a_text_that_does_not_load_keeps_the_old_entity)
{
    CHECK(start(ASSETS "/sample_world"));
    jl_entity *light = first_of(&sample_light_class);
    const uint64_t id = light->id;
    CHECK(set(id, "intensity", "3"));
    size_t size = 0;
    char *text = text_of(id, &size);
    CHECK(text);
    /* A bad value on line 18: nothing changes, the error says where. */
    char *bad = malloc(size + 16);
    CHECK(bad);
    char *at = strstr(text, "; intensity\n3\n");
    CHECK(at);
    size_t head = (size_t)(at - text) + 12;
    memcpy(bad, text, head);
    memcpy(bad + head, "lots", 4);
    memcpy(bad + head + 4, at + 13, size - head - 1);
    size_t bad_size = size + 3;
    jl_error err = {0};
    CHECK(jl_world_restore_entity_text(world, id, bad, bad_size, &err) == JL_ERR_PARSE);
    CHECK(err.line == 16 && err.col == 1 && strstr(err.message, "intensity"));
    char expected_path[512];
    CHECK(jl_world_entity_path(expected_path, sizeof expected_path, dir, id));
    CHECK(strcmp(err.path, expected_path) == 0);
    CHECK(jl_world_find(world, id) == light && is_dirty(id) && JL_DOWNCAST(sample_light, light)->intensity == 3);
    /* A text of another entity is refused the same way. */
    const uint64_t other = first_of(&sample_prop_class)->id;
    CHECK(jl_world_restore_entity_text(world, other, text, size, &err) == JL_ERR_PARSE);
    CHECK(strstr(err.message, "not 0x") && jl_world_find(world, other));
    jl_error check;
    CHECK(jl_manager_check(jl_world_manager(world), &check) == JL_OK);
    CHECK(jl_world_count(world) == 36);
    free(bad);
    finish();
}

TEST(restoring_a_removed_entity_with_a_bad_text_leaves_its_deletion_pending)
{
    CHECK(start(ASSETS "/sample_world"));
    const uint64_t id = first_of(&sample_inert_class)->id;
    CHECK(jl_world_remove(world, id) == JL_OK);
    static const char broken[] = "; id\n0x77a31d7500000001\n; class\n9Lamp\n"; /* no class name */
    jl_error err = {0};
    CHECK(jl_world_restore_entity_text(world, id, broken, sizeof broken - 1, &err) != JL_OK);
    CHECK(!jl_world_find(world, id) && pending(id));
    CHECK(saves(0, 1));
    finish();
}

TEST(restoring_a_read_only_entity_is_refused)
{
    CHECK(start(ASSETS "/sample_world"));
    size_t size = 0;
    char *text = du_read(ASSETS "/compat/newer_class_version.jasset", &size);
    jl_entity *e = NULL;
    CHECK(text && jl_world_load_entity_text(world, NULL, text, size, false, &e, NULL) == JL_OK);
    jl_error err = {0};
    CHECK(jl_world_restore_entity_text(world, e->id, text, size, &err) == JL_ERR_READ_ONLY);
    CHECK(jl_world_restore_entity_text(world, e->id, NULL, 0, &err) == JL_ERR_READ_ONLY);
    CHECK(jl_world_restore_entity_text(world, 0, text, size, &err) == JL_ERR_INVALID_ARGUMENT);
    free(text);
    finish();
}

TEST(undoing_a_removal_many_times_keeps_one_pending_deletion_at_most)
{
    const uint64_t id = start_with_text_of(&sample_prop_class);
    CHECK(id);
    bool ok = true;
    for (int i = 0; i < 2000 && ok; i++) /* more than the pending list of 256 entities holds */
        ok = restore(id, NULL, 0) && jl_world_manager(world)->pending_count == 1 && restore(id, file_text, file_size) &&
             jl_world_manager(world)->pending_count == 0 && !is_dirty(id);
    CHECK(ok);
    CHECK(jl_world_reference_count(world) >= 3 && jl_world_check_references(world) == 0);
    finish();
}

/* ---- restoring the settings ---- */

TEST(restoring_the_settings_text_is_dirty_until_it_is_the_file_again)
{
    CHECK(start(ASSETS "/sample_world"));
    size_t size = 0, changed_size = 0;
    char *text = text_of(0, &size);
    CHECK(set_setting("ambient_color", "#102030"));
    char *changed = text_of(0, &changed_size);
    CHECK(text && changed);
    CHECK(jl_world_restore_settings_text(world, text, size, NULL) == JL_OK);
    CHECK(jl_world_settings_state(world) == 0);
    CHECK(jl_world_restore_settings_text(world, changed, changed_size, NULL) == JL_OK);
    CHECK(jl_world_settings_state(world) == JL_SETTINGS_DIRTY);
    /* A bad text changes nothing. */
    static const char bad[] = "; version\n1\n; time_of_day\nnoon\n";
    jl_error err = {0};
    CHECK(jl_world_restore_settings_text(world, bad, sizeof bad - 1, &err) == JL_ERR_PARSE);
    CHECK(err.line == 4 && strstr(err.path, "WorldSettings.jasset"));
    char value[JL_VALUE_TEXT_MAX];
    CHECK(jl_world_settings_get(world, "ambient_color", value, NULL) == JL_OK && strcmp(value, "#102030") == 0);
    CHECK(jl_world_settings_state(world) == JL_SETTINGS_DIRTY);
    CHECK(jl_world_restore_settings_text(world, NULL, 0, &err) == JL_ERR_INVALID_ARGUMENT);
    CHECK(jl_world_restore_settings_text(world, text, size, NULL) == JL_OK);
    CHECK(saves(0, 0));
    finish();
}

/* ---- files changed behind the world (jl_world_reload_file_text) ---- */

/* The name of entity id's file relative to the world ("Entities/<id>.jasset"). */
static const char *name_of(uint64_t id)
{
    static char name[64];
    snprintf(name, sizeof name, "Entities/%llu.jasset", (unsigned long long)id);
    return name;
}

TEST(a_file_name_is_its_decimal_id_and_nothing_else)
{
    CHECK(jl_world_id_of_file_name("123.jasset") == 123);
    CHECK(jl_world_id_of_file_name("18446744073709551615.jasset") == UINT64_MAX);
    CHECK(jl_world_id_of_file_name("18446744073709551616.jasset") == 0);
    CHECK(jl_world_id_of_file_name("0123.jasset") == 0);
    CHECK(jl_world_id_of_file_name("0.jasset") == 0);
    CHECK(jl_world_id_of_file_name(".jasset") == 0);
    CHECK(jl_world_id_of_file_name("12a.jasset") == 0);
    CHECK(jl_world_id_of_file_name("123.jasset.tmp") == 0);
    CHECK(jl_world_id_of_file_name("Entities/123.jasset") == 0);
    char path[64];
    CHECK(jl_world_entity_path(path, sizeof path, "w", 0x0000000100000001ull));
    CHECK(jl_world_id_of_file_name(path + strlen("w/Entities/")) == 0x0000000100000001ull);
}

TEST(a_file_changed_on_disk_replaces_its_entity_clean_dropping_its_edits)
{
    uint64_t named = 0;
    size_t changed_size = 0;
    const uint64_t id = start_with_text_of(&sample_light_class);
    CHECK(id && set(id, "cast_shadows", "false"));
    char *changed = text_of(id, &changed_size);
    CHECK(changed && restore(id, file_text, file_size) && set(id, "intensity", "9"));
    CHECK(jl_world_reload_file_text(world, name_of(id), changed, changed_size, &named, NULL) == JL_OK);
    CHECK(named == id && !is_dirty(id));
    char value[JL_VALUE_TEXT_MAX];
    CHECK(jl_world_get_field(world, id, "cast_shadows", value, NULL) == JL_OK && strcmp(value, "false") == 0);
    /* The new text is its file's: back to the old one is a change. */
    CHECK(restore(id, file_text, file_size) && is_dirty(id));
    CHECK(restore(id, changed, changed_size) && !is_dirty(id));
    CHECK(saves(0, 0));
    finish();
}

TEST(a_file_gone_on_disk_removes_its_entity_with_no_deletion_pending)
{
    uint64_t named = 0;
    const uint64_t id = start_with_text_of(&sample_prop_class);
    CHECK(id && jl_world_remove(world, id) == JL_OK && restore(id, file_text, file_size));
    CHECK(jl_world_reload_file_text(world, name_of(id), NULL, 0, &named, NULL) == JL_OK);
    CHECK(named == id && !jl_world_find(world, id) && !pending(id));
    /* Back by an undo: no file holds it any more. */
    CHECK(restore(id, file_text, file_size) && is_dirty(id));
    finish();
}

TEST(a_file_gone_that_was_none_of_the_worlds_changes_nothing)
{
    uint64_t named = 1;
    const uint64_t id = start_with_text_of(&sample_prop_class);
    CHECK(id);
    const uint32_t diagnostics = jl_world_diagnostic_count(world);
    static const char hi[] = "hi\n";
    CHECK(jl_world_reload_file_text(world, "Entities/junk2.jasset", hi, sizeof hi - 1, &named, NULL) == JL_ERR_PARSE);
    CHECK(jl_world_diagnostic_count(world) == diagnostics + 1);
    CHECK(jl_world_reload_file_text(world, "Entities/junk2.jasset", NULL, 0, &named, NULL) == JL_OK);
    CHECK(named == 0 && jl_world_diagnostic_count(world) == diagnostics + 1 && jl_world_find(world, id));
    finish();
}

TEST(a_changed_file_that_does_not_load_leaves_no_entity_and_is_never_deleted)
{
    uint64_t named = 0;
    const uint64_t id = start_with_text_of(&sample_prop_class);
    CHECK(id);
    const uint32_t diagnostics = jl_world_diagnostic_count(world);
    static const char bad[] = "; class\nNoSuchClass\n";
    jl_error err = {0};
    CHECK(jl_world_reload_file_text(world, name_of(id), bad, sizeof bad - 1, &named, &err) != JL_OK);
    CHECK(named == id && !jl_world_find(world, id) && !pending(id));
    CHECK(jl_world_diagnostic_count(world) == diagnostics + 1 && strstr(err.path, name_of(id) + 9));
    /* Removing it again (an undo and a delete) never deletes that file. */
    CHECK(restore(id, file_text, file_size) && jl_world_remove(world, id) == JL_OK);
    char path[512];
    CHECK(jl_world_entity_path(path, sizeof path, dir, id));
    CHECK(saves(0, 0) && du_exists(path));
    /* A text that loads later makes it an entity of the world again. */
    CHECK(jl_world_reload_file_text(world, name_of(id), file_text, file_size, NULL, NULL) == JL_OK && !is_dirty(id));
    CHECK(set(id, "density", "3") && saves(1, 0));
    finish();
}

TEST(a_changed_file_must_carry_the_id_its_name_says)
{
    uint64_t named = 0;
    const uint64_t id = start_with_text_of(&sample_prop_class);
    CHECK(id);
    jl_error err = {0};
    CHECK(jl_world_reload_file_text(world, name_of(id + 1), file_text, file_size, &named, &err) == JL_ERR_PARSE);
    CHECK(named == id + 1 && err.line > 0 && strstr(err.message, "not 0x"));
    CHECK(jl_world_find(world, id) && !jl_world_find(world, id + 1));
    CHECK(jl_world_reload_file_text(world, "Entities/0012.jasset", file_text, file_size, &named, &err) == JL_ERR_PARSE);
    CHECK(named == 0 && strcmp(err.path, "Entities/0012.jasset") == 0);
    CHECK(jl_world_reload_file_text(world, "notes.jasset", file_text, file_size, &named, &err) == JL_ERR_PARSE);
    finish();
}

TEST(a_settings_file_changed_on_disk_replaces_the_settings_or_fails_them)
{
    CHECK(start(ASSETS "/sample_world"));
    size_t size = 0;
    CHECK(set_setting("ambient_color", "#102030"));
    char *changed = text_of(0, &size);
    CHECK(changed && set_setting("time_of_day", "3"));
    CHECK(jl_world_reload_file_text(world, "WorldSettings.jasset", changed, size, NULL, NULL) == JL_OK);
    CHECK(jl_world_settings_state(world) == 0);
    char value[JL_VALUE_TEXT_MAX];
    CHECK(jl_world_settings_get(world, "ambient_color", value, NULL) == JL_OK && strcmp(value, "#102030") == 0);
    static const char bad[] = "; version\n1\n; time_of_day\nnoon\n";
    CHECK(jl_world_reload_file_text(world, "WorldSettings.jasset", bad, sizeof bad - 1, NULL, NULL) == JL_ERR_PARSE);
    CHECK(jl_world_settings_state(world) & JL_SETTINGS_FAILED);
    CHECK(!set_setting("time_of_day", "4"));
    CHECK(jl_world_reload_file_text(world, "WorldSettings.jasset", NULL, 0, NULL, NULL) == JL_OK);
    CHECK(jl_world_settings_state(world) == 0);
    CHECK(jl_world_settings_get(world, "time_of_day", value, NULL) == JL_OK && strcmp(value, "12") == 0);
    CHECK(saves(0, 0));
    finish();
}

/* ---- saves made elsewhere (jl_world_mark_saved) ---- */

TEST(an_entity_saved_elsewhere_is_clean_and_its_text_is_the_files)
{
    const uint64_t id = start_with_text_of(&sample_light_class);
    CHECK(id && set(id, "cast_shadows", "false"));
    CHECK(jl_world_mark_saved(world, id) == JL_OK && !is_dirty(id));
    CHECK(restore(id, file_text, file_size) && is_dirty(id));
    CHECK(set(id, "cast_shadows", "false") && !is_dirty(id));
    finish();
}

TEST(a_deletion_made_elsewhere_is_no_longer_pending)
{
    const uint64_t id = start_with_text_of(&sample_prop_class);
    CHECK(id && jl_world_remove(world, id) == JL_OK && pending(id));
    CHECK(jl_world_mark_saved(world, id) == JL_OK && !pending(id));
    CHECK(restore(id, file_text, file_size) && is_dirty(id));
    finish();
}

TEST(settings_saved_elsewhere_are_clean_and_their_text_is_the_files)
{
    CHECK(start(ASSETS "/sample_world"));
    size_t size = 0;
    char *text = text_of(0, &size);
    CHECK(text && set_setting("ambient_color", "#102030"));
    CHECK(jl_world_settings_mark_saved(world) == JL_OK && jl_world_settings_state(world) == 0);
    CHECK(jl_world_restore_settings_text(world, text, size, NULL) == JL_OK);
    CHECK(jl_world_settings_state(world) == JL_SETTINGS_DIRTY);
    CHECK(set_setting("ambient_color", "#102030") && jl_world_settings_state(world) == 0);
    finish();
}
