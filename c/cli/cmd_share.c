/* cmd_share.c - `juliet share` and `juliet unshare`: a world as a link and
 * back (snapshot.h), and with --changes the edits between two worlds as a
 * link and applied to a third (changes.h). The pipeline is the encoder,
 * raw deflate (the system zlib, level 9), base64url; and the inverse with
 * inflate capped at JL_SNAPSHOT_MAX_BYTES, so an expansion bomb is an
 * error, not a huge allocation. The browser does the same with
 * CompressionStream. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "cli.h"
#include "juliet/archive.h"
#include "juliet/changes.h"
#include "juliet/fs.h"
#include "juliet/snapshot.h"
#include "juliet/world.h"

/* Where links open when neither --base nor the world's share_base says:
 * the inspector `npm start` serves on this machine. */
static const char default_base[] = "http://localhost:5173/";

/* Bad data (as opposed to bad arguments): one line, no usage hint. */
static int refuse(const char *command, const char *format, ...)
{
    fprintf(stderr, "juliet %s: ", command);
    va_list args;
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
    return JL_CLI_USAGE;
}

/* Address space for the tool's buffers: the largest snapshot, deflated,
 * as text, plus room for scratch. Committed only as used. */
static const size_t arena_reserve = (size_t)JL_SNAPSHOT_MAX_BYTES * 4 + ((size_t)64 << 20);

static jl_status open_world(jl_world **world, bool keep_temp_files)
{
    jl_world_desc desc = {.capacity = JL_SNAPSHOT_MAX_ENTITIES, .keep_temp_files = keep_temp_files};
    return jl_world_new(&desc, world);
}

/* ---- share ---- */

static const char share_usage[] =
    "usage: juliet share DIR [--base URL]\n"
    "       juliet share --changes OLD NEW [--base URL]\n\n"
    "Prints a link that holds the whole world in DIR: every entity, its\n"
    "unknown keys and the world settings, encoded compactly, deflated and\n"
    "base64url-encoded after '#' (the fragment never reaches a server).\n"
    "Open it in the inspector, or write it back with `juliet unshare`.\n"
    "A link longer than a browser opens (1,000,000 characters) is still\n"
    "printed, and said to be: keep it in a file for Open snapshot file.\n"
    "--base URL   the page the link opens: the team's hosted inspector, an\n"
    "             http:// or https:// address (default: share_base in the\n"
    "             world's WorldSettings.jasset, else http://localhost:5173/,\n"
    "             which opens only on this machine)\n"
    "A world with load problems is refused (exit status 1): the link would\n"
    "silently leave the bad files out.\n\n"
    "--changes OLD NEW   a link that holds only the edits that turn the world\n"
    "             in OLD into the one in NEW (two checkouts of one world):\n"
    "             entities changed (only their changed keys), added and\n"
    "             deleted, with a fingerprint of OLD's files; apply it with\n"
    "             `juliet unshare --changes` or open it in the inspector over\n"
    "             the world. The base is NEW's share_base unless --base.\n";

/* Raw deflate (no zlib or gzip header), level 9, into out. */
static bool deflate_raw(const uint8_t *in, size_t size, uint8_t *out, size_t capacity, size_t *out_size)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK) return false;
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)size;
    z.next_out = out;
    z.avail_out = (uInt)capacity;
    int rc = deflate(&z, Z_FINISH);
    *out_size = z.total_out;
    deflateEnd(&z);
    return rc == Z_STREAM_END;
}

/* Why base cannot start a link, or NULL if it can: an http:// or https://
 * address naming a host, without user name or password, with no blank or
 * control character (which would split it in a shell or a chat message).
 * The inspector checks a share base the same way (web/src/lib/shareBase.js). */
