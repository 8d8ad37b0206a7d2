/* test_changes.c - change links (changes.h): the edits between two worlds
 * round trip and apply, conflicts are found by file print and never
 * applied silently, and hostile bytes are refused with a reason. */
#include <stdio.h>
#include <string.h>

#include "juliet/archive.h"
#include "juliet/changes.h"
#include "juliet/world.h"
#include "sample_world_gen.h"
#include "test.h"

#define SAMPLE JULIET_ASSETS_DIR "/sample_world"

enum {
    LIGHT = 0x77a31d750000001full, /* a Light of the sample world */
    INERT = 0x77a31d7500000001ull, /* an Inert of the sample world */
    OTHER = 0x77a31d7500000002ull,
    ADDED = 0x77a31d7500000999ull,
};

static const char added_text[] =
    "; asset_type\nentity_instance\n; id\n0x77a31d7500000999\n; class\nInert\n"
    "; version\n1\n; class_version\n1\n; position\n1 2 3\n; mesh_instance\n7\n";

static jl_world *load(const char *dir)
{
    jl_world_desc desc = {.capacity = 1000};
    jl_world *w = NULL;
    if (jl_world_new(&desc, &w) != JL_OK) return NULL;
    if (jl_world_load(w, dir) != JL_OK || jl_world_diagnostic_count(w)) {
        jl_world_free(w);
        return NULL;
    }
    return w;
}

static bool set(jl_world *w, uint64_t id, const char *field, const char *value)
{
    return jl_world_set_field(w, id, field, value, strlen(value), NULL) == JL_OK;
}

/* The sample world with four edits: a changed light, a changed setting, an
 * added entity and a deleted one. */
static jl_world *edited(void)
{
    jl_world *w = load(SAMPLE);
    if (!w) return NULL;
    jl_error err = {0};
    bool ok = set(w, LIGHT, "intensity", "9.5") && set(w, LIGHT, "position", "1 2 3") &&
              jl_world_settings_set(w, "time_of_day", "20", 2, &err) == JL_OK &&
              jl_world_restore_entity_text(w, ADDED, added_text, sizeof added_text - 1, &err) == JL_OK &&
              jl_world_remove(w, OTHER) == JL_OK;
    if (!ok) jl_world_free(w);
    return ok ? w : NULL;
}

static bool field_is(jl_world *w, uint64_t id, const char *field, const char *want)
{
    char out[JL_VALUE_TEXT_MAX];
    uint32_t size = 0;
    return jl_world_get_field(w, id, field, out, &size) == JL_OK && size == strlen(want) &&
           memcmp(out, want, size) == 0;
}

static jl_status ignore(void *ctx, const jl_entity_change *c)
{
    (void)ctx;
    (void)c;
    return JL_OK;
}

/* How many entities (and the settings) differ between a and b. */
static uint32_t count_diff(jl_world *a, jl_world *b, jl_arena *arena)
{
    uint32_t n = UINT32_MAX;
    return jl_world_diff(a, b, arena, ignore, NULL, &n) == JL_OK ? n : UINT32_MAX;
}

typedef struct tally {
    uint32_t conflicts[3]; /* by kind: added, removed, modified */
    uint64_t last_conflict;
} tally;

static void note(void *ctx, const jl_change_report *r)
{
    tally *t = ctx;
    if (r->outcome == JL_CHANGE_CONFLICT) {
        t->conflicts[r->kind]++;
        t->last_conflict = r->id;
    }
}

TEST(a_files_print_is_kept_through_edits_and_a_removal_and_a_new_entity_has_none)
{
    jl_world *w = load(SAMPLE);
    CHECK(w);
    const uint64_t print = jl_world_file_print(w, LIGHT);
    CHECK(print != 0 && jl_world_file_print(w, 0) != 0);
    CHECK(set(w, LIGHT, "intensity", "9.5"));
    CHECK(jl_world_file_print(w, LIGHT) == print);
    CHECK(jl_world_remove(w, LIGHT) == JL_OK);
    CHECK(jl_world_file_print(w, LIGHT) == print);
    jl_error err = {0};
    CHECK(jl_world_restore_entity_text(w, ADDED, added_text, sizeof added_text - 1, &err) == JL_OK);
    CHECK(jl_world_file_print(w, ADDED) == 0 && jl_world_file_print(w, 12345) == 0);
    jl_world_free(w);
}

