/* fix_duplicates.c - `juliet validate --fix-duplicates`: after a merge, gives
 * the later of two entities that carry one ID a fresh ID, and renames a file
 * named after another entity's ID to its own (cli.h).
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
 * is written atomically (jl_fs_write_atomic, then a directory sync, as a
 * world save does) before the file it came from is removed or rewritten, so
 * a failure never loses either entity. References to N are left as they
 * are: which of the two entities each one meant is a person's call.
 *
 * Only two files that carry one ID are a duplicate. A file named after
 * another ID (M.jasset carrying N) whose own ID's name is free, or taken by
 * a file that is misnamed in turn (swapped files: A.jasset holding B and
 * B.jasset holding A), is a misnamed file: it is renamed to its own ID's
 * name and no ID changes. Files in a cycle go through a temporary name
 * (A -> temporary, B -> A, temporary -> B), each step an atomic rename; a
 * failed step undoes the steps before it, so both texts always stay on
 * disk. A file named after another ID whose own ID's name holds that ID is
 * a duplicate, as above.
 *
 * The repair takes the world's lock before it reads anything and holds it
 * until it is done, so no save by another program lands between what it
 * read and what it writes. If another writer holds the lock, the pass only
 * reports: every file stays as it is.
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
    jl_arena scratch;      /* one file at a time, above the listing and the claims */
    struct claim *claimed; /* IDs carried by files none of which has the ID's name */
    uint32_t claimed_mask;
    jl_world_lock lock;                 /* taken before the first read, held to the end */
    char lock_error[JL_ERROR_TEXT_MAX]; /* why it is not held: every repair is left */
    bool lock_reported;
    jl_arena *out; /* the caller's: jl_cli_moved_id records, contiguous */
    jl_cli_moved_id *moved;
    uint32_t moved_count;
    uint32_t renamed_count; /* misnamed files renamed to their ID's name */
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

/* Reads the file at path into the scratch arena: 0 or an errno value. */
static int read_text(fixer *f, const char *path, char **text, size_t *size)
{
    return f->fs->read_file(f->fs, path, JL_ARCHIVE_FILE_MAX, &f->scratch, text, size, NULL);
}

/* The ID the file at path carries: 1 and *id if it carries a valid one, 0
 * if there is no file, -1 if it cannot be read, has conflict markers or
 * carries no valid id. The scratch arena is restored. */
static int id_of_file(fixer *f, const char *path, uint64_t *id)
{
    const size_t mark = f->scratch.used;
    char *text;
    size_t size, at, len;
    int code = read_text(f, path, &text, &size);
    int result = code == ENOENT ? 0 : -1;
    if (code == 0 && !has_conflict_markers(text, size) && id_of_text(f, text, size, id, &at, &len)) result = 1;
    jl_arena_pop_to(&f->scratch, mark);
    return result;
}

/* ---- claims: open addressing, id 0 = empty ---- */

struct claim {
    uint64_t id;
    const char *path; /* the first file that carries it, in the pass's arena */
};

/* The slot of id: its claim, or the empty slot where it goes. */
static struct claim *claim_slot(fixer *f, uint64_t id)
{
    uint32_t i = (uint32_t)((id * 0x9e3779b97f4a7c15ull) >> 32) & f->claimed_mask;
    for (; f->claimed[i].id && f->claimed[i].id != id; i = (i + 1) & f->claimed_mask) {
    }
    return &f->claimed[i];
}

/* The path of the file that claimed id before, or NULL after claiming it
 * for path (kept in the scratch arena below the per-file mark). */
static const char *claim(fixer *f, uint64_t id, const char *path)
{
    struct claim *c = claim_slot(f, id);
    if (c->id) return c->path;
    c->id = id;
    c->path = path;
    return NULL;
}

/* The path of the file that claimed id, or NULL; claims nothing. */
static const char *claimant(fixer *f, uint64_t id)
{
    const struct claim *c = claim_slot(f, id);
    return c->id ? c->path : NULL;
}

/* ---- moving an entity to a fresh ID ---- */

static const char NOT_REPAIRED[] = "duplicate ID not repaired", NOT_RENAMED[] = "misnamed file not renamed";