static const char *base_problem(const char *base)
{
    static const char *const schemes[] = {"http://", "https://"};
    size_t scheme = 0;
    for (size_t s = 0; s < 2 && !scheme; s++) {
        size_t n = strlen(schemes[s]), i = 0;
        while (i < n && base[i] && (base[i] | 0x20) == schemes[s][i]) i++;
        if (i == n) scheme = n;
    }
    if (!scheme) return "not an http:// or https:// address";
    for (const unsigned char *c = (const unsigned char *)base; *c; c++)
        if (*c <= 0x20 || *c == 0x7f) return "it holds a blank or a control character";
    const size_t authority = strcspn(base + scheme, "/?#");
    if (authority == 0) return "it names no host";
    if (memchr(base + scheme, '@', authority)) return "it carries a user name or password";
    return NULL;
}

/* The world's share_base setting into out (JL_VALUE_TEXT_MAX bytes): true
 * if it is set. Its canonical text is the string itself, or "" when it is
 * empty (any other quoted form fails base_problem, as it should). */
static bool world_base(const jl_world *world, char *out)
{
    uint32_t size = 0;
    if (jl_world_settings_get(world, "share_base", out, &size) != JL_OK) return false;
    return !(size == 2 && out[0] == '"' && out[1] == '"');
}

/* Loads the world in dir for a link; 0, or the exit status after saying
 * why not (a world with load problems: the link would leave them out). */
static int load_for_link(const char *dir, jl_world **world)
{
    jl_status s = open_world(world, true);
    if (s != JL_OK) return jl_cli_fail("share", "cannot create a world: %s", jl_status_name(s));
    jl_status loaded = jl_world_load(*world, dir);
    uint32_t problems = jl_cli_print_diagnostics(stderr, *world);
    if (loaded == JL_ERR_NOT_FOUND || loaded == JL_ERR_IO || problems) {
        fprintf(stderr,
                "juliet share: %s has %u problem%s: fix them first (juliet validate), "
                "a link would leave those files out\n",
                dir, problems, problems == 1 ? "" : "s");
        jl_world_free(*world);
        *world = NULL;
        return JL_CLI_PROBLEMS;
    }
    return 0;
}

/* The base a link of world (in dir) opens at: base if given, else the
 * world's share_base (into setting, JL_VALUE_TEXT_MAX bytes), else the
 * local default, with a word that only this machine opens it. 0, or the
 * exit status after saying what is wrong with the setting. */
static int choose_base(const jl_world *world, const char *dir, char *setting, const char **base)
{
    if (*base) return 0;
    if (world_base(world, setting)) {
        const char *problem = base_problem(setting);
        if (problem)
            return refuse("share", "share_base '%s' in %s/WorldSettings.jasset: %s (fix it, or give --base URL)",
                          setting, dir, problem);
        *base = setting;
        return 0;
    }
    *base = default_base;
    fprintf(stderr,
            "juliet share: the link opens only on this machine; for one others can open, set "
            "share_base in WorldSettings.jasset or give --base URL (docs/inspector.md)\n");
    return 0;
}

/* Deflates bytes, prints `base#text` on stdout and sets *chars to the
 * text's length and *link_chars to the whole link's; 0 or the exit status. */
static int print_link(jl_arena *arena, const jl_snapshot_bytes *bytes, const char *base, size_t *packed_out,
                      size_t *chars, size_t *link_chars)
{
    size_t capacity = compressBound((uLong)bytes->size) + 64;
    uint8_t *packed = jl_arena_push(arena, capacity, 16);
    size_t packed_size = 0;
    if (!packed || !deflate_raw(bytes->data, bytes->size, packed, capacity, &packed_size))
        return jl_cli_fail("share", "deflate failed");
    *chars = jl_base64url_encoded_size(packed_size);
    char *text = jl_arena_push(arena, *chars + 1, 1);
    if (!text) return jl_cli_fail("share", "out of memory");
    jl_base64url_encode(packed, packed_size, text);
    /* A base that already has a fragment gets ours instead. */
    size_t base_size = strcspn(base, "#");
    printf("%.*s#%.*s\n", (int)base_size, base, (int)*chars, text);
    fflush(stdout); /* all of it before what stderr says of it */
    *packed_out = packed_size;
    *link_chars = base_size + 1 + *chars;
    return 0;
}

