/* world.c - a world's entities and settings, loaded from and saved to a
 * directory of .jasset files (world.h; spec 4.2-4.4, 6; removal brainstorm
 * 2.4-2.5).
 *
 * Every file goes through the world's jl_fs table, so tests can count and
 * fault each operation. Per-file work uses the scratch arena between a mark
 * and a pop, so loading 10k files needs the memory of the largest one. */
#include "juliet/world.h"

#include <errno.h>
#include <string.h>

#include "entity_manager_internal.h"
#include "juliet/archive.h"
#include "juliet/float_text.h"
#include "juliet/platform.h"
#include "juliet/world_lock.h"

/* ---- the settings class ---- */

static const jl_field settings_fields[] = {
    JL_FIELD(jl_world_settings, gravity, JL_FIELD_VEC3, 0),
    JL_FIELD(jl_world_settings, ambient_color, JL_FIELD_COLOR, 0),
    JL_FIELD(jl_world_settings, ambient_intensity, JL_FIELD_F32, 0),
    JL_FIELD(jl_world_settings, time_of_day, JL_FIELD_F32, 0),
    JL_FIELD(jl_world_settings, spawn_point, JL_FIELD_ENTITY_REF, 0),
};

static void settings_default_init(void *p)
{
    *(jl_world_settings *)p = (jl_world_settings){
        .gravity = {0.0f, -9.81f, 0.0f},
        .ambient_color = {0x40, 0x40, 0x40},
        .ambient_intensity = 0.25f,
        .time_of_day = 12.0f,
        .spawn_point = 0,
    };
}

const jl_class jl_world_settings_class = {
    .name = "WorldSettings",
    .kind = 0xff, /* not an entity kind */
    .version = JL_WORLD_SETTINGS_VERSION,
    .crc = 0,
    .size_of = (uint32_t)sizeof(jl_world_settings),
    .alignment = (uint32_t)_Alignof(jl_world_settings),
    .serialize = jl_serialize_fields,
    .default_init = settings_default_init,
    .migrate = NULL,
    .fields = settings_fields,
    .field_count = (uint32_t)(sizeof settings_fields / sizeof settings_fields[0]),
};

/* ---- arena sizes ---- */

#ifdef __EMSCRIPTEN__
/* No virtual memory in wasm: a reservation is real memory at once. */
enum { MB = 1024 * 1024 };
static const size_t SCRATCH_BYTES = 32 * MB, STORAGE_BYTES = 16 * MB, DIAG_BYTES = 4 * MB,
                    GUARD_BYTES = 1 * MB, REF_BYTES = 4 * MB, REPORT_BYTES = 8 * MB;
#else
#define MB ((size_t)1024 * 1024)
static const size_t SCRATCH_BYTES = 1024 * MB, STORAGE_BYTES = 1024 * MB,
                    DIAG_BYTES = JL_WORLD_MAX_DIAGNOSTICS * sizeof(jl_error) + MB,
                    GUARD_BYTES = 256 * MB, REF_BYTES = 512 * MB, REPORT_BYTES = 1024 * MB;
#endif

/* ---- helpers ---- */

static uint32_t format_u64(uint64_t v, char *out)
{
    char buf[20];
    uint32_t n = 0;
    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (uint32_t i = 0; i < n; i++) out[i] = buf[n - 1 - i];
    return n;
}

/* The decimal ID a file name stands for ("123.jasset" -> 123), or 0 if the
 * name is not a canonical decimal ID. */
static uint64_t id_of_file_name(const char *name)
{
    size_t n = strlen(name), s = sizeof ".jasset" - 1;
    if (n <= s || memcmp(name + n - s, ".jasset", s) != 0) return 0;
    n -= s;
    if (n > 20 || name[0] == '0') return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (name[i] < '0' || name[i] > '9') return 0;
        uint64_t d = (uint64_t)(name[i] - '0');
        if (v > (UINT64_MAX - d) / 10) return 0;
        v = v * 10 + d;
    }
    return v;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

bool jl_world_entity_path(char *out, size_t out_size, const char *dir, uint64_t id)
{
    char name[40];
    uint32_t n = format_u64(id, name);
    memcpy(name + n, ".jasset", sizeof ".jasset");
    char sub[JL_ERROR_PATH_MAX];
    if (!jl_fs_join(sub, sizeof sub, dir, "Entities")) return false;
    return jl_fs_join(out, out_size, sub, name);
}

static const char *store_string(jl_world *w, const char *s)
{
    size_t n = strlen(s);
    char *copy = jl_arena_push(&w->storage, n + 1, 1);
    if (copy) memcpy(copy, s, n + 1);
    return copy;
}

static void add_diagnostic(jl_world *w, const jl_error *e)
{
    w->diagnostic_total++;
    if (w->diagnostic_count >= JL_WORLD_MAX_DIAGNOSTICS) return;
    jl_error *slot = jl_arena_push(&w->diag_arena, sizeof *slot, _Alignof(jl_error));
    if (!slot) return;
    *slot = *e;
    w->diagnostic_count++;
}

static jl_world_extra *extra_of_slot(jl_world *w, uint32_t slot)
{
    if (slot >= w->extras_ready) {
        /* Fresh committed memory is zero (mmap natively, calloc in wasm). */
        if (jl_arena_commit_to(&w->extras_arena, ((size_t)slot + 1) * sizeof(jl_world_extra)) != JL_OK)
            return NULL;
        w->extras_ready = (uint32_t)(w->extras_arena.committed / sizeof(jl_world_extra));
    }
    return &w->extras[slot];
}

static const jl_world_extra *find_extra(const jl_world *w, const jl_entity *e)
{
    uint32_t slot = (uint32_t)(e - w->manager.entities);
    if (slot >= w->extras_ready || w->extras[slot].id != e->id) return NULL;
    return &w->extras[slot];
}

/* ---- guarded IDs: files save must never touch ---- */

static uint32_t guard_hash(uint64_t id) { return (uint32_t)((id * 0x9e3779b97f4a7c15ull) >> 32); }

