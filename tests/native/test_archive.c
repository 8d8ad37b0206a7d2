/* test_archive.c - the .jasset tokenizer, reader and writer (archive.h):
 * the spec's in-place deserialization test, canonical writing, tolerated
 * input, every rejection of assets/malformed (status, line and column from
 * its expected.tsv), rollback of half-loaded files, migration and
 * newer-version files. */
#include "persist_util.h"

#include <math.h>

#include "juliet/archive.h"
#include "juliet/entity_manager.h"
#include "sample_classes.h"
#include "test.h"

static jl_arena scratch;
static jl_entity_manager manager;

static bool setup_scratch(void)
{
    jl_arena_release(&scratch);
    return jl_arena_init(&scratch, 64u << 20) == JL_OK;
}

/* A fresh scratch arena and an empty manager (desc NULL: the defaults). */
static bool start(const jl_manager_desc *desc) { return setup_scratch() && jl_manager_init(&manager, desc) == JL_OK; }

/* Tokenizes text and deserializes it into m; the error goes to err. */
static jl_status load_text(jl_entity_manager *m, const char *text, size_t size, const char *path, jl_error *err,
                           jl_entity **out)
{
    jl_archive ar;
    jl_status s = jl_archive_tokenize(&ar, &scratch, text, size, path, err);
    if (s != JL_OK) return s;
    return jl_entity_deserialize_in_place(m, &ar, out);
}

static const char *write_text(const jl_entity *e, size_t *size)
{
    jl_archive ar;
    jl_archive_begin_write(&ar, &scratch);
    if (jl_archive_write_entity(&ar, e, NULL, 0) != JL_OK) return NULL;
    const char *text;
    if (jl_archive_end_write(&ar, &text, size) != JL_OK) return NULL;
    return text;
}

/* The spec's TestInPlaceDeserialization (8.2). */
TEST(in_place_deserialization)
{
    jl_manager_desc desc = {.id_tag = 0x01000000u};
    CHECK(start(&desc));
    sample_inert *created = JL_MAKE_ENTITY(&manager, sample_inert, 12.5f, -44.0f, 108.2f);
    CHECK(created != NULL);
    created->mesh_instance = 42;
    jl_entity *original = created->base;
    uint64_t original_id = original->id;

    size_t size;
    const char *text = write_text(original, &size);
    CHECK(text != NULL);

    /* A fresh manager of the same session tag, as after a restart. */
    jl_manager_shutdown(&manager);
    CHECK(jl_manager_init(&manager, &desc) == JL_OK);
    jl_entity *loaded = NULL;
    jl_error err = {0};
    CHECK(load_text(&manager, text, size, "mem", &err, &loaded) == JL_OK);
    CHECK(loaded != NULL);
    CHECK(loaded->id == original_id);
    CHECK(jl_manager_mint_id(&manager) > original_id); /* the counter moved past the loaded ID */
    CHECK(loaded->position.x == 12.5f);
    CHECK(loaded->position.y == -44.0f);
    CHECK(loaded->position.z == 108.2f);
    CHECK(loaded->is_dirty == false);
    sample_inert *inert = JL_DOWNCAST(sample_inert, loaded);
    CHECK(inert != NULL);
    CHECK(inert->base == loaded);
    CHECK(inert->mesh_instance == 42);
    CHECK(jl_manager_check(&manager, &err) == JL_OK);
    jl_manager_shutdown(&manager);
}

TEST(writes_keys_in_canonical_order)
{
    jl_manager_desc desc = {.id_tag = 0x00000001u};
    CHECK(start(&desc));
    sample_light *light = JL_MAKE_ENTITY(&manager, sample_light, 0.43f, 0.32f, 1.56f);
    CHECK(light != NULL);
    light->color = (jl_color){0xff, 0xcc, 0x00};
    light->intensity = 2.5f;
    light->radius = INFINITY;
    light->cast_shadows = false;
    size_t size;
    const char *text = write_text(light->base, &size);
    CHECK(text != NULL);
    static const char expected[] =
        "; asset_type\nentity_instance\n"
        "; id\n0x0000000100000000\n"
        "; class\nLight\n"
        "; version\n1\n"
        "; class_version\n2\n"
        "; position\n0.43 0.32 1.56\n"
        "; color\n#ffcc00\n"
        "; intensity\n2.5\n"
        "; radius\ninf\n"
        "; cast_shadows\nfalse\n";
    /* The first minted ID of tag 1 may be ...00 or ...01: compare the rest. */
    char id_line[32];
    snprintf(id_line, sizeof id_line, "0x%016llx", (unsigned long long)light->base->id);
    char want[sizeof expected];
    memcpy(want, expected, sizeof expected);
    memcpy(strstr(want, "0x0000000100000000"), id_line, 18);
    CHECK(size == strlen(want));
    CHECK(memcmp(text, want, size) == 0);
    jl_manager_shutdown(&manager);
}