/* The name a world goes by in a change link: its folder's. */
static void world_name(const char *dir, char *out, size_t size)
{
    size_t end = strlen(dir);
    while (end > 1 && dir[end - 1] == '/') end--;
    size_t start = end;
    while (start > 0 && dir[start - 1] != '/') start--;
    snprintf(out, size, "%.*s", (int)(end - start), dir + start);
}

static int share_run(int argc, char **argv)
{
    const char *dirs[2] = {NULL, NULL}, *base = NULL;
    bool changes = false;
    int dir_count = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--base") == 0) {
            if (i + 1 >= argc) return jl_cli_fail("share", "--base needs a URL");
            base = argv[++i];
        } else if (strncmp(argv[i], "--base=", 7) == 0) {
            base = argv[i] + 7;
        } else if (strcmp(argv[i], "--changes") == 0) {
            changes = true;
        } else if (argv[i][0] == '-') {
            return jl_cli_fail("share", "unknown option '%s'", argv[i]);
        } else if (dir_count == 2) {
            return jl_cli_fail("share", "unexpected argument '%s'", argv[i]);
        } else {
            dirs[dir_count++] = argv[i];
        }
    }
    if (changes && dir_count != 2) return jl_cli_fail("share", "--changes needs two world directories, OLD and NEW");
    if (!changes && dir_count != 1) return jl_cli_fail("share", "expected one world directory");
    const char *problem = base ? base_problem(base) : NULL;
    if (problem) return jl_cli_fail("share", "--base %s: %s", base, problem);

    /* world: the one shared, or NEW; older: OLD. */
    jl_world *world = NULL, *older = NULL;
    const char *dir = dirs[changes ? 1 : 0];
    int result = changes ? load_for_link(dirs[0], &older) : 0;
    if (!result) result = load_for_link(dir, &world);
    char setting[JL_VALUE_TEXT_MAX];
    if (!result) result = choose_base(world, dir, setting, &base);
    jl_arena arena = {0};
    if (!result && jl_arena_init(&arena, arena_reserve) != JL_OK) result = jl_cli_fail("share", "out of memory");
    if (!result) {
        jl_error err = {0};
        jl_snapshot_bytes bytes;
        uint32_t count = 0;
        char name[JL_CHANGES_NAME_MAX + 1];
        world_name(dir, name, sizeof name);
        jl_status s = changes ? jl_changes_encode_worlds(name, older, world, &arena, &bytes, &count, &err)
                              : jl_snapshot_encode_world(world, &arena, &bytes, &err);
        size_t packed = 0, chars = 0, length = 0;
        if (s != JL_OK) result = refuse("share", "cannot encode %s: %s", dir, err.message);
        else result = print_link(&arena, &bytes, base, &packed, &chars, &length);
        if (!result && changes) {
            fprintf(stderr, "%s -> %s: %u entit%s changed, %zu bytes encoded, %zu deflated, %zu characters\n", dirs[0],
                    dir, count, count == 1 ? "y" : "ies", bytes.size, packed, chars);
        } else if (!result) {
            uint32_t n = jl_world_count(world);
            fprintf(stderr, "%s: %u entities, %zu bytes encoded, %zu deflated, %zu characters (%.2f per entity)\n", dir,
                    n, bytes.size, packed, chars, n ? (double)chars / n : 0.0);
        }
        if (!result && length > JL_SNAPSHOT_LINK_MAX)
            fprintf(stderr,
                    "juliet share: this link has %zu characters, more than a browser opens from its address "
                    "(%u): save it to a file and %s\n",
                    length, (unsigned)JL_SNAPSHOT_LINK_MAX,
                    changes ? "apply it with `juliet unshare --changes - DIR < FILE`"
                            : "open that with the inspector's Open snapshot file, or write the world back with "
                              "`juliet unshare - DIR < FILE`");
    }
    jl_arena_release(&arena);
    jl_world_free(world);
    jl_world_free(older);
    return result;
}

JL_CLI_COMMAND(share_command, "share", share_run, "print a link that holds a whole world", share_usage)

/* ---- unshare ---- */

