/* fix_duplicates.c - `juliet validate --fix-duplicates`: after a merge, gives
 * the later of two entities that carry one ID a fresh ID (cli.h).
 *
 * A file is named by its ID, so two entities with one ID N reach a world
 * in one of two ways:
 * - both branches created Entities/N.jasset: git reports an add/add
 *   conflict, leaves the file with conflict markers and keeps both versions
 *   in its index (stages 2 and 3, no base version). The version git calls
 *   ours keeps N; the other (theirs) is the later one.
 * - a second file under another name carries N (a side kept by hand, a
 *   merge tool's N_REMOTE_*.jasset, a copy): the file whose name is not N's
 *   is the later one; where no file has N's name, the second in name order.
 *   A byte-identical copy of N.jasset is a copy, not a second entity: it is
 *   left for a person to delete.
 * The later entity gets an ID minted by this run's own session tag and the
 * file named by it, with every byte of its text kept but the id value. It
 * is written atomically (jl_fs_write_atomic, then a directory sync, under
 * the world's lock, as a world save does) before the file it came from is
 * removed or rewritten, so a failure never loses either entity. References
 * to N are left as they are: which of the two entities each one meant is a
 * person's call.
 */
#define _POSIX_C_SOURCE 200809L /* popen, access */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "juliet/archive.h"
#include "juliet/fs.h"
#include "juliet/world_lock.h"

/* As the other world commands: capacity is address space, not memory. */
enum { FIX_CAPACITY = 4u << 20, GIT_COMMAND_MAX = 4 * JL_ERROR_PATH_MAX };
/* How long the repair waits for another writer's lock, as a save does. */
enum { LOCK_WAIT_MS = 2000 };

typedef struct fixer {
    jl_world *world; /* loaded from dir; mints the fresh IDs */
    const jl_fs *fs;
    const char *dir;
    char entities_dir[JL_ERROR_PATH_MAX];
    jl_arena scratch;  /* one file at a time, above the listing and the claims */
    struct claim *claimed; /* IDs carried by files none of which has the ID's name */
    uint32_t claimed_mask;
    jl_world_lock lock; /* taken before the first write */
    bool lock_failed;
    jl_arena *out;     /* the caller's: jl_cli_moved_id records, contiguous */
    jl_cli_moved_id *moved;
    uint32_t moved_count;
} fixer;

/* ---- text ---- */

/* A path made safe to print (jl_text_escape): one of a few buffers used in
 * turn, so one printf can show up to ESCAPED paths. */
enum { ESCAPED = 4 };
static const char *shown(const char *path)
{
    static char buffers[ESCAPED][4 * JL_ERROR_PATH_MAX + 1];
    static unsigned next;
    char *out = buffers[next++ % ESCAPED];
    jl_text_escape(path, strlen(path), JL_ESCAPE_TERMINAL, out, sizeof buffers[0]);
    return out;
}

static bool line_starts_with(const char *text, size_t size, const char *prefix)
{
    size_t n = strlen(prefix);
    for (size_t i = 0; i + n <= size;) {
        if (memcmp(text + i, prefix, n) == 0) return true;
        const char *nl = memchr(text + i, '\n', size - i);
        if (!nl) break;
        i = (size_t)(nl - text) + 1;
    }
    return false;
}

static bool has_conflict_markers(const char *text, size_t size)
{
    return line_starts_with(text, size, "<<<<<<<") && line_starts_with(text, size, ">>>>>>>");
}

/* The ID a file's text carries, and where its value is; false if the text
 * does not tokenize or has no valid id. Uses the scratch arena. */
static bool id_of_text(fixer *f, const char *text, size_t size, uint64_t *id, size_t *at, size_t *len)
{
    jl_archive ar;
    jl_error err;
    if (jl_archive_tokenize(&ar, &f->scratch, text, size, NULL, &err) != JL_OK) return false;
    const jl_archive_entry *e = jl_archive_find(&ar, "id");
    if (!e || jl_value_parse(JL_FIELD_ENTITY_REF, 0, e->value, e->value_size, id, NULL, &err) != JL_OK || !*id)
        return false;
    *at = (size_t)(e->value - text);
    *len = e->value_size;
    return true;
}

