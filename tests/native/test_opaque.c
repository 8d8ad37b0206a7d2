/* test_opaque.c - entities of classes no build describes (world.h, "opaque
 * entities"): loaded under a per-world opaque class, their keys kept as
 * text and written back unchanged, moved, removed, restored, refused where
 * their fields would be needed, warned about, and carried by snapshots.
 * Every test works on a copy of assets/opaque_world (Grunt and Door files
 * beside two sample entities) in a temporary directory. */
#include "persist_util.h"

#include "juliet/archive.h"
#include "juliet/snapshot.h"
#include "juliet/private/world_manager.h" /* white-box: the world's manager */
#include "juliet/world.h"
#include "test.h"

static jl_world *world;
static char dir[256], dir2[256];

static const uint64_t enemy_id = 0x0000000200000001ull, door_id = 0x0000000200000003ull;

static bool start(void)
{
    CHECK_OR_FALSE(du_make_temp_dir(dir, sizeof dir, "opaque"));
    CHECK_OR_FALSE(du_copy_tree(ASSETS "/opaque_world", dir));
    CHECK_OR_FALSE(jl_world_new(NULL, &world) == JL_OK);
    CHECK_OR_FALSE(jl_world_load(world, dir) == JL_OK);
    return true;
}

static void finish(void)
{
    jl_world_free(world);
    world = NULL;
    du_remove_tree(dir);
    if (dir2[0]) du_remove_tree(dir2);
    dir2[0] = '\0';
}

static bool saves(uint32_t written, uint32_t deleted)
{
    jl_save_report report;
    CHECK_OR_FALSE(jl_world_save(world, dir, &report) == JL_OK);
    CHECK_OR_FALSE(report.written_count == written && report.deleted_count == deleted);
    return true;
}

static bool field_is(uint64_t id, const char *field, const char *expected)
{
    char text[JL_VALUE_TEXT_MAX];
    CHECK_OR_FALSE(jl_world_get_field(world, id, field, text, NULL) == JL_OK);
    if (strcmp(text, expected) != 0) fprintf(stderr, "%s: got '%s', expected '%s'\n", field, text, expected);
    return strcmp(text, expected) == 0;
}

static char *entity_file(uint64_t id, size_t *size)
{
    char path[512];
    if (!jl_world_entity_path(path, sizeof path, dir, id)) return NULL;
    return du_read(path, size);
}

TEST(an_unknown_class_loads_as_an_opaque_entity_with_real_base_fields)
{
    CHECK(start());
    CHECK(jl_world_count(world) == 5 && jl_world_diagnostic_count(world) == 0);
    const jl_entity *e = jl_world_find(world, enemy_id);
    CHECK(e && jl_class_is_opaque(e->derived_kind) && strcmp(e->derived_kind->name, "Grunt") == 0);
    CHECK(e->position.x == 4.0f && e->position.y == 0.0f && e->position.z == -2.5f && !e->is_dirty);
    /* One class per name, in the world's registry only. */
    const jl_class *enemy = jl_world_class_find(world, "Grunt", 5), *door = jl_world_class_find(world, "Door", 4);
    CHECK(enemy == e->derived_kind && door && door != enemy && jl_class_is_opaque(door));
    CHECK(jl_world_find(world, 0x0000000200000002ull)->derived_kind == enemy);
    CHECK(jl_class_find_by_name("Grunt", 5) == NULL);
    CHECK(!jl_class_is_opaque(jl_world_class_find(world, "Inert", 5)) && !jl_class_is_opaque(NULL));
    CHECK(jl_world_get_stats(world)->entities[enemy->kind] == 2);
    finish();
}