TEST(the_edits_between_two_worlds_round_trip_and_apply)
{
    jl_arena arena;
    CHECK(jl_arena_init(&arena, 64u << 20) == JL_OK);
    jl_world *old = load(SAMPLE), *now = edited(), *target = load(SAMPLE);
    CHECK(old && now && target);
    jl_snapshot_bytes bytes;
    uint32_t count = 0;
    jl_error err = {0};
    CHECK(jl_changes_encode_worlds("sample_world", old, now, &arena, &bytes, &count, &err) == JL_OK);
    CHECK(count == 4);
    CHECK(bytes.size < 400);
    jl_changes c;
    CHECK(jl_changes_decode(bytes.data, bytes.size, &arena, &c, &err) == JL_OK);
    CHECK(c.world_size == 12 && memcmp(c.world, "sample_world", 12) == 0);
    CHECK(c.has_settings && c.settings.field_count == 1);
    CHECK(c.changed_count == 1 && c.changed[0].id == LIGHT && c.changed[0].field_count == 2);
    CHECK(c.changed[0].print == (uint32_t)jl_world_file_print(target, LIGHT));
    CHECK(c.added_count == 1 && c.added[0].id == ADDED && c.added[0].text_size > 0);
    CHECK(c.deleted_count == 1 && c.deleted[0].id == OTHER);
    CHECK(c.deleted[0].print == (uint32_t)jl_world_file_print(target, OTHER));

    uint32_t applied = 0, conflicts = 9, failed = 9;
    CHECK(jl_changes_apply(target, &c, 0, &arena, NULL, NULL, &applied, &conflicts, &failed) == JL_OK);
    CHECK(applied == 4 && conflicts == 0 && failed == 0);
    CHECK(field_is(target, LIGHT, "intensity", "9.5"));
    CHECK(count_diff(target, now, &arena) == 0);
    jl_world_free(old);
    jl_world_free(now);
    jl_world_free(target);
    jl_arena_release(&arena);
}

TEST(changed_fields_apply_over_the_entitys_current_state)
{
    jl_arena arena;
    CHECK(jl_arena_init(&arena, 64u << 20) == JL_OK);
    jl_world *old = load(SAMPLE), *now = load(SAMPLE), *target = load(SAMPLE);
    CHECK(old && now && target);
    CHECK(set(now, LIGHT, "intensity", "9.5"));
    /* The page's own pending edit of another field stays. */
    CHECK(set(target, LIGHT, "radius", "12"));
    jl_snapshot_bytes bytes;
    jl_changes c;
    CHECK(jl_changes_encode_worlds("w", old, now, &arena, &bytes, NULL, NULL) == JL_OK);
    CHECK(jl_changes_decode(bytes.data, bytes.size, &arena, &c, NULL) == JL_OK);
    uint32_t applied = 0, conflicts = 9;
    CHECK(jl_changes_apply(target, &c, 0, &arena, NULL, NULL, &applied, &conflicts, NULL) == JL_OK);
    CHECK(applied == 1 && conflicts == 0);
    CHECK(field_is(target, LIGHT, "intensity", "9.5") && field_is(target, LIGHT, "radius", "12"));
    jl_world_free(old);
    jl_world_free(now);
    jl_world_free(target);
    jl_arena_release(&arena);
}

