/* cli_run.h - running the built `juliet` tool from a test file: its path,
 * the captured output of the last run, run() with printf-style arguments,
 * find_output() to look for a text in it and NEED_JULIET() to start a test
 * that needs it. Include once per test file, after test.h and
 * persist_util.h (the state is the file's own). */
#ifndef JULIET_TEST_CLI_RUN_H
#define JULIET_TEST_CLI_RUN_H

static char juliet[1024];
static char output[1 << 16];

/* Runs `juliet ARGS`, ARGS formatted as by printf, with stdout and stderr
 * in `output`; returns the exit status (-1 if it did not exit normally). */
static int run(const char *args_format, ...)
{
    va_list ap;
    va_start(ap, args_format);
    int status = du_run_args(juliet, output, sizeof output, args_format, ap);
    va_end(ap);
    return status;
}

/* Where the text formatted as by printf first stands in the output of the
 * last run (NULL if nowhere, and then both are printed for the failure's
 * reader). */
static const char *find_output(const char *format, ...) __attribute__((format(printf, 1, 2)));
static const char *find_output(const char *format, ...)
{
    static char expected[4096];
    va_list ap;
    va_start(ap, format);
    vsnprintf(expected, sizeof expected, format, ap);
    va_end(ap);
    const char *at = strstr(output, expected);
    if (!at) fprintf(stderr, "output: %s\nexpected: %s\n", output, expected);
    return at;
}

/* Starts a test that runs the tool. A wasm build cannot start processes:
 * there the tests end at once (the native run covers the tool). */
#ifdef __EMSCRIPTEN__
#define NEED_JULIET() \
    if (!du_find_cli(juliet, sizeof juliet)) return
#else
#define NEED_JULIET() CHECK(du_find_cli(juliet, sizeof juliet))
#endif

#endif
