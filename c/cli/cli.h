/* cli.h - the `juliet` command-line tool's command table and shared helpers.
 *
 * Each command group lives in its own file (cmd_world.c: validate, stats,
 * fmt, gen) and registers its commands with JL_CLI_COMMAND; main.c only
 * dispatches, printing a command's usage for -h or --help. A new group is a new c/cli/cmd_*.c file: CMake globs c/cli/,
 * and nothing else needs editing.
 *
 * Exit codes: 0 success, 1 the command ran and found problems (validate,
 * fmt --check, a load with diagnostics), 2 bad arguments or a failure to
 * run (printed as one line: "juliet CMD: reason"). */
#ifndef JULIET_CLI_H
#define JULIET_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "juliet/world.h"

/* argv[0] is the command's name; argv[1..argc) its arguments. Never called
 * with -h or --help among them: main prints the usage instead. */
typedef int (*jl_cli_fn)(int argc, char **argv);

typedef struct jl_cli_command {
    const char *name; /* "validate" */
    jl_cli_fn run;
    const char *summary; /* one line for `juliet --help` */
    const char *usage;   /* the full text for `juliet CMD --help` */
} jl_cli_command;

/* Adds a command to the table (called before main by JL_CLI_COMMAND). */
void jl_cli_register(const jl_cli_command *command);

#define JL_CLI_COMMAND(ident, name, fn, summary, usage) \
    static const jl_cli_command ident = {name, fn, summary, usage}; \
    __attribute__((constructor)) static void jl_cli_register_##ident(void) { jl_cli_register(&ident); }

enum { JL_CLI_OK = 0, JL_CLI_PROBLEMS = 1, JL_CLI_USAGE = 2 };

/* Prints "juliet CMD: <reason>" and a hint to stderr; returns JL_CLI_USAGE. */
int jl_cli_fail(const char *command, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prints one error as "path:line:col: message" on stream (stdout or stderr). */
void jl_cli_print_error(void *stream, const jl_error *error);

/* Prints what a save left undone (world.h, jl_save_report) on stream: a
 * lock taken over, each file left alone because another program changed it
 * since it was read, the first other failure. Nothing for a clean save. */
void jl_cli_print_save_problems(void *stream, const jl_save_report *report);

/* Prints every diagnostic of the world, one per line; returns how many. */
uint32_t jl_cli_print_diagnostics(void *stream, const jl_world *world);

/* Parses a decimal unsigned number that fits in max; false otherwise. */
bool jl_cli_parse_u64(const char *text, uint64_t max, uint64_t *out);

/* The arguments of a command that takes one world directory and at most
 * one flag (NULL: none): *dir gets the directory, *flag_set whether the
 * flag was given. 0, or the exit status after printing why (an unknown
 * option, no directory, more than one). */
int jl_cli_one_dir(const char *command, int argc, char **argv, const char *flag, bool *flag_set, const char **dir);

/* A new world for a command: capacity for any realistic world (address
 * space reserved, not memory used). */
jl_status jl_cli_new_world(jl_world **world, bool keep_temp_files);

/* 0 if dir may receive a new world (jl_world_check_new_dir), else prints
 * why and returns the exit status (JL_CLI_USAGE). */
int jl_cli_check_new_dir(const char *command, const char *dir);

/* A duplicated ID repaired by jl_cli_fix_duplicates: the file old_id names
 * kept it; the later entity that also carried it now has new_id. */
typedef struct jl_cli_moved_id {
    uint64_t old_id;
    uint64_t new_id;
} jl_cli_moved_id;

/* `validate --fix-duplicates` on one world directory (fix_duplicates.c):
 * gives the later of every two entities that carry one ID a fresh ID and
 * file, and renames every file named after another entity's ID to its own
 * ID's name (swapped files included, no ID changed), printing each repair,
 * or why one is left alone, on stdout, then "DIR: N misnamed files renamed"
 * on stderr. Holds the world's lock from before the first read to the end;
 * if another writer holds it, changes nothing and says so. *moved gets the
 * ID repairs (from out, valid until it is released), *count their number.
 * JL_ERR_OUT_OF_MEMORY if no world can be created. */
jl_status jl_cli_fix_duplicates(const char *dir, jl_arena *out, jl_cli_moved_id **moved, uint32_t *count);

/* jl_cli_fix_duplicates through the file system fs (the world's load, the
 * lock and every read, write and rename): a test passes one that faults. */
jl_status jl_cli_fix_duplicates_fs(const jl_fs *fs, const char *dir, jl_arena *out, jl_cli_moved_id **moved,
                                   uint32_t *count);

/* Prints every reference of world (as loaded after the repairs) to an
 * old_id of moved as "path:line:col: ..." naming both entities it may mean;
 * returns how many. Sorts moved. */
uint32_t jl_cli_print_moved_references(const jl_world *world, const char *dir, jl_cli_moved_id *moved, uint32_t count);

#endif