static bool is_guarded(const jl_world *w, uint64_t id)
{
    if (!w->guard_count || id == 0) return false;
    for (uint32_t i = guard_hash(id) & w->guard_mask;; i = (i + 1) & w->guard_mask) {
        if (w->guarded_ids[i] == id) return true;
        if (w->guarded_ids[i] == 0) return false;
    }
}

static void guard_insert_raw(uint64_t *table, uint32_t mask, uint64_t id)
{
    uint32_t i = guard_hash(id) & mask;
    while (table[i] && table[i] != id) i = (i + 1) & mask;
    table[i] = id;
}

static void guard_id(jl_world *w, uint64_t id)
{
    if (id == 0 || is_guarded(w, id)) return;
    if (!w->guarded_ids || (w->guard_count + 1) * 2 > w->guard_mask + 1) {
        /* Grow into a fresh table at the top of the arena; the old one is
         * abandoned (geometric growth keeps the waste below half). */
        uint32_t buckets = w->guarded_ids ? (w->guard_mask + 1) * 2 : 64;
        uint64_t *table = jl_arena_push(&w->guard_arena, buckets * sizeof(uint64_t), _Alignof(uint64_t));
        if (!table) return;
        memset(table, 0, buckets * sizeof(uint64_t));
        if (w->guarded_ids)
            for (uint32_t i = 0; i <= w->guard_mask; i++)
                if (w->guarded_ids[i]) guard_insert_raw(table, buckets - 1, w->guarded_ids[i]);
        w->guarded_ids = table;
        w->guard_mask = buckets - 1;
    }
    guard_insert_raw(w->guarded_ids, w->guard_mask, id);
    w->guard_count++;
}

/* ---- init / shutdown ---- */

jl_status jl_world_init(jl_world *w, const jl_world_desc *desc)
{
    jl_world_desc d = desc ? *desc : (jl_world_desc){0};
    *w = (jl_world){0};
    jl_manager_desc md = {.capacity = d.capacity, .id_tag = d.id_tag};
    jl_status s = jl_manager_init(&w->manager, &md);
    if (s != JL_OK) {
        *w = (jl_world){0};
        return s;
    }
    size_t extras_bytes = (size_t)w->manager.capacity * sizeof(jl_world_extra);
    struct {
        jl_arena *arena;
        size_t bytes;
    } arenas[] = {
        {&w->scratch, SCRATCH_BYTES},   {&w->storage, STORAGE_BYTES}, {&w->extras_arena, extras_bytes},
        {&w->diag_arena, DIAG_BYTES},   {&w->guard_arena, GUARD_BYTES}, {&w->ref_arena, REF_BYTES},
        {&w->report_arena, REPORT_BYTES},
    };
    for (size_t i = 0; i < sizeof arenas / sizeof arenas[0]; i++) {
        if ((s = jl_arena_init(arenas[i].arena, arenas[i].bytes)) != JL_OK) {
            w->initialized = true;
            jl_world_shutdown(w);
            return s;
        }
    }
    w->extras = (jl_world_extra *)w->extras_arena.base;
    w->diagnostics = (jl_error *)w->diag_arena.base;
    w->refs = (jl_world_ref *)w->ref_arena.base;
    w->fs = d.fs ? d.fs : jl_fs_native();
    w->keep_temp_files = d.keep_temp_files;
    w->lock_wait_ms = d.lock_wait_ms ? d.lock_wait_ms : 2000;
    settings_default_init(&w->settings);
    w->initialized = true;
    return JL_OK;
}

void jl_world_shutdown(jl_world *w)
{
    if (!w->initialized) return;
    jl_manager_shutdown(&w->manager);
    jl_arena_release(&w->scratch);
    jl_arena_release(&w->storage);
    jl_arena_release(&w->extras_arena);
    jl_arena_release(&w->diag_arena);
    jl_arena_release(&w->guard_arena);
    jl_arena_release(&w->ref_arena);
    jl_arena_release(&w->report_arena);
    *w = (jl_world){0};
}

/* ---- diagnostics ---- */

uint32_t jl_world_diagnostic_count(const jl_world *w) { return w->diagnostic_count; }

const jl_error *jl_world_diagnostic(const jl_world *w, uint32_t index)
{
    return index < w->diagnostic_count ? &w->diagnostics[index] : NULL;
}

void jl_world_clear_diagnostics(jl_world *w)
{
    jl_arena_pop_to(&w->diag_arena, 0);
    w->diagnostic_count = 0;
    w->diagnostic_total = 0;
}

const jl_world_stats *jl_world_get_stats(const jl_world *w) { return &w->stats; }

/* ---- loading ---- */

/* Remembers where the loaded file refers to other entities, for
 * jl_world_check_references. */
static void record_refs(jl_world *w, jl_archive *ar, const jl_class *cls, const char *path,
                        const void *data)
{
    const char *stored = NULL;
    for (uint32_t i = 0; i < cls->field_count; i++) {
        const jl_field *f = &cls->fields[i];
        if (f->type != JL_FIELD_ENTITY_REF) continue;
        uint64_t target;
        memcpy(&target, (const char *)data + f->offset, sizeof target);
        if (target == 0) continue;
        jl_archive_entry *e = jl_archive_find(ar, f->name);
        if (!stored) stored = path ? store_string(w, path) : "";
        jl_world_ref *ref = jl_arena_push(&w->ref_arena, sizeof *ref, _Alignof(jl_world_ref));
        if (!ref || !stored) return;
        *ref = (jl_world_ref){target, stored, e ? e->value_line : 0, e ? e->value_col : 0};
        w->ref_count++;
    }
}

/* The directory part of a path ".../Entities/N.jasset", kept in storage
 * (one copy per directory load: the caller passes it). */