TEST(reads_keys_in_any_order_and_keeps_defaults_for_missing_ones)
{
    CHECK(start(NULL));
    static const char text[] = "; intensity\n4\n; class\nLight\n; id\n0x0000000500000001\n";
    jl_entity *e = NULL;
    jl_error err = {0};
    CHECK(load_text(&manager, text, sizeof text - 1, "mem", &err, &e) == JL_OK);
    sample_light *light = JL_DOWNCAST(sample_light, e);
    CHECK(light != NULL);
    CHECK(light->intensity == 4.0f);
    CHECK(light->radius == 10.0f); /* the class default */
    CHECK(light->cast_shadows == true);
    CHECK(light->color.r == 255 && light->color.g == 255 && light->color.b == 255);
    CHECK(e->position.x == 0 && e->position.y == 0 && e->position.z == 0 && e->position.w == 1.0f);
    jl_manager_shutdown(&manager);
}

TEST(tolerates_bom_crlf_blank_lines_trailing_spaces_and_no_final_newline)
{
    CHECK(start(NULL));
    size_t size;
    char *text = du_read(ASSETS "/compat/tolerated.jasset", &size);
    CHECK(text != NULL);
    jl_entity *e = NULL;
    jl_error err = {0};
    jl_status s = load_text(&manager, text, size, "tolerated.jasset", &err, &e);
    free(text);
    CHECK(s == JL_OK);
    sample_prop *prop = JL_DOWNCAST(sample_prop, e);
    CHECK(prop != NULL);
    CHECK(e->id == 0x0000000200000005ull);
    CHECK(e->position.x == 1.0f && e->position.y == 2.0f && e->position.z == 3.0f);
    CHECK(prop->density == 0.75f);
    CHECK(prop->mesh_instance == JL_INDEX_MAX);
    jl_manager_shutdown(&manager);
}

/* ---- every rejection of assets/malformed/expected.tsv ---- */

typedef struct expectation {
    char status[32];
    unsigned line, col;
    char message[256];
} expectation;

static bool find_expectation(const char *fixture, expectation *out)
{
    FILE *f = fopen(ASSETS "/malformed/expected.tsv", "r");
    if (!f) return false;
    char line[1024];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        line[strcspn(line, "\n")] = '\0';
        char *name = strtok(line, "\t"), *status = strtok(NULL, "\t"), *l = strtok(NULL, "\t"), *c = strtok(NULL, "\t"),
             *msg = strtok(NULL, "\t");
        if (!name || !status || !l || !c || !msg || strcmp(name, fixture) != 0) continue;
        snprintf(out->status, sizeof out->status, "%s", status);
        out->line = (unsigned)atoi(l);
        out->col = (unsigned)atoi(c);
        snprintf(out->message, sizeof out->message, "%s", msg);
        found = true;
    }
    fclose(f);
    return found;
}

/* Loads one fixture: it must fail exactly as expected.tsv says, leaving
 * the manager empty and consistent. */
