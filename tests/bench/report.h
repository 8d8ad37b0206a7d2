/* report.h - how every benchmark prints a figure: a readable line, or with
 * --json one object per line {"bench": NAME, "n": N, "ns_per_entity": T}
 * where T is the total time divided by n. With --only NAME a program runs
 * only the part that measures figure NAME, so that a profiler's counts
 * (valgrind --tool=callgrind, perf record) hold that work alone. */
#ifndef JULIET_BENCH_REPORT_H
#define JULIET_BENCH_REPORT_H

#include <stdbool.h>
#include <stdint.h>

/* Reads --json and --only NAME from the command line and registers the
 * sample game's classes the benchmarks use (exits on failure). Call first
 * in main. */
void bench_init(int argc, char **argv);
bool bench_json(void);

/* Whether to run a part that reports the figures named in figures (names
 * separated by spaces): always, unless --only names none of them. A part
 * that reports no figure (only notes) passes "" and runs in whole runs. */
bool bench_wants(const char *figures);

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
