/* test_canonical_reader.c - a world reads canonical entity files in one
 * pass and everything else by key (archive_reader.c): both give the same
 * entities, records and errors, and a canonical file that fails part way
 * leaves the world as it was. */
#include "persist_util.h"

#include "archive/archive_internal.h"
#include "juliet/archive.h"
#include "juliet/world.h"
#include "sample_classes.h"
#include "sample_world_gen.h"
#include "test.h"

/* The canonical text of e, appended to out (NUL-terminated); its size. */
static size_t text_of(const jl_entity *e, jl_arena *out, const char **text)
{
    jl_archive ar;
    jl_archive_begin_write(&ar, out);
    size_t size = 0;
    if (jl_archive_write_entity(&ar, e, NULL, 0) != JL_OK || jl_archive_end_write(&ar, text, &size) != JL_OK) return 0;
    return size;
}

/* text with every LF made CRLF and a blank after each value: tolerated,
 * never canonical. */
static size_t tolerated_form(const char *text, size_t size, char *out)
{
    size_t n = 0;
    bool value_line = false;
    for (size_t i = 0; i < size; i++) {
        if (text[i] == '\n') {
            if (value_line) out[n++] = ' ';
            out[n++] = '\r';
            value_line = !value_line;
        }
        out[n++] = text[i];
    }
    return n;
}

TEST(canonical_and_tolerated_texts_load_the_same_entities)
{
    jl_world *source, *fast, *general;
    jl_world_desc desc = {.capacity = 600, .id_tag = sample_world_gen_tag(3)};
    CHECK(jl_world_new(&desc, &source) == JL_OK);
    CHECK(sample_world_generate(source, 500, 3) == JL_OK);
    CHECK(jl_world_new(&desc, &fast) == JL_OK);
    CHECK(jl_world_new(&desc, &general) == JL_OK);
    jl_arena arena;
    CHECK(jl_arena_init(&arena, 16u << 20) == JL_OK);
    static char tolerated[8192];
    uint32_t count = 0;
    for (jl_world_iter it = jl_world_iter_all(source); jl_world_next(&it); count++) {
        jl_entity *e = it.entity;
        const char *text;
        size_t size = text_of(e, &arena, &text);
        CHECK(size > 0 && size * 2 < sizeof tolerated);
        size_t other = tolerated_form(text, size, tolerated);
        jl_entity *a = NULL, *b = NULL;
        CHECK(jl_world_load_entity_text(fast, NULL, text, size, false, &a, NULL) == JL_OK);
        CHECK(jl_world_load_entity_text(general, NULL, tolerated, other, false, &b, NULL) == JL_OK);
        CHECK(a->id == e->id && b->id == e->id);
        CHECK(!a->is_dirty && !b->is_dirty);
        CHECK(a->flags == b->flags);
        const char *text_a, *text_b;
        size_t size_a = text_of(a, &arena, &text_a), size_b = text_of(b, &arena, &text_b);
        CHECK(size_a == size && size_b == size);
        CHECK(memcmp(text_a, text, size) == 0 && memcmp(text_b, text, size) == 0);
        uint32_t unknown_a = 1, unknown_b = 1;
        CHECK(jl_world_unknown_keys(fast, e->id, &unknown_a) == NULL && unknown_a == 0);
        CHECK(jl_world_unknown_keys(general, e->id, &unknown_b) == NULL && unknown_b == 0);
    }
    CHECK(count == 500);
    CHECK(jl_world_count(fast) == 500 && jl_world_count(general) == 500);
    jl_arena_release(&arena);
    jl_world_free(source);
    jl_world_free(fast);
    jl_world_free(general);
}

static const char prop_text[] =
    "; asset_type\nentity_instance\n; id\n0x0000000900000001\n; class\nProp\n"
    "; version\n1\n; class_version\n1\n; position\n5 6 7\n; mesh_instance\n3\n"
    "; density\n2\n; is_static\nfalse\n; velocity\n1 2 3\n; parent\nnone\n";

TEST(a_canonical_file_with_a_key_its_class_does_not_know_keeps_it)
{
    jl_world *w;
    CHECK(jl_world_new(NULL, &w) == JL_OK);
    char text[1024];
    int n = snprintf(text, sizeof text, "%s; editor_note\n  by hand \n", prop_text);
    jl_entity *e = NULL;
    CHECK(jl_world_load_entity_text(w, NULL, text, (size_t)n, false, &e, NULL) == JL_OK);
    uint32_t size = 0;
    const char *kept = jl_world_unknown_keys(w, 0x0000000900000001ull, &size);
    CHECK(kept != NULL && size == sizeof "; editor_note\n  by hand \n" - 1);
    CHECK(memcmp(kept, "; editor_note\n  by hand \n", size) == 0);
    jl_world_free(w);
}

