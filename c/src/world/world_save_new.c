/* world_save_new.c - the first save of a world that has no directory yet
 * (world.h: jl_world_save_new): everything is written into a hidden
 * sibling and renamed into place, so the directory holds the whole world
 * or nothing, and a world is never merged into another. */
#include <errno.h>
#include <string.h>

#include "juliet/platform.h"
#include "world/world_internal.h"

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
    jli_report_failure(r, &e);
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

/* The files were seen in the temporary directory, which is dir now: the
 * same files (a rename keeps them). */
static void seen_moved(jl_world *w, uint32_t from, const char *dir)
{
    const uint32_t to = jli_save_dir_at(w, dir);
    jl_entity_manager *m = &w->manager;
    for (jl_entity *e = jl_entities_first(m); e; e = jl_entities_next(m, e)) {
        jli_entity_record *r = jli_record_for(w, e);
        if (r && r->dir_at == from) r->dir_at = to;
    }
    if (w->settings_record.dir_at == from) w->settings_record.dir_at = to;
}

/* Removes the temporaries `.<name>.<pid>-<n>.new` that saves of a new world
 * named name into parent left when their process died mid-save (a live
 * process's is its save in progress). */
static void remove_dead_leftovers(jl_world *w, const char *parent, const char *hidden)
{
    const size_t mark = w->scratch.used, hidden_len = strlen(hidden);
    jl_fs_entry *entries;
    uint32_t count = 0;
    if (w->fs->list_dir(w->fs, parent, &w->scratch, &entries, &count) != 0) count = 0;
    char path[JL_ERROR_PATH_MAX];
    for (uint32_t i = 0; i < count; i++) {
        const char *name = entries[i].name, *p = name + hidden_len + 1;
        if (entries[i].kind != JL_FS_DIR || strncmp(name, hidden, hidden_len) != 0 || name[hidden_len] != '.') continue;
        uint64_t pid = 0;
        for (; *p >= '0' && *p <= '9' && pid <= UINT32_MAX; p++) pid = pid * 10 + (uint64_t)(*p - '0');
        if (*p != '-' || pid == 0 || pid > UINT32_MAX || strcmp(p + strcspn(p, "."), ".new") != 0) continue;
        if (pid == jl_platform_pid() || jl_platform_pid_alive((uint32_t)pid)) continue;
        if (jl_fs_join(path, sizeof path, parent, name)) jl_fs_remove_tree(w->fs, path, &w->scratch);
    }
    jl_arena_pop_to(&w->scratch, mark);
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
        jli_report_failure(r, &check);
        return checked;
    }

    /* Everything is written into a hidden sibling first ("." + its name),
     * then renamed into place. */
    char parent[JL_ERROR_PATH_MAX], hidden[257], base[JL_ERROR_PATH_MAX], temp[JL_ERROR_PATH_MAX];
    hidden[0] = '.';
    if (!split_dir(dir, parent, sizeof parent, hidden + 1, sizeof hidden - 1))
        return fail_new(r, JL_ERR_INVALID_ARGUMENT, dir, "not a directory name a world can be written to");
    if (!jl_fs_join(base, sizeof base, parent, hidden)) return fail_new(r, JL_ERR_IO, dir, "path too long");
    /* An empty folder that is there already is replaced by one like it:
     * its permissions and owner stay (a folder made private stays so). */
    jl_fs_stamp there;
    const char *like = fs->stat(fs, dir, &there) == 0 ? dir : NULL;
    int code = EEXIST;
    for (int attempt = 0; attempt < 64 && code == EEXIST; attempt++) {
        if (!jl_fs_unique_name(temp, sizeof temp, base, ".new")) return fail_new(r, JL_ERR_IO, dir, "path too long");
        code = fs->make_dir(fs, temp, like);
    }
    if (code) return jli_report_io(r, temp, "make_dir", code);
    /* Its classes from class files go with it: the directory opens anywhere. */
    jl_status s = jli_class_files_save(w, temp, r);
    if (s == JL_OK) s = jl_world_save(w, temp, r);
    if (s == JL_OK) {
        code = fs->rename(fs, temp, dir);
        if (code == ENOTEMPTY || code == EEXIST)
            s = fail_new(r, JL_ERR_EXISTS, dir, "was filled by another program while the world was written");
        else if (code) s = jli_report_io(r, dir, "rename", code);
    }
    if (s != JL_OK) {
        /* dir is untouched; the world stays as it was: everything to write. */
        jl_fs_remove_tree(fs, temp, &w->scratch);
        r->written_count = r->deleted_count = 0;
        jl_world_mark_all_dirty(w);
        return s;
    }
    seen_moved(w, w->save_dir_at, dir);
    remove_dead_leftovers(w, parent, hidden);
    code = fs->sync_dir(fs, parent);
    if (code) s = jli_report_io(r, parent, "sync_dir", code);
    remap_report(w, r, temp, dir);
    return s;
}