/* ---- claims: open addressing, id 0 = empty ---- */

struct claim {
    uint64_t id;
    const char *path; /* the first file that carries it, in the pass's arena */
};

/* The path of the file that claimed id before, or NULL after claiming it
 * for path (kept in the scratch arena below the per-file mark). */
static const char *claim(fixer *f, uint64_t id, const char *path)
{
    uint32_t i = (uint32_t)((id * 0x9e3779b97f4a7c15ull) >> 32) & f->claimed_mask;
    for (; f->claimed[i].id; i = (i + 1) & f->claimed_mask)
        if (f->claimed[i].id == id) return f->claimed[i].path;
    f->claimed[i].id = id;
    f->claimed[i].path = path;
    return NULL;
}

/* ---- moving an entity to a fresh ID ---- */

static void print_not_repaired(const char *path, const char *why)
{
    printf("%s: duplicate ID not repaired: %s\n", shown(path), why);
}

/* Takes the world's lock for the first write, as a save would; false (and
 * the reason printed once) if another writer holds it. */
static bool lock_world(fixer *f, const char *path)
{
    if (f->lock.held) return true;
    jl_error err = {0};
    char line[JL_ERROR_TEXT_MAX];
    if (!f->lock_failed &&
        jl_world_lock_acquire(&f->lock, f->fs, f->dir, LOCK_WAIT_MS, &f->scratch, &err) == JL_OK)
        return true;
    if (!f->lock_failed) print_not_repaired(path, jl_error_format(&err, line, sizeof line));
    f->lock_failed = true;
    return false;
}

/* Mints an ID whose file does not exist yet, rewrites text's id value at
 * [at, at + len) to it, checks that the result loads (the world then holds
 * it), and writes it atomically to its file. from names the source in
 * messages. True if the file is written and durable. */
static bool write_with_fresh_id(fixer *f, const char *from, const char *text, size_t size, size_t at, size_t len,
                                uint64_t *new_id, char *new_path)
{
    if (!lock_world(f, from)) return false;
    do {
        *new_id = jl_manager_mint_id(jl_world_manager(f->world));
        if (!jl_world_entity_path(new_path, JL_ERROR_PATH_MAX, f->dir, *new_id)) {
            print_not_repaired(from, "path too long");
            return false;
        }
    } while (access(new_path, F_OK) == 0);
    char value[JL_VALUE_TEXT_MAX];
    uint32_t n = jl_value_format(JL_FIELD_ENTITY_REF, new_id, value);
    size_t new_size = size - len + n;
    char *copy = jl_arena_push(&f->scratch, new_size + 1, 1);
    if (!copy) {
        print_not_repaired(from, "out of memory");
        return false;
    }
    memcpy(copy, text, at);
    memcpy(copy + at, value, n);
    memcpy(copy + at + n, text + at + len, size - at - len);
    copy[new_size] = '\0';

    jl_error err = {0};
    char line[JL_ERROR_TEXT_MAX];
    if (jl_world_load_entity_text(f->world, from, copy, new_size, false, NULL, &err) != JL_OK) {
        print_not_repaired(from, jl_error_format(&err, line, sizeof line));
        return false;
    }
    if (jl_fs_write_atomic(f->fs, new_path, copy, new_size, &err) != JL_OK) {
        print_not_repaired(from, jl_error_format(&err, line, sizeof line));
        return false;
    }
    int code = f->fs->sync_dir(f->fs, f->entities_dir);
    if (code) {
        jl_fs_error(&err, f->entities_dir, "sync_dir", code);
        print_not_repaired(from, jl_error_format(&err, line, sizeof line));
        return false;
    }
    return true;
}

static void record_move(fixer *f, uint64_t old_id, uint64_t new_id)
{
    jl_cli_moved_id *m = jl_arena_push(f->out, sizeof *m, _Alignof(jl_cli_moved_id));
    if (!m) return;
    if (!f->moved) f->moved = m;
    *m = (jl_cli_moved_id){old_id, new_id};
    f->moved_count++;
}

