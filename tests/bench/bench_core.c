/* bench_core.c - entity manager figures against a plain C array of 48-byte
 * records: create (MakeEntity), destroy, iterate positions; and the memory a
 * 4M-capacity manager really uses with 1,000 entities. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "juliet/entity_manager.h"
#include "sample_classes.h"
#include "juliet/platform.h"
#include "report.h"

typedef struct record {
    uint64_t id;
    const void *kind;
    void *derived;
    float x, y, z, w;
    bool is_dirty;
    uint8_t pad[7];
} record;
_Static_assert(sizeof(record) == 48 || sizeof(void *) != 8, "baseline records are 48 bytes");

enum { ITERATE_PASSES = 20, DESTROY_RUNS = 5 };

static uint64_t best_of(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Best of `runs` creations of n entities. Warm: into a manager reset after
 * the previous run, as at a level reload (memory committed and resident).
 * Cold: into a new manager, so every page is touched for the first time. */
static uint64_t time_create(uint32_t n, int runs, bool warm)
{
    uint64_t best = UINT64_MAX;
    jl_entity_manager m;
    jl_manager_desc desc = {.capacity = n};
    if (warm && jl_manager_init(&m, &desc) != JL_OK) exit(1);
    for (int run = 0; run < runs + (warm ? 1 : 0); run++) {
        if (!warm) jl_platform_trim(); /* memory new to the process, not kept from the last run */
        if (!warm && jl_manager_init(&m, &desc) != JL_OK) exit(1);
        uint64_t start = jl_platform_now_ns();
        for (uint32_t i = 0; i < n; i++)
            if (!JL_MAKE_ENTITY(&m, sample_inert, (float)i, 1.0f, 2.0f)) exit(1);
        uint64_t elapsed = jl_platform_now_ns() - start;
        if (!warm || run > 0) best = best_of(best, elapsed); /* a warm series skips its first run */
        if (warm) jl_manager_reset(&m);
        else jl_manager_shutdown(&m);
    }
    if (warm) jl_manager_shutdown(&m);
    return best;
}

/* The same for a plain array of 48-byte records: warm reuses one buffer,
 * cold maps a new one each run. */
static uint64_t time_baseline_create(uint32_t n, int runs, bool warm)
{
    uint64_t best = UINT64_MAX;
    record *records = NULL;
    for (int run = 0; run < runs + (warm ? 1 : 0); run++) {
        if (!records) {
            jl_platform_trim(); /* cold: memory new to the process */
            records = jl_platform_reserve((size_t)n * sizeof(record));
        }
        if (!records || !jl_platform_commit(records, (size_t)n * sizeof(record))) exit(1);
        uint64_t start = jl_platform_now_ns();
        for (uint32_t i = 0; i < n; i++)
            records[i] = (record){.id = i + 1, .x = (float)i, .y = 1.0f, .z = 2.0f, .w = 1.0f, .is_dirty = true};
        uint64_t elapsed = jl_platform_now_ns() - start;
        if (!warm || run > 0) best = best_of(best, elapsed);
        bench_consume(records[n / 2].id);
        if (!warm) {
            jl_platform_release(records, (size_t)n * sizeof(record), (size_t)n * sizeof(record));
            records = NULL;
        }
    }
    if (records) jl_platform_release(records, (size_t)n * sizeof(record), (size_t)n * sizeof(record));
    return best;
}

