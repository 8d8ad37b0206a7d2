/* world.c - a world's lifetime and arenas, its diagnostics, and entities
 * through the API: create, remove, find (world.h; JULIET-SPEC-002 §4.2, §6).
 *
 * Every byte comes from arenas reserved here; jl_world_new puts the world
 * struct itself at the start of an arena of its own. */
#include <string.h>

#include "entity/entity_manager_internal.h"
#include "world/world_internal.h"

/* ---- arena sizes ---- */

#ifdef __EMSCRIPTEN__
/* No virtual memory in wasm: a reservation is real memory at once. */
enum { MB = 1024 * 1024 };
static const size_t SCRATCH_BYTES = 32 * MB, STORAGE_BYTES = 16 * MB, STRINGS_BYTES = 16 * MB, DIAG_BYTES = 4 * MB,
                    GUARD_BYTES = 1 * MB, REMOVED_BYTES = 2 * MB, REF_BYTES = 4 * MB, REPORT_BYTES = 8 * MB,
                    WARN_BYTES = MB / 4;
/* Scratch also holds a folder's listing (names and entries, about 36 bytes
 * a file): room for as many files as the world takes entities. */
static const size_t LISTING_BYTES_PER_ENTITY = 48;
#else
#define MB ((size_t)1024 * 1024)
static const size_t SCRATCH_BYTES = 1024 * MB, STORAGE_BYTES = 1024 * MB, STRINGS_BYTES = 1024 * MB,
                    DIAG_BYTES = JL_WORLD_MAX_DIAGNOSTICS * sizeof(jl_error) + MB, GUARD_BYTES = 256 * MB,
                    REMOVED_BYTES = 256 * MB, REF_BYTES = 512 * MB, REPORT_BYTES = 1024 * MB, WARN_BYTES = 256 * MB;
static const size_t LISTING_BYTES_PER_ENTITY = 0; /* reserved, not committed: SCRATCH_BYTES holds millions */
#endif

static const size_t STORAGE_MAX = (size_t)UINT32_MAX - (1u << 20);

/* ---- lifetime ---- */

jl_status jli_world_init(jl_world *w, const jl_world_desc *desc)
{
    jl_world_desc d = desc ? *desc : (jl_world_desc){0};
    *w = (jl_world){0};
    /* The world's own registry: its manager and loader resolve classes
     * through it, never through the program's. */
    w->classes = *jl_program_classes();
    jl_manager_desc md = {.capacity = d.capacity, .id_tag = d.id_tag, .classes = &w->classes};
    jl_status s = jl_manager_init(&w->manager, &md);
    if (s != JL_OK) {
        *w = (jl_world){0};
        return s;
    }
    size_t records_bytes = (size_t)w->manager.capacity * sizeof(jli_entity_record);
    size_t prints_bytes = (size_t)w->manager.capacity * sizeof(uint64_t);
    size_t seen_bytes = (size_t)w->manager.capacity * sizeof(jli_file_seen);
    /* Records keep storage offsets in 32 bits. */
    size_t storage_bytes = d.storage_bytes ? d.storage_bytes : STORAGE_BYTES;
    if (storage_bytes > STORAGE_MAX) storage_bytes = STORAGE_MAX;
    struct {
        jl_arena *arena;
        size_t bytes;
    } arenas[] = {
        {&w->scratch, SCRATCH_BYTES + (size_t)w->manager.capacity * LISTING_BYTES_PER_ENTITY},
        {&w->storage.arena, storage_bytes},
        {&w->records_arena, records_bytes},
        {&w->prints_arena, prints_bytes},
        {&w->seen_arena, seen_bytes},
        {&w->removed_seen_arena, REMOVED_BYTES},
        {&w->removed_seen.arena, REMOVED_BYTES},
        {&w->diag_arena, DIAG_BYTES},
        {&w->ref_arena, REF_BYTES},
        {&w->report_arena, REPORT_BYTES},
        {&w->guarded.arena, GUARD_BYTES},
        {&w->removed.arena, REMOVED_BYTES},
        {&w->strings, STRINGS_BYTES},
        {&w->warn_arena, WARN_BYTES},
    };
    for (size_t i = 0; i < sizeof arenas / sizeof arenas[0]; i++) {
        if ((s = jl_arena_init(arenas[i].arena, arenas[i].bytes)) != JL_OK) {
            w->initialized = true;
            jli_world_shutdown(w);
            return s;
        }
    }
    w->records = (jli_entity_record *)w->records_arena.base;
    w->prints = (uint64_t *)w->prints_arena.base;
    w->seen = (jli_file_seen *)w->seen_arena.base;
    w->diagnostics = (jl_error *)w->diag_arena.base;
    w->refs = (jli_ref *)w->ref_arena.base;
    w->fs = d.fs ? d.fs : jl_fs_native();
    w->keep_temp_files = d.keep_temp_files;
    w->lock_wait_ms = d.lock_wait_ms ? d.lock_wait_ms : 2000;
    jli_world_settings_defaults(&w->settings);
    w->settings_record.file = JLI_FILE_UNPRINTED; /* no file: clean while it stays the defaults */
    w->initialized = true;
    return JL_OK;
}

