/* save_scenario.h - a saved world plus an unsaved session of edits, and the
 * checks every interrupted or failed save of it must pass.
 *
 * scenario_build() generates a world of n entities (sample_world_gen.h), saves it
 * as the "old" template, copies it to the working directory, loads it
 * through a probe file system (fs_probe.h) and edits it the way a user does:
 * about a fifth of the entities change a field or move, a tenth are
 * removed, n/5 + 1 are created and the settings change. Before any save it
 * records what each file must hold afterwards: the old text (from the
 * template) and the new text (jl_world_write_entity: exactly what save
 * writes).
 *
 * scenario_check_disk() then accepts a directory only if every .jasset file
 * in it is byte for byte its old or its new version, no entity that is
 * alive in memory and had a file lost it, and nothing else appeared except
 * `*.tmp` leftovers; scenario_check_reload() loads the directory into a
 * fresh world and requires zero diagnostics, every file loaded, and the
 * leftovers deleted. */
#ifndef JULIET_SAVE_SCENARIO_H
#define JULIET_SAVE_SCENARIO_H

#include "disk_util.h"
#include "fs_probe.h"
#include "juliet/world.h"
#include "sample_classes.h"
#include "sample_world_gen.h"
#include "test.h"
#include "world/world_internal.h" /* jli_world_init: worlds embedded in the tests */

typedef struct scenario_file {
    uint64_t id;    /* 0 for WorldSettings.jasset */
    char *old_text; /* NULL: no file before the save (created entity) */
    size_t old_size;
    char *new_text; /* NULL: removed in memory */
    size_t new_size;
    bool alive; /* alive in memory */
} scenario_file;

typedef struct scenario {
    char root[512];
    char old_dir[600]; /* the template: the world as last saved */
    char dir[600];     /* the working copy the session saves to */
    probe_fs probe;
    jl_world world;       /* loaded from dir through probe, then edited */
    scenario_file *files; /* sorted by id; settings first (id 0) */
    size_t file_count;
    uint32_t n;
    uint64_t seed;
    uint32_t modified, removed, created;
} scenario;

static inline int scenario_compare_files(const void *a, const void *b)
{
    uint64_t x = ((const scenario_file *)a)->id, y = ((const scenario_file *)b)->id;
    return x < y ? -1 : x > y;
}

static inline scenario_file *scenario_find(scenario *s, uint64_t id)
{
    scenario_file key = {.id = id};
    return bsearch(&key, s->files, s->file_count, sizeof key, scenario_compare_files);
}

