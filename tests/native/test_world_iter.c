/* test_world_iter.c - walking a world's live entities (world.h,
 * "iteration"): every entity or one class's, each once, and what a walk
 * sees when the world changes between two steps. Worlds are made in
 * memory through the public API only. */
#include "juliet/world.h"
#include "sample_classes.h"
#include "test.h"
#include "world_util.h"

static jl_world *world;

/* A new world with count entities, classes in turn Inert, Light, Prop;
 * their IDs in ids (room for count). */
static bool start(uint32_t count, uint64_t *ids)
{
    static const char *const names[] = {"Inert", "Light", "Prop"};
    jl_world_desc desc = {.capacity = 256};
    CHECK_OR_FALSE(jl_world_new(&desc, &world) == JL_OK);
    for (uint32_t i = 0; i < count; i++) {
        jl_entity *e;
        CHECK_OR_FALSE(jl_world_create(world, names[i % 3], (float)i, 0, 0, &e) == JL_OK);
        ids[i] = e->id;
    }
    return true;
}

static void finish(void)
{
    jl_world_free(world);
    world = NULL;
}

/* The position of ids[] that holds id, or -1. */
static int index_of(const uint64_t *ids, uint32_t count, uint64_t id)
{
    for (uint32_t i = 0; i < count; i++)
        if (ids[i] == id) return (int)i;
    return -1;
}

TEST(iterating_all_visits_every_live_entity_once)
{
    uint64_t ids[12];
    CHECK(start(12, ids));
    uint32_t seen[12] = {0}, visits = 0;
    for (jl_world_iter it = jl_world_iter_all(world); jl_world_next(&it); visits++) {
        const int at = index_of(ids, 12, it.entity->id);
        CHECK(at >= 0 && it.derived == it.entity->derived);
        seen[at]++;
    }
    CHECK(visits == 12 && visits == jl_world_count(world));
    for (int i = 0; i < 12; i++) CHECK(seen[i] == 1);
    finish();
}

TEST(iterating_a_class_visits_only_its_entities_with_their_derived_structs)
{
    uint64_t ids[12];
    CHECK(start(12, ids));
    uint32_t visits = 0;
    for (jl_world_iter it = jl_world_iter_class(world, &sample_light_class); jl_world_next(&it); visits++) {
        CHECK(it.entity->derived_kind == &sample_light_class);
        CHECK(((sample_light *)it.derived)->base == it.entity);
        CHECK(index_of(ids, 12, it.entity->id) % 3 == 1);
    }
    CHECK(visits == 4);
    finish();
}

TEST(iterating_an_empty_world_a_class_without_entities_or_no_class_visits_nothing)
{
    uint64_t ids[2];
    CHECK(start(0, ids));
    jl_world_iter all = jl_world_iter_all(world);
    CHECK(!jl_world_next(&all) && all.entity == NULL && all.derived == NULL);
    finish();

    CHECK(start(2, ids)); /* an Inert and a Light, no Prop */
    jl_world_iter props = jl_world_iter_class(world, &sample_prop_class);
    CHECK(!jl_world_next(&props));
    jl_world_iter none = jl_world_iter_class(world, NULL);
    CHECK(!jl_world_next(&none));
    jl_world_iter nowhere = jl_world_iter_all(NULL);
    CHECK(!jl_world_next(&nowhere));
    finish();
}

TEST(a_walk_that_ended_stays_ended_when_entities_are_created_afterwards)
{
    uint64_t ids[3];
    CHECK(start(3, ids));
    jl_world_iter it = jl_world_iter_all(world);
    while (jl_world_next(&it)) {
    }
    CHECK(jl_world_create(world, "Inert", 0, 0, 0, NULL) == JL_OK);
    CHECK(!jl_world_next(&it) && it.entity == NULL);
    jl_world_iter lights = jl_world_iter_class(world, &sample_light_class);
    while (jl_world_next(&lights)) {
    }
    CHECK(jl_world_create(world, "Light", 0, 0, 0, NULL) == JL_OK);
    CHECK(!jl_world_next(&lights));
    finish();
}

TEST(removing_the_current_entity_during_a_walk_visits_every_other_once)
{
    uint64_t ids[12];
    CHECK(start(12, ids));
    uint32_t seen[12] = {0}, visits = 0;
    for (jl_world_iter it = jl_world_iter_all(world); jl_world_next(&it); visits++) {
        const int at = index_of(ids, 12, it.entity->id);
        CHECK(at >= 0);
        seen[at]++;
        if (at % 2 == 0) CHECK(jl_world_remove(world, ids[at]) == JL_OK);
    }
    CHECK(visits == 12 && jl_world_count(world) == 6);
    for (int i = 0; i < 12; i++) CHECK(seen[i] == 1);

    uint32_t props = 0;
    for (jl_world_iter it = jl_world_iter_class(world, &sample_prop_class); jl_world_next(&it); props++)
        CHECK(jl_world_remove(world, it.entity->id) == JL_OK);
    CHECK(props == 2 && jl_world_count(world) == 4);
    finish();
}

