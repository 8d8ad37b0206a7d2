/* cmd_schema.c - `juliet schema DIR`: writes a class file,
 * Classes/<Name>.jclass, for every class compiled into the program, so a
 * game's tools can put their schema into their worlds (class_file.h). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "juliet/class_file.h"
#include "juliet/class_registry.h"
#include "juliet/fs.h"

static const char schema_usage[] =
    "usage: juliet schema DIR\n\n"
    "Writes DIR/Classes/<Name>.jclass for every class compiled into this\n"
    "program (the same text a world reads back as the same class), each\n"
    "atomically, and prints the path of every file it wrote. A file that\n"
    "already holds exactly that text is left untouched. A world whose class\n"
    "files agree with the program's classes loads with no diagnostic; one\n"
    "whose files disagree is reported by `juliet validate`.\n";

static int schema_run(int argc, char **argv)
{
    const char *dir;
    int bad = jl_cli_one_dir("schema", argc, argv, NULL, NULL, &dir);
    if (bad) return bad;

    jl_arena arena;
    if (jl_arena_init(&arena, (size_t)64 << 20) != JL_OK) return jl_cli_fail("schema", "out of memory");
    const jl_fs *fs = jl_fs_native();
    uint32_t written = 0, unchanged = 0;
    int result = JL_CLI_OK;
    for (uint32_t kind = 0; kind < jl_class_count(); kind++) {
        const jl_class *cls = jl_class_at(kind);
        const char *text;
        size_t size;
        bool wrote = false;
        jl_error err = {0};
        jl_status s = jl_class_file_text(cls, &arena, &text, &size, &err);
        if (s == JL_OK) s = jl_class_file_save(fs, dir, cls->name, text, size, &arena, &wrote, &err);
        jl_arena_pop_to(&arena, 0);
        if (s != JL_OK) {
            fprintf(stderr, "juliet schema: ");
            jl_cli_print_error(stderr, &err);
            result = JL_CLI_USAGE;
            break;
        }
        if (wrote) {
            printf("%s/%s/%s%s\n", dir, JL_CLASS_FILES_DIR, cls->name, JL_CLASS_FILE_SUFFIX);
            written++;
        } else {
            unchanged++;
        }
    }
    fprintf(stderr, "%s: %u class file%s written, %u unchanged\n", dir, written, written == 1 ? "" : "s", unchanged);
    jl_arena_release(&arena);
    return result;
}

JL_CLI_COMMAND(schema_command, "schema", schema_run, "write the program's classes as class files into a world",
               schema_usage)
