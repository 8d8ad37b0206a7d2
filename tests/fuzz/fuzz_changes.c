/* fuzz_changes.c - libFuzzer target for the change-link decoder and its
 * applier (changes.h).
 *
 * The input is a change link's bytes (after inflate), decoded as given and
 * with its checksum made right, then applied to a small generated world
 * whose files are its own (the seeds are edits of that world, so their
 * prints match and applying is reached). Properties checked beyond "no
 * sanitizer report":
 *  - a rejected input says why (status and message) and leaves the arena
 *    as it was;
 *  - an accepted one has its lists in ascending ID order, keys a file may
 *    hold and values of one line;
 *  - applying it with JL_CHANGES_ALL_OR_NOTHING changes nothing when
 *    anything conflicts; applying it visits every entity once, counts each
 *    as applied, a conflict or failed, and leaves a manager that passes
 *    every invariant (jl_manager_check). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "juliet/changes.h"
#include "juliet/private/world_manager.h" /* white-box: the world's manager */
#include "juliet/world.h"
#include "fuzz.h"
#include "sample_world_gen.h"

enum { WORLD_SIZE = 64, SEED = 1 }; /* the world of the seeds: `juliet gen DIR --count 64` */

static jl_arena arena;

FUZZ_INITIALIZE_WITH_ARENA(arena, 512u << 20)

static bool is_key(const char *k, uint32_t n)
{
    if (n == 0) return false;
    for (uint32_t i = 0; i < n; i++) {
        const char c = k[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    }
    return true;
}

static void check_entity(const jl_change_entity *e)
{
    for (uint32_t f = 0; f < e->field_count; f++) {
        const jl_change_field *field = &e->fields[f];
        FUZZ_ASSERT(is_key(field->key, field->key_size));
        if (field->value) FUZZ_ASSERT(!memchr(field->value, '\n', field->value_size));
    }
}

static void check_list(const jl_change_entity *list, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        FUZZ_ASSERT(list[i].id != 0 && (i == 0 || list[i].id > list[i - 1].id));
        check_entity(&list[i]);
    }
}

/* The generated world, every file its own (clean, with a print). */
static jl_world *seed_world(void)
{
    jl_world_desc desc = {.capacity = WORLD_SIZE * 4, .id_tag = sample_world_gen_tag(SEED)};
    jl_world *w = NULL;
    if (jl_world_new(&desc, &w) != JL_OK || sample_world_generate(w, WORLD_SIZE, SEED) != JL_OK) abort();
    for (jl_world_iter it = jl_world_iter_all(w); jl_world_next(&it);) jl_world_mark_saved(w, it.entity->id);
    jl_world_settings_mark_saved(w);
    return w;
}

typedef struct tally {
    uint32_t visits;
} tally;

static void count_visit(void *ctx, const jl_change_report *r)
{
    tally *t = ctx;
    FUZZ_ASSERT(r->outcome != JL_CHANGE_FAILED || (r->err && r->err->message[0]));
    t->visits++;
}

static void check(const uint8_t *data, size_t size)
{
    jl_changes c;
    jl_error err = {0};
    jl_status s = jl_changes_decode(data, size, &arena, &c, &err);
    if (s != JL_OK) {
        FUZZ_ASSERT(err.status == s && err.message[0] != '\0');
        FUZZ_ASSERT(arena.used == 0);
        return;
    }
    check_list(c.changed, c.changed_count);
    check_list(c.added, c.added_count);
    check_list(c.deleted, c.deleted_count);
    if (c.has_settings) check_entity(&c.settings);
    const uint32_t total = (c.has_settings ? 1 : 0) + c.changed_count + c.added_count + c.deleted_count;

    jl_world *w = seed_world();
    uint32_t applied = 0, conflicts = 0, failed = 0;
    tally t = {0};
    const size_t mark = arena.used;
    s = jl_changes_apply(w, &c, JL_CHANGES_ALL_OR_NOTHING, &arena, count_visit, &t, &applied, &conflicts, &failed);
    FUZZ_ASSERT(arena.used == mark);
    if (s == JL_OK && conflicts) {
        FUZZ_ASSERT(applied == 0 && failed == 0 && jl_world_count(w) == WORLD_SIZE);
        FUZZ_ASSERT(t.visits == conflicts);
    }
    FUZZ_ASSERT(jl_manager_check(jl_world_manager(w), &err) == JL_OK);
    jl_world_free(w);

    w = seed_world();
    t = (tally){0};
    s = jl_changes_apply(w, &c, 0, &arena, count_visit, &t, &applied, &conflicts, &failed);
    if (s == JL_OK) FUZZ_ASSERT(t.visits == total && applied + conflicts + failed == total);
    FUZZ_ASSERT(jl_manager_check(jl_world_manager(w), &err) == JL_OK);
    jl_world_free(w);
    jl_arena_pop_to(&arena, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size);
    uint8_t *fixed = fuzz_checksum_fixed(data, size);
    if (fixed) check(fixed, size);
    free(fixed);
    return 0;
}
