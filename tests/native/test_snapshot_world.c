/* test_snapshot_world.c - snapshots of whole worlds: a world that goes
 * through a snapshot saves byte-identical .jasset files, keeps unknown keys,
 * read-only flags, settings and reference sites, and a hostile world section
 * leaves the target as it was (snapshot.h, world.h). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, rmdir */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "juliet/snapshot.h"
#include "juliet/world.h"
#include "sample_classes.h"
#include "sample_world_gen.h"
#include "test.h"
#include "world/world_internal.h" /* jli_world_init: worlds embedded in the tests */

static jl_world source, target;
static jl_arena arena;

static bool setup(void)
{
    jl_world_desc a = {.capacity = 5000, .id_tag = sample_world_gen_tag(7)};
    jl_world_desc b = {.capacity = 5000, .id_tag = 0x51515151u};
    return jli_world_init(&source, &a) == JL_OK && jli_world_init(&target, &b) == JL_OK &&
           jl_arena_init(&arena, 256u << 20) == JL_OK;
}

static void teardown(void)
{
    jli_world_shutdown(&source);
    jli_world_shutdown(&target);
    jl_arena_release(&arena);
}

static const char future_entity[] =
    "; asset_type\nentity_instance\n; id\n0x0000000100000001\n; class\nProp\n; version\n1\n"
    "; class_version\n99\n; position\n1 2 3\n; mesh_instance\n5\n; hover_height\n2.5\n";

static const char entity_with_unknown_keys[] =
    "; asset_type\nentity_instance\n; id\n0x0000000100000002\n; class\nInert\n; version\n1\n"
    "; class_version\n1\n; position\n-4.25 0 8\n; mesh_instance\n7\n"
    "; lod_bias\n0.75\n; tags\nrock mossy \"big one\"\n";

static const char settings_with_unknown_key[] =
    "; version\n1\n; gravity\n0 -3.7 0\n; time_of_day\n18.5\n; fog_density\n0.02\n";

/* A generated world plus what only a world keeps: unknown keys of an
 * entity and of the settings, and an entity from a newer class version. */
static bool fill_source(uint32_t count)
{
    CHECK_OR_FALSE(sample_world_generate(&source, count, 7) == JL_OK);
    jl_error err = {0};
    CHECK_OR_FALSE(
        jl_world_load_entity_text(&source, NULL, future_entity, sizeof future_entity - 1, false, NULL, &err) == JL_OK);
    CHECK_OR_FALSE(jl_world_is_read_only(&source, 0x0000000100000001ull));
    CHECK_OR_FALSE(jl_world_load_entity_text(&source, NULL, entity_with_unknown_keys,
                                             sizeof entity_with_unknown_keys - 1, false, NULL, &err) == JL_OK);
    CHECK_OR_FALSE(jl_world_load_settings_text(&source, NULL, settings_with_unknown_key,
                                               sizeof settings_with_unknown_key - 1, false, &err) == JL_OK);
    CHECK_OR_FALSE(source.settings_record.unknown_size > 0);
    return true;
}

static bool make_temp_dir(char *out, size_t size, const char *label)
{
    snprintf(out, size, "/tmp/juliet_snapshot_%s_XXXXXX", label);
    return mkdtemp(out) != NULL;
}

/* Every file under dir/Entities and dir/WorldSettings.jasset of a equals
 * the one of b, and both have the same file names. */
static bool same_file(const char *a, const char *b)
{
    const jl_fs *fs = jl_fs_native();
    size_t mark = arena.used;
    char *da, *db;
    size_t sa, sb;
    CHECK_OR_FALSE(fs->read_file(fs, a, SIZE_MAX, &arena, &da, &sa, NULL) == 0);
    CHECK_OR_FALSE(fs->read_file(fs, b, SIZE_MAX, &arena, &db, &sb, NULL) == 0);
    bool same = sa == sb && memcmp(da, db, sa) == 0;
    if (!same) fprintf(stderr, "differs: %s vs %s\n", a, b);
    jl_arena_pop_to(&arena, mark);
    return same;
}