TEST(a_canonical_file_failing_at_its_last_field_is_reported_and_rolled_back)
{
    jl_world *w;
    CHECK(jl_world_new(NULL, &w) == JL_OK);
    char text[1024];
    snprintf(text, sizeof text, "%s", prop_text);
    char *velocity = strstr(text, "1 2 3");
    CHECK(velocity != NULL);
    velocity[4] = 'x';
    jl_error err = {0};
    jl_entity *e = NULL;
    CHECK(jl_world_load_entity_text(w, "bad.jasset", text, strlen(text), false, &e, &err) == JL_ERR_PARSE);
    CHECK(e == NULL);
    CHECK(strcmp(err.path, "bad.jasset") == 0);
    CHECK(err.line == 20 && err.col == 5);
    CHECK(strstr(err.message, "velocity: ") != NULL);
    CHECK(jl_world_count(w) == 0);
    /* The ID was not taken: the good text loads under it. */
    CHECK(jl_world_load_entity_text(w, "good.jasset", prop_text, sizeof prop_text - 1, false, &e, &err) == JL_OK);
    CHECK(e != NULL && e->id == 0x0000000900000001ull);
    CHECK(jl_world_count(w) == 1);
    jl_world_free(w);
}

TEST(a_canonical_file_with_an_id_already_loaded_names_the_other_file)
{
    jl_world *w;
    CHECK(jl_world_new(NULL, &w) == JL_OK);
    jl_error err = {0};
    CHECK(jl_world_load_entity_text(w, "a.jasset", prop_text, sizeof prop_text - 1, false, NULL, &err) == JL_OK);
    CHECK(jl_world_load_entity_text(w, "b.jasset", prop_text, sizeof prop_text - 1, false, NULL, &err) ==
          JL_ERR_DUPLICATE_ID);
    CHECK(err.line == 4 && err.col == 1);
    CHECK(strstr(err.message, "duplicate entity ID 0x0000000900000001") != NULL);
    CHECK(jl_world_count(w) == 1);
    jl_world_free(w);
}

/* Each fixture of assets/malformed/expected.tsv that is one entity file
 * fails through a world's loader exactly as listed (those the world reads
 * otherwise, an unknown class kept as text, aside). */
TEST(a_world_reports_each_malformed_fixture_as_listed)
{
    FILE *f = fopen(ASSETS "/malformed/expected.tsv", "r");
    CHECK(f != NULL);
    char line[1024];
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        line[strcspn(line, "\n")] = '\0';
        char *name = strtok(line, "\t"), *status = strtok(NULL, "\t"), *l = strtok(NULL, "\t"), *c = strtok(NULL, "\t"),
             *msg = strtok(NULL, "\t");
        if (!name || !status || !l || !c || !msg || strncmp(name, "worlds/", 7) == 0 ||
            strcmp(status, "unknown_class") == 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, ASSETS "/malformed/%s", name);
        size_t size;
        char *text = du_read(path, &size);
        CHECK(text != NULL);
        jl_world *w;
        CHECK(jl_world_new(NULL, &w) == JL_OK);
        jl_error err = {0};
        jl_status s = jl_world_load_entity_text(w, path, text, size, false, NULL, &err);
        free(text);
        if (strcmp(jl_status_name(s), status) != 0 || err.line != (unsigned)atoi(l) || err.col != (unsigned)atoi(c) ||
            !strstr(err.message, msg))
            fprintf(stderr, "%s: got %s %u:%u '%s'\n", name, jl_status_name(s), err.line, err.col, err.message);
        CHECK(strcmp(jl_status_name(s), status) == 0);
        CHECK(err.line == (unsigned)atoi(l) && err.col == (unsigned)atoi(c));
        CHECK(strstr(err.message, msg) != NULL);
        CHECK(jl_world_count(w) == 0);
        jl_world_free(w);
        checked++;
    }
    fclose(f);
    CHECK(checked >= 20);
}

/* What the one-pass reader reads into, for the white-box tests below. */
typedef struct reader_bench {
    jli_canonical_cache cache;
    jl_entity_manager manager;
    jl_arena scratch, keep, strings;
    jl_archive ar;
} reader_bench;

static bool reader_open(reader_bench *r)
{
    memset(r, 0, sizeof *r);
    return jl_manager_init(&r->manager, NULL) == JL_OK && jl_arena_init(&r->scratch, 1u << 20) == JL_OK &&
           jl_arena_init(&r->keep, 1u << 20) == JL_OK && jl_arena_init(&r->strings, 1u << 20) == JL_OK;
}

static jl_status reader_read(reader_bench *r, const char *text, size_t size, uint64_t expected_id, jl_entity **e)
{
    return jli_entity_read_canonical(&r->manager, &r->cache, &r->keep, &r->ar, &r->scratch, &r->strings, text, size,
                                     NULL, expected_id, NULL, e);
}

static void reader_close(reader_bench *r)
{
    jl_manager_shutdown(&r->manager);
    jl_arena_release(&r->scratch);
    jl_arena_release(&r->keep);
    jl_arena_release(&r->strings);
}

/* White-box: the classes of the last files read are tried before the
 * registry, the latest first; a name not among them is found in the
 * registry and pushes out the oldest. */