static jl_status load_entity(jl_world *w, const char *path, const char *dir, const char *text,
                             size_t size, bool mark_dirty, jl_entity **out, jl_error *err)
{
    jl_error local;
    jl_error *e = err ? err : &local;
    const size_t mark = w->scratch.used;
    jl_archive ar;
    jl_entity *entity = NULL;
    jl_status s = jl_archive_tokenize(&ar, &w->scratch, text, size, path, e);
    if (s == JL_OK) s = jl_entity_deserialize_in_place(&w->manager, &ar, &entity);
    if (s == JL_ERR_DUPLICATE_ID) {
        /* Name both files (or say the other one is new in this session). */
        jl_archive_entry *ide = jl_archive_find(&ar, "id");
        uint64_t id = 0;
        jl_value_parse(JL_FIELD_ENTITY_REF, 0, ide->value, ide->value_size, &id, NULL, NULL);
        const jl_entity *other = jl_entity_find(&w->manager, id);
        const jl_world_extra *x = other ? find_extra(w, other) : NULL;
        char other_path[JL_ERROR_PATH_MAX] = "an entity created in this session";
        if (x && x->dir) jl_world_entity_path(other_path, sizeof other_path, x->dir, id);
        jl_error_set(e, JL_ERR_DUPLICATE_ID, path, ide->value_line, ide->value_col,
                     "duplicate entity ID 0x%016llx: already loaded from %s", (unsigned long long)id,
                     other_path);
    }
    if (s == JL_OK && dir && path) {
        /* spec 5.5: in a world directory, the file name is the decimal ID. */
        char expected[32];
        uint32_t n = format_u64(entity->id, expected);
        memcpy(expected + n, ".jasset", sizeof ".jasset");
        if (strcmp(base_name(path), expected) != 0) {
            jl_archive_entry *ide = jl_archive_find(&ar, "id");
            s = jl_error_set(e, JL_ERR_PARSE, path, ide->value_line, ide->value_col,
                             "file name does not match its id 0x%016llx (expected %s)",
                             (unsigned long long)entity->id, expected);
            jli_entity_rollback_allocation(&w->manager, entity);
            entity = NULL;
        }
    }
    if (s == JL_OK) {
        const char *unknown = NULL;
        size_t unknown_size = 0;
        jl_archive_collect_unknown(&ar, &w->storage, &unknown, &unknown_size);
        uint32_t slot = (uint32_t)(entity - w->manager.entities);
        jl_world_extra *x = extra_of_slot(w, slot);
        if (x) *x = (jl_world_extra){.id = entity->id, .text = unknown, .dir = dir, .size = (uint32_t)unknown_size};
        /* A newer file is never rewritten or deleted, even if the entity is
         * destroyed behind the world's back. */
        if (entity->flags & JL_ENTITY_READ_ONLY) guard_id(w, entity->id);
        record_refs(w, &ar, entity->derived_kind, path, entity->derived);
        w->stats.entities[entity->derived_kind->kind]++;
        w->stats.bytes[entity->derived_kind->kind] += size;
        if (mark_dirty) entity->is_dirty = true;
    } else {
        add_diagnostic(w, e);
    }
    jl_arena_pop_to(&w->scratch, mark);
    if (out) *out = s == JL_OK ? entity : NULL;
    return s;
}

jl_status jl_world_load_entity_text(jl_world *w, const char *path, const char *text, size_t size,
                                    bool mark_dirty, jl_entity **out, jl_error *err)
{
    return load_entity(w, path, NULL, text, size, mark_dirty, out, err);
}

jl_status jl_world_load_settings_text(jl_world *w, const char *path, const char *text, size_t size,
                                      jl_error *err)
{
    jl_error local;
    jl_error *e = err ? err : &local;
    /* Settings from a newer file, or from one that failed to load, stay as
     * they are: replaced, they would be written over that file. */
    if (w->settings_read_only || w->settings_failed)
        return jl_error_set(e, JL_ERR_READ_ONLY, path, 0, 0,
                            "the world settings are read-only (newer or unreadable file)");
    const size_t mark = w->scratch.used;
    jl_archive ar;
    jl_world_settings settings;
    settings_default_init(&settings);
    jl_status s = jl_archive_tokenize(&ar, &w->scratch, text, size, path, e);
    uint32_t version = 1;
    if (s == JL_OK) {
        jl_archive_entry *v = jl_archive_find(&ar, "version");
        if (v) {
            v->used = true;
            uint32_t col = 0;
            s = jl_value_parse(JL_FIELD_INDEX, 0, v->value, v->value_size, &version, &col, e);
            if (s == JL_OK && (version == 0 || version == JL_INDEX_MAX))
                s = jl_error_set(e, JL_ERR_PARSE, NULL, 0, 1, "version must be a number from 1");
            if (s != JL_OK) {
                jl_error copy = *e;
                s = jl_error_set(e, JL_ERR_PARSE, path, v->value_line, v->value_col + (col ? col - 1 : 0),
                                 "version: %s", copy.message);
            }
        }
    }
    if (s == JL_OK) s = jl_serialize_fields(&ar, &jl_world_settings_class, &settings);
    if (s == JL_OK) {
        w->settings = settings;
        w->settings_dirty = false;
        w->settings_read_only = version > JL_WORLD_SETTINGS_VERSION;
        w->settings_failed = false;
        const char *unknown = NULL;
        size_t unknown_size = 0;
        jl_archive_collect_unknown(&ar, &w->storage, &unknown, &unknown_size);
        w->settings_extra_size = (uint32_t)unknown_size;
        w->settings_extra = unknown;
        record_refs(w, &ar, &jl_world_settings_class, path, &w->settings);
        w->stats.settings_bytes = size;
    } else {
        add_diagnostic(w, e);
    }
    jl_arena_pop_to(&w->scratch, mark);
    return s;
}

static jl_status io_diagnostic(jl_world *w, const char *path, const char *op, int code)
{
    jl_error e;
    jl_fs_error(&e, path, op, code);
    add_diagnostic(w, &e);
    return e.status;
}

/* A diagnostic for a directory entry that is not a regular file: never
 * opened, since reading a FIFO or a device may block forever. */
static jl_status special_file_diagnostic(jl_world *w, const char *path)
{
    jl_error e;
    jl_error_set(&e, JL_ERR_IO, path, 0, 0, "not a regular file (a FIFO, socket or device): skipped");
    add_diagnostic(w, &e);
    return e.status;
}

/* Reads one file of the world, unless the listing says it is special.
 * JL_OK; JL_ERR_NOT_FOUND if there is no such file (no diagnostic: the
 * caller decides); else the status of the diagnostic added. */