static const char unshare_usage[] =
    "usage: juliet unshare LINK-OR-FRAGMENT DIR\n"
    "       juliet unshare --changes LINK-OR-FRAGMENT DIR\n\n"
    "Writes the world held by a link from `juliet share` (or the inspector)\n"
    "into DIR as .jasset files. LINK-OR-FRAGMENT is the whole link, or the\n"
    "text after its '#', or - to read either from standard input (links\n"
    "longer than the system's argument limit). DIR must not exist or be\n"
    "empty: a world is never merged into. The world is written beside DIR\n"
    "and renamed into place, so DIR holds all of it or nothing.\n"
    "Entities marked read-only (made by a newer version) are kept in the\n"
    "link but, as always, never written.\n\n"
    "--changes LINK DIR   applies a change link (`juliet share --changes`,\n"
    "             the inspector's Share changes) to the world in DIR and saves\n"
    "             it: changed keys set over each entity, added and deleted\n"
    "             entities. Prints each file it changed; an entity whose file\n"
    "             changed since the link was made (or an added ID the world\n"
    "             has) is a conflict, printed by path, and then nothing is\n"
    "             applied (exit status 1).\n";

/* Reads all of stdin into one buffer growing on arena; false past limit
 * bytes or on a read error. */
static bool read_stdin(jl_arena *arena, size_t limit, char **text, size_t *size)
{
    enum { CHUNK = 64 * 1024 };
    char *start = NULL;
    size_t used = 0, capacity = 0;
    for (;;) {
        if (used == capacity) {
            if (capacity > limit) return false;
            /* Chunks pushed back to back extend one contiguous buffer. */
            char *more = jl_arena_push(arena, CHUNK, 1);
            if (!more || (start && more != start + capacity)) return false;
            if (!start) start = more;
            capacity += CHUNK;
        }
        size_t got = fread(start + used, 1, capacity - used, stdin);
        used += got;
        if (got == 0) break;
    }
    *text = start;
    *size = used;
    return !ferror(stdin);
}

static const char bomb[] = "it expands beyond the snapshot size limit (an expansion bomb?)";

/* Raw inflate of in into a buffer growing on arena, never past
 * JL_SNAPSHOT_MAX_BYTES (plus one chunk). Rejects a stream that is cut
 * off, damaged, followed by more bytes, or that expands beyond the limit;
 * *why says which. */
static bool inflate_raw(jl_arena *arena, const uint8_t *in, size_t size, uint8_t **out, size_t *out_size,
                        const char **why)
{
    enum { CHUNK = 256 * 1024 };
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -15) != Z_OK) {
        *why = "inflate failed to start";
        return false;
    }
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)size;
    uint8_t *start = NULL;
    size_t capacity = 0;
    bool ok = false;
    for (;;) {
        if (z.total_out == capacity) {
            if (capacity > JL_SNAPSHOT_MAX_BYTES) {
                *why = bomb;
                break;
            }
            uint8_t *more = jl_arena_push(arena, CHUNK, 1);
            if (!more || (start && more != start + capacity)) {
                *why = "out of memory";
                break;
            }
            if (!start) start = more;
            capacity += CHUNK;
        }
        z.next_out = start + z.total_out;
        z.avail_out = (uInt)(capacity - z.total_out);
        int rc = inflate(&z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            if (z.total_out > JL_SNAPSHOT_MAX_BYTES) *why = bomb;
            else if (z.avail_in) *why = "bytes follow the end of the deflate stream";
            else ok = true;
            break;
        }
        if (rc == Z_OK || (rc == Z_BUF_ERROR && z.avail_in > 0)) continue;
        *why =
            rc == Z_BUF_ERROR ? "the deflate stream is cut off (an incomplete link?)" : "the deflate stream is damaged";
        break;
    }
    *out = start;
    *out_size = z.total_out;
    inflateEnd(&z);
    return ok;
}

/* The inflated bytes of a link (or its fragment, or - for stdin), on
 * arena: 0, or the exit status after saying why there are none. */