static bool same_tree(const char *a, const char *b, uint32_t *files)
{
    const jl_fs *fs = jl_fs_native();
    char pa[512], pb[512];
    snprintf(pa, sizeof pa, "%s/Entities", a);
    snprintf(pb, sizeof pb, "%s/Entities", b);
    size_t mark = arena.used;
    jl_fs_entry *ea, *eb;
    uint32_t na, nb;
    CHECK_OR_FALSE(fs->list_dir(fs, pa, &arena, &ea, &na) == 0);
    CHECK_OR_FALSE(fs->list_dir(fs, pb, &arena, &eb, &nb) == 0);
    CHECK_OR_FALSE(na == nb);
    for (uint32_t i = 0; i < na; i++) {
        CHECK_OR_FALSE(strcmp(ea[i].name, eb[i].name) == 0);
        char fa[1024], fb[1024];
        snprintf(fa, sizeof fa, "%s/%s", pa, ea[i].name);
        snprintf(fb, sizeof fb, "%s/%s", pb, eb[i].name);
        CHECK_OR_FALSE(same_file(fa, fb));
    }
    snprintf(pa, sizeof pa, "%s/WorldSettings.jasset", a);
    snprintf(pb, sizeof pb, "%s/WorldSettings.jasset", b);
    CHECK_OR_FALSE(same_file(pa, pb));
    jl_arena_pop_to(&arena, mark);
    *files = na + 1;
    return true;
}

/* The settings of a and b would be written the same (unknown keys included). */
static bool same_settings(jl_world *a, jl_world *b)
{
    const char *ta, *tb;
    size_t sa, sb;
    CHECK_OR_FALSE(jl_world_write_settings(a, &ta, &sa) == JL_OK);
    CHECK_OR_FALSE(jl_world_write_settings(b, &tb, &sb) == JL_OK);
    return sa == sb && memcmp(ta, tb, sa) == 0;
}

static void remove_tree(const char *dir)
{
    const jl_fs *fs = jl_fs_native();
    char path[512];
    snprintf(path, sizeof path, "%s/Entities", dir);
    size_t mark = arena.used;
    jl_fs_entry *entries;
    uint32_t count;
    if (fs->list_dir(fs, path, &arena, &entries, &count) == 0)
        for (uint32_t i = 0; i < count; i++) {
            char file[1024];
            snprintf(file, sizeof file, "%s/%s", path, entries[i].name);
            fs->remove(fs, file);
        }
    jl_arena_pop_to(&arena, mark);
    snprintf(path, sizeof path, "%s/WorldSettings.jasset", dir);
    fs->remove(fs, path);
    snprintf(path, sizeof path, "%s/Entities", dir);
    rmdir(path);
    rmdir(dir);
}

static jl_status encode(const jl_world *w, jl_snapshot_bytes *out)
{
    jl_error err = {0};
    jl_status st = jl_snapshot_encode_world(w, &arena, out, &err);
    if (st != JL_OK) fprintf(stderr, "encode: %s\n", err.message);
    return st;
}

/* bytes decoded into target; false, with the error printed, if that fails. */
static bool decoded(const jl_snapshot_bytes *bytes)
{
    jl_error err = {0};
    jl_status st = jl_snapshot_decode_world(bytes->data, bytes->size, &target, &err);
    if (st != JL_OK) fprintf(stderr, "decode: %s\n", err.message);
    return st == JL_OK;
}

/* source encoded (into *bytes, on the arena) and decoded into target. */
static bool through_a_snapshot(jl_snapshot_bytes *bytes) { return encode(&source, bytes) == JL_OK && decoded(bytes); }

/* The start of a test: source filled (fill_source(count)) and encoded
 * into *bytes. */
static bool filled_and_encoded(uint32_t count, jl_snapshot_bytes *bytes)
{
    CHECK_OR_FALSE(setup());
    CHECK_OR_FALSE(fill_source(count));
    return encode(&source, bytes) == JL_OK;
}