TEST(an_entity_whose_file_changed_since_is_a_conflict_and_with_all_or_nothing_nothing_applies)
{
    jl_arena arena;
    CHECK(jl_arena_init(&arena, 64u << 20) == JL_OK);
    jl_world *old = load(SAMPLE), *now = edited(), *target = load(SAMPLE);
    CHECK(old && now && target);
    /* The target's file of the light holds another intensity: saved elsewhere. */
    CHECK(set(target, LIGHT, "intensity", "1.25"));
    CHECK(jl_world_mark_saved(target, LIGHT) == JL_OK);
    jl_snapshot_bytes bytes;
    jl_changes c;
    CHECK(jl_changes_encode_worlds("w", old, now, &arena, &bytes, NULL, NULL) == JL_OK);
    CHECK(jl_changes_decode(bytes.data, bytes.size, &arena, &c, NULL) == JL_OK);
    tally t = {0};
    uint32_t applied = 9, conflicts = 0;
    CHECK(jl_changes_apply(target, &c, JL_CHANGES_ALL_OR_NOTHING, &arena, note, &t, &applied, &conflicts, NULL) ==
          JL_OK);
    CHECK(applied == 0 && conflicts == 1 && t.conflicts[JL_CHANGE_MODIFIED] == 1 && t.last_conflict == LIGHT);
    CHECK(field_is(target, LIGHT, "intensity", "1.25") && jl_world_find(target, OTHER) &&
          !jl_world_find(target, ADDED));
    /* Without the flag, the rest applies and the conflict stays as it was. */
    CHECK(jl_changes_apply(target, &c, 0, &arena, NULL, NULL, &applied, &conflicts, NULL) == JL_OK);
    CHECK(applied == 3 && conflicts == 1);
    CHECK(field_is(target, LIGHT, "intensity", "1.25") && !jl_world_find(target, OTHER) &&
          jl_world_find(target, ADDED));
    jl_world_free(old);
    jl_world_free(now);
    jl_world_free(target);
    jl_arena_release(&arena);
}

TEST(an_added_id_that_is_taken_is_a_conflict_and_a_deleted_entity_already_gone_is_applied)
{
    jl_arena arena;
    CHECK(jl_arena_init(&arena, 64u << 20) == JL_OK);
    jl_world *old = load(SAMPLE), *now = edited(), *target = load(SAMPLE);
    CHECK(old && now && target);
    jl_error err = {0};
    CHECK(jl_world_restore_entity_text(target, ADDED, added_text, sizeof added_text - 1, &err) == JL_OK);
    CHECK(jl_world_remove(target, OTHER) == JL_OK);
    jl_snapshot_bytes bytes;
    jl_changes c;
    CHECK(jl_changes_encode_worlds("w", old, now, &arena, &bytes, NULL, NULL) == JL_OK);
    CHECK(jl_changes_decode(bytes.data, bytes.size, &arena, &c, NULL) == JL_OK);
    tally t = {0};
    uint32_t applied = 0, conflicts = 0;
    CHECK(jl_changes_apply(target, &c, 0, &arena, note, &t, &applied, &conflicts, NULL) == JL_OK);
    CHECK(conflicts == 1 && t.conflicts[JL_CHANGE_ADDED] == 1 && t.last_conflict == ADDED);
    CHECK(applied == 3);
    jl_world_free(old);
    jl_world_free(now);
    jl_world_free(target);
    jl_arena_release(&arena);
}

