/* entity_manager.c - dual-arena allocation, O(1) removal with free lists and
 * generations, the ID index, compaction and the invariant checker
 * (entity_manager.h describes the design). */
#include "juliet/entity_manager.h"

#include <string.h>

#include "entity/entity_manager_internal.h"
#include "juliet/platform.h"

/* own_index covers the first OWN_IDS_PER_CAPACITY times the capacity IDs of
 * this session's run; a long session that mints more IDs than that falls
 * back to the hash table for the newer ones. */
enum { INDEX_MIN_BUCKETS = 1024, PENDING_PER_CAPACITY = 4, OWN_IDS_PER_CAPACITY = 4 };

#define TAG_MASK ((UINT64_C(1) << (64 - JL_ID_COUNTER_BITS)) - 1)
/* How far past its first ID a loaded ID advances the counter: the 2^32
 * counter range of the old 32-bit tags, so a session given such a tag
 * (tests, `juliet gen`) continues their worlds exactly as before. */
#define NOTE_WINDOW (UINT64_C(1) << 32)

/* The first ID of the session's run: its first tag with counter 0. */
static inline uint64_t id_base(const jl_entity_manager *m) { return m->id_tag << JL_ID_COUNTER_BITS; }

static size_t next_pow2(size_t value)
{
    size_t result = 1;
    while (result < value) result <<= 1;
    return result;
}

/* ---- ID index ----
 * IDs of this session's run (those it minted, the common case while
 * editing) are found through own_index, a dense array from the ID's
 * distance to the run's start to its slot: creating entities then writes it
 * sequentially, across counter roll-overs too. The run of the first
 * session a world loads gets such an array too (loaded_index, see
 * take_loaded_range). Every other ID goes through a hash table with open
 * addressing, linear probing and backward-shift delete, whose buckets hold
 * the full 32-bit hash and the slot so that probing never touches the entity
 * array; only a hash match reads the ID. */

/* The own_index entry of id, else its loaded_index entry, or NULL if id is
 * outside both dense ranges (it then lives in the hash table). */
static uint32_t *own_entry(const jl_entity_manager *m, uint64_t id)
{
    uint64_t offset = id - id_base(m); /* wraps far out of range below the base */
    if (offset < m->own_limit) return &m->own_index[offset];
    offset = id - m->loaded_base;
    return m->loaded_index && offset < m->own_limit ? &m->loaded_index[offset] : NULL;
}

/* Whether a dense entry (own_entry) is in own_index, else in loaded_index. */
static bool in_own_index(const jl_entity_manager *m, const uint32_t *entry)
{
    return entry >= m->own_index && entry < m->own_index + m->own_limit;
}

/* A world loaded from files holds the IDs of other sessions, mostly runs of
 * one of them: the first such ID, while no ID is hashed (so none is in the
 * range taken), gets a dense range of its own from the start of its tag.
 * Its IDs are then indexed sequentially (a few bytes each) instead of in
 * random buckets of a hash table that doubles as it fills. The
 * reservation is taken here, so a world that never loads costs nothing;
 * if it is refused, the IDs are hashed. */
static void take_loaded_range(jl_entity_manager *m, uint64_t id)
{
    if (m->loaded_index || m->hashed_count) return;
    if (!m->loaded_arena.base && jl_arena_init(&m->loaded_arena, (size_t)m->own_limit * sizeof(uint32_t)) != JL_OK)
        return;
    m->loaded_base = id >> JL_ID_COUNTER_BITS << JL_ID_COUNTER_BITS;
    m->loaded_index = (uint32_t *)m->loaded_arena.base;
}

static uint32_t id_hash(uint64_t id)
{
    uint64_t h = id * 0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    return (uint32_t)(h >> 32);
}

static uint32_t slot_of(const jl_entity_manager *m, const jl_entity *e) { return (uint32_t)(e - m->entities); }