static inline uint64_t scenario_rng(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The decimal ID of "123.jasset", or 0. */
static inline uint64_t scenario_id_of_name(const char *name)
{
    if (!du_ends_with(name, ".jasset") || name[0] < '1' || name[0] > '9') return 0;
    char *end;
    unsigned long long v = strtoull(name, &end, 10);
    return strcmp(end, ".jasset") == 0 ? (uint64_t)v : 0;
}

static inline char *scenario_dup(const char *text, size_t size)
{
    char *copy = malloc(size + 1);
    if (copy) {
        memcpy(copy, text, size);
        copy[size] = '\0';
    }
    return copy;
}

/* (Re)starts the session: the working directory becomes the template
 * again, a fresh world loads it and makes the scenario's edits. The session
 * has a fixed ID tag, so every session creates the same IDs and the
 * expected files hold for all of them. */
static inline bool scenario_start_session(scenario *s)
{
    if (s->world.initialized) jli_world_shutdown(&s->world);
    du_remove_tree(s->dir);
    CHECK_OR_FALSE(du_copy_tree(s->old_dir, s->dir));
    probe_reset(&s->probe);
    s->modified = s->removed = s->created = 0;
    const uint32_t n = s->n;
    jl_world_desc wd = {.capacity = n * 2 + 64, .fs = &s->probe.table, .id_tag = 0x5e55u};
    CHECK_OR_FALSE(jli_world_init(&s->world, &wd) == JL_OK);
    CHECK_OR_FALSE(jl_world_load(&s->world, s->dir) == JL_OK);
    CHECK_OR_FALSE(jl_world_count(&s->world) == n);

    uint64_t rng = s->seed ^ 0x5ca1ab1eull;
    uint64_t *ids = malloc(n * sizeof *ids);
    CHECK_OR_FALSE(ids);
    uint32_t k = 0;
    for (jl_entity *e = jl_entities_first(&s->world.manager); e; e = jl_entities_next(&s->world.manager, e))
        ids[k++] = e->id;
    CHECK_OR_FALSE(k == n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t roll = (uint32_t)(scenario_rng(&rng) % 100);
        char text[64];
        if (roll < 10) {
            CHECK_OR_FALSE(jl_world_remove(&s->world, ids[i]) == JL_OK);
            s->removed++;
        } else if (roll < 20) {
            snprintf(text, sizeof text, "%d.5 %d 0.25", (int)i, (int)(roll - 10));
            CHECK_OR_FALSE(jl_world_set_field(&s->world, ids[i], "position", text, strlen(text), NULL) == JL_OK);
            s->modified++;
        } else if (roll < 30) {
            /* A class field that takes a small number. */
            const jl_entity *e = jl_world_find(&s->world, ids[i]);
            const char *field = e->derived_kind == &sample_light_class  ? "intensity"
                                : e->derived_kind == &sample_prop_class ? "density"
                                                                        : "mesh_instance";
            snprintf(text, sizeof text, "%u", (unsigned)(roll + i % 7));
            CHECK_OR_FALSE(jl_world_set_field(&s->world, ids[i], field, text, strlen(text), NULL) == JL_OK);
            s->modified++;
        }
    }
    free(ids);
    static const char *const classes[] = {"Inert", "Light", "Prop"};
    for (uint32_t i = 0; i < n / 5 + 1; i++) {
        CHECK_OR_FALSE(jl_world_create(&s->world, classes[i % 3], (float)i, 2.0f, -(float)i, NULL) == JL_OK);
        s->created++;
    }
    CHECK_OR_FALSE(jl_world_settings_set(&s->world, "time_of_day", "18.5", 4, NULL) == JL_OK);
    probe_reset(&s->probe); /* operation numbers count from the save */
    return true;
}

/* Builds the scenario for n entities from seed and starts its first
 * session. false (with a failed CHECK printed) on any setup failure. */
static inline bool scenario_build(scenario *s, uint32_t n, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->seed = seed;
    CHECK_OR_FALSE(du_make_memory_temp_dir(s->root, sizeof s->root, "save"));
    snprintf(s->old_dir, sizeof s->old_dir, "%s/old", s->root);
    snprintf(s->dir, sizeof s->dir, "%s/world", s->root);

    /* The world as last saved. */
    jl_world gen;
    jl_world_desc gd = {.capacity = n * 2 + 64, .id_tag = sample_world_gen_tag(seed)};
    CHECK_OR_FALSE(jli_world_init(&gen, &gd) == JL_OK);
    CHECK_OR_FALSE(sample_world_generate(&gen, n, seed) == JL_OK);
    CHECK_OR_FALSE(jl_world_save(&gen, s->old_dir, NULL) == JL_OK);
    jli_world_shutdown(&gen);

    probe_init(&s->probe);
    CHECK_OR_FALSE(scenario_start_session(s));

    /* What each file holds before and must hold after. */
    char entities[700], path[800];
    du_join(entities, sizeof entities, s->old_dir, "Entities");
    size_t name_count;
    char **names = du_list(entities, &name_count);
    size_t cap = name_count + s->created + 1;
    s->files = calloc(cap, sizeof *s->files);
    CHECK_OR_FALSE(s->files);
    du_join(path, sizeof path, s->old_dir, "WorldSettings.jasset");
    scenario_file *settings = &s->files[s->file_count++];
    settings->old_text = du_read(path, &settings->old_size);
    settings->alive = true;
    const char *text;
    size_t size;
    CHECK_OR_FALSE(jl_world_write_settings(&s->world, &text, &size) == JL_OK);
    settings->new_text = scenario_dup(text, size);
    settings->new_size = size;
    for (size_t i = 0; i < name_count; i++) {
        scenario_file *f = &s->files[s->file_count++];
        f->id = scenario_id_of_name(names[i]);
        CHECK_OR_FALSE(f->id != 0);
        du_join(path, sizeof path, entities, names[i]);
        f->old_text = du_read(path, &f->old_size);
        CHECK_OR_FALSE(f->old_text);
    }
    du_free_names(names, name_count);
    qsort(s->files, s->file_count, sizeof *s->files, scenario_compare_files);
    const size_t loaded_files = s->file_count;
    for (jl_entity *e = jl_entities_first(&s->world.manager); e; e = jl_entities_next(&s->world.manager, e)) {
        scenario_file key = {.id = e->id};
        scenario_file *f = bsearch(&key, s->files, loaded_files, sizeof key, scenario_compare_files);
        if (!f) {
            f = &s->files[s->file_count++];
            f->id = e->id;
        }
        f->alive = true;
        CHECK_OR_FALSE(jl_world_write_entity(&s->world, e->id, &text, &size) == JL_OK);
        f->new_text = scenario_dup(text, size);
        f->new_size = size;
    }
    qsort(s->files, s->file_count, sizeof *s->files, scenario_compare_files);
    CHECK_OR_FALSE(s->files[0].id == 0);
    return true;
}

static inline void scenario_free(scenario *s)
{
    jli_world_shutdown(&s->world);
    for (size_t i = 0; i < s->file_count; i++) {
        free(s->files[i].old_text);
        free(s->files[i].new_text);
    }
    free(s->files);
    probe_free(&s->probe);
    if (s->root[0]) du_remove_tree(s->root);
    memset(s, 0, sizeof *s);
}

/* What scenario_check_disk found. */
typedef struct scenario_state {
    size_t old_files, new_files, temp_files, absent_new, removed_gone;
} scenario_state;

static inline bool scenario_same(const char *a, size_t an, const char *b, size_t bn)
{
    return a && an == bn && memcmp(a, b, an) == 0;
}

/* Checks dir against the scenario (see the file comment). With restore,
 * every file that is not its old version is put back (or deleted) and the
 * temporaries removed, so the directory is the template again. With
 * want_new, the save must have completed: every file is its new version
 * and the files of removed entities are gone. */
static inline bool scenario_check_disk_ex(scenario *s, const char *dir, scenario_state *st, bool restore, bool want_new)
{
    memset(st, 0, sizeof *st);
    char entities[700], path[800];
    du_join(entities, sizeof entities, dir, "Entities");
    size_t n;
    char **names = du_list(entities, &n);
    CHECK_OR_FALSE(names);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        du_join(path, sizeof path, entities, names[i]);
        if (du_ends_with(names[i], ".tmp")) {
            st->temp_files++;
            if (restore) unlink(path);
            continue;
        }
        scenario_file *f = scenario_find(s, scenario_id_of_name(names[i]));
        if (!f || f->id == 0) {
            fprintf(stderr, "unexpected file %s\n", path);
            ok = false;
            break;
        }
        size_t size = 0;
        char *text = du_read(path, &size);
        bool is_old = scenario_same(f->old_text, f->old_size, text, size);
        bool is_new = scenario_same(f->new_text, f->new_size, text, size);
        if (!is_old && !is_new) {
            fprintf(stderr, "%s is neither its old (%zu bytes) nor its new version (%zu bytes): %zu bytes\n", path,
                    f->old_size, f->new_size, text ? size : 0);
            ok = false;
        }
        if (want_new && !is_new) {
            fprintf(stderr, "%s is not its new version after a complete save\n", path);
            ok = false;
        }
        st->old_files += is_old;
        st->new_files += is_new && !is_old;
        if (restore && !is_old) {
            if (f->old_text) du_write(path, f->old_text, f->old_size);
            else unlink(path);
        }
        free(text);
    }
    /* No entity lost: each one alive in memory that had a file still has one. */
    for (size_t i = 1; i < s->file_count && ok; i++) {
        scenario_file *f = &s->files[i];
        char name[40];
        snprintf(name, sizeof name, "%llu.jasset", (unsigned long long)f->id);
        bool present = bsearch(&(const char *){name}, names, n, sizeof *names, du_compare_names) != NULL;
        if (f->alive && f->old_text && !present) {
            fprintf(stderr, "entity %s lost: alive in memory, its file is gone\n", name);
            ok = false;
        }
        if (want_new && (f->alive != present)) {
            fprintf(stderr, "entity %s: %s after a complete save\n", name, f->alive ? "no file" : "file not deleted");
            ok = false;
        }
        if (!f->alive && !present) st->removed_gone++;
        if (f->alive && !f->old_text && !present) st->absent_new++;
        if (restore && !present && f->old_text) {
            du_join(path, sizeof path, entities, name);
            du_write(path, f->old_text, f->old_size);
        }
    }
    du_free_names(names, n);
    /* The settings file, and leftovers at the root. */
    du_join(path, sizeof path, dir, "WorldSettings.jasset");
    size_t size = 0;
    char *text = du_read(path, &size);
    const scenario_file *sf = &s->files[0];
    if (!scenario_same(sf->old_text, sf->old_size, text, size) &&
        !scenario_same(sf->new_text, sf->new_size, text, size)) {
        fprintf(stderr, "%s is neither its old nor its new version\n", path);
        ok = false;
    } else if (want_new && !scenario_same(sf->new_text, sf->new_size, text, size)) {
        fprintf(stderr, "%s is not its new version after a complete save\n", path);
        ok = false;
    } else if (restore && !scenario_same(sf->old_text, sf->old_size, text, size)) {
        du_write(path, sf->old_text, sf->old_size);
    }
    free(text);
    du_join(path, sizeof path, dir, "WorldSettings.jasset.tmp");
    if (du_exists(path)) {
        st->temp_files++;
        if (restore) unlink(path);
    }
    return ok;
}