static bool rejects_as_listed(const char *fixture)
{
    CHECK_OR_FALSE(start(NULL));
    expectation want;
    CHECK_OR_FALSE(find_expectation(fixture, &want));
    char path[512];
    snprintf(path, sizeof path, ASSETS "/malformed/%s", fixture);
    size_t size;
    char *text = du_read(path, &size);
    CHECK_OR_FALSE(text != NULL);
    jl_error err = {0};
    jl_entity *e = NULL;
    jl_status s = load_text(&manager, text, size, path, &err, &e);
    free(text);
    if (strcmp(jl_status_name(s), want.status) != 0 || err.line != want.line || err.col != want.col ||
        !strstr(err.message, want.message))
        fprintf(stderr, "%s: got %s %u:%u '%s', expected %s %u:%u '%s'\n", fixture, jl_status_name(s), err.line,
                err.col, err.message, want.status, want.line, want.col, want.message);
    CHECK_OR_FALSE(strcmp(jl_status_name(s), want.status) == 0);
    CHECK_OR_FALSE(err.line == want.line);
    CHECK_OR_FALSE(err.col == want.col);
    CHECK_OR_FALSE(strstr(err.message, want.message) != NULL);
    CHECK_OR_FALSE(strcmp(err.path, path) == 0);
    CHECK_OR_FALSE(e == NULL);
    CHECK_OR_FALSE(manager.count == 0); /* rolled back */
    CHECK_OR_FALSE(jl_manager_check(&manager, &err) == JL_OK);
    jl_manager_shutdown(&manager);
    return true;
}

TEST(rejects_a_key_without_value) { CHECK(rejects_as_listed("key_without_value.jasset")); }
TEST(rejects_a_duplicate_key) { CHECK(rejects_as_listed("duplicate_key.jasset")); }
TEST(rejects_a_missing_id) { CHECK(rejects_as_listed("missing_id.jasset")); }
TEST(rejects_a_missing_class) { CHECK(rejects_as_listed("missing_class.jasset")); }
TEST(rejects_an_unknown_class) { CHECK(rejects_as_listed("unknown_class.jasset")); }
TEST(rejects_a_number_out_of_range) { CHECK(rejects_as_listed("number_out_of_range.jasset")); }
TEST(rejects_an_index_out_of_range) { CHECK(rejects_as_listed("index_out_of_range.jasset")); }
TEST(rejects_trailing_junk) { CHECK(rejects_as_listed("trailing_junk.jasset")); }
TEST(rejects_nan) { CHECK(rejects_as_listed("nan.jasset")); }
TEST(rejects_inf_where_the_field_forbids_it) { CHECK(rejects_as_listed("inf_forbidden.jasset")); }
TEST(rejects_an_embedded_nul) { CHECK(rejects_as_listed("embedded_nul.jasset")); }
TEST(rejects_a_line_longer_than_the_limit) { CHECK(rejects_as_listed("line_too_long.jasset")); }
TEST(rejects_a_truncated_file) { CHECK(rejects_as_listed("truncated.jasset")); }
TEST(rejects_an_id_of_zero) { CHECK(rejects_as_listed("id_zero.jasset")); }
TEST(rejects_an_id_longer_than_64_bits) { CHECK(rejects_as_listed("id_too_long.jasset")); }
TEST(rejects_a_value_without_key) { CHECK(rejects_as_listed("value_without_key.jasset")); }
TEST(rejects_a_short_vector) { CHECK(rejects_as_listed("vector_too_short.jasset")); }
TEST(rejects_a_bad_color) { CHECK(rejects_as_listed("bad_color.jasset")); }
TEST(rejects_a_bad_bool) { CHECK(rejects_as_listed("bad_bool.jasset")); }
TEST(rejects_a_version_of_zero) { CHECK(rejects_as_listed("bad_version.jasset")); }
TEST(rejects_an_empty_file) { CHECK(rejects_as_listed("empty.jasset")); }
TEST(names_an_unresolved_merge_conflict) { CHECK(rejects_as_listed("merge_conflict.jasset")); }

TEST(every_malformed_fixture_is_listed_and_tested)
{
    DIR *d = opendir(ASSETS "/malformed");
    CHECK(d != NULL);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 7 || strcmp(e->d_name + n - 7, ".jasset") != 0) continue;
        expectation want;
        if (!find_expectation(e->d_name, &want)) fprintf(stderr, "%s is not in expected.tsv\n", e->d_name);
        CHECK(find_expectation(e->d_name, &want));
        files++;
    }
    closedir(d);
    CHECK(files == 22); /* one TEST above per file */
}

TEST(rejects_more_keys_than_the_limit)
{
    CHECK(setup_scratch());
    size_t cap = (JL_ARCHIVE_KEYS_MAX + 10) * 16 + 64, n = 0;
    char *text = malloc(cap);
    for (int i = 0; i <= JL_ARCHIVE_KEYS_MAX; i++) n += (size_t)snprintf(text + n, cap - n, "; k%d\n1\n", i);
    jl_archive ar;
    jl_error err = {0};
    jl_status s = jl_archive_tokenize(&ar, &scratch, text, n, "many", &err);
    free(text);
    CHECK(s == JL_ERR_PARSE);
    CHECK(err.line == 2 * JL_ARCHIVE_KEYS_MAX + 1);
    CHECK(strstr(err.message, "more than 1024 keys") != NULL);
}