static void index_place(jl_entity_manager *m, uint32_t hash, uint32_t slot)
{
    uint32_t i = hash & m->index_mask;
    while (m->index[i].slot_plus_one) i = (i + 1) & m->index_mask;
    m->index[i] = (jl_id_bucket){hash, slot + 1};
}

/* Doubles the table (within its reservation) and re-inserts every indexed
 * entity from the slot array, which is the source of truth. */
static jl_status index_grow(jl_entity_manager *m)
{
    size_t buckets = (size_t)m->index_mask + 1;
    size_t new_buckets = buckets * 2;
    if (jl_arena_commit_to(&m->index_arena, new_buckets * sizeof(jl_id_bucket)) != JL_OK) return JL_ERR_OUT_OF_MEMORY;
    memset(m->index, 0, new_buckets * sizeof(jl_id_bucket));
    m->index_mask = (uint32_t)(new_buckets - 1);
    for (uint32_t slot = 0; slot < m->slots; slot++) {
        const jl_entity *e = &m->entities[slot];
        if (e->derived && e->id && !own_entry(m, e->id)) index_place(m, id_hash(e->id), slot);
    }
    return JL_OK;
}

/* The bucket holding id, or the empty bucket where it would go. */
static uint32_t index_probe(const jl_entity_manager *m, uint64_t id, uint32_t hash)
{
    uint32_t mask = m->index_mask;
    uint32_t i = hash & mask;
    for (;; i = (i + 1) & mask) {
        jl_id_bucket b = m->index[i];
        if (!b.slot_plus_one) return i;
        if (b.hash == hash && m->entities[b.slot_plus_one - 1].id == id) return i;
    }
}

static void index_remove(jl_entity_manager *m, uint64_t id)
{
    uint32_t mask = m->index_mask;
    uint32_t i = index_probe(m, id, id_hash(id));
    if (!m->index[i].slot_plus_one) return;
    m->index[i] = (jl_id_bucket){0, 0};
    m->index_count--;
    m->hashed_count--;
    /* Shift back every following entry of the run that may no longer be
     * reachable from its home bucket. */
    for (uint32_t j = (i + 1) & mask; m->index[j].slot_plus_one; j = (j + 1) & mask) {
        uint32_t home = m->index[j].hash & mask;
        bool home_in_gap = (i <= j) ? (home <= i || home > j) : (home <= i && home > j);
        if (home_in_gap) {
            m->index[i] = m->index[j];
            m->index[j] = (jl_id_bucket){0, 0};
            i = j;
        }
    }
}

static bool own_entry_committed(const jl_entity_manager *m, const uint32_t *entry)
{
    const jl_arena *a = in_own_index(m, entry) ? &m->own_arena : &m->loaded_arena;
    return (size_t)((const uint8_t *)(entry + 1) - a->base) <= a->committed;
}

jl_entity *jl_entity_find(const jl_entity_manager *m, uint64_t id)
{
    if (!id || !m->index) return NULL;
    uint32_t *own = own_entry(m, id);
    uint32_t slot_plus_one;
    if (own) slot_plus_one = own_entry_committed(m, own) ? *own : 0;
    else slot_plus_one = m->index[index_probe(m, id, id_hash(id))].slot_plus_one;
    return slot_plus_one ? &m->entities[slot_plus_one - 1] : NULL;
}

void jli_manager_prefetch_id(const jl_entity_manager *m, uint64_t id)
{
    const void *at = own_entry(m, id);
    if (!at) at = &m->index[id_hash(id) & m->index_mask];
    __builtin_prefetch(at, 1); /* a hint: never faults, even past the committed part */
}

static inline void unindex(jl_entity_manager *m, uint64_t id)
{
    uint32_t *own = own_entry(m, id);
    if (!own) {
        index_remove(m, id);
        return;
    }
    *own = 0;
    m->index_count--;
}

/* ---- init and shutdown ---- */

/* Reserves the typed array of a class at its first allocation. Size and
 * alignment were checked when the class was registered. */
