/* version.c - the version of the library linked (version.h). */
#include "juliet/version.h"

const char *jl_version(void) { return JL_VERSION_STRING; }