/* "path: what: why", what being NOT_REPAIRED or NOT_RENAMED. */
static void print_left(const char *path, const char *what, const char *why)
{
    printf("%s: %s: %s\n", shown(path), what, why);
}

static void print_not_repaired(const char *path, const char *why) { print_left(path, NOT_REPAIRED, why); }

/* True if the world's lock is held, so path may be written; else false,
 * with why it is not printed for the first file left (what: as for
 * print_left). */
static bool can_write(fixer *f, const char *path, const char *what)
{
    if (f->lock.held) return true;
    if (!f->lock_reported) print_left(path, what, f->lock_error);
    f->lock_reported = true;
    return false;
}

/* Mints an ID whose file does not exist yet, rewrites text's id value at
 * [at, at + len) to it, checks that the result loads (the world then holds
 * it), and writes it atomically to its file. from names the source in
 * messages. True if the file is written and durable. */
static bool write_with_fresh_id(fixer *f, const char *from, const char *text, size_t size, size_t at, size_t len,
                                uint64_t *new_id, char *new_path)
{
    if (!can_write(f, from, NOT_REPAIRED)) return false;
    do {
        *new_id = jl_world_mint_id(f->world);
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

/* ---- renaming misnamed files ---- */

/* A file on the way to its ID's name: where it is and the ID it carries. */
typedef struct misnamed {
    char path[JL_ERROR_PATH_MAX];
    uint64_t id;
} misnamed;

/* The suffix of the name a file waits under while the others of a cycle
 * move. Not .tmp, which the loader deletes: a text left there by a crash
 * ends in .jasset, so that validate reports it as a file whose name does
 * not match its ID, with the name it needs. */
#define SWAP_SUFFIX ".swap.jasset"

/* The most files one rename moves: a misnamed file and those in its way. */
enum { CHAIN_MAX = 1024 };

/* Why a rename is left: file, in the way of it, carries id as other does
 * (a duplicate, repaired on its own). */
static void in_the_way(char *why, size_t size, const char *file, uint64_t id, const char *other)
{
    snprintf(why, size, "%s, in the way, carries 0x%016llx, as %s does (run again once that is repaired)", shown(file),
             (unsigned long long)id, shown(other));
}

/* Renames the file at path, named after name_id and carrying id, to id's
 * name, where that name is free or held by a file that is misnamed in turn:
 * each file in the way moves to its own ID's name, which must be free, or
 * path's (a cycle, as two swapped files, goes through a temporary name).
 * True if every file of the chain is renamed; false, after printing why
 * (NOT_RENAMED) and with every file where it was, if one in the way carries
 * no valid ID or an ID another file carries, or if a rename fails (the ones
 * before it undone; a file that cannot be moved back is named). */
static bool rename_to_own_name(fixer *f, const char *path, uint64_t name_id, uint64_t id)
{
    misnamed *files = jl_arena_push(&f->scratch, CHAIN_MAX * sizeof *files, _Alignof(misnamed));
    const char **from = jl_arena_push(&f->scratch, (CHAIN_MAX + 1) * 2 * sizeof *from, _Alignof(char *));
    if (!files || !from) {
        print_left(path, NOT_RENAMED, "out of memory");
        return false;
    }
    const char **to = from + CHAIN_MAX + 1;
    snprintf(files[0].path, sizeof files[0].path, "%s", path);
    files[0].id = id;
    uint32_t n = 1;
    char end[JL_ERROR_PATH_MAX], why[JL_ERROR_TEXT_MAX] = "";
    /* Follows the names each file needs until one is free or is path's. */
    while (files[n - 1].id != name_id) {
        uint64_t wanted = files[n - 1].id, held;
        if (!jl_world_entity_path(end, sizeof end, f->dir, wanted)) {
            snprintf(why, sizeof why, "path too long");
            break;
        }
        int r = id_of_file(f, end, &held);
        if (r == 0) {
            /* Free, unless a file listed before carries that ID too (the
             * caller checked path's own). */
            const char *other = n > 1 ? claimant(f, wanted) : NULL;
            if (other && strcmp(other, files[n - 1].path) != 0)
                in_the_way(why, sizeof why, files[n - 1].path, wanted, other);
            break;
        }
        if (r < 0) {
            snprintf(why, sizeof why, "%s, in the way, carries no valid ID", shown(end));
            break;
        }
        for (uint32_t i = 0; i < n && !why[0]; i++)
            if (files[i].id == held) in_the_way(why, sizeof why, end, held, files[i].path);
        if (!why[0] && n == CHAIN_MAX) snprintf(why, sizeof why, "more than %u files in the way", CHAIN_MAX - 1);
        if (why[0]) break;
        snprintf(files[n].path, sizeof files[n].path, "%s", end);
        files[n++].id = held;
    }
    if (why[0]) {
        print_left(path, NOT_RENAMED, why);
        return false;
    }
    bool cycle = files[n - 1].id == name_id;
    if (cycle) snprintf(end, sizeof end, "%s", path);
    if (!can_write(f, path, NOT_RENAMED)) return false;
    char temp[JL_ERROR_PATH_MAX];
    /* A name taken is a leftover of a process that had this pid: never
     * renamed over. */
    for (int attempt = 0; cycle; attempt++) {
        if (attempt == 64 || !jl_fs_unique_name(temp, sizeof temp, path, SWAP_SUFFIX)) {
            print_left(path, NOT_RENAMED, attempt == 64 ? "no free temporary name" : "path too long");
            return false;
        }
        if (access(temp, F_OK) != 0) break;
    }

    /* Last file first, each into the name the one before it vacated. */
    uint32_t steps = 0;
    if (cycle) {
        from[steps] = files[0].path;
        to[steps++] = temp;
    }
    for (uint32_t i = n; i-- > 0;) {
        from[steps] = cycle && i == 0 ? temp : files[i].path;
        to[steps++] = i + 1 < n ? files[i + 1].path : end;
    }
    uint32_t done = 0;
    int code = 0;
    while (done < steps && (code = f->fs->rename(f->fs, from[done], to[done])) == 0) done++;
    jl_error err = {0};
    char line[JL_ERROR_TEXT_MAX];
    if (code) {
        jl_fs_error(&err, from[done], "rename", code);
        print_left(path, NOT_RENAMED, jl_error_format(&err, line, sizeof line));
        /* Back as it was: each name taken is free again once the steps after it are undone. */
        while (done && f->fs->rename(f->fs, to[done - 1], from[done - 1]) == 0) done--;
        for (uint32_t i = 0; i < done; i++)
            printf("%s: moved to %s, and could not be moved back: rename it by hand\n", shown(from[i]), shown(to[i]));
        f->fs->sync_dir(f->fs, f->entities_dir);
        return false;
    }
    code = f->fs->sync_dir(f->fs, f->entities_dir);
    for (uint32_t i = 0; i < n; i++)
        printf("renamed %s to %s, the name of its ID 0x%016llx\n", shown(files[i].path),
               shown(i + 1 < n ? files[i + 1].path : end), (unsigned long long)files[i].id);
    if (code) {
        jl_fs_error(&err, f->entities_dir, "sync_dir", code);
        printf("renamed %s and the files in its way, but %s\n", shown(path), jl_error_format(&err, line, sizeof line));
    }
    f->renamed_count += n;
    return true;
}

/* ---- a file whose name is not its ID's ---- */

/* A file whose name is not its ID's: a duplicate if another file carries
 * its ID (it gets a fresh one), a misnamed file if its name is another ID's
 * and no other file carries its ID (it is renamed). */
static void move_misnamed(fixer *f, const char *name, const char *path, const char *text, size_t size)
{
    uint64_t id, name_id = jl_world_id_of_file_name(name);
    size_t at, len;
    if (!id_of_text(f, text, size, &id, &at, &len) || name_id == id) return;
    char kept[JL_ERROR_PATH_MAX], new_path[JL_ERROR_PATH_MAX];
    if (!jl_world_entity_path(kept, sizeof kept, f->dir, id)) return;
    char *kept_text;
    size_t kept_size;
    uint64_t kept_id = 0;
    size_t kept_at, kept_len;
    int code = read_text(f, kept, &kept_text, &kept_size);
    if (code && code != ENOENT) {
        /* Which entity the ID's own file holds is unknown: it may be path's. */
        jl_error err;
        char line[JL_ERROR_TEXT_MAX];
        jl_fs_error(&err, kept, "read_file", code);
        print_not_repaired(path, jl_error_format(&err, line, sizeof line));
        return;
    }
    bool kept_other = code == 0 && !has_conflict_markers(kept_text, kept_size) &&
                      id_of_text(f, kept_text, kept_size, &kept_id, &kept_at, &kept_len) && kept_id != id;
    if (code == ENOENT || kept_other) {
        /* The ID's own file does not hold it: the first in name order to
         * carry it keeps it, and moves there if its name is another ID's. */
        const char *first = claim(f, id, path);
        if (!first) {
            if (name_id) rename_to_own_name(f, path, name_id, id);
            return;
        }
        snprintf(kept, sizeof kept, "%s", first);
    } else if (code == 0 && kept_size == size && memcmp(kept_text, text, size) == 0) {
        printf(
            "%s: duplicate ID not repaired: a byte-identical copy of %s, not a second entity "
            "(delete it if it is not needed)\n",
            shown(path), shown(kept));
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
        printf(
            "%s: has merge conflict markers, and git does not list it as created on both sides: "
            "resolve it by hand\n",
            shown(path));
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
        printf(
            "split %s, created on both sides of a merge with ID 0x%016llx: the side git calls ours "
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
        if (read_text(f, path, &text, &size) == 0) {
            if (has_conflict_markers(text, size)) split_conflict(f, name, kept_path);
            else move_misnamed(f, name, kept_path, text, size);
        }
        jl_arena_pop_to(&f->scratch, mark);
    }
}

jl_status jl_cli_fix_duplicates(const char *dir, jl_arena *out, jl_cli_moved_id **moved, uint32_t *count)
{
    return jl_cli_fix_duplicates_fs(jl_fs_native(), dir, out, moved, count);
}

jl_status jl_cli_fix_duplicates_fs(const jl_fs *fs, const char *dir, jl_arena *out, jl_cli_moved_id **moved,
                                   uint32_t *count)
{
    fixer f = {.fs = fs, .dir = dir, .out = out};
    *moved = NULL;
    *count = 0;
    /* A fresh random ID tag; the load never locks (keep_temp_files), as
     * this pass holds the lock itself. */
    jl_world_desc desc = {.capacity = FIX_CAPACITY, .fs = fs, .keep_temp_files = true};
    jl_status s = jl_world_new(&desc, &f.world);
    if (s != JL_OK) return s;
    if ((s = jl_arena_init(&f.scratch, (size_t)1 << 30)) != JL_OK) {
        jl_world_free(f.world);
        return s;
    }
    /* Locked before the first read: a save landing between what the pass
     * reads and what it writes would be reverted or lost. */
    jl_error err = {0};
    if (jl_world_lock_acquire(&f.lock, fs, dir, LOCK_WAIT_MS, &f.scratch, &err) != JL_OK)
        jl_error_format(&err, f.lock_error, sizeof f.lock_error);
    else if (f.lock.notice[0]) fprintf(stderr, "juliet: %s\n", f.lock.notice);
    jl_world_load(f.world, dir);
    if (jl_fs_join(f.entities_dir, sizeof f.entities_dir, dir, "Entities")) fix_all(&f);
    jl_world_lock_release(&f.lock, fs);
    jl_arena_release(&f.scratch);
    jl_world_free(f.world);
    fflush(stdout); /* the repairs before their count */
    fprintf(stderr, "%s: %u misnamed file%s renamed\n", dir, f.renamed_count, f.renamed_count == 1 ? "" : "s");
    *moved = f.moved;
    *count = f.moved_count;
    return JL_OK;
}

static int by_old_id(const void *a, const void *b)
{
    uint64_t x = ((const jl_cli_moved_id *)a)->old_id, y = ((const jl_cli_moved_id *)b)->old_id;
    return x < y ? -1 : x > y;
}

uint32_t jl_cli_print_moved_references(const jl_world *world, const char *dir, jl_cli_moved_id *moved, uint32_t count)
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
