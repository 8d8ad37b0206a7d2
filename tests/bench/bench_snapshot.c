/* bench_snapshot.c - size and speed of level snapshots (snapshot.h).
 *
 * The reference world of the size target: 1,000 entities of the 3 classes
 * drawn uniformly with a fixed seed, positions with 2 decimals in
 * [-100, 100], mesh indices below 64, every other field at its default.
 * Printed beside each other, in URL characters per entity:
 *   snapshot  jl_snapshot_encode -> raw deflate level 9 -> base64url
 *   tar.gz    base64 of a gzip -9 tar of Entities/<id>.jasset
 *   gzip      base64 of gzip -9 of the .jasset files concatenated
 * and the entities a 2,000-character link holds; then the same for the
 * richer world of `juliet gen --count 1000` (sample_world_generate: parents,
 * intensities, settings). Then encode and decode ns/entity for 100,000
 * entities (JSON names snapshot_encode, snapshot_decode for the manager
 * codec; snapshot_encode_world, snapshot_decode_world for whole worlds,
 * whose decoding puts the values straight into the world). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "juliet/archive.h"
#include "juliet/platform.h"
#include "juliet/snapshot.h"
#include "juliet/world.h"
#include "sample_classes.h"
#include "sample_world_gen.h"
#include "report.h"

static uint64_t rng;
static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static float two_decimals(void) { return (float)((double)(int)(next_random() % 20001) / 100.0 - 100.0); }

static void build_reference_world(jl_entity_manager *m, uint32_t n, uint64_t seed)
{
    rng = seed;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t kind = (uint32_t)(next_random() % 3);
        float x = two_decimals(), y = two_decimals(), z = two_decimals();
        if (kind == 0) {
            sample_inert *d = JL_MAKE_ENTITY(m, sample_inert, x, y, z);
            d->mesh_instance = (uint32_t)(next_random() % 64);
        } else if (kind == 1) {
            JL_MAKE_ENTITY(m, sample_light, x, y, z);
        } else {
            sample_prop *d = JL_MAKE_ENTITY(m, sample_prop, x, y, z);
            d->mesh_instance = (uint32_t)(next_random() % 64);
        }
    }
}

/* zlib deflate of in: raw (window_bits -15) or gzip (31), level 9. Returns
 * the output size or 0 on failure. */
