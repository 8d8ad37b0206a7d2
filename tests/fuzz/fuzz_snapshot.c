/* fuzz_snapshot.c - libFuzzer target for the snapshot decoders (snapshot.h).
 *
 * The input is an encoded snapshot (the bytes after inflate), decoded both
 * into a bare manager and into a world, as given and with its checksum
 * made right. Properties checked beyond "no sanitizer report":
 *  - a rejected input leaves the manager (world) with no entity and no
 *    pending deletion, and has a diagnostic;
 *  - an accepted one satisfies every manager invariant (jl_manager_check),
 *    re-encodes, and that encoding decodes to a world that encodes to the
 *    very same bytes (the encoder is canonical: a fixed point after one
 *    round);
 * and the same input, read as snapshot text, goes through base64url decode
 * and, when accepted, encodes back to exactly the same text (base64url has
 * one text per byte string). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "juliet/snapshot.h"
#include "juliet/private/world_manager.h" /* white-box: the world's manager */
#include "juliet/world.h"
#include "fuzz.h"

/* Small enough that the capacity checks are reached, big enough for every
 * seed. */
enum { FUZZ_CAPACITY = 4096 };

static jl_arena scratch, out_arena;
static uint8_t *b64_buffer;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_register_classes();
    if (jl_arena_init(&scratch, 512u << 20) != JL_OK || jl_arena_init(&out_arena, 512u << 20) != JL_OK) abort();
    return 0;
}

static void check_base64url(const uint8_t *data, size_t size)
{
    size_t text_size;
    const char *text = jl_snapshot_link_payload((const char *)data, size, &text_size);
    FUZZ_ASSERT(text >= (const char *)data && text + text_size <= (const char *)data + size);
    size_t cap = jl_base64url_decoded_size_max(text_size);
    b64_buffer = realloc(b64_buffer, cap + 1);
    FUZZ_ASSERT(b64_buffer);
    size_t n = 0;
    jl_error err = {0};
    if (jl_base64url_decode(text, text_size, b64_buffer, cap, &n, &err) != JL_OK) return;
    FUZZ_ASSERT(n <= cap);
    FUZZ_ASSERT(jl_base64url_encoded_size(n) == text_size);
    char *again = malloc(text_size + 1);
    FUZZ_ASSERT(again);
    FUZZ_ASSERT(jl_base64url_encode(b64_buffer, n, again) == text_size);
    FUZZ_ASSERT(memcmp(again, text, text_size) == 0);
    free(again);
}

/* The manager-only decoder: a snapshot without a world section. */
static void check_manager(const uint8_t *data, size_t size)
{
    jl_manager_desc desc = {.capacity = FUZZ_CAPACITY, .id_tag = 0x0f0f0f0fu};
    jl_entity_manager first, second;
    if (jl_manager_init(&first, &desc) != JL_OK) abort();
    jl_error err = {0};
    jl_status s = jl_snapshot_decode_manager(data, size, &scratch, &first, &err);
    FUZZ_ASSERT(scratch.used == 0);
    if (s != JL_OK) {
        FUZZ_ASSERT(err.status == s && err.message[0] != '\0');
        FUZZ_ASSERT(first.count == 0 && jl_entities_first(&first) == NULL);
        FUZZ_ASSERT(jl_manager_check(&first, &err) == JL_OK);
        jl_manager_shutdown(&first);
        return;
    }
    FUZZ_ASSERT(jl_manager_check(&first, &err) == JL_OK);

    jl_snapshot_bytes one, two;
    FUZZ_ASSERT(jl_snapshot_encode_manager(&first, &out_arena, &one, &err) == JL_OK);
    if (jl_manager_init(&second, &desc) != JL_OK) abort();
    FUZZ_ASSERT(jl_snapshot_decode_manager(one.data, one.size, &scratch, &second, &err) == JL_OK);
    FUZZ_ASSERT(second.count == first.count);
    FUZZ_ASSERT(jl_manager_check(&second, &err) == JL_OK);
    FUZZ_ASSERT(jl_snapshot_encode_manager(&second, &out_arena, &two, &err) == JL_OK);
    FUZZ_ASSERT(one.size == two.size && memcmp(one.data, two.data, one.size) == 0);
    jl_arena_pop_to(&out_arena, 0);
    jl_manager_shutdown(&second);
    jl_manager_shutdown(&first);
}

/* The world decoder (what opening a shared link runs). */
static void check_world(const uint8_t *data, size_t size)
{
    jl_world_desc desc = {.capacity = FUZZ_CAPACITY, .id_tag = 0x0f0f0f0fu};
    jl_world *first, *second;
    if (jl_world_new(&desc, &first) != JL_OK) abort();
    jl_error err = {0};
    jl_status s = jl_snapshot_decode_world(data, size, first, &err);
    if (s != JL_OK) {
        FUZZ_ASSERT(err.status == s && err.message[0] != '\0');
        FUZZ_ASSERT(jl_world_count(first) == 0 && jl_world_manager(first)->pending_count == 0);
        FUZZ_ASSERT(jl_manager_check(jl_world_manager(first), &err) == JL_OK);
        jl_world_free(first);
        return;
    }
    FUZZ_ASSERT(jl_manager_check(jl_world_manager(first), &err) == JL_OK);

    jl_snapshot_bytes one, two;
    FUZZ_ASSERT(jl_snapshot_encode_world(first, &out_arena, &one, &err) == JL_OK);
    if (jl_world_new(&desc, &second) != JL_OK) abort();
    s = jl_snapshot_decode_world(one.data, one.size, second, &err);
    if (s != JL_OK) {
        char line[1024];
        fprintf(stderr, "re-encoded world does not decode: %s\n", jl_error_format(&err, line, sizeof line));
        FUZZ_ASSERT(s == JL_OK);
    }
    FUZZ_ASSERT(jl_world_count(second) == jl_world_count(first));
    FUZZ_ASSERT(jl_snapshot_encode_world(second, &out_arena, &two, &err) == JL_OK);
    FUZZ_ASSERT(one.size == two.size && memcmp(one.data, two.data, one.size) == 0);
    jl_arena_pop_to(&out_arena, 0);
    jl_world_free(second);
    jl_world_free(first);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_base64url(data, size);
    check_manager(data, size);
    check_world(data, size);
    uint8_t *fixed = fuzz_checksum_fixed(data, size);
    if (fixed) {
        check_manager(fixed, size);
        check_world(fixed, size);
    }
    free(fixed);
    return 0;
}
