/* main.c - `juliet`: dispatches to the commands registered by the cmd_*.c
 * files (cli.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "juliet/version.h"
#include "sample_classes.h"

enum { MAX_COMMANDS = 32 };
static const jl_cli_command *commands[MAX_COMMANDS];
static int command_count;

void jl_cli_register(const jl_cli_command *command)
{
    if (command_count < MAX_COMMANDS) commands[command_count++] = command;
}

/* True if the arguments ask for help (-h or --help); prints the usage. */
static bool wants_help(int argc, char **argv, const char *usage)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return true;
        }
    }
    return false;
}

int jl_cli_fail(const char *command, const char *format, ...)
{
    fprintf(stderr, "juliet %s: ", command);
    va_list args;
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fprintf(stderr, " (see juliet %s --help)\n", command);
    return JL_CLI_USAGE;
}

void jl_cli_print_error(void *stream, const jl_error *error)
{
    char line[JL_ERROR_TEXT_MAX];
    fprintf((FILE *)stream, "%s\n", jl_error_format(error, line, sizeof line));
}

void jl_cli_print_save_problems(void *stream, const jl_save_report *report)
{
    FILE *out = stream;
    if (report->notice[0]) fprintf(out, "juliet: %s\n", report->notice);
    for (uint32_t i = 0; i < report->conflict_count; i++) {
        jl_error e;
        jl_error_set(&e, JL_ERR_CONFLICT, report->conflicts[i], 0, 0,
                     "changed on disk by another program since it was read: left as it is");
        jl_cli_print_error(out, &e);
    }
    if (report->error.status != JL_OK && report->error.status != JL_ERR_CONFLICT)
        jl_cli_print_error(out, &report->error);
    if (report->conflict_count)
        fprintf(out, "juliet: %u file%s changed since they were read: run the command again to include %s\n",
                report->conflict_count, report->conflict_count == 1 ? "" : "s",
                report->conflict_count == 1 ? "it" : "them");
}

uint32_t jl_cli_print_diagnostics(void *stream, const jl_world *world)
{
    uint32_t n = jl_world_diagnostic_count(world);
    for (uint32_t i = 0; i < n; i++) jl_cli_print_error(stream, jl_world_diagnostic(world, i));
    return n;
}

bool jl_cli_parse_u64(const char *text, uint64_t max, uint64_t *out)
{
    if (!text || !*text) return false;
    uint64_t v = 0;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        uint64_t d = (uint64_t)(*p - '0');
        if (v > (max - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

int jl_cli_one_dir(const char *command, int argc, char **argv, const char *flag, bool *flag_set, const char **dir)
{
    *dir = NULL;
    if (flag_set) *flag_set = false;
    for (int i = 1; i < argc; i++) {
        if (flag && strcmp(argv[i], flag) == 0) *flag_set = true;
        else if (argv[i][0] == '-') return jl_cli_fail(command, "unknown option '%s'", argv[i]);
        else if (*dir) return jl_cli_fail(command, "expected one world directory, got '%s' too", argv[i]);
        else *dir = argv[i];
    }
    return *dir ? 0 : jl_cli_fail(command, "expected a world directory");
}

jl_status jl_cli_new_world(jl_world **world, bool keep_temp_files)
{
    jl_world_desc desc = {.capacity = 4u << 20, .keep_temp_files = keep_temp_files};
    return jl_world_new(&desc, world);
}

int jl_cli_check_new_dir(const char *command, const char *dir)
{
    jl_arena scratch;
    if (jl_arena_init(&scratch, (size_t)64 << 20) != JL_OK) return jl_cli_fail(command, "out of memory");
    jl_error err = {0};
    jl_status s = jl_world_check_new_dir(jl_fs_native(), dir, &scratch, &err);
    jl_arena_release(&scratch);
    if (s == JL_OK) return 0;
    fprintf(stderr, "juliet %s: ", command);
    jl_cli_print_error(stderr, &err);
    return JL_CLI_USAGE;
}

static void print_help(void)
{
    printf(
        "usage: juliet COMMAND [ARGS...]\n\n"
        "The Juliet world tool: checks, describes, formats, compares and generates\n"
        "worlds stored as directories of .jasset files, and merges their files.\n\ncommands:\n");
    for (int i = 0; i < command_count; i++) printf("  %-10s %s\n", commands[i]->name, commands[i]->summary);
    printf(
        "\nRun `juliet COMMAND --help` for a command's arguments, `juliet --version` for the version.\n"
        "Exit status: 0 ok, 1 problems found, 2 bad arguments or failure.\n");
}

int main(int argc, char **argv)
{
    /* The classes this build knows: the sample game's, registered before
     * any world is created. */
    jl_status registered = sample_register_classes();
    if (registered != JL_OK) {
        fprintf(stderr, "juliet: cannot register the sample classes: %s\n", jl_status_name(registered));
        return JL_CLI_USAGE;
    }
    if (argc < 2) {
        print_help();
        return JL_CLI_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        print_help();
        return JL_CLI_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("juliet %s\n", jl_version());
        return JL_CLI_OK;
    }
    for (int i = 0; i < command_count; i++)
        if (strcmp(argv[1], commands[i]->name) == 0) {
            if (wants_help(argc - 1, argv + 1, commands[i]->usage)) return JL_CLI_OK;
            return commands[i]->run(argc - 1, argv + 1);
        }
    fprintf(stderr, "juliet: unknown command '%s' (see juliet --help)\n", argv[1]);
    return JL_CLI_USAGE;
}