TEST(half_loaded_file_is_rolled_back)
{
    CHECK(start(NULL));
    sample_inert *kept = JL_MAKE_ENTITY(&manager, sample_inert, 1, 2, 3);
    CHECK(kept != NULL);
    uint32_t slots = manager.slots, count = manager.count;
    /* Everything is read into the new entity before the last field fails. */
    static const char text[] =
        "; id\n0x0000000900000001\n; class\nProp\n; position\n5 6 7\n; density\n2\n"
        "; velocity\n1 2 x\n";
    jl_entity *e = NULL;
    jl_error err = {0};
    CHECK(load_text(&manager, text, sizeof text - 1, "half", &err, &e) == JL_ERR_PARSE);
    CHECK(err.line == 10 && err.col == 5);
    CHECK(e == NULL);
    CHECK(manager.count == count);
    CHECK(manager.by_type[sample_prop_class.kind].count == 0);
    CHECK(jl_entity_find(&manager, 0x0000000900000001ull) == NULL);
    CHECK(manager.pending_count == 0); /* a rollback is not a removal */
    CHECK(jl_manager_check(&manager, &err) == JL_OK);
    /* The freed slot is reused by the next allocation. */
    CHECK(JL_MAKE_ENTITY(&manager, sample_inert, 0, 0, 0) != NULL);
    CHECK(manager.slots == slots + 1 || manager.slots == slots);
    jl_manager_shutdown(&manager);
}

TEST(duplicate_id_is_rejected_and_rolled_back)
{
    CHECK(start(NULL));
    static const char text[] = "; id\n0x0000000900000002\n; class\nInert\n";
    jl_entity *first = NULL, *second = NULL;
    jl_error err = {0};
    CHECK(load_text(&manager, text, sizeof text - 1, "a", &err, &first) == JL_OK);
    CHECK(load_text(&manager, text, sizeof text - 1, "b", &err, &second) == JL_ERR_DUPLICATE_ID);
    CHECK(err.line == 2 && err.col == 1);
    CHECK(second == NULL);
    CHECK(manager.count == 1);
    CHECK(jl_entity_find(&manager, 0x0000000900000002ull) == first);
    CHECK(jl_manager_check(&manager, &err) == JL_OK);
    jl_manager_shutdown(&manager);
}

/* The fixture loaded last: its text (the archive points into it) and its
 * archive, until drop_fixture. */
static char *fixture_text;
static jl_archive fixture;

static void drop_fixture(void)
{
    free(fixture_text);
    fixture_text = NULL;
    jl_manager_shutdown(&manager);
}

/* assets/compat/<name> loaded into a new manager (start); NULL if any step
 * fails. */
static jl_entity *load_fixture(const char *name)
{
    if (!start(NULL)) return NULL;
    char path[512];
    snprintf(path, sizeof path, ASSETS "/compat/%s", name);
    size_t size;
    char *text = fixture_text = du_read(path, &size);
    if (!text) return NULL;
    jl_error err = {0};
    jl_entity *e = NULL;
    if (jl_archive_tokenize(&fixture, &scratch, text, size, path, &err) != JL_OK) return NULL;
    if (jl_entity_deserialize_in_place(&manager, &fixture, &e) != JL_OK) {
        fprintf(stderr, "%s:%u:%u: %s\n", err.path, err.line, err.col, err.message);
        return NULL;
    }
    return e;
}

/* True if the fixture's unknown keys, collected, are exactly expected ("":
 * none, and no text). */
static bool unknown_keys_are(const char *expected)
{
    const char *unknown;
    size_t n = 1;
    CHECK_OR_FALSE(jl_archive_collect_unknown(&fixture, &scratch, &unknown, &n) == JL_OK);
    CHECK_OR_FALSE(n == strlen(expected) && (n ? memcmp(unknown, expected, n) == 0 : unknown == NULL));
    return true;
}