TEST(a_value_the_engine_refuses_fails_that_entity_only)
{
    jl_arena arena;
    CHECK(jl_arena_init(&arena, 64u << 20) == JL_OK);
    jl_world *target = load(SAMPLE);
    CHECK(target);
    char old_text[4096];
    const char *text;
    size_t size;
    CHECK(jl_world_write_entity(target, LIGHT, &text, &size) == JL_OK && size < sizeof old_text);
    memcpy(old_text, text, size);
    /* A new text whose intensity is not a number. */
    char new_text[4096];
    const char *at = strstr(old_text, "; intensity\n");
    CHECK(at);
    size_t head = (size_t)(at - old_text) + 12;
    const char *rest = strchr(old_text + head, '\n');
    int n = snprintf(new_text, sizeof new_text, "%.*sbright%.*s", (int)head, old_text,
                     (int)(size - (size_t)(rest - old_text)), rest);
    jl_change_input in = {
        .id = LIGHT, .old_text = old_text, .old_size = size, .new_text = new_text, .new_size = (size_t)n};
    jl_snapshot_bytes bytes;
    jl_changes c;
    CHECK(jl_changes_encode("w", &in, 1, &arena, &bytes, NULL, NULL) == JL_OK);
    CHECK(jl_changes_decode(bytes.data, bytes.size, &arena, &c, NULL) == JL_OK);
    CHECK(c.changed_count == 1 && c.changed[0].field_count == 1);
    uint32_t applied = 9, failed = 0;
    CHECK(jl_changes_apply(target, &c, 0, &arena, NULL, NULL, &applied, NULL, &failed) == JL_OK);
    CHECK(applied == 0 && failed == 1);
    CHECK(jl_world_write_entity(target, LIGHT, &text, &size) == JL_OK);
    CHECK(memcmp(text, old_text, size) == 0);
    jl_world_free(target);
    jl_arena_release(&arena);
}

TEST(one_edit_on_a_20000_entity_world_is_a_few_dozen_bytes)
{
    jl_arena arena;
    CHECK(jl_arena_init(&arena, 256u << 20) == JL_OK);
    jl_world_desc desc = {.capacity = 20000, .id_tag = sample_world_gen_tag(5)};
    jl_world *w = NULL;
    CHECK(jl_world_new(&desc, &w) == JL_OK);
    CHECK(sample_world_generate(w, 20000, 5) == JL_OK);
    jl_world_iter it = jl_world_iter_all(w);
    CHECK(jl_world_next(&it));
    const char *text;
    size_t size;
    CHECK(jl_world_write_entity(w, it.entity->id, &text, &size) == JL_OK);
    char *old_text = jl_arena_push(&arena, size, 1);
    memcpy(old_text, text, size);
    const size_t old_size = size;
    CHECK(jl_world_set_field(w, it.entity->id, "position", "1.5 2 -3", 8, NULL) == JL_OK);
    CHECK(jl_world_write_entity(w, it.entity->id, &text, &size) == JL_OK);
    jl_change_input in = {
        .id = it.entity->id, .old_text = old_text, .old_size = old_size, .new_text = text, .new_size = size};
    jl_snapshot_bytes bytes;
    CHECK(jl_changes_encode("level_20000", &in, 1, &arena, &bytes, NULL, NULL) == JL_OK);
    CHECK(bytes.size < 60);
    jl_world_free(w);
    jl_arena_release(&arena);
}

/* ---- hostile bytes ---- */

/* A change link of the bytes body[0, n) after magic and version, with its CRC. */
static size_t forge(uint8_t *out, uint8_t version, const uint8_t *body, size_t n)
{
    memcpy(out, "JLC", 3);
    out[3] = version;
    memcpy(out + 4, body, n);
    uint32_t crc = jl_crc32(out, n + 4);
    for (int b = 0; b < 4; b++) out[n + 4 + b] = (uint8_t)(crc >> (8 * b));
    return n + 8;
}

static jl_status decode_forged(const uint8_t *body, size_t n, uint8_t version, jl_error *err)
{
    static jl_arena arena;
    if (!arena.base && jl_arena_init(&arena, 16u << 20) != JL_OK) return JL_ERR_OUT_OF_MEMORY;
    uint8_t bytes[256];
    size_t size = forge(bytes, version, body, n);
    jl_changes c;
    const size_t mark = arena.used;
    jl_status s = jl_changes_decode(bytes, size, &arena, &c, err);
    if (s != JL_OK && arena.used != mark) return JL_ERR_INVALID_ARGUMENT; /* the arena must be as before */
    jl_arena_pop_to(&arena, mark);
    return s;
}

