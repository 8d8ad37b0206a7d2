/* test.h - the small test harness of the native suites.
 *
 * TEST(name) { ... } defines and registers a test; CHECK(cond) fails it and
 * returns from the test function, printing file:line and the condition.
 * TEST_SLOW(name) registers a test CTest only runs with the `slow` label.
 * Run `test_suite` for every test of the file or `test_suite name` for one. */
#ifndef JULIET_TEST_H
#define JULIET_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef void (*jt_fn)(void);
void jt_register(const char *name, jt_fn fn, bool slow);
void jt_fail(const char *file, int line, const char *what);
bool jt_failed(void);

#define JT_DEFINE(name, slow) \
    static void name(void); \
    __attribute__((constructor)) static void jt_register_##name(void) { jt_register(#name, name, slow); } \
    static void name(void)
#define TEST(name) JT_DEFINE(name, false)
#define TEST_SLOW(name) JT_DEFINE(name, true)

#define CHECK(cond) \
    do { \
        if (!(cond)) { \
            jt_fail(__FILE__, __LINE__, #cond); \
            return; \
        } \
    } while (0)

/* CHECK inside helpers called from a test: they return bool. */
#define CHECK_OR_FALSE(cond) \
    do { \
        if (!(cond)) { \
            jt_fail(__FILE__, __LINE__, #cond); \
            return false; \
        } \
    } while (0)

/* In a child process a test fork()ed: takes the world lock of the world
 * directory dir into *lock (the native file system, no waiting), or ends
 * the process with exit status 1. The child then holds it as another
 * writer would, until it releases it or dies. */
struct jl_world_lock;
void jt_hold_world_lock(struct jl_world_lock *lock, const char *dir);

/* The next number of a xorshift64 sequence (*state, never 0): random
 * inputs that are the same on every run. */
static inline uint64_t jt_xorshift(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

#endif