/* A file whose name is not its ID's, carrying an ID another file carries. */
static void move_misnamed(fixer *f, const char *name, const char *path, const char *text, size_t size)
{
    uint64_t id;
    size_t at, len;
    if (!id_of_text(f, text, size, &id, &at, &len) || jl_world_id_of_file_name(name) == id) return;
    char kept[JL_ERROR_PATH_MAX], new_path[JL_ERROR_PATH_MAX];
    if (!jl_world_entity_path(kept, sizeof kept, f->dir, id)) return;
    char *kept_text;
    size_t kept_size;
    int code = f->fs->read_file(f->fs, kept, JL_ARCHIVE_FILE_MAX, &f->scratch, &kept_text, &kept_size);
    if (code == ENOENT) {
        /* No file of the ID's own name: the first in name order keeps it. */
        const char *first = claim(f, id, path);
        if (!first) return;
        snprintf(kept, sizeof kept, "%s", first);
    } else if (code == 0 && kept_size == size && memcmp(kept_text, text, size) == 0) {
        printf("%s: duplicate ID not repaired: a byte-identical copy of %s, not a second entity "
               "(delete it if it is not needed)\n", shown(path), shown(kept));
        return;
    }
    uint64_t new_id;
    if (!write_with_fresh_id(f, path, text, size, at, len, &new_id, new_path)) return;
    jl_error err;
    const char *op = "remove", *where = path;
    code = f->fs->remove(f->fs, path);
    if (code == 0) {
        op = "sync_dir";
        where = f->entities_dir;
        code = f->fs->sync_dir(f->fs, where);
    }
    if (code) {
        char line[JL_ERROR_TEXT_MAX];
        jl_fs_error(&err, where, op, code);
        printf("wrote %s as 0x%016llx, but %s\n", shown(new_path), (unsigned long long)new_id,
               jl_error_format(&err, line, sizeof line));
    } else {
        printf("moved %s to %s: it carried 0x%016llx, which %s keeps; it is now 0x%016llx\n", shown(path),
               shown(new_path), (unsigned long long)id, shown(kept), (unsigned long long)new_id);
    }
    record_move(f, id, new_id);
}

/* ---- git's add/add conflict ---- */

/* s in single quotes for the shell, appended at out[*n]; false if it does
 * not fit. */
static bool shell_quote(char *out, size_t size, size_t *n, const char *s)
{
    if (*n + 1 >= size) return false;
    out[(*n)++] = '\'';
    for (; *s; s++) {
        const char *piece = *s == '\'' ? "'\\''" : NULL;
        size_t len = piece ? 4 : 1;
        if (*n + len + 2 >= size) return false;
        if (piece) memcpy(out + *n, piece, len);
        else out[*n] = *s;
        *n += len;
    }
    out[(*n)++] = '\'';
    out[*n] = '\0';
    return true;
}

/* Runs `git -C ENTITIES_DIR verb 'arg'` and reads its standard output into
 * the scratch arena (NUL-terminated); true if git ran and exited 0. */
static bool git_output(fixer *f, const char *verb, const char *arg, char **out, size_t *size)
{
    char command[GIT_COMMAND_MAX];
    size_t n = (size_t)snprintf(command, sizeof command, "git -C ");
    if (!shell_quote(command, sizeof command, &n, f->entities_dir)) return false;
    n += (size_t)snprintf(command + n, sizeof command - n, " %s ", verb);
    if (n >= sizeof command || !shell_quote(command, sizeof command, &n, arg)) return false;
    if (n + sizeof " 2>/dev/null" > sizeof command) return false;
    strcat(command, " 2>/dev/null");
    FILE *p = popen(command, "r");
    if (!p) return false;
    char *start = (char *)f->scratch.base + f->scratch.used;
    size_t total = 0;
    bool ok = true;
    for (;;) {
        char *chunk = jl_arena_push(&f->scratch, 65536, 1);
        if (!chunk) {
            ok = false;
            break;
        }
        size_t got = fread(chunk, 1, 65536, p);
        total += got;
        if (got < 65536) {
            jl_arena_pop_to(&f->scratch, (size_t)(chunk - (char *)f->scratch.base) + got);
            break;
        }
    }
    int status = pclose(p);
    char *nul = ok ? jl_arena_push(&f->scratch, 1, 1) : NULL;
    if (!nul || status != 0) return false;
    *nul = '\0';
    *out = start;
    *size = total;
    return true;
}

