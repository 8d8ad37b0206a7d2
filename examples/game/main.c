/* main.c - the example game: a program of its own that links the Juliet
 * library (public headers and the `juliet` target only), registers its own
 * classes at start-up and writes a world of them.
 *
 *   example_game save DIR    builds a small level (three enemies chasing
 *                            two pickups) and saves it into DIR, which
 *                            must not exist or be empty, with the game's
 *                            classes as class files (Classes/)
 *   example_game check DIR   loads DIR with the game's classes, checks
 *                            every file loaded and every reference
 *                            resolves, and prints the entities per class
 *
 * Exit status: 0 ok, 1 the world has problems, 2 bad arguments or a
 * failure to run. */
#include <stdio.h>
#include <string.h>

#include <juliet/class_file.h>
#include <juliet/class_registry.h>
#include <juliet/world.h>

#include "game_classes.h"

static int fail(const char *what, jl_status status)
{
    fprintf(stderr, "example_game: %s: %s\n", what, jl_status_name(status));
    return 2;
}

/* A new entity of class_name at x y z (jl_world_create), its derived struct
 * or NULL. */
static void *create(jl_world *world, const char *class_name, float x, float y, float z)
{
    jl_entity *e;
    return jl_world_create(world, class_name, x, y, z, &e) == JL_OK ? e->derived : NULL;
}

/* Writes the game's classes into the world as Classes/<Name>.jclass, so
 * that tools without the game's code (`juliet validate --strict`, the
 * inspector, the JS API) know them. */
static jl_status write_schema(const char *dir)
{
    jl_arena arena;
    jl_status s = jl_arena_init(&arena, (size_t)16 << 20);
    const jl_class *classes[] = {&enemy_class, &pickup_class};
    for (size_t i = 0; s == JL_OK && i < sizeof classes / sizeof classes[0]; i++) {
        const char *text;
        size_t size;
        jl_error err = {0};
        s = jl_class_file_text(classes[i], &arena, &text, &size, &err);
        if (s == JL_OK) s = jl_class_file_save(jl_fs_native(), dir, classes[i]->name, text, size, &arena, NULL, &err);
        if (s != JL_OK) {
            char line[JL_ERROR_TEXT_MAX];
            fprintf(stderr, "example_game: %s\n", jl_error_format(&err, line, sizeof line));
        }
    }
    jl_arena_release(&arena);
    return s;
}

static int save(const char *dir)
{
    jl_world *world;
    jl_status s = jl_world_new(NULL, &world);
    if (s != JL_OK) return fail("cannot create a world", s);
    pickup *medkit = create(world, "Pickup", 4, 0, -2), *ammo = create(world, "Pickup", -6, 0, 3);
    if (!medkit || !ammo) {
        jl_world_free(world);
        return fail("cannot create pickups", JL_ERR_OUT_OF_MEMORY);
    }
    medkit->item = 1;
    medkit->amount = 25;
    ammo->item = 2;
    ammo->amount = 30;
    ammo->respawns = false;
    ammo->glow = (jl_color){0x40, 0x80, 0xff};
    enemy *squad[3];
    for (int i = 0; i < 3; i++) {
        enemy *grunt = squad[i] = create(world, "Enemy", (float)(i * 5), 0, 10);
        if (!grunt) {
            jl_world_free(world);
            return fail("cannot create enemies", JL_ERR_OUT_OF_MEMORY);
        }
        grunt->health = 100.0f - 20.0f * (float)i;
        grunt->target = (i % 2 ? ammo : medkit)->base->id;
        grunt->home = (jl_vec3){(float)(i * 5), 0, 10};
        grunt->aggressive = i != 2;
        if (i == 2) {
            /* The boss: every field type of the game's classes set. */
            grunt->name = (jl_string)JL_STRING("Brute");
            grunt->rank = 2;
            grunt->level = 3;
            grunt->facing = (jl_quat){0, 0.70710677f, 0, 0.70710677f}; /* a quarter turn about +Y */
            grunt->patrol = (jl_vec2){6, 2.5f};
        }
    }
    squad[0]->parent = squad[1]->parent = squad[2]->base->id; /* the Brute leads the Grunts */
    ammo->stock = 3;
    jl_save_report report;
    s = jl_world_save_new(world, dir, &report);
    if (s != JL_OK) {
        char line[JL_ERROR_TEXT_MAX];
        fprintf(stderr, "example_game: %s\n", jl_error_format(&report.error, line, sizeof line));
    } else {
        printf("wrote %u files to %s\n", report.written_count, dir);
        s = write_schema(dir);
    }
    jl_world_free(world);
    return s == JL_OK ? 0 : 2;
}

static int check(const char *dir)
{
    jl_world *world;
    jl_status s = jl_world_new(NULL, &world);
    if (s != JL_OK) return fail("cannot create a world", s);
    jl_world_load(world, dir);
    jl_world_check_references(world);
    uint32_t problems = jl_world_diagnostic_count(world);
    for (uint32_t i = 0; i < problems; i++) {
        char line[JL_ERROR_TEXT_MAX];
        printf("%s\n", jl_error_format(jl_world_diagnostic(world, i), line, sizeof line));
    }
    /* Every enemy chases a live pickup. */
    for (jl_world_iter it = jl_world_iter_class(world, &enemy_class); jl_world_next(&it);) {
        const enemy *e = it.derived;
        if (!JL_DOWNCAST(pickup, jl_world_find(world, e->target))) {
            printf("enemy 0x%016llx chases no pickup\n", (unsigned long long)e->base->id);
            problems++;
        }
    }
    const jl_world_stats *stats = jl_world_get_stats(world);
    for (uint32_t k = 0; k < jl_world_class_count(world); k++)
        if (stats->entities[k]) printf("%s %u\n", jl_world_class_at(world, k)->name, stats->entities[k]);
    jl_world_free(world);
    return problems ? 1 : 0;
}

int main(int argc, char **argv)
{
    /* The game's classes, registered before any world is created. */
    jl_status s = game_register_classes();
    if (s != JL_OK) return fail("cannot register the game's classes", s);
    if (argc == 3 && strcmp(argv[1], "save") == 0) return save(argv[2]);
    if (argc == 3 && strcmp(argv[1], "check") == 0) return check(argv[2]);
    fprintf(stderr, "usage: example_game save DIR | example_game check DIR\n");
    return 2;
}