void jli_world_shutdown(jl_world *w)
{
    if (!w->initialized) return;
    jl_manager_shutdown(&w->manager);
    jl_arena_release(&w->scratch);
    jli_pool_release(&w->storage);
    jl_arena_release(&w->strings);
    jl_arena_release(&w->records_arena);
    jl_arena_release(&w->prints_arena);
    jl_arena_release(&w->seen_arena);
    jl_arena_release(&w->removed_seen_arena);
    jli_id_map_release(&w->removed_seen);
    jl_arena_release(&w->diag_arena);
    jli_id_map_release(&w->guarded);
    jli_id_map_release(&w->removed);
    jl_arena_release(&w->ref_arena);
    jl_arena_release(&w->report_arena);
    jl_arena_release(&w->warn_arena);
    *w = (jl_world){0};
}

jl_status jl_world_new(const jl_world_desc *desc, jl_world **out)
{
    *out = NULL;
    jl_arena self;
    jl_status s = jl_arena_init(&self, sizeof(jl_world));
    if (s != JL_OK) return s;
    jl_world *w = jl_arena_push(&self, sizeof *w, _Alignof(jl_world));
    if (!w) {
        jl_arena_release(&self);
        return JL_ERR_OUT_OF_MEMORY;
    }
    s = jli_world_init(w, desc);
    if (s != JL_OK) {
        jl_arena_release(&self);
        return s;
    }
    w->self = self;
    *out = w;
    return JL_OK;
}

void jl_world_free(jl_world *w)
{
    if (!w) return;
    jl_arena self = w->self; /* the world lives in it: release it last */
    jli_world_shutdown(w);
    jl_arena_release(&self);
}

/* ---- diagnostics ---- */

void jl_world_clear_diagnostics(jl_world *w)
{
    jl_arena_pop_to(&w->diag_arena, 0);
    w->diagnostic_count = 0;
    w->diagnostic_total = 0;
    jli_warnings_clear(w);
}

const jl_world_stats *jl_world_get_stats(const jl_world *w) { return &w->stats; }

/* ---- classes ---- */

const jl_class_registry *jl_world_classes(const jl_world *w) { return &w->classes; }

uint32_t jl_world_class_count(const jl_world *w) { return jl_registry_count(&w->classes); }

const jl_class *jl_world_class_at(const jl_world *w, uint32_t kind) { return jl_registry_at(&w->classes, kind); }

const jl_class *jl_world_class_find(const jl_world *w, const char *name, size_t name_size)
{
    return jl_registry_find(&w->classes, name, name_size);
}

const char *jli_world_store_string(jl_world *w, const char *s)
{
    size_t n = strlen(s);
    char *copy = jl_arena_push(&w->storage.arena, n + 1, 1); /* never given back */
    if (copy) memcpy(copy, s, n + 1);
    return copy;
}