static jl_status read_world_file(jl_world *w, const char *path, jl_fs_kind kind, char **text, size_t *size)
{
    if (kind == JL_FS_SPECIAL) return special_file_diagnostic(w, path);
    int code = w->fs->read_file(w->fs, path, JL_ARCHIVE_FILE_MAX, &w->scratch, text, size);
    if (code == 0) return JL_OK;
    if (code == ENOENT) return JL_ERR_NOT_FOUND;
    if (code == EFBIG) {
        jl_error e;
        jl_error_set(&e, JL_ERR_PARSE, path, 0, 0, "file too large: a .jasset file holds at most %u bytes",
                     (unsigned)JL_ARCHIVE_FILE_MAX);
        add_diagnostic(w, &e);
        return e.status;
    }
    return io_diagnostic(w, path, "read_file", code);
}

/* Deletes a leftover temporary, but only while holding the world's lock:
 * otherwise it may be the file a running save is writing. The lock is
 * taken once per load, without waiting, when the first one is found. */
static void remove_temp(jl_world *w, const char *dir, const char *path, jl_world_lock *lock, bool *tried)
{
    if (w->keep_temp_files) return;
    if (!*tried) {
        *tried = true;
        jl_world_lock_acquire(lock, w->fs, dir, 0, &w->scratch, NULL);
    }
    if (lock->held) w->fs->remove(w->fs, path);
}

jl_status jl_world_load(jl_world *w, const char *dir)
{
    const uint32_t stored_before = w->diagnostic_count, total_before = w->diagnostic_total;
    const jl_fs *fs = w->fs;
    const size_t mark = w->scratch.used;
    char entities_dir[JL_ERROR_PATH_MAX], path[JL_ERROR_PATH_MAX];
    jl_status result = JL_OK;
    jl_world_lock lock = {0};
    bool lock_tried = false;

    /* The root: its existence, WorldSettings.jasset, a leftover temporary. */
    jl_fs_entry *entries = NULL;
    uint32_t count = 0;
    int code = fs->list_dir(fs, dir, &w->scratch, &entries, &count);
    if (code) {
        jl_status s = io_diagnostic(w, dir, "list_dir", code);
        jl_arena_pop_to(&w->scratch, mark);
        return s;
    }
    jl_fs_kind settings_kind = JL_FS_FILE;
    for (uint32_t i = 0; i < count; i++) {
        if (strcmp(entries[i].name, "WorldSettings.jasset") == 0) settings_kind = entries[i].kind;
        else if (jl_fs_is_temp_name(entries[i].name) && jl_fs_join(path, sizeof path, dir, entries[i].name))
            remove_temp(w, dir, path, &lock, &lock_tried);
    }
    jl_arena_pop_to(&w->scratch, mark);

    const char *stored_dir = store_string(w, dir);
    if (jl_fs_join(path, sizeof path, dir, "WorldSettings.jasset")) {
        char *text;
        size_t size;
        jl_status s = read_world_file(w, path, settings_kind, &text, &size);
        if (s == JL_OK) {
            if (jl_world_load_settings_text(w, path, text, size, NULL) != JL_OK) w->settings_failed = true;
        } else if (s != JL_ERR_NOT_FOUND /* no settings file: defaults */) {
            w->settings_failed = true;
        }
        jl_arena_pop_to(&w->scratch, mark);
    }

    if (!jl_fs_join(entities_dir, sizeof entities_dir, dir, "Entities")) {
        jl_error e;
        jl_error_set(&e, JL_ERR_IO, dir, 0, 0, "path too long");
        add_diagnostic(w, &e);
        jl_world_lock_release(&lock, fs);
        return JL_ERR_IO;
    }
    code = fs->list_dir(fs, entities_dir, &w->scratch, &entries, &count);
    if (code == ENOENT) count = 0; /* a world with no entities yet */
    else if (code) {
        io_diagnostic(w, entities_dir, "list_dir", code);
        count = 0;
    }
    for (uint32_t i = 0; i < count; i++) {
        const char *name = entries[i].name;
        if (!jl_fs_join(path, sizeof path, entities_dir, name)) {
            jl_error e;
            jl_error_set(&e, JL_ERR_IO, entities_dir, 0, 0, "file name too long: %.80s", name);
            add_diagnostic(w, &e);
            continue;
        }
        if (jl_fs_is_temp_name(name)) {
            /* An interrupted save's temporary: never data the world relies on. */
            remove_temp(w, dir, path, &lock, &lock_tried);
            continue;
        }
        if (!ends_with(name, ".jasset")) continue; /* README, .gitkeep, editor backups */
        const size_t file_mark = w->scratch.used;
        char *text;
        size_t size;
        jl_status s = read_world_file(w, path, entries[i].kind, &text, &size);
        if (s == JL_ERR_NOT_FOUND) s = io_diagnostic(w, path, "read_file", ENOENT); /* gone since the listing */
        else if (s == JL_OK) s = load_entity(w, path, stored_dir, text, size, false, NULL, NULL);
        if (s != JL_OK) {
            /* Never rewrite or delete a file that did not load, unless it is
             * the very file the live entity came from (the same directory
             * loaded twice). */
            uint64_t name_id = id_of_file_name(name);
            const jl_entity *live = s == JL_ERR_DUPLICATE_ID ? jl_entity_find(&w->manager, name_id) : NULL;
            const jl_world_extra *x = live ? find_extra(w, live) : NULL;
            if (!(x && x->dir && strcmp(x->dir, dir) == 0)) guard_id(w, name_id);
            w->stats.files_failed++;
        }
        jl_arena_pop_to(&w->scratch, file_mark);
    }
    jl_world_lock_release(&lock, fs);
    jl_arena_pop_to(&w->scratch, mark);
    if (w->diagnostic_total != total_before)
        result = stored_before < w->diagnostic_count ? w->diagnostics[stored_before].status : JL_ERR_PARSE;
    return result;
}

/* ---- saving ---- */

/* Report records: a kind byte ('w' written, 'd' deleted) and a
 * NUL-terminated path, packed in the report arena until the save ends. */
static void report_path(jl_world *w, char kind, const char *path)
{
    size_t n = strlen(path);
    char *c = jl_arena_push(&w->report_arena, n + 2, 1);
    if (!c) return;
    c[0] = kind;
    memcpy(c + 1, path, n + 1);
}