static jl_status init_typed_array(jl_typed_array *t, const jl_class *cls, uint32_t capacity)
{
    size_t stride = (cls->size_of + cls->alignment - 1) / cls->alignment * cls->alignment;
    jl_status status = jl_arena_init(&t->arena, (size_t)capacity * stride);
    if (status != JL_OK) return status;
    t->cls = cls;
    t->stride = stride;
    return JL_OK;
}

jl_status jl_manager_init(jl_entity_manager *m, const jl_manager_desc *desc)
{
    *m = (jl_entity_manager){0};
    uint32_t capacity = (desc && desc->capacity) ? desc->capacity : JL_DEFAULT_CAPACITY;
    if (capacity > JL_MAX_CAPACITY || (desc && desc->id_tag > TAG_MASK)) return JL_ERR_INVALID_ARGUMENT;
    m->capacity = capacity;

    size_t buckets_max = next_pow2((size_t)capacity * 2);
    if (buckets_max < INDEX_MIN_BUCKETS) buckets_max = INDEX_MIN_BUCKETS;

    jl_status status = jl_arena_init(&m->entity_arena, (size_t)capacity * sizeof(jl_entity));
    if (status == JL_OK) status = jl_arena_init(&m->index_arena, buckets_max * sizeof(jl_id_bucket));
    m->own_limit =
        capacity < INDEX_MIN_BUCKETS ? INDEX_MIN_BUCKETS * OWN_IDS_PER_CAPACITY : capacity * OWN_IDS_PER_CAPACITY;
    if (status == JL_OK) status = jl_arena_init(&m->own_arena, (size_t)m->own_limit * sizeof(uint32_t));
    if (status == JL_OK)
        status = jl_arena_init(&m->pending_arena, (size_t)capacity * PENDING_PER_CAPACITY * sizeof(uint64_t));
    if (status == JL_OK) status = jl_arena_commit_to(&m->index_arena, INDEX_MIN_BUCKETS * sizeof(jl_id_bucket));
    if (status != JL_OK) {
        jl_manager_shutdown(m);
        return status;
    }
    m->entities = (jl_entity *)m->entity_arena.base;
    m->index = (jl_id_bucket *)m->index_arena.base;
    m->own_index = (uint32_t *)m->own_arena.base;
    memset(m->index, 0, INDEX_MIN_BUCKETS * sizeof(jl_id_bucket));
    m->index_mask = INDEX_MIN_BUCKETS - 1;
    m->pending_deletions = (uint64_t *)m->pending_arena.base;

    m->classes = desc && desc->classes ? desc->classes : jl_program_classes();
    m->id_tag = desc && desc->id_tag ? desc->id_tag : 0;
    while (!m->id_tag) m->id_tag = jl_platform_entropy64() >> JL_ID_COUNTER_BITS;
    m->id_counter = 1;
    m->generation_floor = m->max_generation = 1;
    return JL_OK;
}

void jl_manager_reset(jl_entity_manager *m)
{
    for (uint32_t kind = 0; kind < JL_CLASS_MAX; kind++) {
        jl_typed_array *t = &m->by_type[kind];
        t->count = t->slots = t->free_count = 0;
        t->free_head = 0;
        t->array = NULL;
        jl_arena_pop_to(&t->arena, 0);
    }
    /* Slots are handed out again from 0 with a generation above every one
     * used so far, so handles taken before the reset stay stale. */
    m->slots = m->count = m->free_count = m->free_head = 0;
    jl_arena_pop_to(&m->entity_arena, 0);
    m->generation_floor = m->max_generation + 1;
    m->max_generation = m->generation_floor;
    memset(m->index, 0, ((size_t)m->index_mask + 1) * sizeof(jl_id_bucket));
    memset(m->own_index, 0, m->own_arena.committed);
    /* The next load may come from another session: its range is taken anew. */
    if (m->loaded_index) memset(m->loaded_index, 0, m->loaded_arena.committed);
    m->loaded_index = NULL;
    m->index_count = m->hashed_count = 0;
}