/* The same, then decoded into target. */
static bool filled_through_a_snapshot(uint32_t count)
{
    jl_snapshot_bytes bytes;
    return filled_and_encoded(count, &bytes) && decoded(&bytes);
}

TEST(world_through_a_snapshot_saves_byte_identical_files)
{
    CHECK(filled_through_a_snapshot(1000));
    CHECK(jl_world_count(&target) == jl_world_count(&source));

    char dir_a[256], dir_b[256];
    CHECK(make_temp_dir(dir_a, sizeof dir_a, "source"));
    CHECK(make_temp_dir(dir_b, sizeof dir_b, "decoded"));
    jl_world_mark_all_dirty(&source);
    CHECK(jl_world_save(&source, dir_a, NULL) == JL_OK);
    CHECK(jl_world_save(&target, dir_b, NULL) == JL_OK);
    uint32_t files = 0;
    CHECK(same_tree(dir_a, dir_b, &files));
    /* Every entity but the read-only one, plus the settings. */
    CHECK(files == 1000 + 1 + 1);
    remove_tree(dir_a);
    remove_tree(dir_b);
    teardown();
}

TEST(world_snapshot_keeps_unknown_keys_and_read_only_flags)
{
    CHECK(filled_through_a_snapshot(20));
    CHECK(jl_world_is_read_only(&target, 0x0000000100000001ull));
    CHECK(!jl_world_is_read_only(&target, 0x0000000100000002ull));
    uint32_t sa, sb;
    const char *ka = jl_world_unknown_keys(&source, 0x0000000100000002ull, &sa);
    const char *kb = jl_world_unknown_keys(&target, 0x0000000100000002ull, &sb);
    CHECK(ka && kb && sa == sb && memcmp(ka, kb, sa) == 0);
    CHECK(strstr(kb, "; tags\nrock mossy \"big one\"\n") != NULL);
    const jli_entity_record *rs = &source.settings_record, *rt = &target.settings_record;
    CHECK(rt->unknown_size == rs->unknown_size);
    CHECK(memcmp(jli_record_unknown(&target, rt), jli_record_unknown(&source, rs), rs->unknown_size) == 0);
    CHECK(same_settings(&target, &source));
    CHECK(target.settings_dirty);
    teardown();
}

TEST(world_snapshot_keeps_the_share_base_after_its_input_is_gone)
{
    CHECK(setup());
    CHECK(sample_world_generate(&source, 10, 7) == JL_OK);
    static const char base[] = "https://team.example/tools/juliet/";
    CHECK(jl_world_settings_set(&source, "share_base", base, sizeof base - 1, NULL) == JL_OK);
    jl_snapshot_bytes bytes;
    CHECK(encode(&source, &bytes) == JL_OK);
    /* The decoder reads a copy, overwritten once decoded: the world holds
     * its own bytes of the string, not the input's. */
    uint8_t *input = malloc(bytes.size);
    CHECK(input != NULL);
    memcpy(input, bytes.data, bytes.size);
    jl_error err = {0};
    CHECK(jl_snapshot_decode_world(input, bytes.size, &target, &err) == JL_OK);
    memset(input, 'x', bytes.size);
    char value[JL_VALUE_TEXT_MAX];
    const jl_status got = jl_world_settings_get(&target, "share_base", value, NULL);
    free(input); /* after the read: a store just before free may be left out */
    CHECK(got == JL_OK && strcmp(value, base) == 0);
    CHECK(same_settings(&target, &source));
    teardown();
}

TEST(decoded_world_encodes_to_the_same_bytes)
{
    jl_snapshot_bytes first, second;
    CHECK(filled_and_encoded(300, &first) && decoded(&first));
    CHECK(encode(&target, &second) == JL_OK);
    CHECK(first.size == second.size && memcmp(first.data, second.data, first.size) == 0);
    teardown();
}