static inline bool scenario_check_disk(scenario *s, const char *dir, scenario_state *st, bool restore)
{
    return scenario_check_disk_ex(s, dir, st, restore, false);
}

/* Loads dir into a fresh world (native file system): every .jasset file
 * loads with no diagnostic, the temporaries are gone afterwards, and the
 * world holds exactly the entities that have files. */
static inline bool scenario_check_reload(const char *dir, uint32_t capacity)
{
    char entities[700];
    du_join(entities, sizeof entities, dir, "Entities");
    size_t files = du_count_suffix(entities, ".jasset");
    jl_world w;
    jl_world_desc d = {.capacity = capacity};
    CHECK_OR_FALSE(jli_world_init(&w, &d) == JL_OK);
    jl_status s = jl_world_load(&w, dir);
    if (s != JL_OK || jl_world_diagnostic_count(&w) != 0) {
        char line[1024];
        for (uint32_t i = 0; i < jl_world_diagnostic_count(&w) && i < 5; i++)
            fprintf(stderr, "%s\n", jl_error_format(jl_world_diagnostic(&w, i), line, sizeof line));
    }
    bool ok = s == JL_OK && jl_world_diagnostic_count(&w) == 0 && jl_world_count(&w) == files;
    jli_world_shutdown(&w);
    CHECK_OR_FALSE(ok);
    CHECK_OR_FALSE(du_count_suffix(entities, ".tmp") == 0);
    CHECK_OR_FALSE(du_count_suffix(dir, ".tmp") == 0);
    return true;
}