TEST(kept_keys_are_listed_in_file_order_and_read_as_their_text)
{
    CHECK(start());
    CHECK(jl_world_kept_key_count(world, enemy_id) == 3 && jl_world_kept_key_count(world, door_id) == 0);
    static const char *const keys[] = {"health", "loot", "target"};
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t size = 0;
        const char *key = jl_world_kept_key(world, enemy_id, i, &size);
        CHECK(key && size == strlen(keys[i]) && memcmp(key, keys[i], size) == 0);
    }
    uint32_t size = 7;
    CHECK(jl_world_kept_key(world, enemy_id, 3, &size) == NULL && size == 0);
    CHECK(field_is(enemy_id, "health", "100"));
    CHECK(field_is(enemy_id, "loot", "gold coins")); /* as the reader sees it: no blanks around */
    CHECK(field_is(enemy_id, "target", "0x77a31d7500000001"));
    CHECK(field_is(enemy_id, "class", "Grunt") && field_is(enemy_id, "position", "4 0 -2.5"));
    char text[JL_VALUE_TEXT_MAX];
    CHECK(jl_world_get_field(world, enemy_id, "armor", text, NULL) == JL_ERR_NOT_FOUND);
    finish();
}

TEST(a_load_warns_at_the_class_of_each_opaque_file)
{
    CHECK(start());
    CHECK(jl_world_warning_count(world) == 3);
    char expected[512];
    CHECK(jl_world_entity_path(expected, sizeof expected, dir, enemy_id));
    bool found = false;
    for (uint32_t i = 0; i < jl_world_warning_count(world); i++) {
        jl_error w;
        CHECK(jl_world_warning(world, i, &w));
        CHECK(w.line == 6 && w.col == 1 && strstr(w.message, "(kept as text)"));
        if (strcmp(w.path, expected) == 0) found = strcmp(w.message, "unknown class 'Grunt' (kept as text)") == 0;
    }
    CHECK(found);
    jl_error w;
    CHECK(!jl_world_warning(world, 3, &w));
    jl_world_clear_diagnostics(world);
    CHECK(jl_world_warning_count(world) == 0);
    finish();
}

TEST(an_unchanged_world_saves_no_file_and_a_full_rewrite_is_byte_identical)
{
    CHECK(start());
    CHECK(saves(0, 0));
    jl_world_mark_all_dirty(world);
    jl_save_report report;
    CHECK(jl_world_save(world, dir, &report) == JL_OK && report.written_count == 6);
    CHECK(pu_same_tree(dir, ASSETS "/opaque_world"));
    finish();
}

TEST(a_moved_opaque_entity_rewrites_its_position_and_keeps_the_rest)
{
    CHECK(start());
    size_t before_size = 0;
    char *before = entity_file(enemy_id, &before_size);
    CHECK(before);
    CHECK(jl_world_set_field(world, enemy_id, "position", "7 8 9", 5, NULL) == JL_OK);
    CHECK(jl_world_find(world, enemy_id)->is_dirty);
    CHECK(saves(1, 0));
    size_t after_size = 0;
    char *after = entity_file(enemy_id, &after_size);
    CHECK(after);
    /* The same text but for the position's value line. */
    char *at = strstr(before, "; position\n4 0 -2.5\n");
    CHECK(at);
    char expected[1024];
    int n = snprintf(expected, sizeof expected, "%.*s; position\n7 8 9\n%s", (int)(at - before), before,
                     at + strlen("; position\n4 0 -2.5\n"));
    CHECK(n > 0 && (size_t)n == after_size && memcmp(after, expected, after_size) == 0);
    free(before);
    free(after);
    /* Moved back: clean again, nothing to write. */
    CHECK(jl_world_set_field(world, enemy_id, "position", "4 0 -2.5", 8, NULL) == JL_OK);
    CHECK(saves(1, 0));
    CHECK(pu_same_tree(dir, ASSETS "/opaque_world"));
    finish();
}

