/* crate_game.c - a program outside the tree, built against the installed
 * library with nothing but `pkg-config --cflags --libs juliet`: it
 * registers a class of its own, saves a world of it into DIR and loads it
 * back.
 *
 *   crate_game DIR    DIR must not exist or be empty
 *
 * Exit status 0 when the world saved and loaded back equal, else 1. */
#include <stdio.h>
#include <string.h>

#include <juliet/juliet.h>

typedef struct crate {
    JL_ENTITY_BASE;
    float weight;   /* kilograms, default 20 */
    bool breakable; /* default true */
} crate;

static const jl_field crate_fields[] = {
    JL_FIELD(crate, weight, JL_FIELD_F32, 0),
    JL_FIELD(crate, breakable, JL_FIELD_BOOL, 0),
};
JL_DEFINE_ENTITY(crate, "Crate", 1, crate_fields, NULL, {.weight = 20.0f, .breakable = true});

static int fail(const char *what, jl_status s)
{
    fprintf(stderr, "crate_game: %s: %s\n", what, jl_status_name(s));
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: crate_game DIR\n");
        return 2;
    }
    if (strcmp(jl_version(), JL_VERSION_STRING) != 0) {
        fprintf(stderr, "crate_game: headers %s, library %s\n", JL_VERSION_STRING, jl_version());
        return 1;
    }
    jl_status s = jl_class_register(&crate_class);
    if (s != JL_OK) return fail("cannot register Crate", s);

    jl_world *world;
    if ((s = jl_world_new(NULL, &world)) != JL_OK) return fail("cannot create a world", s);
    for (int i = 0; i < 4; i++) {
        jl_entity *e;
        if ((s = jl_world_create(world, "Crate", (float)i, 0, 0, &e)) != JL_OK) return fail("cannot create", s);
        ((crate *)e->derived)->weight = 10.0f + (float)i;
    }
    jl_save_report report;
    if ((s = jl_world_save_new(world, argv[1], &report)) != JL_OK) return fail("cannot save", s);
    jl_world_free(world);

    if ((s = jl_world_new(NULL, &world)) != JL_OK) return fail("cannot create a world", s);
    jl_world_load(world, argv[1]);
    float total = 0;
    uint32_t count = 0;
    for (jl_world_iter it = jl_world_iter_class(world, &crate_class); jl_world_next(&it);) {
        total += ((const crate *)it.derived)->weight;
        count++;
    }
    const uint32_t problems = jl_world_diagnostic_count(world);
    jl_world_free(world);
    if (problems || count != 4 || total != 10 + 11 + 12 + 13) return fail("the world did not load back", JL_OK);
    printf("Crate %u\n", count);
    return 0;
}