TEST(migrates_light_version_1_range_to_radius)
{
    jl_entity *e = load_fixture("light_v1_range.jasset");
    CHECK(e != NULL);
    sample_light *light = JL_DOWNCAST(sample_light, e);
    CHECK(light != NULL);
    CHECK(fixture.class_version == 1);
    CHECK(light->radius == 25.5f);
    CHECK(!(e->flags & JL_ENTITY_READ_ONLY));
    /* `range` was consumed by the migration: not kept as an unknown key. */
    CHECK(unknown_keys_are(""));
    /* Saved again, it is a version 2 file with radius. */
    size_t size;
    const char *text = write_text(e, &size);
    CHECK(text && strstr(text, "; class_version\n2\n") && strstr(text, "; radius\n25.5\n") && !strstr(text, "range"));
    drop_fixture();
}

/* The fixture name, a file newer than this build, loaded into *e: it
 * loads, read-only (never rewritten). */
static bool loads_read_only(const char *name, jl_entity **e)
{
    *e = load_fixture(name);
    CHECK_OR_FALSE(*e != NULL);
    CHECK_OR_FALSE((*e)->flags & JL_ENTITY_READ_ONLY);
    return true;
}

TEST(newer_class_version_loads_read_only)
{
    jl_entity *e;
    CHECK(loads_read_only("newer_class_version.jasset", &e));
    CHECK(JL_DOWNCAST(sample_light, e)->radius == 12.0f);
    CHECK(unknown_keys_are("; flicker_hz\n7.5\n"));
    drop_fixture();
}

TEST(newer_base_version_loads_read_only)
{
    jl_entity *e;
    CHECK(loads_read_only("newer_base_version.jasset", &e));
    CHECK(JL_DOWNCAST(sample_inert, e)->mesh_instance == 4);
    drop_fixture();
}

TEST(unknown_keys_are_collected_verbatim_in_file_order)
{
    jl_entity *e = load_fixture("unknown_keys.jasset");
    CHECK(e != NULL);
    CHECK(JL_DOWNCAST(sample_prop, e)->density == 2.5f);
    CHECK(unknown_keys_are("; wind_factor\n0.3\n; tags\ncrate wooden\n"));
    drop_fixture();
}

TEST(value_parser_reports_the_column_of_the_problem)
{
    float v[3];
    uint32_t col = 0;
    jl_error err = {0};
    CHECK(jl_value_parse(JL_FIELD_VEC3, 0, "1 2.5x 3", 8, v, &col, &err) == JL_ERR_PARSE);
    CHECK(col == 6);
    CHECK(jl_value_parse(JL_FIELD_VEC3, 0, "1 2 3 4", 7, v, &col, &err) == JL_ERR_PARSE);
    CHECK(col == 7);
    CHECK(strstr(err.message, "after 3 numbers") != NULL);
    CHECK(jl_value_parse(JL_FIELD_VEC3, 0, "1  2\t3", 6, v, &col, &err) == JL_OK);
    CHECK(v[0] == 1 && v[1] == 2 && v[2] == 3);
    uint32_t index = 7;
    CHECK(jl_value_parse(JL_FIELD_INDEX, 0, "-1", 2, &index, &col, &err) == JL_ERR_PARSE);
    CHECK(index == 7); /* untouched on failure */
    CHECK(jl_value_parse(JL_FIELD_INDEX, 0, "none", 4, &index, &col, &err) == JL_OK);
    CHECK(index == JL_INDEX_MAX);
    uint64_t ref = 1;
    CHECK(jl_value_parse(JL_FIELD_ENTITY_REF, 0, "none", 4, &ref, &col, &err) == JL_OK);
    CHECK(ref == 0);
    CHECK(jl_value_parse(JL_FIELD_ENTITY_REF, 0, "0xAbC", 5, &ref, &col, &err) == JL_OK);
    CHECK(ref == 0xabc);
    jl_color c;
    CHECK(jl_value_parse(JL_FIELD_COLOR, 0, "#A0b1C2", 7, &c, &col, &err) == JL_OK);
    CHECK(c.r == 0xa0 && c.g == 0xb1 && c.b == 0xc2);
}

