/* juliet/private/class_registry.h - the layout of jl_class_registry: the
 * classes by kind and the name table.
 *
 * Private tier: what is declared here may change without notice, from one
 * release to the next. Programs use the headers one level up
 * (<juliet/class_registry.h>), which include this one only because C needs
 * the layout for a registry held by value (a world holds one); they never
 * read or write these fields. */
#ifndef JULIET_PRIVATE_CLASS_REGISTRY_H
#define JULIET_PRIVATE_CLASS_REGISTRY_H

#include <stdint.h>

#include "../class_registry.h" /* the API laid out here; it includes this header at its end */

/* A registry of classes. Plain data, so that a world can hold (and copy)
 * one without allocating. */
struct jl_class_registry {
    uint32_t count;                        /* classes: kinds [0, count) */
    const jl_class *by_kind[JL_CLASS_MAX]; /* the class of each kind */
    uint8_t by_name[JL_CLASS_NAME_SLOTS];  /* kind + 1 (0 = empty), linear probing
                                                from the name's CRC32 */
};

#endif
