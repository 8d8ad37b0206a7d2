/* version.h - the library's version (semantic versioning). This header is
 * the one home of the number: CMake reads it for the package version and
 * juliet.pc, and the npm package's version is checked against it. */
#ifndef JULIET_VERSION_H
#define JULIET_VERSION_H

#define JL_VERSION_MAJOR 0
#define JL_VERSION_MINOR 2
#define JL_VERSION_PATCH 0
#define JL_VERSION_STRING "0.2.0"

/* The version of the library linked (JL_VERSION_STRING when it was built),
 * for a program to compare with the header it was compiled against. */
const char *jl_version(void);

#endif
