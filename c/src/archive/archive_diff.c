/* archive_diff.c - two .jasset texts compared key by key (diff.h). */
#include "juliet/diff.h"

#include "archive/archive_internal.h"

static bool same_value(const jl_archive_entry *a, const jl_archive_entry *b)
{
    return a->value_size == b->value_size && memcmp(a->value, b->value, a->value_size) == 0;
}

jl_status jl_text_diff(const char *old_text, size_t old_size, const char *old_path, const char *new_text,
                       size_t new_size, const char *new_path, jl_arena *scratch, jl_key_change_fn *visit, void *ctx,
                       uint32_t *changes, jl_error *err)
{
    const size_t mark = scratch->used;
    uint32_t count = 0;
    jl_archive older = {0}, newer = {0};
    jl_status s = jl_archive_tokenize(&older, scratch, old_text, old_size, old_path, err);
    if (s == JL_OK) s = jl_archive_tokenize(&newer, scratch, new_text, new_size, new_path, err);
    for (uint32_t i = 0; s == JL_OK && i < newer.entry_count; i++) {
        const jl_archive_entry *e = &newer.entries[i];
        /* jl_archive_find wants a NUL-terminated key: keys are short. */
        char key[JL_ARCHIVE_KEY_MAX + 1];
        memcpy(key, e->key, e->key_size);
        key[e->key_size] = '\0';
        jl_archive_entry *was = jl_archive_find(&older, key);
        if (was) was->used = true;
        if (was && same_value(was, e)) continue;
        const jl_key_change change = {.key = e->key,
                                      .key_size = e->key_size,
                                      .old_value = was ? was->value : NULL,
                                      .old_size = was ? was->value_size : 0,
                                      .new_value = e->value,
                                      .new_size = e->value_size};
        count++;
        s = visit(ctx, &change);
    }
    for (uint32_t i = 0; s == JL_OK && i < older.entry_count; i++) {
        const jl_archive_entry *e = &older.entries[i];
        if (e->used) continue;
        const jl_key_change change = {
            .key = e->key, .key_size = e->key_size, .old_value = e->value, .old_size = e->value_size};
        count++;
        s = visit(ctx, &change);
    }
    jl_arena_pop_to(scratch, mark);
    if (changes) *changes = count;
    return s;
}
