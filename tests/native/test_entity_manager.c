/* test_entity_manager.c - allocation, wiring, defaults, removal, handles,
 * compaction and invariants of the entity manager (spec 2, 3; removal
 * design in entity_manager.h). */
#include <stdlib.h>
#include <string.h>

#include "entity/entity_manager_internal.h" /* jli_entity_rollback_allocation */
#include "juliet/entity_manager.h"
#include "juliet/platform.h"
#include "sample_classes.h"
#include "test.h"

static jl_entity_manager manager;

static bool init_manager(uint32_t capacity)
{
    jl_manager_desc desc = {.capacity = capacity, .id_tag = 0x010000000000u};
    return jl_manager_init(&manager, &desc) == JL_OK;
}

static bool invariants_hold(void)
{
    jl_error err = {0};
    jl_status status = jl_manager_check(&manager, &err);
    if (status != JL_OK) fprintf(stderr, "invariant: %s\n", err.message);
    return status == JL_OK;
}

/* The end of a test: true if the invariants hold, the manager shut down
 * either way. */
static bool shut_down_consistent(void)
{
    const bool ok = invariants_hold();
    jl_manager_shutdown(&manager);
    return ok;
}

/* Spec 8.2 TestEntityAllocationAndWiring. */
TEST(entity_allocation_and_wiring)
{
    CHECK(init_manager(0));
    jl_entity *base = NULL;
    CHECK(jl_entity_allocate(&manager, &sample_inert_class, &base) == JL_OK);
    CHECK(base != NULL);
    CHECK(base->id == 0);
    CHECK(jl_entity_set_id(&manager, base, jl_manager_mint_id(&manager)) == JL_OK);
    CHECK(base->id > 0);
    CHECK(base->derived_kind == &sample_inert_class);
    CHECK(base->derived != NULL);
    CHECK(base->is_dirty);
    jl_entity_header *derived = base->derived;
    CHECK(derived->base == base);
    sample_inert *inert = JL_DOWNCAST(sample_inert, base);
    CHECK(inert != NULL && inert->base == base);
    const jl_typed_array *inert_array = &manager.by_type[sample_inert_class.kind];
    CHECK(inert_array->count == 1);
    CHECK(inert_array->array == (void *)derived);
    CHECK(manager.count == 1);
    CHECK(shut_down_consistent());
}

/* Spec 8.2 TestDirtyTrackingLifecycle, through the public mutators. */
TEST(dirty_tracking_lifecycle)
{
    CHECK(init_manager(0));
    jl_entity *entity = NULL;
    CHECK(jl_entity_allocate(&manager, &sample_inert_class, &entity) == JL_OK);
    CHECK(entity->is_dirty);
    entity->is_dirty = false; /* what a successful save does */
    jl_entity_set_position(entity, entity->position.x + 1.0f, 0, 0);
    CHECK(entity->is_dirty);
    entity->is_dirty = false;
    jl_entity_touch(entity);
    CHECK(entity->is_dirty);
    jl_manager_shutdown(&manager);
}

/* The intent of the withdrawn TestSwapAndPopPointerFixup: after removing the
 * middle of three entities the survivors are fully wired, and stay at the
 * same addresses. */
TEST(removing_middle_entity_keeps_survivors_wired)
{
    CHECK(init_manager(0));
    sample_inert *e0 = JL_MAKE_ENTITY(&manager, sample_inert, 1, 0, 0);
    sample_inert *e1 = JL_MAKE_ENTITY(&manager, sample_inert, 2, 0, 0);
    sample_inert *e2 = JL_MAKE_ENTITY(&manager, sample_inert, 3, 0, 0);
    CHECK(e0 && e1 && e2);
    jl_entity *b0 = e0->base, *b2 = e2->base;
    uint64_t id0 = b0->id, id1 = e1->base->id, id2 = b2->id;
    CHECK(jl_entity_destroy(&manager, e1->base) == JL_OK);
    CHECK(manager.count == 2);
    CHECK(jl_entity_find(&manager, id1) == NULL);
    CHECK(jl_entity_find(&manager, id0) == b0 && b0->derived == e0 && e0->base == b0);
    CHECK(jl_entity_find(&manager, id2) == b2 && b2->derived == e2 && e2->base == b2);
    CHECK(b0->position.x == 1.0f && b2->position.x == 3.0f);
    CHECK(invariants_hold());
    jl_manager_compact(&manager);
    jl_entity *r0 = jl_entity_find(&manager, id0), *r2 = jl_entity_find(&manager, id2);
    CHECK(r0 == b0 && r2 == b2); /* base slots never move */
    CHECK(((jl_entity_header *)r0->derived)->base == r0);
    CHECK(((jl_entity_header *)r2->derived)->base == r2);
    CHECK(shut_down_consistent());
}