void jl_manager_shutdown(jl_entity_manager *m)
{
    jl_arena_release(&m->entity_arena);
    jl_arena_release(&m->index_arena);
    jl_arena_release(&m->own_arena);
    jl_arena_release(&m->loaded_arena);
    jl_arena_release(&m->pending_arena);
    for (uint32_t kind = 0; kind < JL_CLASS_MAX; kind++) jl_arena_release(&m->by_type[kind].arena);
    *m = (jl_entity_manager){0};
}

/* ---- allocation ---- */

/* Registration checked the class's size and alignment, so identity with
 * the manager's registry is the whole check. */
static bool class_is_registered(const jl_entity_manager *m, const jl_class *cls)
{
    return cls && jl_registry_at(m->classes, cls->kind) == cls;
}

/* A free derived slot's header holds (offset of the next free slot + 1) << 1
 * | 1: byte offsets, so that freeing needs no division by the stride. */
static jl_entity *tagged_link(size_t next_offset_plus_one)
{
    return (jl_entity *)(((uintptr_t)next_offset_plus_one << 1) | 1u);
}

static size_t link_of(const void *derived)
{
    return (size_t)((uintptr_t)((const jl_entity_header *)derived)->base >> 1);
}

static void *derived_slot(const jl_typed_array *t, size_t slot) { return (char *)t->array + slot * t->stride; }

/* A derived slot of t: the head of the free list, else a new one at the end. */
static void *take_derived_slot(jl_typed_array *t)
{
    if (t->free_head) {
        void *slot = (char *)t->array + (t->free_head - 1);
        t->free_head = link_of(slot);
        t->free_count--;
        return slot;
    }
    /* Slots are packed from the page-aligned start of the arena with a stride
     * that is a multiple of the alignment: the next one is at slots * stride. */
    size_t end = (t->slots + 1) * t->stride;
    if (end > t->arena.committed && jl_arena_commit_to(&t->arena, end) != JL_OK) return NULL;
    char *slot = (char *)t->arena.base + t->slots * t->stride;
    t->arena.used = end;
    t->array = t->arena.base;
    t->slots++;
    return slot;
}

static void give_back_derived_slot(jl_typed_array *t, void *derived)
{
    ((jl_entity_header *)derived)->base = tagged_link(t->free_head);
    t->free_head = (size_t)((char *)derived - (char *)t->array) + 1;
    t->free_count++;
}

static jl_entity *take_base_slot(jl_entity_manager *m)
{
    if (m->free_head) {
        jl_entity *e = &m->entities[m->free_head - 1];
        m->free_head = (uint32_t)e->id;
        m->free_count--;
        return e;
    }
    size_t end = ((size_t)m->slots + 1) * sizeof(jl_entity);
    if (end > m->entity_arena.committed && jl_arena_commit_to(&m->entity_arena, end) != JL_OK) return NULL;
    jl_entity *e = &m->entities[m->slots];
    m->entity_arena.used = end;
    m->slots++;
    e->generation = m->generation_floor; /* >= 1: a handle {index, 0} is never valid */
    return e;
}

/* AllocateEntity proper; inlined into jl_entity_make. */
static inline jl_entity *allocate(jl_entity_manager *m, const jl_class *cls, jl_vec4 position, jl_status *status)
{
    if (!m || !m->entities || !class_is_registered(m, cls)) {
        *status = JL_ERR_INVALID_ARGUMENT;
        return NULL;
    }
    if (m->count >= m->capacity) {
        *status = JL_ERR_CAPACITY;
        return NULL;
    }
    jl_typed_array *t = &m->by_type[cls->kind];
    if (!t->cls && init_typed_array(t, cls, m->capacity) != JL_OK) {
        *status = JL_ERR_OUT_OF_MEMORY;
        return NULL;
    }
    void *derived = take_derived_slot(t);
    jl_entity *e = derived ? take_base_slot(m) : NULL;
    if (!e) {
        if (derived) give_back_derived_slot(t, derived);
        *status = JL_ERR_OUT_OF_MEMORY;
        return NULL;
    }

    uint32_t generation = e->generation;
    *e = (jl_entity){
        .derived_kind = cls, .derived = derived, .position = position, .is_dirty = true, .generation = generation};
    jl_class_default_init(cls, derived);
    ((jl_entity_header *)derived)->base = e;

    t->count++;
    m->count++;
    *status = JL_OK;
    return e;
}