TEST(a_forged_link_decodes_and_an_empty_one_holds_nothing)
{
    /* flags 0, name "w", one changed entity 5 with print 1 and key a = b, nothing added or deleted. */
    const uint8_t body[] = {0, 1, 'w', 1, 5, 1, 0, 0, 0, 1, 1, 'a', 2, 'b', 0, 0};
    jl_error err = {0};
    CHECK(decode_forged(body, sizeof body, 1, &err) == JL_OK);
    const uint8_t empty[] = {0, 0, 0, 0, 0};
    CHECK(decode_forged(empty, sizeof empty, 1, &err) == JL_OK);
}

TEST(every_truncation_and_every_flipped_bit_of_a_link_is_refused_as_corrupt)
{
    jl_arena arena;
    CHECK(jl_arena_init(&arena, 64u << 20) == JL_OK);
    jl_world *old = load(SAMPLE), *now = edited();
    CHECK(old && now);
    jl_snapshot_bytes bytes;
    CHECK(jl_changes_encode_worlds("sample_world", old, now, &arena, &bytes, NULL, NULL) == JL_OK);
    uint8_t copy[1024];
    CHECK(bytes.size <= sizeof copy);
    for (size_t n = 0; n < bytes.size; n++) {
        jl_changes c;
        jl_error err = {0};
        CHECK(jl_changes_decode(bytes.data, n, &arena, &c, &err) == JL_ERR_CORRUPT);
    }
    for (size_t i = 0; i < bytes.size * 8; i++) {
        memcpy(copy, bytes.data, bytes.size);
        copy[i / 8] ^= (uint8_t)(1u << (i % 8));
        jl_changes c;
        jl_error err = {0};
        CHECK(jl_changes_decode(copy, bytes.size, &arena, &c, &err) == JL_ERR_CORRUPT);
        if (i >= 4 * 8) CHECK(strstr(err.message, "damaged (checksum mismatch)"));
    }
    jl_world_free(old);
    jl_world_free(now);
    jl_arena_release(&arena);
}

TEST(a_foreign_magic_and_another_version_are_refused_by_name)
{
    const uint8_t empty[] = {0, 0, 0, 0, 0};
    jl_error err = {0};
    CHECK(decode_forged(empty, sizeof empty, 2, &err) == JL_ERR_CORRUPT);
    CHECK(strstr(err.message, "format version 2, this build reads version 1"));
    uint8_t snapshot[] = {'J', 'L', 'W', 1, 0, 0, 0, 0};
    jl_arena arena;
    CHECK(jl_arena_init(&arena, 1u << 20) == JL_OK);
    jl_changes c;
    CHECK(jl_changes_decode(snapshot, sizeof snapshot, &arena, &c, &err) == JL_ERR_CORRUPT);
    CHECK(strstr(err.message, "change link byte 0: not a Juliet change link"));
    jl_arena_release(&arena);
}

TEST(a_value_with_a_line_break_or_a_key_that_is_no_key_is_refused_at_its_byte)
{
    /* Key a, value "b\n; id": it would smuggle a key into the file. */
    const uint8_t newline[] = {0, 0, 1, 5, 1, 0, 0, 0, 1, 1, 'a', 7, 'b', '\n', ';', ' ', 'i', 'd', 0, 0};
    jl_error err = {0};
    CHECK(decode_forged(newline, sizeof newline, 1, &err) == JL_ERR_CORRUPT);
    CHECK(strstr(err.message, "change link byte 16: a value with a line break"));
    const uint8_t bad_key[] = {0, 0, 1, 5, 1, 0, 0, 0, 1, 1, ' ', 2, 'b', 0, 0};
    CHECK(decode_forged(bad_key, sizeof bad_key, 1, &err) == JL_ERR_CORRUPT);
    CHECK(strstr(err.message, "not [A-Za-z0-9_]+"));
}

