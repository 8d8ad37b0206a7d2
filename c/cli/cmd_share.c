/* cmd_share.c - `juliet share` and `juliet unshare`: a world as a link and
 * back (snapshot.h). The pipeline is jl_snapshot_encode_world, raw deflate
 * (the system zlib, level 9), base64url; and the inverse with inflate
 * capped at JL_SNAPSHOT_MAX_BYTES, so an expansion bomb is an error, not a
 * huge allocation. The browser does the same with CompressionStream. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "cli.h"
#include "juliet/archive.h"
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
    "usage: juliet share DIR [--base URL]\n\n"
    "Prints a link that holds the whole world in DIR: every entity, its\n"
    "unknown keys and the world settings, encoded compactly, deflated and\n"
    "base64url-encoded after '#' (the fragment never reaches a server).\n"
    "Open it in the inspector, or write it back with `juliet unshare`.\n"
    "--base URL   the page the link opens: the team's hosted inspector, an\n"
    "             http:// or https:// address (default: share_base in the\n"
    "             world's WorldSettings.jasset, else http://localhost:5173/,\n"
    "             which opens only on this machine)\n"
    "A world with load problems is refused (exit status 1): the link would\n"
    "silently leave the bad files out.\n";

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

static int share_run(int argc, char **argv)
{
    const char *dir = NULL, *base = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--base") == 0) {
            if (i + 1 >= argc) return jl_cli_fail("share", "--base needs a URL");
            base = argv[++i];
        } else if (strncmp(argv[i], "--base=", 7) == 0) {
            base = argv[i] + 7;
        } else if (argv[i][0] == '-') {
            return jl_cli_fail("share", "unknown option '%s'", argv[i]);
        } else if (dir) {
            return jl_cli_fail("share", "expected one world directory, got '%s' too", argv[i]);
        } else {
            dir = argv[i];
        }
    }
    if (!dir) return jl_cli_fail("share", "expected a world directory");
    const char *problem = base ? base_problem(base) : NULL;
    if (problem) return jl_cli_fail("share", "--base %s: %s", base, problem);

    jl_world *world = NULL;
    jl_status s = open_world(&world, true);
    if (s != JL_OK) return jl_cli_fail("share", "cannot create a world: %s", jl_status_name(s));
    jl_status loaded = jl_world_load(world, dir);
    uint32_t problems = jl_cli_print_diagnostics(stderr, world);
    if (loaded == JL_ERR_NOT_FOUND || loaded == JL_ERR_IO || problems) {
        fprintf(stderr,
                "juliet share: %s has %u problem%s: fix them first (juliet validate), "
                "a link would leave those files out\n",
                dir, problems, problems == 1 ? "" : "s");
        jl_world_free(world);
        return JL_CLI_PROBLEMS;
    }

    char setting[JL_VALUE_TEXT_MAX];
    if (!base && world_base(world, setting)) {
        if ((problem = base_problem(setting))) {
            jl_world_free(world);
            return refuse("share", "share_base '%s' in %s/WorldSettings.jasset: %s (fix it, or give --base URL)",
                          setting, dir, problem);
        }
        base = setting;
    } else if (!base) {
        base = default_base;
        fprintf(stderr,
                "juliet share: the link opens only on this machine; for one others can open, set "
                "share_base in WorldSettings.jasset or give --base URL (docs/inspector.md)\n");
    }

    jl_arena arena;
    if (jl_arena_init(&arena, arena_reserve) != JL_OK) {
        jl_world_free(world);
        return jl_cli_fail("share", "out of memory");
    }
    int result = JL_CLI_OK;
    jl_error err = {0};
    jl_snapshot_bytes bytes;
    s = jl_snapshot_encode_world(world, &arena, &bytes, &err);
    if (s != JL_OK) {
        result = refuse("share", "cannot encode %s: %s", dir, err.message);
    } else {
        size_t capacity = compressBound((uLong)bytes.size) + 64;
        uint8_t *packed = jl_arena_push(&arena, capacity, 16);
        size_t packed_size = 0;
        if (!packed || !deflate_raw(bytes.data, bytes.size, packed, capacity, &packed_size)) {
            result = jl_cli_fail("share", "deflate failed");
        } else {
            size_t chars = jl_base64url_encoded_size(packed_size);
            char *text = jl_arena_push(&arena, chars + 1, 1);
            if (!text) {
                result = jl_cli_fail("share", "out of memory");
            } else {
                jl_base64url_encode(packed, packed_size, text);
                /* A base that already has a fragment gets ours instead. */
                size_t base_size = strcspn(base, "#");
                printf("%.*s#%.*s\n", (int)base_size, base, (int)chars, text);
                uint32_t n = jl_world_count(world);
                fprintf(stderr,
                        "%s: %u entities, %zu bytes encoded, %zu deflated, %zu characters "
                        "(%.2f per entity)\n",
                        dir, n, bytes.size, packed_size, chars, n ? (double)chars / n : 0.0);
            }
        }
    }
    jl_arena_release(&arena);
    jl_world_free(world);
    return result;
}

