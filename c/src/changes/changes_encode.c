/* changes_encode.c - a world's edits as a change link's bytes (changes.h;
 * format in docs/format.md, "Change links"). A changed entity carries only
 * the keys jl_text_diff finds changed, as the text a file holds. */
#include <stdio.h>

#include "changes/changes_internal.h"

/* One input with what the encoder found of it. */
typedef struct item {
    const jl_change_input *in;
    jl_change_field *fields; /* changed keys (changed entities only) */
    uint32_t field_count;
} item;

/* Sorts items[0, n) by ID in place (a heap sort: no memory beyond the
 * items, where the C library's qsort may ask the system for some). */
static void sift_down(item *items, uint32_t at, uint32_t n)
{
    for (;;) {
        uint32_t child = 2 * at + 1;
        if (child >= n) return;
        if (child + 1 < n && items[child + 1].in->id > items[child].in->id) child++;
        if (items[at].in->id >= items[child].in->id) return;
        item t = items[at];
        items[at] = items[child];
        items[child] = t;
        at = child;
    }
}

static void sort_by_id(item *items, uint32_t n)
{
    for (uint32_t i = n / 2; i-- > 0;) sift_down(items, i, n);
    for (uint32_t end = n; end > 1; end--) {
        item t = items[0];
        items[0] = items[end - 1];
        items[end - 1] = t;
        sift_down(items, 0, end - 1);
    }
}

/* The diff's visitor: counts the changed keys, or (fields set) records them. */
typedef struct collect {
    jl_change_field *fields;
    uint32_t count;
} collect;

static jl_status visit_key(void *ctx, const jl_key_change *change)
{
    collect *c = ctx;
    if (c->fields)
        c->fields[c->count] = (jl_change_field){.key = change->key,
                                                .value = change->new_value,
                                                .key_size = change->key_size,
                                                .value_size = change->new_size};
    c->count++;
    return JL_OK;
}

/* The changed keys of an entity present on both sides, pushed on arena:
 * counted by a first diff, then recorded by a second (the diff's
 * tokenizing takes the same arena and gives it back in between). */
static jl_status diff_entity(item *it, jl_arena *arena, jl_error *err)
{
    char path[64];
    if (it->in->id) snprintf(path, sizeof path, "Entities/%llu.jasset", (unsigned long long)it->in->id);
    else snprintf(path, sizeof path, "WorldSettings.jasset");
    const jl_change_input *in = it->in;
    collect c = {0};
    jl_status s = jl_text_diff(in->old_text, in->old_size, path, in->new_text, in->new_size, path, arena, visit_key, &c,
                               NULL, err);
    if (s != JL_OK || c.count == 0) return s;
    it->fields = jl_arena_push(arena, (size_t)c.count * sizeof *it->fields, _Alignof(jl_change_field));
    if (!it->fields) return jl_error_set(err, JL_ERR_OUT_OF_MEMORY, NULL, 0, 0, "change link: out of memory");
    it->field_count = c.count;
    c = (collect){.fields = it->fields};
    return jl_text_diff(in->old_text, in->old_size, path, in->new_text, in->new_size, path, arena, visit_key, &c, NULL,
                        err);
}

static void write_fields(jli_snap_writer *w, const item *it)
{
    jli_snap_write_varint(w, it->field_count);
    for (uint32_t f = 0; f < it->field_count; f++) {
        const jl_change_field *field = &it->fields[f];
        jli_snap_write_varint(w, field->key_size);
        jli_snap_write_bytes(w, field->key, field->key_size);
        /* 0: the key is gone; else the value's size plus one. */
        jli_snap_write_varint(w, field->value ? (uint64_t)field->value_size + 1 : 0);
        if (field->value) jli_snap_write_bytes(w, field->value, field->value_size);
    }
}

static uint32_t print_of(const jl_change_input *in)
{
    return jli_changes_print32(jli_text_print(in->old_text, in->old_size));
}

/* The IDs of items[0, n) into ids (scratch of n). */
static void write_ids(jli_snap_writer *w, const item *items, uint32_t n, uint64_t *ids)
{
    for (uint32_t i = 0; i < n; i++) ids[i] = items[i].in->id;
    jli_snap_write_varint(w, n);
    jli_snap_write_sorted_ids(w, ids, n);
}