static void bench_manager(uint32_t n)
{
    jl_entity_manager m;
    jl_manager_desc desc = {.capacity = n};
    if (jl_manager_init(&m, &desc) != JL_OK) exit(1);
    for (uint32_t i = 0; i < n; i++)
        if (!JL_MAKE_ENTITY(&m, sample_inert, (float)i, 1.0f, 2.0f)) exit(1);

    uint64_t iterate = UINT64_MAX;
    for (int pass = 0; pass < ITERATE_PASSES; pass++) {
        uint64_t start = jl_platform_now_ns();
        float sum = 0;
        for (jl_entity *e = jl_entities_first(&m); e; e = jl_entities_next(&m, e))
            sum += e->position.x + e->position.y + e->position.z;
        iterate = best_of(iterate, jl_platform_now_ns() - start);
        bench_consume((uint64_t)sum);
    }

    /* Destroy in creation order (what flecs' figure measures), then in a
     * scattered order; each the best of DESTROY_RUNS populations, made
     * after a reset, with the pending deletions forgotten between runs as
     * a save would. */
    uint64_t destroy = UINT64_MAX, scattered = UINT64_MAX;
    for (int run = 0; run < DESTROY_RUNS; run++) {
        if (run > 0) {
            jl_manager_reset(&m);
            jl_manager_forget_pending_deletions(&m);
            for (uint32_t i = 0; i < n; i++)
                if (!JL_MAKE_ENTITY(&m, sample_inert, (float)i, 1.0f, 2.0f)) exit(1);
        }
        uint64_t start = jl_platform_now_ns();
        for (jl_entity *e = jl_entities_first(&m); e; e = jl_entities_next(&m, e))
            if (jl_entity_destroy(&m, e) != JL_OK) exit(1);
        destroy = best_of(destroy, jl_platform_now_ns() - start);
    }
    for (int run = 0; run < DESTROY_RUNS; run++) {
        jl_manager_reset(&m);
        jl_manager_forget_pending_deletions(&m);
        for (uint32_t i = 0; i < n; i++)
            if (!JL_MAKE_ENTITY(&m, sample_inert, (float)i, 1.0f, 2.0f)) exit(1);
        uint64_t start = jl_platform_now_ns();
        for (uint32_t i = 0; i < n; i++) {
            /* 2654435761 is prime and n a power of ten: this visits every slot once. */
            uint32_t slot = (uint32_t)(((uint64_t)i * 2654435761u) % n);
            if (jl_entity_destroy(&m, &m.entities[slot]) != JL_OK) exit(1);
        }
        scattered = best_of(scattered, jl_platform_now_ns() - start);
    }
    bench_report("destroy", n, destroy);
    bench_note("  destroy in scattered order: %.2f ns/entity", (double)scattered / n);
    bench_report("iterate", n, iterate);

    record *records = malloc((size_t)n * sizeof(record));
    if (!records) exit(1);
    for (uint32_t i = 0; i < n; i++) records[i] = (record){.id = i + 1, .x = (float)i, .y = 1.0f, .z = 2.0f};
    uint64_t baseline = UINT64_MAX;
    for (int pass = 0; pass < ITERATE_PASSES; pass++) {
        uint64_t t0 = jl_platform_now_ns();
        float sum = 0;
        for (uint32_t i = 0; i < n; i++) sum += records[i].x + records[i].y + records[i].z;
        baseline = best_of(baseline, jl_platform_now_ns() - t0);
        bench_consume((uint64_t)sum);
    }
    bench_report("baseline_iterate", n, baseline);
    bench_note("  iterate / baseline_iterate = %.2f", (double)iterate / (double)baseline);
    free(records);
    jl_manager_shutdown(&m);
}

static long resident_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages_total = 0, pages_resident = 0;
    if (!f) return -1;
    if (fscanf(f, "%ld %ld", &pages_total, &pages_resident) != 2) pages_resident = -1;
    fclose(f);
    return pages_resident < 0 ? -1 : pages_resident * (long)(jl_platform_page_size() / 1024);
}

static void memory_of_large_capacity(void)
{
    long before = resident_kib();
    jl_entity_manager m;
    jl_manager_desc desc = {.capacity = 4000000};
    if (jl_manager_init(&m, &desc) != JL_OK) exit(1);
    for (int i = 0; i < 1000; i++)
        if (!JL_MAKE_ENTITY(&m, sample_prop, (float)i, 0, 0)) exit(1);
    long after = resident_kib();
    bench_note(
        "4M-capacity manager with 1,000 entities: resident +%ld KiB, committed %zu KiB "
        "(capacity would need %zu KiB)",
        after - before, jl_manager_committed_bytes(&m) / 1024,
        (size_t)4000000 * (sizeof(jl_entity) + sizeof(sample_prop) + sizeof(sample_inert) + sizeof(sample_light)) /
            1024);
    jl_manager_shutdown(&m);
}

int main(int argc, char **argv)
{
    bench_init(argc, argv);
    bench_note("entity manager, best of several runs, %zu-byte base entities", sizeof(jl_entity));
    if (bench_wants("create baseline_create")) {
        for (uint32_t n = 100000; n <= 1000000; n *= 10) {
            uint64_t create = time_create(n, 5, true), baseline = time_baseline_create(n, 5, true);
            bench_report("create", n, create);
            bench_report("baseline_create", n, baseline);
            bench_note("  create / baseline_create = %.2f", (double)create / (double)baseline);
            bench_note("  into new memory (first-touch page faults): create %.2f, baseline %.2f ns/entity",
                       (double)time_create(n, 3, false) / n, (double)time_baseline_create(n, 3, false) / n);
        }
    }
    if (bench_wants("destroy iterate baseline_iterate")) bench_manager(100000);
    if (bench_wants("")) memory_of_large_capacity(); /* a note, no figure */
    return 0;
}