TEST(an_entity_removed_before_the_walk_reaches_it_is_not_visited)
{
    uint64_t ids[12];
    CHECK(start(12, ids));
    bool removed = false;
    uint32_t visits = 0;
    for (jl_world_iter it = jl_world_iter_all(world); jl_world_next(&it); visits++) {
        CHECK(it.entity->id != ids[11]);
        if (!removed) {
            /* ids[11] was created last: its slot comes after the first one. */
            CHECK(jl_world_remove(world, ids[11]) == JL_OK);
            removed = true;
        }
    }
    CHECK(visits == 11);
    finish();
}

TEST(entities_created_during_a_walk_are_visited_at_most_once_and_the_others_once)
{
    uint64_t ids[12];
    CHECK(start(12, ids));
    /* Free two slots before the walk, so that creations take a slot before
     * the current one and then fresh ones after it. */
    CHECK(jl_world_remove(world, ids[0]) == JL_OK && jl_world_remove(world, ids[1]) == JL_OK);
    uint64_t made[8];
    uint32_t made_count = 0, seen[12] = {0}, seen_made[8] = {0};
    for (jl_world_iter it = jl_world_iter_all(world); jl_world_next(&it);) {
        int at = index_of(ids, 12, it.entity->id);
        if (at >= 0) {
            seen[at]++;
            if (made_count < 8) {
                jl_entity *e;
                CHECK(jl_world_create(world, "Prop", 0, 0, 0, &e) == JL_OK);
                made[made_count++] = e->id;
            }
        } else {
            at = index_of(made, made_count, it.entity->id);
            CHECK(at >= 0);
            seen_made[at]++;
        }
    }
    for (int i = 2; i < 12; i++) CHECK(seen[i] == 1);
    CHECK(made_count == 8);
    uint32_t made_visited = 0;
    for (int i = 0; i < 8; i++) {
        CHECK(seen_made[i] <= 1);
        made_visited += seen_made[i];
    }
    /* The first two took the freed slots, behind the walk; the rest came
     * after it. */
    CHECK(seen_made[0] == 0 && seen_made[1] == 0 && made_visited == 6);
    finish();
}

TEST(a_class_walk_sees_its_derived_structs_where_they_are_after_changes)
{
    uint64_t ids[12];
    CHECK(start(12, ids));
    /* Remove every Light but one, then walk Lights while moving them. */
    CHECK(jl_world_remove(world, ids[1]) == JL_OK && jl_world_remove(world, ids[7]) == JL_OK);
    uint32_t visits = 0;
    for (jl_world_iter it = jl_world_iter_class(world, &sample_light_class); jl_world_next(&it); visits++) {
        sample_light *light = it.derived;
        light->intensity = 2.0f;
        CHECK(it.entity->id == ids[4] || it.entity->id == ids[10]);
    }
    CHECK(visits == 2);
    CHECK(((sample_light *)jl_world_find(world, ids[4])->derived)->intensity == 2.0f);
    finish();
}

TEST(an_entity_restored_during_a_walk_is_a_new_entity_the_walk_may_visit_once)
{
    uint64_t ids[6];
    CHECK(start(6, ids));
    uint32_t seen[6] = {0};
    jl_entity *visited[16];
    uint32_t visits = 0;
    for (jl_world_iter it = jl_world_iter_all(world); jl_world_next(&it); visits++) {
        CHECK(visits < 16);
        for (uint32_t i = 0; i < visits; i++) CHECK(visited[i] != it.entity);
        visited[visits] = it.entity;
        const uint64_t id = it.entity->id;
        const int at = index_of(ids, 6, id);
        CHECK(at >= 0);
        if (seen[at]++) continue;
        /* An undo: the entity is replaced by a new one loaded from text
         * (before the old one goes, so it takes another slot). */
        CHECK(wu_restore_own_text(world, id));
        CHECK(jl_world_find(world, id) != it.entity);
    }
    for (int i = 0; i < 6; i++) CHECK(seen[i] >= 1 && seen[i] <= 2);
    CHECK(jl_world_count(world) == 6);
    finish();
}