static void report_failure(jl_save_report *r, const jl_error *e)
{
    if (r->error.status == JL_OK) r->error = *e;
    r->failed_count++;
}

/* Records a failed file-system operation (errno value code) in the report
 * and returns its status. */
static jl_status report_io(jl_save_report *r, const char *path, const char *op, int code)
{
    jl_error e;
    jl_status s = jl_fs_error(&e, path, op, code);
    report_failure(r, &e);
    return s;
}

static void finish_report(jl_world *w, jl_save_report *r, size_t records_end)
{
    const char *c = (const char *)w->report_arena.base, *end = c + records_end;
    uint32_t written = 0, deleted = 0;
    for (const char *p = c; p < end; p += strlen(p + 1) + 2) {
        if (p[0] == 'w') written++;
        else deleted++;
    }
    const char **wl = jl_arena_push(&w->report_arena, (written + deleted + 1) * sizeof(char *), _Alignof(char *));
    if (!wl) return;
    const char **dl = wl + written;
    for (const char *p = c; p < end; p += strlen(p + 1) + 2) {
        if (p[0] == 'w') wl[r->written_count++] = p + 1;
        else dl[r->deleted_count++] = p + 1;
    }
    r->written = wl;
    r->deleted = dl;
}

static jl_status process_deletions(jl_world *w, const char *dir, jl_save_report *r, bool *touched)
{
    jl_entity_manager *m = &w->manager;
    const jl_fs *fs = w->fs;
    char path[JL_ERROR_PATH_MAX];
    jl_status result = JL_OK;
    uint32_t keep = 0;
    for (uint32_t i = 0; i < m->pending_count; i++) {
        uint64_t id = m->pending_deletions[i];
        /* Alive again (undo), or a file that failed to load: not ours to delete. */
        if (jl_entity_find(m, id) || is_guarded(w, id)) continue;
        if (!jl_world_entity_path(path, sizeof path, dir, id)) continue;
        int code = fs->remove(fs, path);
        if (code == 0) {
            report_path(w, 'd', path);
            *touched = true;
        } else if (code != ENOENT /* created and removed before any save */) {
            jl_status s = report_io(r, path, "remove", code);
            if (result == JL_OK) result = s;
            m->pending_deletions[keep++] = id; /* try again next save */
        }
    }
    m->pending_count = keep;
    return result;
}

/* Whether a save has anything to write or delete (then it takes the lock). */
static bool has_work(jl_world *w, bool deletions_only)
{
    jl_entity_manager *m = &w->manager;
    if (m->pending_count) return true;
    if (deletions_only) return false;
    if (w->settings_dirty && !w->settings_read_only && !w->settings_failed) return true;
    for (jl_entity *e = jl_entities_first(m); e; e = jl_entities_next(m, e))
        if (e->is_dirty && !(e->flags & JL_ENTITY_READ_ONLY)) return true;
    return false;
}

/* Takes dir's lock for a save (creating dir, which the lock file goes in),
 * or records why not in the report. */
static jl_status lock_for_save(jl_world *w, const char *dir, jl_world_lock *lock, jl_save_report *r)
{
    jl_error err = {0};
    jl_status s = jl_fs_ensure_dir(w->fs, dir, &err);
    if (s == JL_OK) s = jl_world_lock_acquire(lock, w->fs, dir, w->lock_wait_ms, &w->scratch, &err);
    if (s != JL_OK) report_failure(r, &err);
    return s;
}

jl_status jl_world_process_pending_deletions(jl_world *w, const char *dir, jl_save_report *report)
{
    jl_save_report local;
    jl_save_report *r = report ? report : &local;
    *r = (jl_save_report){0};
    jl_arena_pop_to(&w->report_arena, 0);
    jl_world_lock lock = {0};
    if (has_work(w, true) && lock_for_save(w, dir, &lock, r) != JL_OK) {
        finish_report(w, r, w->report_arena.used);
        return r->error.status;
    }
    bool touched = false;
    jl_status s = process_deletions(w, dir, r, &touched);
    if (touched) {
        char entities_dir[JL_ERROR_PATH_MAX];
        if (jl_fs_join(entities_dir, sizeof entities_dir, dir, "Entities")) {
            int code = w->fs->sync_dir(w->fs, entities_dir);
            if (code) {
                jl_status es = report_io(r, entities_dir, "sync_dir", code);
                if (s == JL_OK) s = es;
            }
        }
    }
    jl_world_lock_release(&lock, w->fs);
    finish_report(w, r, w->report_arena.used);
    return s;
}

static jl_status write_one(jl_world *w, const char *path, jl_status (*produce)(jl_world *, const void *, jl_archive *),
                           const void *what, jl_error *e)
{
    const size_t mark = w->scratch.used;
    jl_archive ar;
    jl_archive_begin_write(&ar, &w->scratch);
    ar.err = e;
    ar.path = path;
    const char *text;
    size_t size;
    jl_status s = produce(w, what, &ar);
    jl_status s2 = jl_archive_end_write(&ar, &text, &size);
    if (s == JL_OK) s = s2;
    if (s == JL_OK) s = jl_fs_write_atomic(w->fs, path, text, size, e);
    else if (e->status == JL_OK || e->message[0] == '\0')
        jl_error_set(e, s, path, 0, 0, "cannot format file: %s", jl_status_name(s));
    jl_arena_pop_to(&w->scratch, mark);
    return s;
}

static jl_status produce_entity(jl_world *w, const void *what, jl_archive *ar)
{
    const jl_entity *entity = what;
    const jl_world_extra *x = find_extra(w, entity);
    return jl_archive_write_entity(ar, entity, x ? x->text : NULL, x ? x->size : 0);
}

static jl_status produce_settings(jl_world *w, const void *what, jl_archive *ar)
{
    (void)what;
    jl_archive_write_key(ar, "version");
    char v[12];
    uint32_t version = JL_WORLD_SETTINGS_VERSION;
    uint32_t n = jl_value_format(JL_FIELD_INDEX, &version, v);
    v[n++] = '\n';
    jl_archive_write_raw(ar, v, n);
    jl_status s = jl_serialize_fields(ar, &jl_world_settings_class, &w->settings);
    if (s == JL_OK && w->settings_extra_size) jl_archive_write_raw(ar, w->settings_extra, w->settings_extra_size);
    return ar->out_failed ? JL_ERR_OUT_OF_MEMORY : s;
}