/* True if git lists name (in the entities directory) as added by both sides
 * of the merge: index stages 2 and 3 and no base version (stage 1). */
static bool git_added_by_both(fixer *f, const char *name)
{
    char *list;
    size_t size;
    if (!git_output(f, "ls-files -u -z --", name, &list, &size)) return false;
    unsigned stages = 0;
    /* Records "<mode> <object> <stage>\t<path>\0". */
    for (char *r = list; r < list + size; r += strlen(r) + 1) {
        char *tab = strchr(r, '\t');
        if (tab && tab > r && tab[-1] >= '1' && tab[-1] <= '3') stages |= 1u << (tab[-1] - '0');
    }
    return stages == ((1u << 2) | (1u << 3));
}

static void split_conflict(fixer *f, const char *name, const char *path)
{
    if (!git_added_by_both(f, name)) {
        printf("%s: has merge conflict markers, and git does not list it as created on both sides: "
               "resolve it by hand\n", shown(path));
        return;
    }
    char spec[JL_ERROR_PATH_MAX + 8], *ours, *theirs;
    size_t ours_size, theirs_size;
    snprintf(spec, sizeof spec, ":2:./%s", name);
    bool ok = git_output(f, "cat-file blob", spec, &ours, &ours_size);
    snprintf(spec, sizeof spec, ":3:./%s", name);
    ok = ok && git_output(f, "cat-file blob", spec, &theirs, &theirs_size);
    if (!ok) {
        print_not_repaired(path, "git cannot show both sides of the conflict");
        return;
    }
    uint64_t id, theirs_id;
    size_t at, len;
    if (!id_of_text(f, ours, ours_size, &id, &at, &len) || jl_world_id_of_file_name(name) != id ||
        !id_of_text(f, theirs, theirs_size, &theirs_id, &at, &len) || theirs_id != id) {
        print_not_repaired(path, "the two sides of the conflict do not both carry the ID of the file name");
        return;
    }
    /* Ours must load before anything is written; it then holds its ID. */
    jl_error err = {0};
    char line[JL_ERROR_TEXT_MAX], new_path[JL_ERROR_PATH_MAX];
    if (jl_world_load_entity_text(f->world, path, ours, ours_size, false, NULL, &err) != JL_OK) {
        print_not_repaired(path, jl_error_format(&err, line, sizeof line));
        return;
    }
    uint64_t new_id;
    if (!write_with_fresh_id(f, path, theirs, theirs_size, at, len, &new_id, new_path)) return;
    int code = 0;
    if (jl_fs_write_atomic(f->fs, path, ours, ours_size, &err) != JL_OK ||
        (code = f->fs->sync_dir(f->fs, f->entities_dir)) != 0) {
        if (code) jl_fs_error(&err, f->entities_dir, "sync_dir", code);
        printf("wrote the side git calls theirs to %s as 0x%016llx, but %s\n", shown(new_path),
               (unsigned long long)new_id, jl_error_format(&err, line, sizeof line));
    } else {
        printf("split %s, created on both sides of a merge with ID 0x%016llx: the side git calls ours "
               "keeps it there, theirs is now 0x%016llx in %s (git add both files)\n",
               shown(path), (unsigned long long)id, (unsigned long long)new_id, shown(new_path));
    }
    record_move(f, id, new_id);
}

/* ---- the pass ---- */

