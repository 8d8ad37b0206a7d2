/* harness.c - registry and main of the native test executables, and the
 * helpers of test.h that need the engine. main registers the sample game's
 * entity classes (sample_classes.h) before any test runs, as every program
 * that uses them does at start-up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "juliet/arena.h"
#include "juliet/fs.h"
#include "juliet/world_lock.h"
#include "sample_classes.h"
#include "test.h"

enum { MAX_TESTS = 256 };

static struct {
    const char *name;
    jt_fn fn;
    bool slow;
} tests[MAX_TESTS];
static int test_count;
static bool current_failed;

void jt_register(const char *name, jt_fn fn, bool slow)
{
    if (test_count == MAX_TESTS) {
        fprintf(stderr, "harness: more than %d tests in one file\n", MAX_TESTS);
        exit(2);
    }
    tests[test_count].name = name;
    tests[test_count].fn = fn;
    tests[test_count].slow = slow;
    test_count++;
}

void jt_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    current_failed = true;
}

bool jt_failed(void) { return current_failed; }

void jt_hold_world_lock(jl_world_lock *lock, const char *dir)
{
    /* The arena outlives this call: the lock reads its file back through it
     * at release. It is never freed: the child exits or is killed. */
    static jl_arena scratch;
    static bool ready;
    if (!ready && jl_arena_init(&scratch, 1 << 20) != JL_OK) _exit(1);
    ready = true;
    if (jl_world_lock_acquire(lock, jl_fs_native(), dir, 0, &scratch, NULL) != JL_OK) _exit(1);
}

int main(int argc, char **argv)
{
    jl_status registered = sample_register_classes();
    if (registered != JL_OK) {
        fprintf(stderr, "harness: cannot register the sample classes: %s\n", jl_status_name(registered));
        return 2;
    }
    int passed = 0, failed = 0, ran = 0;
    for (int i = 0; i < test_count; i++) {
        /* With no argument run every fast test; with names, run those. */
        bool wanted = argc < 2 ? !tests[i].slow : false;
        for (int a = 1; a < argc; a++)
            if (strcmp(argv[a], tests[i].name) == 0) wanted = true;
        if (!wanted) continue;
        ran++;
        current_failed = false;
        tests[i].fn();
        if (current_failed) {
            failed++;
            printf("FAIL %s\n", tests[i].name);
        } else {
            passed++;
            printf("ok   %s\n", tests[i].name);
        }
    }
    if (ran == 0) {
        fprintf(stderr, "harness: no test named");
        for (int a = 1; a < argc; a++) fprintf(stderr, " %s", argv[a]);
        fprintf(stderr, "\n");
        return 2;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
