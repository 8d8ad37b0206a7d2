/* test_merge.c - the three-way merge of an entity's text, key by key
 * (diff.h, jl_text_merge): a change on one side is taken, the same change
 * on both is no conflict, different changes are conflicts the callback
 * decides, removals and additions on either side, the order of the merged
 * keys, parse errors naming the file, and formatting alone never a change. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "juliet/archive.h"
#include "juliet/diff.h"
#include "test.h"

static jl_arena scratch, out;

/* What the conflicts were, one line each: "key base/ours/theirs" ('-' for
 * a missing value). */
static char seen[2048];

/* The keys whose conflicts take theirs, one string ("radius intensity"). */
static const char *take_theirs;

static void note_value(const char *value, uint32_t size, const char *after)
{
    size_t n = strlen(seen);
    snprintf(seen + n, sizeof seen - n, "%.*s%s", value ? (int)size : 1, value ? value : "-", after);
}

static jl_status resolve(void *ctx, const jl_key_conflict *c, jl_merge_side *keep)
{
    if (*keep != JL_MERGE_OURS) return JL_ERR_INVARIANT; /* ours is the default */
    size_t n = strlen(seen);
    snprintf(seen + n, sizeof seen - n, "%.*s ", (int)c->key_size, c->key);
    note_value(c->base_value, c->base_size, "/");
    note_value(c->ours_value, c->ours_size, "/");
    note_value(c->theirs_value, c->theirs_size, "\n");
    char key[JL_ARCHIVE_KEY_MAX + 2];
    snprintf(key, sizeof key, "%.*s", (int)c->key_size, c->key);
    const char *at = take_theirs ? strstr(take_theirs, key) : NULL;
    if (at && (at[c->key_size] == ' ' || at[c->key_size] == '\0')) *keep = JL_MERGE_THEIRS;
    return ctx ? *(jl_status *)ctx : JL_OK;
}

/* The merged text of the last merge, NUL-terminated. */
static char merged[4096];

/* Merges base, ours and theirs (named "base", "ours", "theirs") with
 * resolve, or none if with_callback is false, into merged and seen; checks
 * that scratch is given back and that the text is on out. */
static bool merge_with(const char *b, const char *o, const char *t, bool with_callback, uint32_t *conflicts)
{
    seen[0] = merged[0] = '\0';
    CHECK_OR_FALSE(scratch.base || jl_arena_init(&scratch, 64u << 20) == JL_OK);
    CHECK_OR_FALSE(out.base || jl_arena_init(&out, 64u << 20) == JL_OK);
    jl_arena_pop_to(&out, 0);
    const size_t used = scratch.used;
    const jl_merge_input base = {b, strlen(b), "base"}, ours = {o, strlen(o), "ours"},
                         theirs = {t, strlen(t), "theirs"};
    const char *text = NULL;
    size_t size = 0;
    jl_error err = {0};
    CHECK_OR_FALSE(jl_text_merge(&base, &ours, &theirs, &scratch, &out, with_callback ? resolve : NULL, NULL, &text,
                                 &size, conflicts, &err) == JL_OK);
    CHECK_OR_FALSE(scratch.used == used);
    CHECK_OR_FALSE(out.used == size && size < sizeof merged);
    memcpy(merged, text, size);
    merged[size] = '\0';
    return true;
}

static bool merge(const char *b, const char *o, const char *t, uint32_t *conflicts)
{
    return merge_with(b, o, t, true, conflicts);
}

static const char base3[] = "; a\n1\n; b\n2\n; c\n3\n";

TEST(a_change_on_one_side_is_taken_whichever_side)
{
    uint32_t conflicts = 9;
    CHECK(merge(base3, "; a\n10\n; b\n2\n; c\n3\n", "; a\n1\n; b\n2\n; c\n30\n", &conflicts));
    CHECK(conflicts == 0 && seen[0] == '\0');
    CHECK(strcmp(merged, "; a\n10\n; b\n2\n; c\n30\n") == 0);
}

TEST(the_same_change_on_both_sides_is_no_conflict)
{
    uint32_t conflicts = 9;
    CHECK(merge(base3, "; a\n1\n; b\n20\n; c\n3\n", "; a\n1\n; b\n20\n; c\n3\n", &conflicts));
    CHECK(conflicts == 0);
    CHECK(strcmp(merged, "; a\n1\n; b\n20\n; c\n3\n") == 0);
}