/* The world path goes through .jasset text: awkward floats must survive it. */
TEST(awkward_floats_survive_the_world_path)
{
    CHECK(setup());
    jl_entity *e;
    CHECK(jl_world_create(&source, "Light", -0.0f, 1e-40f, 3.4028235e38f, &e) == JL_OK);
    sample_light *l = e->derived;
    l->radius = INFINITY;
    l->intensity = 0.1f + 0.2f;
    CHECK(jl_world_create(&source, "Prop", 16777217.0f, -1.17549435e-38f, 0.3f, &e) == JL_OK);
    sample_prop *p = e->derived;
    p->velocity = (jl_vec3){-0.0f, 1.0e-45f, 123456.789f};
    p->density = 7.0e-12f;
    jl_snapshot_bytes bytes;
    CHECK(through_a_snapshot(&bytes));
    for (jl_entity *a = jl_entities_first(&source.manager); a; a = jl_entities_next(&source.manager, a)) {
        jl_entity *b = jl_world_find(&target, a->id);
        CHECK(b && memcmp(&a->position, &b->position, sizeof(float) * 3) == 0);
        const jl_class *cls = a->derived_kind;
        for (uint32_t f = 0; f < cls->field_count; f++) {
            static const size_t size_of_type[JL_FIELD_TYPE_COUNT] = {
                [JL_FIELD_F32] = 4,   [JL_FIELD_INDEX] = 4, [JL_FIELD_BOOL] = sizeof(bool),
                [JL_FIELD_VEC3] = 12, [JL_FIELD_COLOR] = 3, [JL_FIELD_ENTITY_REF] = 8};
            uint32_t off = cls->fields[f].offset;
            CHECK(memcmp((char *)a->derived + off, (char *)b->derived + off, size_of_type[cls->fields[f].type]) == 0);
        }
    }
    teardown();
}

TEST(decoded_entities_are_dirty_so_a_save_writes_them)
{
    CHECK(filled_through_a_snapshot(5));
    for (jl_entity *e = jl_entities_first(&target.manager); e; e = jl_entities_next(&target.manager, e))
        CHECK(e->is_dirty);
    teardown();
}

static const char orphan_prop[] =
    "; asset_type\nentity_instance\n; id\n0x0000000100000003\n; class\nProp\n; version\n1\n"
    "; class_version\n1\n; position\n0 0 0\n; parent\n0x00000000deadbeef\n";

TEST(decoded_entities_keep_their_reference_sites)
{
    CHECK(setup());
    CHECK(fill_source(200));
    CHECK(jl_world_load_entity_text(&source, NULL, orphan_prop, sizeof orphan_prop - 1, false, NULL, NULL) == JL_OK);
    jl_snapshot_bytes bytes;
    CHECK(through_a_snapshot(&bytes));
    /* A site for each parent set in the source (its generated props were
     * made, not loaded, so it has sites for the loaded one only), and the
     * one parent that is not there is the one missing. */
    uint32_t parents = 0;
    for (jl_entity *e = jl_entities_first(&source.manager); e; e = jl_entities_next(&source.manager, e))
        parents += e->derived_kind == &sample_prop_class && JL_DOWNCAST(sample_prop, e)->parent != 0;
    CHECK(parents > 1 && jl_world_reference_count(&target) == parents);
    uint32_t missing = 0, orphan = 0;
    for (uint32_t i = 0; i < parents; i++) {
        const jl_world_ref *r = jl_world_reference(&target, i);
        CHECK(r);
        missing += jl_world_find(&target, r->target) == NULL;
        orphan += r->target == 0xdeadbeefull;
    }
    CHECK(missing == 1 && orphan == 1);
    CHECK(jl_world_check_references(&target) == 1);
    teardown();
}

TEST(manager_snapshot_decodes_into_a_world_with_default_settings)
{
    CHECK(setup());
    CHECK(fill_source(50));
    jl_snapshot_bytes bytes;
    CHECK(jl_snapshot_encode_manager(&source.manager, &arena, &bytes, NULL) == JL_OK);
    jl_error err = {0};
    CHECK(jl_snapshot_decode_world(bytes.data, bytes.size, &target, &err) == JL_OK);
    CHECK(jl_world_count(&target) == jl_world_count(&source));
    jl_world fresh;
    CHECK(jli_world_init(&fresh, NULL) == JL_OK);
    CHECK(memcmp(&target.settings, &fresh.settings, sizeof fresh.settings) == 0);
    jli_world_shutdown(&fresh);
    teardown();
}