TEST(counts_past_what_the_bytes_can_hold_are_refused_before_any_memory_is_taken)
{
    /* A million changed entities in a dozen bytes. */
    const uint8_t many[] = {0, 0, 0x80, 0x80, 0x40, 5};
    jl_error err = {0};
    CHECK(decode_forged(many, sizeof many, 1, &err) == JL_ERR_CORRUPT);
    CHECK(strstr(err.message, "truncated: 1048576 changed entities cannot fit"));
    /* A key of 2^40 bytes. */
    const uint8_t huge[] = {0, 0, 1, 5, 1, 0, 0, 0, 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 'a', 0, 0};
    CHECK(decode_forged(huge, sizeof huge, 1, &err) == JL_ERR_CORRUPT);
    CHECK(strstr(err.message, "truncated: key needs"));
    /* Bytes after the lists. */
    const uint8_t extra[] = {0, 0, 0, 0, 0, 7};
    CHECK(decode_forged(extra, sizeof extra, 1, &err) == JL_ERR_CORRUPT);
    CHECK(strstr(err.message, "1 bytes after the lists"));
}

TEST(an_added_entity_whose_text_names_another_id_fails_and_touches_no_entity)
{
    jl_arena arena;
    CHECK(jl_arena_init(&arena, 16u << 20) == JL_OK);
    jl_world *target = load(SAMPLE);
    CHECK(target);
    const char *text;
    size_t size;
    CHECK(jl_world_write_entity(target, LIGHT, &text, &size) == JL_OK);
    char light_text[4096];
    CHECK(size < sizeof light_text);
    memcpy(light_text, text, size);
    /* The link adds entity ADDED with the light's text (its ID line says LIGHT). */
    char edited[4096];
    memcpy(edited, light_text, size);
    char *intensity = strstr(edited, "; intensity\n");
    CHECK(intensity);
    intensity[12] = '1'; /* another value, so that a silent overwrite would show */
    jl_change_input in = {.id = ADDED, .new_text = edited, .new_size = size};
    jl_snapshot_bytes bytes;
    jl_changes c;
    CHECK(jl_changes_encode("w", &in, 1, &arena, &bytes, NULL, NULL) == JL_OK);
    CHECK(jl_changes_decode(bytes.data, bytes.size, &arena, &c, NULL) == JL_OK);
    uint32_t applied = 9, failed = 0;
    CHECK(jl_changes_apply(target, &c, 0, &arena, NULL, NULL, &applied, NULL, &failed) == JL_OK);
    CHECK(applied == 0 && failed == 1 && !jl_world_find(target, ADDED));
    CHECK(jl_world_write_entity(target, LIGHT, &text, &size) == JL_OK && memcmp(text, light_text, size) == 0);
    jl_world_free(target);
    jl_arena_release(&arena);
}

TEST(inputs_in_any_order_come_out_by_id_and_an_id_given_twice_is_refused)
{
    jl_arena arena;
    CHECK(jl_arena_init(&arena, 16u << 20) == JL_OK);
    enum { N = 200 };
    static jl_change_input in[N];
    for (uint32_t i = 0; i < N; i++) {
        /* Descending, then interleaved: IDs (i * 7919) % N + 1, all distinct. */
        in[i] = (jl_change_input){.id = (uint64_t)((i * 7919u) % N) + 1, .old_text = "; a\n1\n", .old_size = 6};
    }
    jl_snapshot_bytes bytes;
    jl_changes c;
    jl_error err = {0};
    uint32_t count = 0;
    CHECK(jl_changes_encode("w", in, N, &arena, &bytes, &count, &err) == JL_OK && count == N);
    CHECK(jl_changes_decode(bytes.data, bytes.size, &arena, &c, &err) == JL_OK);
    CHECK(c.deleted_count == N);
    for (uint32_t i = 0; i < N; i++) CHECK(c.deleted[i].id == i + 1);
    in[1].id = in[0].id;
    CHECK(jl_changes_encode("w", in, N, &arena, &bytes, NULL, &err) == JL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "an ID given twice"));
    jl_arena_release(&arena);
}