static jl_status fail(jl_arena *arena, size_t mark, jl_error *err, jl_status status, const char *message, uint64_t id)
{
    jl_arena_pop_to(arena, mark);
    return jl_error_set(err, status, NULL, 0, 0, "change link: %s (entity %llu)", message, (unsigned long long)id);
}

jl_status jl_changes_encode(const char *world_name, const jl_change_input *inputs, uint32_t count, jl_arena *arena,
                            jl_snapshot_bytes *out, uint32_t *count_out, jl_error *err)
{
    *out = (jl_snapshot_bytes){0};
    if (count_out) *count_out = 0;
    if (!arena || !arena->base || (count && !inputs))
        return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "change link: no arena or no inputs");
    const size_t mark = arena->used;
    item *items = jl_arena_push(arena, (size_t)count * sizeof *items + 1, _Alignof(item));
    uint64_t *ids = jl_arena_push(arena, (size_t)count * sizeof *ids + 1, _Alignof(uint64_t));
    if (!items || !ids) return fail(arena, mark, err, JL_ERR_OUT_OF_MEMORY, "out of memory", 0);
    for (uint32_t i = 0; i < count; i++) items[i] = (item){.in = &inputs[i]};
    sort_by_id(items, count);

    /* Sort into settings, changed, added, deleted, dropping what did not change. */
    item *settings = NULL;
    uint32_t n_changed = 0, n_added = 0, n_deleted = 0;
    for (uint32_t i = 0; i < count; i++) {
        const jl_change_input *in = items[i].in;
        if (i && items[i - 1].in->id == in->id)
            return fail(arena, mark, err, JL_ERR_INVALID_ARGUMENT, "an ID given twice", in->id);
        if (!in->old_text && !in->new_text)
            return fail(arena, mark, err, JL_ERR_INVALID_ARGUMENT, "neither text given", in->id);
        if (in->id == 0 && (!in->old_text || !in->new_text))
            return fail(arena, mark, err, JL_ERR_INVALID_ARGUMENT, "the settings are never added or deleted", 0);
        if (in->old_text && in->new_text) {
            jl_status s = diff_entity(&items[i], arena, err);
            if (s != JL_OK) {
                jl_arena_pop_to(arena, mark);
                return s;
            }
            if (items[i].field_count == 0) continue;
            if (in->id == 0) settings = &items[i];
            else n_changed++;
        } else if (in->new_text) {
            n_added++;
        } else {
            n_deleted++;
        }
    }
    if (n_changed > JL_CHANGES_MAX_ENTITIES || n_added > JL_CHANGES_MAX_ENTITIES || n_deleted > JL_CHANGES_MAX_ENTITIES)
        return fail(arena, mark, err, JL_ERR_CAPACITY, "more entities than a link holds", 0);
    /* Each list by ascending ID, apart. */
    item *changed = jl_arena_push(arena, (size_t)(n_changed + n_added + n_deleted) * sizeof *items + 1, _Alignof(item));
    if (!changed) return fail(arena, mark, err, JL_ERR_OUT_OF_MEMORY, "out of memory", 0);
    item *added = changed + n_changed, *deleted = added + n_added;
    uint32_t c = 0, a = 0, d = 0;
    for (uint32_t i = 0; i < count; i++) {
        const jl_change_input *in = items[i].in;
        if (in->id == 0) continue;
        if (in->old_text && in->new_text) {
            if (items[i].field_count) changed[c++] = items[i];
        } else if (in->new_text) {
            added[a++] = items[i];
        } else {
            deleted[d++] = items[i];
        }
    }

    jli_snap_writer w = {.arena = arena};
    jli_snap_write_bytes(&w, jli_changes_magic, sizeof jli_changes_magic);
    jli_snap_write_u8(&w, JL_CHANGES_VERSION);
    jli_snap_write_varint(&w, settings ? JLI_CHANGES_FLAG_SETTINGS : 0);
    size_t name_size = world_name ? strlen(world_name) : 0;
    if (name_size > JL_CHANGES_NAME_MAX) name_size = JL_CHANGES_NAME_MAX;
    jli_snap_write_varint(&w, name_size);
    jli_snap_write_bytes(&w, world_name, name_size);
    if (settings) {
        jli_snap_write_u32(&w, print_of(settings->in));
        write_fields(&w, settings);
    }
    write_ids(&w, changed, n_changed, ids);
    for (uint32_t i = 0; i < n_changed; i++) jli_snap_write_u32(&w, print_of(changed[i].in));
    for (uint32_t i = 0; i < n_changed; i++) write_fields(&w, &changed[i]);
    write_ids(&w, added, n_added, ids);
    for (uint32_t i = 0; i < n_added; i++) {
        jli_snap_write_varint(&w, added[i].in->new_size);
        jli_snap_write_bytes(&w, added[i].in->new_text, added[i].in->new_size);
    }
    write_ids(&w, deleted, n_deleted, ids);
    for (uint32_t i = 0; i < n_deleted; i++) jli_snap_write_u32(&w, print_of(deleted[i].in));
    if (!w.failed) jli_snap_write_u32(&w, jl_crc32(w.start, w.size));
    if (w.failed) return fail(arena, mark, err, JL_ERR_OUT_OF_MEMORY, "out of memory", 0);
    if (w.size > JL_CHANGES_MAX_BYTES) return fail(arena, mark, err, JL_ERR_CAPACITY, "larger than a link holds", 0);
    /* Slide the bytes down over the scratch: the arena grows by exactly the output. */
    uint8_t *dest = arena->base + mark;
    memmove(dest, w.start, w.size);
    jl_arena_pop_to(arena, mark + w.size);
    *out = (jl_snapshot_bytes){.data = dest, .size = w.size};
    if (count_out) *count_out = n_changed + n_added + n_deleted + (settings ? 1 : 0);
    return JL_OK;
}

