/* class_registry.h - the entity classes a program knows, as data.
 *
 * The library defines no entity class. A program registers its own compiled
 * classes at start-up, one call per class, from its own source files:
 *
 *   JL_DEFINE_ENTITY(enemy, "Enemy", 1, enemy_fields, NULL, {.health = 100});
 *   ...
 *   int main(void) {
 *       if (jl_class_register(&enemy_class) != JL_OK) return 1;
 *       ... jl_world_new(...) ...
 *   }
 *
 * Memory: registries point at class records, which must outlive every
 * registry, manager and world that uses them (compiled records are static
 * storage). A registry's layout is private (juliet/private/class_registry.h). */
#ifndef JULIET_CLASS_REGISTRY_H
#define JULIET_CLASS_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "class.h"
#include "status.h"

enum {
    JL_CLASS_MAX = 255,        /* classes per registry: kinds 0..254 (255 is JL_CLASS_KIND_NONE) */
    JL_CLASS_NAME_MAX = 63,    /* bytes of a class name */
    JL_CLASS_NAME_SLOTS = 512, /* buckets of the name table: a power of two, load < 1/2 */
};

/* A registry of classes: plain data (the program's is static storage, a
 * world's lives in the world's arena), read through the functions below. */
typedef struct jl_class_registry jl_class_registry;

/* ---- the program's registry: its compiled classes ---- */

/* Registration assigns kinds in order (0, 1, 2, ...; the spec's uint8 kind,
 * up to JL_CLASS_MAX classes) and computes the CRC32 of each name. Both
 * lookups are constant-time: by (kind, crc) an array index and a compare (the
 * spec's ResolveEntityClass), by name the name's CRC32 and an open-addressing
 * table keyed by it (find_class_by_name). */

/* Registers cls in the program's registry: gives it the next kind and the
 * CRC32 of its name (both written into *cls). Returns
 *   JL_OK                     registered (also when this very record is
 *                             registered already: nothing changes);
 *   JL_ERR_EXISTS             another record has that name, or a name with
 *                             the same CRC32 (kinds must stay unambiguous);
 *   JL_ERR_CAPACITY           JL_CLASS_MAX classes are registered;
 *   JL_ERR_INVALID_ARGUMENT   an invalid record: NULL; a name that is empty,
 *                             longer than JL_CLASS_NAME_MAX or not an
 *                             identifier (letters, digits, '_', not starting
 *                             with a digit); version 0; size smaller than the
 *                             header (jl_entity_header); alignment not a power
 *                             of two or above 4096; no serialize function; a
 *                             field that is unnamed, of an unknown type, over
 *                             the header or past the end of the struct, or
 *                             named twice.
 * On failure *cls and the registry are unchanged.
 *
 * Register before creating worlds. A world created before a class was
 * registered does not know it: its files load as opaque entities (kept as
 * text under an opaque class of that name, world.h) and allocating it in that
 * world's manager fails with JL_ERR_INVALID_ARGUMENT (worlds created
 * afterwards know it). A manager on the program's registry sees classes as
 * they are registered. Registration is not thread-safe: do it from one
 * thread, before anything else uses the library. */
jl_status jl_class_register(jl_class *cls);

/* The program's registry (static storage; grows with jl_class_register). */
const jl_class_registry *jl_program_classes(void);

/* The lookups below in the program's registry. */
const jl_class *jl_class_resolve(uint8_t kind, uint32_t crc);
const jl_class *jl_class_find_by_name(const char *name, size_t name_size);
uint32_t jl_class_count(void);
const jl_class *jl_class_at(uint32_t kind);

/* ---- any registry ---- */

/* The program's registry (jl_class_register, jl_class_resolve, ...) holds
 * the compiled classes. A world holds a registry of its own
 * (jl_world_classes, world.h): a copy of the program's taken by jl_world_new,
 * which a world may extend with classes of its own later, under the kinds
 * that follow the program's. An entity manager resolves classes through the
 * registry named at its init (jl_manager_desc.classes; the program's by
 * default). Everything that has a world at hand (the loader, the snapshot
 * codec, the stats, the wasm reflection) asks the world's registry. */

/* Number of classes in reg (their kinds are 0 to count - 1). */
uint32_t jl_registry_count(const jl_class_registry *reg);

/* The class of kind `kind` in reg, NULL past the count. */
const jl_class *jl_registry_at(const jl_class_registry *reg, uint32_t kind);

/* The spec's ResolveEntityClass: the class of kind in reg if its CRC is
 * crc, else NULL. O(1). */
const jl_class *jl_registry_resolve(const jl_class_registry *reg, uint8_t kind, uint32_t crc);

/* The spec's find_class_by_name: the class of reg named name (name_size
 * bytes, need not be NUL-terminated; compared exactly), or NULL. O(1): the
 * name's CRC32, then the name table. */
const jl_class *jl_registry_find(const jl_class_registry *reg, const char *name, size_t name_size);

/* The class of reg whose name has CRC32 crc, or NULL (a registry never
 * holds two names with one CRC). O(1). For formats that name classes by
 * CRC (snapshot.h). */
const jl_class *jl_registry_find_crc(const jl_class_registry *reg, uint32_t crc);

#include "private/class_registry.h"

#endif