TEST(defaults_survive_allocation)
{
    CHECK(init_manager(0));
    jl_entity *e;
    CHECK(jl_entity_allocate(&manager, &sample_inert_class, &e) == JL_OK);
    CHECK(JL_DOWNCAST(sample_inert, e)->mesh_instance == JL_INDEX_MAX);
    CHECK(jl_entity_allocate(&manager, &sample_light_class, &e) == JL_OK);
    sample_light *light = JL_DOWNCAST(sample_light, e);
    CHECK(light->intensity == 1.0f && light->radius == 10.0f && light->cast_shadows);
    CHECK(light->color.r == 255 && light->color.g == 255 && light->color.b == 255);
    CHECK(light->base == e);
    CHECK(jl_entity_allocate(&manager, &sample_prop_class, &e) == JL_OK);
    sample_prop *prop = JL_DOWNCAST(sample_prop, e);
    CHECK(prop->density == 1.0f && !prop->is_static && prop->parent == 0);
    CHECK(prop->mesh_instance == JL_INDEX_MAX && prop->velocity.x == 0.0f);
    jl_manager_shutdown(&manager);
}

TEST(defaults_survive_slot_reuse)
{
    CHECK(init_manager(0));
    sample_inert *inert = JL_MAKE_ENTITY(&manager, sample_inert, 0, 0, 0);
    CHECK(inert);
    inert->mesh_instance = 7;
    CHECK(jl_entity_destroy(&manager, inert->base) == JL_OK);
    sample_inert *again = JL_MAKE_ENTITY(&manager, sample_inert, 0, 0, 0);
    CHECK(again == inert);                       /* the free slot is reused ... */
    CHECK(again->mesh_instance == JL_INDEX_MAX); /* ... with fresh defaults */
    jl_manager_shutdown(&manager);
}

TEST(base_entity_is_48_bytes_on_64_bit)
{
    if (sizeof(void *) == 8) CHECK(sizeof(jl_entity) == 48);
    CHECK(sizeof(jl_entity) <= 48);
}

TEST(class_crc_is_crc32_of_name)
{
    CHECK(jl_crc32("123456789", 9) == 0xcbf43926u); /* the standard check value */
    /* Snapshots name the sample classes by these CRCs. */
    CHECK(sample_inert_class.crc == 0x4c45ea8fu && sample_light_class.crc == 0xaadb73f3u &&
          sample_prop_class.crc == 0x0f5c6ad4u);
    for (uint32_t kind = 0; kind < jl_class_count(); kind++) {
        const jl_class *cls = jl_class_at(kind);
        CHECK(cls && cls->kind == kind);
        CHECK(cls->crc == jl_crc32(cls->name, strlen(cls->name)));
    }
}

/* The CRC a bit at a time, as defined: what jl_crc32's tables stand for. */
static uint32_t crc32_bitwise(const uint8_t *p, size_t size)
{
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < size; i++) {
        crc ^= p[i];
        for (int bit = 0; bit < 8; bit++) crc = (crc >> 1) ^ (crc & 1u ? 0xedb88320u : 0u);
    }
    return ~crc;
}

TEST(crc32_agrees_with_its_bitwise_definition)
{
    static uint8_t bytes[1 << 16];
    uint64_t state = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < sizeof bytes; i++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        bytes[i] = (uint8_t)(state >> 56);
    }
    /* Every start within a word and every length up to 64, then the whole:
     * 64 KiB of random bytes reach every entry of every table. */
    for (size_t start = 0; start < 8; start++)
        for (size_t size = 0; size <= 64; size++)
            CHECK(jl_crc32(bytes + start, size) == crc32_bitwise(bytes + start, size));
    CHECK(jl_crc32(bytes, sizeof bytes) == crc32_bitwise(bytes, sizeof bytes));
}

TEST(class_lookup_by_kind_crc_and_name)
{
    CHECK(jl_class_resolve(sample_light_class.kind, sample_light_class.crc) == &sample_light_class);
    CHECK(jl_class_resolve(sample_light_class.kind, sample_inert_class.crc) == NULL);
    CHECK(jl_class_resolve((uint8_t)jl_class_count(), sample_inert_class.crc) == NULL);
    CHECK(jl_class_resolve(255, 0) == NULL);
    CHECK(jl_class_find_by_name("Prop", 4) == &sample_prop_class);
    CHECK(jl_class_find_by_name("Propeller", 4) == &sample_prop_class); /* sized, not NUL-terminated */
    CHECK(jl_class_find_by_name("prop", 4) == NULL);
    CHECK(jl_class_find_by_name("Door", 4) == NULL);
    CHECK(jl_class_find_by_name("", 0) == NULL);
    CHECK(jl_class_find_by_name(NULL, 3) == NULL);
    CHECK(jl_class_find_field(&sample_light_class, "radius")->flags & JL_FIELD_ALLOW_INF);
    CHECK(jl_class_find_field(&sample_light_class, "mesh_instance") == NULL);
}

TEST(downcast_to_wrong_class_is_null)
{
    CHECK(init_manager(0));
    sample_light *light = JL_MAKE_ENTITY(&manager, sample_light, 0, 0, 0);
    CHECK(light);
    CHECK(JL_DOWNCAST(sample_inert, light->base) == NULL);
    CHECK(JL_DOWNCAST(sample_light, light->base) == light);
    CHECK(JL_DOWNCAST(sample_light, NULL) == NULL);
    jl_manager_shutdown(&manager);
}