jl_status jl_entity_allocate(jl_entity_manager *m, const jl_class *cls, jl_entity **out)
{
    jl_status status;
    jl_entity *e = allocate(m, cls, (jl_vec4){0}, &status);
    if (out) *out = e;
    return status;
}

static jl_status assign_minted_id(jl_entity_manager *m, jl_entity *e);

void *jl_entity_make(jl_entity_manager *m, const jl_class *cls, float x, float y, float z)
{
    jl_status status;
    jl_entity *e = allocate(m, cls, (jl_vec4){x, y, z, 1.0f}, &status);
    if (!e) return NULL;
    if (assign_minted_id(m, e) != JL_OK) {
        jli_entity_rollback_allocation(m, e);
        return NULL;
    }
    return e->derived;
}

/* One unsigned comparison for "within the used slots": a pointer below the
 * array (or NULL) wraps to a huge distance. */
static inline bool owns_live_entity(const jl_entity_manager *m, const jl_entity *e)
{
    return m && (uintptr_t)e - (uintptr_t)m->entities < (uintptr_t)m->slots * sizeof(jl_entity) && e->derived != NULL;
}

jl_status jl_entity_set_id(jl_entity_manager *m, jl_entity *e, uint64_t id)
{
    if (!owns_live_entity(m, e) || id == 0) return JL_ERR_INVALID_ARGUMENT;
    if (e->id == id) return JL_OK;
    /* A range is taken only while no ID is hashed: none of its IDs can be
     * in the hash table. */
    uint32_t *own = own_entry(m, id);
    if (!own) {
        take_loaded_range(m, id);
        own = own_entry(m, id);
    }
    /* Make room first, so that a refused commit leaves everything
     * unchanged; a dense entry, once committed, is its own duplicate check
     * (one lookup per loaded ID). */
    if (own) {
        jl_arena *a = in_own_index(m, own) ? &m->own_arena : &m->loaded_arena;
        if (jl_arena_commit_to(a, (size_t)((uint8_t *)(own + 1) - a->base)) != JL_OK) return JL_ERR_OUT_OF_MEMORY;
        if (*own) return JL_ERR_DUPLICATE_ID;
    } else {
        if (jl_entity_find(m, id)) return JL_ERR_DUPLICATE_ID;
        if ((size_t)(m->hashed_count + 1) * 2 > (size_t)m->index_mask + 1 && index_grow(m) != JL_OK)
            return JL_ERR_OUT_OF_MEMORY;
    }
    if (e->id) unindex(m, e->id);
    e->id = id;
    uint32_t slot = slot_of(m, e);
    if (own) {
        *own = slot + 1;
    } else {
        index_place(m, id_hash(id), slot);
        m->hashed_count++;
    }
    m->index_count++;
    return JL_OK;
}

/* The creation fast path of jl_entity_set_id(m, e, jl_manager_mint_id(m)):
 * the next free entry of own_index, found and written sequentially. */
static jl_status assign_minted_id(jl_entity_manager *m, jl_entity *e)
{
    uint64_t counter = m->id_counter;
    while (counter < m->own_limit) {
        size_t bytes = ((size_t)counter + 1) * sizeof(uint32_t);
        if (jl_arena_commit_to(&m->own_arena, bytes) != JL_OK) return JL_ERR_OUT_OF_MEMORY;
        uint64_t id = id_base(m) + counter;
        if (!m->own_index[counter] && id) { /* 0 only where the run wraps past 2^64 */
            m->own_index[counter] = slot_of(m, e) + 1;
            m->index_count++;
            e->id = id;
            m->id_counter = counter + 1;
            return JL_OK;
        }
        counter++;
    }
    return jl_entity_set_id(m, e, jl_manager_mint_id(m)); /* past the dense range */
}

