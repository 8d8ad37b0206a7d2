/* fuzz.h - what the libFuzzer targets share. */
#ifndef JULIET_FUZZ_H
#define JULIET_FUZZ_H

#include <stdio.h>
#include <stdlib.h>

#include "sample_classes.h"

/* Checks a property beyond "no sanitizer report": when cond is false,
 * prints the target's file, the line and the condition, then aborts, which
 * libFuzzer reports as a crash and keeps the input of. */
#define FUZZ_ASSERT(cond)                                                                  \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #cond);   \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

/* Registers the sample game's classes, the ones the seed inputs use: from
 * LLVMFuzzerInitialize, before any world or manager exists. */
static inline void fuzz_register_classes(void)
{
    jl_status s = sample_register_classes();
    if (s != JL_OK) {
        fprintf(stderr, "cannot register the sample classes: %s\n", jl_status_name(s));
        abort();
    }
}

#endif
