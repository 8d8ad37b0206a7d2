/* entity_manager.c - dual-arena allocation, O(1) removal with free lists and
 * generations, the ID index, compaction and the invariant checker
 * (entity_manager.h describes the design). */
#include "juliet/entity_manager.h"

#include <string.h>

#include "juliet/platform.h"

enum { INDEX_MIN_BUCKETS = 1024, PENDING_PER_CAPACITY = 4 };

static size_t next_pow2(size_t value)
{
    size_t result = 1;
    while (result < value) result <<= 1;
    return result;
}

/* ---- ID index: open addressing, linear probing, backward-shift delete ---- */

static uint32_t id_bucket(uint64_t id, uint32_t mask)
{
    return (uint32_t)((id * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

static uint32_t slot_of(const jl_entity_manager *m, const jl_entity *e)
{
    return (uint32_t)(e - m->entities);
}

static void index_place(jl_entity_manager *m, uint64_t id, uint32_t slot)
{
    uint32_t i = id_bucket(id, m->index_mask);
    while (m->index[i]) i = (i + 1) & m->index_mask;
    m->index[i] = slot + 1;
}

/* Doubles the table (within its reservation) and re-inserts every indexed
 * entity from the slot array, which is the source of truth. */
static jl_status index_grow(jl_entity_manager *m)
{
    size_t buckets = (size_t)m->index_mask + 1;
    size_t new_buckets = buckets * 2;
    if (jl_arena_commit_to(&m->index_arena, new_buckets * sizeof(uint32_t)) != JL_OK)
        return JL_ERR_OUT_OF_MEMORY;
    memset(m->index, 0, new_buckets * sizeof(uint32_t));
    m->index_mask = (uint32_t)(new_buckets - 1);
    for (uint32_t slot = 0; slot < m->slots; slot++) {
        const jl_entity *e = &m->entities[slot];
        if (e->derived && e->id) index_place(m, e->id, slot);
    }
    return JL_OK;
}

static jl_status index_reserve_one(jl_entity_manager *m)
{
    /* Keep the load factor at most 1/2 so probes stay short. */
    if ((size_t)(m->index_count + 1) * 2 > (size_t)m->index_mask + 1) return index_grow(m);
    return JL_OK;
}

static void index_remove(jl_entity_manager *m, uint64_t id)
{
    uint32_t mask = m->index_mask;
    uint32_t i = id_bucket(id, mask);
    while (m->index[i] && m->entities[m->index[i] - 1].id != id) i = (i + 1) & mask;
    if (!m->index[i]) return;
    m->index[i] = 0;
    m->index_count--;
    /* Shift back every following entry of the run that may no longer be
     * reachable from its home bucket. */
    for (uint32_t j = (i + 1) & mask; m->index[j]; j = (j + 1) & mask) {
        uint32_t home = id_bucket(m->entities[m->index[j] - 1].id, mask);
        bool home_in_gap = (i <= j) ? (home <= i || home > j) : (home <= i && home > j);
        if (home_in_gap) {
            m->index[i] = m->index[j];
            m->index[j] = 0;
            i = j;
        }
    }
}

jl_entity *jl_entity_find(const jl_entity_manager *m, uint64_t id)
{
    if (!id || !m->index) return NULL;
    uint32_t mask = m->index_mask;
    for (uint32_t i = id_bucket(id, mask); m->index[i]; i = (i + 1) & mask) {
        jl_entity *e = &m->entities[m->index[i] - 1];
        if (e->id == id) return e;
    }
    return NULL;
}

/* ---- init and shutdown ---- */

static jl_status init_typed_array(jl_typed_array *t, const jl_class *cls, uint32_t capacity)
{
    t->stride = (cls->size_of + cls->alignment - 1) / cls->alignment * cls->alignment;
    jl_status status = jl_arena_init(&t->arena, (size_t)capacity * t->stride);
    if (status == JL_OK) status = jl_arena_init(&t->free_arena, (size_t)capacity * sizeof(uint32_t));
    t->free_slots = (uint32_t *)t->free_arena.base;
    return status;
}

jl_status jl_manager_init(jl_entity_manager *m, const jl_manager_desc *desc)
{
    *m = (jl_entity_manager){0};
    uint32_t capacity = (desc && desc->capacity) ? desc->capacity : JL_DEFAULT_CAPACITY;
    if (capacity > JL_MAX_CAPACITY) return JL_ERR_INVALID_ARGUMENT;
    m->capacity = capacity;

    size_t buckets_max = next_pow2((size_t)capacity * 2);
    if (buckets_max < INDEX_MIN_BUCKETS) buckets_max = INDEX_MIN_BUCKETS;

    jl_status status = jl_arena_init(&m->entity_arena, (size_t)capacity * sizeof(jl_entity));
    if (status == JL_OK) status = jl_arena_init(&m->free_arena, (size_t)capacity * sizeof(uint32_t));
    if (status == JL_OK) status = jl_arena_init(&m->index_arena, buckets_max * sizeof(uint32_t));
    if (status == JL_OK)
        status = jl_arena_init(&m->pending_arena,
                               (size_t)capacity * PENDING_PER_CAPACITY * sizeof(uint64_t));
    for (uint32_t kind = 0; kind < JL_KIND_COUNT && status == JL_OK; kind++)
        status = init_typed_array(&m->by_type[kind], jl_class_at(kind), capacity);
    if (status == JL_OK)
        status = jl_arena_commit_to(&m->index_arena, INDEX_MIN_BUCKETS * sizeof(uint32_t));
    if (status != JL_OK) {
        jl_manager_shutdown(m);
        return status;
    }
    m->entities = (jl_entity *)m->entity_arena.base;
    m->free_slots = (uint32_t *)m->free_arena.base;
    m->index = (uint32_t *)m->index_arena.base;
    memset(m->index, 0, INDEX_MIN_BUCKETS * sizeof(uint32_t));
    m->index_mask = INDEX_MIN_BUCKETS - 1;
    m->pending_deletions = (uint64_t *)m->pending_arena.base;

    m->id_tag = desc && desc->id_tag ? desc->id_tag : 0;
    while (!m->id_tag) m->id_tag = (uint32_t)(jl_platform_entropy64() >> 32);
    m->id_counter = 1;
    return JL_OK;
}

void jl_manager_shutdown(jl_entity_manager *m)
{
    jl_arena_release(&m->entity_arena);
    jl_arena_release(&m->free_arena);
    jl_arena_release(&m->index_arena);
    jl_arena_release(&m->pending_arena);
    for (uint32_t kind = 0; kind < JL_KIND_COUNT; kind++) {
        jl_arena_release(&m->by_type[kind].arena);
        jl_arena_release(&m->by_type[kind].free_arena);
    }
    *m = (jl_entity_manager){0};
}

/* ---- allocation ---- */

static bool class_is_registered(const jl_class *cls)
{
    return cls && cls->kind < JL_KIND_COUNT && jl_class_at(cls->kind) == cls &&
           cls->size_of >= sizeof(jl_entity_header) && cls->alignment > 0;
}

/* A derived slot of t: a free one, else a new one at the end. The free
 * stack's memory is committed with each new slot so destroy never fails. */
static void *take_derived_slot(jl_typed_array *t, const jl_class *cls)
{
    if (t->free_count) return (char *)t->array + t->free_slots[--t->free_count] * t->stride;
    if (jl_arena_commit_to(&t->free_arena, (t->slots + 1) * sizeof(uint32_t)) != JL_OK) return NULL;
    void *slot = jl_arena_push(&t->arena, t->stride, cls->alignment);
    if (!slot) return NULL;
    if (!t->array) t->array = slot;
    t->slots++;
    return slot;
}

static void give_back_derived_slot(jl_typed_array *t, void *derived)
{
    ((jl_entity_header *)derived)->base = NULL;
    t->free_slots[t->free_count++] = (uint32_t)(((char *)derived - (char *)t->array) / t->stride);
}

static jl_entity *take_base_slot(jl_entity_manager *m)
{
    if (m->free_count) return &m->entities[m->free_slots[--m->free_count]];
    if (jl_arena_commit_to(&m->free_arena, (m->slots + 1) * sizeof(uint32_t)) != JL_OK) return NULL;
    jl_entity *e = jl_arena_push(&m->entity_arena, sizeof(jl_entity), _Alignof(jl_entity));
    if (!e) return NULL;
    m->slots++;
    e->generation = 1; /* a handle {index, 0} is never valid */
    return e;
}

jl_status jl_entity_allocate(jl_entity_manager *m, const jl_class *cls, jl_entity **out)
{
    if (out) *out = NULL;
    if (!m || !m->entities || !class_is_registered(cls)) return JL_ERR_INVALID_ARGUMENT;
    if (m->count >= m->capacity) return JL_ERR_CAPACITY;

    jl_typed_array *t = &m->by_type[cls->kind];
    void *derived = take_derived_slot(t, cls);
    if (!derived) return JL_ERR_OUT_OF_MEMORY;
    jl_entity *e = take_base_slot(m);
    if (!e) {
        give_back_derived_slot(t, derived);
        return JL_ERR_OUT_OF_MEMORY;
    }

    uint32_t generation = e->generation;
    *e = (jl_entity){.derived_kind = cls, .derived = derived, .is_dirty = true, .generation = generation};
    if (cls->default_init)
        cls->default_init(derived);
    else
        memset(derived, 0, cls->size_of);
    ((jl_entity_header *)derived)->base = e;

    t->count++;
    m->count++;
    if (out) *out = e;
    return JL_OK;
}

void *jl_entity_make(jl_entity_manager *m, const jl_class *cls, float x, float y, float z)
{
    jl_entity *e;
    if (jl_entity_allocate(m, cls, &e) != JL_OK) return NULL;
    if (jl_entity_set_id(m, e, jl_manager_mint_id(m)) != JL_OK) {
        jl_entity_rollback_allocation(m, e);
        return NULL;
    }
    jl_entity_set_position(e, x, y, z);
    return e->derived;
}

static bool owns_live_entity(const jl_entity_manager *m, const jl_entity *e)
{
    return m && e && m->entities && e >= m->entities && e < m->entities + m->slots &&
           e->derived != NULL;
}

jl_status jl_entity_set_id(jl_entity_manager *m, jl_entity *e, uint64_t id)
{
    if (!owns_live_entity(m, e) || id == 0) return JL_ERR_INVALID_ARGUMENT;
    jl_entity *holder = jl_entity_find(m, id);
    if (holder == e) return JL_OK;
    if (holder) return JL_ERR_DUPLICATE_ID;
    if (!e->id && index_reserve_one(m) != JL_OK) return JL_ERR_OUT_OF_MEMORY;
    if (e->id) index_remove(m, e->id);
    e->id = id;
    index_place(m, id, slot_of(m, e));
    m->index_count++;
    return JL_OK;
}

uint64_t jl_manager_mint_id(jl_entity_manager *m)
{
    for (;;) {
        uint64_t id = ((uint64_t)m->id_tag << 32) | m->id_counter++;
        if (id && !jl_entity_find(m, id)) return id;
    }
}

void jl_manager_note_id(jl_entity_manager *m, uint64_t id)
{
    if ((uint32_t)(id >> 32) != m->id_tag) return;
    uint32_t low = (uint32_t)id;
    if (low >= m->id_counter) m->id_counter = low + 1;
}

/* ---- removal ---- */

static void release_slots(jl_entity_manager *m, jl_entity *e)
{
    jl_typed_array *t = &m->by_type[e->derived_kind->kind];
    give_back_derived_slot(t, e->derived);
    t->count--;
    if (e->id) index_remove(m, e->id);
    uint32_t generation = e->generation;
    *e = (jl_entity){.generation = generation};
    m->free_slots[m->free_count++] = slot_of(m, e);
    m->count--;
}

jl_status jl_entity_destroy(jl_entity_manager *m, jl_entity *e)
{
    if (!owns_live_entity(m, e)) return JL_ERR_INVALID_ARGUMENT;
    uint64_t id = e->id;
    if (id) {
        if (jl_arena_commit_to(&m->pending_arena, (m->pending_count + 1) * sizeof(uint64_t)) != JL_OK)
            return JL_ERR_OUT_OF_MEMORY;
        m->pending_deletions[m->pending_count++] = id;
    }
    uint32_t generation = e->generation + 1;
    release_slots(m, e);
    e->generation = generation ? generation : 1;
    return JL_OK;
}

void jl_entity_rollback_allocation(jl_entity_manager *m, jl_entity *e)
{
    if (owns_live_entity(m, e)) release_slots(m, e);
}

void jl_manager_forget_pending_deletions(jl_entity_manager *m) { m->pending_count = 0; }

/* ---- handles ---- */

jl_handle jl_entity_handle(const jl_entity_manager *m, const jl_entity *e)
{
    if (!owns_live_entity(m, e)) return (jl_handle){0, 0};
    return (jl_handle){slot_of(m, e), e->generation};
}

jl_entity *jl_handle_resolve(const jl_entity_manager *m, jl_handle h)
{
    if (!m->entities || h.generation == 0 || h.index >= m->slots) return NULL;
    jl_entity *e = &m->entities[h.index];
    return (e->derived && e->generation == h.generation) ? e : NULL;
}

/* ---- compaction ---- */

void jl_manager_compact(jl_entity_manager *m)
{
    for (uint32_t kind = 0; kind < JL_KIND_COUNT; kind++) {
        jl_typed_array *t = &m->by_type[kind];
        char *array = t->array;
        size_t write = 0;
        for (size_t read = 0; read < t->slots; read++) {
            char *from = array + read * t->stride;
            jl_entity_header *header = (jl_entity_header *)from;
            if (!header->base) continue;
            if (read != write) {
                char *to = array + write * t->stride;
                memcpy(to, from, t->stride);
                header->base = NULL;
                ((jl_entity_header *)to)->base->derived = to;
            }
            write++;
        }
        t->slots = write;
        t->free_count = 0;
        if (array) jl_arena_pop_to(&t->arena, (size_t)(array - (char *)t->arena.base) + write * t->stride);
    }
}

/* ---- invariants ---- */

#define FAIL(...) return jl_error_set(err, JL_ERR_INVARIANT, NULL, 0, 0, __VA_ARGS__)

static jl_status check_typed_array(const jl_entity_manager *m, uint32_t kind, jl_error *err)
{
    const jl_typed_array *t = &m->by_type[kind];
    size_t live = 0;
    for (size_t slot = 0; slot < t->slots; slot++) {
        const jl_entity_header *header = (const jl_entity_header *)((char *)t->array + slot * t->stride);
        if (!header->base) continue;
        live++;
        const jl_entity *e = header->base;
        if (!owns_live_entity(m, e)) FAIL("kind %u slot %zu: back-pointer to a free or foreign base", kind, slot);
        if (e->derived != header) FAIL("kind %u slot %zu: base->derived does not point back", kind, slot);
    }
    if (live != t->count) FAIL("kind %u: %zu live derived structs but count %zu", kind, live, t->count);
    if (t->free_count != t->slots - t->count)
        FAIL("kind %u: %zu free slots listed, %zu free", kind, t->free_count, t->slots - t->count);
    for (size_t i = 0; i < t->free_count; i++) {
        if (t->free_slots[i] >= t->slots) FAIL("kind %u: free slot %u out of range", kind, t->free_slots[i]);
        const jl_entity_header *header = (const jl_entity_header *)((char *)t->array + (size_t)t->free_slots[i] * t->stride);
        if (header->base) FAIL("kind %u: free list names live slot %u", kind, t->free_slots[i]);
    }
    return JL_OK;
}

jl_status jl_manager_check(const jl_entity_manager *m, jl_error *err)
{
    if (!m || !m->entities) FAIL("manager not initialised");
    uint32_t live = 0, with_id = 0;
    for (uint32_t slot = 0; slot < m->slots; slot++) {
        const jl_entity *e = &m->entities[slot];
        if (!e->derived) {
            if (e->derived_kind || e->id) FAIL("free slot %u still has a class or an ID", slot);
            continue;
        }
        live++;
        const jl_class *cls = e->derived_kind;
        if (!class_is_registered(cls)) FAIL("slot %u: no registered class (type coherence)", slot);
        const jl_typed_array *t = &m->by_type[cls->kind];
        const char *derived = e->derived, *array = t->array;
        if (!array || derived < array || derived >= array + t->slots * t->stride ||
            (size_t)(derived - array) % t->stride != 0)
            FAIL("slot %u (ID 0x%016llx): derived struct outside the %s array", slot,
                 (unsigned long long)e->id, cls->name);
        if (((const jl_entity_header *)derived)->base != e)
            FAIL("slot %u (ID 0x%016llx): derived->base does not point back", slot, (unsigned long long)e->id);
        if (e->id) {
            with_id++;
            if (jl_entity_find(m, e->id) != e) FAIL("slot %u: ID 0x%016llx not in the index", slot, (unsigned long long)e->id);
        }
    }
    if (live != m->count) FAIL("%u live base entities but count %u", live, m->count);
    if (m->free_count != m->slots - m->count) FAIL("%u free base slots listed, %u free", m->free_count, m->slots - m->count);
    for (uint32_t i = 0; i < m->free_count; i++)
        if (m->free_slots[i] >= m->slots || m->entities[m->free_slots[i]].derived)
            FAIL("base free list names slot %u, which is live or out of range", m->free_slots[i]);
    if (with_id != m->index_count) FAIL("%u entities have IDs but the index holds %u", with_id, m->index_count);
    size_t typed_total = 0;
    for (uint32_t kind = 0; kind < JL_KIND_COUNT; kind++) {
        jl_status status = check_typed_array(m, kind, err);
        if (status != JL_OK) return status;
        typed_total += m->by_type[kind].count;
    }
    if (typed_total != m->count) FAIL("typed arrays hold %zu entities, base array %u (array count)", typed_total, m->count);
    return JL_OK;
}

size_t jl_manager_committed_bytes(const jl_entity_manager *m)
{
    size_t total = m->entity_arena.committed + m->free_arena.committed + m->index_arena.committed +
                   m->pending_arena.committed;
    for (uint32_t kind = 0; kind < JL_KIND_COUNT; kind++)
        total += m->by_type[kind].arena.committed + m->by_type[kind].free_arena.committed;
    return total;
}
