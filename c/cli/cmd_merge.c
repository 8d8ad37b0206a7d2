/* cmd_merge.c - `juliet merge BASE OURS THEIRS [-o OUT]`: the three-way
 * merge of one .jasset file key by key (diff.h, jl_text_merge: the one the
 * JavaScript API's textMerge runs), in the form git runs a merge driver. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "juliet/archive.h"
#include "juliet/diff.h"
#include "juliet/fs.h"

static const char merge_usage[] =
    "usage: juliet merge BASE OURS THEIRS [-o OUT] [--path NAME]\n\n"
    "Merges OURS and THEIRS, two versions of a .jasset file changed from\n"
    "BASE, key by key: a key one side changed takes that change (a value, an\n"
    "addition or a removal); a key both sides changed differently is a\n"
    "conflict, printed on stderr as `PATH: conflict in KEY: ours VALUE,\n"
    "theirs VALUE (kept ours)`, and keeps ours. Formatting alone is no change;\n"
    "the merged text is written in canonical form, to OUT (atomically) or to\n"
    "stdout. PATH is NAME if given (for messages only), else OURS.\n\n"
    "As git's merge driver for entity files:\n"
    "  git config merge.juliet.driver 'juliet merge %O %A %B -o %A --path %P'\n"
    "  echo '*.jasset merge=juliet' >> .gitattributes\n\n"
    "Exit status 0 when merged without conflict, 1 when a key conflicted\n"
    "(ours kept; git lists the file as conflicted), 2 when a file cannot be\n"
    "read or does not tokenize (nothing written).\n";

/* Escaped text of a path, a key or a value (at most a line): each byte at
 * worst four characters. */
static char escaped[4][4 * JL_ARCHIVE_LINE_MAX + 1];

static const char *escape(int slot, const char *text, size_t size)
{
    if (!text) return "(none)";
    jl_text_escape(text, size, JL_ESCAPE_TERMINAL, escaped[slot], sizeof escaped[slot]);
    return escaped[slot];
}

static jl_status print_conflict(void *ctx, const jl_key_conflict *c, jl_merge_side *keep)
{
    (void)keep; /* ours */
    const char *path = ctx;
    fprintf(stderr, "%s: conflict in %s: ours %s, theirs %s (kept ours)\n", escape(3, path, strlen(path)),
            escape(0, c->key, c->key_size), escape(1, c->ours_value, c->ours_size),
            escape(2, c->theirs_value, c->theirs_size));
    return JL_OK;
}

static int merge_run(int argc, char **argv)
{
    const char *files[3], *out_path = NULL, *name = NULL;
    int file_count = 0;
    for (int i = 1; i < argc; i++) {
        const bool valued = strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--path") == 0;
        if (valued && i + 1 == argc) return jl_cli_fail("merge", "%s needs a value", argv[i]);
        if (strcmp(argv[i], "-o") == 0) out_path = argv[++i];
        else if (strcmp(argv[i], "--path") == 0) name = argv[++i];
        else if (argv[i][0] == '-') return jl_cli_fail("merge", "unknown option '%s'", argv[i]);
        else if (file_count == 3) return jl_cli_fail("merge", "expected three files, got more");
        else files[file_count++] = argv[i];
    }
    if (file_count != 3) return jl_cli_fail("merge", "expected three files: BASE OURS THEIRS");

    jl_arena arena;
    if (jl_arena_init(&arena, (size_t)1 << 30) != JL_OK) return jl_cli_fail("merge", "out of memory");
    const jl_fs *fs = jl_fs_native();
    /* Messages name NAME, each version marked, where git's temporaries
     * would say nothing. */
    static const char *const sides[3] = {" (base)", "", " (theirs)"};
    char paths[3][JL_ERROR_PATH_MAX];
    jl_merge_input in[3];
    jl_error err = {0};
    jl_status s = JL_OK;
    for (int i = 0; s == JL_OK && i < 3; i++) {
        char *data = NULL;
        int code = fs->read_file(fs, files[i], JL_ARCHIVE_FILE_MAX, &arena, &data, &in[i].size, NULL);
        if (code) s = jl_fs_error(&err, files[i], "read_file", code);
        snprintf(paths[i], sizeof paths[i], "%s%s", name ? name : files[i], name ? sides[i] : "");
        in[i].text = data;
        in[i].path = paths[i];
    }
    const char *text = NULL;
    size_t size = 0;
    uint32_t conflicts = 0;
    if (s == JL_OK)
        s = jl_text_merge(&in[0], &in[1], &in[2], &arena, &arena, print_conflict, paths[1], &text, &size, &conflicts,
                          &err);
    if (s == JL_OK && out_path) s = jl_fs_write_atomic(fs, out_path, text, size, &err);
    if (s == JL_OK && !out_path && (fwrite(text, 1, size, stdout) != size || fflush(stdout) != 0))
        s = jl_error_set(&err, JL_ERR_IO, NULL, 0, 0, "cannot write the merged text to stdout");
    jl_arena_release(&arena);
    if (s != JL_OK) {
        fprintf(stderr, "juliet merge: ");
        jl_cli_print_error(stderr, &err);
        return JL_CLI_USAGE;
    }
    return conflicts ? JL_CLI_PROBLEMS : JL_CLI_OK;
}

JL_CLI_COMMAND(merge_command, "merge", merge_run, "merge two versions of an entity file, key by key", merge_usage)