TEST(world_decode_refuses_a_world_with_entities)
{
    jl_snapshot_bytes bytes;
    CHECK(filled_and_encoded(3, &bytes));
    CHECK(jl_world_create(&target, "Inert", 0, 0, 0, NULL) == JL_OK);
    jl_error err = {0};
    CHECK(jl_snapshot_decode_world(bytes.data, bytes.size, &target, &err) == JL_ERR_INVALID_ARGUMENT);
    CHECK(jl_world_count(&target) == 1);
    teardown();
}

/* The unknown keys of the last entity are the last bytes before the CRC:
 * replace them with a line a file could not hold. */
static void fix_crc(uint8_t *data, size_t size)
{
    uint32_t crc = jl_crc32(data, size - 4);
    for (int i = 0; i < 4; i++) data[size - 4 + i] = (uint8_t)(crc >> (8 * i));
}

TEST(hostile_unknown_keys_are_rejected_and_the_world_is_unchanged)
{
    CHECK(setup());
    /* One entity with unknown keys, made last so its text ends the stream. */
    jl_error err = {0};
    CHECK(jl_world_load_entity_text(&source, NULL, entity_with_unknown_keys, sizeof entity_with_unknown_keys - 1, false,
                                    NULL, &err) == JL_OK);
    CHECK(jl_world_create(&target, "Light", 0, 0, 0, NULL) == JL_OK);
    CHECK(jl_world_remove(&target, target.manager.entities[0].id) == JL_OK);
    jl_world_settings settings_before = target.settings;
    uint32_t pending_before = target.manager.pending_count;
    uint32_t diagnostics_before = jl_world_diagnostic_count(&target);

    jl_snapshot_bytes bytes;
    CHECK(encode(&source, &bytes) == JL_OK);
    static uint8_t buf[4096];
    CHECK(bytes.size < sizeof buf);
    memcpy(buf, bytes.data, bytes.size);
    /* "; lod_bias\n0.75\n; tags\n..." -> "; mesh_instance\n..." would be a
     * duplicate key: overwrite the start of the unknown keys with one. */
    const char *hit = NULL;
    for (size_t i = 0; i + 10 < bytes.size; i++)
        if (memcmp(buf + i, "; lod_bias\n", 11) == 0) hit = (const char *)buf + i;
    CHECK(hit != NULL);
    memcpy((char *)hit, "; id\n0x1\n  ", 11);
    fix_crc(buf, bytes.size);
    CHECK(jl_snapshot_decode_world(buf, bytes.size, &target, &err) == JL_ERR_CORRUPT);
    CHECK(strstr(err.message, "does not load") != NULL);
    CHECK(jl_world_count(&target) == 0);
    CHECK(target.manager.pending_count == pending_before);
    CHECK(jl_world_diagnostic_count(&target) == diagnostics_before);
    CHECK(memcmp(&target.settings, &settings_before, sizeof settings_before) == 0);
    teardown();
}

TEST(a_damaged_link_is_reported_as_damaged_before_its_content_is_read)
{
    jl_snapshot_bytes bytes;
    CHECK(filled_and_encoded(4, &bytes));
    static uint8_t buf[1 << 16];
    CHECK(bytes.size <= sizeof buf);
    /* Flip one bit of the class table: read first, the class name CRC it
     * lands in would name a class no build has. */
    memcpy(buf, bytes.data, bytes.size);
    buf[6] ^= 0x01;
    jl_error err = {0};
    CHECK(jl_snapshot_decode_world(buf, bytes.size, &target, &err) == JL_ERR_CORRUPT);
    CHECK(err.status == JL_ERR_CORRUPT);
    CHECK(strstr(err.message, "damaged (checksum mismatch)") != NULL);
    CHECK(jl_world_count(&target) == 0);
    teardown();
}