TEST(a_set_of_a_kept_key_is_refused_and_changes_nothing)
{
    CHECK(start());
    jl_error err = {0};
    CHECK(jl_world_set_field(world, enemy_id, "health", "5", 1, &err) == JL_ERR_UNKNOWN_CLASS);
    CHECK(strstr(err.message, "class Grunt is unknown to this build") && strstr(err.message, "'health'"));
    CHECK(jl_world_set_field(world, enemy_id, "armor", "5", 1, &err) == JL_ERR_UNKNOWN_CLASS);
    CHECK(!jl_world_find(world, enemy_id)->is_dirty && field_is(enemy_id, "health", "100"));
    CHECK(jl_world_create(world, "Grunt", 0, 0, 0, NULL) == JL_ERR_UNKNOWN_CLASS);
    CHECK(saves(0, 0));
    finish();
}

TEST(a_removed_opaque_entity_loses_its_file_and_an_undo_brings_it_back)
{
    CHECK(start());
    const char *text;
    size_t size;
    CHECK(jl_world_write_entity(world, enemy_id, &text, &size) == JL_OK);
    char *copy = malloc(size);
    CHECK(copy);
    memcpy(copy, text, size);
    CHECK(jl_world_remove(world, enemy_id) == JL_OK);
    CHECK(jl_world_restore_entity_text(world, enemy_id, copy, size, NULL) == JL_OK);
    CHECK(jl_class_is_opaque(jl_world_find(world, enemy_id)->derived_kind) && field_is(enemy_id, "loot", "gold coins"));
    CHECK(saves(0, 0)); /* back to exactly its file */
    CHECK(jl_world_remove(world, enemy_id) == JL_OK);
    CHECK(saves(0, 1));
    size_t left = 0;
    char *gone = entity_file(enemy_id, &left);
    CHECK(gone == NULL);
    free(copy);
    finish();
}

TEST(a_file_out_of_order_is_written_in_canonical_order_with_its_kept_keys_in_theirs)
{
    CHECK(jl_world_new(NULL, &world) == JL_OK);
    static const char text[] = "; loot\nrope\n; class\nEnemy\n; id\n0x5\n; health\n3\n; position\n1 1 1\n";
    CHECK(jl_world_load_entity_text(world, NULL, text, sizeof text - 1, false, NULL, NULL) == JL_OK);
    const char *out;
    size_t size;
    CHECK(jl_world_write_entity(world, 5, &out, &size) == JL_OK);
    static const char expected[] =
        "; asset_type\nentity_instance\n; id\n0x0000000000000005\n; class\nEnemy\n"
        "; version\n1\n; class_version\n1\n; position\n1 1 1\n; loot\nrope\n; health\n3\n";
    CHECK(size == sizeof expected - 1 && memcmp(out, expected, size) == 0);
    CHECK(jl_world_warning_count(world) == 0); /* text from elsewhere: no file to warn about */
    finish();
}

TEST(more_unknown_classes_than_a_world_holds_fail_clearly)
{
    CHECK(jl_world_new(NULL, &world) == JL_OK);
    const uint32_t room = JL_CLASS_MAX - jl_world_class_count(world);
    char text[256];
    jl_error err = {0};
    for (uint32_t i = 0; i <= room; i++) {
        int n = snprintf(text, sizeof text, "; id\n0x%x\n; class\nKind%u\n", i + 1, i);
        jl_status s = jl_world_load_entity_text(world, "x.jasset", text, (size_t)n, false, NULL, &err);
        CHECK(s == (i < room ? JL_OK : JL_ERR_CAPACITY));
    }
    CHECK(jl_world_class_count(world) == JL_CLASS_MAX && jl_world_count(world) == room);
    CHECK(strcmp(err.path, "x.jasset") == 0 && err.line == 4 && err.col == 1);
    CHECK(strstr(err.message, "cannot keep it as text") && strstr(err.message, "at most 255"));
    /* A class already made still takes files. */
    CHECK(jl_world_load_entity_text(world, NULL, "; id\n0xffff\n; class\nKind0\n", 26, false, NULL, NULL) == JL_OK);
    finish();
}

