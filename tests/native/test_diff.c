/* test_diff.c - what changed between two texts or two worlds (diff.h): key
 * by key, entities added, removed and modified in ID order, the settings,
 * and formatting alone never a change. */
#include "persist_util.h"

#include <stdarg.h>

#include "juliet/diff.h"
#include "test.h"

static jl_arena scratch;

/* What the visits saw, one line each: "key old>new" ('-' for a missing
 * side) or "kind id class". */
static char seen[4096];

static void note(const char *format, ...)
{
    size_t n = strlen(seen);
    va_list ap;
    va_start(ap, format);
    vsnprintf(seen + n, sizeof seen - n, format, ap);
    va_end(ap);
}

static jl_status note_key(void *ctx, const jl_key_change *c)
{
    (void)ctx;
    note("%.*s %.*s>%.*s\n", (int)c->key_size, c->key, c->old_value ? (int)c->old_size : 1,
         c->old_value ? c->old_value : "-", c->new_value ? (int)c->new_size : 1, c->new_value ? c->new_value : "-");
    return JL_OK;
}

static const char *const kinds[] = {"added", "removed", "modified"};

static jl_status note_entity(void *ctx, const jl_entity_change *c)
{
    (void)ctx;
    note("%s %llx %s\n", kinds[c->kind], (unsigned long long)c->id, c->class_name ? c->class_name : "settings");
    CHECK_OR_FALSE((c->old_text != NULL) == (c->kind != JL_CHANGE_ADDED));
    CHECK_OR_FALSE((c->new_text != NULL) == (c->kind != JL_CHANGE_REMOVED));
    return JL_OK;
}

static bool text_diff(const char *a, const char *b, uint32_t *changes)
{
    seen[0] = '\0';
    CHECK_OR_FALSE(scratch.base || jl_arena_init(&scratch, 64u << 20) == JL_OK);
    const size_t used = scratch.used;
    jl_error err = {0};
    CHECK_OR_FALSE(jl_text_diff(a, strlen(a), "a", b, strlen(b), "b", &scratch, note_key, NULL, changes, &err) ==
                   JL_OK);
    CHECK_OR_FALSE(scratch.used == used);
    return true;
}

TEST(texts_differ_key_by_key_in_the_newer_order_then_removed_keys)
{
    uint32_t changes;
    CHECK(text_diff("; id\n0x1\n; intensity\n18.1\n; radius\n4\n; old\nx\n",
                    "; radius\n4\n; id\n0x1\n; intensity\n42\n; fresh\ny z\n", &changes));
    CHECK(changes == 3);
    CHECK(strcmp(seen, "intensity 18.1>42\nfresh ->y z\nold x>-\n") == 0);
}

TEST(equal_texts_have_no_change_whatever_the_key_order_and_blanks)
{
    uint32_t changes = 7;
    CHECK(text_diff("; a\n1\n; b\n2\n", "; b\n2  \n\n;a\n  1\n", &changes));
    CHECK(changes == 0 && seen[0] == '\0');
}

TEST(a_text_that_does_not_tokenize_is_a_parse_error_naming_it)
{
    CHECK(jl_arena_init(&scratch, 1u << 20) == JL_OK);
    jl_error err = {0};
    const char *bad = "; a\n1\nstray\n";
    CHECK(jl_text_diff("; a\n1\n", 6, "old.jasset", bad, strlen(bad), "new.jasset", &scratch, note_key, NULL, NULL,
                       &err) == JL_ERR_PARSE);
    CHECK(strcmp(err.path, "new.jasset") == 0 && err.line == 3);
}

static jl_world *load_sample(void)
{
    jl_world *w;
    if (jl_world_new(NULL, &w) != JL_OK) return NULL;
    jl_world_load(w, ASSETS "/sample_world");
    return w;
}

TEST(worlds_differ_by_entities_added_removed_and_modified_in_id_order)
{
    if (!scratch.base) CHECK(jl_arena_init(&scratch, 64u << 20) == JL_OK);
    jl_world *older = load_sample(), *newer = load_sample();
    CHECK(older && newer && jl_world_diagnostic_count(newer) == 0);
    uint32_t changes = 9;
    seen[0] = '\0';
    CHECK(jl_world_diff(older, newer, &scratch, note_entity, NULL, &changes) == JL_OK);
    CHECK(changes == 0 && seen[0] == '\0');

    const uint64_t light = 0x77a31d7500000002ull, inert = 0x77a31d7500000001ull;
    CHECK(jl_world_set_field(newer, light, "intensity", "42", 2, NULL) == JL_OK);
    CHECK(jl_world_remove(newer, inert) == JL_OK);
    jl_entity *added;
    CHECK(jl_world_create(newer, "Prop", 1, 2, 3, &added) == JL_OK);
    CHECK(jl_world_settings_set(newer, "time_of_day", "18", 2, NULL) == JL_OK);
    const size_t used = scratch.used;
    CHECK(jl_world_diff(older, newer, &scratch, note_entity, NULL, &changes) == JL_OK);
    CHECK(scratch.used == used);
    CHECK(changes == 4);
    /* The settings first, then by ID (the minted ID has a random tag). */
    typedef struct row {
        uint64_t id;
        const char *line;
    } row;
    row rows[3] = {{inert, "removed %llx Inert\n"}, {light, "modified %llx Light\n"}, {added->id, "added %llx Prop\n"}};
    for (int i = 1; i < 3; i++)
        for (int j = i; j > 0 && rows[j].id < rows[j - 1].id; j--) {
            row t = rows[j];
            rows[j] = rows[j - 1];
            rows[j - 1] = t;
        }
    char expected[512] = "modified 0 settings\n";
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(expected);
        snprintf(expected + n, sizeof expected - n, rows[i].line, (unsigned long long)rows[i].id);
    }
    if (strcmp(seen, expected) != 0) fprintf(stderr, "seen:\n%s", seen);
    CHECK(strcmp(seen, expected) == 0);
    jl_world_free(older);
    jl_world_free(newer);
}