/* After a failed directory sync the renames may not be durable: the
 * entities written in this save become dirty again. */
static void redirty_written(jl_world *w, size_t records_end)
{
    const char *c = (const char *)w->report_arena.base, *end = c + records_end;
    for (const char *p = c; p < end; p += strlen(p + 1) + 2) {
        if (p[0] != 'w') continue;
        const char *name = base_name(p + 1);
        if (strcmp(name, "WorldSettings.jasset") == 0) {
            w->settings_dirty = true;
            continue;
        }
        jl_entity *e = jl_entity_find(&w->manager, id_of_file_name(name));
        if (e) e->is_dirty = true;
    }
}

jl_status jl_world_save(jl_world *w, const char *dir, jl_save_report *report)
{
    jl_save_report local;
    jl_save_report *r = report ? report : &local;
    *r = (jl_save_report){0};
    jl_arena_pop_to(&w->report_arena, 0);
    jl_status result = JL_OK;
    char entities_dir[JL_ERROR_PATH_MAX], path[JL_ERROR_PATH_MAX];
    if (!jl_fs_join(entities_dir, sizeof entities_dir, dir, "Entities")) {
        jl_error_set(&r->error, JL_ERR_IO, dir, 0, 0, "path too long");
        r->failed_count = 1;
        return JL_ERR_IO;
    }

    /* One writer at a time, and only if there is anything to write. */
    jl_world_lock lock = {0};
    if (has_work(w, false) && lock_for_save(w, dir, &lock, r) != JL_OK) {
        finish_report(w, r, w->report_arena.used);
        return r->error.status;
    }

    /* 1. Files of removed entities (brainstorm 2.5), before any write. */
    bool entities_touched = false, root_touched = false;
    jl_status s = process_deletions(w, dir, r, &entities_touched);
    if (s != JL_OK) result = s;

    /* 2. Dirty entities, each replaced atomically. */
    bool dirs_ready = false;
    jl_entity_manager *m = &w->manager;
    for (jl_entity *e = jl_entities_first(m); e; e = jl_entities_next(m, e)) {
        if (!e->is_dirty || (e->flags & JL_ENTITY_READ_ONLY)) continue;
        jl_error err = {0};
        if (!dirs_ready) {
            s = jl_fs_ensure_dir(w->fs, dir, &err);
            if (s == JL_OK) s = jl_fs_ensure_dir(w->fs, entities_dir, &err);
            if (s != JL_OK) {
                report_failure(r, &err);
                if (result == JL_OK) result = s;
                break; /* nothing can be written; everything stays dirty */
            }
            dirs_ready = true;
        }
        if (!jl_world_entity_path(path, sizeof path, dir, e->id)) {
            s = jl_error_set(&err, JL_ERR_IO, entities_dir, 0, 0, "path too long");
        } else if (is_guarded(w, e->id)) {
            s = jl_error_set(&err, JL_ERR_IO, path, 0, 0,
                             "not overwritten: this file failed to load or is from a newer version");
        } else {
            s = write_one(w, path, produce_entity, e, &err);
        }
        if (s == JL_OK) {
            e->is_dirty = false;
            report_path(w, 'w', path);
            entities_touched = true;
        } else {
            report_failure(r, &err);
            if (result == JL_OK) result = s;
        }
    }

    /* 3. The settings. */
    if (w->settings_dirty && !w->settings_read_only && !w->settings_failed) {
        jl_error err = {0};
        s = jl_fs_ensure_dir(w->fs, dir, &err);
        if (s == JL_OK && jl_fs_join(path, sizeof path, dir, "WorldSettings.jasset"))
            s = write_one(w, path, produce_settings, NULL, &err);
        if (s == JL_OK) {
            w->settings_dirty = false;
            report_path(w, 'w', path);
            root_touched = true;
        } else {
            report_failure(r, &err);
            if (result == JL_OK) result = s;
        }
    }

    /* 4. Make the renames and deletions durable, once per directory. */
    const size_t records_end = w->report_arena.used;
    const char *synced[2] = {entities_touched ? entities_dir : NULL, root_touched ? dir : NULL};
    for (int i = 0; i < 2; i++) {
        if (!synced[i]) continue;
        int code = w->fs->sync_dir(w->fs, synced[i]);
        if (code) {
            s = report_io(r, synced[i], "sync_dir", code);
            if (result == JL_OK) result = s;
            redirty_written(w, records_end);
        }
    }
    jl_world_lock_release(&lock, w->fs);
    finish_report(w, r, records_end);
    return result;
}

/* Splits a directory path into its parent and its last name
 * ("a/b/" -> "a" and "b", "b" -> "." and "b"). false if there is no name. */
static bool split_dir(const char *dir, char *parent, size_t parent_size, char *name, size_t name_size)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;
    size_t start = n;
    while (start > 0 && dir[start - 1] != '/') start--;
    size_t name_len = n - start;
    if (name_len == 0 || name_len >= name_size || start >= parent_size) return false;
    if ((name_len == 1 && dir[start] == '.') || (name_len == 2 && memcmp(dir + start, "..", 2) == 0)) return false;
    memcpy(name, dir + start, name_len);
    name[name_len] = '\0';
    if (start == 0) {
        memcpy(parent, ".", 2);
    } else {
        size_t p = start > 1 ? start - 1 : 1; /* keep "/" of a top-level dir */
        memcpy(parent, dir, p);
        parent[p] = '\0';
    }
    return true;
}