TEST(make_entity_assigns_id_and_position)
{
    CHECK(init_manager(0));
    sample_prop *a = JL_MAKE_ENTITY(&manager, sample_prop, 12.5f, -44.0f, 108.2f);
    sample_prop *b = JL_MAKE_ENTITY(&manager, sample_prop, 0, 0, 0);
    CHECK(a && b);
    CHECK(a->base->id != 0 && b->base->id != 0 && a->base->id != b->base->id);
    CHECK((a->base->id >> 16) == 0x010000000000u);
    CHECK(a->base->position.x == 12.5f && a->base->position.y == -44.0f);
    CHECK(a->base->position.z == 108.2f && a->base->position.w == 1.0f);
    CHECK(jl_entity_find(&manager, a->base->id) == a->base);
    jl_manager_shutdown(&manager);
}

TEST(capacity_exhaustion_returns_error)
{
    CHECK(init_manager(64));
    for (int i = 0; i < 64; i++) CHECK(JL_MAKE_ENTITY(&manager, sample_inert, (float)i, 0, 0));
    jl_entity *e = (jl_entity *)&manager; /* must be reset to NULL */
    CHECK(jl_entity_allocate(&manager, &sample_light_class, &e) == JL_ERR_CAPACITY);
    CHECK(e == NULL);
    CHECK(JL_MAKE_ENTITY(&manager, sample_inert, 0, 0, 0) == NULL);
    CHECK(manager.count == 64 && manager.by_type[sample_light_class.kind].count == 0);
    CHECK(invariants_hold());
    /* Room again after a destroy. */
    CHECK(jl_entity_destroy(&manager, jl_entities_first(&manager)) == JL_OK);
    CHECK(jl_entity_allocate(&manager, &sample_light_class, &e) == JL_OK);
    CHECK(shut_down_consistent());
}

TEST(capacity_limits_at_init)
{
    jl_manager_desc too_big = {.capacity = JL_MAX_CAPACITY + 1};
    CHECK(jl_manager_init(&manager, &too_big) == JL_ERR_INVALID_ARGUMENT);
    CHECK(manager.entities == NULL);
    jl_manager_shutdown(&manager); /* harmless on a failed init */
    CHECK(init_manager(4000000));
    CHECK(manager.capacity == 4000000);
    jl_manager_shutdown(&manager);
    jl_manager_shutdown(&manager); /* twice is harmless */
}

TEST(committed_memory_follows_use_not_capacity)
{
    CHECK(init_manager(4000000));
    for (int i = 0; i < 1000; i++) CHECK(JL_MAKE_ENTITY(&manager, sample_prop, (float)i, 0, 0));
    /* 4M entities would need > 200 MB; 1,000 need well under 2 MB. */
    CHECK(jl_manager_committed_bytes(&manager) < 2u * 1024 * 1024);
    CHECK(shut_down_consistent());
}

TEST(allocate_rejects_invalid_class)
{
    CHECK(init_manager(0));
    jl_entity *e;
    CHECK(jl_entity_allocate(&manager, NULL, &e) == JL_ERR_INVALID_ARGUMENT);
    jl_class fake = sample_inert_class; /* same kind, not the registered record */
    CHECK(jl_entity_allocate(&manager, &fake, &e) == JL_ERR_INVALID_ARGUMENT);
    fake.kind = (uint8_t)jl_class_count();
    CHECK(jl_entity_allocate(&manager, &fake, &e) == JL_ERR_INVALID_ARGUMENT);
    CHECK(manager.count == 0 && invariants_hold());
    jl_manager_shutdown(&manager);
}

TEST(stale_handles_are_rejected)
{
    CHECK(init_manager(0));
    sample_inert *inert = JL_MAKE_ENTITY(&manager, sample_inert, 0, 0, 0);
    CHECK(inert);
    jl_handle handle = jl_entity_handle(&manager, inert->base);
    CHECK(jl_handle_resolve(&manager, handle) == inert->base);
    CHECK(jl_entity_destroy(&manager, inert->base) == JL_OK);
    CHECK(jl_handle_resolve(&manager, handle) == NULL);
    sample_inert *reuse = JL_MAKE_ENTITY(&manager, sample_inert, 0, 0, 0);
    CHECK(reuse && jl_entity_handle(&manager, reuse->base).index == handle.index); /* same slot */
    CHECK(jl_handle_resolve(&manager, handle) == NULL);                            /* still stale */
    CHECK(jl_handle_resolve(&manager, jl_entity_handle(&manager, reuse->base)) == reuse->base);
    CHECK(jl_handle_resolve(&manager, (jl_handle){0, 0}) == NULL);
    CHECK(jl_handle_resolve(&manager, (jl_handle){12345, 1}) == NULL);
    jl_manager_shutdown(&manager);
}

