/* no_classes.c - jlw_register_classes of the library's own wasm module
 * (module_classes.h): it compiles in no class. A world's classes come from
 * its class files (Classes/<Name>.jclass); entities of a class nobody
 * described are kept as text (opaque). */
#include "module_classes.h"

jl_status jlw_register_classes(void) { return JL_OK; }
