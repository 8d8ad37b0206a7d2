/* world_save.c - SaveWorld and ProcessPendingDeletions (world.h):
 * deletions first, then each dirty file replaced atomically (written in
 * batches that wait for the disk once each), the directories synced once,
 * all under the world's lock, each file checked
 * just before it is replaced or deleted to be the version the world saw
 * (world_disk.c), and a report of what was written, deleted, left alone
 * as a conflict and what failed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "juliet/platform.h"
#include "juliet/world_lock.h"
#include "world/world_internal.h"

/* Report records: a kind byte ('w' written, 'd' deleted, 'c' conflict) and
 * a NUL-terminated path, packed in the report arena until the save ends. */
static void report_path(jl_world *w, char kind, const char *path)
{
    size_t n = strlen(path);
    char *c = jl_arena_push(&w->report_arena, n + 2, 1);
    if (!c) return;
    c[0] = kind;
    memcpy(c + 1, path, n + 1);
}

void jli_report_failure(jl_save_report *r, const jl_error *e)
{
    if (r->error.status == JL_OK) r->error = *e;
    r->failed_count++;
}

/* Records a failed file-system operation (errno value code) in the report
 * and returns its status. */
jl_status jli_report_io(jl_save_report *r, const char *path, const char *op, int code)
{
    jl_error e;
    jl_status s = jl_fs_error(&e, path, op, code);
    jli_report_failure(r, &e);
    return s;
}

/* A file left alone because it changed on disk: a conflict, and a failure. */
static void report_conflict(jl_world *w, jl_save_report *r, const jl_error *e)
{
    report_path(w, 'c', e->path);
    jli_report_failure(r, e);
}

static void finish_report(jl_world *w, jl_save_report *r, size_t records_end)
{
    const char *c = (const char *)w->report_arena.base, *end = c + records_end;
    uint32_t written = 0, deleted = 0, conflicts = 0;
    for (const char *p = c; p < end; p += strlen(p + 1) + 2) {
        if (p[0] == 'w') written++;
        else if (p[0] == 'd') deleted++;
        else conflicts++;
    }
    const char **wl =
        jl_arena_push(&w->report_arena, (written + deleted + conflicts + 1) * sizeof(char *), _Alignof(char *));
    if (!wl) return;
    const char **dl = wl + written, **cl = dl + deleted;
    for (const char *p = c; p < end; p += strlen(p + 1) + 2) {
        if (p[0] == 'w') wl[r->written_count++] = p + 1;
        else if (p[0] == 'd') dl[r->deleted_count++] = p + 1;
        else cl[r->conflict_count++] = p + 1;
    }
    r->written = wl;
    r->deleted = dl;
    r->conflicts = cl;
}

uint32_t jli_save_dir_at(jl_world *w, const char *dir)
{
    const char *last = jli_storage_at(w, w->save_dir_at);
    if (!last || strcmp(last, dir) != 0) w->save_dir_at = jli_storage_offset(w, jli_world_store_string(w, dir));
    return w->save_dir_at;
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
        bool stays = false;
        if (jl_entity_find(m, id) || jli_id_map_get(&w->guarded, id, NULL)) {
            /* Alive again (undo), or a file that failed to load: not ours to delete. */
        } else if (!jl_world_entity_path(path, sizeof path, dir, id)) {
            /* Reported and kept: a save into a directory with a shorter
             * path deletes it. */
            char name[JLI_ENTITY_FILE_NAME_MAX];
            jli_entity_file_name(name, id);
            jl_error e;
            jl_error_set(&e, JL_ERR_IO, dir, 0, 0, "path too long: cannot delete Entities/%s", name);
            jli_report_failure(r, &e);
            if (result == JL_OK) result = JL_ERR_IO;
            stays = true;
        } else {
            /* Only the version the world saw: a file changed since is someone's work. */
            uint32_t dir_at = 0;
            uint64_t print = 0;
            jli_file_seen *seen = jli_seen_removed(w, id, &dir_at);
            jli_id_map_get(&w->removed, id, &print);
            jl_error e = {0};
            jl_status checked = jli_disk_check(w, path, dir, dir_at, seen, print, true, &e);
            int code = checked == JL_OK ? fs->remove(fs, path) : 0;
            if (checked != JL_OK) {
                if (checked == JL_ERR_CONFLICT) report_conflict(w, r, &e);
                else jli_report_failure(r, &e);
                if (result == JL_OK) result = checked;
                stays = true;
            } else if (code == 0) {
                report_path(w, 'd', path);
                *touched = true;
            } else if (code != ENOENT /* created and removed before any save */) {
                jl_status s = jli_report_io(r, path, "remove", code);
                if (result == JL_OK) result = s;
                stays = true; /* try again next save */
            }
        }
        if (stays) {
            m->pending_deletions[keep++] = id;
        } else {
            jli_id_map_remove(&w->removed, id); /* its file is gone, or not ours */
            jli_seen_drop_removed(w, id);
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
    if (s != JL_OK) jli_report_failure(r, &err);
    else snprintf(r->notice, sizeof r->notice, "%s", lock->notice);
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
                jl_status es = jli_report_io(r, entities_dir, "sync_dir", code);
                if (s == JL_OK) s = es;
            }
        }
    }
    jl_world_lock_release(&lock, w->fs);
    finish_report(w, r, w->report_arena.used);
    return s;
}