TEST(destroy_rejects_free_and_foreign_entities)
{
    CHECK(init_manager(0));
    sample_inert *inert = JL_MAKE_ENTITY(&manager, sample_inert, 0, 0, 0);
    CHECK(inert);
    jl_entity *base = inert->base;
    CHECK(jl_entity_destroy(&manager, base) == JL_OK);
    CHECK(jl_entity_destroy(&manager, base) == JL_ERR_INVALID_ARGUMENT);
    jl_entity outside = {0};
    CHECK(jl_entity_destroy(&manager, &outside) == JL_ERR_INVALID_ARGUMENT);
    CHECK(jl_entity_destroy(&manager, NULL) == JL_ERR_INVALID_ARGUMENT);
    CHECK(manager.pending_count == 1 && invariants_hold());
    jl_manager_shutdown(&manager);
}

TEST(destroy_queues_id_for_pending_deletion)
{
    CHECK(init_manager(0));
    sample_light *a = JL_MAKE_ENTITY(&manager, sample_light, 0, 0, 0);
    sample_light *b = JL_MAKE_ENTITY(&manager, sample_light, 0, 0, 0);
    CHECK(a && b);
    uint64_t id_b = b->base->id;
    jl_entity *unsaved;
    CHECK(jl_entity_allocate(&manager, &sample_inert_class, &unsaved) == JL_OK);
    CHECK(jl_entity_destroy(&manager, b->base) == JL_OK);
    CHECK(jl_entity_destroy(&manager, unsaved) == JL_OK); /* no ID, no file: nothing queued */
    CHECK(manager.pending_count == 1 && manager.pending_deletions[0] == id_b);
    jl_manager_forget_pending_deletions(&manager);
    CHECK(manager.pending_count == 0);
    jl_manager_shutdown(&manager);
}

TEST(set_id_rejects_zero_and_duplicates)
{
    CHECK(init_manager(0));
    jl_entity *a, *b;
    CHECK(jl_entity_allocate(&manager, &sample_inert_class, &a) == JL_OK);
    CHECK(jl_entity_allocate(&manager, &sample_inert_class, &b) == JL_OK);
    CHECK(jl_entity_set_id(&manager, a, 0) == JL_ERR_INVALID_ARGUMENT);
    CHECK(jl_entity_set_id(&manager, a, 0x0100000000000042ull) == JL_OK);
    CHECK(jl_entity_set_id(&manager, b, 0x0100000000000042ull) == JL_ERR_DUPLICATE_ID);
    CHECK(b->id == 0);
    CHECK(jl_entity_set_id(&manager, a, 0x0100000000000043ull) == JL_OK); /* re-index */
    CHECK(jl_entity_find(&manager, 0x0100000000000042ull) == NULL);
    CHECK(jl_entity_find(&manager, 0x0100000000000043ull) == a);
    CHECK(jl_entity_find(&manager, 0) == NULL);
    CHECK(shut_down_consistent());
}

TEST(minting_skips_ids_in_use_and_loaded_ids_advance_the_counter)
{
    CHECK(init_manager(0));
    jl_entity *loaded;
    CHECK(jl_entity_allocate(&manager, &sample_inert_class, &loaded) == JL_OK);
    CHECK(jl_entity_set_id(&manager, loaded, 0x0100000000000001ull) == JL_OK);
    CHECK(jl_manager_mint_id(&manager) == 0x0100000000000002ull); /* skipped ...01 */
    jl_manager_note_id(&manager, 0x0100000000000042ull);
    CHECK(jl_manager_mint_id(&manager) == 0x0100000000000043ull);
    jl_manager_note_id(&manager, 0x0200000000009999ull); /* another session's tag */
    CHECK(jl_manager_mint_id(&manager) == 0x0100000000000044ull);
    jl_manager_shutdown(&manager);
}

/* Sorts and checks that no two values are equal. */
static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static bool all_distinct(uint64_t *ids, size_t n)
{
    qsort(ids, n, sizeof *ids, compare_u64);
    for (size_t i = 1; i < n; i++)
        if (ids[i] == ids[i - 1]) return false;
    return true;
}

TEST(minting_past_the_16_bit_counter_moves_on_to_the_next_tag)
{
    enum { N = 140000 }; /* three tags' worth */
    static uint64_t ids[N + 2];
    const uint64_t tag = 0x123456789abcu;
    jl_manager_desc desc = {.capacity = N + 2, .id_tag = tag};
    CHECK(jl_manager_init(&manager, &desc) == JL_OK);
    /* Entities loaded from the session's coming tags: never minted again. */
    const uint64_t loaded_ids[2] = {((tag + 1) << 16) | 7, ((tag + 2) << 16) | 0x1234};
    for (int i = 0; i < 2; i++) {
        jl_entity *e;
        CHECK(jl_entity_allocate(&manager, &sample_inert_class, &e) == JL_OK);
        CHECK(jl_entity_set_id(&manager, e, loaded_ids[i]) == JL_OK);
        ids[N + i] = loaded_ids[i];
    }
    for (uint32_t i = 0; i < N; i++) {
        sample_inert *d = JL_MAKE_ENTITY(&manager, sample_inert, (float)i, 0, 0);
        CHECK(d);
        ids[i] = d->base->id;
        CHECK(jl_entity_find(&manager, ids[i]) == d->base);
    }
    CHECK(ids[0] == ((tag << 16) | 1));
    CHECK(ids[65534] == ((tag << 16) | 0xffff));
    CHECK(ids[65535] == (tag + 1) << 16); /* the carry: counter 0 of the next tag */
    CHECK(ids[N - 1] >> 16 == tag + 2);
    CHECK(manager.hashed_count == 0); /* all of them in the dense index */
    CHECK(invariants_hold());
    CHECK(all_distinct(ids, N + 2));
    jl_manager_shutdown(&manager);
}