static void fix_all(fixer *f)
{
    jl_fs_entry *entries;
    uint32_t count;
    if (f->fs->list_dir(f->fs, f->entities_dir, &f->scratch, &entries, &count) != 0) return;
    size_t buckets = 64;
    while (buckets < (size_t)count * 2) buckets *= 2;
    f->claimed = jl_arena_push(&f->scratch, buckets * sizeof *f->claimed, _Alignof(struct claim));
    if (!f->claimed) return;
    memset(f->claimed, 0, buckets * sizeof *f->claimed);
    f->claimed_mask = (uint32_t)(buckets - 1);
    char path[JL_ERROR_PATH_MAX];
    for (uint32_t i = 0; i < count; i++) {
        const char *name = entries[i].name;
        size_t n = strlen(name);
        if (entries[i].kind != JL_FS_FILE || n < 7 || strcmp(name + n - 7, ".jasset") != 0) continue;
        if (!jl_fs_join(path, sizeof path, f->entities_dir, name)) continue;
        /* The path stays for the claims; the file's text goes after it. */
        char *kept_path = jl_arena_push(&f->scratch, strlen(path) + 1, 1);
        if (!kept_path) return;
        strcpy(kept_path, path);
        const size_t mark = f->scratch.used;
        char *text;
        size_t size;
        if (f->fs->read_file(f->fs, path, JL_ARCHIVE_FILE_MAX, &f->scratch, &text, &size) == 0) {
            if (has_conflict_markers(text, size)) split_conflict(f, name, kept_path);
            else move_misnamed(f, name, kept_path, text, size);
        }
        jl_arena_pop_to(&f->scratch, mark);
    }
}

jl_status jl_cli_fix_duplicates(const char *dir, jl_arena *out, jl_cli_moved_id **moved, uint32_t *count)
{
    fixer f = {.fs = jl_fs_native(), .dir = dir, .out = out};
    *moved = NULL;
    *count = 0;
    jl_world_desc desc = {.capacity = FIX_CAPACITY, .keep_temp_files = true}; /* a fresh random ID tag */
    jl_status s = jl_world_new(&desc, &f.world);
    if (s != JL_OK) return s;
    if ((s = jl_arena_init(&f.scratch, (size_t)1 << 30)) != JL_OK) {
        jl_world_free(f.world);
        return s;
    }
    jl_world_load(f.world, dir);
    if (jl_fs_join(f.entities_dir, sizeof f.entities_dir, dir, "Entities")) fix_all(&f);
    jl_world_lock_release(&f.lock, f.fs);
    jl_arena_release(&f.scratch);
    jl_world_free(f.world);
    *moved = f.moved;
    *count = f.moved_count;
    return JL_OK;
}

static int by_old_id(const void *a, const void *b)
{
    uint64_t x = ((const jl_cli_moved_id *)a)->old_id, y = ((const jl_cli_moved_id *)b)->old_id;
    return x < y ? -1 : x > y;
}

uint32_t jl_cli_print_moved_references(const jl_world *world, const char *dir, jl_cli_moved_id *moved,
                                       uint32_t count)
{
    if (!count) return 0;
    qsort(moved, count, sizeof *moved, by_old_id);
    uint32_t listed = 0;
    char kept[JL_ERROR_PATH_MAX], other[JL_ERROR_PATH_MAX];
    for (uint32_t i = 0; i < jl_world_reference_count(world); i++) {
        const jl_world_ref *r = jl_world_reference(world, i);
        jl_cli_moved_id key = {r->target, 0};
        const jl_cli_moved_id *m = bsearch(&key, moved, count, sizeof *moved, by_old_id);
        if (!m) continue;
        while (m > moved && m[-1].old_id == r->target) m--;
        for (; m < moved + count && m->old_id == r->target; m++) {
            if (!jl_world_entity_path(kept, sizeof kept, dir, m->old_id) ||
                !jl_world_entity_path(other, sizeof other, dir, m->new_id))
                continue;
            if (r->line) printf("%s:%u:%u: ", shown(r->path), r->line, r->col);
            else printf("%s: ", shown(r->path));
            printf("refers to 0x%016llx (%s): check whether the entity now 0x%016llx (%s) was meant\n",
                   (unsigned long long)m->old_id, shown(kept), (unsigned long long)m->new_id, shown(other));
            listed++;
        }
    }
    return listed;
}
