/* world_disk.c - whether a file on disk is still the version the world
 * read or wrote, so that a save never replaces or deletes a file another
 * program changed since (world_internal.h, jli_file_seen).
 *
 * As git's index does, the world keeps each file's stamp (identity, size,
 * modification time) and trusts a matching stamp unless it was taken within
 * a clock tick of the file's last write ("racy"): then, and when the stamp
 * moved (a `touch`, a checkout that wrote the same bytes), the bytes
 * decide, by their print. The check runs under the world's lock, just
 * before the rename or the delete, so the window it leaves is the length of
 * one stat and one rename. */
#include <errno.h>
#include <string.h>

#include "juliet/platform.h"
#include "world/world_internal.h"

/* Records of removed entities: what was seen of their file, and where. */
typedef struct jli_removed_seen {
    jli_file_seen seen;
    uint32_t dir_at;
} jli_removed_seen;

jli_file_seen *jli_seen_for(jl_world *w, const jli_entity_record *r)
{
    if (r == &w->settings_record) return &w->settings_seen;
    uint32_t slot = (uint32_t)(r - w->records);
    return jli_slot_ready(&w->seen_arena, &w->seen_ready, slot, sizeof(jli_file_seen)) ? &w->seen[slot] : NULL;
}

void jli_seen_note(jl_world *w, const jli_entity_record *r, const jl_fs_stamp *stamp, const char *text, size_t size,
                   uint64_t print, uint64_t now_ns)
{
    jli_file_seen *seen = jli_seen_for(w, r);
    if (!seen) return; /* then nothing is compared: as before the world kept stamps */
    seen->stamp = *stamp;
    seen->racy = jl_fs_stamp_is_racy(stamp, now_ns);
    /* Taken only where the stamp may not tell: a print per file is work a
     * load of old files never needs. */
    seen->print = print ? print : seen->racy ? jli_text_print(text, size) : 0;
}

void jli_seen_forget(jl_world *w, const jli_entity_record *r)
{
    if (r == &w->settings_record) {
        w->settings_seen = (jli_file_seen){0};
        return;
    }
    uint32_t slot = (uint32_t)(r - w->records);
    if (slot < w->seen_ready) w->seen[slot] = (jli_file_seen){0};
}

void jli_seen_keep_removed(jl_world *w, uint64_t id, const jli_entity_record *r)
{
    jli_file_seen *seen = jli_seen_for(w, r);
    if (!seen || !seen->stamp.file) return;
    jli_removed_seen *kept = jl_arena_push(&w->removed_seen_arena, sizeof *kept, _Alignof(jli_removed_seen));
    /* Without room it is only not remembered: the deletion is then not
     * compared, as a deletion of a file never seen. */
    if (!kept) return;
    *kept = (jli_removed_seen){.seen = *seen, .dir_at = r->dir_at};
    uint64_t at = (uint64_t)((char *)kept - (char *)w->removed_seen_arena.base) + 1;
    if (jli_id_map_put(&w->removed_seen, id, at) != JL_OK) jl_arena_pop_to(&w->removed_seen_arena, at - 1);
}

jli_file_seen *jli_seen_removed(jl_world *w, uint64_t id, uint32_t *dir_at)
{
    uint64_t at = 0;
    if (!w->removed_seen.count || !jli_id_map_get(&w->removed_seen, id, &at)) return NULL;
    jli_removed_seen *kept = (jli_removed_seen *)((char *)w->removed_seen_arena.base + (at - 1));
    *dir_at = kept->dir_at;
    return &kept->seen;
}

void jli_seen_drop_removed(jl_world *w, uint64_t id)
{
    if (w->removed_seen.count) jli_id_map_remove(&w->removed_seen, id);
    if (!w->removed_seen.count) jl_arena_pop_to(&w->removed_seen_arena, 0); /* nothing refers to it now */
}

static jl_status conflict(jl_error *err, const char *path, bool deleting, const char *what)
{
    return jl_error_set(err, JL_ERR_CONFLICT, path, 0, 0,
                        "%s on disk since this world read it: not %s (the change stays pending)", what,
                        deleting ? "deleted" : "overwritten");
}

jl_status jli_disk_check(jl_world *w, const char *path, const char *dir, uint32_t dir_at, jli_file_seen *seen,
                         uint64_t fallback_print, bool deleting, jl_error *err)
{
    /* Seen in another directory (a world saved elsewhere): nothing known here. */
    const char *seen_dir = jli_storage_at(w, dir_at);
    if (!seen || !seen->stamp.file || !seen_dir || strcmp(seen_dir, dir) != 0) return JL_OK;
    jl_fs_stamp now;
    int code = w->fs->stat(w->fs, path, &now);
    if (code == ENOENT) return deleting ? JL_OK : conflict(err, path, false, "deleted");
    if (code) return jl_fs_error(err, path, "stat", code);
    if (jl_fs_stamp_same(&now, &seen->stamp) && !seen->racy) return JL_OK;

    /* The stamp cannot decide: the bytes do. */
    const uint64_t expected = seen->print ? seen->print : fallback_print;
    if (!expected) return conflict(err, path, deleting, "changed");
    const size_t mark = w->scratch.used;
    char *text;
    size_t size;
    jl_fs_stamp read_stamp;
    code = w->fs->read_file(w->fs, path, JL_ARCHIVE_FILE_MAX, &w->scratch, &text, &size, &read_stamp);
    uint64_t print = code == 0 ? jli_text_print(text, size) : 0;
    jl_arena_pop_to(&w->scratch, mark);
    if (code == ENOENT) return deleting ? JL_OK : conflict(err, path, false, "deleted");
    if (code == EFBIG || (code == 0 && print != expected)) return conflict(err, path, deleting, "changed");
    if (code) return jl_fs_error(err, path, "read_file", code);
    /* The same bytes: the new stamp stands for them from now on. */
    seen->stamp = read_stamp;
    seen->racy = jl_fs_stamp_is_racy(&read_stamp, jl_platform_wall_ns());
    seen->print = print;
    return JL_OK;
}