TEST(loaded_ids_ahead_in_the_run_advance_the_counter_in_any_order)
{
    const uint64_t tag = 0xabcdef012345u, base = tag << 16;
    jl_manager_desc desc = {.capacity = 16, .id_tag = tag};
    CHECK(jl_manager_init(&manager, &desc) == JL_OK);
    jl_manager_note_id(&manager, base + 0x30005);             /* three tags on */
    jl_manager_note_id(&manager, base + 0x42);                /* behind: no effect */
    jl_manager_note_id(&manager, base - 1);                   /* the tag before the run */
    jl_manager_note_id(&manager, base + ((uint64_t)1 << 32)); /* past the window */
    CHECK(jl_manager_mint_id(&manager) == base + 0x30006);
    jl_manager_shutdown(&manager);
}

TEST(ids_of_the_old_32_bit_tag_form_stay_valid_and_advance_as_before)
{
    /* A session given an old tag (as `juliet gen` and tests do) continues
     * its world past every loaded counter, also past 16 bits. */
    const uint64_t old_id = 0x77a31d7500100000ull; /* counter 2^20 */
    jl_manager_desc desc = {.capacity = 16, .id_tag = (uint64_t)0x77a31d75u << 16};
    CHECK(jl_manager_init(&manager, &desc) == JL_OK);
    jl_entity *e;
    CHECK(jl_entity_allocate(&manager, &sample_prop_class, &e) == JL_OK);
    CHECK(jl_entity_set_id(&manager, e, old_id) == JL_OK);
    jl_manager_note_id(&manager, old_id);
    CHECK(jl_entity_find(&manager, old_id) == e);
    CHECK(jl_manager_mint_id(&manager) == old_id + 1);
    jl_manager_shutdown(&manager);

    /* A session with a random tag loads them too, and never mints them. */
    CHECK(jl_manager_init(&manager, NULL) == JL_OK);
    CHECK(jl_entity_allocate(&manager, &sample_prop_class, &e) == JL_OK);
    CHECK(jl_entity_set_id(&manager, e, old_id) == JL_OK);
    jl_manager_note_id(&manager, old_id);
    CHECK(jl_entity_find(&manager, old_id) == e);
    uint64_t minted = jl_manager_mint_id(&manager);
    CHECK(minted != old_id && minted >> 16 == manager.id_tag);
    CHECK(shut_down_consistent());
}

TEST(random_tags_are_48_bits_wide)
{
    enum { SESSIONS = 8 };
    uint64_t tags[SESSIONS];
    bool wide = false;
    for (int i = 0; i < SESSIONS; i++) {
        CHECK(jl_manager_init(&manager, NULL) == JL_OK);
        tags[i] = manager.id_tag;
        jl_manager_shutdown(&manager);
        CHECK(tags[i] != 0 && tags[i] < (uint64_t)1 << 48);
        wide = wide || tags[i] >= (uint64_t)1 << 40; /* all below: 2^-64 */
    }
    CHECK(wide);
    CHECK(all_distinct(tags, SESSIONS)); /* a false failure: < 2^-42 */
    jl_manager_desc too_wide = {.id_tag = (uint64_t)1 << 48};
    CHECK(jl_manager_init(&manager, &too_wide) == JL_ERR_INVALID_ARGUMENT);
}

TEST(minting_skips_id_zero_where_the_run_wraps)
{
    enum { N = 65537 };
    jl_manager_desc desc = {.capacity = N, .id_tag = ((uint64_t)1 << 48) - 1};
    CHECK(jl_manager_init(&manager, &desc) == JL_OK);
    uint64_t last = 0;
    for (uint32_t i = 0; i < N; i++) {
        sample_inert *d = JL_MAKE_ENTITY(&manager, sample_inert, 0, 0, 0);
        CHECK(d && d->base->id != 0);
        last = d->base->id;
    }
    CHECK(last == 2); /* ...ffff, then 0 skipped, 1, 2 */
    CHECK(jl_entity_find(&manager, UINT64_MAX) && jl_entity_find(&manager, 1));
    CHECK(shut_down_consistent());
}