static int link_bytes(jl_arena *arena, const char *link, const char *what, uint8_t **bytes, size_t *bytes_size)
{
    char *input = (char *)link;
    size_t input_size = strlen(link);
    if (strcmp(link, "-") == 0 && !read_stdin(arena, (size_t)JL_SNAPSHOT_MAX_TEXT + 4096, &input, &input_size))
        return jl_cli_fail("unshare", "cannot read the link from standard input (or it is too long)");
    size_t text_size;
    const char *text = jl_snapshot_link_payload(input, input_size, &text_size);
    jl_error err = {0};
    uint8_t *packed = NULL;
    size_t packed_size = 0;
    const char *why = NULL;
    if (text_size == 0) return refuse("unshare", "the link holds no %s (nothing after '#')", what);
    if (text_size > JL_SNAPSHOT_MAX_TEXT)
        return refuse("unshare", "the %s text is %zu characters, more than the limit %u", what, text_size,
                      (unsigned)JL_SNAPSHOT_MAX_TEXT);
    if (!(packed = jl_arena_push(arena, jl_base64url_decoded_size_max(text_size) + 1, 16)))
        return jl_cli_fail("unshare", "out of memory");
    if (jl_base64url_decode(text, text_size, packed, jl_base64url_decoded_size_max(text_size) + 1, &packed_size,
                            &err) != JL_OK)
        return refuse("unshare", "not a %s link: %s", what, err.message);
    if (!inflate_raw(arena, packed, packed_size, bytes, bytes_size, &why))
        return refuse("unshare", "not a %s link: %s", what, why);
    return 0;
}

/* Writes the world a snapshot holds into the new directory dir. */
static int unshare_world(const uint8_t *bytes, size_t bytes_size, const char *dir)
{
    jl_world *world = NULL;
    jl_error err = {0};
    int result = JL_CLI_OK;
    if (open_world(&world, false) != JL_OK) {
        result = jl_cli_fail("unshare", "cannot create a world");
    } else if (jl_snapshot_decode_world(bytes, bytes_size, world, &err) != JL_OK) {
        result = refuse("unshare", "not a valid snapshot: %s (%s)", err.message, jl_status_name(err.status));
    } else {
        jl_save_report report;
        memset(&report, 0, sizeof report);
        jl_status s = jl_world_save_new(world, dir, &report);
        jl_cli_print_save_problems(stderr, &report);
        if (s != JL_OK) {
            fprintf(stderr, "juliet unshare: the save into %s failed\n", dir);
            result = JL_CLI_USAGE;
        } else {
            uint32_t read_only = 0;
            for (jl_world_iter it = jl_world_iter_all(world); jl_world_next(&it);)
                if (it.entity->flags & JL_ENTITY_READ_ONLY) read_only++;
            fprintf(stderr, "%s: %u entities, %u files written", dir, jl_world_count(world), report.written_count);
            if (read_only) fprintf(stderr, " (%u read-only entities not written)", read_only);
            fprintf(stderr, "\n");
        }
    }
    jl_world_free(world);
    return result;
}

/* What unshare --changes says of each entity: applied ones on stdout,
 * conflicts and failures on stderr, by file path. */
static void say_outcome(void *ctx, const jl_change_report *r)
{
    const char *dir = ctx;
    char path[JL_ERROR_PATH_MAX];
    if (r->id) snprintf(path, sizeof path, "Entities/%llu.jasset", (unsigned long long)r->id);
    else snprintf(path, sizeof path, "WorldSettings.jasset");
    static const char *const done[] = {
        [JL_CHANGE_ADDED] = "added", [JL_CHANGE_REMOVED] = "deleted", [JL_CHANGE_MODIFIED] = "changed"};
    if (r->outcome == JL_CHANGE_APPLIED) {
        printf("%s %s\n", done[r->kind], path);
    } else if (r->outcome == JL_CHANGE_FAILED) {
        fprintf(stderr, "%s/%s: not applied: %s\n", dir, path, r->err->message);
    } else if (r->kind == JL_CHANGE_ADDED) {
        fprintf(stderr, "%s/%s: conflict: the link adds an entity with this ID, and the world has one\n", dir, path);
    } else {
        fprintf(stderr, "%s/%s: conflict: the file changed (or is gone) since the link was made\n", dir, path);
    }
}

/* Applies the change link in bytes to the world in dir and saves it:
 * nothing if any entity conflicts or fails. */