TEST(value_formatter_writes_canonical_text)
{
    char out[JL_VALUE_TEXT_MAX + 1];
    uint32_t index = JL_INDEX_MAX;
    out[jl_value_format(JL_FIELD_INDEX, &index, out)] = '\0';
    CHECK(strcmp(out, "none") == 0);
    index = 4000000000u;
    out[jl_value_format(JL_FIELD_INDEX, &index, out)] = '\0';
    CHECK(strcmp(out, "4000000000") == 0);
    uint64_t ref = 0xabc;
    out[jl_value_format(JL_FIELD_ENTITY_REF, &ref, out)] = '\0';
    CHECK(strcmp(out, "0x0000000000000abc") == 0);
    jl_color c = {0xA0, 0x0b, 0xff};
    out[jl_value_format(JL_FIELD_COLOR, &c, out)] = '\0';
    CHECK(strcmp(out, "#a00bff") == 0);
    jl_vec3 v = {-0.0f, 1e-7f, 3.4028235e38f};
    out[jl_value_format(JL_FIELD_VEC3, &v, out)] = '\0';
    CHECK(strcmp(out, "-0 1e-7 3.4028235e+38") == 0);
}

/* The archive and the error of the last tokenize. */
static jl_archive tokens;
static jl_error tokens_err;

/* Tokenizes text (NUL-terminated) as t.jasset into tokens, on scratch. */
static jl_status tokenize(const char *text)
{
    tokens_err = (jl_error){0};
    return jl_archive_tokenize(&tokens, &scratch, text, strlen(text), "t.jasset", &tokens_err);
}

TEST(tokenizer_keeps_its_entries_when_the_arena_top_is_unaligned)
{
    CHECK(setup_scratch());
    CHECK(jl_arena_push(&scratch, 1, 1) != NULL); /* the table starts after padding */
    CHECK(tokenize("; class\nInert\n; note\nhello\n") == JL_OK);
    CHECK(tokens.entry_count == 2);
    jl_archive_entry last = tokens.entries[1];
    memset(jl_arena_push(&scratch, 64, 1), 0xAB, 64); /* the next push must not reach the table */
    CHECK(memcmp(&tokens.entries[1], &last, sizeof last) == 0);
}

TEST(trailing_carriage_returns_are_all_trimmed)
{
    CHECK(setup_scratch());
    CHECK(tokenize("; note\nx\r\r\r\n; other\ny \r \r\n") == JL_OK);
    CHECK(tokens.entry_count == 2);
    CHECK(tokens.entries[0].value_size == 1 && tokens.entries[0].value[0] == 'x');
    CHECK(tokens.entries[1].value_size == 1 && tokens.entries[1].value[0] == 'y');
}

TEST(an_indented_line_starting_with_a_semicolon_is_a_key_line)
{
    /* Kept as a value it would be written back at column 1 and read as a
     * key by the next load; as a key line it is reported at once. */
    CHECK(setup_scratch());
    CHECK(tokenize("; note\n  ; see the level notes\n") == JL_ERR_PARSE);
    CHECK(tokens_err.line == 1 && tokens_err.col == 3);
    CHECK(strstr(tokens_err.message, "'note' has no value") != NULL);
}

/* Loads text, writes the entity back with its unknown keys, and returns the
 * written text (in scratch), or NULL. */
static const char *load_and_write_back(const char *text, size_t size, size_t *out_size)
{
    if (jl_manager_init(&manager, NULL) != JL_OK) return NULL;
    jl_archive ar;
    jl_error err = {0};
    jl_entity *e = NULL;
    const char *written = NULL;
    if (jl_archive_tokenize(&ar, &scratch, text, size, "t.jasset", &err) == JL_OK &&
        jl_entity_deserialize_in_place(&manager, &ar, &e) == JL_OK) {
        const char *unknown;
        size_t unknown_size = 0;
        jl_archive out;
        jl_status kept = jl_archive_collect_unknown(&ar, &scratch, &unknown, &unknown_size);
        jl_archive_begin_write(&out, &scratch);
        if (kept != JL_OK || jl_archive_write_entity(&out, e, unknown, unknown_size) != JL_OK ||
            jl_archive_end_write(&out, &written, out_size) != JL_OK)
            written = NULL;
    } else {
        fprintf(stderr, "%s:%u:%u: %s\n", err.path, err.line, err.col, err.message);
    }
    jl_manager_shutdown(&manager);
    return written;
}

