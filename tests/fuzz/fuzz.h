/* fuzz.h - what the libFuzzer targets share. */
#ifndef JULIET_FUZZ_H
#define JULIET_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "juliet/arena.h"
#include "juliet/class.h" /* jl_crc32 */
#include "sample_classes.h"

/* Checks a property beyond "no sanitizer report": when cond is false,
 * prints the target's file, the line and the condition, then aborts, which
 * libFuzzer reports as a crash and keeps the input of. */
#define FUZZ_ASSERT(cond) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #cond); \
            abort(); \
        } \
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

/* Defines the target's LLVMFuzzerInitialize for a target whose inputs use
 * the sample classes and that writes into one arena: the classes
 * registered, then arena (a jl_arena of the target) made with room for size
 * bytes. */
#define FUZZ_INITIALIZE_WITH_ARENA(arena, size) \
    int LLVMFuzzerInitialize(int *argc, char ***argv) \
    { \
        (void)argc; \
        (void)argv; \
        fuzz_register_classes(); \
        if (jl_arena_init(&(arena), (size)) != JL_OK) abort(); \
        return 0; \
    }

/* A mutated link's bytes almost never keep their checksum right, which the
 * decoders check first: a copy of data[0, size) with its last 4 bytes made
 * the CRC-32 of the rest, for a target to decode too, so that mutations
 * reach past the checksum. NULL when the checksum is already right or
 * size < 8; free() it. */
static inline uint8_t *fuzz_checksum_fixed(const uint8_t *data, size_t size)
{
    if (size < 8) return NULL;
    uint32_t crc = jl_crc32(data, size - 4);
    uint8_t le[4] = {(uint8_t)crc, (uint8_t)(crc >> 8), (uint8_t)(crc >> 16), (uint8_t)(crc >> 24)};
    if (memcmp(data + size - 4, le, 4) == 0) return NULL;
    uint8_t *fixed = malloc(size);
    FUZZ_ASSERT(fixed);
    memcpy(fixed, data, size - 4);
    memcpy(fixed + size - 4, le, 4);
    return fixed;
}

#endif