static size_t deflate_level(const uint8_t *in, size_t size, uint8_t *out, size_t capacity, int window_bits, int level)
{
    z_stream z = {0};
    if (deflateInit2(&z, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)size;
    z.next_out = out;
    z.avail_out = (uInt)capacity;
    int rc = deflate(&z, Z_FINISH);
    size_t written = z.total_out;
    deflateEnd(&z);
    return rc == Z_STREAM_END ? written : 0;
}

static size_t deflate_into(const uint8_t *in, size_t size, uint8_t *out, size_t capacity, int window_bits)
{
    return deflate_level(in, size, out, capacity, window_bits, 9);
}

static size_t base64_padded_size(size_t bytes) { return (bytes + 2) / 3 * 4; }

/* Appends one ustar member (header, data, padding) to tar. */
static size_t tar_member(uint8_t *tar, const char *name, const char *data, size_t size)
{
    uint8_t *h = tar;
    memset(h, 0, 512);
    snprintf((char *)h, 100, "%s", name);
    snprintf((char *)h + 100, 8, "%07o", 0644);
    snprintf((char *)h + 108, 8, "%07o", 0);
    snprintf((char *)h + 116, 8, "%07o", 0);
    snprintf((char *)h + 124, 12, "%011o", (unsigned)size);
    snprintf((char *)h + 136, 12, "%011o", 0);
    h[156] = '0';
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    memset(h + 148, ' ', 8);
    unsigned sum = 0;
    for (int i = 0; i < 512; i++) sum += h[i];
    snprintf((char *)h + 148, 8, "%06o", sum);
    memcpy(tar + 512, data, size);
    size_t padded = (size + 511) / 512 * 512;
    memset(tar + 512 + size, 0, padded - size);
    return 512 + padded;
}

static void size_comparison(void)
{
    enum { N = 1000 };
    jl_entity_manager m;
    jl_manager_desc desc = {.capacity = N, .id_tag = 0x2a2a2a2au};
    jl_arena arena;
    if (jl_manager_init(&m, &desc) != JL_OK || jl_arena_init(&arena, 64u << 20) != JL_OK) return;
    build_reference_world(&m, N, 0x5eed5eed5eedull);

    jl_snapshot_bytes snap;
    jl_error err = {0};
    if (jl_snapshot_encode_manager(&m, &arena, &snap, &err) != JL_OK) {
        bench_note("snapshot: %s", err.message);
        return;
    }
    static uint8_t packed[1 << 20];
    size_t deflated = deflate_into(snap.data, snap.size, packed, sizeof packed, -15);
    size_t chars = jl_base64url_encoded_size(deflated);
    /* Browsers' CompressionStream takes no level: zlib's default, 6. */
    size_t chars6 = jl_base64url_encoded_size(deflate_level(snap.data, snap.size, packed, sizeof packed, -15, 6));

    /* The same entities as .jasset files, in ID order. */
    static char concat[4 << 20];
    static uint8_t tar[16 << 20];
    size_t concat_size = 0, tar_size = 0;
    for (jl_entity *e = jl_entities_first(&m); e; e = jl_entities_next(&m, e)) {
        jl_archive ar = {0};
        const char *text;
        size_t size;
        size_t mark = arena.used;
        jl_archive_begin_write(&ar, &arena);
        if (jl_archive_write_entity(&ar, e, NULL, 0) != JL_OK || jl_archive_end_write(&ar, &text, &size) != JL_OK)
            return;
        char name[64];
        snprintf(name, sizeof name, "Entities/%" PRIu64 ".jasset", e->id);
        memcpy(concat + concat_size, text, size);
        concat_size += size;
        tar_size += tar_member(tar + tar_size, name, text, size);
        jl_arena_pop_to(&arena, mark);
    }
    memset(tar + tar_size, 0, 1024); /* end-of-archive blocks */
    tar_size += 1024;
    static uint8_t gz[8 << 20];
    size_t tgz = deflate_into(tar, tar_size, gz, sizeof gz, 31);
    size_t gzc = deflate_into((const uint8_t *)concat, concat_size, gz, sizeof gz, 31);

    bench_note(
        "reference world: %d entities, 3 classes, 2-decimal positions in [-100, 100], "
        "mesh indices < 64",
        N);
    bench_note(
        "  snapshot  %6zu bytes encoded, %6zu deflated, %6zu URL chars = %5.2f chars/entity "
        "(target <= 11); a 2000-char link holds ~%zu entities",
        snap.size, deflated, chars, (double)chars / N, (size_t)(2000.0 * N / chars));
    bench_note("            (deflate level 6, as CompressionStream: %zu URL chars = %5.2f chars/entity)", chars6,
               (double)chars6 / N);
    bench_note("  tar.gz    %6zu bytes of tar, %6zu gzipped, %6zu base64 chars = %5.2f chars/entity", tar_size, tgz,
               base64_padded_size(tgz), (double)base64_padded_size(tgz) / N);
    bench_note("  gzip      %6zu bytes of text, %6zu gzipped, %6zu base64 chars = %5.2f chars/entity", concat_size, gzc,
               base64_padded_size(gzc), (double)base64_padded_size(gzc) / N);
    jl_arena_release(&arena);
    jl_manager_shutdown(&m);
}

static size_t link_chars(const jl_snapshot_bytes *snap, int level)
{
    static uint8_t packed[8 << 20];
    return jl_base64url_encoded_size(deflate_level(snap->data, snap->size, packed, sizeof packed, -15, level));
}

static void generated_world(void)
{
    enum { N = 1000 };
    jl_world *world;
    jl_world_desc desc = {.capacity = N, .id_tag = sample_world_gen_tag(1)};
    jl_arena arena;
    if (jl_world_new(&desc, &world) != JL_OK || jl_arena_init(&arena, 64u << 20) != JL_OK) return;
    jl_snapshot_bytes snap;
    if (sample_world_generate(world, N, 1) == JL_OK && jl_snapshot_encode_world(world, &arena, &snap, NULL) == JL_OK) {
        size_t chars = link_chars(&snap, 9);
        bench_note(
            "generated world (juliet gen --count %d --seed 1): %zu bytes encoded, %zu URL chars "
            "= %5.2f chars/entity",
            N, snap.size, chars, (double)chars / N);
    }
    jl_arena_release(&arena);
    jl_world_free(world);
}

static void world_speed(void)
{
    enum { N = 100000, ROUNDS = 3 };
    jl_world *world, *back;
    jl_world_desc desc = {.capacity = N, .id_tag = sample_world_gen_tag(1)};
    jl_arena arena;
    if (jl_world_new(&desc, &world) != JL_OK || jl_arena_init(&arena, 256u << 20) != JL_OK) return;
    if (sample_world_generate(world, N, 1) != JL_OK) return;
    uint64_t best_encode = UINT64_MAX, best_decode = UINT64_MAX;
    jl_snapshot_bytes snap = {0};
    for (int r = 0; r < ROUNDS; r++) {
        jl_arena_pop_to(&arena, 0);
        uint64_t t0 = jl_platform_now_ns();
        if (jl_snapshot_encode_world(world, &arena, &snap, NULL) != JL_OK) return;
        uint64_t t1 = jl_platform_now_ns();
        if (t1 - t0 < best_encode) best_encode = t1 - t0;
    }
    for (int r = 0; r < ROUNDS; r++) {
        if (jl_world_new(&desc, &back) != JL_OK) return;
        uint64_t t0 = jl_platform_now_ns();
        jl_status st = jl_snapshot_decode_world(snap.data, snap.size, back, NULL);
        uint64_t t1 = jl_platform_now_ns();
        bench_consume(jl_world_count(back));
        jl_world_free(back);
        if (st != JL_OK) return;
        if (t1 - t0 < best_decode) best_decode = t1 - t0;
    }
    bench_report("snapshot_encode_world", N, best_encode);
    bench_report("snapshot_decode_world", N, best_decode);
    jl_arena_release(&arena);
    jl_world_free(world);
}

static void speed(void)
{
    enum { N = 100000, ROUNDS = 5 };
    jl_entity_manager m, back;
    jl_manager_desc desc = {.capacity = N, .id_tag = 0x2a2a2a2au};
    jl_arena arena;
    if (jl_manager_init(&m, &desc) != JL_OK || jl_arena_init(&arena, 256u << 20) != JL_OK) return;
    build_reference_world(&m, N, 0x5eed5eed5eedull);

    uint64_t best_encode = UINT64_MAX, best_decode = UINT64_MAX;
    jl_snapshot_bytes snap = {0};
    for (int r = 0; r < ROUNDS; r++) {
        jl_arena_pop_to(&arena, 0);
        uint64_t t0 = jl_platform_now_ns();
        if (jl_snapshot_encode_manager(&m, &arena, &snap, NULL) != JL_OK) return;
        uint64_t t1 = jl_platform_now_ns();
        if (t1 - t0 < best_encode) best_encode = t1 - t0;
    }
    for (int r = 0; r < ROUNDS; r++) {
        if (jl_manager_init(&back, &desc) != JL_OK) return;
        uint64_t t0 = jl_platform_now_ns();
        jl_status st = jl_snapshot_decode_manager(snap.data, snap.size, NULL, &back, NULL);
        uint64_t t1 = jl_platform_now_ns();
        bench_consume(back.count);
        jl_manager_shutdown(&back);
        if (st != JL_OK) return;
        if (t1 - t0 < best_decode) best_decode = t1 - t0;
    }
    bench_report("snapshot_encode", N, best_encode);
    bench_report("snapshot_decode", N, best_decode);
    jl_arena_release(&arena);
    jl_manager_shutdown(&m);
}

int main(int argc, char **argv)
{
    bench_init(argc, argv);
    if (bench_wants("")) { /* sizes, not figures: only in a whole run */
        size_comparison();
        generated_world();
    }
    if (bench_wants("snapshot_encode snapshot_decode")) speed();
    if (bench_wants("snapshot_encode_world snapshot_decode_world")) world_speed();
    return 0;
}