/* ---- the files of a save, in batches ----
 * Each dirty file is written to a temporary beside it and staged, up to
 * JLI_SAVE_BATCH_FILES at a time; then one flush makes every staged temporary
 * durable (jl_fs_batch_sync), and each is checked against the disk and
 * renamed over its file (flush_staged). A file is renamed only after its
 * bytes are durable, and a crash at any point leaves each file old or new.
 * Where the file system syncs file by file, each temporary is synced as it
 * is written and renamed at once, so nothing waits on a list. */

/* The two directories a save writes files into. */
enum { IN_ENTITIES = 0, IN_ROOT = 1 };

/* A file written to its temporary, waiting for its batch's flush. Staged
 * files lie one after another in the scratch arena from save_batch.base
 * (the first aligned up), each `size` bytes after the one before. */
typedef struct staged_file {
    jl_entity *entity; /* NULL: the settings */
    jl_fs_stamp stamp; /* the temporary's: the new file's once renamed */
    uint64_t print;    /* of the bytes written */
    uint32_t size;     /* of this record with its names, a multiple of 8 */
    uint32_t where;    /* IN_ENTITIES or IN_ROOT */
    char names[];      /* the file's path, NUL, its temporary's path, NUL */
} staged_file;

typedef struct save_batch {
    const char *dirs[2]; /* Entities/ and the world's directory */
    jl_fs_batch batch[2];
    bool begun[2];      /* batch begun and not flushed yet, or the directory syncs file by file */
    bool touched[2];    /* a file was renamed into it: its entries to sync */
    size_t base;        /* scratch offset of the first staged file */
    uint32_t count;     /* files staged */
    uint32_t staged[2]; /* of them, in each directory */
} save_batch;

/* What stage_file writes: an entity's file, or the settings' (what NULL). */
static jl_status produce(jl_world *w, const jl_entity *what, jl_archive *ar)
{
    return what ? jli_world_write_entity_text(w, what, ar) : jli_world_write_settings_text(w, ar);
}

/* Writes the new file of what (NULL: the settings) at path, in the
 * directory `where` of the batch (begun), to a temporary and stages it.
 * On failure nothing is left behind and e names the file. */
static jl_status stage_file(jl_world *w, save_batch *b, uint32_t where, const char *path, jl_entity *what, jl_error *e)
{
    const size_t mark = w->scratch.used;
    jl_archive ar;
    jl_archive_begin_write(&ar, &w->scratch);
    ar.err = e;
    ar.path = path;
    const char *text;
    size_t size;
    jl_fs_stamp stamp;
    char temp[JL_ERROR_PATH_MAX];
    jl_status s = produce(w, what, &ar);
    jl_status s2 = jl_archive_end_write(&ar, &text, &size);
    if (s == JL_OK) s = s2;
    if (s == JL_OK) s = jl_fs_write_temp_in(w->fs, &b->batch[where], path, text, size, temp, &stamp, e);
    const uint64_t print = s == JL_OK ? jli_text_print(text, size) : 0;
    jl_arena_pop_to(&w->scratch, mark); /* the text is on disk: only the list stays */
    if (s != JL_OK) {
        if (e->status == JL_OK || e->message[0] == '\0')
            jl_error_set(e, s, path, 0, 0, "cannot format file: %s", jl_status_name(s));
        return s;
    }
    const size_t path_size = strlen(path) + 1, temp_size = strlen(temp) + 1;
    const size_t record = (sizeof(staged_file) + path_size + temp_size + 7) & ~(size_t)7;
    staged_file *f = jl_arena_push(&w->scratch, record, _Alignof(staged_file));
    if (!f) {
        w->fs->remove(w->fs, temp);
        return jl_error_set(e, JL_ERR_OUT_OF_MEMORY, path, 0, 0, "out of memory for the save's list of files");
    }
    *f = (staged_file){.entity = what, .stamp = stamp, .print = print, .size = (uint32_t)record, .where = where};
    memcpy(f->names, path, path_size);
    memcpy(f->names + path_size, temp, temp_size);
    b->count++;
    b->staged[where]++;
    return JL_OK;
}