TEST(rollback_restores_the_manager)
{
    CHECK(init_manager(0));
    CHECK(JL_MAKE_ENTITY(&manager, sample_prop, 0, 0, 0));
    jl_entity *half;
    CHECK(jl_entity_allocate(&manager, &sample_light_class, &half) == JL_OK);
    CHECK(jl_entity_set_id(&manager, half, 77) == JL_OK);
    jli_entity_rollback_allocation(&manager, half);
    CHECK(manager.count == 1 && manager.by_type[sample_light_class.kind].count == 0);
    CHECK(manager.pending_count == 0);
    CHECK(jl_entity_find(&manager, 77) == NULL);
    CHECK(shut_down_consistent());
}

TEST(iteration_visits_live_entities_only)
{
    CHECK(init_manager(0));
    sample_inert *inerts[10];
    for (int i = 0; i < 10; i++) CHECK((inerts[i] = JL_MAKE_ENTITY(&manager, sample_inert, (float)i, 0, 0)));
    CHECK(JL_MAKE_ENTITY(&manager, sample_light, 100, 0, 0));
    for (int i = 0; i < 10; i += 3) CHECK(jl_entity_destroy(&manager, inerts[i]->base) == JL_OK);
    float sum = 0;
    int visited = 0;
    for (jl_entity *e = jl_entities_first(&manager); e; e = jl_entities_next(&manager, e)) {
        CHECK(jl_entity_is_alive(e));
        sum += e->position.x;
        visited++;
    }
    CHECK(visited == 7 && sum == 1 + 2 + 4 + 5 + 7 + 8 + 100);
    visited = 0;
    for (sample_inert *d = jl_typed_first(&manager, &sample_inert_class); d;
         d = jl_typed_next(&manager, &sample_inert_class, d)) {
        CHECK(d->base && d->base->derived == d);
        visited++;
    }
    CHECK(visited == 6);
    jl_manager_shutdown(&manager);
}

TEST(compaction_makes_typed_arrays_dense_and_keeps_invariants)
{
    CHECK(init_manager(0));
    uint64_t ids[100];
    for (int i = 0; i < 100; i++) {
        sample_prop *p = JL_MAKE_ENTITY(&manager, sample_prop, (float)i, 0, 0);
        CHECK(p);
        p->density = (float)i;
        ids[i] = p->base->id;
    }
    for (int i = 0; i < 100; i += 2) CHECK(jl_entity_destroy(&manager, jl_entity_find(&manager, ids[i])) == JL_OK);
    jl_handle survivor = jl_entity_handle(&manager, jl_entity_find(&manager, ids[51]));
    jl_manager_compact(&manager);
    const jl_typed_array *t = &manager.by_type[sample_prop_class.kind];
    CHECK(t->slots == 50 && t->count == 50 && t->free_count == 0);
    CHECK(invariants_hold());
    for (int i = 1; i < 100; i += 2) {
        sample_prop *p = JL_DOWNCAST(sample_prop, jl_entity_find(&manager, ids[i]));
        CHECK(p && p->density == (float)i && p->base->position.x == (float)i);
    }
    CHECK(jl_handle_resolve(&manager, survivor) == jl_entity_find(&manager, ids[51]));
    /* The arena reuses the compacted tail. */
    CHECK(JL_MAKE_ENTITY(&manager, sample_prop, 0, 0, 0) == (sample_prop *)((char *)t->array + 50 * t->stride));
    CHECK(shut_down_consistent());
}

TEST(checker_reports_broken_back_pointer)
{
    CHECK(init_manager(0));
    sample_inert *a = JL_MAKE_ENTITY(&manager, sample_inert, 0, 0, 0);
    sample_inert *b = JL_MAKE_ENTITY(&manager, sample_inert, 0, 0, 0);
    CHECK(a && b);
    a->base = b->base; /* corrupt on purpose */
    jl_error err = {0};
    CHECK(jl_manager_check(&manager, &err) == JL_ERR_INVARIANT);
    CHECK(strstr(err.message, "back") != NULL);
    a->base = jl_entity_find(&manager, jl_entities_first(&manager)->id);
    CHECK(shut_down_consistent());
}