/* ---- two worlds ---- */

typedef struct gather {
    jl_change_input *inputs; /* NULL in the counting pass */
    char *texts;             /* room for every text, filled in order */
    uint32_t count;
    size_t bytes;
} gather;

static const char *copy_text(gather *g, const char *text, size_t size)
{
    if (!text) return NULL;
    char *copy = g->texts + g->bytes;
    memcpy(copy, text, size);
    g->bytes += size;
    return copy;
}

/* Counts the changes and their texts' bytes (first pass), or copies them
 * into the room the first pass measured (second pass). The texts are valid
 * only during the visit, and jl_world_diff gives back whatever is pushed
 * on its scratch while it runs: hence two passes and nothing pushed here. */
static jl_status keep_change(void *ctx, const jl_entity_change *change)
{
    gather *g = ctx;
    if (!g->inputs) {
        g->count++;
        g->bytes += change->old_size + change->new_size;
        return JL_OK;
    }
    jl_change_input *in = &g->inputs[g->count++];
    *in = (jl_change_input){.id = change->id, .old_size = change->old_size, .new_size = change->new_size};
    in->old_text = copy_text(g, change->old_text, change->old_size);
    in->new_text = copy_text(g, change->new_text, change->new_size);
    return JL_OK;
}

jl_status jl_changes_encode_worlds(const char *world_name, jl_world *older, jl_world *newer, jl_arena *arena,
                                   jl_snapshot_bytes *out, uint32_t *count_out, jl_error *err)
{
    *out = (jl_snapshot_bytes){0};
    if (!arena || !arena->base || !older || !newer)
        return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "change link: no arena or no world");
    const size_t mark = arena->used;
    gather g = {0};
    jl_status s = jl_world_diff(older, newer, arena, keep_change, &g, NULL);
    if (s == JL_OK) {
        g.inputs = jl_arena_push(arena, (size_t)g.count * sizeof *g.inputs + 1, _Alignof(jl_change_input));
        g.texts = jl_arena_push(arena, g.bytes + 1, 1);
        g.count = 0;
        g.bytes = 0;
        s = g.inputs && g.texts ? jl_world_diff(older, newer, arena, keep_change, &g, NULL) : JL_ERR_OUT_OF_MEMORY;
    }
    if (s != JL_OK) {
        jl_arena_pop_to(arena, mark);
        return jl_error_set(err, s, NULL, 0, 0, "change link: cannot compare the worlds (%s)", jl_status_name(s));
    }
    jl_snapshot_bytes bytes;
    s = jl_changes_encode(world_name, g.inputs, g.count, arena, &bytes, count_out, err);
    if (s != JL_OK) {
        jl_arena_pop_to(arena, mark);
        return s;
    }
    /* The texts stay under the bytes; the caller pops both together. */
    *out = bytes;
    return JL_OK;
}