/* Renames a staged file's durable temporary over its file in directory dir
 * if the file there is still the version the world saw: then its record
 * sees the new one. JL_ERR_CONFLICT (the temporary removed, the file
 * untouched) if it changed on disk since. */
static jl_status commit_staged(jl_world *w, const staged_file *f, const char *dir, jl_error *e)
{
    const char *path = f->names, *temp = path + strlen(path) + 1;
    jli_entity_record *record = f->entity ? jli_record_for(w, f->entity) : &w->settings_record;
    /* Checked last, just before the rename: the narrowest window. */
    jli_file_seen *seen = record ? jli_seen_for(w, record) : NULL;
    jl_status s = jli_disk_check(w, path, dir, record ? record->dir_at : 0, seen,
                                 record ? jli_files_print(w, record) : 0, false, e);
    if (s != JL_OK) {
        w->fs->remove(w->fs, temp);
        return s;
    }
    s = jl_fs_commit_temp(w->fs, temp, path, e);
    if (s != JL_OK) return s;
    if (!record && f->entity) record = jli_record_claim(w, f->entity);
    if (record) {
        jli_files_set_print(w, record, f->print);
        record->dir_at = jli_save_dir_at(w, dir);
        /* The print is known, so the text is not needed. */
        jli_seen_note(w, record, &f->stamp, NULL, 0, f->print, jl_platform_wall_ns());
    }
    return JL_OK;
}

/* A file not written: a conflict, or a failure. */
static void report_not_written(jl_world *w, jl_save_report *r, jl_status s, const jl_error *e, jl_status *result)
{
    if (s == JL_ERR_CONFLICT) report_conflict(w, r, e);
    else jli_report_failure(r, e);
    if (*result == JL_OK) *result = s;
}

/* Makes the staged files durable (one flush per open batch), then renames
 * each over its file, clears what it was written for and reports it. If a
 * batch's flush fails, none of its temporaries is renamed: each is removed
 * and its file reported as failed, its entity still dirty. Then the list
 * is empty, and a batch that was open is over. */
static void flush_staged(jl_world *w, save_batch *b, jl_save_report *r, jl_status *result)
{
    jl_error failed[2];
    bool flush_failed[2] = {false, false};
    for (uint32_t i = 0; i < 2; i++) {
        if (!b->batch[i].open) continue; /* not begun, or file by file: each synced already */
        if (b->staged[i]) flush_failed[i] = jl_fs_batch_sync(w->fs, &b->batch[i], b->dirs[i], &failed[i]) != JL_OK;
        else jl_fs_batch_abandon(w->fs, &b->batch[i]); /* every file of it failed: nothing to flush */
        b->begun[i] = false;
    }
    b->staged[IN_ENTITIES] = b->staged[IN_ROOT] = 0;
    const char *c = (const char *)w->scratch.base;
    /* The first record is where the arena aligned it. */
    for (size_t at = (b->base + _Alignof(staged_file) - 1) & ~(_Alignof(staged_file) - 1); b->count; b->count--) {
        const staged_file *f = (const staged_file *)(c + at);
        at += f->size;
        const size_t mark = w->scratch.used;
        jl_error e = {0};
        jl_status s;
        if (flush_failed[f->where]) {
            const char *path = f->names;
            w->fs->remove(w->fs, path + strlen(path) + 1);
            s = jl_error_set(&e, failed[f->where].status, path, 0, 0, "%s", failed[f->where].message);
        } else {
            s = commit_staged(w, f, b->dirs[IN_ROOT], &e);
        }
        jl_arena_pop_to(&w->scratch, mark);
        if (s != JL_OK) {
            report_not_written(w, r, s, &e, result);
            continue;
        }
        if (f->entity) f->entity->is_dirty = false;
        else w->settings_dirty = false;
        report_path(w, 'w', f->names);
        b->touched[f->where] = true;
    }
    jl_arena_pop_to(&w->scratch, b->base);
}

/* Begins the batch of directory `where` unless one is begun. */
static jl_status begin_batch(jl_world *w, save_batch *b, uint32_t where, jl_error *e)
{
    if (b->begun[where]) return JL_OK;
    jl_status s = jl_fs_batch_begin(w->fs, b->dirs[where], &b->batch[where], e);
    b->begun[where] = s == JL_OK;
    return s;
}

/* Stages what (NULL: the settings) into the batch of `where`, and flushes
 * when the file system syncs file by file or the batch is full. */