TEST(different_changes_on_both_sides_are_a_conflict_the_callback_decides)
{
    const char *ours = "; a\n1\n; b\nours\n; c\nx\n", *theirs = "; a\n1\n; b\ntheirs\n; c\ny\n";
    uint32_t conflicts = 0;
    take_theirs = NULL;
    CHECK(merge(base3, ours, theirs, &conflicts));
    CHECK(conflicts == 2);
    CHECK(strcmp(seen, "b 2/ours/theirs\nc 3/x/y\n") == 0);
    CHECK(strcmp(merged, "; a\n1\n; b\nours\n; c\nx\n") == 0);
    take_theirs = "c";
    CHECK(merge(base3, ours, theirs, &conflicts));
    CHECK(conflicts == 2);
    CHECK(strcmp(merged, "; a\n1\n; b\nours\n; c\ny\n") == 0);
    take_theirs = "b c";
    CHECK(merge(base3, ours, theirs, &conflicts));
    CHECK(strcmp(merged, "; a\n1\n; b\ntheirs\n; c\ny\n") == 0);
    take_theirs = NULL;
}

TEST(without_a_callback_every_conflict_keeps_ours)
{
    uint32_t conflicts = 0;
    CHECK(merge_with(base3, "; a\n1\n; b\nours\n; c\n3\n", "; a\n1\n; b\ntheirs\n; c\n3\n", false, &conflicts));
    CHECK(conflicts == 1 && seen[0] == '\0');
    CHECK(strcmp(merged, "; a\n1\n; b\nours\n; c\n3\n") == 0);
}

TEST(a_key_one_side_removes_is_removed_unless_the_other_changed_it)
{
    uint32_t conflicts = 9;
    CHECK(merge(base3, "; a\n1\n; c\n3\n", base3, &conflicts));
    CHECK(conflicts == 0 && strcmp(merged, "; a\n1\n; c\n3\n") == 0);
    CHECK(merge(base3, base3, "; b\n2\n; c\n3\n", &conflicts));
    CHECK(conflicts == 0 && strcmp(merged, "; b\n2\n; c\n3\n") == 0);
    /* Removed on one side, changed on the other: a conflict, the removal
     * being a missing value. */
    take_theirs = "b";
    CHECK(merge(base3, "; a\n1\n; c\n3\n", "; a\n1\n; b\n22\n; c\n3\n", &conflicts));
    CHECK(conflicts == 1 && strcmp(seen, "b 2/-/22\n") == 0);
    CHECK(strcmp(merged, "; a\n1\n; b\n22\n; c\n3\n") == 0);
    take_theirs = NULL;
    CHECK(merge(base3, "; a\n1\n; b\n22\n; c\n3\n", "; a\n1\n; c\n3\n", &conflicts));
    CHECK(conflicts == 1 && strcmp(seen, "b 2/22/-\n") == 0);
    CHECK(strcmp(merged, "; a\n1\n; b\n22\n; c\n3\n") == 0);
}

TEST(a_key_one_side_adds_is_added_after_its_neighbour_in_that_side)
{
    uint32_t conflicts = 9;
    /* Theirs adds x after a and y, z at its start: ours' order, theirs'
     * keys next to the ones they follow. */
    CHECK(merge(base3, "; c\n3\n; a\n1\n; b\n2\n; o\n0\n", "; y\n8\n; z\n9\n; a\n1\n; x\n7\n; b\n2\n; c\n3\n",
                &conflicts));
    CHECK(conflicts == 0);
    CHECK(strcmp(merged, "; y\n8\n; z\n9\n; c\n3\n; a\n1\n; x\n7\n; b\n2\n; o\n0\n") == 0);
}

TEST(a_key_both_sides_add_with_different_values_is_a_conflict_without_a_base_value)
{
    uint32_t conflicts = 0;
    CHECK(merge(base3, "; a\n1\n; b\n2\n; c\n3\n; n\nmine\n", "; a\n1\n; b\n2\n; c\n3\n; n\nyours\n", &conflicts));
    CHECK(conflicts == 1 && strcmp(seen, "n -/mine/yours\n") == 0);
    CHECK(strcmp(merged, "; a\n1\n; b\n2\n; c\n3\n; n\nmine\n") == 0);
    CHECK(merge(base3, "; a\n1\n; b\n2\n; c\n3\n; n\nsame\n", "; a\n1\n; b\n2\n; c\n3\n; n\nsame\n", &conflicts));
    CHECK(conflicts == 0 && strcmp(merged, "; a\n1\n; b\n2\n; c\n3\n; n\nsame\n") == 0);
}

