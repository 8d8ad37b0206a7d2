/* fuzz_class_file.c - libFuzzer target for one class file
 * (Classes/<Name>.jclass, class_file.h: jl_world_load_class_text), the text
 * a world directory hands the engine to describe a class. The path given
 * is not a .jclass name, so that the class may have any name.
 *
 * Properties checked beyond "no sanitizer report":
 *  - a refused file is a status with a message, and registers nothing;
 *  - an accepted file that names a new class registers exactly one class,
 *    whose canonical class file (jl_class_file_text) loads into a fresh
 *    world as a class with the same canonical text (a fixed point);
 *  - an entity of that class, made with its defaults, writes to text that
 *    loads back into that fresh world and writes again to the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "juliet/archive.h"
#include "juliet/class_file.h"
#include "juliet/world.h"
#include "fuzz.h"

static jl_arena arena;
FUZZ_INITIALIZE_WITH_ARENA(arena, 16u << 20)

static jl_world *new_world(void)
{
    jl_world *w;
    FUZZ_ASSERT(jl_world_new(&(jl_world_desc){.capacity = 16}, &w) == JL_OK);
    return w;
}

/* The text of entity e, pushed on the arena. */
static void entity_text(const jl_entity *e, const char **text, size_t *size)
{
    jl_archive ar;
    jl_archive_begin_write(&ar, &arena);
    jl_archive_write_entity(&ar, e, NULL, 0);
    FUZZ_ASSERT(jl_archive_end_write(&ar, text, size) == JL_OK);
}

/* The file's class, loaded into another world from its canonical text,
 * is the same class; an entity of it round-trips between the worlds. */
static void check_class(jl_world *w, const jl_class *cls)
{
    const char *text;
    size_t size;
    jl_error err;
    jl_status s = jl_class_file_text(cls, &arena, &text, &size, &err);
    if (s == JL_ERR_OUT_OF_MEMORY) return;
    FUZZ_ASSERT(s == JL_OK);

    jl_world *again = new_world();
    FUZZ_ASSERT(jl_world_load_class_text(again, "again", text, size, &err) == JL_OK);
    const jl_class *same = jl_world_class_find(again, cls->name, strlen(cls->name));
    FUZZ_ASSERT(same);
    const char *text2;
    size_t size2;
    FUZZ_ASSERT(jl_class_file_text(same, &arena, &text2, &size2, &err) == JL_OK);
    FUZZ_ASSERT(size2 == size && memcmp(text, text2, size) == 0);

    jl_entity *e;
    if (jl_world_create(w, cls->name, 1.0f, 2.0f, 3.0f, &e) == JL_OK) {
        const char *etext, *etext2;
        size_t esize, esize2;
        entity_text(e, &etext, &esize);
        jl_entity *back = NULL;
        FUZZ_ASSERT(jl_world_load_entity_text(again, NULL, etext, esize, false, &back, &err) == JL_OK);
        entity_text(back, &etext2, &esize2);
        FUZZ_ASSERT(esize2 == esize && memcmp(etext, etext2, esize) == 0);
    }
    jl_world_free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jl_arena_pop_to(&arena, 0);
    jl_world *w = new_world();
    uint32_t before = jl_world_class_count(w);
    jl_error err;
    memset(&err, 0, sizeof err);
    jl_status s = jl_world_load_class_text(w, "fuzz-input", (const char *)data, size, &err);
    uint32_t after = jl_world_class_count(w);
    if (s != JL_OK) {
        FUZZ_ASSERT(err.message[0] != '\0');
        FUZZ_ASSERT(after == before);
    } else {
        FUZZ_ASSERT(after == before || after == before + 1);
        if (after == before + 1) check_class(w, jl_world_class_at(w, before));
    }
    jl_world_free(w);
    return 0;
}