static int unshare_changes(jl_arena *arena, const uint8_t *bytes, size_t bytes_size, const char *dir)
{
    jl_changes changes;
    jl_error err = {0};
    if (jl_changes_decode(bytes, bytes_size, arena, &changes, &err) != JL_OK)
        return refuse("unshare", "not a valid change link: %s", err.message);
    jl_world *world = NULL;
    if (open_world(&world, false) != JL_OK) return jl_cli_fail("unshare", "cannot create a world");
    jl_status loaded = jl_world_load(world, dir);
    uint32_t problems = jl_cli_print_diagnostics(stderr, world);
    int result = JL_CLI_OK;
    char name[JL_CHANGES_NAME_MAX + 1];
    world_name(dir, name, sizeof name);
    if (loaded == JL_ERR_NOT_FOUND || loaded == JL_ERR_IO || problems) {
        fprintf(stderr, "juliet unshare: %s has %u problem%s: fix them first (juliet validate)\n", dir, problems,
                problems == 1 ? "" : "s");
        result = JL_CLI_PROBLEMS;
    } else {
        if (strlen(name) != changes.world_size || memcmp(name, changes.world, changes.world_size) != 0)
            fprintf(stderr, "juliet unshare: the link was made for a world named '%.*s', applying it to %s\n",
                    (int)changes.world_size, changes.world, dir);
        uint32_t applied = 0, conflicts = 0, failed = 0;
        jl_status s = jl_changes_apply(world, &changes, JL_CHANGES_ALL_OR_NOTHING, arena, say_outcome, (void *)dir,
                                       &applied, &conflicts, &failed);
        if (s != JL_OK) {
            result = jl_cli_fail("unshare", "cannot apply the link: %s", jl_status_name(s));
        } else if (conflicts || failed) {
            fprintf(stderr, "juliet unshare: %u conflict%s, %u failure%s: nothing applied to %s\n", conflicts,
                    conflicts == 1 ? "" : "s", failed, failed == 1 ? "" : "s", dir);
            result = JL_CLI_PROBLEMS;
        } else {
            jl_save_report report;
            memset(&report, 0, sizeof report);
            s = jl_world_save(world, dir, &report);
            jl_cli_print_save_problems(stderr, &report);
            if (s != JL_OK) {
                fprintf(stderr, "juliet unshare: the save into %s failed\n", dir);
                result = JL_CLI_PROBLEMS;
            } else {
                fprintf(stderr, "%s: %u change%s applied, %u file%s written, %u deleted\n", dir, applied,
                        applied == 1 ? "" : "s", report.written_count, report.written_count == 1 ? "" : "s",
                        report.deleted_count);
            }
        }
    }
    jl_world_free(world);
    return result;
}

static int unshare_run(int argc, char **argv)
{
    const char *link = NULL, *dir = NULL;
    bool changes = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--changes") == 0) changes = true;
        else if (argv[i][0] == '-' && argv[i][1] != '\0') return jl_cli_fail("unshare", "unknown option '%s'", argv[i]);
        else if (!link) link = argv[i];
        else if (!dir) dir = argv[i];
        else return jl_cli_fail("unshare", "unexpected argument '%s'", argv[i]);
    }
    if (!link || !dir) return jl_cli_fail("unshare", "expected a link (or fragment, or -) and a directory");
    int code = changes ? 0 : jl_cli_check_new_dir("unshare", dir);
    if (code) return code;

    jl_arena arena;
    if (jl_arena_init(&arena, arena_reserve) != JL_OK) return jl_cli_fail("unshare", "out of memory");
    uint8_t *bytes = NULL;
    size_t bytes_size = 0;
    int result = link_bytes(&arena, link, changes ? "change" : "snapshot", &bytes, &bytes_size);
    if (!result)
        result = changes ? unshare_changes(&arena, bytes, bytes_size, dir) : unshare_world(bytes, bytes_size, dir);
    jl_arena_release(&arena);
    return result;
}

JL_CLI_COMMAND(unshare_command, "unshare", unshare_run, "write the world held by a link into a directory",
               unshare_usage)
