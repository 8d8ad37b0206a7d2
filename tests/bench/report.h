/* report.h - how every benchmark prints a figure: a readable line, or with
 * --json one object per line {"bench": NAME, "n": N, "ns_per_entity": T}
 * where T is the total time divided by n. */
#ifndef JULIET_BENCH_REPORT_H
#define JULIET_BENCH_REPORT_H

#include <stdbool.h>
#include <stdint.h>

/* Reads --json from the command line and registers the sample game's
 * classes the benchmarks use (exits on failure). Call first in main. */
void bench_init(int argc, char **argv);
bool bench_json(void);

/* Prints one figure: total_ns spent on n entities. */
void bench_report(const char *name, uint64_t n, uint64_t total_ns);

/* Prints a free-form note (a ratio, a memory figure); suppressed with --json. */
void bench_note(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Defeats dead-code elimination of a benchmark's result. */
void bench_consume(uint64_t value);

#endif
