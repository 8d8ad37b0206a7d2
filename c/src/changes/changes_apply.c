/* changes_apply.c - a decoded change set applied to a world (changes.h):
 * conflicts found first (file prints), then each entity's edited text made
 * from its current one and handed to the engine, which checks it as it
 * checks a file. */
#include <stdio.h>

#include "changes/changes_internal.h"

/* A changed or deleted entity still stands on the file the link was made
 * against. An entity the world cannot tell (print 0) conflicts. */
static bool same_file(jl_world *world, const jl_change_entity *e)
{
    uint64_t print = jl_world_file_print(world, e->id);
    return print != 0 && jli_changes_print32(print) == e->print;
}

/* Why the entity cannot be applied, or JL_CHANGE_APPLIED. */
static jl_change_outcome check(jl_world *world, jl_change_kind kind, const jl_change_entity *e)
{
    bool exists = e->id == 0 || jl_world_find(world, e->id) != NULL;
    switch (kind) {
    case JL_CHANGE_ADDED:
        return exists ? JL_CHANGE_CONFLICT : JL_CHANGE_APPLIED;
    case JL_CHANGE_REMOVED:
        /* Gone already: what the link asks for holds. */
        return !exists || same_file(world, e) ? JL_CHANGE_APPLIED : JL_CHANGE_CONFLICT;
    default:
        return exists && same_file(world, e) ? JL_CHANGE_APPLIED : JL_CHANGE_CONFLICT;
    }
}

static const jl_change_field *find_field(const jl_change_entity *e, const char *key, uint32_t key_size)
{
    /* The last of a key given twice wins, as in a file. */
    for (uint32_t f = e->field_count; f-- > 0;)
        if (e->fields[f].key_size == key_size && memcmp(e->fields[f].key, key, key_size) == 0) return &e->fields[f];
    return NULL;
}

static bool in_text(const jl_archive *ar, const jl_change_field *field)
{
    for (uint32_t i = 0; i < ar->entry_count; i++)
        if (ar->entries[i].key_size == field->key_size && memcmp(ar->entries[i].key, field->key, field->key_size) == 0)
            return true;
    return false;
}

/* Appends "; key\nvalue\n" to the text growing on scratch. */
static bool put_key(jl_arena *scratch, const char *key, uint32_t key_size, const char *value, uint32_t value_size)
{
    char *p = jl_arena_push(scratch, (size_t)key_size + value_size + 4, 1);
    if (!p) return false;
    memcpy(p, "; ", 2);
    memcpy(p + 2, key, key_size);
    p[2 + key_size] = '\n';
    memcpy(p + 3 + key_size, value, value_size);
    p[3 + key_size + value_size] = '\n';
    return true;
}

/* The entity's (or the settings') text now with the link's keys set over
 * it: each key of the current text in its place, with the link's value if
 * it has one (and left out if the link removes it), then the keys only the
 * link has. Pushed on scratch (the caller pops); JL_ERR_PARSE if the
 * current text does not tokenize (it always should: the engine wrote it). */
static jl_status edited_text(jl_world *world, const jl_change_entity *e, jl_arena *scratch, const char **text,
                             size_t *size, jl_error *err)
{
    const char *now;
    size_t now_size;
    jl_status s =
        e->id ? jl_world_write_entity(world, e->id, &now, &now_size) : jl_world_write_settings(world, &now, &now_size);
    if (s != JL_OK) return s;
    /* The world's scratch text is valid only until the next call into it. */
    char *copy = jl_arena_push(scratch, now_size + 1, 1);
    if (!copy) return JL_ERR_OUT_OF_MEMORY;
    memcpy(copy, now, now_size);
    jl_archive ar = {0};
    s = jl_archive_tokenize(&ar, scratch, copy, now_size, NULL, err);
    if (s != JL_OK) return s;
    char *start = NULL;
    const size_t at = scratch->used;
    for (uint32_t i = 0; i < ar.entry_count; i++) {
        const jl_archive_entry *entry = &ar.entries[i];
        const jl_change_field *field = find_field(e, entry->key, entry->key_size);
        if (field && !field->value) continue;
        const char *value = field ? field->value : entry->value;
        uint32_t value_size = field ? field->value_size : entry->value_size;
        if (!put_key(scratch, entry->key, entry->key_size, value, value_size)) return JL_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t f = 0; f < e->field_count; f++) {
        const jl_change_field *field = &e->fields[f];
        if (!field->value || in_text(&ar, field) || find_field(e, field->key, field->key_size) != field) continue;
        if (!put_key(scratch, field->key, field->key_size, field->value, field->value_size))
            return JL_ERR_OUT_OF_MEMORY;
    }
    start = (char *)scratch->base + at;
    *text = start;
    *size = scratch->used - at;
    return JL_OK;
}