TEST(a_class_value_that_is_no_class_name_is_still_an_unknown_class_error)
{
    CHECK(jl_world_new(NULL, &world) == JL_OK);
    static const char text[] = "; id\n0x5\n; class\nnot a name\n";
    jl_error err = {0};
    CHECK(jl_world_load_entity_text(world, "p.jasset", text, sizeof text - 1, false, NULL, &err) ==
          JL_ERR_UNKNOWN_CLASS);
    CHECK(err.line == 4 && strstr(err.message, "unknown class 'not a name'"));
    CHECK(jl_world_class_count(world) == jl_class_count());
    finish();
}

/* ---- snapshots ---- */

/* start(), then the world encoded into a new arena (the caller releases it). */
static bool start_encoded(jl_arena *arena, jl_snapshot_bytes *bytes)
{
    CHECK_OR_FALSE(start());
    CHECK_OR_FALSE(jl_arena_init(arena, (size_t)64 << 20) == JL_OK);
    jl_error err = {0};
    CHECK_OR_FALSE(jl_snapshot_encode_world(world, arena, bytes, &err) == JL_OK);
    return true;
}

TEST(a_snapshot_carries_opaque_entities_and_saves_the_same_files)
{
    jl_arena arena;
    jl_snapshot_bytes bytes;
    jl_error err = {0};
    CHECK(start_encoded(&arena, &bytes));
    jl_world *copy;
    CHECK(jl_world_new(NULL, &copy) == JL_OK);
    CHECK(jl_snapshot_decode_world(bytes.data, bytes.size, copy, &err) == JL_OK);
    CHECK(jl_world_count(copy) == 5 && jl_class_is_opaque(jl_world_find(copy, door_id)->derived_kind));
    /* Encoded again: the same bytes. */
    jl_snapshot_bytes again;
    CHECK(jl_snapshot_encode_world(copy, &arena, &again, &err) == JL_OK);
    CHECK(again.size == bytes.size && memcmp(again.data, bytes.data, bytes.size) == 0);
    CHECK(du_make_temp_dir(dir2, sizeof dir2, "opaque-copy"));
    du_remove_tree(dir2);
    jl_save_report report;
    CHECK(jl_world_save_new(copy, dir2, &report) == JL_OK);
    CHECK(pu_same_tree(dir2, ASSETS "/opaque_world"));
    jl_world_free(copy);
    /* A bare manager has nowhere to keep their text: refused, not dropped. */
    CHECK(jl_snapshot_encode_manager(jl_world_manager(world), &arena, &bytes, &err) == JL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "encode the world"));
    jl_arena_release(&arena);
    finish();
}

TEST(a_snapshot_whose_opaque_entity_does_not_load_leaves_the_world_empty)
{
    jl_arena arena;
    jl_snapshot_bytes bytes;
    jl_error err = {0};
    CHECK(start_encoded(&arena, &bytes));
    /* A hostile stream may name a class the target describes: "Door"
     * patched into "Prop" (as long), the checksum fixed. */
    uint8_t *patched = malloc(bytes.size);
    CHECK(patched);
    memcpy(patched, bytes.data, bytes.size);
    uint8_t *at = NULL;
    for (size_t i = 0; i + 4 <= bytes.size - 4; i++)
        if (memcmp(patched + i, "Door", 4) == 0) at = patched + i;
    CHECK(at);
    memcpy(at, "Prop", 4);
    uint32_t crc = jl_crc32(patched, bytes.size - 4);
    for (int b = 0; b < 4; b++) patched[bytes.size - 4 + b] = (uint8_t)(crc >> (8 * b));
    jl_world *copy;
    CHECK(jl_world_new(NULL, &copy) == JL_OK);
    CHECK(jl_snapshot_decode_world(patched, bytes.size, copy, &err) == JL_ERR_CORRUPT);
    CHECK(strstr(err.message, "not unknown to this build"));
    CHECK(jl_world_count(copy) == 0);
    jl_world_free(copy);
    free(patched);
    jl_arena_release(&arena);
    finish();
}