TEST(world_decode_rejects_truncations)
{
    jl_snapshot_bytes bytes;
    CHECK(filled_and_encoded(4, &bytes));
    for (size_t size = 0; size < bytes.size; size++) {
        jl_error err = {0};
        CHECK(jl_snapshot_decode_world(bytes.data, size, &target, &err) == JL_ERR_CORRUPT);
        CHECK(jl_world_count(&target) == 0);
    }
    teardown();
}

TEST(world_decode_rejects_another_settings_layout)
{
    CHECK(setup());
    jl_snapshot_bytes bytes;
    CHECK(encode(&source, &bytes) == JL_OK);
    static uint8_t buf[512];
    memcpy(buf, bytes.data, bytes.size);
    /* Empty world: magic(4) flags(1) classes(1), no IDs, class column(2),
     * 3 empty float columns in bit mode (3 each), flags column(2), then the
     * settings version and field CRC. */
    size_t at = 4 + 1 + 1 + 2 + 9 + 2;
    CHECK(buf[at] == jl_world_settings_class.version);
    buf[at + 1] ^= 0xff;
    fix_crc(buf, bytes.size);
    jl_error err = {0};
    CHECK(jl_snapshot_decode_world(buf, bytes.size, &target, &err) == JL_ERR_UNKNOWN_CLASS);
    CHECK(strstr(err.message, "world settings have other fields") != NULL);
    teardown();
}

/* ---- the fixtures of assets/snapshots (shared with the JS suites) ---- */

static bool read_asset(const char *relative, char **data, size_t *size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/snapshots/%s", JULIET_ASSETS_DIR, relative);
    const jl_fs *fs = jl_fs_native();
    int code = fs->read_file(fs, path, SIZE_MAX, &arena, data, size, NULL);
    if (code) fprintf(stderr, "cannot read %s\n", path);
    return code == 0;
}

static bool fixture_refused(const char *name, const char *stage, const char *status, const char *fragment)
{
    char relative[256];
    snprintf(relative, sizeof relative, "hostile/%s", name);
    char *data;
    size_t size;
    CHECK_OR_FALSE(read_asset(relative, &data, &size));
    jl_error err = {0};
    if (strcmp(stage, "decode") == 0) {
        jl_world world;
        CHECK_OR_FALSE(jli_world_init(&world, NULL) == JL_OK);
        jl_status st = jl_snapshot_decode_world((const uint8_t *)data, size, &world, &err);
        uint32_t count = jl_world_count(&world);
        jli_world_shutdown(&world);
        if (st == JL_OK || strcmp(jl_status_name(st), status) != 0 || !strstr(err.message, fragment))
            fprintf(stderr, "%s: got %s: %s\n", name, jl_status_name(st), err.message);
        CHECK_OR_FALSE(strcmp(jl_status_name(st), status) == 0);
        CHECK_OR_FALSE(strstr(err.message, fragment) != NULL);
        CHECK_OR_FALSE(count == 0);
        return true;
    }
    /* Links: base64url is this library's; inflate is the caller's, so for
     * that stage the text must at least get through base64url. */
    size_t text_size;
    const char *text = jl_snapshot_link_payload(data, size, &text_size);
    size_t capacity = jl_base64url_decoded_size_max(text_size) + 1;
    uint8_t *bytes = jl_arena_push(&arena, capacity, 1);
    CHECK_OR_FALSE(bytes != NULL);
    size_t got;
    jl_status st = jl_base64url_decode(text, text_size, bytes, capacity, &got, &err);
    if (strcmp(stage, "base64url") == 0) {
        CHECK_OR_FALSE(strcmp(jl_status_name(st), status) == 0);
        CHECK_OR_FALSE(strstr(err.message, fragment) != NULL);
    } else {
        CHECK_OR_FALSE(strcmp(stage, "inflate") == 0);
        CHECK_OR_FALSE(st == JL_OK);
    }
    return true;
}