/* ---- one pass: reload and check every byte ---- */

/* A probe for the reload whose reads compare each file the loader reads
 * with its old and new version as it goes and whose listings count the
 * temporaries, marking the files it saw, so one pass over the directory
 * both loads it and checks it. */
typedef struct scenario_verifier {
    probe_fs probe; /* probe.owner is the verifier */
    scenario *s;
    bool *seen;   /* [file_count] */
    bool *is_old; /* [file_count] */
    size_t temps_listed, new_files, old_files, bad;
} scenario_verifier;

static inline scenario_file *scenario_file_of_path(scenario *s, const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    if (strcmp(name, "WorldSettings.jasset") == 0) return &s->files[0];
    uint64_t id = scenario_id_of_name(name);
    return id ? scenario_find(s, id) : NULL;
}

static inline int verifier_read_file(const jl_fs *fs, const char *path, size_t max, jl_arena *arena, char **data,
                                     size_t *size, jl_fs_stamp *stamp)
{
    scenario_verifier *v = probe_of(fs)->owner;
    int r = probe_read_file(fs, path, max, arena, data, size, stamp);
    if (r || probe_is_lock(path)) return r;
    scenario_file *f = scenario_file_of_path(v->s, path);
    if (!f) {
        fprintf(stderr, "unexpected file %s\n", path);
        v->bad++;
        return r;
    }
    size_t i = (size_t)(f - v->s->files);
    bool is_old = scenario_same(f->old_text, f->old_size, *data, *size);
    bool is_new = scenario_same(f->new_text, f->new_size, *data, *size);
    if (!is_old && !is_new) {
        fprintf(stderr, "%s is neither its old (%zu bytes) nor its new version (%zu bytes): %zu bytes\n", path,
                f->old_size, f->new_size, *size);
        v->bad++;
    }
    v->seen[i] = true;
    v->is_old[i] = is_old;
    v->old_files += is_old && f->id;
    v->new_files += is_new && !is_old && f->id;
    return r;
}