uint64_t jl_manager_mint_id(jl_entity_manager *m)
{
    for (;;) {
        uint64_t id = id_base(m) + m->id_counter++;
        if (id && !jl_entity_find(m, id)) return id;
    }
}

void jl_manager_note_id(jl_entity_manager *m, uint64_t id)
{
    uint64_t offset = id - id_base(m);
    if (offset >= m->id_counter && offset < NOTE_WINDOW) m->id_counter = offset + 1;
}

/* ---- removal ---- */

/* Frees e's derived and base slots and its ID; the free base slot gets
 * `generation`. Inline: destroy runs it once per entity. */
static inline void release_slots(jl_entity_manager *m, jl_entity *e, uint32_t generation)
{
    jl_typed_array *t = &m->by_type[e->derived_kind->kind];
    give_back_derived_slot(t, e->derived);
    t->count--;
    if (e->id) unindex(m, e->id);
    const uint32_t slot = slot_of(m, e);
    *e = (jl_entity){.id = m->free_head, .generation = generation};
    m->free_head = slot + 1;
    m->free_count++;
    m->count--;
}

jl_status jl_entity_destroy(jl_entity_manager *m, jl_entity *e)
{
    if (!owns_live_entity(m, e)) return JL_ERR_INVALID_ARGUMENT;
    const uint64_t id = e->id;
    if (id) {
        if (jl_arena_commit_to(&m->pending_arena, (m->pending_count + 1) * sizeof(uint64_t)) != JL_OK)
            return JL_ERR_OUT_OF_MEMORY;
        m->pending_deletions[m->pending_count++] = id;
    }
    uint32_t generation = e->generation + 1;
    if (!generation) generation = 1; /* 0 never names a live entity */
    release_slots(m, e, generation);
    if (generation > m->max_generation) m->max_generation = generation;
    return JL_OK;
}

void jli_entity_rollback_allocation(jl_entity_manager *m, jl_entity *e)
{
    if (owns_live_entity(m, e)) release_slots(m, e, e->generation);
}

void jl_manager_forget_pending_deletions(jl_entity_manager *m) { m->pending_count = 0; }

uint32_t jli_manager_cancel_deletion(jl_entity_manager *m, uint64_t id)
{
    uint32_t keep = 0;
    for (uint32_t i = 0; i < m->pending_count; i++)
        if (m->pending_deletions[i] != id) m->pending_deletions[keep++] = m->pending_deletions[i];
    uint32_t cancelled = m->pending_count - keep;
    m->pending_count = keep;
    return cancelled;
}

void jli_entity_take_id(jl_entity_manager *m, jl_entity *e)
{
    if (!owns_live_entity(m, e) || !e->id) return;
    unindex(m, e->id);
    e->id = 0;
}

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
    for (uint32_t kind = 0; kind < JL_CLASS_MAX; kind++) {
        jl_typed_array *t = &m->by_type[kind];
        char *array = t->array;
        size_t write = 0;
        for (size_t read = 0; read < t->slots; read++) {
            char *from = array + read * t->stride;
            if (jl_derived_is_free(from)) continue;
            if (read != write) {
                char *to = array + write * t->stride;
                memcpy(to, from, t->stride);
                ((jl_entity_header *)to)->base->derived = to;
            }
            write++;
        }
        t->slots = write;
        t->free_count = 0;
        t->free_head = 0;
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
        const jl_entity_header *header = derived_slot(t, slot);
        if (jl_derived_is_free(header)) continue;
        live++;
        const jl_entity *e = header->base;
        if (!owns_live_entity(m, e)) FAIL("kind %u slot %zu: back-pointer to a free or foreign base", kind, slot);
        if (e->derived != header) FAIL("kind %u slot %zu: base->derived does not point back", kind, slot);
    }
    if (live != t->count) FAIL("kind %u: %zu live derived structs but count %zu", kind, live, t->count);
    /* Walk the free list; a cycle would run past the number of free slots. */
    size_t listed = 0;
    for (size_t next = t->free_head; next; listed++) {
        size_t offset = next - 1;
        if (offset % t->stride || offset / t->stride >= t->slots || listed >= t->slots)
            FAIL("kind %u: free list broken at byte offset %zu", kind, offset);
        const jl_entity_header *header = (const jl_entity_header *)((char *)t->array + offset);
        if (!jl_derived_is_free(header)) FAIL("kind %u: free list names live slot %zu", kind, offset / t->stride);
        next = link_of(header);
    }
    if (listed != t->slots - t->count || t->free_count != listed)
        FAIL("kind %u: %zu free slots listed, %zu free", kind, listed, t->slots - t->count);
    return JL_OK;
}