TEST(unknown_values_come_back_byte_exact_with_their_blanks)
{
    CHECK(setup_scratch());
    /* Canonical but for the blanks around the unknown values, so the
     * written text must be the file itself. */
    static const char text[] =
        "; asset_type\nentity_instance\n; id\n0x77a31d7500000001\n; class\nInert\n; version\n1\n"
        "; class_version\n1\n; position\n1 2 3\n; mesh_instance\n185\n"
        "; editor_note\n   indented by three spaces\n"
        "; tabbed\n\tx\t \n"
        "; trailing\nvalue  \n";
    size_t size = 0;
    const char *written = load_and_write_back(text, sizeof text - 1, &size);
    CHECK(written != NULL);
    if (size != sizeof text - 1 || memcmp(written, text, size) != 0)
        fprintf(stderr, "written:\n%.*s", (int)size, written);
    CHECK(size == sizeof text - 1 && memcmp(written, text, size) == 0);
}

TEST(unknown_values_of_a_crlf_file_keep_their_blanks_but_not_the_cr)
{
    CHECK(setup_scratch());
    static const char text[] =
        "; asset_type\r\nentity_instance\r\n; id\r\n0x77a31d7500000001\r\n; class\r\nInert\r\n"
        "; position\r\n1 2 3\r\n; editor_note\r\n  two spaces, then CR CR LF \r\r\n";
    size_t size = 0;
    const char *written = load_and_write_back(text, sizeof text - 1, &size);
    CHECK(written != NULL);
    /* CRs at a line's end are its line end: kept, each save would read one
     * fewer and the text would never settle. */
    static const char line[] = "\n; editor_note\n  two spaces, then CR CR LF \n";
    CHECK(size > sizeof line - 1 && memcmp(written + size - (sizeof line - 1), line, sizeof line - 1) == 0);
}

/* "; note" and a value of n bytes, each line ended by end. */
static size_t note_of_size(char *out, size_t n, const char *end)
{
    size_t at = (size_t)sprintf(out, "; note%s", end);
    memset(out + at, 'a', n);
    at += n;
    return at + (size_t)sprintf(out + at, "%s", end);
}

TEST(a_value_line_of_the_limit_is_accepted_with_crlf_as_with_lf)
{
    CHECK(setup_scratch());
    static char text[JL_ARCHIVE_LINE_MAX + 64];
    static const char *const ends[] = {"\n", "\r\n"};
    for (int i = 0; i < 2; i++) {
        size_t size = note_of_size(text, JL_ARCHIVE_LINE_MAX, ends[i]);
        jl_archive ar;
        jl_error err = {0};
        jl_status s = jl_archive_tokenize(&ar, &scratch, text, size, "t.jasset", &err);
        if (s != JL_OK) fprintf(stderr, "%s: %u:%u: %s\n", i ? "CRLF" : "LF", err.line, err.col, err.message);
        CHECK(s == JL_OK);
        CHECK(ar.entry_count == 1 && ar.entries[0].value_size == JL_ARCHIVE_LINE_MAX);
    }
    /* A key line ended by LF before a value line ended by CRLF (the
     * tokenizer's fast path takes that pair). */
    size_t size = note_of_size(text, JL_ARCHIVE_LINE_MAX, "\r\n");
    memmove(text + 6, text + 7, size - 7);
    text[6] = '\n';
    jl_archive ar;
    jl_error err = {0};
    CHECK(jl_archive_tokenize(&ar, &scratch, text, size - 1, "t.jasset", &err) == JL_OK);
    CHECK(ar.entry_count == 1 && ar.entries[0].value_size == JL_ARCHIVE_LINE_MAX);
}

TEST(a_crlf_value_line_past_the_limit_is_rejected_at_its_line_and_column)
{
    CHECK(setup_scratch());
    static char text[JL_ARCHIVE_LINE_MAX + 64];
    size_t size = note_of_size(text, JL_ARCHIVE_LINE_MAX + 1, "\r\n");
    jl_archive ar;
    jl_error err = {0};
    CHECK(jl_archive_tokenize(&ar, &scratch, text, size, "t.jasset", &err) == JL_ERR_PARSE);
    CHECK(err.status == JL_ERR_PARSE);
    CHECK(err.line == 2 && err.col == JL_ARCHIVE_LINE_MAX + 1);
    CHECK(strstr(err.message, "line longer than 4096 bytes") != NULL);
    CHECK(strcmp(err.path, "t.jasset") == 0);
}