/* Rewrites the report's paths from under `from` to under `to`. */
static void remap_report(jl_world *w, jl_save_report *r, const char *from, const char *to)
{
    size_t from_len = strlen(from), to_len = strlen(to);
    const char **lists[2] = {r->written, r->deleted};
    uint32_t counts[2] = {r->written_count, r->deleted_count};
    for (int l = 0; l < 2; l++) {
        for (uint32_t i = 0; i < counts[l]; i++) {
            const char *p = lists[l][i];
            if (strncmp(p, from, from_len) != 0) continue;
            size_t rest = strlen(p + from_len);
            char *c = jl_arena_push(&w->report_arena, to_len + rest + 1, 1);
            if (!c) return;
            memcpy(c, to, to_len);
            memcpy(c + to_len, p + from_len, rest + 1);
            lists[l][i] = c;
        }
    }
}

static jl_status fail_new(jl_save_report *r, jl_status status, const char *dir, const char *message)
{
    jl_error e;
    jl_error_set(&e, status, dir, 0, 0, "%s", message);
    report_failure(r, &e);
    return status;
}

jl_status jl_world_check_new_dir(const jl_fs *fs, const char *dir, jl_arena *scratch, jl_error *err)
{
    const size_t mark = scratch->used;
    jl_fs_entry *entries;
    uint32_t count = 0;
    int code = fs->list_dir(fs, dir, scratch, &entries, &count);
    bool holds_world = false;
    for (uint32_t i = 0; code == 0 && i < count; i++)
        if (strcmp(entries[i].name, "WorldSettings.jasset") == 0 || strcmp(entries[i].name, "Entities") == 0)
            holds_world = true;
    jl_arena_pop_to(scratch, mark);
    if (code == ENOENT || (code == 0 && count == 0)) return JL_OK;
    if (code) return jl_fs_error(err, dir, "list_dir", code);
    return jl_error_set(err, JL_ERR_EXISTS, dir, 0, 0, "%s",
                        holds_world ? "already holds a world: a new world is never merged into another"
                                    : "is not empty: a new world goes into a new or empty directory");
}

jl_status jl_world_save_new(jl_world *w, const char *dir, jl_save_report *report)
{
    jl_save_report local;
    jl_save_report *r = report ? report : &local;
    *r = (jl_save_report){0};
    jl_arena_pop_to(&w->report_arena, 0);
    const jl_fs *fs = w->fs;

    /* Never merged into anything: another world's files would be overwritten. */
    jl_error check;
    jl_status checked = jl_world_check_new_dir(fs, dir, &w->scratch, &check);
    if (checked != JL_OK) {
        report_failure(r, &check);
        return checked;
    }

    /* Everything is written into a hidden sibling first ("." + its name),
     * then renamed into place. */
    char parent[JL_ERROR_PATH_MAX], hidden[257], base[JL_ERROR_PATH_MAX], temp[JL_ERROR_PATH_MAX];
    hidden[0] = '.';
    if (!split_dir(dir, parent, sizeof parent, hidden + 1, sizeof hidden - 1))
        return fail_new(r, JL_ERR_INVALID_ARGUMENT, dir, "not a directory name a world can be written to");
    if (!jl_fs_join(base, sizeof base, parent, hidden)) return fail_new(r, JL_ERR_IO, dir, "path too long");
    int code = EEXIST;
    for (int attempt = 0; attempt < 64 && code == EEXIST; attempt++) {
        if (!jl_fs_unique_name(temp, sizeof temp, base, ".new")) return fail_new(r, JL_ERR_IO, dir, "path too long");
        code = fs->make_dir(fs, temp);
    }
    if (code) return report_io(r, temp, "make_dir", code);
    jl_status s = jl_world_save(w, temp, r);
    if (s == JL_OK) {
        code = fs->rename(fs, temp, dir);
        if (code == ENOTEMPTY || code == EEXIST)
            s = fail_new(r, JL_ERR_EXISTS, dir, "was filled by another program while the world was written");
        else if (code)
            s = report_io(r, dir, "rename", code);
    }
    if (s != JL_OK) {
        /* dir is untouched; the world stays as it was: everything to write. */
        jl_fs_remove_tree(fs, temp, &w->scratch);
        r->written_count = r->deleted_count = 0;
        jl_world_mark_all_dirty(w);
        return s;
    }
    code = fs->sync_dir(fs, parent);
    if (code) s = report_io(r, parent, "sync_dir", code);
    remap_report(w, r, temp, dir);
    return s;
}

void jl_world_mark_all_dirty(jl_world *w)
{
    jl_entity_manager *m = &w->manager;
    for (jl_entity *e = jl_entities_first(m); e; e = jl_entities_next(m, e)) e->is_dirty = true;
    w->settings_dirty = true;
}

/* ---- entities through the API ---- */

jl_status jl_world_create(jl_world *w, const char *class_name, float x, float y, float z, jl_entity **out)
{
    if (out) *out = NULL;
    const jl_class *cls = class_name ? jl_class_find_by_name(class_name, strlen(class_name)) : NULL;
    if (!cls) return JL_ERR_UNKNOWN_CLASS;
    jl_entity *e;
    jl_status s = jl_entity_allocate(&w->manager, cls, &e);
    if (s != JL_OK) return s;
    s = jl_entity_set_id(&w->manager, e, jl_manager_mint_id(&w->manager));
    if (s != JL_OK) {
        jli_entity_rollback_allocation(&w->manager, e);
        return s;
    }
    jl_entity_set_position(e, x, y, z);
    if (out) *out = e;
    return JL_OK;
}

jl_status jl_world_remove(jl_world *w, uint64_t id)
{
    jl_entity *e = jl_entity_find(&w->manager, id);
    if (!e) return JL_ERR_NOT_FOUND;
    if (e->flags & JL_ENTITY_READ_ONLY) return JL_ERR_READ_ONLY;
    return jl_entity_destroy(&w->manager, e);
}

jl_entity *jl_world_find(const jl_world *w, uint64_t id) { return jl_entity_find(&w->manager, id); }

uint32_t jl_world_count(const jl_world *w) { return w->manager.count; }

static jl_status set_value(const jl_field *f, void *base, const char *field, const char *text, size_t size,
                           jl_error *err)
{
    uint32_t col = 0;
    jl_error local;
    jl_status s = jl_value_parse(f->type, f->flags, text, size, (char *)base + f->offset, &col, &local);
    if (s != JL_OK)
        return jl_error_set(err, s, NULL, 1, col, "%s: %s", field, local.message);
    return JL_OK;
}