TEST(a_text_that_does_not_tokenize_is_a_parse_error_naming_its_file_and_line)
{
    CHECK(scratch.base || jl_arena_init(&scratch, 64u << 20) == JL_OK);
    CHECK(out.base || jl_arena_init(&out, 64u << 20) == JL_OK);
    const size_t scratch_used = scratch.used, out_used = out.used;
    const char *bad = "; a\n1\n; a\n2\n";
    const jl_merge_input base = {base3, strlen(base3), "Entities/1.jasset (base)"},
                         ours = {base3, strlen(base3), "Entities/1.jasset"},
                         theirs = {bad, strlen(bad), "Entities/1.jasset (theirs)"};
    const char *text = NULL;
    size_t size = 0;
    jl_error err = {0};
    CHECK(jl_text_merge(&base, &ours, &theirs, &scratch, &out, NULL, NULL, &text, &size, NULL, &err) == JL_ERR_PARSE);
    CHECK(strcmp(err.path, "Entities/1.jasset (theirs)") == 0 && err.line == 3 && err.col == 3);
    CHECK(strstr(err.message, "duplicate key 'a'"));
    CHECK(scratch.used == scratch_used && out.used == out_used && text == NULL);
    /* A file git left with conflict markers is named as such. */
    const char *marked = "; a\n<<<<<<< ours\n1\n=======\n2\n>>>>>>> theirs\n";
    const jl_merge_input conflicted = {marked, strlen(marked), "ours.jasset"};
    CHECK(jl_text_merge(&base, &conflicted, &ours, &scratch, &out, NULL, NULL, &text, &size, NULL, &err) ==
          JL_ERR_PARSE);
    CHECK(strcmp(err.path, "ours.jasset") == 0 && err.line == 2 && strstr(err.message, "merge conflict"));
}

TEST(formatting_alone_is_no_change_and_the_merge_is_written_canonically)
{
    uint32_t conflicts = 9;
    /* Ours only reformats (CRLF, blanks, blank lines, indented keys);
     * theirs changes b. */
    CHECK(merge(base3, "\xEF\xBB\xBF;a\r\n  1  \r\n\r\n  ; b\r\n2\t\r\n; c\r\n3", "; a\n1\n; b\n20\n; c\n3\n",
                &conflicts));
    CHECK(conflicts == 0);
    CHECK(strcmp(merged, "; a\n1\n; b\n20\n; c\n3\n") == 0);
}

/* The sample's Light 0x77a31d7500000002 as the engine writes it, with
 * intensity and radius given. */
#define LIGHT(intensity, radius) \
    "; asset_type\nentity_instance\n; id\n0x77a31d7500000002\n; class\nLight\n" \
    "; version\n1\n; class_version\n2\n; position\n304.55 16.74 -269.94\n" \
    "; color\n#a3e36d\n; intensity\n" intensity "\n; radius\n" radius "\n; cast_shadows\ntrue\n"

TEST(the_merge_of_canonical_entity_texts_is_canonical)
{
    uint32_t conflicts = 9;
    CHECK(merge(LIGHT("18.1", "28.5"), LIGHT("42", "28.5"), LIGHT("18.1", "3"), &conflicts));
    CHECK(conflicts == 0);
    CHECK(strcmp(merged, LIGHT("42", "3")) == 0);
}

TEST(the_merged_text_may_stay_on_scratch)
{
    CHECK(scratch.base || jl_arena_init(&scratch, 64u << 20) == JL_OK);
    const size_t used = scratch.used;
    const char *o = "; a\n10\n; b\n2\n; c\n3\n", *t = "; a\n1\n; b\n2\n; c\n30\n";
    const jl_merge_input base = {base3, strlen(base3), NULL}, ours = {o, strlen(o), NULL},
                         theirs = {t, strlen(t), NULL};
    const char *text = NULL;
    size_t size = 0;
    CHECK(jl_text_merge(&base, &ours, &theirs, &scratch, &scratch, NULL, NULL, &text, &size, NULL, NULL) == JL_OK);
    CHECK(text == (const char *)scratch.base + used && scratch.used == used + size);
    const char *expected = "; a\n10\n; b\n2\n; c\n30\n";
    CHECK(size == strlen(expected) && memcmp(text, expected, size) == 0);
    jl_arena_pop_to(&scratch, used);
}

TEST(a_status_from_the_callback_stops_the_merge_and_leaves_the_arenas_as_they_were)
{
    CHECK(scratch.base || jl_arena_init(&scratch, 64u << 20) == JL_OK);
    CHECK(out.base || jl_arena_init(&out, 64u << 20) == JL_OK);
    const size_t scratch_used = scratch.used, out_used = out.used;
    const char *o = "; a\n1\n; b\nx\n; c\n3\n", *t = "; a\n1\n; b\ny\n; c\n3\n";
    const jl_merge_input base = {base3, strlen(base3), NULL}, ours = {o, strlen(o), NULL},
                         theirs = {t, strlen(t), NULL};
    jl_status stop = JL_ERR_OUT_OF_MEMORY;
    const char *text = NULL;
    size_t size = 0;
    seen[0] = '\0';
    CHECK(jl_text_merge(&base, &ours, &theirs, &scratch, &out, resolve, &stop, &text, &size, NULL, NULL) == stop);
    CHECK(scratch.used == scratch_used && out.used == out_used && text == NULL);
}
