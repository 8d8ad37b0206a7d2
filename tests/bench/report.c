/* report.c - printing of benchmark figures (see report.h). */
#include "report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_classes.h"

static bool json_output;
static const char *only; /* --only NAME, or NULL */
static volatile uint64_t sink;

void bench_init(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json_output = true;
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--json] [--only FIGURE]\n", argv[0]);
            exit(2);
        }
    }
    jl_status s = sample_register_classes();
    if (s != JL_OK) {
        fprintf(stderr, "%s: cannot register the sample classes: %s\n", argc ? argv[0] : "bench", jl_status_name(s));
        exit(1);
    }
}

bool bench_json(void) { return json_output; }

bool bench_wants(const char *figures)
{
    if (!only) return true;
    const size_t n = strlen(only);
    for (const char *f = figures; *f;) {
        const size_t size = strcspn(f, " ");
        if (size == n && strncmp(f, only, n) == 0) return true;
        f += size + (f[size] == ' ');
    }
    return false;
}

void bench_report(const char *name, uint64_t n, uint64_t total_ns)
{
    double per = n ? (double)total_ns / (double)n : 0.0;
    if (json_output)
        printf("{\"bench\": \"%s\", \"n\": %llu, \"ns_per_entity\": %.3f}\n", name, (unsigned long long)n, per);
    else printf("%-18s n=%-9llu %10.2f ns/entity\n", name, (unsigned long long)n, per);
    fflush(stdout);
}

void bench_note(const char *format, ...)
{
    if (json_output) return;
    va_list args;
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    printf("\n");
    fflush(stdout);
}

void bench_consume(uint64_t value) { sink += value; }