jl_status jl_manager_check(const jl_entity_manager *m, jl_error *err)
{
    if (!m || !m->entities) FAIL("manager not initialised");
    uint32_t live = 0, with_id = 0;
    for (uint32_t slot = 0; slot < m->slots; slot++) {
        const jl_entity *e = &m->entities[slot];
        if (!e->derived) {
            if (e->derived_kind) FAIL("free slot %u still has a class", slot);
            continue;
        }
        live++;
        const jl_class *cls = e->derived_kind;
        if (!class_is_registered(m, cls)) FAIL("slot %u: no registered class (type coherence)", slot);
        const jl_typed_array *t = &m->by_type[cls->kind];
        const char *derived = e->derived, *array = t->array;
        if (!array || derived < array || derived >= array + t->slots * t->stride ||
            (size_t)(derived - array) % t->stride != 0)
            FAIL("slot %u (ID 0x%016llx): derived struct outside the %s array", slot, (unsigned long long)e->id,
                 cls->name);
        if (((const jl_entity_header *)derived)->base != e)
            FAIL("slot %u (ID 0x%016llx): derived->base does not point back", slot, (unsigned long long)e->id);
        if (e->id) {
            with_id++;
            if (jl_entity_find(m, e->id) != e)
                FAIL("slot %u: ID 0x%016llx not in the index", slot, (unsigned long long)e->id);
        }
    }
    if (live != m->count) FAIL("%u live base entities but count %u", live, m->count);
    uint32_t listed = 0;
    for (uint64_t next = m->free_head; next; listed++) {
        if (next > m->slots || listed >= m->slots || m->entities[next - 1].derived)
            FAIL("base free list broken at slot %llu", (unsigned long long)(next - 1));
        next = m->entities[next - 1].id;
    }
    if (listed != m->slots - m->count || m->free_count != listed)
        FAIL("%u free base slots listed, %u free", listed, m->slots - m->count);
    if (with_id != m->index_count) FAIL("%u entities have IDs but the index holds %u", with_id, m->index_count);
    size_t typed_total = 0;
    for (uint32_t kind = 0; kind < JL_CLASS_MAX; kind++) {
        const jl_typed_array *t = &m->by_type[kind];
        if (t->cls && t->cls != jl_registry_at(m->classes, kind))
            FAIL("kind %u: the typed array holds %s, the registry another class", kind, t->cls->name);
        jl_status status = check_typed_array(m, kind, err);
        if (status != JL_OK) return status;
        typed_total += m->by_type[kind].count;
    }
    if (typed_total != m->count)
        FAIL("typed arrays hold %zu entities, base array %u (array count)", typed_total, m->count);
    return JL_OK;
}

size_t jl_manager_committed_bytes(const jl_entity_manager *m)
{
    size_t total = m->entity_arena.committed + m->index_arena.committed + m->own_arena.committed +
                   m->loaded_arena.committed + m->pending_arena.committed;
    for (uint32_t kind = 0; kind < JL_CLASS_MAX; kind++) total += m->by_type[kind].arena.committed;
    return total;
}