/* xorshift64*: a fixed seed makes every run identical. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

TEST(million_random_steps_keep_invariants)
{
    enum { CAPACITY = 4096, STEPS = 1000000, BATCH = 10000 };
    CHECK(init_manager(CAPACITY));
    static jl_handle live[CAPACITY];
    static jl_handle dead[CAPACITY];
    uint32_t live_count = 0, dead_count = 0;
    const jl_class *classes[] = {&sample_inert_class, &sample_light_class, &sample_prop_class};
    for (uint32_t step = 1; step <= STEPS; step++) {
        uint64_t r = rng();
        bool create = live_count == 0 || (live_count < CAPACITY && (r % 100) < 52);
        if (create) {
            jl_entity_header *d = jl_entity_make(&manager, classes[(r >> 8) % 3], (float)step, 0, 0);
            CHECK(d);
            live[live_count++] = jl_entity_handle(&manager, d->base);
        } else {
            uint32_t pick = (uint32_t)((r >> 16) % live_count);
            jl_entity *e = jl_handle_resolve(&manager, live[pick]);
            CHECK(e);
            CHECK(jl_entity_destroy(&manager, e) == JL_OK);
            dead[dead_count++ % CAPACITY] = live[pick];
            live[pick] = live[--live_count];
        }
        if (step % BATCH == 0) {
            if ((step / BATCH) % 3 == 0) jl_manager_compact(&manager);
            jl_manager_forget_pending_deletions(&manager);
            CHECK(invariants_hold());
            CHECK(manager.count == live_count);
            for (uint32_t i = 0; i < live_count; i++) CHECK(jl_handle_resolve(&manager, live[i]));
            uint32_t known_dead = dead_count < CAPACITY ? dead_count : CAPACITY;
            for (uint32_t i = 0; i < known_dead; i++) CHECK(jl_handle_resolve(&manager, dead[i]) == NULL);
        }
    }
    jl_manager_shutdown(&manager);
}

TEST(reset_empties_the_manager_and_keeps_old_handles_stale)
{
    CHECK(init_manager(0));
    sample_inert *a = JL_MAKE_ENTITY(&manager, sample_inert, 0, 0, 0);
    CHECK(a);
    uint64_t id = a->base->id;
    jl_handle handle = jl_entity_handle(&manager, a->base);
    jl_manager_reset(&manager);
    CHECK(manager.count == 0 && manager.pending_count == 0);
    CHECK(jl_entity_find(&manager, id) == NULL);
    CHECK(jl_handle_resolve(&manager, handle) == NULL);
    sample_inert *b = JL_MAKE_ENTITY(&manager, sample_inert, 0, 0, 0);
    CHECK(b && jl_entity_handle(&manager, b->base).index == handle.index); /* slot 0 again */
    CHECK(jl_handle_resolve(&manager, handle) == NULL);
    CHECK(b->base->id != id); /* IDs are never handed out twice */
    CHECK(shut_down_consistent());
}

/* Gives a new Inert entity the ID id; NULL if set_id refuses it. */
static jl_entity *loaded_entity(uint64_t id)
{
    jl_entity *e = NULL;
    if (jl_entity_allocate(&manager, &sample_inert_class, &e) != JL_OK) return NULL;
    if (jl_entity_set_id(&manager, e, id) == JL_OK) return e;
    jli_entity_rollback_allocation(&manager, e);
    return NULL;
}

TEST(ids_of_the_first_loaded_session_are_indexed_densely_and_others_hashed)
{
    enum { N = 60000, OTHERS = 5000 };
    CHECK(init_manager(N + OTHERS + 2));
    const uint64_t first = 0x0abcdef01234u << 16, second = 0x00fedcba9876u << 16;
    /* The first session's IDs, highest first: the range starts at its tag. */
    for (uint32_t i = N; i >= 1; i--) CHECK(loaded_entity(first + i));
    CHECK(manager.hashed_count == 0);
    /* Another session's: hashed, the table growing from its first size. */
    for (uint32_t i = 1; i <= OTHERS; i++) CHECK(loaded_entity(second + i));
    CHECK(manager.hashed_count == OTHERS && manager.index_mask + 1 >= 2 * OTHERS);
    CHECK(manager.index_count == N + OTHERS);
    for (uint32_t i = 1; i <= N; i++) {
        const jl_entity *e = jl_entity_find(&manager, first + i);
        CHECK(e && e->id == first + i);
    }
    for (uint32_t i = 1; i <= OTHERS; i++) CHECK(jl_entity_find(&manager, second + i)->id == second + i);
    CHECK(!jl_entity_find(&manager, first + N + 1) && !jl_entity_find(&manager, first + 4 * (N + OTHERS + 2)));
    CHECK(!loaded_entity(first + 7) && !loaded_entity(second + 7)); /* duplicates */
    /* Removed and loaded again, in both indexes. */
    CHECK(jl_entity_destroy(&manager, jl_entity_find(&manager, first + 7)) == JL_OK);
    CHECK(jl_entity_destroy(&manager, jl_entity_find(&manager, second + 7)) == JL_OK);
    CHECK(!jl_entity_find(&manager, first + 7) && !jl_entity_find(&manager, second + 7));
    CHECK(loaded_entity(first + 7) && loaded_entity(second + 7));
    CHECK(invariants_hold());
    /* After a reset, the first session loaded takes the range. */
    jl_manager_reset(&manager);
    CHECK(!jl_entity_find(&manager, first + 1) && !jl_entity_find(&manager, second + 1));
    CHECK(loaded_entity(second + 3) && loaded_entity(first + 3));
    CHECK(manager.hashed_count == 1 && jl_entity_find(&manager, first + 3)->id == first + 3);
    CHECK(jl_entity_find(&manager, second + 3)->id == second + 3 && !jl_entity_find(&manager, second + 4));
    /* Minted IDs keep their own range. */
    sample_inert *made = JL_MAKE_ENTITY(&manager, sample_inert, 0, 0, 0);
    CHECK(made && jl_entity_find(&manager, made->base->id) == made->base && manager.hashed_count == 1);
    CHECK(invariants_hold());
    jl_manager_shutdown(&manager);
}