static void save_file(jl_world *w, save_batch *b, uint32_t where, const char *path, jl_entity *what, jl_save_report *r,
                      jl_status *result)
{
    jl_error err = {0};
    jl_status s = stage_file(w, b, where, path, what, &err);
    if (s != JL_OK) report_not_written(w, r, s, &err, result);
    else if (!b->batch[where].open || b->count >= (w->save_batch_files ? w->save_batch_files : JLI_SAVE_BATCH_FILES))
        flush_staged(w, b, r, result);
}

/* After a failed directory sync the renames may not be durable: the
 * entities written in this save become dirty again. */
static void redirty_written(jl_world *w, size_t records_end)
{
    const char *c = (const char *)w->report_arena.base, *end = c + records_end;
    for (const char *p = c; p < end; p += strlen(p + 1) + 2) {
        if (p[0] != 'w') continue;
        const char *name = jli_base_name(p + 1);
        if (strcmp(name, "WorldSettings.jasset") == 0) {
            w->settings_dirty = true;
            w->settings_record.file = JLI_FILE_UNKNOWN;
            continue;
        }
        jl_entity *e = jl_entity_find(&w->manager, jl_world_id_of_file_name(name));
        jli_entity_record *kept = e ? jli_record_for(w, e) : NULL;
        if (e) e->is_dirty = true;
        if (kept) kept->file = JLI_FILE_UNKNOWN; /* the disk may hold either version */
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

    /* 1. Files of removed entities before any write: a deletion is pending
     * from the removal until this save (docs/design.md). */
    bool entities_touched = false;
    jl_status s = process_deletions(w, dir, r, &entities_touched);
    if (s != JL_OK) result = s;

    /* 2. Dirty entities, each replaced atomically, in batches. */
    bool dirs_ready = false;
    save_batch b = {.dirs = {entities_dir, dir}, .base = w->scratch.used};
    jl_entity_manager *m = &w->manager;
    for (jl_entity *e = jl_entities_first(m); e; e = jl_entities_next(m, e)) {
        if (!e->is_dirty || (e->flags & JL_ENTITY_READ_ONLY)) continue;
        jl_error err = {0};
        if (!dirs_ready) {
            s = jl_fs_ensure_dir(w->fs, dir, &err);
            if (s == JL_OK) s = jl_fs_ensure_dir(w->fs, entities_dir, &err);
            if (s != JL_OK) {
                report_not_written(w, r, s, &err, &result);
                break; /* nothing can be written; everything stays dirty */
            }
            dirs_ready = true;
        }
        if (!jl_world_entity_path(path, sizeof path, dir, e->id)) {
            s = jl_error_set(&err, JL_ERR_IO, entities_dir, 0, 0, "path too long");
            report_not_written(w, r, s, &err, &result);
        } else if (jli_id_map_get(&w->guarded, e->id, NULL)) {
            s = jl_error_set(&err, JL_ERR_IO, path, 0, 0,
                             "not overwritten: this file failed to load or is from a newer version");
            report_not_written(w, r, s, &err, &result);
        } else if ((s = begin_batch(w, &b, IN_ENTITIES, &err)) != JL_OK) {
            report_not_written(w, r, s, &err, &result);
            break; /* no file can be made durable in Entities/: the rest stays dirty */
        } else {
            save_file(w, &b, IN_ENTITIES, path, e, r, &result);
        }
    }

    /* 3. The settings, in the last batch. */
    if (w->settings_dirty && !w->settings_read_only && !w->settings_failed) {
        jl_error err = {0};
        s = jl_fs_ensure_dir(w->fs, dir, &err);
        if (s == JL_OK && !jl_fs_join(path, sizeof path, dir, "WorldSettings.jasset"))
            s = jl_error_set(&err, JL_ERR_IO, dir, 0, 0, "path too long");
        if (s == JL_OK) s = begin_batch(w, &b, IN_ROOT, &err);
        if (s == JL_OK) save_file(w, &b, IN_ROOT, path, NULL, r, &result);
        else report_not_written(w, r, s, &err, &result);
    }
    flush_staged(w, &b, r, &result);

    /* 4. Make the renames and deletions durable, once per directory. */
    const size_t records_end = w->report_arena.used;
    const char *synced[2] = {entities_touched || b.touched[IN_ENTITIES] ? entities_dir : NULL,
                             b.touched[IN_ROOT] ? dir : NULL};
    for (int i = 0; i < 2; i++) {
        if (!synced[i]) continue;
        int code = w->fs->sync_dir(w->fs, synced[i]);
        if (code) {
            s = jli_report_io(r, synced[i], "sync_dir", code);
            if (result == JL_OK) result = s;
            redirty_written(w, records_end);
        }
    }
    jl_world_lock_release(&lock, w->fs);
    finish_report(w, r, records_end);
    return result;
}