/* Applies one entity that passed the check; the outcome. */
static jl_change_outcome apply_one(jl_world *world, jl_change_kind kind, const jl_change_entity *e, jl_arena *scratch,
                                   jl_error *err, jl_status *status)
{
    const size_t mark = scratch->used;
    jl_status s = JL_OK;
    if (kind == JL_CHANGE_REMOVED) {
        s = jl_world_find(world, e->id) ? jl_world_remove(world, e->id) : JL_OK;
        if (s != JL_OK)
            jl_error_set(err, s, NULL, 0, 0, "cannot delete entity %llu (%s)", (unsigned long long)e->id,
                         jl_status_name(s));
    } else if (kind == JL_CHANGE_ADDED) {
        s = jl_world_restore_entity_text(world, e->id, e->text, e->text_size, err);
    } else {
        const char *text = NULL;
        size_t size = 0;
        s = edited_text(world, e, scratch, &text, &size, err);
        if (s == JL_OK)
            s = e->id ? jl_world_restore_entity_text(world, e->id, text, size, err)
                      : jl_world_restore_settings_text(world, text, size, err);
        else if (s == JL_ERR_OUT_OF_MEMORY)
            jl_error_set(err, s, NULL, 0, 0, "out of memory for the edited text of entity %llu",
                         (unsigned long long)e->id);
    }
    jl_arena_pop_to(scratch, mark);
    *status = s;
    return s == JL_OK ? JL_CHANGE_APPLIED : JL_CHANGE_FAILED;
}

typedef struct list {
    jl_change_kind kind;
    const jl_change_entity *entities;
    uint32_t count;
} list;

jl_status jl_changes_apply(jl_world *world, const jl_changes *changes, uint32_t flags, jl_arena *scratch,
                           jl_change_report_fn *visit, void *ctx, uint32_t *applied, uint32_t *conflicts,
                           uint32_t *failed)
{
    uint32_t n_applied = 0, n_conflicts = 0, n_failed = 0;
    const list lists[4] = {
        {JL_CHANGE_MODIFIED, &changes->settings, changes->has_settings ? 1 : 0},
        {JL_CHANGE_MODIFIED, changes->changed, changes->changed_count},
        {JL_CHANGE_ADDED, changes->added, changes->added_count},
        {JL_CHANGE_REMOVED, changes->deleted, changes->deleted_count},
    };
    /* Conflicts first, against the world as it is before anything applies. */
    bool any_conflict = false;
    for (int l = 0; l < 4 && !any_conflict; l++)
        for (uint32_t i = 0; i < lists[l].count && !any_conflict; i++)
            any_conflict = check(world, lists[l].kind, &lists[l].entities[i]) == JL_CHANGE_CONFLICT;
    const bool nothing = any_conflict && (flags & JL_CHANGES_ALL_OR_NOTHING);
    jl_status result = JL_OK;
    for (int l = 0; l < 4; l++) {
        for (uint32_t i = 0; i < lists[l].count; i++) {
            const jl_change_entity *e = &lists[l].entities[i];
            jl_change_report report = {.kind = lists[l].kind, .id = e->id};
            jl_error err = {0};
            /* An added entity's ID may be taken by an earlier one of the link: checked again. */
            report.outcome = check(world, report.kind, e);
            if (report.outcome == JL_CHANGE_APPLIED) {
                if (nothing || result != JL_OK) continue;
                jl_status s = JL_OK;
                report.outcome = apply_one(world, report.kind, e, scratch, &err, &s);
                if (s == JL_ERR_OUT_OF_MEMORY) result = s;
                if (report.outcome == JL_CHANGE_FAILED) report.err = &err;
            }
            n_applied += report.outcome == JL_CHANGE_APPLIED;
            n_conflicts += report.outcome == JL_CHANGE_CONFLICT;
            n_failed += report.outcome == JL_CHANGE_FAILED;
            if (visit) visit(ctx, &report);
        }
    }
    if (applied) *applied = n_applied;
    if (conflicts) *conflicts = n_conflicts;
    if (failed) *failed = n_failed;
    return result;
}
