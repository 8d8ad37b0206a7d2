/* fuzz_entity_file.c - libFuzzer target for one .jasset entity file
 * (archive.h): the tokenizer, the in-place load (spec 4.4) and the writer.
 *
 * Properties checked beyond "no sanitizer report":
 *  - a rejected file leaves the manager exactly as before (no live entity,
 *    invariants hold) and has a diagnostic with a message;
 *  - a loaded file gives one clean entity whose manager passes
 *    jl_manager_check;
 *  - unless it is read-only (a newer file, never rewritten), writing it
 *    back (with its unknown keys) gives text that loads again to an entity
 *    that writes the very same text (canonical form is a fixed point), so
 *    no value is silently changed or dropped on a second save;
 *  - a world's loader (which reads a canonical file in one pass, anything
 *    else by key) agrees with the manager's: the same error at the same
 *    place, or an entity that writes the same text; so does it for the
 *    written text, which is canonical. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "juliet/archive.h"
#include "juliet/world.h"
#include "fuzz.h"

static jl_arena arena;
FUZZ_INITIALIZE_WITH_ARENA(arena, 256u << 20)

/* Loads text into manager; on success writes it back into the arena and
 * returns the written text. */
static jl_status load_and_write(jl_entity_manager *manager, const char *text, size_t size, const char **out,
                                size_t *out_size, jl_error *error)
{
    jl_error err = {0};
    jl_archive ar;
    const size_t mark = arena.used;
    jl_status s = jl_archive_tokenize(&ar, &arena, text, size, "fuzz.jasset", &err);
    jl_entity *entity = NULL;
    if (s == JL_OK) s = jl_entity_deserialize_in_place(manager, &ar, &entity);
    if (s != JL_OK) {
        FUZZ_ASSERT(err.status == s);
        FUZZ_ASSERT(err.message[0] != '\0');
        FUZZ_ASSERT(entity == NULL);
        FUZZ_ASSERT(manager->count == 0);
        *error = err;
        FUZZ_ASSERT(jl_manager_check(manager, &err) == JL_OK);
        jl_arena_pop_to(&arena, mark);
        return s;
    }
    FUZZ_ASSERT(entity && jl_entity_is_alive(entity));
    FUZZ_ASSERT(!entity->is_dirty);
    FUZZ_ASSERT(entity->id != 0);
    FUZZ_ASSERT(jl_entity_find(manager, entity->id) == entity);
    FUZZ_ASSERT(manager->count == 1);
    FUZZ_ASSERT(jl_manager_check(manager, &err) == JL_OK);

    const char *extra = NULL;
    size_t extra_size = 0;
    FUZZ_ASSERT(jl_archive_collect_unknown(&ar, &arena, &extra, &extra_size) == JL_OK);
    jl_archive writer = {0};
    writer.err = &err;
    jl_archive_begin_write(&writer, &arena);
    FUZZ_ASSERT(jl_archive_write_entity(&writer, entity, extra, extra_size) == JL_OK);
    FUZZ_ASSERT(jl_archive_end_write(&writer, out, out_size) == JL_OK);
    return JL_OK;
}

/* Loads text through a world: the outcome has to be want (with want_err),
 * or for JL_OK an entity that writes want_text. A class the manager does
 * not know the world keeps as text (an opaque entity): not compared. */
static void check_world_agrees(const char *text, size_t size, jl_status want, const jl_error *want_err,
                               const char *want_text, size_t want_size)
{
    if (want == JL_ERR_UNKNOWN_CLASS) return;
    jl_world *w;
    jl_world_desc desc = {.capacity = 8, .id_tag = 0x0f0f0f0fu};
    if (jl_world_new(&desc, &w) != JL_OK) abort();
    jl_error err = {0};
    jl_entity *e = NULL;
    jl_status s = jl_world_load_entity_text(w, "fuzz.jasset", text, size, false, &e, &err);
    if (s != want || (s != JL_OK && (err.line != want_err->line || err.col != want_err->col ||
                                     strcmp(err.message, want_err->message) != 0))) {
        fprintf(stderr, "world: %s %u:%u %s\nmanager: %s %u:%u %s\n", jl_status_name(s), err.line, err.col, err.message,
                jl_status_name(want), want_err->line, want_err->col, want_err->message);
        FUZZ_ASSERT(!"the world's loader and the manager's disagree");
    }
    if (s == JL_OK) {
        uint32_t extra_size = 0;
        const char *extra = jl_world_unknown_keys(w, e->id, &extra_size);
        jl_archive writer = {0};
        writer.err = &err;
        jl_archive_begin_write(&writer, &arena);
        const char *written;
        size_t written_size;
        FUZZ_ASSERT(jl_archive_write_entity(&writer, e, extra, extra_size) == JL_OK);
        FUZZ_ASSERT(jl_archive_end_write(&writer, &written, &written_size) == JL_OK);
        FUZZ_ASSERT(written_size == want_size && memcmp(written, want_text, want_size) == 0);
    }
    jl_world_free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jl_manager_desc desc = {.capacity = 8, .id_tag = 0x0f0f0f0fu};
    jl_entity_manager first, second;
    if (jl_manager_init(&first, &desc) != JL_OK || jl_manager_init(&second, &desc) != JL_OK) abort();

    const char *one = NULL, *two = NULL;
    size_t one_size = 0, two_size = 0;
    /* A file newer than this build loads read-only and is never rewritten:
     * its round trip is not defined. */
    jl_error first_err = {0}, second_err = {0};
    jl_status first_status = load_and_write(&first, (const char *)data, size, &one, &one_size, &first_err);
    check_world_agrees((const char *)data, size, first_status, &first_err, one, one_size);
    if (first_status == JL_OK && !(jl_entities_first(&first)->flags & JL_ENTITY_READ_ONLY) && one_size != SIZE_MAX) {
        /* The first write has to load, and be its own canonical form. */
        char *copy = malloc(one_size ? one_size : 1);
        FUZZ_ASSERT(copy);
        memcpy(copy, one, one_size);
        jl_status s = load_and_write(&second, copy, one_size, &two, &two_size, &second_err);
        if (s != JL_OK) {
            fprintf(stderr, "rewritten file does not load:\n%.*s\n", (int)one_size, copy);
            FUZZ_ASSERT(s == JL_OK);
        }
        if (!(two_size == one_size && memcmp(copy, two, one_size) == 0)) {
            fprintf(stderr, "--- first write (%zu bytes)\n%.*s--- second write (%zu bytes)\n%.*s---\n", one_size,
                    (int)one_size, copy, two_size, (int)two_size, two);
            FUZZ_ASSERT(!"the written file does not write back to itself");
        }
        FUZZ_ASSERT(jl_entities_first(&first)->flags == jl_entities_first(&second)->flags);
        check_world_agrees(copy, one_size, JL_OK, &second_err, two, two_size);
        free(copy);
    }
    jl_arena_pop_to(&arena, 0);
    jl_manager_shutdown(&second);
    jl_manager_shutdown(&first);
    return 0;
}