TEST(the_one_pass_reader_keeps_the_latest_classes_first)
{
    static reader_bench r;
    CHECK(reader_open(&r));
    /* Stand-ins the files never name; "Pro" and "PropX" differ from "Prop" late. */
    static jl_class others[JLI_RECENT_CLASSES];
    static const char *const names[JLI_RECENT_CLASSES] = {"Pro", "PropX", "Light", "Inert"};
    for (uint32_t i = 0; i < JLI_RECENT_CLASSES; i++) {
        others[i] = sample_inert_class;
        others[i].name = names[i];
        r.cache.recent[i] = &others[i];
    }
    const jl_class **recent = r.cache.recent;
    jl_entity *e = NULL;
    CHECK(reader_read(&r, prop_text, sizeof prop_text - 1, 0, &e) == JL_OK);
    CHECK(e && e->derived_kind == &sample_prop_class);
    CHECK(recent[0] == &sample_prop_class && recent[1] == &others[0] && recent[2] == &others[1] &&
          recent[3] == &others[2]);
    /* Found among them: moved to the front, the ones before it move down. */
    recent[0] = &others[3];
    recent[2] = &sample_prop_class;
    jl_manager_reset(&r.manager);
    CHECK(reader_read(&r, prop_text, sizeof prop_text - 1, 0, &e) == JL_OK);
    CHECK(e && e->derived_kind == &sample_prop_class);
    CHECK(recent[0] == &sample_prop_class && recent[1] == &others[3] && recent[2] == &others[0] &&
          recent[3] == &others[2]);
    reader_close(&r);
}

/* White-box: the one-pass reader takes the canonical text and declines a
 * tolerated one, a key out of place, or a text with no final line end,
 * leaving the manager as it was. */
TEST(the_one_pass_reader_takes_canonical_text_only)
{
    static reader_bench r;
    CHECK(reader_open(&r));
    char text[1024];
    const size_t size = sizeof prop_text - 1;
    jl_entity *e = NULL;
    /* a CR for the last line end, no last line end, two fields swapped, another ID */
    memcpy(text, prop_text, size);
    text[size - 1] = '\r';
    CHECK(reader_read(&r, text, size, 0, &e) == JL_ERR_NOT_FOUND);
    CHECK(reader_read(&r, prop_text, size - 1, 0, &e) == JL_ERR_NOT_FOUND);
    snprintf(text, sizeof text, "%s", prop_text);
    char *density = strstr(text, "; density\n2\n"), *is_static = strstr(text, "; is_static\nfalse\n");
    CHECK(density && is_static);
    memcpy(density, "; is_static\nfalse\n; density\n2\n", (size_t)(is_static - density) + 18);
    CHECK(reader_read(&r, text, size, 0, &e) == JL_ERR_NOT_FOUND);
    CHECK(e == NULL && r.manager.count == 0);
    CHECK(reader_read(&r, prop_text, size, 0x0000000900000002ull, &e) == JL_ERR_NOT_FOUND);
    CHECK(e == NULL && r.manager.count == 0);
    /* Another class_version than this build writes: the general path
     * migrates it or keeps it read-only. */
    snprintf(text, sizeof text, "%s", prop_text);
    char *class_version = strstr(text, "; class_version\n1\n");
    CHECK(class_version != NULL);
    class_version[sizeof "; class_version\n" - 1] = '2';
    CHECK(reader_read(&r, text, size, 0, &e) == JL_ERR_NOT_FOUND);
    CHECK(e == NULL && r.manager.count == 0);
    jl_error err;
    CHECK(jl_manager_check(&r.manager, &err) == JL_OK);
    /* The canonical text: read, with entries for the values naming an
     * entity (the ID, the parent), which the world reads after a load, as
     * the tokenizer makes them but for the key hashes. */
    CHECK(reader_read(&r, prop_text, size, 0, &e) == JL_OK);
    CHECK(e != NULL && e->id == 0x0000000900000001ull && r.manager.count == 1);
    const jl_archive *ar = &r.ar;
    CHECK(ar->entry_count == 2 && ar->last_line == 22);
    jl_archive tokenized;
    CHECK(jl_archive_tokenize(&tokenized, &r.scratch, prop_text, size, NULL, NULL) == JL_OK);
    static const char *const naming[2] = {"id", "parent"};
    for (uint32_t i = 0; i < ar->entry_count; i++) {
        const jl_archive_entry *got = &ar->entries[i], *want = jl_archive_find(&tokenized, naming[i]);
        CHECK(want != NULL && got->used);
        CHECK(got->key_size == want->key_size && memcmp(got->key, want->key, want->key_size) == 0);
        CHECK(got->value == want->value && got->value_size == want->value_size);
        CHECK(got->key_line == want->key_line && got->value_line == want->value_line);
        CHECK(got->key_col == want->key_col && got->value_col == want->value_col && got->value_trail == 0);
    }
    const sample_prop *prop = e->derived;
    CHECK(prop->mesh_instance == 3 && prop->density == 2.0f && !prop->is_static && prop->velocity.z == 3.0f);
    reader_close(&r);
}
