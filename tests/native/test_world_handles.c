/* test_world_handles.c - handles to a world's entities (world.h,
 * "handles"): they resolve while their entity lives and to NULL once it is
 * removed or replaced, even when its slot holds another entity. Worlds are
 * made in memory through the public API only. */
#include "juliet/world.h"
#include "test.h"
#include "world_util.h"

static jl_world *world;

static jl_entity *create(const char *class_name)
{
    jl_entity *e = NULL;
    return jl_world_create(world, class_name, 1, 2, 3, &e) == JL_OK ? e : NULL;
}

static bool start(void)
{
    jl_world_desc desc = {.capacity = 64};
    CHECK_OR_FALSE(jl_world_new(&desc, &world) == JL_OK);
    return true;
}

static void finish(void)
{
    jl_world_free(world);
    world = NULL;
}

static bool is_null_handle(jl_handle h) { return h.index == 0 && h.generation == 0; }

TEST(a_handle_resolves_to_its_entity_while_it_lives)
{
    CHECK(start());
    jl_entity *a = create("Inert"), *b = create("Light");
    CHECK(a && b);
    jl_handle ha = jl_world_handle(world, a), hb = jl_world_handle(world, b);
    CHECK(!is_null_handle(ha) && !is_null_handle(hb));
    CHECK(jl_world_resolve(world, ha) == a && jl_world_resolve(world, hb) == b);
    /* Edits do not change what a handle names. */
    CHECK(jl_world_set_field(world, a->id, "position", "4 5 6", 5, NULL) == JL_OK);
    CHECK(jl_world_resolve(world, ha) == a);
    CHECK(jl_world_handle(world, a).index == ha.index && jl_world_handle(world, a).generation == ha.generation);
    finish();
}

TEST(a_handle_resolves_to_null_after_its_entity_is_removed_even_once_its_slot_is_reused)
{
    CHECK(start());
    jl_entity *a = create("Inert");
    CHECK(a);
    const jl_handle ha = jl_world_handle(world, a);
    CHECK(jl_world_remove(world, a->id) == JL_OK);
    CHECK(jl_world_resolve(world, ha) == NULL);
    /* The next entity takes the freed slot: the old pointer now names it,
     * the handle does not. */
    jl_entity *b = create("Inert");
    CHECK(b == a);
    CHECK(jl_world_resolve(world, ha) == NULL);
    const jl_handle hb = jl_world_handle(world, b);
    CHECK(hb.index == ha.index && hb.generation != ha.generation);
    CHECK(jl_world_resolve(world, hb) == b);
    finish();
}

TEST(a_handle_resolves_to_null_once_a_restore_replaces_its_entity)
{
    CHECK(start());
    jl_entity *a = create("Prop");
    CHECK(a);
    const uint64_t id = a->id;
    const jl_handle ha = jl_world_handle(world, a);
    CHECK(wu_restore_own_text(world, id));
    CHECK(jl_world_resolve(world, ha) == NULL);
    jl_entity *now = jl_world_find(world, id);
    CHECK(now && jl_world_resolve(world, jl_world_handle(world, now)) == now);
    finish();
}

TEST(the_handle_of_no_entity_is_zero_and_resolves_to_null)
{
    CHECK(start());
    jl_entity *a = create("Inert");
    CHECK(a);
    CHECK(is_null_handle(jl_world_handle(world, NULL)));
    CHECK(jl_world_resolve(world, (jl_handle){0, 0}) == NULL);
    CHECK(jl_world_resolve(world, (jl_handle){0, 1u << 30}) == NULL);
    CHECK(jl_world_resolve(world, (jl_handle){12345, 1}) == NULL);
    /* An entity of another world has no handle in this one. */
    jl_world *other;
    CHECK(jl_world_new(NULL, &other) == JL_OK);
    jl_entity *foreign;
    CHECK(jl_world_create(other, "Inert", 0, 0, 0, &foreign) == JL_OK);
    CHECK(is_null_handle(jl_world_handle(world, foreign)));
    jl_world_free(other);
    /* A removed entity has none either. */
    CHECK(jl_world_remove(world, a->id) == JL_OK);
    CHECK(is_null_handle(jl_world_handle(world, a)));
    finish();
}
