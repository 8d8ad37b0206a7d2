/* sample_wasm_classes.c - jlw_register_classes of the sample game's wasm
 * module (c/wasm/module_classes.h): the library's exports with the sample
 * classes Inert, Light and Prop compiled in, for the inspector, its local
 * server and the JavaScript suites. */
#include "module_classes.h"
#include "sample_classes.h"

jl_status jlw_register_classes(void) { return sample_register_classes(); }