TEST(every_hostile_fixture_is_refused_with_its_status_and_message)
{
    CHECK(jl_arena_init(&arena, 64u << 20) == JL_OK);
    char *table;
    size_t size;
    CHECK(read_asset("hostile/expected.tsv", &table, &size));
    uint32_t checked = 0;
    char *line = table;
    while (line < table + size) {
        char *end = memchr(line, '\n', (size_t)(table + size - line));
        if (!end) end = table + size;
        *end = '\0';
        if (line[0] && line[0] != '#') {
            char *fields[4] = {line, "", "", ""};
            int n = 1;
            for (char *p = line; *p && n < 4; p++)
                if (*p == '\t') {
                    *p = '\0';
                    fields[n++] = p + 1;
                }
            CHECK(n >= 3);
            size_t mark = arena.used;
            CHECK(fixture_refused(fields[0], fields[1], fields[2], fields[3]));
            jl_arena_pop_to(&arena, mark);
            checked++;
        }
        line = end + 1;
    }
    CHECK(checked >= 20);
    jl_arena_release(&arena);
}

/* The start of a test: the snapshot assets/snapshots/<relative> decoded
 * into target. */
static bool fixture_decoded(const char *relative)
{
    CHECK_OR_FALSE(setup());
    char *data;
    size_t size;
    CHECK_OR_FALSE(read_asset(relative, &data, &size));
    return jl_snapshot_decode_world((const uint8_t *)data, size, &target, NULL) == JL_OK;
}

/* Whether the target world saved into a fresh directory (named after
 * `name`) is the sample world byte for byte; `files` counts its files. */
static bool saves_as_sample_world(const char *name, uint32_t *files)
{
    char dir[256], sample[512];
    if (!make_temp_dir(dir, sizeof dir, name)) return false;
    snprintf(sample, sizeof sample, "%s/sample_world", JULIET_ASSETS_DIR);
    bool same = jl_world_save(&target, dir, NULL) == JL_OK && same_tree(sample, dir, files);
    remove_tree(dir);
    return same;
}

TEST(sample_world_fixture_saves_the_sample_world_byte_for_byte)
{
    CHECK(fixture_decoded("valid/sample_world.jsnap"));
    uint32_t files = 0;
    CHECK(saves_as_sample_world("fixture", &files));
    CHECK(files == jl_world_count(&target) + 1);
    teardown();
}

/* Settings fields are only ever appended: a link made before share_base
 * existed opens, with share_base empty, and saves the sample as it is. */
TEST(snapshot_made_before_share_base_opens_with_it_empty)
{
    CHECK(fixture_decoded("valid/sample_world_before_share_base.jsnap"));
    char value[JL_VALUE_TEXT_MAX];
    CHECK(jl_world_settings_get(&target, "share_base", value, NULL) == JL_OK);
    CHECK(strcmp(value, "\"\"") == 0);
    uint32_t files = 0;
    CHECK(saves_as_sample_world("before", &files));
    teardown();
}

/* Fails when the format or a class changes without the fixtures being
 * regenerated (assets/snapshots/make_fixtures.py). */
TEST(sample_world_encodes_to_its_fixture)
{
    CHECK(setup());
    char path[512];
    snprintf(path, sizeof path, "%s/sample_world", JULIET_ASSETS_DIR);
    CHECK(jl_world_load(&source, path) == JL_OK);
    jl_snapshot_bytes bytes;
    CHECK(encode(&source, &bytes) == JL_OK);
    char *data;
    size_t size;
    CHECK(read_asset("valid/sample_world.jsnap", &data, &size));
    CHECK(size == bytes.size && memcmp(data, bytes.data, size) == 0);
    teardown();
}

TEST(empty_world_fixture_decodes_to_no_entity)
{
    CHECK(fixture_decoded("valid/empty_world.jsnap"));
    CHECK(jl_world_count(&target) == 0);
    CHECK(target.settings_dirty);
    teardown();
}
