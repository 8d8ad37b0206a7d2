/* archive_merge.c - the three-way merge of a .jasset text, key by key
 * (diff.h). */
#include "juliet/diff.h"

#include "archive/archive_internal.h"

/* A merge under way: the three texts tokenized, and the entries the merged
 * text takes, in its order. */
typedef struct merge {
    jl_archive base, ours, theirs;
    const jl_archive_entry **kept;
    uint32_t kept_count;
    uint32_t conflicts;
    jl_key_conflict_fn *resolve;
    void *ctx;
} merge;

/* The entry of ar with e's key, or NULL. */
static jl_archive_entry *find(jl_archive *ar, const jl_archive_entry *e)
{
    /* jl_archive_find wants a NUL-terminated key: keys are short. */
    char key[JL_ARCHIVE_KEY_MAX + 1];
    memcpy(key, e->key, e->key_size);
    key[e->key_size] = '\0';
    return jl_archive_find(ar, key);
}

/* Both have the same value, or both are absent. */
static bool same(const jl_archive_entry *a, const jl_archive_entry *b)
{
    if (!a || !b) return a == b;
    return a->value_size == b->value_size && memcmp(a->value, b->value, a->value_size) == 0;
}

/* Decides the key of o and t (ours' and theirs' entries, one may be NULL)
 * and appends the entry the merged text keeps, if any. */
static jl_status decide(merge *m, const jl_archive_entry *o, const jl_archive_entry *t)
{
    const jl_archive_entry *b = find(&m->base, o ? o : t);
    const jl_archive_entry *keep = o;
    if (!same(o, t) && same(o, b)) {
        keep = t;
    } else if (!same(o, t) && !same(t, b)) {
        const jl_archive_entry *k = o ? o : t;
        const jl_key_conflict c = {.key = k->key,
                                   .key_size = k->key_size,
                                   .base_value = b ? b->value : NULL,
                                   .base_size = b ? b->value_size : 0,
                                   .ours_value = o ? o->value : NULL,
                                   .ours_size = o ? o->value_size : 0,
                                   .theirs_value = t ? t->value : NULL,
                                   .theirs_size = t ? t->value_size : 0};
        jl_merge_side side = JL_MERGE_OURS;
        m->conflicts++;
        jl_status s = m->resolve ? m->resolve(m->ctx, &c, &side) : JL_OK;
        if (s != JL_OK) return s;
        if (side == JL_MERGE_THEIRS) keep = t;
    }
    if (keep) m->kept[m->kept_count++] = keep;
    return JL_OK;
}

/* Decides the keys only theirs has, from its entry i up to the next one
 * ours has too (marked used). */
static jl_status theirs_run(merge *m, uint32_t i)
{
    jl_status s = JL_OK;
    for (; s == JL_OK && i < m->theirs.entry_count && !m->theirs.entries[i].used; i++)
        s = decide(m, NULL, &m->theirs.entries[i]);
    return s;
}

jl_status jl_text_merge(const jl_merge_input *base, const jl_merge_input *ours, const jl_merge_input *theirs,
                        jl_arena *scratch, jl_arena *out, jl_key_conflict_fn *resolve, void *ctx, const char **text,
                        size_t *size, uint32_t *conflicts, jl_error *err)
{
    const size_t scratch_mark = scratch->used, out_mark = out->used;
    merge m = {.resolve = resolve, .ctx = ctx};
    jl_status s = jl_archive_tokenize(&m.base, scratch, base->text, base->size, base->path, err);
    if (s == JL_OK) s = jl_archive_tokenize(&m.ours, scratch, ours->text, ours->size, ours->path, err);
    if (s == JL_OK) s = jl_archive_tokenize(&m.theirs, scratch, theirs->text, theirs->size, theirs->path, err);
    if (s == JL_OK) {
        m.kept = jl_arena_push(scratch, (m.ours.entry_count + m.theirs.entry_count) * sizeof *m.kept,
                               _Alignof(const jl_archive_entry *));
        if (!m.kept) s = jl_error_set(err, JL_ERR_OUT_OF_MEMORY, NULL, 0, 0, "out of memory merging");
    }
    for (uint32_t i = 0; s == JL_OK && i < m.ours.entry_count; i++) {
        jl_archive_entry *t = find(&m.theirs, &m.ours.entries[i]);
        if (t) t->used = true;
    }
    if (s == JL_OK) s = theirs_run(&m, 0);
    for (uint32_t i = 0; s == JL_OK && i < m.ours.entry_count; i++) {
        const jl_archive_entry *t = find(&m.theirs, &m.ours.entries[i]);
        s = decide(&m, &m.ours.entries[i], t);
        if (s == JL_OK && t) s = theirs_run(&m, (uint32_t)(t - m.theirs.entries) + 1);
    }

    size_t total = 0;
    for (uint32_t i = 0; s == JL_OK && i < m.kept_count; i++) total += 4 + m.kept[i]->key_size + m.kept[i]->value_size;
    char *c = s == JL_OK ? jl_arena_push(out, total, 1) : NULL;
    if (s == JL_OK && !c) s = jl_error_set(err, JL_ERR_OUT_OF_MEMORY, NULL, 0, 0, "out of memory merging");
    if (s != JL_OK) {
        jl_arena_pop_to(out, out_mark);
        jl_arena_pop_to(scratch, scratch_mark);
        return s;
    }
    char *start = c;
    for (uint32_t i = 0; i < m.kept_count; i++) {
        const jl_archive_entry *e = m.kept[i];
        *c++ = ';';
        *c++ = ' ';
        memcpy(c, e->key, e->key_size);
        c += e->key_size;
        *c++ = '\n';
        memcpy(c, e->value, e->value_size);
        c += e->value_size;
        *c++ = '\n';
    }
    /* The text on scratch itself: moved down over what tokenizing took. */
    if (out == scratch) {
        memmove(scratch->base + scratch_mark, start, total);
        start = (char *)scratch->base + scratch_mark;
        jl_arena_pop_to(scratch, scratch_mark + total);
    } else {
        jl_arena_pop_to(scratch, scratch_mark);
    }
    *text = start;
    *size = total;
    if (conflicts) *conflicts = m.conflicts;
    return JL_OK;
}