TEST(arena_refuses_past_its_reservation_and_stays_unchanged)
{
    jl_arena arena;
    CHECK(jl_arena_init(&arena, 4096) == JL_OK);
    CHECK(arena.reserved >= 4096 && arena.committed == 0);
    void *a = jl_arena_push(&arena, 100, 8);
    CHECK(a != NULL && ((uintptr_t)a & 7) == 0);
    size_t used = arena.used;
    CHECK(jl_arena_push(&arena, arena.reserved, 8) == NULL);
    CHECK(arena.used == used);
    CHECK(jl_arena_push(&arena, 8, 3) == NULL); /* not a power of two */
    CHECK(jl_arena_commit_to(&arena, arena.reserved + 1) == JL_ERR_OUT_OF_MEMORY);
    jl_arena_release(&arena);
    jl_arena_release(&arena); /* twice is harmless */
    CHECK(jl_arena_init(&arena, 0) == JL_ERR_INVALID_ARGUMENT);
}

/* A large arena commits whole large pages once past its first one (where
 * huge pages may back them), pages below it; its reservation is aligned to
 * them. Small arenas commit pages. */
TEST(large_arenas_commit_whole_large_pages_past_the_first)
{
    const size_t page = jl_platform_page_size(), large = jl_platform_large_page_size(8u << 20);
    CHECK(large >= page && large % page == 0 && jl_platform_large_page_size(4096) == page);
    jl_arena arena;
    CHECK(jl_arena_init(&arena, (8u << 20) + 100) == JL_OK);
    if (large > page) { /* natively; in wasm there are only pages */
        CHECK((uintptr_t)arena.base % large == 0);
        CHECK(jl_arena_commit_to(&arena, 100000) == JL_OK);
        CHECK(arena.committed % page == 0 && arena.committed < large);
    }
    CHECK(jl_arena_commit_to(&arena, large + 1) == JL_OK);
    CHECK(arena.committed % large == 0 && arena.committed > large);
    memset(arena.base, 1, arena.committed); /* all of it usable */
    CHECK(jl_arena_commit_to(&arena, arena.reserved) == JL_OK && arena.committed == arena.reserved);
    arena.base[arena.reserved - 1] = 1;
    jl_arena_release(&arena);
    CHECK(jl_arena_init(&arena, 1u << 20) == JL_OK);
    CHECK(jl_arena_commit_to(&arena, page + 1) == JL_OK);
    CHECK(arena.committed % page == 0 && arena.committed > page && arena.committed < (1u << 20));
    jl_arena_release(&arena);
}

/* A released reservation comes back to the next one of its size (where
 * kept), zeroed; committed memory always reads zero at first, kept or new. */
TEST(released_reservations_come_back_zeroed)
{
    const size_t size = 4u << 20, committed = 3u << 20;
    jl_platform_trim();
    uint8_t *first = jl_platform_reserve(size);
    CHECK(first && jl_platform_commit(first, committed));
    memset(first, 0xab, committed);
    jl_platform_release(first, size, committed);
    uint8_t *again = jl_platform_reserve(size);
    CHECK(again && jl_platform_commit(again, size));
    if (jl_platform_keeps_released()) CHECK(again == first);
    bool zero = true;
    for (size_t i = 0; i < size; i++) zero = zero && again[i] == 0;
    CHECK(zero);
    /* Trimmed, the kept memory goes back to the system. */
    jl_platform_release(again, size, size);
    jl_platform_trim();
    uint8_t *fresh = jl_platform_reserve(size);
    CHECK(fresh && jl_platform_commit(fresh, size) && fresh[0] == 0 && fresh[size - 1] == 0);
    jl_platform_release(fresh, size, size);
}

TEST(full_pending_deletions_make_destroy_fail_cleanly)
{
    /* The pending list holds 4x the capacity (rounded up to a page): a
     * session that destroys more than that without saving gets an error
     * and keeps the entity, never a lost file deletion. */
    CHECK(init_manager(64));
    jl_status status = JL_OK;
    uint32_t destroyed = 0;
    while (status == JL_OK && destroyed < 100000) {
        sample_inert *inert = JL_MAKE_ENTITY(&manager, sample_inert, 0, 0, 0);
        CHECK(inert);
        status = jl_entity_destroy(&manager, inert->base);
        if (status == JL_OK) destroyed++;
        else CHECK(jl_entity_is_alive(inert->base) && inert->base->derived == inert);
    }
    CHECK(status == JL_ERR_OUT_OF_MEMORY);
    CHECK(destroyed >= 4 * 64 && manager.pending_count == destroyed);
    CHECK(invariants_hold());
    jl_manager_forget_pending_deletions(&manager); /* what a save does */
    CHECK(jl_entity_destroy(&manager, jl_entities_first(&manager)) == JL_OK);
    jl_manager_shutdown(&manager);
}