JL_CLI_COMMAND(share_command, "share", share_run, "print a link that holds a whole world", share_usage)

/* ---- unshare ---- */

static const char unshare_usage[] =
    "usage: juliet unshare LINK-OR-FRAGMENT DIR\n\n"
    "Writes the world held by a link from `juliet share` (or the inspector)\n"
    "into DIR as .jasset files. LINK-OR-FRAGMENT is the whole link, or the\n"
    "text after its '#', or - to read either from standard input (links\n"
    "longer than the system's argument limit). DIR must not exist or be\n"
    "empty: a world is never merged into. The world is written beside DIR\n"
    "and renamed into place, so DIR holds all of it or nothing.\n"
    "Entities marked read-only (made by a newer version) are kept in the\n"
    "link but, as always, never written.\n";

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

static int unshare_run(int argc, char **argv)
{
    const char *link = NULL, *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] != '\0') return jl_cli_fail("unshare", "unknown option '%s'", argv[i]);
        if (!link) link = argv[i];
        else if (!dir) dir = argv[i];
        else return jl_cli_fail("unshare", "unexpected argument '%s'", argv[i]);
    }
    if (!link || !dir) return jl_cli_fail("unshare", "expected a link (or fragment, or -) and a directory");
    int code = jl_cli_check_new_dir("unshare", dir);
    if (code) return code;

    jl_arena arena;
    if (jl_arena_init(&arena, arena_reserve) != JL_OK) return jl_cli_fail("unshare", "out of memory");
    int result = JL_CLI_OK;
    char *input = (char *)link;
    size_t input_size = strlen(link);
    if (strcmp(link, "-") == 0 && !read_stdin(&arena, (size_t)JL_SNAPSHOT_MAX_TEXT + 4096, &input, &input_size)) {
        jl_arena_release(&arena);
        return jl_cli_fail("unshare", "cannot read the link from standard input (or it is too long)");
    }
    size_t text_size;
    const char *text = jl_snapshot_link_payload(input, input_size, &text_size);
    jl_error err = {0};
    uint8_t *packed = NULL, *bytes = NULL;
    size_t packed_size = 0, bytes_size = 0;
    const char *why = NULL;
    jl_world *world = NULL;

    if (text_size == 0) {
        result = refuse("unshare", "the link holds no snapshot (nothing after '#')");
    } else if (text_size > JL_SNAPSHOT_MAX_TEXT) {
        result = refuse("unshare", "the snapshot text is %zu characters, more than the limit %u", text_size,
                        (unsigned)JL_SNAPSHOT_MAX_TEXT);
    } else if (!(packed = jl_arena_push(&arena, jl_base64url_decoded_size_max(text_size) + 1, 16))) {
        result = jl_cli_fail("unshare", "out of memory");
    } else if (jl_base64url_decode(text, text_size, packed, jl_base64url_decoded_size_max(text_size) + 1, &packed_size,
                                   &err) != JL_OK) {
        result = refuse("unshare", "not a snapshot link: %s", err.message);
    } else if (!inflate_raw(&arena, packed, packed_size, &bytes, &bytes_size, &why)) {
        result = refuse("unshare", "not a snapshot link: %s", why);
    } else if (open_world(&world, false) != JL_OK) {
        result = jl_cli_fail("unshare", "cannot create a world");
    } else {
        if (jl_snapshot_decode_world(bytes, bytes_size, world, &err) != JL_OK) {
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
    }
    jl_world_free(world);
    jl_arena_release(&arena);
    return result;
}

JL_CLI_COMMAND(unshare_command, "unshare", unshare_run, "write the world held by a link into a directory",
               unshare_usage)
