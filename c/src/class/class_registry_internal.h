/* class_registry_internal.h - adding a class to any registry (the world's
 * own classes go through it; class_registry.h is the public API). Internal
 * names carry the jli_ prefix. */
#ifndef JULIET_CLASS_REGISTRY_INTERNAL_H
#define JULIET_CLASS_REGISTRY_INTERNAL_H

#include "juliet/class_registry.h"

/* Adds cls to reg under the next kind, writing its kind and CRC into *cls:
 * the contract of jl_class_register for any registry. A zeroed registry
 * is empty. A record belongs to one registry (its kind is that registry's):
 * never add one record to two. */
jl_status jli_registry_add(jl_class_registry *reg, jl_class *cls);

#endif