/* ---- entities through the API ---- */

jl_status jl_world_create(jl_world *w, const char *class_name, float x, float y, float z, jl_entity **out)
{
    const jl_class *cls = class_name ? jl_registry_find(&w->classes, class_name, strlen(class_name)) : NULL;
    return jl_world_create_of(w, cls, x, y, z, out);
}

jl_status jl_world_create_of(jl_world *w, const jl_class *cls, float x, float y, float z, jl_entity **out)
{
    if (out) *out = NULL;
    if (!cls || jl_class_is_opaque(cls)) return JL_ERR_UNKNOWN_CLASS; /* its fields are unknown */
    jl_entity *e;
    jl_status s = jl_entity_allocate(&w->manager, cls, &e);
    if (s != JL_OK) return s;
    s = jl_entity_set_id(&w->manager, e, jl_manager_mint_id(&w->manager));
    if (s != JL_OK) {
        jli_entity_rollback_allocation(&w->manager, e);
        return s;
    }
    /* A record left in the slot by an entity destroyed through the manager
     * is given back now. */
    uint32_t slot = (uint32_t)(e - w->manager.entities);
    if (slot < w->records_ready) jli_record_release(w, &w->records[slot]);
    jl_entity_set_position(e, x, y, z);
    if (out) *out = e;
    return JL_OK;
}

jl_status jl_world_remove(jl_world *w, uint64_t id)
{
    jl_entity *e = jl_entity_find(&w->manager, id);
    if (!e) return JL_ERR_NOT_FOUND;
    if (e->flags & JL_ENTITY_READ_ONLY) return JL_ERR_READ_ONLY;
    /* Its file's print outlives it while the file is pending deletion: the
     * same text coming back (undo) is then clean and the file stays. With
     * the map full it is only not remembered: coming back, it is dirty. */
    jli_entity_record *r = jli_record_for(w, e);
    jli_files_before_change(w, e, r);
    uint64_t print = r ? jli_files_print(w, r) : 0;
    bool kept = jli_id_map_put(&w->removed, id, print) == JL_OK;
    jl_status s = jl_entity_destroy(&w->manager, e);
    if (s != JL_OK) {
        if (kept) jli_id_map_remove(&w->removed, id);
        return s;
    }
    /* The deletion waits for the save, which checks the file is still the
     * one seen. */
    if (r) jli_seen_keep_removed(w, id, r);
    /* Its unknown keys and reference sites go with it. */
    if (r) jli_record_release(w, r);
    return JL_OK;
}

jl_entity *jl_world_find(const jl_world *w, uint64_t id) { return jl_entity_find(&w->manager, id); }

uint32_t jl_world_count(const jl_world *w) { return w->manager.count; }

uint64_t jl_world_mint_id(jl_world *w) { return jl_manager_mint_id(&w->manager); }

jl_entity_manager *jl_world_manager(jl_world *w) { return &w->manager; }

bool jl_world_is_read_only(const jl_world *w, uint64_t id)
{
    const jl_entity *e = jl_entity_find(&w->manager, id);
    return e && (e->flags & JL_ENTITY_READ_ONLY);
}

void jl_world_mark_all_dirty(jl_world *w)
{
    jl_entity_manager *m = &w->manager;
    for (jl_entity *e = jl_entities_first(m); e; e = jl_entities_next(m, e)) e->is_dirty = true;
    w->settings_dirty = true;
    jli_files_forget(w); /* rewritten whatever they become */
}

/* ---- the settings' state ---- */

uint32_t jl_world_settings_state(const jl_world *w)
{
    return (w->settings_dirty ? JL_SETTINGS_DIRTY : 0u) | (w->settings_read_only ? JL_SETTINGS_READ_ONLY : 0u) |
           (w->settings_failed ? JL_SETTINGS_FAILED : 0u);
}

void jl_world_settings_touch(jl_world *w)
{
    w->settings_dirty = true;
    w->settings_record.file = JLI_FILE_UNKNOWN; /* rewritten whatever they become */
}