static inline int verifier_list_dir(const jl_fs *fs, const char *path, jl_arena *arena, jl_fs_entry **entries,
                                    uint32_t *count)
{
    scenario_verifier *v = probe_of(fs)->owner;
    int r = probe_list_dir(fs, path, arena, entries, count);
    if (r == 0)
        for (uint32_t i = 0; i < *count; i++) v->temps_listed += du_ends_with((*entries)[i].name, ".tmp");
    return r;
}

/* After an interrupted save: loads dir into a fresh world through the
 * verifier and requires every file to be its old or new version, zero
 * diagnostics, one entity per file, no entity alive in memory without its
 * file, and no temporary left once loaded. With restore, then puts the old
 * world back. *temps gets the temporaries the load found. */
static inline bool scenario_verify_reload(scenario *s, const char *dir, uint32_t capacity, bool restore,
                                          scenario_state *st)
{
    scenario_verifier v = {.s = s};
    probe_init(&v.probe);
    v.probe.owner = &v;
    v.probe.table.read_file = verifier_read_file;
    v.probe.table.list_dir = verifier_list_dir;
    v.seen = calloc(s->file_count, sizeof *v.seen);
    v.is_old = calloc(s->file_count, sizeof *v.is_old);
    CHECK_OR_FALSE(v.seen && v.is_old);

    jl_world w;
    jl_world_desc d = {.capacity = capacity, .fs = &v.probe.table};
    CHECK_OR_FALSE(jli_world_init(&w, &d) == JL_OK);
    jl_status status = jl_world_load(&w, dir);
    bool ok = status == JL_OK && jl_world_diagnostic_count(&w) == 0 && v.bad == 0;
    char line[1024];
    for (uint32_t i = 0; i < jl_world_diagnostic_count(&w) && i < 5; i++)
        fprintf(stderr, "%s\n", jl_error_format(jl_world_diagnostic(&w, i), line, sizeof line));
    size_t files = 0;
    for (size_t i = 1; i < s->file_count; i++) files += v.seen[i];
    ok = ok && jl_world_count(&w) == files;
    jli_world_shutdown(&w);

    char entities[700], path[800];
    du_join(entities, sizeof entities, dir, "Entities");
    if (du_count_suffix(entities, ".tmp") != 0 || du_count_suffix(dir, ".tmp") != 0) {
        fprintf(stderr, "temporary files left after a load of %s\n", dir);
        ok = false;
    }
    memset(st, 0, sizeof *st);
    st->temp_files = v.temps_listed;
    st->old_files = v.old_files;
    st->new_files = v.new_files;
    for (size_t i = 0; i < s->file_count; i++) {
        scenario_file *f = &s->files[i];
        if (!v.seen[i] && f->alive && f->old_text) {
            fprintf(stderr, "entity %llu lost: alive in memory, its file is gone\n", (unsigned long long)f->id);
            ok = false;
        }
        st->removed_gone += !v.seen[i] && !f->alive;
        st->absent_new += !v.seen[i] && f->alive && !f->old_text;
        if (!restore || (v.seen[i] && v.is_old[i]) || (!v.seen[i] && !f->old_text)) continue;
        if (f->id == 0) du_join(path, sizeof path, dir, "WorldSettings.jasset");
        else {
            char name[40];
            snprintf(name, sizeof name, "%llu.jasset", (unsigned long long)f->id);
            du_join(path, sizeof path, entities, name);
        }
        if (f->old_text) du_write(path, f->old_text, f->old_size);
        else unlink(path);
    }
    free(v.seen);
    free(v.is_old);
    return ok;
}

#endif
