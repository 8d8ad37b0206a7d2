/* module_classes.h - the classes a wasm module has compiled in.
 *
 * exports.c is linked into more than one module: the library's own
 * (juliet-world), which has no class compiled in, and a program's, built
 * from the same exports with its classes linked in (this repository's
 * sample game: c/sample/sample_wasm_classes.c). Each module links exactly
 * one definition of jlw_register_classes; the library's is
 * no_classes.c. */
#ifndef JULIET_WASM_MODULE_CLASSES_H
#define JULIET_WASM_MODULE_CLASSES_H

#include "juliet/status.h"

/* Registers the module's compiled classes in the program's registry
 * (jl_class_register), once, before any world is created; jlw_init calls
 * it. Calling it again changes nothing. Returns JL_OK or the first
 * registration's failure. */
jl_status jlw_register_classes(void);

#endif