jl_status jl_world_set_field(jl_world *w, uint64_t id, const char *field, const char *text, size_t size,
                             jl_error *err)
{
    jl_entity *e = jl_entity_find(&w->manager, id);
    if (!e) return jl_error_set(err, JL_ERR_NOT_FOUND, NULL, 0, 0, "no entity 0x%016llx", (unsigned long long)id);
    if (e->flags & JL_ENTITY_READ_ONLY)
        return jl_error_set(err, JL_ERR_READ_ONLY, NULL, 0, 0, "entity 0x%016llx is read-only (newer file format)",
                            (unsigned long long)id);
    if (strcmp(field, "position") == 0) {
        static const jl_field position = {"position", JL_FIELD_VEC3, 0, 0};
        jl_vec3 p;
        jl_status s = set_value(&position, &p, field, text, size, err);
        if (s != JL_OK) return s;
        jl_entity_set_position(e, p.x, p.y, p.z);
        return JL_OK;
    }
    const jl_field *f = jl_class_find_field(e->derived_kind, field);
    if (!f)
        return jl_error_set(err, JL_ERR_NOT_FOUND, NULL, 0, 0, "class %s has no field '%s'",
                            e->derived_kind->name, field);
    jl_status s = set_value(f, e->derived, field, text, size, err);
    if (s != JL_OK) return s;
    jl_entity_touch(e);
    return JL_OK;
}

static void terminate(char *out, uint32_t n, uint32_t *size)
{
    out[n] = '\0';
    if (size) *size = n;
}

jl_status jl_world_get_field(const jl_world *w, uint64_t id, const char *field, char *out, uint32_t *size)
{
    const jl_entity *e = jl_entity_find(&w->manager, id);
    if (!e) return JL_ERR_NOT_FOUND;
    if (strcmp(field, "position") == 0) {
        terminate(out, jl_value_format(JL_FIELD_VEC3, &e->position, out), size);
        return JL_OK;
    }
    if (strcmp(field, "id") == 0) {
        terminate(out, jl_value_format(JL_FIELD_ENTITY_REF, &e->id, out), size);
        return JL_OK;
    }
    if (strcmp(field, "class") == 0) {
        size_t n = strlen(e->derived_kind->name);
        if (n >= JL_VALUE_TEXT_MAX) n = JL_VALUE_TEXT_MAX - 1;
        memcpy(out, e->derived_kind->name, n);
        terminate(out, (uint32_t)n, size);
        return JL_OK;
    }
    const jl_field *f = jl_class_find_field(e->derived_kind, field);
    if (!f) return JL_ERR_NOT_FOUND;
    terminate(out, jl_value_format(f->type, (const char *)e->derived + f->offset, out), size);
    return JL_OK;
}

jl_status jl_world_settings_set(jl_world *w, const char *field, const char *text, size_t size, jl_error *err)
{
    if (w->settings_read_only || w->settings_failed)
        return jl_error_set(err, JL_ERR_READ_ONLY, NULL, 0, 0,
                            "the world settings are read-only (newer or unreadable file)");
    const jl_field *f = jl_class_find_field(&jl_world_settings_class, field);
    if (!f) return jl_error_set(err, JL_ERR_NOT_FOUND, NULL, 0, 0, "the world settings have no field '%s'", field);
    jl_status s = set_value(f, &w->settings, field, text, size, err);
    if (s == JL_OK) w->settings_dirty = true;
    return s;
}

jl_status jl_world_settings_get(const jl_world *w, const char *field, char *out, uint32_t *size)
{
    const jl_field *f = jl_class_find_field(&jl_world_settings_class, field);
    if (!f) return JL_ERR_NOT_FOUND;
    terminate(out, jl_value_format(f->type, (const char *)&w->settings + f->offset, out), size);
    return JL_OK;
}

jl_status jl_world_write_entity(jl_world *w, uint64_t id, const char **text, size_t *size)
{
    const jl_entity *e = jl_entity_find(&w->manager, id);
    *text = NULL;
    *size = 0;
    if (!e) return JL_ERR_NOT_FOUND;
    jl_arena_pop_to(&w->scratch, 0);
    jl_archive ar;
    jl_archive_begin_write(&ar, &w->scratch);
    jl_status s = produce_entity(w, e, &ar);
    jl_status s2 = jl_archive_end_write(&ar, text, size);
    return s != JL_OK ? s : s2;
}

jl_status jl_world_write_settings(jl_world *w, const char **text, size_t *size)
{
    jl_arena_pop_to(&w->scratch, 0);
    jl_archive ar;
    jl_archive_begin_write(&ar, &w->scratch);
    jl_status s = produce_settings(w, NULL, &ar);
    jl_status s2 = jl_archive_end_write(&ar, text, size);
    return s != JL_OK ? s : s2;
}

const char *jl_world_unknown_keys(const jl_world *w, uint64_t id, uint32_t *size)
{
    const jl_entity *e = jl_entity_find(&w->manager, id);
    const jl_world_extra *x = e ? find_extra(w, e) : NULL;
    *size = x ? x->size : 0;
    return x && x->size ? x->text : NULL;
}

bool jl_world_is_read_only(const jl_world *w, uint64_t id)
{
    const jl_entity *e = jl_entity_find(&w->manager, id);
    return e && (e->flags & JL_ENTITY_READ_ONLY);
}

uint32_t jl_world_check_references(jl_world *w)
{
    uint32_t missing = 0;
    for (uint32_t i = 0; i < w->ref_count; i++) {
        const jl_world_ref *r = &w->refs[i];
        if (jl_entity_find(&w->manager, r->target)) continue;
        jl_error e;
        jl_error_set(&e, JL_ERR_NOT_FOUND, r->path, r->line, r->col, "reference to missing entity 0x%016llx",
                     (unsigned long long)r->target);
        add_diagnostic(w, &e);
        missing++;
    }
    return missing;
}

uint32_t jl_world_reference_count(const jl_world *w) { return w->ref_count; }

const jl_world_ref *jl_world_reference(const jl_world *w, uint32_t index)
{
    return index < w->ref_count ? &w->refs[index] : NULL;
}
